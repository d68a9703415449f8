//! The room's seats: each phone seat's token, the phone that holds it (its claim and its
//! live connection), and the latest state published for it.
//!
//! All of it sits behind one mutex, held only for bookkeeping (never across a network send
//! or a game call). The server's connections and the game's owner meet here: connections
//! join, leave and propose moves; the owner publishes states and answers moves.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::{mpsc, watch};
use veillee_sdk::{Seat, Text};

use crate::table::SeatState;
use crate::token::{self, SeatToken, Secret};

/// A move a phone proposed: checked against its seat's latest state, not yet played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhoneMove {
    /// The phone's seat.
    pub seat: Seat,
    /// One of that seat's legal action ids.
    pub action: String,
    /// The version of the seat's state it was chosen in.
    pub version: u64,
}

/// The latest state of a seat, as sent.
#[derive(Debug)]
pub struct Published {
    /// Changes whenever the seat's moves change or its last move was answered.
    pub version: u64,
    /// The legal action ids in it.
    pub actions: Vec<String>,
    /// The message, ready to send.
    pub json: String,
}

/// What the room tells one connection besides states.
#[derive(Clone, Debug)]
pub enum Notice {
    /// A refused request; the connection stays.
    Error(&'static str, Text),
    /// The connection must end (handed over, taken back by the same phone, room closed).
    Close(&'static str, Text),
}

/// A phone's live connection to its seat.
struct Connection {
    id: u64,
    notices: mpsc::UnboundedSender<Notice>,
}

/// One phone seat.
struct Slot {
    name: String,
    token: SeatToken,
    /// The phone that took the seat, once one did: only it may come back.
    claim: Option<Secret>,
    connection: Option<Connection>,
    state: watch::Sender<Option<Arc<Published>>>,
    /// The version of the state being published.
    version: u64,
    /// A move from this seat is on its way to the game.
    pending: bool,
}

/// A connection that joined its seat.
pub struct Joined {
    /// The seat.
    pub seat: Seat,
    /// The player's name.
    pub name: String,
    /// This connection, to name it when leaving or acting.
    pub connection: u64,
    /// The claim to give the phone.
    pub claim: String,
    /// Notices for this connection.
    pub notices: mpsc::UnboundedReceiver<Notice>,
    /// The seat's states.
    pub states: watch::Receiver<Option<Arc<Published>>>,
}

/// Why a phone was not let in, or a move not taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// Stable code.
    pub code: &'static str,
    /// In words.
    pub text: Text,
}

fn refusal(code: &'static str, fr: impl Into<String>, en: impl Into<String>) -> Refusal {
    Refusal {
        code,
        text: Text::new(fr, en),
    }
}

/// A seat's link, for the host to show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatLink {
    /// The seat.
    pub seat: Seat,
    /// The player's name.
    pub name: String,
    /// The token in the link.
    pub token: String,
    /// Whether a phone is connected to it now.
    pub connected: bool,
    /// Whether a phone took it (connected or not).
    pub taken: bool,
}

/// Every phone seat of a room.
pub struct Seats {
    session: u64,
    slots: Mutex<BTreeMap<Seat, Slot>>,
    moves: Mutex<Sender<PhoneMove>>,
    next_connection: Mutex<u64>,
    /// Sockets open now (joined or not), so that closing can wait for them to say goodbye.
    live: AtomicUsize,
}

/// Counts one open socket while it lives.
pub struct LiveSocket<'a>(&'a AtomicUsize);

impl Drop for LiveSocket<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Seats {
    /// Fresh tokens for these seats `(seat, player name)` of `session`.
    pub fn new(
        session: u64,
        seats: &[(Seat, String)],
        moves: Sender<PhoneMove>,
    ) -> Result<Seats, getrandom::Error> {
        let mut slots = BTreeMap::new();
        for (seat, name) in seats {
            slots.insert(
                *seat,
                Slot {
                    name: name.clone(),
                    token: SeatToken::new(session)?,
                    claim: None,
                    connection: None,
                    state: watch::channel(None).0,
                    version: 0,
                    pending: false,
                },
            );
        }
        Ok(Seats {
            session,
            slots: Mutex::new(slots),
            moves: Mutex::new(moves),
            next_connection: Mutex::new(0),
            live: AtomicUsize::new(0),
        })
    }

