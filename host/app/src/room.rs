//! "Players join with their phones" in the window: the worker's side of the room
//! (`veillee-room`) and what the play screen draws of it.
//!
//! The worker owns [`PhoneSeats`] with the game: the room's moves come back to it as
//! [`Request::Phone`] and are played like clicks (saved before shown), and every new state of
//! the game is published to the phones, each in its own seat's words. The play screen shows
//! each phone seat's link and QR code ([`room_ui`]) and the spectator's view while phones
//! think; hand-off screens are only for seats played on this computer.

use std::sync::mpsc::{channel, Sender};

use egui::{Color32, RichText, Ui};
use veillee_room::qr::{Qr, QUIET_ZONE};
use veillee_room::table::{seat_states, TableInfo, TableLog};
use veillee_room::{PhoneMove, Room, RoomConfig};
use veillee_runtime::engine::GameEngine;
use veillee_runtime::session::LiveSession;
use veillee_sdk::{Seat, Text};

use crate::i18n::{Lang, S};
use crate::widgets::{self, ACCENT, MUTED};
use crate::worker::{seat_name, Request};

/// `VEILLEE_ROOM_ADDRESS=IP`: where the window's room listens (default: this computer's
/// address on the local network; tests use loopback).
pub const ADDRESS_ENV: &str = "VEILLEE_ROOM_ADDRESS";

/// The phone seats of the game the worker plays.
pub struct PhoneSeats {
    room: Room,
    seats: Vec<Seat>,
    /// The table's log as the phones read it.
    pub log: TableLog,
    /// The phone move just played, whose seat gets a new state version.
    answered: Option<Seat>,
    /// Moves were taken back or played again: every seat gets a new state version.
    moved_back: bool,
}

/// What the play screen shows of the room.
#[derive(Clone, Debug)]
pub struct RoomView {
    /// Where the room listens (`http://192.168.1.20:41234`).
    pub base_url: String,
    /// Each phone seat.
    pub seats: Vec<PhoneLink>,
}

/// One phone seat, for the play screen.
#[derive(Clone, Debug)]
pub struct PhoneLink {
    /// The seat.
    pub seat: Seat,
    /// The player's name.
    pub name: String,
    /// The seat's link (it carries the seat's secret).
    pub url: String,
    /// Its QR code.
    pub qr: Option<Qr>,
    /// Whether a phone is connected to it now.
    pub connected: bool,
    /// Whether a phone took it.
    pub taken: bool,
}

impl PhoneSeats {
    /// Opens the room for these seats of a session; the phones' moves will arrive in the
    /// worker's `inbox` as [`Request::Phone`].
    pub fn open(
        live: &LiveSession,
        seats: Vec<Seat>,
        inbox: Sender<Request>,
    ) -> Result<PhoneSeats, String> {
        let address = match std::env::var(ADDRESS_ENV) {
            Ok(text) => text
                .trim()
                .parse()
                .map_err(|_| format!("{ADDRESS_ENV}={text} is not an IP address"))?,
            Err(_) => veillee_room::lan_address().ok_or_else(|| {
                "phones need this computer to be on a local network (Wi-Fi or Ethernet), and it is on none".to_string()
            })?,
        };
        let (moves_in, moves) = channel();
        let config = RoomConfig {
            session: live.meta.id,
            seats: seats
                .iter()
                .map(|&s| (s, seat_name(&live.meta, s)))
                .collect(),
            address,
            port: 0,
        };
        let room = Room::open(config, moves_in).map_err(|e| e.to_string())?;
        // Ends when the room closes (its sender goes with it).
        std::thread::Builder::new()
            .name("veillee-phones".into())
            .spawn(move || {
                for mv in moves {
                    if inbox.send(Request::Phone(mv)).is_err() {
                        return;
                    }
                }
            })
            .map_err(|e| e.to_string())?;
        Ok(PhoneSeats {
            room,
            seats,
            log: TableLog::default(),
            answered: None,
            moved_back: false,
        })
    }

    /// Whether a phone holds this seat.
    pub fn holds(&self, seat: Seat) -> bool {
        self.seats.contains(&seat)
    }

    /// Whether a phone's move may be played now: chosen in its seat's latest state (not
    /// before an undo), by a seat to act.
    pub fn playable(&self, mv: &PhoneMove, to_act: &[Seat]) -> Result<(), Text> {
        if !to_act.contains(&mv.seat) {
            return Err(Text::new(
                "Ce n'est pas à vous de jouer.",
                "It is not your turn.",
            ));
        }
        if !self.room.is_current(mv) {
            return Err(Text::new(
                "La partie a changé sur le grand écran : regardez à nouveau et rejouez.",
                "The game changed on the big screen: look again and play again.",
            ));
        }
        Ok(())
    }

    /// A phone's move of `seat` was played: the seat gets a new state version.
    pub fn answered(&mut self, seat: Seat) {
        self.answered = Some(seat);
    }

    /// Moves were taken back (`count` of them, down to `moves` played) at the big screen.
    pub fn taken_back(&mut self, moves: u32, count: u32) {
        self.log.taken_back(moves, count);
        self.moved_back = true;
    }

