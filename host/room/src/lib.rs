//! `veillee-room`: a game opened to the room. Players join from their phones' browsers: the
//! launcher serves a small page on the local network, one link (and QR code) per seat, and
//! each phone holds its own seat's hand — its view, its legal moves and the log it may read.
//!
//! The room does not play the game. Whoever owns it (the window's worker, the command
//! line's loop) keeps doing so through the runtime's sessions: moves proposed by phones
//! arrive on a channel as [`PhoneMove`]s, already checked against the seat's latest state;
//! the owner plays them like clicks (`Sessions::apply`: durable before shown), then
//! [`Room::publish`]es each phone seat's new [`SeatState`], built by [`table::seat_states`]
//! from that seat's own view only.
//!
//! **Invariants: a phone is only ever sent its own seat's state, built from `view(seat)`
//! and `legal_actions(seat)` (never another seat's); the server listens only while a
//! [`Room`] is open and only answers peers on the local network that ask for it by its own
//! address; nothing a phone sends reaches the game unless it is a legal move of its seat in
//! its latest state.**
//!
//! # How it works
//!
//! * **One owner, one path.** The owner gets each phone's move on a `std::sync::mpsc` channel
//!   (the window's `room.rs` forwards them into the worker's own inbox as `Request::Phone`),
//!   plays it exactly as a click, then publishes each phone seat's new state; a refused move
//!   goes back to that phone with the game's reason (`Room::refuse`). The server runs on its
//!   own thread with a current-thread tokio runtime: the owner never waits on the network, the
//!   network never waits on a plugin.
//! * **The filter** (`table`): a state is `view(Some(seat))`, `legal_actions(seat)` when that
//!   seat is to act, the status, and the log, each text in that seat's words. A move's label
//!   and events are kept with their private texts (ABI 1.4, `table::LogLine`) and each seat
//!   reads `text_for(seat)`: a card it drew by name, the others' secrets as the table reads
//!   them; the big screen reads the public text. The seat's own moves are sent as
//!   `ShownAction`s (id, click path, `label_for(seat, seat)`), never with the `private` field,
//!   so a house rule's question (`ctx.choose`, `ctx.choose_all`) shows each seat asked its own
//!   options, and its answer reads "answers: the question" for everyone else. The tests play
//!   whole Castel games (wasm plugin, Lua cards, sled) with two phones and a bot, read every
//!   message seat 0's phone receives and find none of seat 1's cards, and check at every
//!   publication that seat 0's whole message is unchanged when everything seat 0 cannot see
//!   is drawn again (only the status may differ: who has already answered a question put to
//!   everyone is public).
//! * **The window.** A seat of the new-game screen is Human, Phone or Bot. The worker keeps
//!   the room with the game (`PhoneSeats` in the app's `room.rs`): phone seats are left out
//!   when it picks the seat to act at the screen and the viewer, so the window shows the
//!   spectator's view while only phones and bots play; bots are still played by the window.
//!   The play screen's side panel shows each phone seat's state, its QR code and link while it
//!   waits, and "Hand to another phone". `VEILLEE_ROOM_ADDRESS` makes the window's room listen
//!   elsewhere than the local-network address (tests use loopback). Closing the window sends
//!   the worker `Request::Quit`, which closes the room; the game stays saved.
//! * **Undo, quit and resume.** While phones think, the terminal still reads the host's
//!   typing: the command line's `inputs.rs` reads standard input on a thread and forwards the
//!   room's moves, so the play loop waits on one channel for either. `u`, `r` and `q` at the
//!   big screen undo, redo, or save and quit. After an undo or a redo every phone seat gets a
//!   new state version (`Room::publish_moved_back`), and a move already on its way is checked
//!   with `Room::is_current` before it is played, so a move chosen in the old position is
//!   refused as stale; the phones' log loses the lines of the moves taken back and says so.
//!   The session remembers its phone seats (`SessionMeta::phones`), so `veillee resume ID`
//!   opens the room again — with new tokens: a link of the last run opens nothing.
//! * **Access** (`token`, `seats`, `access`, `gate`). Each phone seat has a token of 128 random bits
//!   (`SESSION-HEX`, drawn when the room opens, so valid for that session only; the session
//!   number lets a link kept from another game be refused with a message saying so). The first
//!   phone to say hello with a token takes the seat and receives a claim (128 more bits) kept
//!   in the phone's `localStorage`; only that claim brings the seat back (a reload, a locked
//!   screen, Wi-Fi lost — the newest connection wins). Another phone with the same link is
//!   refused; the host hands a seat over (`Room::hand_over`): a new token, the old link and
//!   claim dead, the old phone told. Secrets are compared in constant time and never printed
//!   by `Debug`. Before any route (`access`), a request must come from the local network
//!   (loopback, private IPv4, link-local, IPv6 ULA), its `Host` must be the address the room
//!   listens on and its links give (`192.168.1.20:41234`, not a name: a rebound DNS name —
//!   an attacker's page whose name now points at the room — says its own name), and its
//!   `Origin`, when a browser sends one, must be `http://` and that same address; anything
//!   else gets 403 with the reason in both languages. The token still guards the seat.
//!   The room is on a Wi-Fi it does not control, so it must stay open to its guests
//!   whatever one device there does (`gate`, `limits`): the server accepts connections
//!   itself (hyper's HTTP/1 under axum's router) so that each is counted from the moment it
//!   is accepted — at most `MAX_PER_PEER` per address and `MAX_CONNECTIONS` in all, far
//!   below the usual 1,024 descriptors — and a connection over a cap pushes out the oldest
//!   one that holds no seat (a seated phone is never pushed out; a phone still loading that
//!   is, tries again and gets in). A connection has `HEADER_READ_TIMEOUT` to send each
//!   request's headers (which also closes idle keep-alive connections and headers sent a
//!   byte at a time), and a WebSocket must say hello within `HELLO_TIMEOUT` of its TCP
//!   connection's accepting. `tests/crowd.rs` holds a thousand idle connections and forty
//!   dribbling ones from a child process while the server runs under 1,024 descriptors,
//!   and a phone still loads its page and gets its seat.
//! * **Input** (`protocol`, `limits`). A phone's message is at most 4 KiB of JSON (`MAX_MESSAGE`) with
//!   `deny_unknown_fields`; past 64 KiB the WebSocket layer stops reading and closes with
//!   1009. A move must be among its seat's legal ids in the seat's latest state (`version`
//!   bumps when the seat's moves change or its last move was answered), with no other move of
//!   that seat on its way; everything else is answered with an error code and a message in
//!   both languages, and changes nothing. The page is served with a strict CSP, `no-store`
//!   and `no-referrer` (the token is in the path).
//! * **The page** (`page/`) draws the scene JSON as HTML and SVG — boards, card zones (own
//!   hand first), scores, the seat's log — and walks click paths with the window's rules: a
//!   tap starts or continues a path, a complete path plays, several moves on one path become
//!   buttons, moves without a path are buttons. Not the egui drawer built for the web: a wasm
//!   egui page is megabytes to download on a phone and a second build target in CI, and draws
//!   on a canvas without the browser's text, accessibility and touch; the scene model is small
//!   and flat, and the page has no build step. FR/EN follows the browser and can be switched.
//!   It reconnects by itself (back-off, and at once when the screen or the network comes
//!   back). A phone whose Wi-Fi drops often keeps a connection that is dead without being
//!   closed, so the room says `{"type":"alive"}` every 5 s (`ALIVE_EVERY`) and a page that hears nothing
//!   for 15 s connects again. When the room closes the page keeps the game as it last stood,
//!   with the reason above it.
//! * **In a real browser.** The command line's `tests/phones.rs` runs `veillee play castel
//!   --seats phone,phone,random` and holds both phone seats in headless Chromium (each a
//!   360×640 touch page in a browser context of its own), tapping what a player would tap
//!   until the game ends; it reads every WebSocket frame seat 0's page received and finds none
//!   of seat 1's cards; a phone whose network is cut or whose page is reloaded comes back to
//!   its seat, and another phone with its link sees the refusal. Chromium is driven through
//!   its DevTools protocol over the test's own WebSocket client: the protocol gives the
//!   frames, touch input and the network cut directly, where a WebDriver client (fantoccini) would
//!   add 56 crates to the build — two generations of ICU among them — and still need Chromium's log API for the frames. Without
//!   Chromium the tests say they did not run; CI sets `VEILLEE_BROWSER_TESTS=required`. With
//!   `VEILLEE_SCREENSHOTS=DIR` they save the README's pictures.
//!
//! # Remote play (designed, not built)
//!
//! Friends in other homes would not reach a server on a home network, and Veillée will not
//! run a relay of its own. The design: Matrix rooms as the transport. The host's Veillée logs
//! into a Matrix account (any homeserver), creates one private room per remote seat, invites
//! that player and sends the seat's `SeatState` messages as custom events
//! (`org.veillee.state`), end-to-end encrypted (Megolm) so the homeserver carries only
//! ciphertext; the remote player's client (a small Matrix web client page, or any client with
//! a widget) sends `org.veillee.act` events back. One room per seat keeps the filter the same
//! as on the local network; Matrix's own membership replaces tokens (only the invited account
//! may join; the host kicks to hand over), and its history gives reconnection for free. The
//! owner's side stays as it is: a remote counterpart of `Room` with the same `publish` /
//! `refuse` / moves channel. Costs: a Matrix SDK with its crypto store is a large dependency
//! and would live in its own crate like this one; rate limits of public homeservers suit
//! turn-based games only.

