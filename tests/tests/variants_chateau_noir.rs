//! Château Noir's house rules through the real wasm plugin and real Luau:
//!
//! * « Prise en diagonale » (`variants/chateau-noir/prise-en-diagonale.lua`): played in
//!   lockstep with the plain rules on the same random moves, the first difference is a
//!   capture the plain rules do not allow, of a piece flanked on a diagonal (CN-C1);
//! * « Partie chronométrée » (`variants/chateau-noir/partie-chronometree.lua`): the host's
//!   turn timer (`VariantEngine::end_turn`) costs the seat's side a point exactly when a turn
//!   took more than 180 s, shown in the scene's scores and replayed identically;
//!
//! and for both: save/load, the conformance kit, random games without an error.

use std::collections::BTreeMap;

use serde_json::{json, Value};
use veillee_runtime::conformance::{check, CheckConfig};
use veillee_runtime::engine::GameEngine;
use veillee_runtime::native::native_engine;
use veillee_runtime::variants::{Script, VariantEngine};
use veillee_sdk::{GameRng, Handle, Seat, Setup};
use veillee_tests::house::{builtin_script, ids, seat_to_act, wasm_engine};

const DIAGONAL: &str = "prise-en-diagonale.lua";
const CLOCK: &str = "partie-chronometree.lua";

fn builtin(file: &str) -> Script {
    builtin_script("chateau-noir", file)
}

fn engine(scripts: Vec<Script>) -> VariantEngine {
    wasm_engine("chateau-noir", scripts)
}

/// The plugin's own state, read from the saved game: the base game's JSON follows the two
/// lines of the variant layer.
fn plugin_state(engine: &mut VariantEngine, game: Handle) -> Value {
    let saved = engine.save(game).unwrap();
    let mut parts = saved.splitn(3, |&b| b == b'\n');
    let (_, _, base) = (parts.next(), parts.next(), parts.next().unwrap());
    serde_json::from_slice(base).unwrap()
}

