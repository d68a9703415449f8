//! One scripted evening, played through the terminal (the real `veillee` binary, a phone on
//! the real room) and through the runtime's table alone, with the same seed and the same
//! choices: the saved sessions are the same move for move and end in the same state. The
//! window plays the same evening below (feature `window`, a kittest).
//!
//! The script: every person — at the terminal or on a phone — plays the first move listed;
//! bots play at `easy`.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use veillee_runtime::catalog::Catalog;
use veillee_runtime::data_dir::DataDir;
use veillee_runtime::launch::{engine_for_new_game, engine_for_session};
use veillee_runtime::plugin::Runtime;
use veillee_runtime::session::Sessions;
use veillee_runtime::store::model::{BotLevel, SeatPlayer};
use veillee_runtime::store::Store;
use veillee_runtime::table::{Table, Turn};
use veillee_sdk::{Seat, Setup};

mod common;

/// What a session's log says was played: (seat, action id) per move.
type Moves = Vec<(Seat, String)>;

/// The terminal as a person sees it: everything printed so far, prompts included (they end
/// without a line break).
struct Terminal {
    child: Child,
    printed: Arc<Mutex<String>>,
}

impl Terminal {
    fn start(data: &Path, args: &[&str]) -> Terminal {
        let mut child = common::command(data, args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("veillee starts");
        let mut stdout = child.stdout.take().unwrap();
        let printed = Arc::new(Mutex::new(String::new()));
        let sink = printed.clone();
        std::thread::spawn(move || {
            let mut buffer = [0u8; 4096];
            while let Ok(n) = stdout.read(&mut buffer) {
                if n == 0 {
                    break;
                }
                sink.lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buffer[..n]));
            }
        });
        Terminal { child, printed }
    }

    fn printed(&self) -> String {
        self.printed.lock().unwrap().clone()
    }

    /// Waits until `text` was printed `times` times.
    fn wait_for(&self, text: &str, times: usize) {
        self.wait_until(&format!("`{text}` ×{times}"), |printed| {
            printed.matches(text).count() >= times
        });
    }

    /// Waits until what was printed says `done`.
    fn wait_until(&self, what: &str, done: impl Fn(&str) -> bool) {
        let since = Instant::now();
        while !done(&self.printed()) {
            assert!(
                since.elapsed() < Duration::from_secs(120),
                "waited two minutes for {what}; printed:\n{}",
                self.printed()
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    fn type_line(&mut self, line: &str) {
        let keyboard = self.child.stdin.as_mut().expect("the terminal's input");
        writeln!(keyboard, "{line}").unwrap();
    }

    fn finish(mut self) -> String {
        drop(self.child.stdin.take());
        let status = self.child.wait().unwrap();
        std::thread::sleep(Duration::from_millis(50));
        let printed = self.printed();
        assert!(status.success(), "{printed}");
        printed
    }

    /// The seats' phone links, as printed.
    fn links(&self) -> Vec<String> {
        self.printed()
            .lines()
            .filter_map(|l| {
                l.find("http://127.0.0.1:")
                    .map(|at| l[at..].trim().to_string())
            })
            .filter(|l| l.contains("/s/"))
            .collect()
    }
}

/// A phone that plays the first move of every state its seat is to act in, until the room
/// closes.
fn phone_playing_first_moves(link: String) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        let (base, token) = link.split_once("/s/").expect("a seat link");
        let url = format!("{}/ws", base.replacen("http://", "ws://", 1));
        let Ok((mut socket, _)) = tungstenite::connect(url) else {
            return;
        };
        let hello = serde_json::json!({"type": "hello", "token": token}).to_string();
        if socket.send(tungstenite::Message::text(hello)).is_err() {
            return;
        }
        while let Ok(message) = socket.read() {
            let tungstenite::Message::Text(text) = message else {
                continue;
            };
            let Ok(state) = serde_json::from_str::<serde_json::Value>(&text) else {
                continue;
            };
            let first = state["actions"].as_array().and_then(|a| a.first().cloned());
            if state["type"] != "state" {
                continue;
            }
            if let Some(first) = first {
                let act = serde_json::json!({"type": "act", "action": first["id"], "version": state["version"]});
                if socket
                    .send(tungstenite::Message::text(act.to_string()))
                    .is_err()
                {
                    return;
                }
            }
        }
    })
}

