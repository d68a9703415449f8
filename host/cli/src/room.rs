//! `veillee play … --seats phone,…`: seats held by players' phones. The terminal is the big
//! screen (the spectator's view, the log, whose turn it is); each phone seat gets a link and
//! a QR code; phones' moves are played like the terminal's (saved before shown).

use std::net::IpAddr;
use std::sync::mpsc::channel;

use anyhow::Context;
use veillee_room::qr::Qr;
use veillee_room::table::{seat_states, TableInfo, TableLog};
use veillee_room::{PhoneMove, Room, RoomConfig};
use veillee_runtime::engine::GameEngine;
use veillee_runtime::session::LiveSession;
use veillee_sdk::{Action, Event, Seat, Text};

use crate::inputs::Inputs;
use crate::term::{line, outln};

/// Where and how the room listens (`--room-address`, `--room-port`).
pub struct Listen {
    /// The address (default: the machine's address on the local network).
    pub address: Option<IpAddr>,
    /// The port (0: any free one).
    pub port: u16,
}

/// Where the room listens when seats are phones (`play`, `resume`).
#[derive(clap::Args, Debug)]
pub struct RoomArgs {
    /// With phone seats: the address to listen on (default: this computer's address on the
    /// local network).
    #[arg(long, value_name = "IP")]
    pub room_address: Option<std::net::IpAddr>,
    /// With phone seats: the port to listen on (default: any free port).
    #[arg(long, default_value_t = 0)]
    pub room_port: u16,
}

impl RoomArgs {
    /// Where the room listens.
    pub fn listen(&self) -> Listen {
        Listen {
            address: self.room_address,
            port: self.room_port,
        }
    }
}

/// The phones of a game played in the terminal.
pub struct Phones {
    room: Room,
    seats: Vec<Seat>,
    log: TableLog,
}

impl Phones {
    /// Opens the room for these seats of a session and prints each seat's link and QR code;
    /// the phones' moves will come through `inputs`.
    pub fn open(
        live: &LiveSession,
        seats: Vec<Seat>,
        listen: &Listen,
        inputs: &mut Inputs,
    ) -> anyhow::Result<Phones> {
        let address = match listen.address {
            Some(address) => address,
            None => veillee_room::lan_address().context(
                "phones need this computer to be on a local network (Wi-Fi or Ethernet), and it is on none; join one, or name an address with --room-address",
            )?,
        };
        let (moves_in, moves) = channel();
        let config = RoomConfig {
            session: live.meta.id,
            seats: seats.iter().map(|&s| (s, seat_name(live, s))).collect(),
            address,
            port: listen.port,
        };
        let room = Room::open(config, moves_in)?;
        inputs.forward(moves);
        let phones = Phones {
            room,
            seats,
            log: TableLog::default(),
        };
        phones.print_links();
        Ok(phones)
    }

    fn print_links(&self) {
        outln!(
            "Players join with their phones, on the same network ({}):",
            self.room.base_url()
        );
        for link in self.room.links() {
            let url = self.room.url(&link.token);
            outln!("\n  {} — {url}", line(&link.name));
            if let Some(qr) = Qr::new(&url) {
                outln!("{}", qr.terminal());
            }
        }
    }

    /// Hands `seat` to another phone: prints its new link and QR code (the old link stops
    /// working, the phone that held it is let go).
    pub fn hand_over(&self, seat: Seat) {
        if !self.seats.contains(&seat) {
            outln!(
                "Seat {} is not played on a phone; the phones' seats are {}.",
                u16::from(seat) + 1,
                self.seat_numbers()
            );
            return;
        }
        let Some(url) = self.room.hand_over(seat) else {
            outln!("The room could not make a new link for this seat; the old one still works.");
            return;
        };
        let name = self
            .room
            .links()
            .into_iter()
            .find(|l| l.seat == seat)
            .map_or_else(String::new, |l| l.name);
        outln!(
            "\n  {} — new link (the old one no longer opens this seat): {url}",
            line(&name)
        );
        if let Some(qr) = Qr::new(&url) {
            outln!("{}", qr.terminal());
        }
    }

    /// The phones' seats as the terminal numbers them (from 1).
    fn seat_numbers(&self) -> String {
        let numbers: Vec<String> = self
            .seats
            .iter()
            .map(|&s| (u16::from(s) + 1).to_string())
            .collect();
        numbers.join(", ")
    }

    /// Notes move number `index` (0 for the first) in the phones' log (each phone reads it in
    /// its seat's words); returns its lines as the big screen shows them, in words everyone
    /// may read: (who, what).
    pub fn note(
        &mut self,
        index: u32,
        who: &str,
        seat: Seat,
        action: &Action,
        events: &[Event],
    ) -> Vec<(String, Text)> {
        self.log
            .note(index, who, seat, action, events)
            .iter()
            .map(|l| (l.who.clone(), l.text_for(None).clone()))
            .collect()
    }

    /// The phones' log.
    pub fn log(&mut self) -> &mut TableLog {
        &mut self.log
    }

    /// Sends every phone its seat's state; `answered`: the phone move just played.
    pub fn publish(
        &self,
        engine: &mut dyn GameEngine,
        live: &LiveSession,
        answered: Option<&PhoneMove>,
    ) -> anyhow::Result<()> {
        let states = self.states(engine, live)?;
        self.room.publish(&states, answered.map(|mv| mv.seat));
        Ok(())
    }

    /// Sends every phone its seat's state after an undo or a redo: a move a phone chose
    /// before it is refused as stale.
    pub fn publish_moved_back(
        &self,
        engine: &mut dyn GameEngine,
        live: &LiveSession,
    ) -> anyhow::Result<()> {
        let states = self.states(engine, live)?;
        self.room.publish_moved_back(&states);
        Ok(())
    }

    fn states(
        &self,
        engine: &mut dyn GameEngine,
        live: &LiveSession,
    ) -> anyhow::Result<Vec<veillee_room::SeatState>> {
        let info = TableInfo {
            game: engine.manifest().name.clone(),
            players: live.meta.seats.iter().map(|s| s.name.clone()).collect(),
            moves: live.meta.moves,
        };
        Ok(seat_states(
            engine,
            live.game,
            &self.seats,
            &info,
            self.log.lines(),
        )?)
    }

    /// Whether a phone's move was chosen in its seat's latest state.
    pub fn is_current(&self, mv: &PhoneMove) -> bool {
        self.room.is_current(mv)
    }

    /// Tells a phone its move was refused, and why.
    pub fn refuse(&self, mv: &PhoneMove, why: Text) {
        self.room.refuse(mv, why);
    }
}

fn seat_name(live: &LiveSession, seat: Seat) -> String {
    live.meta
        .seats
        .get(seat as usize)
        .map(|p| p.name.clone())
        .unwrap_or_else(|| format!("{}", seat + 1))
}
