//! The address guard: which resolved addresses a delivery may connect to.
//!
//! The check runs inside the DNS resolver the HTTP client connects through, on the very addresses
//! it is about to use, so a name that resolves to a public address when registered and to a private
//! one at delivery (DNS rebinding) is still refused.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;

use reqwest::dns::{Addrs, Name, Resolve, Resolving};

use super::allow::AllowList;

/// Why an address is not a public destination, or None when it is one.
pub fn refusal(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) => refusal_v4(v4),
        IpAddr::V6(v6) => refusal_v6(v6),
    }
}

fn refusal_v4(ip: Ipv4Addr) -> Option<&'static str> {
    let [a, b, c, _] = ip.octets();
    Some(match (a, b, c) {
        (0, _, _) => "unspecified",
        (10, _, _) | (172, 16..=31, _) | (192, 168, _) => "private",
        (100, 64..=127, _) => "shared address space",
        (127, _, _) => "loopback",
        (169, 254, _) => "link-local",
        (192, 0, 0) | (192, 88, 99) | (198, 18..=19, _) => "reserved",
        (192, 0, 2) | (198, 51, 100) | (203, 0, 113) => "documentation",
        (224..=239, _, _) => "multicast",
        (255, 255, 255) if ip == Ipv4Addr::BROADCAST => "broadcast",
        (240..=255, _, _) => "reserved",
        _ => return None,
    })
}

fn refusal_v6(ip: Ipv6Addr) -> Option<&'static str> {
    let segments = ip.segments();
    let embedded_v4 = || Ipv4Addr::from((u128::from(ip) as u32).to_be_bytes());
    // Forms that carry an IPv4 address are judged by that address.
    if let Some(v4) = ip.to_ipv4_mapped() {
        return refusal_v4(v4);
    }
    if segments[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        return refusal_v4(embedded_v4()); // NAT64
    }
    if segments[0] == 0x2002 {
        // 6to4 carries the IPv4 address in bits 16..48.
        let v4 = Ipv4Addr::new(
            (segments[1] >> 8) as u8,
            segments[1] as u8,
            (segments[2] >> 8) as u8,
            segments[2] as u8,
        );
        return refusal_v4(v4);
    }
    if ip.is_unspecified() {
        return Some("unspecified");
    }
    if ip.is_loopback() {
        return Some("loopback");
    }
    Some(match segments[0] {
        0 => "reserved (IPv4-compatible)",
        0xfc00..=0xfdff => "unique local",
        0xfe80..=0xfebf => "link-local",
        0xfec0..=0xfeff => "site-local",
        0xff00..=0xffff => "multicast",
        0x2001 if segments[1] == 0x0db8 => "documentation",
        0x3fff if segments[1] < 0x1000 => "documentation",
        0x2001 if segments[1] < 0x0200 => "reserved (IETF protocol assignments)",
        // Everything outside 2000::/3 (global unicast) is unallocated or special-purpose.
        s if !(0x2000..=0x3fff).contains(&s) => "reserved",
        _ => return None,
    })
}

/// The refusal of a connection attempt; its text reaches the test-delivery answer.
#[derive(Debug)]
pub struct TargetRefused(pub String);

impl std::fmt::Display for TargetRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TargetRefused {}

/// Check the addresses `host` resolved to: every one must be public unless allow-listed.
pub fn check_addresses(allow: &AllowList, host: &str, addrs: &[SocketAddr]) -> Result<(), TargetRefused> {
    if allow.allows_host(host) {
        return Ok(());
    }
    if addrs.is_empty() {
        return Err(TargetRefused(format!("{host} resolves to no address")));
    }
    for addr in addrs {
        let ip = addr.ip();
        if allow.allows_ip(ip) {
            continue;
        }
        if let Some(why) = refusal(ip) {
            // The address stays in the operator's log; the caller learns only the kind of address.
            tracing::warn!(%host, %ip, why, "a webhook destination resolves to an address webhooks may not reach");
            return Err(TargetRefused(format!(
                "refused: destination not allowed ({host} resolves to a {why} address)"
            )));
        }
    }
    Ok(())
}

