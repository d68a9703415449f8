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
//! [`Room`] is open and only answers peers on the local network; nothing a phone sends
//! reaches the game unless it is a legal move of its seat in its latest state.**

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

pub use net::lan_address;
pub use seats::{PhoneMove, SeatLink};
pub use server::is_local;
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
            .spawn(move || serve(runtime, listener, served, stopped))
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

    /// Publishes each phone seat's new state. `answered`: the phone move just played (its
    /// seat may move again even if its moves look the same).
    pub fn publish(&self, states: &[SeatState], answered: Option<&PhoneMove>) {
        self.seats
            .publish(states, |seat| answered.is_some_and(|m| m.seat == seat));
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
    seats: Arc<seats::Seats>,
    stopped: tokio::sync::oneshot::Receiver<()>,
) {
    let router = server::router(Arc::clone(&seats));
    runtime.block_on(async move {
        let Ok(listener) = tokio::net::TcpListener::from_std(listener) else {
            return;
        };
        let service = router.into_make_service_with_connect_info::<SocketAddr>();
        tokio::select! {
            _ = axum::serve(listener, service) => {}
            _ = stopped => {}
        }
        let deadline = Instant::now() + CLOSE_GRACE;
        while seats.open_sockets() > 0 && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    });
    runtime.shutdown_timeout(CLOSE_GRACE);
}
