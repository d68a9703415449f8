//! A real table for the room's tests: a Castel game (the built-in wasm plugin through
//! wasmtime, with its cards' Lua script) saved in a real sled store, owned by a host thread
//! that plays phone moves exactly as a front end does (`Sessions::apply`, durable, then
//! publish) and a random bot at the other seats; and phones as real WebSocket clients.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};
use veillee_room::table::{move_lines, seat_state, seat_states, LogLine, TableInfo};
use veillee_room::{PhoneMove, Room, RoomConfig, SeatLink};
use veillee_runtime::engine::{EngineError, GameEngine};
use veillee_runtime::plugin::Runtime;
use veillee_runtime::session::{LiveSession, SessionError, Sessions};
use veillee_runtime::store::model::{PlayerKind, SeatPlayer};
use veillee_runtime::store::Store;
use veillee_runtime::variants::{library, Script, VariantEngine, VariantLimits};
use veillee_sdk::{GameError, GameRng, Seat, Setup, Status};

/// Castel with its cards' script, as the launcher plays it.
pub fn castel() -> (
    Box<dyn GameEngine>,
    Vec<veillee_runtime::store::model::VariantScript>,
) {
    let runtime = Runtime::new(None).expect("the plugin runtime starts");
    let bytes = veillee_runtime::builtin::plugin_bytes("castel").expect("castel is built in");
    let plugin = runtime.load_builtin("castel", bytes).expect("castel loads");
    let scripts: Vec<Script> = library::game_scripts("castel", None)
        .iter()
        .map(|s| s.load(VariantLimits::default()).expect("the cards load"))
        .collect();
    let recorded = scripts
        .iter()
        .map(veillee_runtime::launch::recorded)
        .collect();
    let engine = VariantEngine::new(Box::new(plugin), scripts).expect("the cards run");
    (Box::new(engine), recorded)
}

/// What the host thread learned while it played.
#[derive(Default)]
pub struct Record {
    /// Seat 1's hand (card ids, from its own view) at each move count.
    pub hands_of_seat_1: BTreeMap<u32, Vec<String>>,
    /// How many times seat 0's state was compared with a re-drawn copy's.
    pub redraw_checks: u32,
    /// How the game ended.
    pub status: Option<Status>,
}

/// A table with a room open, its host on its own thread.
pub struct Table {
    pub links: Vec<SeatLink>,
    pub base: String,
    pub sessions: Sessions,
    pub session: u64,
    pub record: Arc<Mutex<Record>>,
    stop: Sender<()>,
    host: Option<std::thread::JoinHandle<()>>,
    _dir: tempfile::TempDir,
}

impl Table {
    /// Castel for `kinds.len()` players; seats in `phones` are held by phones, the others
    /// by random bots.
    pub fn open(seed: u64, players: u8, phones: &[Seat]) -> Table {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let (store, _) = Store::open(dir.path()).expect("the store opens");
        let sessions = Sessions::new(store);
        let record = Arc::new(Mutex::new(Record::default()));
        let (stop, stopped) = channel();
        let (opened_in, opened) = channel();
        let phones = phones.to_vec();
        let (host_sessions, host_record) = (sessions.clone(), Arc::clone(&record));
        // Engines are not `Send` (Lua): the game lives on the host thread from the start.
        let thread = std::thread::spawn(move || {
            let (mut host, moves) = Host::start(host_sessions, seed, players, phones, host_record);
            opened_in
                .send((host.room.links(), host.room.base_url(), host.live.meta.id))
                .unwrap();
            host.run(&moves, &stopped);
        });
        let (links, base, session) = opened.recv().expect("the table opens");
        Table {
            links,
            base,
            sessions,
            session,
            record,
            stop,
            host: Some(thread),
            _dir: dir,
        }
    }

    /// The link of a seat.
    pub fn link(&self, seat: Seat) -> &SeatLink {
        self.links
            .iter()
            .find(|l| l.seat == seat)
            .expect("a phone seat")
    }

    /// Stops the host (closing the room) and waits for it; a failure in the host thread
    /// fails the test.
    pub fn close(mut self) {
        let _ = self.stop.send(());
        if let Some(host) = self.host.take() {
            host.join().expect("the host thread ran without failing");
        }
    }
}