/// Square name → piece id.
fn pieces(state: &Value) -> BTreeMap<String, String> {
    state["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["at"].as_str().unwrap().to_string(),
                p["id"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// The team (0: Green-Blue, 1: Red-Yellow) of a piece id.
fn team(id: &str) -> u8 {
    if id.starts_with("green") || id.starts_with("blue") {
        0
    } else {
        1
    }
}

fn square(col: i32, row: i32) -> Option<String> {
    ((0..10).contains(&col) && (1..=10).contains(&row))
        .then(|| format!("{}{row}", (b'a' + col as u8) as char))
}

/// Whether the piece on `at` stands between two pieces of the other team along `(dc, dr)`.
fn flanked_along(board: &BTreeMap<String, String>, at: &str, dc: i32, dr: i32) -> bool {
    let col = i32::from(at.as_bytes()[0] - b'a');
    let row: i32 = at[1..].parse().unwrap();
    let mine = team(&board[at]);
    let hostile = |c: i32, r: i32| {
        square(c, r)
            .and_then(|s| board.get(&s))
            .is_some_and(|id| team(id) != mine)
    };
    hostile(col - dc, row - dr) && hostile(col + dc, row + dr)
}

// ---------------------------------------------------------------------------------------
// « Prise en diagonale »

#[test]
fn diagonal_flanks_capture_only_with_prise_en_diagonale() {
    let mut plain = engine(Vec::new());
    let mut house = engine(vec![builtin(DIAGONAL)]);
    let mut diagonal_takes = 0;
    let mut immunities = 0;
    for seed in 0..40u64 {
        let a = plain.create(&Setup::new(2, seed)).unwrap();
        let b = house.create(&Setup::new(2, seed)).unwrap();
        assert_eq!(
            house
                .operation(b, "diagonal_flanking", &json!(null))
                .unwrap(),
            json!(true)
        );
        let mut rng = GameRng::new(seed);
        // Same random moves while both rule sets offer the same actions.
        let mut diverged = false;
        for _ in 0..3_000 {
            let (Some(seat), Some(other)) =
                (seat_to_act(&mut plain, a), seat_to_act(&mut house, b))
            else {
                break;
            };
            let (pa, pb) = (ids(&mut plain, a, seat), ids(&mut house, b, other));
            if seat == other && pa == pb {
                let id = pa[rng.below(pa.len())].clone();
                plain.apply(a, seat, &id).unwrap();
                house.apply(b, seat, &id).unwrap();
                continue;
            }
            // The first difference: the house rule's capture phase offers a diagonal take.
            let board = pieces(&plugin_state(&mut house, b));
            let extra: Vec<&String> = pb
                .iter()
                .filter(|id| id.starts_with("take-") && !pa.contains(id))
                .collect();
            for take in &extra {
                let at = &take["take-".len()..];
                assert!(
                    flanked_along(&board, at, 1, 1) || flanked_along(&board, at, 1, -1),
                    "seed {seed}: {take} is not a diagonal flank: {board:?}"
                );
            }
            if let Some(take) = extra.first() {
                diagonal_takes += 1;
                let at = take["take-".len()..].to_string();
                let before = plugin_state(&mut house, b)["scores"].clone();
                house.apply(b, other, take).unwrap();
                let after = plugin_state(&mut house, b);
                assert!(!pieces(&after).contains_key(&at), "{at} is taken");
                assert_ne!(after["scores"], before, "the capture scores (CN-S1)");
            } else {
                // Otherwise a piece that walked into a diagonal flank is immune (CN-C3): the
                // plain rules may take it, the house rule may not.
                assert!(
                    pa.iter()
                        .any(|id| id.starts_with("take-") && !pb.contains(id)),
                    "seed {seed}: unexpected difference {pa:?} / {pb:?}"
                );
                immunities += 1;
            }
            diverged = true;
            break;
        }
        assert!(house.disabled(b).is_empty(), "{:?}", house.disabled(b));
        plain.drop_game(a);
        house.drop_game(b);
        if diverged && diagonal_takes >= 3 {
            break;
        }
    }
    assert!(
        diagonal_takes >= 3,
        "diagonal takes {diagonal_takes}, immunities {immunities}"
    );
}

// ---------------------------------------------------------------------------------------
// « Partie chronométrée »

fn score(engine: &mut VariantEngine, game: Handle, seat: Seat) -> Value {
    engine
        .operation(game, "score", &json!({ "seat": seat }))
        .unwrap()
}

/// Plays the seat's turn: stop at once (`end-coups`, CN-T1), then the captures if any.
fn pass_turn(engine: &mut VariantEngine, game: Handle) -> Seat {
    let seat = seat_to_act(engine, game).unwrap();
    engine.apply(game, seat, "end-coups").unwrap();
    while seat_to_act(engine, game) == Some(seat) {
        engine.apply(game, seat, "end-turn").unwrap();
    }
    seat
}

#[test]
fn the_clock_costs_a_point_exactly_over_three_minutes() {
    let mut engine = engine(vec![builtin(CLOCK)]);
    let game = engine.create(&Setup::new(2, 7)).unwrap();
    let first = pass_turn(&mut engine, game);
    // 3 minutes exactly: no penalty.
    assert!(engine.end_turn(game, first, 180_000).unwrap().is_empty());
    assert_eq!(
        score(&mut engine, game, first),
        json!({"points": 0, "shown": 0, "penalties": 0})
    );
    let second = pass_turn(&mut engine, game);
    assert_ne!(first, second);
    // One millisecond more: one point off the side, with a line in the log.
    let events = engine.end_turn(game, second, 180_001).unwrap();
    assert_eq!(events.len(), 1, "{events:?}");
    assert!(
        events[0].text.en.starts_with("Timed game: player"),
        "{events:?}"
    );
    assert!(events[0].text.fr.contains("3 min 00 s"), "{events:?}");
    assert_eq!(
        score(&mut engine, game, second),
        json!({"points": -1, "shown": 0, "penalties": 1})
    );
    assert_eq!(score(&mut engine, game, first)["penalties"], json!(0));
    // The scene shows it: the debt and the penalty line of that side.
    let scene = engine.view(game, None).unwrap();
    let line = scene
        .scores
        .iter()
        .find(|l| l.label.en.starts_with("Time penalties"))
        .expect("a penalty line");
    assert_eq!((line.value.as_str(), line.seat), ("−1", Some(second)));
    assert!(scene.scores.iter().any(|l| l.value == "0 (dette 1)"));
    // Quick turns cost nothing.
    let third = pass_turn(&mut engine, game);
    assert!(engine.end_turn(game, third, 2_500).unwrap().is_empty());
    assert_eq!(score(&mut engine, game, third)["penalties"], json!(0));
    // A long one again.
    let fourth = pass_turn(&mut engine, game);
    engine.end_turn(game, fourth, 600_000).unwrap();
    assert_eq!(score(&mut engine, game, fourth)["penalties"], json!(2));
    assert!(
        engine.disabled(game).is_empty(),
        "{:?}",
        engine.disabled(game)
    );
}

#[test]
fn the_plain_rules_ignore_the_clock() {
    let mut plain = engine(Vec::new());
    let game = plain.create(&Setup::new(2, 7)).unwrap();
    let seat = pass_turn(&mut plain, game);
    assert!(plain.end_turn(game, seat, 900_000).unwrap().is_empty());
    assert_eq!(score(&mut plain, game, seat)["penalties"], json!(0));
}

/// One step of a recorded game: an action, and the host's timer when it ended a turn.
type Step = (Seat, String, Option<u64>);

/// A random game with the clock: after every action that hands the turn to another seat,
/// the host reports a random thinking time (a third of them over 3 minutes).
fn timed_game(
    engine: &mut VariantEngine,
    players: u8,
    seed: u64,
    max: usize,
) -> (Handle, Vec<Step>) {
    let game = engine.create(&Setup::new(players, seed)).unwrap();
    let mut rng = GameRng::new(seed);
    let mut steps = Vec::new();
    for _ in 0..max {
        let Some(seat) = seat_to_act(engine, game) else {
            break;
        };
        let actions = ids(engine, game, seat);
        let id = actions[rng.below(actions.len())].clone();
        engine.apply(game, seat, &id).unwrap();
        let elapsed = (seat_to_act(engine, game) != Some(seat)).then(|| rng.below(270_000) as u64);
        if let Some(ms) = elapsed {
            engine.end_turn(game, seat, ms).unwrap();
        }
        steps.push((seat, id, elapsed));
    }
    (game, steps)
}

#[test]
fn timed_games_replay_identically_and_count_every_penalty() {
    let mut first = engine(vec![builtin(CLOCK)]);
    let mut second = engine(vec![builtin(CLOCK)]);
    for (players, seed) in [(2u8, 1u64), (4, 2)] {
        let (game, steps) = timed_game(&mut first, players, seed, 600);
        let expected = steps
            .iter()
            .filter(|(_, _, ms)| ms.is_some_and(|ms| ms > 180_000))
            .count();
        assert!(expected > 10, "{expected}");
        let state = plugin_state(&mut first, game);
        let penalties: u64 = state["penalties"]
            .as_array()
            .expect("penalties are saved")
            .iter()
            .map(|p| p.as_u64().unwrap())
            .sum();
        // Every long turn of a match still going costs exactly one point.
        assert_eq!(
            penalties as usize, expected,
            "{players} players, seed {seed}"
        );
        // The same actions and timer values give the same game, byte for byte.
        let replay = second.create(&Setup::new(players, seed)).unwrap();
        for (seat, id, ms) in &steps {
            second.apply(replay, *seat, id).unwrap();
            if let Some(ms) = ms {
                second.end_turn(replay, *seat, *ms).unwrap();
            }
        }
        assert_eq!(first.save(game).unwrap(), second.save(replay).unwrap());
        assert!(
            first.disabled(game).is_empty(),
            "{:?}",
            first.disabled(game)
        );
    }
}

#[test]
fn both_scripts_survive_save_and_load() {
    let scripts = || vec![builtin(DIAGONAL), builtin(CLOCK)];
    let mut first = engine(scripts());
    let (game, _) = timed_game(&mut first, 4, 11, 300);
    let saved = first.save(game).unwrap();
    let mut second = engine(scripts());
    let back = second.load(&saved).unwrap();
    assert_eq!(second.save(back).unwrap(), saved);
    assert_eq!(
        second
            .operation(back, "diagonal_flanking", &json!(null))
            .unwrap(),
        json!(true)
    );
    // Both go on identically, timer included.
    let mut rng = GameRng::new(99);
    for _ in 0..200 {
        let Some(seat) = seat_to_act(&mut first, game) else {
            break;
        };
        let actions = ids(&mut first, game, seat);
        assert_eq!(actions, ids(&mut second, back, seat));
        let id = actions[rng.below(actions.len())].clone();
        first.apply(game, seat, &id).unwrap();
        second.apply(back, seat, &id).unwrap();
        if seat_to_act(&mut first, game) != Some(seat) {
            first.end_turn(game, seat, 200_000).unwrap();
            second.end_turn(back, seat, 200_000).unwrap();
        }
    }
    assert_eq!(first.save(game).unwrap(), second.save(back).unwrap());
    // Not under other scripts.
    assert!(engine(vec![builtin(CLOCK)]).load(&saved).is_err());
}

// ---------------------------------------------------------------------------------------
// Conformance and random games

fn conformance_with(file: &str) {
    let started = std::time::Instant::now();
    let mut wasm = engine(vec![builtin(file)]);
    let mut reference =
        VariantEngine::new(native_engine("chateau-noir").unwrap(), vec![builtin(file)]).unwrap();
    // Small: one match per player count (2, 3 and 4), thousands of actions each; every check
    // on the first 30 steps, then one step in 500.
    let config = CheckConfig {
        games: 1,
        deep_steps: 30,
        deep_stride: 500,
        ..CheckConfig::default()
    };
    let report = check(&mut wasm, Some(&mut reference), &config);
    assert!(
        report.passed(),
        "chateau-noir + {file} failed the conformance kit:\n{}",
        report.failures.join("\n")
    );
    assert!(report.moves > 0);
    eprintln!(
        "conformance with {file}: {} moves in {:.1} s",
        report.moves,
        started.elapsed().as_secs_f64()
    );
}

#[test]
fn conformance_kit_passes_with_prise_en_diagonale() {
    conformance_with(DIAGONAL);
}

#[test]
fn conformance_kit_passes_with_partie_chronometree() {
    conformance_with(CLOCK);
}

#[test]
fn random_games_with_both_scripts_run_without_errors() {
    let started = std::time::Instant::now();
    let mut engine = engine(vec![builtin(DIAGONAL), builtin(CLOCK)]);
    let mut moves = 0;
    let mut finished = 0;
    for (players, seed) in [(2u8, 21u64), (3, 22), (4, 23), (2, 24)] {
        let (game, steps) = timed_game(&mut engine, players, seed, 5_000);
        moves += steps.len();
        assert!(
            engine.disabled(game).is_empty(),
            "{:?}",
            engine.disabled(game)
        );
        if seat_to_act(&mut engine, game).is_none() {
            finished += 1;
        }
        engine.drop_game(game);
    }
    assert!(finished >= 1, "some games end");
    eprintln!(
        "4 random timed games with both scripts: {moves} moves, {finished} finished, in {:.1} s",
        started.elapsed().as_secs_f64()
    );
}
