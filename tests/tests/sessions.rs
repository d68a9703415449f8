//! Saved sessions: durable moves, resume, undo/redo with reveals, export/import, and a
//! database that is corrupt, locked or newer — with a real sled database and the real wasm
//! plugins (and a small native dice game where a die is needed).

use veillee_runtime::engine::{GameEngine, NativeEngine};
use veillee_runtime::session::{SessionError, Sessions};
use veillee_runtime::store::model::{PlayerKind, SeatPlayer};
use veillee_runtime::store::{Store, StoreError};
use veillee_sdk::{GameRng, Setup};
use veillee_tests::dice::Dice;
use veillee_tests::{builtin_plugin, runtime, temp_store};

fn seats(kinds: [PlayerKind; 2]) -> Vec<SeatPlayer> {
    kinds
        .iter()
        .enumerate()
        .map(|(i, &kind)| SeatPlayer {
            name: format!("P{i}"),
            kind,
            level: None,
        })
        .collect()
}

const HUMANS: [PlayerKind; 2] = [PlayerKind::Human, PlayerKind::Human];

/// Plays `moves` seeded random moves (or to the end); returns the actions played.
fn play_random(
    sessions: &Sessions,
    engine: &mut dyn GameEngine,
    live: &mut veillee_runtime::session::LiveSession,
    moves: usize,
    seed: u64,
) -> Vec<String> {
    let mut rng = GameRng::new(seed);
    let mut played = Vec::new();
    for _ in 0..moves {
        let Some(&seat) = engine.status(live.game).unwrap().seats().first() else {
            break;
        };
        let actions = engine.legal_actions(live.game, seat).unwrap();
        let id = actions[rng.below(actions.len())].id.clone();
        sessions
            .apply(engine, live, seat, &id, serde_json::Value::Null)
            .unwrap();
        played.push(id);
    }
    played
}

fn state(engine: &mut dyn GameEngine, live: &veillee_runtime::session::LiveSession) -> Vec<u8> {
    engine.save(live.game).unwrap()
}

#[test]
fn a_session_survives_closing_the_database_and_resumes_where_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let runtime = runtime();
    let mut game = builtin_plugin(&runtime, "chateau-noir");
    let (before, id, played) = {
        let (store, _) = Store::open(dir.path()).unwrap();
        let sessions = Sessions::new(store);
        let mut live = sessions
            .start(&mut game, seats(HUMANS), Setup::new(2, 7))
            .unwrap();
        // Past two snapshots, so that resuming uses one and replays a tail.
        let played = play_random(&sessions, &mut game, &mut live, 150, 3);
        (state(&mut game, &live), live.meta.id, played)
    };
    let (store, recovery) = Store::open(dir.path()).unwrap();
    assert!(recovery.is_none());
    let sessions = Sessions::new(store);
    let meta = sessions.get(id).unwrap();
    assert_eq!(meta.moves as usize, played.len());
    assert_eq!(
        sessions
            .log(id)
            .unwrap()
            .iter()
            .map(|e| e.action.clone())
            .collect::<Vec<_>>(),
        played
    );
    let mut fresh = builtin_plugin(&runtime, "chateau-noir");
    let live = sessions.resume(&mut fresh, id).unwrap();
    assert_eq!(
        state(&mut fresh, &live),
        before,
        "resume gives back the very same game"
    );
    assert_eq!(sessions.list().unwrap().len(), 1);
}

#[test]
fn a_changed_plugin_replays_the_whole_log_and_is_accepted_when_history_holds() {
    let (store, _dir) = temp_store();
    let sessions = Sessions::new(store);
    let runtime = runtime();
    let mut wasm = builtin_plugin(&runtime, "siege");
    let mut live = sessions
        .start(&mut wasm, seats(HUMANS), Setup::new(2, 5))
        .unwrap();
    play_random(&sessions, &mut wasm, &mut live, 30, 9);
    let expected = state(&mut wasm, &live);
    // The native build is "another version" of the same rules (another content hash).
    let mut native = veillee_runtime::native::native_engine("siege").unwrap();
    let resumed = sessions.resume(&mut *native, live.meta.id).unwrap();
    assert_eq!(native.save(resumed.game).unwrap(), expected);
    assert_eq!(
        sessions.get(live.meta.id).unwrap().plugin_hash,
        native.content_hash(),
        "the session now records the build it was checked with"
    );
}

