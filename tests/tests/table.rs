//! The table every front end drives (`veillee_runtime::table`), over a real sled database,
//! the real wasm plugins and real Luau: the turn timer every seat is timed by, whose turn
//! it is with people, phones and bots, and the consent an undo needs.

use veillee_runtime::launch::recorded;
use veillee_runtime::session::{Sessions, TURN_TIME_KEY};
use veillee_runtime::store::model::{BotLevel, SeatPlayer, VariantScript};
use veillee_runtime::table::{Answered, Consent, Holder, Table, TableError, Turn, Undo};
use veillee_runtime::variants::{Script, VariantLimits};
use veillee_sdk::{Seat, Setup};
use veillee_tests::house::{builtin_script, wasm_engine};
use veillee_tests::{builtin_plugin, runtime, temp_store};

/// « Partie chronométrée » as shipped, with its three minutes cut to `limit` seconds.
fn timed_game(limit: &str) -> Script {
    let shipped = builtin_script("chateau-noir", "partie-chronometree.lua");
    let text = shipped.text().replace(
        "local LIMIT_SECONDS = 180",
        &format!("local LIMIT_SECONDS = {limit}"),
    );
    assert_ne!(
        text,
        shipped.text(),
        "the script still sets its limit this way"
    );
    Script::load(shipped.file(), &text, VariantLimits::default()).unwrap()
}

fn people(names: &[&str]) -> Vec<SeatPlayer> {
    names.iter().map(|n| SeatPlayer::human(*n)).collect()
}

/// A Château Noir table of two people under the timed game cut to `limit` seconds.
fn timed_table(sessions: &Sessions, limit: &str) -> (Table, Vec<VariantScript>) {
    let script = timed_game(limit);
    let scripts = vec![recorded(&script)];
    let engine = Box::new(wasm_engine("chateau-noir", vec![script]));
    let table = Table::start(
        sessions.clone(),
        engine,
        people(&["Ana", "Bruno"]),
        Setup::new(2, 11),
        scripts.clone(),
        Vec::new(),
    )
    .unwrap();
    (table, scripts)
}

fn first_action(table: &mut Table, seat: Seat) -> String {
    table.legal_actions(seat).unwrap()[0].id.clone()
}

fn screen_seat(table: &mut Table) -> Seat {
    match table.turn().unwrap() {
        Turn::Screen(seat) => seat,
        other => panic!("a person at the screen is to act, not {other:?}"),
    }
}

fn penalties(events: &[veillee_sdk::Event]) -> usize {
    events
        .iter()
        .filter(|e| e.text.en.starts_with("Timed game:"))
        .count()
}

/// One whole turn of the seat at the screen, after thinking `think_ms`: its moves (a side
/// of two colours may move twice) until another seat is to act; the events of them all.
fn whole_turn(table: &mut Table, think_ms: u64) -> (Seat, Vec<veillee_sdk::Event>) {
    let seat = screen_seat(table);
    std::thread::sleep(std::time::Duration::from_millis(think_ms));
    let mut events = Vec::new();
    while table.turn().unwrap() == Turn::Screen(seat) {
        let action = first_action(table, seat);
        events.extend(table.play(seat, &action).unwrap().events);
    }
    (seat, events)
}