    fn slots(&self) -> MutexGuard<'_, BTreeMap<Seat, Slot>> {
        // A panic elsewhere while holding the lock leaves plain bookkeeping behind: go on.
        self.slots.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Counts a socket as open until the guard is dropped.
    pub fn socket_opened(&self) -> LiveSocket<'_> {
        self.live.fetch_add(1, Ordering::AcqRel);
        LiveSocket(&self.live)
    }

    /// Sockets open now.
    pub fn open_sockets(&self) -> usize {
        self.live.load(Ordering::Acquire)
    }

    /// Every seat's link.
    pub fn links(&self) -> Vec<SeatLink> {
        self.slots()
            .iter()
            .map(|(&seat, slot)| SeatLink {
                seat,
                name: slot.name.clone(),
                token: slot.token.text(),
                connected: slot.connection.is_some(),
                taken: slot.claim.is_some(),
            })
            .collect()
    }

    /// A phone says hello with a token and maybe the claim it was given before.
    pub fn join(&self, token_text: &str, claim: Option<&str>) -> Result<Joined, Refusal> {
        let Some((session, secret)) = token::parse(token_text) else {
            return Err(not_a_link());
        };
        if session != self.session {
            return Err(refusal(
                "other_session",
                format!("Ce lien est celui d'une autre partie (partie {session}). Scannez le code de la partie en cours sur le grand écran."),
                format!("This link belongs to another game (game {session}). Scan the code of the current game on the big screen."),
            ));
        }
        let id = self.new_connection_id();
        let mut slots = self.slots();
        let Some((&seat, slot)) = slots
            .iter_mut()
            .find(|(_, slot)| slot.token.secret.matches(secret))
        else {
            return Err(not_a_link());
        };
        let returning = match (&slot.claim, claim) {
            (None, _) => false,
            (Some(held), Some(given)) if held.matches(given) => true,
            (Some(_), _) => {
                return Err(refusal(
                    "seat_taken",
                    "Un autre téléphone tient déjà cette place. L'hôte peut la confier à ce téléphone (« Confier à un autre téléphone »).",
                    "Another phone already holds this seat. The host can hand it to this phone (\"Hand to another phone\").",
                ))
            }
        };
        if !returning {
            slot.claim = Some(Secret::random().map_err(|_| no_randomness())?);
        }
        if let Some(old) = slot.connection.take() {
            // The same phone came back (a new tab, a reload, a connection that had died
            // without the room noticing): the newest connection wins.
            let _ = old.notices.send(Notice::Close(
                "replaced",
                Text::new(
                    "Cette place s'est ouverte ailleurs sur ce téléphone.",
                    "This seat was opened elsewhere on this phone.",
                ),
            ));
        }
        let (notices_out, notices) = mpsc::unbounded_channel();
        slot.connection = Some(Connection {
            id,
            notices: notices_out,
        });
        Ok(Joined {
            seat,
            name: slot.name.clone(),
            connection: id,
            claim: slot
                .claim
                .as_ref()
                .map(|c| c.as_str().to_string())
                .unwrap_or_default(),
            notices,
            states: slot.state.subscribe(),
        })
    }

    fn new_connection_id(&self) -> u64 {
        let mut next = self
            .next_connection
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        *next += 1;
        *next
    }

    /// A connection ended: its seat stays taken by its phone, which may come back.
    pub fn leave(&self, seat: Seat, connection: u64) {
        if let Some(slot) = self.slots().get_mut(&seat) {
            if slot.connection.as_ref().is_some_and(|c| c.id == connection) {
                slot.connection = None;
            }
        }
    }

    /// A connection proposes a move: it must be one of the seat's legal moves in the state
    /// it was chosen in, that state must be the latest, and no other move of the seat may be
    /// on its way. Then it goes to the game's owner.
    pub fn propose(
        &self,
        seat: Seat,
        connection: u64,
        action: &str,
        version: u64,
    ) -> Result<(), Refusal> {
        let mut slots = self.slots();
        let Some(slot) = slots.get_mut(&seat) else {
            return Err(not_a_link());
        };
        if slot.connection.as_ref().is_none_or(|c| c.id != connection) {
            return Err(refusal(
                "not_holder",
                "Ce téléphone ne tient plus cette place.",
                "This phone no longer holds this seat.",
            ));
        }
        let latest = slot.state.borrow().clone();
        let Some(latest) = latest else {
            return Err(not_your_turn());
        };
        if latest.version != version {
            return Err(refusal(
                "stale",
                "La partie a avancé entre-temps : regardez à nouveau et rejouez.",
                "The game moved on in the meantime: look again and play again.",
            ));
        }
        if slot.pending {
            return Err(refusal(
                "pending",
                "Votre coup précédent est en cours.",
                "Your previous move is on its way.",
            ));
        }
        if !latest.actions.iter().any(|a| a == action) {
            return Err(if latest.actions.is_empty() {
                not_your_turn()
            } else {
                refusal(
                    "illegal",
                    "Ce coup n'est pas permis maintenant.",
                    "That move is not allowed now.",
                )
            });
        }
        let sent = self
            .moves
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .send(PhoneMove {
                seat,
                action: action.to_string(),
                version,
            });
        if sent.is_err() {
            return Err(refusal(
                "closing",
                "La partie se ferme sur l'ordinateur de l'hôte.",
                "The game is closing on the host's computer.",
            ));
        }
        slot.pending = true;
        Ok(())
    }

    /// The owner publishes new states; `renew`: the seats that get a new version even if
    /// their moves look the same (the seat whose move was just played; every seat after an
    /// undo, so that no move chosen before it is taken).
    pub fn publish(&self, states: &[SeatState], renew: impl Fn(Seat) -> bool) {
        let mut slots = self.slots();
        for state in states {
            let Some(slot) = slots.get_mut(&state.seat) else {
                continue;
            };
            let actions: Vec<String> = state.actions.iter().map(|a| a.id.clone()).collect();
            let previous = slot.state.borrow().clone();
            let changed = previous.as_ref().is_none_or(|p| p.actions != actions);
            if changed || renew(state.seat) {
                slot.version += 1;
                slot.pending = false;
            }
            let json = state_json(slot.version, state);
            slot.state.send_replace(Some(Arc::new(Published {
                version: slot.version,
                actions,
                json,
            })));
        }
    }

    /// Whether a move was chosen in its seat's latest state (the game has not moved on or
    /// back since).
    pub fn is_current(&self, mv: &PhoneMove) -> bool {
        self.slots()
            .get(&mv.seat)
            .is_some_and(|slot| slot.version == mv.version)
    }

    /// The owner refused a phone's move (the game or a house rule said no): the phone is
    /// told why and may play again.
    pub fn refuse(&self, mv: &PhoneMove, why: Text) {
        if let Some(slot) = self.slots().get_mut(&mv.seat) {
            slot.pending = false;
            if let Some(connection) = &slot.connection {
                let _ = connection.notices.send(Notice::Error("refused", why));
            }
        }
    }

    /// The host hands a seat to a new phone: a fresh token (the old link stops working),
    /// no claim, and the phone holding it is told and let go. Returns the new token.
    pub fn hand_over(&self, seat: Seat) -> Option<String> {
        let mut slots = self.slots();
        let slot = slots.get_mut(&seat)?;
        slot.token = SeatToken::new(self.session).ok()?;
        slot.claim = None;
        if let Some(old) = slot.connection.take() {
            let _ = old.notices.send(Notice::Close(
                "handed_over",
                Text::new(
                    "L'hôte a confié cette place à un autre téléphone.",
                    "The host handed this seat to another phone.",
                ),
            ));
        }
        Some(slot.token.text())
    }

    /// The room closes: every phone is told.
    pub fn close_all(&self) {
        for slot in self.slots().values_mut() {
            if let Some(old) = slot.connection.take() {
                let _ = old.notices.send(Notice::Close(
                    "closed",
                    Text::new(
                        "L'hôte a fermé la salle. La partie est sauvegardée.",
                        "The host closed the room. The game is saved.",
                    ),
                ));
            }
        }
    }
}

/// A state as sent: `{"type":"state","version":N, ...the state}`.
fn state_json(version: u64, state: &SeatState) -> String {
    #[derive(serde::Serialize)]
    struct Envelope<'a> {
        r#type: &'static str,
        version: u64,
        #[serde(flatten)]
        state: &'a SeatState,
    }
    serde_json::to_string(&Envelope {
        r#type: "state",
        version,
        state,
    })
    .unwrap_or_default()
}

fn not_a_link() -> Refusal {
    refusal(
        "bad_token",
        "Ce lien n'ouvre aucune place de cette partie. Scannez à nouveau le code de votre place sur le grand écran.",
        "This link opens no seat of this game. Scan your seat's code on the big screen again.",
    )
}

fn not_your_turn() -> Refusal {
    refusal(
        "not_your_turn",
        "Ce n'est pas à vous de jouer.",
        "It is not your turn.",
    )
}

fn no_randomness() -> Refusal {
    refusal(
        "no_randomness",
        "L'ordinateur de l'hôte n'a pas pu tirer de nombre au hasard.",
        "The host's computer could not draw a random number.",
    )
}