#[test]
fn a_changed_plugin_that_rewrites_history_is_refused_naming_the_move() {
    let (store, _dir) = temp_store();
    let sessions = Sessions::new(store);
    let mut v1 = NativeEngine::<Dice<1>>::default();
    let mut live = sessions
        .start(&mut v1, seats(HUMANS), Setup::new(2, 11))
        .unwrap();
    play_random(&sessions, &mut v1, &mut live, 400, 2);
    assert!(
        v1.status(live.game).unwrap().outcome().is_some(),
        "the v1 game is over"
    );
    let mut v2 = NativeEngine::<Dice<2>>::default();
    let error = sessions.resume(&mut v2, live.meta.id).unwrap_err();
    let message = error.to_string();
    assert!(matches!(error, SessionError::Diverged(_)), "{message}");
    assert!(message.contains("diverges at move"), "{message}");
    // The session is untouched and still resumes with the version it was played with.
    assert!(sessions.resume(&mut v1, live.meta.id).is_ok());
}

#[test]
fn undo_never_crosses_a_reveal_without_agreement() {
    let (store, _dir) = temp_store();
    let sessions = Sessions::new(store);
    let mut dice = NativeEngine::<Dice<1>>::default();
    let mut live = sessions
        .start(&mut dice, seats(HUMANS), Setup::new(2, 4))
        .unwrap();
    sessions
        .apply(&mut dice, &mut live, 0, "roll", serde_json::Value::Null)
        .unwrap();
    let error = sessions.undo(&mut dice, &mut live, 1, false).unwrap_err();
    assert!(
        error.to_string().contains("the die shows"),
        "names what was revealed: {error}"
    );
    assert_eq!(live.meta.moves, 1, "nothing was undone");
    let undone = sessions.undo(&mut dice, &mut live, 1, true).unwrap();
    assert_eq!((undone.moves, live.meta.moves), (1, 0));
    assert_eq!(undone.reveals.len(), 1);
    assert_eq!(sessions.log(live.meta.id).unwrap().len(), 0);
}

#[test]
fn undo_takes_back_a_human_move_with_the_bot_moves_after_it_and_redo_restores_them() {
    let (store, _dir) = temp_store();
    let sessions = Sessions::new(store);
    let runtime = runtime();
    let mut siege = builtin_plugin(&runtime, "siege");
    // Seat 0 (attacker) is a bot, seat 1 a human.
    let mut live = sessions
        .start(
            &mut siege,
            seats([PlayerKind::Bot, PlayerKind::Human]),
            Setup::new(2, 1),
        )
        .unwrap();
    for id in ["lord-d6", "c0-d2", "d5-d4", "d0-e2"] {
        let seat = siege.status(live.game).unwrap().seats()[0];
        sessions
            .apply(&mut siege, &mut live, seat, id, serde_json::Value::Null)
            .unwrap();
    }
    let after_four = state(&mut siege, &live);
    let undone = sessions.undo(&mut siege, &mut live, 1, false).unwrap();
    assert_eq!(
        undone.moves, 2,
        "the human's d5-d4 goes with the bot's d0-e2 after it"
    );
    assert_eq!(live.meta.moves, 2);
    assert_eq!(
        siege.status(live.game).unwrap().seats(),
        &[1],
        "back to the human's decision"
    );
    sessions.redo(&mut siege, &mut live).unwrap();
    assert_eq!(state(&mut siege, &live), after_four);
    assert!(matches!(
        sessions.redo(&mut siege, &mut live),
        Err(SessionError::NothingToRedo)
    ));
    // A new move after an undo clears the redo stack.
    sessions.undo(&mut siege, &mut live, 1, false).unwrap();
    sessions
        .apply(&mut siege, &mut live, 1, "e5-e4", serde_json::Value::Null)
        .unwrap();
    assert!(matches!(
        sessions.redo(&mut siege, &mut live),
        Err(SessionError::NothingToRedo)
    ));
    // Undo survives a restart: the log on disk is what was kept.
    let log: Vec<String> = sessions
        .log(live.meta.id)
        .unwrap()
        .into_iter()
        .map(|e| e.action)
        .collect();
    assert_eq!(log, ["lord-d6", "c0-d2", "e5-e4"]);
}

