"""The changelog's Atom feed read by a standard feed parser (feedparser), as a feed reader would.

Usage: python3 .ci/check_feed.py URL
Fails when the parser finds the feed malformed, does not recognise Atom 1.0, or an entry lacks an
id, a title, a link or a date it can read; prints the entry count when it passes.
"""

import sys
import urllib.request

import feedparser

url = sys.argv[1]
with urllib.request.urlopen(url) as response:
    content_type = response.headers.get("content-type", "")
    body = response.read()
if not content_type.startswith("application/atom+xml"):
    sys.exit(f"{url}: Content-Type is {content_type!r}, not application/atom+xml")
feed = feedparser.parse(body)
if feed.bozo:
    sys.exit(f"{url}: the feed parser finds it malformed: {feed.bozo_exception}")
if feed.version != "atom10":
    sys.exit(f"{url}: the feed parser reads it as {feed.version!r}, not Atom 1.0")
if not feed.entries:
    sys.exit(f"{url}: the feed has no entries")
ids = set()
for entry in feed.entries:
    for field in ("id", "title", "link", "updated_parsed", "published_parsed"):
        if not entry.get(field):
            sys.exit(f"{url}: an entry lacks {field}: {entry.get('id') or entry.get('title')}")
    if not entry.id.startswith("urn:uuid:") or entry.id in ids:
        sys.exit(f"{url}: entry id {entry.id!r} is not a unique urn:uuid")
    ids.add(entry.id)
print(f"feed: {len(feed.entries)} entries, valid Atom 1.0 for feedparser {feedparser.__version__}")
