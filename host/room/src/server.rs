//! The web server: the phone page and its files, and one WebSocket per phone (axum on
//! hyper). Only peers on the local network are served.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{close_code, CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use veillee_sdk::Text;

use crate::page;
use crate::protocol::{self, FromPhone, ToPhone, ALIVE_EVERY, MAX_FRAME};
use crate::seats::{Joined, Notice, Seats};

/// How long a phone has to say hello after connecting.
const HELLO_TIMEOUT: Duration = Duration::from_secs(10);

/// The room's routes: `/` and `/s/TOKEN` serve the phone page, `/phone.js` and
/// `/phone.css` its code and style, `/ws` the WebSocket.
pub fn router(seats: Arc<Seats>) -> Router {
    Router::new()
        .route("/", get(page_html))
        .route("/s/{token}", get(page_html))
        .route("/phone.js", get(page_js))
        .route("/phone.css", get(page_css))
        .route("/ws", get(socket))
        .with_state(seats)
}

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

fn forbidden() -> Response {
    (
        StatusCode::FORBIDDEN,
        "Veillée's room only serves phones on the local network.\n",
    )
        .into_response()
}

/// A file of the phone page, never cached (a new Veillée may serve a new page) and never
/// sending the seat's link onwards as a referrer.
fn file(peer: SocketAddr, content_type: &'static str, body: &'static str) -> Response {
    if !is_local(peer.ip()) {
        return forbidden();
    }
    let mut response = body.into_response();
    let headers = response.headers_mut();
    let set = |headers: &mut HeaderMap, name, value: &'static str| {
        headers.insert(name, HeaderValue::from_static(value));
    };
    set(headers, header::CONTENT_TYPE, content_type);
    set(headers, header::CACHE_CONTROL, "no-store");
    set(headers, header::REFERRER_POLICY, "no-referrer");
    set(headers, header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    set(
        headers,
        header::CONTENT_SECURITY_POLICY,
        "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'",
    );
    response
}

async fn page_html(ConnectInfo(peer): ConnectInfo<SocketAddr>) -> Response {
    file(peer, "text/html; charset=utf-8", page::HTML)
}

async fn page_js(ConnectInfo(peer): ConnectInfo<SocketAddr>) -> Response {
    file(peer, "text/javascript; charset=utf-8", page::JS)
}

async fn page_css(ConnectInfo(peer): ConnectInfo<SocketAddr>) -> Response {
    file(peer, "text/css; charset=utf-8", page::CSS)
}

/// Whether a browser's `Origin` (when it sends one) is this very server: a page from
/// elsewhere that a phone happens to show may not talk to the room.
fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let origin = origin.to_str().ok().and_then(|o| o.split_once("://"));
    matches!((origin, host), (Some((_, o)), Some(h)) if o == h)
}

async fn socket(
    upgrade: WebSocketUpgrade,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    State(seats): State<Arc<Seats>>,
) -> Response {
    if !is_local(peer.ip()) {
        return forbidden();
    }
    if !same_origin(&headers) {
        return (
            StatusCode::FORBIDDEN,
            "Only Veillée's own phone page may open a seat.\n",
        )
            .into_response();
    }
    upgrade
        .max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        .on_upgrade(move |socket| phone(socket, seats))
}

async fn send(socket: &mut WebSocket, text: String) -> bool {
    socket.send(Message::Text(text.into())).await.is_ok()
}

async fn close(socket: &mut WebSocket, code: u16, reason: &str) {
    // A close reason is at most 123 bytes: cut on a character boundary.
    let mut end = reason.len().min(123);
    while !reason.is_char_boundary(end) {
        end -= 1;
    }
    let frame = CloseFrame {
        code,
        reason: reason[..end].into(),
    };
    let _ = socket.send(Message::Close(Some(frame))).await;
}

/// Refuses the phone with a message it can show, then closes.
async fn refuse(socket: &mut WebSocket, code: &str, message: &Text) {
    let _ = send(socket, ToPhone::Refused { code, message }.json()).await;
    close(socket, close_code::POLICY, code).await;
}

async fn error(socket: &mut WebSocket, code: &str, message: &Text) -> bool {
    send(socket, ToPhone::Error { code, message }.json()).await
}

/// The first message must be a hello with a seat's token.
async fn hello(socket: &mut WebSocket, seats: &Seats) -> Option<Joined> {
    let first = tokio::time::timeout(HELLO_TIMEOUT, socket.recv()).await;
    let text = match first {
        Ok(Some(Ok(Message::Text(text)))) => text,
        Ok(Some(Ok(_))) | Err(_) => {
            let message = Text::new(
                "Le téléphone doit d'abord se présenter avec le lien de sa place.",
                "The phone must first say hello with its seat's link.",
            );
            refuse(socket, "no_hello", &message).await;
            return None;
        }
        Ok(None | Some(Err(_))) => return None,
    };
    match protocol::read(text.as_str()) {
        Ok(FromPhone::Hello { token, claim }) => match seats.join(&token, claim.as_deref()) {
            Ok(joined) => Some(joined),
            Err(refusal) => {
                refuse(socket, refusal.code, &refusal.text).await;
                None
            }
        },
        Ok(FromPhone::Act { .. }) => {
            let message = Text::new(
                "Le téléphone doit d'abord se présenter avec le lien de sa place.",
                "The phone must first say hello with its seat's link.",
            );
            refuse(socket, "no_hello", &message).await;
            None
        }
        Err(bad) => {
            refuse(socket, "bad_message", &bad.text()).await;
            None
        }
    }
}