#[test]
fn export_then_import_gives_the_same_game_under_a_new_id() {
    let (store, _dir) = temp_store();
    let sessions = Sessions::new(store);
    let runtime = runtime();
    let mut siege = builtin_plugin(&runtime, "siege");
    let mut live = sessions
        .start(&mut siege, seats(HUMANS), Setup::new(2, 21))
        .unwrap();
    play_random(&sessions, &mut siege, &mut live, 25, 4);
    let file = sessions.export(live.meta.id).unwrap();
    let json = serde_json::to_string_pretty(&file).unwrap();
    assert!(
        json.contains("\"format\": \"veillee-session\"") && json.contains("\"action\""),
        "readable JSON"
    );
    let imported = sessions
        .import(&mut siege, serde_json::from_str(&json).unwrap())
        .unwrap();
    assert_ne!(imported.id, live.meta.id);
    assert_eq!(
        sessions.log(imported.id).unwrap(),
        sessions.log(live.meta.id).unwrap()
    );
    let resumed = sessions.resume(&mut siege, imported.id).unwrap();
    assert_eq!(siege.save(resumed.game).unwrap(), state(&mut siege, &live));
}

#[test]
fn a_broken_import_is_refused_without_touching_the_database() {
    let (store, _dir) = temp_store();
    let sessions = Sessions::new(store);
    let runtime = runtime();
    let mut siege = builtin_plugin(&runtime, "siege");
    let mut live = sessions
        .start(&mut siege, seats(HUMANS), Setup::new(2, 21))
        .unwrap();
    play_random(&sessions, &mut siege, &mut live, 10, 4);
    let mut file = sessions.export(live.meta.id).unwrap();
    file.log[5].action = "a1-h6".into();
    let error = sessions.import(&mut siege, file).unwrap_err().to_string();
    assert!(error.contains("diverges at move 6 (`a1-h6`"), "{error}");
    let mut other_game = sessions.export(live.meta.id).unwrap();
    other_game.format = "something-else".into();
    assert!(sessions
        .import(&mut siege, other_game)
        .unwrap_err()
        .to_string()
        .contains("not a Veillée session"));
    assert_eq!(sessions.list().unwrap().len(), 1, "nothing was stored");
}

#[test]
fn a_second_open_of_the_same_data_is_refused_clearly() {
    let (store, dir) = temp_store();
    let error = Store::open(dir.path())
        .err()
        .expect("the second open is refused");
    assert!(matches!(error, StoreError::AlreadyRunning(_)));
    assert!(
        error
            .to_string()
            .contains("Veillée is already running on this data"),
        "{error}"
    );
    drop(store);
    assert!(
        Store::open(dir.path()).is_ok(),
        "free again once the first is closed"
    );
}

