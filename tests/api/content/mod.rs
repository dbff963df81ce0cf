//! The service's content, read without a key: changelog, Atom feed, blog and notices.

mod blog_and_notices;
mod changelog;
mod import;