/// The catalog and sessions of a fresh data directory of the test's own.
fn catalog_and_sessions(data: &Path) -> (Catalog, Sessions, DataDir) {
    let dir = DataDir::at(data);
    let runtime = Runtime::new(None).expect("the plugin runtime starts");
    let catalog = Catalog::open(runtime, dir.clone());
    let (store, _) = Store::open(data).expect("the store opens");
    (catalog, Sessions::new(store), dir)
}

/// The evening through the table alone: the same script until the person at the screen
/// has made `screen_moves` moves and is asked for another; returns the moves and the state.
fn through_the_table(
    game: &str,
    players: Vec<SeatPlayer>,
    phones: Vec<Seat>,
    setup: Setup,
    variants: &[String],
    screen_moves: usize,
) -> (Moves, Vec<u8>) {
    let dir = tempfile::tempdir().unwrap();
    let (catalog, sessions, _) = catalog_and_sessions(dir.path());
    let (engine, recorded) = engine_for_new_game(&catalog, game, variants, &setup, &mut |_| {})
        .expect("the game launches");
    let mut table =
        Table::start(sessions.clone(), engine, players, setup, recorded, phones).unwrap();
    let mut asked = 0;
    loop {
        match table.turn().unwrap() {
            Turn::Over(_) => break,
            Turn::Screen(seat) => {
                if asked == screen_moves {
                    break;
                }
                asked += 1;
                let first = table.legal_actions(seat).unwrap()[0].id.clone();
                table.play(seat, &first).unwrap();
            }
            Turn::Phones(seats) => {
                let first = table.legal_actions(seats[0]).unwrap()[0].id.clone();
                table.play(seats[0], &first).unwrap();
            }
            Turn::Bot(seat, level) => {
                table.play_bot(seat, level).unwrap();
            }
        }
    }
    let (engine, live) = table.parts_mut();
    let state = engine.save(live.game).unwrap();
    (moves_of(&sessions, table.meta().id), state)
}

fn moves_of(sessions: &Sessions, id: u64) -> Moves {
    sessions
        .log(id)
        .unwrap()
        .into_iter()
        .map(|e| (e.seat, e.action))
        .collect()
}

/// What a front end saved: the moves of the only session of its data directory, its
/// state as resumed, and its set-up.
struct Saved {
    moves: Moves,
    state: Vec<u8>,
    setup: Setup,
}

fn saved_by_the_front_end(data: &Path) -> Saved {
    let (catalog, sessions, _) = catalog_and_sessions(data);
    let list = sessions.list().unwrap();
    assert_eq!(list.len(), 1, "one session was played");
    // The listing leaves the scripts' texts out; the session itself has them.
    let meta = &sessions.get(list[0].id).unwrap();
    let engine = engine_for_session(&catalog, meta, &mut |_| {}).unwrap();
    let mut table = Table::resume(sessions.clone(), engine, meta.id).unwrap();
    let (engine, live) = table.parts_mut();
    let state = engine.save(live.game).unwrap();
    Saved {
        moves: moves_of(&sessions, meta.id),
        state,
        setup: meta.setup.clone(),
    }
}

/// The Castel evening's seats: a phone, a person at the screen, an `easy` bot.
fn castel_players() -> Vec<SeatPlayer> {
    vec![
        SeatPlayer::human("Phone"),
        SeatPlayer::human("Screen"),
        SeatPlayer::bot("Bot", BotLevel::Easy),
    ]
}

/// The person at the screen makes this many moves, then the evening stops.
const CASTEL_SCREEN_MOVES: usize = 6;

/// Holds a front end's saved Castel evening against the table alone's.
fn same_as_the_table_alone(saved: Saved) {
    assert!(
        saved.moves.iter().any(|(seat, _)| *seat == 0)
            && saved.moves.iter().any(|(seat, _)| *seat == 2),
        "the phone and the bot played: {:?}",
        saved.moves
    );
    let (moves, state) = through_the_table(
        "castel",
        castel_players(),
        vec![0],
        saved.setup,
        &[],
        CASTEL_SCREEN_MOVES,
    );
    assert_eq!(saved.moves, moves);
    assert!(saved.state == state, "the same moves end in the same state");
}

