//! A webhook target, parsed once: the spec's "Rules for url" 1 to 5 (rule 6, checking again before
//! every delivery, is the worker parsing the stored URL again, plus the address guard in `guard`).
//!
//! Parsing goes through the same WHATWG parser the HTTP client uses (`reqwest::Url`), so the host
//! we judge is the host the client would connect to. That parser already turns every IPv4
//! spelling (decimal `2130706433`, hex `0x7f.1`, octal `0177.0.0.1`, short `127.1`) into a dotted
//! address, which is how those spellings are recognised and refused here.
//!
//! `parse_public_https` is the part of these rules about the link itself (shape, credentials,
//! https, a public host name); sellers' offer links are held to it.

use std::net::Ipv4Addr;

use reqwest::Url;

/// The spec's limit on a webhook URL, in characters.
pub const MAX_URL_CHARS: usize = 2048;

/// What a URL is checked against besides its own shape.
#[derive(Debug, Clone, Copy)]
pub struct UrlRules<'a> {
    pub allow: &'a super::allow::AllowList,
    /// The service's own public host names (a receiver must not be the service itself).
    pub own_hosts: &'a [String],
    /// The hosting platform's worker domain, refused with every name under it.
    pub worker_domain: Option<&'a str>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebhookUrl(Url);

impl WebhookUrl {
    /// Check `raw` against the rules; the error is the problem, fit for `details.url`.
    pub fn parse(raw: &str, rules: &UrlRules<'_>) -> Result<Self, String> {
        let url = parse_bounded(raw)?;
        let host = url.host_str().map(str::to_ascii_lowercase).unwrap_or_default();
        if rules.allow.allows_host(&host) {
            // The operator listed this target: any scheme, port or address (tests, private hooks).
            return match url.scheme() {
                "https" | "http" => Ok(Self(url)),
                _ => Err("must be an http or https URL".into()),
            };
        }
        if url.scheme() != "https" {
            return Err("must use https".into());
        }
        if url.port_or_known_default() != Some(443) {
            return Err("must use port 443".into());
        }
        if let Some(problem) = public_host_problem(&host) {
            return Err(problem);
        }
        let bare = host.trim_end_matches('.');
        let under = |domain: &str| {
            let domain = domain.trim().trim_end_matches('.').to_ascii_lowercase();
            !domain.is_empty() && (bare == domain || bare.ends_with(&format!(".{domain}")))
        };
        if rules.own_hosts.iter().any(|own| under(own)) {
            return Err("must not point at this service".into());
        }
        if rules.worker_domain.is_some_and(under) {
            return Err("must not be on the hosting platform's worker domain".into());
        }
        Ok(Self(url))
    }

    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }

    pub fn url(&self) -> &Url {
        &self.0
    }
}

/// The shape every URL the service stores has (webhook targets, sellers' offer links): absolute,
/// at most `MAX_URL_CHARS` as given and once normalised, naming a host, without credentials. The
/// returned URL is the normalised form, the one stored and used.
pub fn parse_bounded(raw: &str) -> Result<Url, String> {
    if raw.chars().count() > MAX_URL_CHARS {
        return Err(format!("must be at most {MAX_URL_CHARS} characters"));
    }
    let url = Url::parse(raw.trim()).map_err(|e| format!("is not an absolute URL ({e})"))?;
    // The stored and called form is the normalised one, which percent-encoding can lengthen.
    if url.as_str().chars().count() > MAX_URL_CHARS {
        return Err(format!("must be at most {MAX_URL_CHARS} characters once normalised"));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err("must not carry a user name or password".into());
    }
    if url.host_str().is_none() {
        return Err("must name a host".into());
    }
    Ok(url)
}

/// An https link to a public host name (any port): `parse_bounded`, then https, never an IP
/// literal in any spelling nor a special-use or single-label name. What a link the service hands
/// to its users (an offer's) must be; webhooks add their own rules on top.
pub fn parse_public_https(raw: &str) -> Result<Url, String> {
    let url = parse_bounded(raw)?;
    if url.scheme() != "https" {
        return Err("must use https".into());
    }
    match public_host_problem(&url.host_str().unwrap_or_default().to_ascii_lowercase()) {
        Some(problem) => Err(problem),
        None => Ok(url),
    }
}

