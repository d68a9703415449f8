//! « Tour maîtresse » (`variants/batisseurs/tour-maitresse.lua`) through the real wasm
//! Bâtisseurs plugin and real Luau: a castle without the tower in the centre wins under the
//! plain rules and not under the house rule, one with the tower in the centre wins under
//! both; the rule survives save/load; the conformance kit passes with it on; random games run
//! with it without an error.

use serde_json::{json, Value};
use veillee_runtime::conformance::{check, CheckConfig};
use veillee_runtime::engine::GameEngine;
use veillee_runtime::native::native_engine;
use veillee_runtime::variants::library;
use veillee_runtime::variants::{Script, VariantEngine, VariantLimits};
use veillee_sdk::{GameRng, Handle, Seat, Setup, Status};
use veillee_tests::house::seat_to_act;
use veillee_tests::{builtin_plugin, runtime};

const FILE: &str = "tour-maitresse.lua";
const WHITE: Seat = 0;
const BLACK: Seat = 1;

/// White's moves building the castle d7–f9 with the tower on e9, not in the centre (e8):
/// walls d7–f7 and d8–f8, gates d9 and f9.
const OFF_CENTRE: [&str; 7] = [
    "h9-h7", "h7-f7", "f7-e7", "d8-d9", "f8-f9", "b9-c8", "c8-e8",
];
/// White's moves building the castle d7–f9 with the tower on e8, in the centre: walls d7–f7
/// and d9–f9, gates d8 and f8.
const CENTRED: [&str; 6] = ["e9-e8", "h9-h7", "h7-f7", "f7-e7", "b9-d9", "d9-e9"];

fn tour_maitresse() -> Script {
    library::builtin(Some("batisseurs"))
        .into_iter()
        .find(|s| s.file == FILE)
        .unwrap_or_else(|| panic!("{FILE} is built in"))
        .load(VariantLimits::default())
        .unwrap_or_else(|e| panic!("{e}"))
}

fn engine(scripts: Vec<Script>) -> VariantEngine {
    let runtime = runtime();
    let plugin = builtin_plugin(&runtime, "batisseurs");
    VariantEngine::new(Box::new(plugin), scripts).unwrap_or_else(|e| panic!("{e}"))
}

/// Plays White's `moves`, Black shuffling its tower e1↔e2 in between (each castle is checked
/// at the end of the round, after Black's move: BT-E1).
fn build(engine: &mut VariantEngine, game: Handle, moves: &[&str]) {
    for (i, id) in moves.iter().enumerate() {
        engine.apply(game, WHITE, id).unwrap();
        let shuffle = if i % 2 == 0 { "e1-e2" } else { "e2-e1" };
        engine.apply(game, BLACK, shuffle).unwrap();
    }
}

fn castle(engine: &mut VariantEngine, game: Handle, seat: Seat) -> Value {
    engine
        .operation(game, "castle", &json!({ "seat": seat }))
        .unwrap()
}

#[test]
fn an_off_centre_castle_wins_only_under_the_plain_rules() {
    let mut plain = engine(Vec::new());
    let game = plain.create(&Setup::new(2, 1)).unwrap();
    build(&mut plain, game, &OFF_CENTRE);
    match plain.status(game).unwrap() {
        Status::Finished { outcome } => assert_eq!(outcome.winners, [WHITE]),
        other => panic!("plain rules: White's castle wins, not {other:?}"),
    }

    let mut house = engine(vec![tour_maitresse()]);
    let game = house.create(&Setup::new(2, 1)).unwrap();
    assert_eq!(
        house
            .operation(game, "central_tower_required", &json!(null))
            .unwrap(),
        json!(true)
    );
    build(&mut house, game, &OFF_CENTRE);
    assert_eq!(house.status(game).unwrap(), Status::to_act(WHITE));
    assert_eq!(
        castle(&mut house, game, WHITE),
        json!({"corner": "d7", "centre": "e8", "tower_in_centre": false, "counts": false})
    );
    // The game goes on normally.
    let actions = house.legal_actions(game, WHITE).unwrap();
    assert!(actions.len() > 1 && actions.iter().all(|a| a.id != "pass"));
    assert!(
        house.disabled(game).is_empty(),
        "{:?}",
        house.disabled(game)
    );
}