/// The owner of the game: plays bots at once and phone moves as they come.
struct Host {
    sessions: Sessions,
    engine: Box<dyn GameEngine>,
    live: LiveSession,
    room: Room,
    phones: Vec<Seat>,
    log: Vec<LogLine>,
    rng: GameRng,
    record: Arc<Mutex<Record>>,
}

impl Host {
    fn start(
        sessions: Sessions,
        seed: u64,
        players: u8,
        phones: Vec<Seat>,
        record: Arc<Mutex<Record>>,
    ) -> (Host, Receiver<PhoneMove>) {
        let (mut engine, recorded) = castel();
        let seats: Vec<SeatPlayer> = (0..players)
            .map(|s| SeatPlayer {
                name: ["Ana", "Bo", "Cy", "Di", "Ed"][s as usize].to_string(),
                kind: if phones.contains(&s) {
                    PlayerKind::Human
                } else {
                    PlayerKind::Bot
                },
                level: None,
            })
            .collect();
        let live = sessions
            .start_with_variants(&mut *engine, seats, Setup::new(players, seed), recorded)
            .expect("the game starts");
        let (moves_in, moves) = channel();
        let config = RoomConfig {
            session: live.meta.id,
            seats: phones
                .iter()
                .map(|&s| (s, live.meta.seats[s as usize].name.clone()))
                .collect(),
            address: "127.0.0.1".parse().unwrap(),
            port: 0,
        };
        let room = Room::open(config, moves_in).expect("the room opens");
        let host = Host {
            sessions,
            engine,
            live,
            room,
            phones,
            log: Vec::new(),
            rng: GameRng::new(seed ^ 0xb07),
            record,
        };
        (host, moves)
    }

    fn run(&mut self, moves: &Receiver<PhoneMove>, stopped: &Receiver<()>) {
        self.publish(None);
        loop {
            if stopped.try_recv().is_ok() {
                return;
            }
            let status = self.engine.status(self.live.game).expect("status");
            if let Some(bot) = status
                .seats()
                .iter()
                .copied()
                .find(|s| !self.phones.contains(s))
            {
                let actions = self.engine.legal_actions(self.live.game, bot).unwrap();
                let id = actions[self.rng.below(actions.len())].id.clone();
                self.play(bot, &id).expect("a bot's move is legal");
                self.publish(None);
                continue;
            }
            match moves.recv_timeout(Duration::from_millis(20)) {
                Ok(mv) => match self.play(mv.seat, &mv.action) {
                    Ok(()) => self.publish(Some(&mv)),
                    Err(SessionError::Engine(EngineError::Game(GameError::Refused {
                        reason,
                        ..
                    }))) => self.room.refuse(&mv, reason),
                    Err(other) => panic!("a phone's move failed: {other}"),
                },
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return,
            }
        }
    }

    /// The same path as a click: `Sessions::apply` (saved and flushed), then the log.
    fn play(&mut self, seat: Seat, action: &str) -> Result<(), SessionError> {
        let actions = self.engine.legal_actions(self.live.game, seat)?;
        let played = actions
            .into_iter()
            .find(|a| a.id == action)
            .unwrap_or_else(|| {
                veillee_sdk::Action::button(action, veillee_sdk::Text::same(action))
            });
        let events =
            self.sessions
                .apply(&mut *self.engine, &mut self.live, seat, action, Value::Null)?;
        let who = self.live.meta.seats[seat as usize].name.clone();
        self.log.extend(move_lines(&who, seat, &played, &events));
        Ok(())
    }

    fn info(&self) -> TableInfo {
        TableInfo {
            game: self.engine.manifest().name.clone(),
            players: self
                .live
                .meta
                .seats
                .iter()
                .map(|s| s.name.clone())
                .collect(),
            moves: self.live.meta.moves,
        }
    }