/// Why a (lower-case) host can never be a public host name, or None.
fn public_host_problem(host: &str) -> Option<String> {
    if is_ip_literal(host) {
        return Some("must name a host, not an IP address".into());
    }
    let bare = host.trim_end_matches('.');
    if let Some(why) = super::wildcard_dns::spelled_address(bare).and_then(super::guard::refusal) {
        return Some(format!("must name a host, not an IP address: {bare} spells a {why} address"));
    }
    never_public(host.trim_end_matches('.')).map(|rule| format!("must name a public host: {rule}"))
}

/// Special-use domains (RFC 6761, RFC 6762, RFC 8375, ICANN's `.internal`) and single-label names
/// can never be a public host; which rule a name breaks, or None.
fn never_public(host: &str) -> Option<&'static str> {
    const SPECIAL: &[(&str, &str)] = &[
        ("localhost", "localhost and names under it are this machine"),
        ("local", "*.local names are multicast DNS on a local network"),
        ("internal", "*.internal names are reserved for private networks"),
        ("home.arpa", "*.home.arpa names are reserved for home networks"),
        ("localdomain", "*.localdomain names are this machine's local domain"),
        ("test", "*.test names are reserved for testing"),
        ("invalid", "*.invalid names never resolve"),
        ("onion", "*.onion names are not reachable on the public internet"),
    ];
    let special = SPECIAL.iter().find(|(domain, _)| host == *domain || host.ends_with(&format!(".{domain}")));
    match special {
        Some((_, why)) => Some(why),
        None if !host.contains('.') => Some("a single-label name resolves only on a local network"),
        None => None,
    }
}

/// After WHATWG parsing an IPv6 literal is bracketed and every IPv4 spelling is dotted; a last
/// label that is still numeric would be an address to a less careful parser, so it is refused too.
fn is_ip_literal(host: &str) -> bool {
    let host = host.trim_end_matches('.');
    if host.starts_with('[') || host.parse::<Ipv4Addr>().is_ok() {
        return true;
    }
    let last = host.rsplit('.').next().unwrap_or(host);
    let numeric = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let hex = |s: &str| s.strip_prefix("0x").is_some_and(|h| h.bytes().all(|b| b.is_ascii_hexdigit()));
    numeric(last) || hex(last)
}

#[cfg(test)]
mod tests {
    use super::super::allow::AllowList;
    use super::*;

    fn check(raw: &str) -> Result<String, String> {
        check_with(raw, &AllowList::default())
    }

    fn check_with(raw: &str, allow: &AllowList) -> Result<String, String> {
        let own = vec!["api.armory.example".to_owned()];
        let rules = UrlRules { allow, own_hosts: &own, worker_domain: Some("workers.dev") };
        WebhookUrl::parse(raw, &rules).map(|url| url.as_str().to_owned())
    }

    #[test]
    fn a_public_https_host_on_443_is_accepted() {
        assert_eq!(check("https://hooks.example.com/in?x=1").unwrap(), "https://hooks.example.com/in?x=1");
        assert!(check("https://hooks.example.com:443/in").is_ok());
        assert!(check("HTTPS://Hooks.Example.COM").is_ok());
    }

    #[test]
    fn rule_1_https_on_port_443_only() {
        assert!(check("http://hooks.example.com/").unwrap_err().contains("https"));
        assert!(check("https://hooks.example.com:8443/").unwrap_err().contains("443"));
        assert!(check("ftp://hooks.example.com/").is_err());
        assert!(check("hooks.example.com/in").is_err());
        assert!(check("").is_err());
    }

    #[test]
    fn rule_2_no_ip_literal_in_any_spelling() {
        for raw in [
            "https://127.0.0.1/",
            "https://8.8.8.8/",
            "https://2130706433/",
            "https://0x7f000001/",
            "https://0x7f.1/",
            "https://0177.0.0.1/",
            "https://127.1/",
            "https://127.0.1/",
            "https://127.0.0.1./",
            "https://[::1]/",
            "https://[::ffff:127.0.0.1]/",
            "https://[2606:4700::1111]/",
            "https://[fe80::1%25eth0]/",
            "https://1.2.3.4.5/",
            "https://host.0x10/",
        ] {
            assert!(check(raw).is_err(), "{raw} is refused");
        }
    }