#[test]
fn a_corrupt_database_is_moved_aside_and_a_fresh_one_started() {
    let dir = tempfile::tempdir().unwrap();
    {
        let (store, _) = Store::open(dir.path()).unwrap();
        let sessions = Sessions::new(store);
        let mut dice = NativeEngine::<Dice<1>>::default();
        sessions
            .start(&mut dice, seats(HUMANS), Setup::new(2, 1))
            .unwrap();
    }
    let db = dir.path().join("sessions.sled");
    for entry in std::fs::read_dir(&db).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            let len = std::fs::metadata(&path).unwrap().len() as usize;
            std::fs::write(&path, vec![0xA5; len.max(64)]).unwrap();
        }
    }
    let (store, recovery) = Store::open(dir.path()).expect("the launcher still starts");
    let recovery = recovery.expect("the damage is reported");
    assert!(
        recovery.moved_to.exists(),
        "the broken files are kept at {}",
        recovery.moved_to.display()
    );
    assert!(recovery
        .to_string()
        .contains(&recovery.moved_to.display().to_string()));
    let sessions = Sessions::new(store);
    assert!(sessions.list().unwrap().is_empty());
    let mut dice = NativeEngine::<Dice<1>>::default();
    assert!(
        sessions
            .start(&mut dice, seats(HUMANS), Setup::new(2, 1))
            .is_ok(),
        "the fresh database works"
    );
}

#[test]
fn a_database_from_a_newer_veillee_is_refused_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    {
        let (store, _) = Store::open(dir.path()).unwrap();
        veillee_runtime::store::force_schema_version(&store, 99).unwrap();
    }
    let error = Store::open(dir.path()).err().expect("refused");
    assert!(
        error
            .to_string()
            .contains("schema 99, newer than this Veillée's (2)"),
        "{error}"
    );
    assert!(dir.path().join("sessions.sled").exists(), "not moved aside");
}

const TIMER: &str = r#"
return {
  id = "minuteur",
  name = { fr = "Minuteur", en = "Timer" },
  description = { fr = "Compte le temps de jeu.", en = "Counts the time played." },
  game = "siege",
  version = "1.0.0",
  on_turn_end = function(ctx, seat, elapsed)
    ctx.state.turns = (ctx.state.turns or 0) + 1
    ctx.state.total = (ctx.state.total or 0) + elapsed
  end,
}
"#;

/// Siège under one house rule, written in `file` with `text`.
fn siege_with_rule(
    runtime: &veillee_runtime::plugin::Runtime,
    file: &str,
    text: &str,
) -> veillee_runtime::variants::VariantEngine {
    let script = veillee_runtime::variants::Script::load(file, text, Default::default()).unwrap();
    veillee_runtime::variants::VariantEngine::new(
        Box::new(builtin_plugin(runtime, "siege")),
        vec![script],
    )
    .unwrap()
}

fn timed_engine(
    runtime: &veillee_runtime::plugin::Runtime,
) -> veillee_runtime::variants::VariantEngine {
    siege_with_rule(runtime, "minuteur.lua", TIMER)
}

/// A session of two humans started on `engine`, its house rules recorded with it.
fn start_with_rules(
    sessions: &Sessions,
    engine: &mut veillee_runtime::variants::VariantEngine,
) -> veillee_runtime::session::LiveSession {
    let recorded = engine
        .scripts()
        .iter()
        .map(veillee_runtime::launch::recorded)
        .collect();
    sessions
        .start_with_variants(engine, seats(HUMANS), Setup::new(2, 3), recorded)
        .unwrap()
}

#[test]
fn the_turn_timer_is_logged_and_replayed_with_the_house_rules_that_use_it() {
    let (store, _dir) = temp_store();
    let sessions = Sessions::new(store);
    let runtime = runtime();
    let mut engine = timed_engine(&runtime);
    let mut live = start_with_rules(&sessions, &mut engine);
    let timed = |ms: u64| serde_json::json!({ veillee_runtime::session::TURN_TIME_KEY: ms });
    sessions
        .apply(&mut engine, &mut live, 1, "lord-d6", timed(1500))
        .unwrap();
    sessions
        .apply(&mut engine, &mut live, 0, "c0-d2", timed(2500))
        .unwrap();
    let state = engine.script_state(live.game, "minuteur").cloned().unwrap();
    assert_eq!(state["turns"], 2, "{state}");
    assert_eq!(state["total"].as_f64(), Some(4.0), "seconds: {state}");
    assert_eq!(
        sessions.get(live.meta.id).unwrap().variants[0].text,
        TIMER,
        "the exact text is recorded"
    );

    // A fresh engine replays the log with the same timer values.
    let mut again = timed_engine(&runtime);
    let resumed = sessions.resume(&mut again, live.meta.id).unwrap();
    assert_eq!(again.script_state(resumed.game, "minuteur"), Some(&state));
    // Undo replays too: one decision back leaves one timed turn.
    let mut live = resumed;
    sessions.undo(&mut again, &mut live, 1, false).unwrap();
    assert_eq!(
        again.script_state(live.game, "minuteur").unwrap()["turns"],
        1
    );
}

