//! The operator's allow-list (`ARMORY_WEBHOOK_ALLOW_TARGETS`): host names and IP networks that are
//! exempt from the URL rules and the address guard. Empty by default; tests list 127.0.0.1 so that
//! they can deliver to a local receiver over http.

use std::net::IpAddr;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AllowList {
    entries: Vec<Entry>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Entry {
    /// A host name, lower case, matched exactly.
    Host(String),
    /// An address or network: the network address and its prefix length.
    Net(IpAddr, u8),
}

impl AllowList {
    /// Comma-separated host names, addresses or CIDRs, e.g. `127.0.0.1,10.0.0.0/8,hooks.internal`.
    pub fn parse(spec: &str) -> Result<Self, String> {
        let mut entries = Vec::new();
        for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            entries.push(parse_entry(item)?);
        }
        Ok(Self { entries })
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Whether `host` (a host name, or an address as a URL spells it) is listed.
    pub fn allows_host(&self, host: &str) -> bool {
        let host = host.trim_start_matches('[').trim_end_matches(']').trim_end_matches('.');
        if let Ok(ip) = host.parse::<IpAddr>() {
            return self.allows_ip(ip);
        }
        self.entries.iter().any(|entry| matches!(entry, Entry::Host(h) if h.eq_ignore_ascii_case(host)))
    }

    pub fn allows_ip(&self, ip: IpAddr) -> bool {
        self.entries.iter().any(|entry| match entry {
            Entry::Net(net, prefix) => in_network(ip, *net, *prefix),
            Entry::Host(_) => false,
        })
    }
}

fn parse_entry(item: &str) -> Result<Entry, String> {
    let (address, prefix) = match item.split_once('/') {
        Some((address, prefix)) => (address, Some(prefix)),
        None => (item, None),
    };
    let Ok(ip) = address.trim_start_matches('[').trim_end_matches(']').parse::<IpAddr>() else {
        if prefix.is_some() || item.contains([':', '/', ' ']) {
            return Err(format!("'{item}' is neither a host name nor an address or CIDR"));
        }
        return Ok(Entry::Host(item.to_ascii_lowercase()));
    };
    let max = if ip.is_ipv4() { 32 } else { 128 };
    let prefix = match prefix {
        Some(p) => {
            p.parse::<u8>().ok().filter(|p| *p <= max).ok_or_else(|| format!("'{item}': bad prefix"))?
        }
        None => max,
    };
    Ok(Entry::Net(ip, prefix))
}

fn in_network(ip: IpAddr, net: IpAddr, prefix: u8) -> bool {
    // An IPv4-mapped IPv6 address is the IPv4 address it carries.
    let ip = match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    };
    match (ip, net) {
        (IpAddr::V4(a), IpAddr::V4(n)) => {
            let mask = if prefix == 0 { 0 } else { u32::MAX << (32 - prefix) };
            u32::from(a) & mask == u32::from(n) & mask
        }
        (IpAddr::V6(a), IpAddr::V6(n)) => {
            let mask = if prefix == 0 { 0 } else { u128::MAX << (128 - prefix) };
            u128::from(a) & mask == u128::from(n) & mask
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_addresses_and_networks_match() {
        let list = AllowList::parse("127.0.0.1, 10.0.0.0/8 ,Hooks.Internal,fd00::/8").unwrap();
        assert!(list.allows_host("127.0.0.1"));
        assert!(list.allows_host("hooks.internal"));
        assert!(list.allows_host("[fd00::5]"));
        assert!(list.allows_ip("10.9.8.7".parse().unwrap()));
        assert!(list.allows_ip("::ffff:10.1.1.1".parse().unwrap()));
        assert!(!list.allows_ip("127.0.0.2".parse().unwrap()));
        assert!(!list.allows_host("other.internal"));
        assert!(!list.allows_host("localhost"));
    }

    #[test]
    fn the_default_is_empty_and_bad_entries_are_refused() {
        assert!(AllowList::parse("").unwrap().is_empty());
        assert!(AllowList::parse("10.0.0.0/33").is_err());
        assert!(AllowList::parse("host/8").is_err());
    }
}