    #[test]
    fn rule_2_no_credentials() {
        assert!(check("https://user@hooks.example.com/").unwrap_err().contains("user"));
        assert!(check("https://user:pw@hooks.example.com/").is_err());
        assert!(check("https://:pw@hooks.example.com/").is_err());
    }

    #[test]
    fn rule_3_not_the_service_nor_the_worker_domain() {
        assert!(check("https://api.armory.example/hook").unwrap_err().contains("service"));
        assert!(check("https://api.armory.example./hook").is_err());
        assert!(check("https://eu.api.armory.example/hook").is_err());
        assert!(check("https://my-fn.workers.dev/").unwrap_err().contains("worker"));
        assert!(check("https://workers.dev/").is_err());
        assert!(check("https://notworkers.dev/").is_ok());
    }

    #[test]
    fn names_that_can_never_be_public_are_refused_naming_the_rule() {
        for (raw, rule) in [
            ("https://localhost/", "localhost"),
            ("https://localhost./", "localhost"),
            ("https://foo.localhost/", "localhost"),
            ("https://intranet/", "single-label"),
            ("https://intranet./", "single-label"),
            ("https://hooks.internal/", "internal"),
            ("https://printer.local/", "local"),
            ("https://nas.home.arpa/", "home.arpa"),
            ("https://box.localdomain/", "localdomain"),
            ("https://x.test/", "test"),
        ] {
            let problem = check(raw).unwrap_err();
            assert!(
                problem.starts_with("must name a public host") && problem.contains(rule),
                "{raw}: {problem}"
            );
        }
        assert!(check("https://local.example.com/").is_ok(), "only the special domains themselves");
    }

    #[test]
    fn a_name_spelling_a_never_public_address_is_refused_as_the_address_is() {
        for raw in [
            "https://10.0.0.1.nip.io/hook",
            "https://192.168.1.10.sslip.io/hook",
            "https://app-127-0-0-1.nip.io/",
            "https://hooks.localtest.me/",
            "https://--1.sslip.io/",
        ] {
            let problem = check(raw).unwrap_err();
            assert!(problem.starts_with("must name a host, not an IP address"), "{raw}: {problem}");
        }
        assert!(check("https://8.8.8.8.nip.io/hook").is_ok(), "a public address is not a private target");
    }

    #[test]
    fn the_length_is_checked_on_the_normalised_form() {
        // Each space becomes %20 once normalised: 700 raw characters, 1,900 stored.
        let raw = format!("https://hooks.example.com/{}", " x".repeat(700));
        assert!(raw.chars().count() < MAX_URL_CHARS);
        assert!(check(&raw).unwrap_err().contains("normalised"));
    }

    #[test]
    fn rule_5_at_most_2048_characters() {
        let base = "https://hooks.example.com/";
        let fits = format!("{base}{}", "a".repeat(MAX_URL_CHARS - base.len()));
        assert!(check(&fits).is_ok());
        assert!(check(&format!("{fits}a")).unwrap_err().contains("2048"));
    }

    #[test]
    fn a_public_https_link_may_use_any_port_but_no_address_nor_credentials() {
        assert!(parse_public_https("https://shop.example.com:8443/p/1?ref=armory").is_ok());
        assert!(parse_public_https("http://shop.example.com/p/1").unwrap_err().contains("https"));
        assert!(parse_public_https("https://user:pw@shop.example.com/").unwrap_err().contains("password"));
        assert!(parse_public_https("https://0x7f.1/").unwrap_err().contains("IP address"));
        assert!(parse_public_https("https://[::1]/").is_err());
        assert!(parse_public_https("https://localhost/").unwrap_err().contains("public host"));
        let long = format!("https://shop.example.com/{}", "a".repeat(MAX_URL_CHARS));
        assert!(parse_public_https(&long).unwrap_err().contains("2048"));
    }

    #[test]
    fn the_allow_list_exempts_its_targets_but_not_credentials() {
        let allow = AllowList::parse("127.0.0.1,hooks.internal").unwrap();
        assert!(check_with("http://127.0.0.1:9000/hook", &allow).is_ok());
        assert!(check_with("http://hooks.internal:8080/", &allow).is_ok());
        assert!(check_with("http://127.0.0.2:9000/hook", &allow).is_err());
        assert!(check_with("http://u:p@127.0.0.1:9000/", &allow).is_err());
        assert!(check_with("file://127.0.0.1/etc/passwd", &allow).is_err());
    }
}
