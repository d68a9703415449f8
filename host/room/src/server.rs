//! The web server: the phone page and its files, and one WebSocket per phone (axum's
//! router on hyper's HTTP/1, each connection served here so that it is counted and timed
//! from the moment it is accepted). Every request passes `access` first.

use std::convert::Infallible;
use std::io::ErrorKind;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{close_code, CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, Request};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Extension, Router};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::Service as _;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use veillee_sdk::Text;

use crate::access;
use crate::gate::{Gate, Visitor};
use crate::limits::{HEADER_READ_TIMEOUT, HELLO_TIMEOUT, MAX_FRAME};
use crate::page;
use crate::protocol::{self, FromPhone, ToPhone, ALIVE_EVERY};
use crate::seats::{Joined, Notice, Seats};

/// How long to wait before accepting again when accepting failed for another reason than
/// the one connection (out of descriptors, most likely): trying at once would spin.
const ACCEPT_AGAIN_AFTER: Duration = Duration::from_millis(100);

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

/// Accepts connections for ever, each counted by the gate and served on a task of its own
/// with a deadline for its headers (the room's owner stops the server by dropping this).
pub async fn listen(listener: tokio::net::TcpListener, router: Router, room: SocketAddr) {
    let gate = Arc::new(Gate::default());
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(HEADER_READ_TIMEOUT);
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) if one_connection_failed(e.kind()) => continue,
            Err(_) => {
                tokio::time::sleep(ACCEPT_AGAIN_AFTER).await;
                continue;
            }
        };
        // Refused (every connection holds a seat): dropping the stream closes it at once.
        let Some(visitor) = gate.admit(peer) else {
            continue;
        };
        let served = connection(http.clone(), stream, peer, visitor, router.clone(), room);
        tokio::spawn(served);
    }
}

fn one_connection_failed(kind: ErrorKind) -> bool {
    matches!(
        kind,
        ErrorKind::ConnectionAborted | ErrorKind::ConnectionReset | ErrorKind::ConnectionRefused
    )
}

/// One TCP connection: its requests, each checked by `access` before the routes, until it
/// closes, its headers come too late, or it is pushed out to make room. A WebSocket lives
/// on after this ends, with its own copy of the visitor.
async fn connection(
    http: http1::Builder,
    stream: tokio::net::TcpStream,
    peer: SocketAddr,
    visitor: Arc<Visitor>,
    router: Router,
    room: SocketAddr,
) {
    let routes = TowerToHyperService::new(router);
    let for_requests = Arc::clone(&visitor);
    let service = hyper::service::service_fn(move |mut request: Request<Incoming>| {
        // Refused (`Err`) before any route sees it, or routed.
        let answer = match access::refusal(peer, room, request.headers()) {
            Some(refused) => Err(refused),
            None => {
                request.extensions_mut().insert(Arc::clone(&for_requests));
                Ok(routes.call(request))
            }
        };
        async move {
            match answer {
                Ok(routed) => routed.await,
                Err(refused) => Ok::<_, Infallible>(refused),
            }
        }
    });
    let served = http
        .serve_connection(TokioIo::new(stream), service)
        .with_upgrades();
    tokio::select! {
        _ = served => {}
        () = visitor.pushed_out() => {}
    }
}

/// A file of the phone page, never cached (a new Veillée may serve a new page) and never
/// sending the seat's link onwards as a referrer.
fn file(content_type: &'static str, body: &'static str) -> Response {
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

async fn page_html() -> Response {
    file("text/html; charset=utf-8", page::HTML)
}

async fn page_js() -> Response {
    file("text/javascript; charset=utf-8", page::JS)
}

async fn page_css() -> Response {
    file("text/css; charset=utf-8", page::CSS)
}

async fn socket(
    upgrade: WebSocketUpgrade,
    Extension(visitor): Extension<Arc<Visitor>>,
    State(seats): State<Arc<Seats>>,
) -> Response {
    upgrade
        .max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        .on_upgrade(move |socket| phone(socket, seats, visitor))
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

/// The first message must be a hello with a seat's token, within `HELLO_TIMEOUT` of the
/// connection's accepting; a connection pushed out to make room before it says hello ends.
async fn hello(socket: &mut WebSocket, seats: &Seats, visitor: &Visitor) -> Option<Joined> {
    let deadline = tokio::time::Instant::from_std(visitor.accepted + HELLO_TIMEOUT);
    let first = tokio::select! {
        first = tokio::time::timeout_at(deadline, socket.recv()) => first,
        () = visitor.pushed_out() => return None,
    };
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
async fn phone(mut socket: WebSocket, seats: Arc<Seats>, visitor: Arc<Visitor>) {
    let _live = seats.socket_opened();
    let Some(joined) = hello(&mut socket, &seats, &visitor).await else {
        return;
    };
    visitor.seated();
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