#[test]
fn castel_with_a_phone_a_person_at_the_terminal_and_a_bot_saves_what_the_table_alone_saves() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "play",
        "castel",
        "--seats",
        "phone,human,easy",
        "--seed",
        "21",
        "--room-address",
        "127.0.0.1",
    ];
    let mut terminal = Terminal::start(dir.path(), &args);
    // The links are printed before the game starts.
    terminal.wait_until("the game to start", |p| {
        p.contains("(on their phones)") || p.contains("your move (number or id")
    });
    let links = terminal.links();
    assert_eq!(links.len(), 1, "{}", terminal.printed());
    let phone = phone_playing_first_moves(links[0].clone());
    for asked in 1..=CASTEL_SCREEN_MOVES {
        terminal.wait_for("your move (number or id", asked);
        terminal.type_line("1");
    }
    terminal.wait_for("your move (number or id", CASTEL_SCREEN_MOVES + 1);
    terminal.type_line("q");
    let printed = terminal.finish();
    assert!(printed.contains("Saved. Resume with"), "{printed}");
    phone.join().unwrap();
    same_as_the_table_alone(saved_by_the_front_end(dir.path()));
}

#[test]
fn a_timed_chateau_noir_between_two_people_saves_what_the_table_alone_saves() {
    const SCREEN_MOVES: usize = TIMED_SCREEN_MOVES;
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "play",
        "chateau-noir",
        "--seats",
        "human,human",
        "--seed",
        "8",
        "--variant",
        "partie-chronometree",
    ];
    let mut terminal = Terminal::start(dir.path(), &args);
    for asked in 1..=SCREEN_MOVES {
        terminal.wait_for("your move (number or id", asked);
        terminal.type_line("1");
    }
    terminal.wait_for("your move (number or id", SCREEN_MOVES + 1);
    terminal.type_line("q");
    let printed = terminal.finish();
    assert!(
        printed.contains("House rule: partie-chronometree"),
        "{printed}"
    );
    timed_game_same_as_the_table_alone(saved_by_the_front_end(dir.path()));
}

/// The people at the screen of the timed Château Noir evening make this many moves.
const TIMED_SCREEN_MOVES: usize = 12;

/// Holds a front end's saved timed Château Noir evening against the table alone's.
fn timed_game_same_as_the_table_alone(saved: Saved) {
    let players = vec![SeatPlayer::human("Ana"), SeatPlayer::human("Bruno")];
    let (moves, state) = through_the_table(
        "chateau-noir",
        players,
        Vec::new(),
        saved.setup,
        &["partie-chronometree".to_string()],
        TIMED_SCREEN_MOVES,
    );
    assert_eq!(saved.moves.len(), TIMED_SCREEN_MOVES);
    assert_eq!(saved.moves, moves);
    assert!(saved.state == state, "the same moves end in the same state");
}

/// The same evening in the launcher window (kittest), its phone on the window's room.
#[cfg(feature = "window")]
mod window {
    use super::*;
    use egui_kittest::kittest::Queryable;
    use egui_kittest::Harness;
    use veillee_app::worker::{Animation, Request};
    use veillee_app::App;