mod access;
mod gate;
pub mod limits;
mod net;
mod page;
pub mod protocol;
pub mod qr;
mod seats;
mod server;
pub mod table;
mod token;

use std::net::{IpAddr, SocketAddr, TcpListener};
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::time::{Duration, Instant};

use veillee_sdk::{Seat, Text};

pub use access::is_local;
pub use net::lan_address;
pub use seats::{PhoneMove, SeatLink};
pub use table::{LogLine, SeatState, ShownAction, TableInfo};

/// Why a room could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum RoomError {
    /// The address could not be listened on.
    #[error("cannot open the room on {address}: {source} (is another program using that port? try another one)")]
    Listen {
        /// Where.
        address: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// The address is not on the local network.
    #[error("the room only listens on the local network, and {0} is not a local address")]
    NotLocal(IpAddr),
    /// The operating system gave no random bits for the tokens.
    #[error("cannot draw the seats' secret tokens: {0}")]
    Random(getrandom::Error),
    /// The server's thread could not start.
    #[error("cannot start the room's server: {0}")]
    Start(std::io::Error),
}

/// What to open.
#[derive(Clone, Debug)]
pub struct RoomConfig {
    /// The session played in the room (its tokens are valid for it only).
    pub session: u64,
    /// The seats held by phones, with the player's name at each.
    pub seats: Vec<(Seat, String)>,
    /// The address to listen on: the machine's address on the local network
    /// ([`lan_address`]), or loopback.
    pub address: IpAddr,
    /// The port (0: any free port).
    pub port: u16,
}

