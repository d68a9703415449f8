//! The machine's address on the local network: where the room listens, and what the
//! seats' links say.

use std::net::IpAddr;

use crate::access::is_local;

/// The machine's first IPv4 address on a private network (an interface that is not the
/// loopback), else a link-local one; `None` when the machine is on no local network.
pub fn lan_address() -> Option<IpAddr> {
    let addresses: Vec<IpAddr> = if_addrs::get_if_addrs()
        .ok()?
        .into_iter()
        .filter(|interface| !interface.is_loopback())
        .map(|interface| interface.ip())
        .filter(|ip| ip.is_ipv4() && is_local(*ip))
        .collect();
    let private = |ip: &IpAddr| matches!(ip, IpAddr::V4(v4) if v4.is_private());
    addresses
        .iter()
        .find(|ip| private(ip))
        .or_else(|| addresses.first())
        .copied()
}
