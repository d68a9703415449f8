//! Who may talk to the room: only pages under the room's own address. A rebound DNS name
//! (an attacker's page whose name now points at the room) and pages from elsewhere are
//! refused with a reason; the room's own page is served. Real sockets on loopback, the real
//! server.

mod common;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::mpsc::channel;
use std::time::Duration;

use common::Phone;
use serde_json::json;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use veillee_room::{Room, RoomConfig};

const IN_TIME: Duration = Duration::from_secs(20);

fn open_room() -> (Room, std::sync::mpsc::Receiver<veillee_room::PhoneMove>) {
    let (moves_in, moves) = channel();
    let config = RoomConfig {
        session: 4,
        seats: vec![(0, "Ana".into())],
        address: "127.0.0.1".parse().unwrap(),
        port: 0,
    };
    (Room::open(config, moves_in).expect("the room opens"), moves)
}

/// A raw request with the given `Host` (and `Origin`); the whole response.
fn get_with(room: SocketAddr, path: &str, host: &str, origin: Option<&str>) -> String {
    let mut stream = TcpStream::connect(room).unwrap();
    stream.set_read_timeout(Some(IN_TIME)).unwrap();
    let origin = origin.map_or(String::new(), |o| format!("Origin: {o}\r\n"));
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\n{origin}Connection: close\r\n\r\n"
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    response
}

#[tokio::test]
async fn a_page_under_another_name_or_from_elsewhere_is_refused_and_the_rooms_own_is_served() {
    let (room, _moves) = open_room();
    let address = room.address();
    let own = address.to_string();
    let token = room.links()[0].token.clone();
    let page = format!("/s/{token}");

    // A rebound name: the attacker's page, served from evil.example, now points there.
    let rebound = format!("evil.example:{}", address.port());
    let refused = tokio::task::spawn_blocking({
        let (page, rebound) = (page.clone(), rebound.clone());
        move || get_with(address, &page, &rebound, None)
    })
    .await
    .unwrap();
    assert!(refused.starts_with("HTTP/1.1 403"), "{refused:.300}");
    assert!(
        refused.contains(&own),
        "the refusal names the room's address: {refused}"
    );
    let served = tokio::task::spawn_blocking(move || get_with(address, &page, &own, None))
        .await
        .unwrap();
    assert!(served.starts_with("HTTP/1.1 200"), "{served:.200}");

    // The WebSocket: a rebound name, another scheme, another page: refused with a reason.
    let ws = common::ws_url(&room.base_url());
    for (host, origin) in [
        (rebound.clone(), format!("http://{rebound}")),
        (address.to_string(), format!("https://{address}")),
        (address.to_string(), "http://evil.example".to_string()),
        (address.to_string(), "null".to_string()),
    ] {
        let mut request = ws.as_str().into_client_request().unwrap();
        let headers = request.headers_mut();
        headers.insert("host", HeaderValue::from_str(&host).unwrap());
        headers.insert("origin", HeaderValue::from_str(&origin).unwrap());
        match tokio_tungstenite::connect_async(request).await {
            Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
                assert_eq!(response.status(), 403, "{host} {origin}");
                let body =
                    String::from_utf8_lossy(response.body().as_deref().unwrap_or(&[])).into_owned();
                assert!(body.contains("Veillée"), "a reason is given: {body}");
            }
            Ok(_) => panic!("a socket from {origin} with Host {host} was accepted"),
            Err(other) => panic!("{host} {origin}: {other}"),
        }
    }

    // The room's own page, as a browser sends it: Origin and Host are the room's address.
    let mut request = ws.as_str().into_client_request().unwrap();
    let origin = HeaderValue::from_str(&room.base_url()).unwrap();
    request.headers_mut().insert("origin", origin);
    let (socket, _) = tokio_tungstenite::connect_async(request)
        .await
        .expect("the room's own page opens a socket");
    let mut phone = Phone {
        socket,
        received: Vec::new(),
    };
    phone.send(json!({"type": "hello", "token": token})).await;
    assert_eq!(phone.next_of("welcome").await["seat"], 0);
    room.close();
}