/// A game open to the room: the server runs until this is closed or dropped.
pub struct Room {
    seats: Arc<seats::Seats>,
    address: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// How long closing waits for phones to be told that the room closed.
const CLOSE_GRACE: Duration = Duration::from_secs(1);

impl Room {
    /// Opens the room: draws a token per seat and listens. Phones' moves will arrive on
    /// `moves`.
    pub fn open(config: RoomConfig, moves: Sender<PhoneMove>) -> Result<Room, RoomError> {
        if !is_local(config.address) {
            return Err(RoomError::NotLocal(config.address));
        }
        let seats = Arc::new(
            seats::Seats::new(config.session, &config.seats, moves).map_err(RoomError::Random)?,
        );
        let wanted = SocketAddr::new(config.address, config.port);
        let listen = |source| RoomError::Listen {
            address: wanted,
            source,
        };
        let listener = TcpListener::bind(wanted).map_err(listen)?;
        listener.set_nonblocking(true).map_err(listen)?;
        let address = listener.local_addr().map_err(listen)?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .enable_time()
            .build()
            .map_err(RoomError::Start)?;
        let (stop, stopped) = tokio::sync::oneshot::channel();
        let served = Arc::clone(&seats);
        let thread = std::thread::Builder::new()
            .name("veillee-room".into())
            .spawn(move || serve(runtime, listener, address, served, stopped))
            .map_err(RoomError::Start)?;
        Ok(Room {
            seats,
            address,
            stop: Some(stop),
            thread: Some(thread),
        })
    }

