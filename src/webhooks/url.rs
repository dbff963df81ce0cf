//! A webhook target, parsed once: the spec's "Rules for url" 1 to 5 (rule 6, checking again before
//! every delivery, is the worker parsing the stored URL again, plus the address guard in `guard`).
//!
//! Parsing goes through the same WHATWG parser the HTTP client uses (`reqwest::Url`), so the host
//! we judge is the host the client would connect to. That parser already turns every IPv4
//! spelling (decimal `2130706433`, hex `0x7f.1`, octal `0177.0.0.1`, short `127.1`) into a dotted
//! address, which is how those spellings are recognised and refused here.

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
        if raw.chars().count() > MAX_URL_CHARS {
            return Err(format!("must be at most {MAX_URL_CHARS} characters"));
        }
        let url = Url::parse(raw.trim()).map_err(|e| format!("is not an absolute URL ({e})"))?;
        if !url.username().is_empty() || url.password().is_some() {
            return Err("must not carry a user name or password".into());
        }
        let Some(host) = url.host_str().map(str::to_ascii_lowercase) else {
            return Err("must name a host".into());
        };
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
        if is_ip_literal(&host) {
            return Err("must name a host, not an IP address".into());
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
    fn rule_5_at_most_2048_characters() {
        let base = "https://hooks.example.com/";
        let fits = format!("{base}{}", "a".repeat(MAX_URL_CHARS - base.len()));
        assert!(check(&fits).is_ok());
        assert!(check(&format!("{fits}a")).unwrap_err().contains("2048"));
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