    /// Publishes every phone's state, after checking that seat 0's would be the very same
    /// if everything seat 0 cannot see were drawn again.
    fn publish(&mut self, answered: Option<&PhoneMove>) {
        let info = self.info();
        let game = self.live.game;
        let states = seat_states(&mut *self.engine, game, &self.phones, &info, &self.log)
            .expect("the phones' states");
        self.check_seat_0_against_a_redraw(&info);
        let mut record = self.record.lock().unwrap();
        if let Ok(seat1) = seat_state(&mut *self.engine, game, 1, &info, &self.log) {
            let hand: Vec<String> = seat1
                .scene
                .zones
                .iter()
                .filter(|z| z.owner == Some(1))
                .flat_map(|z| z.cards.iter().map(|c| c.id.clone()))
                .collect();
            record.hands_of_seat_1.insert(info.moves, hand);
        }
        record.status = Some(self.engine.status(game).unwrap());
        drop(record);
        self.room.publish(&states, answered.map(|mv| mv.seat));
    }

    fn check_seat_0_against_a_redraw(&mut self, info: &TableInfo) {
        let game = self.live.game;
        let real = seat_state(&mut *self.engine, game, 0, info, &self.log).unwrap();
        for seed in [1, 2] {
            let redrawn = self
                .engine
                .redraw_hidden(game, Some(0), seed ^ u64::from(info.moves))
                .expect("castel re-draws what seat 0 cannot see");
            let mut other = seat_state(&mut *self.engine, redrawn, 0, info, &self.log).unwrap();
            self.engine.drop_game(redrawn);
            // Who is still to answer a question put to everyone is seen by the whole table
            // (a re-drawn copy forgets the others' answers, so it asks them again).
            other.status = real.status.clone();
            assert_eq!(
                serde_json::to_string(&real).unwrap(),
                serde_json::to_string(&other).unwrap(),
                "seat 0's message changed when the hidden part was re-drawn (move {})",
                info.moves
            );
        }
        self.record.lock().unwrap().redraw_checks += 1;
    }
}

/// A phone: a real WebSocket client.
pub struct Phone {
    pub socket: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// Every text message received, as received.
    pub received: Vec<String>,
}

/// The room's WebSocket address for a base URL.
pub fn ws_url(base: &str) -> String {
    format!("{}/ws", base.replacen("http://", "ws://", 1))
}

const WAIT: Duration = Duration::from_secs(20);

impl Phone {
    /// Connects (no hello yet).
    pub async fn connect(base: &str) -> Phone {
        let (socket, _) = tokio_tungstenite::connect_async(ws_url(base))
            .await
            .expect("the room accepts WebSockets");
        Phone {
            socket,
            received: Vec::new(),
        }
    }

    /// Connects and says hello with a token (and a claim).
    pub async fn join(base: &str, token: &str, claim: Option<&str>) -> Phone {
        let mut phone = Phone::connect(base).await;
        let mut hello = json!({"type": "hello", "token": token});
        if let Some(claim) = claim {
            hello["claim"] = json!(claim);
        }
        phone.send(hello).await;
        phone
    }

    pub async fn send(&mut self, message: Value) {
        self.send_text(message.to_string()).await;
    }

    pub async fn send_text(&mut self, text: String) {
        self.socket
            .send(Message::Text(text.into()))
            .await
            .expect("the message is sent");
    }

    pub async fn send_binary(&mut self, bytes: Vec<u8>) {
        self.socket
            .send(Message::Binary(bytes.into()))
            .await
            .expect("the message is sent");
    }

    /// The next message of the protocol (`None`: the room closed the connection; the close
    /// frame's code and reason are then in `closed`).
    pub async fn next(&mut self) -> Option<Value> {
        loop {
            let message = tokio::time::timeout(WAIT, self.socket.next())
                .await
                .expect("the room answers in time");
            match message {
                Some(Ok(Message::Text(text))) => {
                    self.received.push(text.to_string());
                    return Some(serde_json::from_str(&text).expect("the room sends JSON"));
                }
                Some(Ok(Message::Close(frame))) => {
                    if let Some(frame) = frame {
                        self.received.push(format!(
                            "close {} {}",
                            u16::from(frame.code),
                            frame.reason
                        ));
                    }
                    return None;
                }
                Some(Ok(_)) => continue,
                Some(Err(_)) | None => return None,
            }
        }
    }

    /// The next message of a type, skipping others.
    pub async fn next_of(&mut self, kind: &str) -> Value {
        loop {
            let message = self.next().await.unwrap_or_else(|| {
                panic!(
                    "the room closed while waiting for {kind}: {:?}",
                    self.received
                )
            });
            if message["type"] == kind {
                return message;
            }
        }
    }
}