    /// Moves taken back were played again at the big screen.
    pub fn played_again(&mut self, events: &[veillee_sdk::Event]) {
        self.log.played_again(events);
        self.moved_back = true;
    }

    /// Tells a phone its move was refused, and why.
    pub fn refuse(&self, mv: &PhoneMove, why: Text) {
        self.room.refuse(mv, why);
    }

    /// Sends every phone its seat's state of the game as it stands.
    pub fn publish(
        &mut self,
        engine: &mut dyn GameEngine,
        live: &LiveSession,
    ) -> Result<(), String> {
        let info = TableInfo {
            game: engine.manifest().name.clone(),
            players: live.meta.seats.iter().map(|s| s.name.clone()).collect(),
            moves: live.meta.moves,
        };
        let states = seat_states(engine, live.game, &self.seats, &info, self.log.lines())
            .map_err(|e| e.to_string())?;
        if std::mem::take(&mut self.moved_back) {
            self.room.publish_moved_back(&states);
        } else {
            self.room.publish(&states, self.answered.take());
        }
        Ok(())
    }

    /// Hands a seat to a new phone (a new link; the old one stops working).
    pub fn hand_over(&self, seat: Seat) {
        self.room.hand_over(seat);
    }

    /// The links and who holds them, for the play screen.
    pub fn view(&self) -> RoomView {
        RoomView {
            base_url: self.room.base_url(),
            seats: self
                .room
                .links()
                .into_iter()
                .map(|link| {
                    let url = self.room.url(&link.token);
                    PhoneLink {
                        seat: link.seat,
                        name: link.name,
                        qr: Qr::new(&url),
                        url,
                        connected: link.connected,
                        taken: link.taken,
                    }
                })
                .collect(),
        }
    }
}

/// The room on the play screen: "Players join with their phones", then each phone seat's
/// name, whether its phone is there, its QR code and link, and a button to hand it to
/// another phone. Returns the seat to hand over, if that button was clicked.
pub fn room_ui(ui: &mut Ui, room: &RoomView, lang: Lang) -> Option<Seat> {
    let mut hand_over = None;
    ui.label(RichText::new(lang.t(S::PhonesJoin)).strong().color(ACCENT));
    if room.seats.iter().any(|s| !s.connected) {
        ui.label(RichText::new(lang.f(S::SameNetwork, &[&room.base_url])).color(MUTED));
    }
    for link in &room.seats {
        ui.add_space(6.0);
        let state = match (link.connected, link.taken) {
            (true, _) => lang.t(S::PhoneHere),
            (false, true) => lang.t(S::PhoneAway),
            (false, false) => lang.t(S::PhoneNotYet),
        };
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new(&link.name).strong());
            ui.label(RichText::new(state).color(MUTED));
        });
        // The code only while the seat waits for a phone: it takes room.
        if !link.connected {
            if let Some(qr) = &link.qr {
                qr_ui(ui, qr, &link.name);
            }
            link_label(ui, &link.url);
        }
        if link.taken && widgets::button(ui, lang.t(S::HandOver)).clicked() {
            hand_over = Some(link.seat);
        }
    }
    hand_over
}

/// A seat's link, small, broken anywhere to fit the panel (it is one long word).
fn link_label(ui: &mut Ui, url: &str) {
    let format = egui::TextFormat {
        font_id: egui::FontId::monospace(12.0),
        color: MUTED,
        ..egui::TextFormat::default()
    };
    let mut job = egui::text::LayoutJob::single_section(url.to_string(), format);
    job.wrap = egui::text::TextWrapping {
        max_width: ui.available_width(),
        break_anywhere: true,
        ..egui::text::TextWrapping::default()
    };
    ui.label(job);
}

/// A QR code, dark modules on white with its quiet zone, about 180 points wide.
fn qr_ui(ui: &mut Ui, qr: &Qr, name: &str) {
    let side = qr.width + 2 * QUIET_ZONE;
    let module = (180.0 / side as f32).floor().max(2.0);
    let size = egui::vec2(module * side as f32, module * side as f32);
    let (rect, response) = ui.allocate_exact_size(size, egui::Sense::hover());
    response.widget_info(|| {
        egui::WidgetInfo::labeled(egui::Role::Image, true, format!("QR code — {name}"))
    });
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 0.0, Color32::WHITE);
    let q = QUIET_ZONE as isize;
    for y in 0..side as isize {
        for x in 0..side as isize {
            if qr.is_dark(x - q, y - q) {
                let min = rect.min + egui::vec2(x as f32 * module, y as f32 * module);
                let cell = egui::Rect::from_min_size(min, egui::vec2(module, module));
                painter.rect_filled(cell, 0.0, Color32::BLACK);
            }
        }
    }
}

/// "Waiting for NAME (on their phones)" when only phones are to act (wrapped: names may
/// be long).
pub fn waiting_ui(ui: &mut Ui, names: &[String], lang: Lang) {
    ui.horizontal_wrapped(|ui| {
        ui.spinner();
        let text = lang.f(S::WaitingForPhones, &[&names.join(", ")]);
        ui.label(RichText::new(text).color(MUTED));
    });
}
