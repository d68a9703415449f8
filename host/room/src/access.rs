//! Who may talk to the room, checked on every request before any route: a peer on the local
//! network, asking for the room by the address it listens on (the one its links give), from
//! the room's own page when a browser says where the request comes from.

use std::net::{IpAddr, SocketAddr};

use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use veillee_sdk::Text;

/// Loopback, private IPv4 ranges, link-local, and IPv6 unique-local: the local network.
pub fn is_local(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => v4.is_loopback() || v4.is_private() || v4.is_link_local(),
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_local(IpAddr::V4(v4));
            }
            let first = v6.segments()[0];
            v6.is_loopback() || (first & 0xfe00) == 0xfc00 || (first & 0xffc0) == 0xfe80
        }
    }
}

/// Why a request is refused (403), in both languages; `None` when it may go on.
pub fn refusal(peer: SocketAddr, room: SocketAddr, headers: &HeaderMap) -> Option<Response> {
    if !is_local(peer.ip()) {
        return Some(forbidden(&Text::new(
            "Le salon de Veillée ne sert que les téléphones du réseau local.",
            "Veillée's room only serves phones on the local network.",
        )));
    }
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    if !host.is_some_and(|host| names_the_room(host, room)) {
        return Some(forbidden(&Text::new(
            format!("Le salon de Veillée ne répond qu'à son adresse, http://{room} : une page sous un autre nom ne peut pas lui parler."),
            format!("Veillée's room only answers at its own address, http://{room}: a page under another name may not talk to it."),
        )));
    }
    if !from_the_room(headers, room) {
        return Some(forbidden(&Text::new(
            format!("Seule la page de Veillée (http://{room}) peut parler au salon."),
            format!("Only Veillée's own phone page (http://{room}) may talk to the room."),
        )));
    }
    None
}

fn forbidden(text: &Text) -> Response {
    let body = format!("{}\n{}\n", text.fr, text.en);
    (StatusCode::FORBIDDEN, body).into_response()
}

/// Whether a `Host` header names the room's address: a rebound DNS name (an attacker's
/// page whose name now points here) names another host, and so does `localhost`, which the
/// links never use.
fn names_the_room(host: &str, room: SocketAddr) -> bool {
    if let Ok(address) = host.parse::<SocketAddr>() {
        return address == room;
    }
    // Without a port: port 80, and an IPv6 address in brackets.
    let bare = host.strip_prefix('[').and_then(|h| h.strip_suffix(']'));
    room.port() == 80 && bare.unwrap_or(host).parse::<IpAddr>() == Ok(room.ip())
}

/// Whether a browser's `Origin` (when it sends one) is the room's own page: plain HTTP at
/// the room's address. Requests without one come from a navigation, a plain file or a
/// program that is not a browser, which a page elsewhere cannot make.
fn from_the_room(headers: &HeaderMap, room: SocketAddr) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let host = origin.to_str().ok().and_then(|o| o.strip_prefix("http://"));
    host.is_some_and(|host| names_the_room(host, room))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn the_local_network_is_private_ranges_loopback_and_link_local() {
        for local in [
            "127.0.0.1",
            "10.1.2.3",
            "172.20.0.5",
            "192.168.1.20",
            "169.254.3.4",
            "::1",
            "fd12::5",
            "fe80::1",
            "::ffff:192.168.1.2",
        ] {
            assert!(is_local(local.parse().unwrap()), "{local}");
        }
        for far in ["8.8.8.8", "172.32.0.1", "2001:db8::1", "::ffff:1.1.1.1"] {
            assert!(!is_local(far.parse().unwrap()), "{far}");
        }
    }

    fn headers(host: &'static str, origin: Option<&'static str>) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::HOST, HeaderValue::from_static(host));
        if let Some(o) = origin {
            h.insert(header::ORIGIN, HeaderValue::from_static(o));
        }
        h
    }

    #[test]
    fn only_the_rooms_own_address_and_page_are_answered() {
        let room: SocketAddr = "192.168.1.5:7878".parse().unwrap();
        let phone: SocketAddr = "192.168.1.9:50000".parse().unwrap();
        let allowed = |h: HeaderMap| refusal(phone, room, &h).is_none();
        assert!(allowed(headers("192.168.1.5:7878", None)));
        assert!(allowed(headers(
            "192.168.1.5:7878",
            Some("http://192.168.1.5:7878")
        )));
        for (host, origin) in [
            ("evil.example:7878", None),
            ("evil.example:7878", Some("http://evil.example:7878")),
            ("localhost:7878", None),
            ("192.168.1.5:7879", None),
            ("192.168.1.5", None),
            ("192.168.1.5:7878", Some("https://192.168.1.5:7878")),
            ("192.168.1.5:7878", Some("http://evil.example")),
            ("192.168.1.5:7878", Some("null")),
        ] {
            assert!(!allowed(headers(host, origin)), "{host} {origin:?}");
        }
        assert!(
            !allowed(HeaderMap::new()),
            "a request must say which host it asks"
        );
        let far: SocketAddr = "8.8.8.8:50000".parse().unwrap();
        assert!(refusal(far, room, &headers("192.168.1.5:7878", None)).is_some());
    }

    #[test]
    fn an_ipv6_room_and_one_on_port_80_are_named_as_browsers_write_them() {
        let v6: SocketAddr = "[fd00::5]:7878".parse().unwrap();
        assert!(names_the_room("[fd00::5]:7878", v6));
        let on_80: SocketAddr = "192.168.1.5:80".parse().unwrap();
        assert!(names_the_room("192.168.1.5", on_80));
        assert!(names_the_room("192.168.1.5:80", on_80));
        let v6_on_80: SocketAddr = "[fd00::5]:80".parse().unwrap();
        assert!(names_the_room("[fd00::5]", v6_on_80));
    }
}