#[test]
fn a_castle_with_the_tower_in_the_centre_wins_under_both() {
    for scripts in [Vec::new(), vec![tour_maitresse()]] {
        let mut engine = engine(scripts);
        let game = engine.create(&Setup::new(2, 1)).unwrap();
        build(&mut engine, game, &CENTRED);
        match engine.status(game).unwrap() {
            Status::Finished { outcome } => assert_eq!(outcome.winners, [WHITE]),
            other => panic!("White's castle wins, not {other:?}"),
        }
        assert_eq!(castle(&mut engine, game, WHITE)["counts"], json!(true));
    }
}

#[test]
fn the_rule_survives_save_and_load() {
    let mut first = engine(vec![tour_maitresse()]);
    let game = first.create(&Setup::new(2, 4)).unwrap();
    build(&mut first, game, &OFF_CENTRE[..4]);
    let saved = first.save(game).unwrap();

    let mut second = engine(vec![tour_maitresse()]);
    let back = second.load(&saved).unwrap();
    assert_eq!(second.save(back).unwrap(), saved);
    // The flag lives in the plugin's state: the loaded game still refuses the off-centre
    // castle (setup does not run again on load).
    build(&mut second, back, &OFF_CENTRE[4..]);
    build(&mut first, game, &OFF_CENTRE[4..]);
    assert_eq!(second.status(back).unwrap(), Status::to_act(WHITE));
    assert_eq!(first.save(game).unwrap(), second.save(back).unwrap());

    // A plain engine refuses the saved game (other scripts).
    assert!(engine(Vec::new()).load(&saved).is_err());
}

#[test]
fn conformance_kit_passes_with_tour_maitresse() {
    let started = std::time::Instant::now();
    let mut wasm = engine(vec![tour_maitresse()]);
    let mut reference =
        VariantEngine::new(native_engine("batisseurs").unwrap(), vec![tour_maitresse()]).unwrap();
    let config = CheckConfig {
        games: 2,
        deep_steps: 60,
        deep_stride: 32,
        ..CheckConfig::default()
    };
    let report = check(&mut wasm, Some(&mut reference), &config);
    assert!(
        report.passed(),
        "batisseurs + {FILE} failed the conformance kit:\n{}",
        report.failures.join("\n")
    );
    assert!(report.moves > 0);
    eprintln!(
        "conformance with {FILE}: {} moves in {:.1} s",
        report.moves,
        started.elapsed().as_secs_f64()
    );
}

#[test]
fn random_games_with_tour_maitresse_run_without_errors() {
    let started = std::time::Instant::now();
    let mut engine = engine(vec![tour_maitresse()]);
    let mut moves = 0;
    for seed in 0..12u64 {
        let game = engine.create(&Setup::new(2, seed)).unwrap();
        let mut rng = GameRng::new(seed);
        while let Some(seat) = seat_to_act(&mut engine, game) {
            let actions = engine.legal_actions(game, seat).unwrap();
            assert!(
                !actions.is_empty(),
                "seed {seed}: seat {seat} has no action"
            );
            let id = actions[rng.below(actions.len())].id.clone();
            engine
                .apply(game, seat, &id)
                .unwrap_or_else(|e| panic!("seed {seed}: {id}: {e}"));
            moves += 1;
            assert!(moves < 100_000, "the games end (BT-E3)");
        }
        assert!(
            engine.disabled(game).is_empty(),
            "{:?}",
            engine.disabled(game)
        );
        engine.drop_game(game);
    }
    eprintln!(
        "12 random games with {FILE}: {moves} moves in {:.1} s",
        started.elapsed().as_secs_f64()
    );
}
