//! Public wildcard-DNS services: names that resolve to an address spelled in the name itself
//! (`10.0.0.1.nip.io`, `app-192-168-1-10.sslip.io`) or to loopback whatever the name
//! (`anything.localtest.me`). Such a name is an IP address in disguise, so a URL naming a
//! never-public address this way is refused when it is registered, as the address itself is,
//! without waiting for a delivery to resolve it. The list lives here and only here.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// How a service turns its names into addresses.
#[derive(Debug, Clone, Copy)]
enum Answers {
    /// The address is spelled in the labels before the suffix: dotted (`10.0.0.1.nip.io`),
    /// dashed (`app-10-0-0-1.nip.io`), eight hex digits (`app-0a000001.nip.io`) or an IPv6
    /// address with `-` for `:` (`--1.sslip.io`).
    Spelled,
    /// Every name under the suffix resolves to 127.0.0.1.
    Loopback,
}

/// The wildcard-DNS suffixes known to the service.
const SERVICES: &[(&str, Answers)] = &[
    ("nip.io", Answers::Spelled),
    ("sslip.io", Answers::Spelled),
    ("xip.io", Answers::Spelled),
    ("traefik.me", Answers::Spelled),
    ("localtest.me", Answers::Loopback),
    ("lvh.me", Answers::Loopback),
    ("vcap.me", Answers::Loopback),
    ("lacolhost.com", Answers::Loopback),
];

/// The address a (lower-case, dot-trimmed) host name under a wildcard-DNS service resolves to,
/// when the name alone decides it.
pub fn spelled_address(host: &str) -> Option<IpAddr> {
    let (labels, answers) = SERVICES.iter().find_map(|(suffix, answers)| {
        let labels = host.strip_suffix(suffix)?;
        labels
            .strip_suffix('.')
            .map(|labels| (labels, *answers))
            .or_else(|| labels.is_empty().then_some(("", *answers)))
    })?;
    match answers {
        Answers::Loopback => Some(IpAddr::V4(Ipv4Addr::LOCALHOST)),
        Answers::Spelled => spelled(labels),
    }
}

/// The address spelled at the end of `labels` (the name without the service's suffix).
fn spelled(labels: &str) -> Option<IpAddr> {
    let parts: Vec<&str> = labels.split('.').collect();
    if parts.len() >= 4 {
        let dotted = parts[parts.len() - 4..].join(".");
        if let Ok(v4) = dotted.parse::<Ipv4Addr>() {
            return Some(IpAddr::V4(v4));
        }
    }
    let last = *parts.last()?;
    let dashes: Vec<&str> = last.split('-').collect();
    if dashes.len() >= 4
        && let Ok(v4) = dashes[dashes.len() - 4..].join(".").parse::<Ipv4Addr>()
    {
        return Some(IpAddr::V4(v4));
    }
    let hex = dashes.last()?;
    if hex.len() == 8
        && let Ok(bits) = u32::from_str_radix(hex, 16)
    {
        return Some(IpAddr::V4(Ipv4Addr::from(bits)));
    }
    last.replace('-', ":").parse::<Ipv6Addr>().ok().map(IpAddr::V6)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn address(host: &str) -> Option<String> {
        spelled_address(host).map(|ip| ip.to_string())
    }

    #[test]
    fn every_spelling_of_the_services_is_read() {
        assert_eq!(address("10.0.0.1.nip.io").as_deref(), Some("10.0.0.1"));
        assert_eq!(address("app.10.0.0.1.nip.io").as_deref(), Some("10.0.0.1"));
        assert_eq!(address("192.168.1.10.sslip.io").as_deref(), Some("192.168.1.10"));
        assert_eq!(address("app-10-0-0-1.nip.io").as_deref(), Some("10.0.0.1"));
        assert_eq!(address("magic-c0a80101.nip.io").as_deref(), Some("192.168.1.1"));
        assert_eq!(address("--1.sslip.io").as_deref(), Some("::1"));
        assert_eq!(address("fe80--1.sslip.io").as_deref(), Some("fe80::1"));
        assert_eq!(address("anything.localtest.me").as_deref(), Some("127.0.0.1"));
        assert_eq!(address("lvh.me").as_deref(), Some("127.0.0.1"));
    }

    #[test]
    fn other_names_spell_nothing() {
        assert_eq!(address("hooks.example.com"), None);
        assert_eq!(address("notnip.io"), None);
        assert_eq!(address("www.nip.io"), None);
        assert_eq!(address("10.0.0.1.example.com"), None);
    }
}