/// The registration-time check of a URL's host: resolved now with the same guard as at delivery, so
/// a name that points at a private address (wildcard DNS such as `10.0.0.1.example-dns.net`) is
/// refused when it is registered. A name that does not resolve now is accepted; every delivery
/// resolves and checks it again.
pub async fn check_host_now(allow: &AllowList, host: &str) -> Result<(), TargetRefused> {
    if allow.allows_host(host) {
        return Ok(());
    }
    let lookup = tokio::net::lookup_host((host, 443));
    match tokio::time::timeout(std::time::Duration::from_secs(3), lookup).await {
        Ok(Ok(addrs)) => check_addresses(allow, host, &addrs.collect::<Vec<_>>()),
        _ => Ok(()),
    }
}

/// The resolver of the delivery client: the system resolver, then the guard.
pub struct GuardedResolver {
    pub allow: Arc<AllowList>,
}

impl Resolve for GuardedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let allow = self.allow.clone();
        let host = name.as_str().to_owned();
        Box::pin(async move {
            let addrs: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            check_addresses(&allow, &host, &addrs)?;
            Ok(Box::new(addrs.into_iter()) as Addrs)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(text: &str) -> bool {
        refusal(text.parse().unwrap()).is_some()
    }

    #[test]
    fn a_refusal_names_the_kind_of_address_never_the_address() {
        let addrs = ["10.1.2.3:443".parse().unwrap()];
        let refused =
            check_addresses(&AllowList::default(), "wild.example.net", &addrs).unwrap_err().to_string();
        assert!(refused.contains("destination not allowed") && refused.contains("private"), "{refused}");
        assert!(!refused.contains("10.1.2.3"), "{refused}");
        let public = ["93.184.216.34:443".parse().unwrap()];
        assert!(check_addresses(&AllowList::default(), "hooks.example.com", &public).is_ok());
    }

    #[test]
    fn special_ipv4_ranges_are_refused() {
        for ip in [
            "0.0.0.0",
            "10.1.2.3",
            "100.64.0.1",
            "100.127.255.254",
            "127.0.0.1",
            "127.255.0.9",
            "169.254.169.254",
            "172.16.0.1",
            "172.31.255.255",
            "192.0.0.8",
            "192.0.2.1",
            "192.88.99.1",
            "192.168.1.1",
            "198.18.0.1",
            "198.51.100.7",
            "203.0.113.9",
            "224.0.0.1",
            "239.255.255.250",
            "240.0.0.1",
            "255.255.255.255",
        ] {
            assert!(refused(ip), "{ip}");
        }
        for ip in ["8.8.8.8", "1.1.1.1", "100.63.255.255", "100.128.0.1", "172.32.0.1", "198.20.0.1"] {
            assert!(!refused(ip), "{ip}");
        }
    }

    #[test]
    fn special_ipv6_ranges_and_embedded_ipv4_are_refused() {
        for ip in [
            "::",
            "::1",
            "::127.0.0.1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "::ffff:169.254.169.254",
            "64:ff9b::7f00:1",
            "2002:7f00:0001::1",
            "fc00::1",
            "fd12:3456::1",
            "fe80::1",
            "fec0::1",
            "ff02::1",
            "2001:db8::1",
            "2001::1",
            "3fff::1",
            "100::1",
            "4000::1",
        ] {
            assert!(refused(ip), "{ip}");
        }
        for ip in ["2606:4700:4700::1111", "2a00:1450:4001::200e", "::ffff:8.8.8.8", "64:ff9b::808:808"] {
            assert!(!refused(ip), "{ip}");
        }
    }

    #[test]
    fn the_guard_refuses_a_name_resolving_to_loopback_unless_listed() {
        let loopback = [SocketAddr::from(([127, 0, 0, 1], 0))];
        let error = check_addresses(&AllowList::default(), "localhost", &loopback).unwrap_err();
        assert!(error.0.contains("loopback"), "{error}");
        assert!(check_addresses(&AllowList::parse("127.0.0.1").unwrap(), "localhost", &loopback).is_ok());
        assert!(check_addresses(&AllowList::parse("localhost").unwrap(), "localhost", &loopback).is_ok());
        let public = [SocketAddr::from(([8, 8, 8, 8], 0))];
        assert!(check_addresses(&AllowList::default(), "dns.example", &public).is_ok());
    }

    #[tokio::test]
    async fn the_resolver_itself_refuses_localhost() {
        let resolver = GuardedResolver { allow: Arc::new(AllowList::default()) };
        let error = resolver.resolve("localhost".parse().unwrap()).await.err().expect("refused");
        assert!(error.to_string().contains("refused"), "{error}");
    }
}