/// One phone's connection, from hello to goodbye.
async fn phone(mut socket: WebSocket, seats: Arc<Seats>) {
    let _live = seats.socket_opened();
    let Some(joined) = hello(&mut socket, &seats).await else {
        return;
    };
    let seat = joined.seat;
    let connection = joined.connection;
    serve_seat(&mut socket, &seats, joined).await;
    seats.leave(seat, connection);
}

/// What one message from a seated phone leads to: `false` ends the connection.
async fn incoming(
    socket: &mut WebSocket,
    seats: &Seats,
    joined: &Joined,
    message: Option<Result<Message, axum::Error>>,
) -> bool {
    match message {
        Some(Ok(Message::Text(text))) => match protocol::read(text.as_str()) {
            Ok(FromPhone::Act { action, version }) => {
                match seats.propose(joined.seat, joined.connection, &action, version) {
                    Ok(()) => true,
                    Err(refusal) => error(socket, refusal.code, &refusal.text).await,
                }
            }
            Ok(FromPhone::Hello { .. }) => {
                let message = Text::new(
                    "Ce téléphone tient déjà sa place.",
                    "This phone already holds its seat.",
                );
                error(socket, "already_seated", &message).await
            }
            Err(bad) => error(socket, "bad_message", &bad.text()).await,
        },
        Some(Ok(Message::Binary(_))) => {
            let message = Text::new(
                "Message refusé : seuls les messages texte (JSON) sont lus.",
                "Message refused: only text (JSON) messages are read.",
            );
            error(socket, "bad_message", &message).await
        }
        Some(Ok(Message::Ping(_) | Message::Pong(_))) => true,
        Some(Ok(Message::Close(_))) | None => false,
        Some(Err(failure)) => {
            let too_long = failure
                .into_inner()
                .downcast_ref::<tungstenite::Error>()
                .is_some_and(|e| matches!(e, tungstenite::Error::Capacity(_)));
            if too_long {
                close(
                    socket,
                    close_code::SIZE,
                    &format!("message too long: at most {MAX_FRAME} bytes"),
                )
                .await;
            }
            false
        }
    }
}

async fn serve_seat(socket: &mut WebSocket, seats: &Seats, mut joined: Joined) {
    let welcome = ToPhone::Welcome {
        seat: joined.seat,
        name: &joined.name,
        claim: &joined.claim,
    };
    if !send(socket, welcome.json()).await {
        return;
    }
    let current = joined.states.borrow_and_update().clone();
    if let Some(state) = current {
        if !send(socket, state.json.clone()).await {
            return;
        }
    }
    let mut alive = tokio::time::interval(ALIVE_EVERY);
    alive.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = alive.tick() => {
                if !send(socket, ToPhone::Alive.json()).await {
                    return;
                }
            }
            message = socket.recv() => {
                if !incoming(socket, seats, &joined, message).await {
                    return;
                }
            }
            changed = joined.states.changed() => {
                if changed.is_err() {
                    return;
                }
                let state = joined.states.borrow_and_update().clone();
                if let Some(state) = state {
                    if !send(socket, state.json.clone()).await {
                        return;
                    }
                }
            }
            notice = joined.notices.recv() => match notice {
                Some(Notice::Error(code, message)) => {
                    if !error(socket, code, &message).await {
                        return;
                    }
                }
                Some(Notice::Close(code, message)) => {
                    // The last state first (the game's end, published just before the room
                    // closed), whichever of the two the select saw first.
                    if joined.states.has_changed().unwrap_or(false) {
                        let state = joined.states.borrow_and_update().clone();
                        if let Some(state) = state {
                            let _ = send(socket, state.json.clone()).await;
                        }
                    }
                    refuse(socket, code, &message).await;
                    return;
                }
                None => return,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn only_pages_of_the_room_itself_may_open_a_socket() {
        let headers = |origin: Option<&'static str>| {
            let mut h = HeaderMap::new();
            h.insert(header::HOST, HeaderValue::from_static("192.168.1.5:7878"));
            if let Some(o) = origin {
                h.insert(header::ORIGIN, HeaderValue::from_static(o));
            }
            h
        };
        assert!(same_origin(&headers(None)));
        assert!(same_origin(&headers(Some("http://192.168.1.5:7878"))));
        assert!(!same_origin(&headers(Some("https://evil.example"))));
        assert!(!same_origin(&headers(Some("null"))));
    }
}
