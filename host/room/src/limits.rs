//! Every bound the room puts on what phones (and anything else on the local network) may
//! cost it, in one place, with why each value.
//!
//! The room shares its process with the launcher, whose limit of open files is often the
//! usual 1,024 (and the store, the plugins and the window use some): a device on the Wi-Fi
//! that could hold as many connections as it likes would leave no descriptor for a phone.
//! So connections are counted from the moment they are accepted, each peer and all of them
//! together are capped well below that limit, a connection that says nothing is closed
//! soon, and when a cap is reached the oldest connection that holds no seat makes way for
//! the new one (`gate`): an attacker can only push out its own connections and phones still
//! loading, never a seated phone, and a phone that tries again gets in.

use std::time::Duration;

/// The longest message a phone may send, in bytes. An action id is at most 1 KiB (the
/// store's limit), so a move fits with room to spare.
pub const MAX_MESSAGE: usize = 4 * 1024;

/// The longest message the WebSocket layer reads at all: past this the connection is
/// closed (code 1009) without reading further.
pub const MAX_FRAME: usize = 64 * 1024;

/// Connections open at once, all peers together. A table has a handful of phones, each with
/// at most the few connections a browser opens to load a page and its WebSocket; 256 is ten
/// times what a full table needs and a quarter of the usual 1,024 descriptors, leaving the
/// rest to the launcher.
pub const MAX_CONNECTIONS: usize = 256;

/// Connections open at once from one address. A browser opens up to six to one server, and
/// a phone that reloads may still hold its old ones for a moment: 24 is enough for one
/// phone (or two behind one address), and ten devices at this cap still fit in
/// `MAX_CONNECTIONS`.
pub const MAX_PER_PEER: usize = 24;

/// How long a connection may take to send a request's headers, counted from when it is
/// accepted or its last answer was sent: a page's request is a few hundred bytes, sent at
/// once even on poor Wi-Fi. This also closes a keep-alive connection left with nothing to
/// ask, and a connection that sends its headers a byte at a time (slowloris).
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a phone has to say hello, counted from when its TCP connection was accepted
/// (not from the WebSocket's upgrade, which a slow client could delay): the page sends its
/// hello as soon as the socket opens.
pub const HELLO_TIMEOUT: Duration = Duration::from_secs(15);
