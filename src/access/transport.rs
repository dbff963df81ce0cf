//! Keys travel only over TLS (spec, Authentication rule 2). A request that carries a credential
//! over plain HTTP from off this machine is refused before the key is even looked up, unless it
//! came through a trusted reverse proxy that says the client's leg was HTTPS
//! (`X-Forwarded-Proto: https`). A trusted proxy's word decides wherever it stands, loopback
//! included (nginx or Caddy on the same host): `http` is refused, `https` served. A loopback peer
//! that is not a configured proxy, or a loopback proxy that says nothing, is a local tool and
//! exempt.

use std::net::{IpAddr, SocketAddr};

use axum::http::{Extensions, HeaderMap};

use crate::error::{ApiError, Reason};

/// How a request reached the server, set by the accept loop on every request: one extension
/// rather than axum's `ConnectInfo` beside a flag, as nothing else reads the peer's address.
#[derive(Debug, Clone, Copy)]
pub struct Transport {
    pub tls: bool,
    pub remote: SocketAddr,
}

/// The reverse proxies whose X-Forwarded-Proto is believed.
#[derive(Debug, Clone, Default)]
pub struct TransportPolicy {
    trusted: Vec<(IpAddr, u8)>,
}

impl TransportPolicy {
    /// `entries`: addresses (`10.0.0.5`) or CIDRs (`10.0.0.0/8`, `fd00::/8`).
    pub fn parse(entries: &[String]) -> Result<Self, String> {
        let mut trusted = Vec::new();
        for entry in entries {
            let (address, bits) = match entry.split_once('/') {
                Some((address, bits)) => (address, Some(bits)),
                None => (entry.as_str(), None),
            };
            let ip: IpAddr =
                address.trim().parse().map_err(|_| format!("'{entry}' is not an address or CIDR"))?;
            let max = if ip.is_ipv4() { 32 } else { 128 };
            let bits = match bits {
                Some(bits) => bits
                    .trim()
                    .parse::<u8>()
                    .ok()
                    .filter(|b| *b <= max)
                    .ok_or_else(|| format!("'{entry}' has a bad prefix"))?,
                None => max,
            };
            trusted.push((ip, bits));
        }
        Ok(Self { trusted })
    }

    fn trusts(&self, ip: IpAddr) -> bool {
        self.trusted.iter().any(|&(network, bits)| within(ip, network, bits))
    }

    /// Refuse a credential sent in the clear from off this machine.
    pub fn check(&self, headers: &HeaderMap, extensions: &Extensions) -> Result<(), ApiError> {
        let carries_key = headers.contains_key("x-api-key") || headers.contains_key("authorization");
        // A request the accept loop did not see (an in-process test's) has no transport to refuse.
        let Some(&Transport { tls, remote }) = extensions.get::<Transport>() else {
            return Ok(());
        };
        if !carries_key || tls {
            return Ok(());
        }
        let forwarded = headers.get("x-forwarded-proto").and_then(|v| v.to_str().ok()).map(str::trim);
        let local = remote.ip().is_loopback();
        let served = match (self.trusts(remote.ip()), forwarded) {
            (true, Some(proto)) => proto.eq_ignore_ascii_case("https"),
            // Only a proxy's word is believed; an untrusted peer's header changes nothing.
            (true, None) | (false, _) => local,
        };
        if served {
            return Ok(());
        }
        Err(ApiError::new(
            Reason::ActionNotAllowed,
            "API keys are accepted only over HTTPS: use HTTPS, sending this request to the https:// address (the key was not checked; treat it as exposed).",
        ))
    }
}

fn within(ip: IpAddr, network: IpAddr, bits: u8) -> bool {
    match (ip, network) {
        (IpAddr::V4(ip), IpAddr::V4(net)) => {
            let mask = if bits == 0 { 0 } else { u32::MAX << (32 - u32::from(bits)) };
            u32::from(ip) & mask == u32::from(net) & mask
        }
        (IpAddr::V6(ip), IpAddr::V6(net)) => {
            let mask = if bits == 0 { 0 } else { u128::MAX << (128 - u32::from(bits)) };
            u128::from(ip) & mask == u128::from(net) & mask
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trusted_proxies_are_addresses_or_networks() {
        let policy =
            TransportPolicy::parse(&["10.0.0.0/8".into(), "192.0.2.7".into(), "fd00::/8".into()]).unwrap();
        assert!(policy.trusts("10.1.2.3".parse().unwrap()));
        assert!(policy.trusts("192.0.2.7".parse().unwrap()));
        assert!(!policy.trusts("192.0.2.8".parse().unwrap()));
        assert!(policy.trusts("fd12::1".parse().unwrap()));
        assert!(TransportPolicy::parse(&["10.0.0.0/33".into()]).is_err());
        assert!(TransportPolicy::parse(&["proxy.local".into()]).is_err());
    }

    fn answer(policy: &TransportPolicy, peer: &str, proto: Option<&str>) -> Result<(), ApiError> {
        let mut headers = HeaderMap::new();
        headers.insert("x-api-key", "k".parse().unwrap());
        if let Some(proto) = proto {
            headers.insert("x-forwarded-proto", proto.parse().unwrap());
        }
        let mut extensions = Extensions::new();
        extensions.insert(Transport { tls: false, remote: format!("{peer}:40000").parse().unwrap() });
        policy.check(&headers, &extensions)
    }

    #[test]
    fn a_trusted_proxys_word_decides_even_on_loopback() {
        let local_proxy = TransportPolicy::parse(&["127.0.0.1".into()]).unwrap();
        assert!(answer(&local_proxy, "127.0.0.1", Some("http")).is_err());
        assert!(answer(&local_proxy, "127.0.0.1", Some("HTTPS")).is_ok());
        assert!(answer(&local_proxy, "127.0.0.1", None).is_ok(), "a local tool through no proxy");
        let no_proxy = TransportPolicy::default();
        assert!(answer(&no_proxy, "127.0.0.1", Some("http")).is_ok(), "an untrusted header is not read");
        assert!(answer(&no_proxy, "192.0.2.9", Some("https")).is_err(), "nor believed off the machine");
    }
}