/// « Abandon » ends the game when the defender's lord first moves: an outcome a house rule
/// decides (`ctx.game.end_game`), not the game's own rules.
const SURRENDER: &str = r#"
return {
  id = "abandon",
  name = { fr = "Abandon", en = "Surrender" },
  description = { fr = "Le seigneur qui bouge se rend.", en = "A lord that moves surrenders." },
  game = "siege",
  version = "1.0.0",
  actions = { "lord-*" },
  after_action = function(ctx, seat)
    ctx.game.end_game({ winners = { 1 - seat }, reason = { fr = "Le seigneur se rend", en = "The lord surrenders" } })
  end,
}
"#;

fn surrender_engine(
    runtime: &veillee_runtime::plugin::Runtime,
) -> veillee_runtime::variants::VariantEngine {
    siege_with_rule(runtime, "abandon.lua", SURRENDER)
}

#[test]
fn a_game_a_house_rule_ended_stays_ended_through_resume_and_undo_brings_it_back() {
    let (store, _dir) = temp_store();
    let sessions = Sessions::new(store);
    let runtime = runtime();
    let mut engine = surrender_engine(&runtime);
    let mut live = start_with_rules(&sessions, &mut engine);
    sessions
        .apply(
            &mut engine,
            &mut live,
            1,
            "lord-d6",
            serde_json::Value::Null,
        )
        .unwrap();
    let ended = match engine.status(live.game).unwrap() {
        veillee_sdk::Status::Finished { outcome } => outcome,
        other => panic!("the rule ends the game: {other:?}"),
    };
    assert_eq!(ended.winners, vec![0]);
    assert_eq!(ended.reason.en, "The lord surrenders");

    // Another launcher resumes the saved session: the rule's outcome is replayed, not lost.
    let mut again = surrender_engine(&runtime);
    let mut resumed = sessions.resume(&mut again, live.meta.id).unwrap();
    match again.status(resumed.game).unwrap() {
        veillee_sdk::Status::Finished { outcome } => assert_eq!(outcome, ended),
        other => panic!("after resume the game is over still: {other:?}"),
    }
    // Taking the lord's move back takes the surrender back with it.
    sessions.undo(&mut again, &mut resumed, 1, false).unwrap();
    assert_eq!(again.status(resumed.game).unwrap().seats(), &[1]);
    assert!(again
        .legal_actions(resumed.game, 1)
        .unwrap()
        .iter()
        .any(|a| a.id == "lord-d6"));
}

#[test]
fn three_house_rules_played_together_are_saved_with_the_session() {
    let (store, _dir) = temp_store();
    let sessions = Sessions::new(store);
    let scripts: Vec<_> = [
        "renforts.lua",
        "seigneur-agile.lua",
        "sans-regle-speciale.lua",
    ]
    .iter()
    .map(|file| veillee_tests::house::builtin_script("siege", file))
    .collect();
    let recorded = scripts
        .iter()
        .map(veillee_runtime::launch::recorded)
        .collect();
    let mut engine = veillee_tests::house::wasm_engine("siege", scripts);
    assert!(
        engine.content_hash().len() > veillee_runtime::store::limits::LABEL_BYTES,
        "the rules' hash is longer than a label"
    );
    let live = sessions
        .start_with_variants(&mut engine, seats(HUMANS), Setup::new(2, 4), recorded)
        .expect("a session with three house rules starts");
    let resumed = sessions.resume(&mut engine, live.meta.id).unwrap();
    assert_eq!(resumed.meta.variants.len(), 3);
}