    /// Where the room listens.
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// The room's address as phones type it: `http://192.168.1.20:41234`.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.address)
    }

    /// The link of a seat's token.
    pub fn url(&self, token: &str) -> String {
        format!("{}/s/{token}", self.base_url())
    }

    /// Every phone seat: its link and whether a phone holds it.
    pub fn links(&self) -> Vec<SeatLink> {
        self.seats.links()
    }

    /// Publishes each phone seat's new state. `answered`: the seat whose phone move was just played (its
    /// seat may move again even if its moves look the same).
    pub fn publish(&self, states: &[SeatState], answered: Option<Seat>) {
        self.seats.publish(states, |seat| answered == Some(seat));
    }

    /// Publishes each phone seat's state after moves were taken back (undo) or played
    /// again (redo): every seat gets a new version, so a move a phone chose before is
    /// refused as stale rather than played in another position.
    pub fn publish_moved_back(&self, states: &[SeatState]) {
        self.seats.publish(states, |_| true);
    }

    /// Whether a phone's move was chosen in its seat's latest state: the owner checks it
    /// before playing a move that waited on the channel while the game moved (an undo).
    pub fn is_current(&self, mv: &PhoneMove) -> bool {
        self.seats.is_current(mv)
    }

    /// Tells a phone that its move was refused (by the game or a house rule), and why.
    pub fn refuse(&self, mv: &PhoneMove, why: Text) {
        self.seats.refuse(mv, why);
    }

    /// Hands a seat to a new phone: the seat gets a new link (returned), the old one stops
    /// working and the phone holding the seat is let go.
    pub fn hand_over(&self, seat: Seat) -> Option<String> {
        self.seats.hand_over(seat).map(|token| self.url(&token))
    }

    /// Closes the room: phones are told, the server stops listening.
    pub fn close(mut self) {
        self.shut();
    }

    fn shut(&mut self) {
        self.seats.close_all();
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Room {
    fn drop(&mut self) {
        self.shut();
    }
}

/// The server's thread: serves until told to stop, then gives phones a moment to read that
/// the room closed, and ends every connection.
fn serve(
    runtime: tokio::runtime::Runtime,
    listener: TcpListener,
    address: SocketAddr,
    seats: Arc<seats::Seats>,
    stopped: tokio::sync::oneshot::Receiver<()>,
) {
    let router = server::router(Arc::clone(&seats));
    runtime.block_on(async move {
        let Ok(listener) = tokio::net::TcpListener::from_std(listener) else {
            return;
        };
        tokio::select! {
            () = server::listen(listener, router, address) => {}
            _ = stopped => {}
        }
        let deadline = Instant::now() + CLOSE_GRACE;
        while seats.open_sockets() > 0 && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    });
    runtime.shutdown_timeout(CLOSE_GRACE);
}
