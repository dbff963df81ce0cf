//! The host list: its format, its matching, and the published one.

use std::path::Path;

use super::super::hosts::{HostList, Listed};

#[test]
fn hosts_match_without_case_a_trailing_dot_or_one_leading_www() {
    let list = super::hosts();
    let reference = Some(Listed::Kind("reference".into()));
    for host in ["example.org", "www.example.org", "WWW.EXAMPLE.ORG", "example.org."] {
        assert_eq!(list.get(host), reference.as_ref(), "{host}");
    }
    assert_eq!(list.get("shop.example.org"), None, "a subdomain is a host of its own");
    assert_eq!(list.get("mirror.example.org"), Some(&Listed::Mirror { of: "example.org".into() }));
}

#[test]
fn a_list_with_an_unknown_kind_a_repeated_or_malformed_host_is_refused() {
    let refused = HostList::parse(
        r#"
        [[hosts]]
        host = "example.org"
        kind = "blog"

        [[hosts]]
        host = "https://example.com/"
        kind = "press"

        [[mirrors]]
        host = "www.example.org"
        mirrorOf = "example.net"
        "#,
    )
    .unwrap_err();
    assert_eq!(
        refused.to_string(),
        "example.org: kind 'blog' is not one of manufacturer, standards_body, government, reference, \
         aggregator, press, retailer, community, other; 'https://example.com/' is not a bare lower-case \
         host name; www.example.org is listed twice (hosts match without a leading www.)"
    );
    let unknown_key = HostList::parse("[[hosts]]\nhost = \"example.org\"\nkind = \"press\"\nurl = \"x\"\n");
    assert!(unknown_key.unwrap_err().to_string().contains("unknown field `url`"));
}

#[test]
fn the_published_list_loads() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/hosts.toml");
    let list = HostList::load(&path).unwrap();
    assert_eq!(list.get("en.wikipedia.org"), Some(&Listed::Kind("reference".into())));
    assert!(matches!(list.get("www.wikiwand.com"), Some(Listed::Mirror { .. })));
    assert!(list.len() > 40);
}