    fn wait(
        h: &mut Harness<'static, App>,
        what: &str,
        done: impl Fn(&Harness<'static, App>) -> bool,
    ) {
        let since = Instant::now();
        loop {
            h.step();
            if done(h) && !h.state().busy() {
                h.step();
                return;
            }
            assert!(
                since.elapsed() < Duration::from_secs(120),
                "waited two minutes for {what}"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Every text on screen, for failure messages.
    fn common_texts(h: &Harness<'static, App>) -> Vec<String> {
        use egui_kittest::kittest::NodeT;
        h.query_all_by(|_| true)
            .filter_map(|n| n.accesskit_node().label())
            .collect()
    }

    fn moves_of_view(h: &Harness<'static, App>) -> Option<u32> {
        h.state().play().view.as_ref().map(|v| v.meta.moves)
    }

    /// The launcher on a data directory of its own, in English, its pieces not animated.
    fn window(data: &Path) -> Harness<'static, App> {
        std::env::set_var(veillee_app::room::ADDRESS_ENV, "127.0.0.1");
        std::env::set_var(veillee_app::worker::NO_DIALOG_ENV, "1");
        std::env::set_var(
            veillee_runtime::data_dir::CACHE_DIR_ENV,
            concat!(env!("CARGO_TARGET_TMPDIR"), "/compiled-plugins"),
        );
        std::env::set_var(
            veillee_runtime::data_dir::CACHE_KEY_ENV,
            concat!(env!("CARGO_TARGET_TMPDIR"), "/compiled-plugins.key"),
        );
        let app = App::new(DataDir::at(data), Some("en".to_string()));
        let mut h = Harness::builder()
            .with_size(egui::vec2(1366.0, 860.0))
            .build_ui_state(|ui, app: &mut App| app.ui(ui), app);
        wait(&mut h, "the games to load", |h| h.state().loaded());
        h.state_mut().shared.assist.animation = Animation::Off;
        h
    }

    /// The person at the screen plays the first listed move, `moves` times, passing the
    /// screen on as a person does; `only` keeps to one seat (the others are played
    /// elsewhere).
    fn play_first_moves(h: &mut Harness<'static, App>, moves: usize, only: Option<Seat>) {
        let mut asked = 0;
        let since = Instant::now();
        while asked < moves {
            h.step();
            assert!(
                since.elapsed() < Duration::from_secs(90),
                "the evening went on too long: {:?}, busy {}, asked {asked}, on screen {:?}",
                h.state().play().view.as_ref().map(|v| (
                    v.meta.moves,
                    v.actor,
                    v.bot,
                    v.thinking,
                    v.status.clone()
                )),
                h.state().busy(),
                common_texts(h),
            );
            // "Done" after a move's result, then the hand-off.
            for pass in ["Done", "Click when ready"] {
                if h.query_by_label(pass).is_some() {
                    h.get_by_label(pass).click();
                    h.step();
                }
            }
            let Some(view) = h.state().play().view.clone() else {
                continue;
            };
            let Some(seat) = view.actor.filter(|s| only.is_none_or(|o| o == *s)) else {
                std::thread::sleep(Duration::from_millis(5));
                continue;
            };
            if h.state().busy() {
                continue;
            }
            asked += 1;
            let action = view.actions[0].id.clone();
            let before = view.meta.moves;
            h.state_mut()
                .shared
                .worker
                .send(Request::Act { seat, action });
            wait(h, "the move", |h| moves_of_view(h) > Some(before));
        }
    }

    #[test]
    fn a_timed_chateau_noir_between_two_people_at_the_window_saves_what_the_table_alone_saves() {
        let dir = tempfile::tempdir().unwrap();
        let mut h = window(dir.path());
        h.get_by_label("New game — Château Noir").click_accesskit();
        wait(&mut h, "the new-game screen", |h| {
            h.query_by_label_contains("Start the game").is_some()
        });
        h.get_by_label("Timed game").scroll_to_me();
        for _ in 0..30 {
            h.step();
        }
        h.get_by_label("Timed game").click();
        h.step();
        h.get_by_label_contains("Start the game").click();
        wait(&mut h, "the game to start", |h| moves_of_view(h) == Some(0));
        play_first_moves(&mut h, TIMED_SCREEN_MOVES, None);
        // The window lets go of the database as it closes.
        drop(h);
        timed_game_same_as_the_table_alone(saved_by_the_front_end(dir.path()));
    }

    #[test]
    fn castel_with_a_phone_a_person_at_the_window_and_a_bot_saves_what_the_table_alone_saves() {
        let dir = tempfile::tempdir().unwrap();
        let mut h = window(dir.path());
        h.get_by_label("New game — Castel").click_accesskit();
        wait(&mut h, "the new-game screen", |h| {
            h.query_by_label_contains("Start the game").is_some()
        });
        h.get_by_label("3").click();
        h.step();
        h.get_all_by_label("Phone").next().expect("seat 1").click();
        h.step();
        h.get_all_by_label("Bot").nth(2).expect("seat 3").click();
        h.step();
        h.get_by_label("Bot level of seat 3").click();
        h.step();
        h.step();
        h.get_by_label("easy").click();
        h.step();
        h.get_by_label_contains("Start the game").click();
        wait(&mut h, "the room to open", |h| {
            h.state()
                .play()
                .view
                .as_ref()
                .is_some_and(|v| v.room.is_some())
        });
        let view = h.state().play().view.clone().unwrap();
        let link = view.room.unwrap().seats[0].url.clone();
        let phone = phone_playing_first_moves(link);
        // The person at the screen holds seat 2 (from 0: 1); the phone plays seat 1.
        play_first_moves(&mut h, CASTEL_SCREEN_MOVES, Some(1));
        // The evening stops when the person is asked for one more move.
        wait(&mut h, "the person's turn again", |h| {
            h.state().play().view.as_ref().and_then(|v| v.actor) == Some(1)
        });
        // The window lets go of the database and closes the room as it closes.
        drop(h);
        phone.join().unwrap();
        same_as_the_table_alone(saved_by_the_front_end(dir.path()));
    }
}