#[test]
fn a_slow_turn_at_the_table_costs_its_point_and_every_move_keeps_the_time_its_turn_took() {
    let (store, _dir) = temp_store();
    let sessions = Sessions::new(store);
    let (mut table, scripts) = timed_table(&sessions, "2");
    let (quick, events) = whole_turn(&mut table, 0);
    assert_eq!(penalties(&events), 0, "a quick turn costs nothing");
    let quick_moves = table.meta().moves as usize;

    let (slow, events) = whole_turn(&mut table, 2500);
    assert_ne!(slow, quick);
    assert_eq!(penalties(&events), 1, "{events:?}");

    let id = table.meta().id;
    let log = sessions.log(id).unwrap();
    let times: Vec<u64> = log
        .iter()
        .map(|e| {
            e.extra[TURN_TIME_KEY]
                .as_u64()
                .expect("every move is timed")
        })
        .collect();
    assert!(
        times[..quick_moves].iter().all(|&t| t < 2000),
        "the quick turn: {times:?}"
    );
    assert!(
        times[quick_moves..].iter().all(|&t| t >= 2500),
        "the slow turn: {times:?}"
    );

    // Resumed, the penalty is replayed from the saved time, not measured again.
    let (engine_state, scores) = {
        let (engine, live) = table.parts_mut();
        let scores = engine.view(live.game, None).unwrap().scores;
        (engine.save(live.game).unwrap(), scores)
    };
    drop(table);
    let scripts: Vec<Script> = scripts
        .iter()
        .map(|v| Script::load(&v.file, &v.text, VariantLimits::default()).unwrap())
        .collect();
    let engine = Box::new(wasm_engine("chateau-noir", scripts));
    let mut resumed = Table::resume(sessions.clone(), engine, id).unwrap();
    let (engine, live) = resumed.parts_mut();
    assert_eq!(engine.save(live.game).unwrap(), engine_state);
    assert_eq!(engine.view(live.game, None).unwrap().scores, scores);
}

// Siège: the defender (seat 1) moves first.

/// A new Siège table of `players`, `phones` on phones, seed 5.
fn siege(sessions: &Sessions, players: Vec<SeatPlayer>, phones: Vec<Seat>) -> Table {
    let runtime = runtime();
    let engine = Box::new(builtin_plugin(&runtime, "siege"));
    let setup = Setup::new(2, 5);
    Table::start(sessions.clone(), engine, players, setup, Vec::new(), phones).unwrap()
}

#[test]
fn people_at_the_screen_go_first_then_the_bot_then_the_phones_and_each_seat_has_its_holder() {
    let (store, _dir) = temp_store();
    let sessions = Sessions::new(store);
    let players = vec![
        SeatPlayer::bot("Bot", BotLevel::Easy),
        SeatPlayer::human("Ana"),
    ];
    let mut table = siege(&sessions, players, vec![1]);
    assert_eq!(table.holder(0), Holder::Bot(BotLevel::Easy));
    assert_eq!(table.holder(1), Holder::Phone);
    assert_eq!(table.meta().phones, vec![1], "remembered for resume");
    assert_eq!(table.turn().unwrap(), Turn::Phones(vec![1]));
    let action = first_action(&mut table, 1);
    let played = table.play(1, &action).unwrap();
    assert_eq!((played.index, played.seat), (0, 1));
    assert_eq!(table.turn().unwrap(), Turn::Bot(0, BotLevel::Easy));
    match table.play_bot(0, BotLevel::Easy).unwrap() {
        veillee_runtime::bot::BotTurn::Played { played, .. } => {
            assert_eq!((played.index, played.seat), (1, 0))
        }
        stuck => panic!("the bot plays: {stuck:?}"),
    }
    let log = sessions.log(table.meta().id).unwrap();
    assert!(
        log.iter().all(|e| e.extra.get(TURN_TIME_KEY).is_some()),
        "a phone's and a bot's moves are timed like a person's: {log:?}"
    );
}

#[test]
fn undo_asks_the_player_whose_move_it_takes_back_and_the_big_screen_asks_a_phone() {
    let (store, _dir) = temp_store();
    let sessions = Sessions::new(store);
    let mut table = siege(&sessions, people(&["Bruno", "Ana"]), vec![0]);
    let ana = screen_seat(&mut table);
    assert_eq!(ana, 1);
    let action = first_action(&mut table, ana);
    table.play(ana, &action).unwrap();
    // Ana takes her own move back: nobody else is asked.
    assert_eq!(
        table.undo(Some(ana), Consent::NotAsked).unwrap(),
        Undo::Done { moves: 1 }
    );
    table.redo().unwrap();
    // Bruno plays on his phone; Ana at the screen, or the big screen for nobody, asks him.
    assert_eq!(table.turn().unwrap(), Turn::Phones(vec![0]));
    let action = first_action(&mut table, 0);
    table.play(0, &action).unwrap();
    assert_eq!(
        table.undo(Some(ana), Consent::NotAsked).unwrap(),
        Undo::AskOwner(0)
    );
    assert_eq!(
        table.undo(None, Consent::NotAsked).unwrap(),
        Undo::AskOwner(0)
    );
    assert_eq!(
        table.meta().moves,
        2,
        "nothing was taken back before he agreed"
    );
    assert_eq!(
        table.undo(None, Consent::OwnerAgreed).unwrap(),
        Undo::Done { moves: 1 }
    );
    // Ana's move at the screen is taken back from the big screen without a question.
    assert_eq!(
        table.undo(None, Consent::NotAsked).unwrap(),
        Undo::Done { moves: 1 }
    );
    let nothing = table.undo(None, Consent::NotAsked).unwrap_err();
    assert!(matches!(nothing, TableError::Session(_)));
    assert_eq!(nothing.text().fr, "Il n'y a rien à annuler.");
}

