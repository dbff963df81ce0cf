//! Keys travel only over TLS (spec, Authentication rule 2). A request that carries a credential
//! over plain HTTP from off this machine is refused before the key is even looked up, unless it
//! came through a trusted reverse proxy that says the client's leg was HTTPS
//! (`X-Forwarded-Proto: https`). A trusted proxy's word decides wherever it stands, loopback
//! included (nginx or Caddy on the same host): `http` is refused, `https` served. A loopback peer
//! that is not a configured proxy, or a loopback proxy that says nothing, is a local tool and
//! exempt.

use std::net::{IpAddr, SocketAddr};

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

    /// Whether a request may present a key: over TLS; or, in the clear, when a trusted proxy says
    /// its client's leg was HTTPS (`forwarded_proto`), or from a loopback peer whose word is not
    /// a proxy's (or a loopback proxy that says nothing: a local tool).
    pub fn allows_key(&self, tls: bool, remote: SocketAddr, forwarded_proto: Option<&str>) -> bool {
        if tls {
            return true;
        }
        let local = remote.ip().is_loopback();
        match (self.trusts(remote.ip()), forwarded_proto.map(str::trim)) {
            (true, Some(proto)) => proto.eq_ignore_ascii_case("https"),
            // Only a proxy's word is believed; an untrusted peer's header changes nothing.
            (true, None) | (false, _) => local,
        }
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

    fn answer(policy: &TransportPolicy, peer: &str, proto: Option<&str>) -> bool {
        policy.allows_key(false, format!("{peer}:40000").parse().unwrap(), proto)
    }

    #[test]
    fn a_trusted_proxys_word_decides_even_on_loopback() {
        let local_proxy = TransportPolicy::parse(&["127.0.0.1".into()]).unwrap();
        assert!(!answer(&local_proxy, "127.0.0.1", Some("http")));
        assert!(answer(&local_proxy, "127.0.0.1", Some("HTTPS")));
        assert!(answer(&local_proxy, "127.0.0.1", None), "a local tool through no proxy");
        let no_proxy = TransportPolicy::default();
        assert!(answer(&no_proxy, "127.0.0.1", Some("http")), "an untrusted header is not read");
        assert!(!answer(&no_proxy, "192.0.2.9", Some("https")), "nor believed off the machine");
        assert!(no_proxy.allows_key(true, "192.0.2.9:443".parse().unwrap(), None), "TLS itself");
    }
}