#[test]
fn a_move_the_game_refuses_changes_nothing_and_says_why() {
    let (store, _dir) = temp_store();
    let sessions = Sessions::new(store);
    let mut table = siege(&sessions, people(&["Ana", "Bruno"]), Vec::new());
    let before = {
        let (engine, live) = table.parts_mut();
        engine.save(live.game).unwrap()
    };
    let refused = table.play(1, "no-such-move").unwrap_err();
    assert!(matches!(refused, TableError::Refused(_)), "{refused:?}");
    assert!(!refused.text().en.is_empty());
    assert_eq!(table.meta().moves, 0);
    let (engine, live) = table.parts_mut();
    assert_eq!(engine.save(live.game).unwrap(), before);
}

/// After the first move of a Castel game, both players pick a fruit at once, privately.
const FRUITS_AT_ONCE: &str = include_str!("../fixtures/variants/fruits-at-once.lua");

#[test]
fn a_phone_that_answers_before_the_screen_is_held_and_played_after_it() {
    let (store, _dir) = temp_store();
    let sessions = Sessions::new(store);
    let own = builtin_script("castel", "cards.lua");
    let fruits = veillee_tests::house::script(FRUITS_AT_ONCE);
    let scripts = vec![recorded(&own), recorded(&fruits)];
    let engine = Box::new(wasm_engine("castel", vec![own, fruits]));
    let mut table = Table::start(
        sessions.clone(),
        engine,
        people(&["Phone", "Screen"]),
        Setup::new(2, 3),
        scripts,
        vec![0],
    )
    .unwrap();
    // The first move, whoever makes it, brings the question to both seats.
    loop {
        let seats = table.status().unwrap().seats().to_vec();
        if seats.len() == 2 {
            break;
        }
        assert!(table.meta().moves < 10, "the question came: {seats:?}");
        let action = first_action(&mut table, seats[0]);
        table.play(seats[0], &action).unwrap();
    }
    assert_eq!(
        table.turn().unwrap(),
        Turn::Screen(1),
        "the screen answers first"
    );
    let before = table.meta().moves;
    // The phone answers first: held, nothing played.
    let phone_pick = first_action(&mut table, 0);
    assert_eq!(table.answer(0, &phone_pick).unwrap(), Answered::Held);
    assert_eq!(table.meta().moves, before);
    assert_eq!(
        table.play_held().unwrap(),
        None,
        "the screen has not answered"
    );
    let refused = table.answer(0, "no-such-move").unwrap_err();
    assert!(matches!(refused, TableError::Refused(_)));
    // The screen answers; then the phone's held answer is played.
    let screen_pick = first_action(&mut table, 1);
    table.play(1, &screen_pick).unwrap();
    let held = table
        .play_held()
        .unwrap()
        .expect("the held answer is played");
    assert_eq!(
        (held.seat, held.action.id.as_str()),
        (0, phone_pick.as_str())
    );
    let log = sessions.log(table.meta().id).unwrap();
    let order: Vec<Seat> = log[before as usize..].iter().map(|e| e.seat).collect();
    assert_eq!(
        order,
        vec![1, 0],
        "the table's order, not the order the answers came in"
    );
}
