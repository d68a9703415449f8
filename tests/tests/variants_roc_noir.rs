//! « Le château fort enchanté » through the real wasm roc-noir plugin and real Luau. Its hook
//! version (`variants/examples/chateau-fort-enchante.lua`, `after_action` and `view`): the
//! castle turns a quarter turn exactly on ring rolls, the rotation is saved and replayed, the
//! conformance kit passes with the variant on, and many random games run with it without an
//! error. The shipped rule (`variants/roc-noir/`, the game's `enchanted_castle` command in
//! `setup`) shares its texts and passes the conformance kit; `variants_house.rs` plays both
//! on the same random games.

use serde_json::{json, Value};
use veillee_runtime::conformance::{check, CheckConfig};
use veillee_runtime::engine::GameEngine;
use veillee_runtime::native::native_engine;
use veillee_runtime::variants::{library, Script, VariantEngine};
use veillee_sdk::{GameRng, Handle, Seat, Setup};
use veillee_tests::house::{self, builtin_script, seat_to_act};
use veillee_tests::{builtin_plugin, runtime};

const FILE: &str = "chateau-fort-enchante.lua";
const ID: &str = "chateau-fort-enchante";

/// The hook version, the worked example.
fn enchanted() -> Script {
    house::example_script(FILE)
}

/// The shipped rule: the game's `enchanted_castle` command, in `setup`.
fn shipped() -> Script {
    builtin_script("roc-noir", FILE)
}

fn wasm_engine() -> VariantEngine {
    house::wasm_engine("roc-noir", vec![enchanted()])
}

/// The quarter turns the script has counted.
fn turns(engine: &VariantEngine, game: Handle) -> u64 {
    engine.script_state(game, ID).unwrap()["turns"]
        .as_u64()
        .unwrap()
}

/// The plugin's own die face (0–5, 0 = the ring face), read from its saved state: the base
/// game's JSON follows the two lines of the variant layer.
fn plugin_die_face(engine: &mut VariantEngine, game: Handle) -> Option<u8> {
    let saved = engine.save(game).unwrap();
    let mut parts = saved.splitn(3, |&b| b == b'\n');
    let (_, _, base) = (parts.next(), parts.next(), parts.next().unwrap());
    let state: Value = serde_json::from_slice(base).unwrap();
    state["die"].as_u64().map(|f| f as u8)
}

/// Plays a random game (at most `max` actions) through legal_actions + apply; returns the
/// handle and the actions played.
fn random_game(
    engine: &mut VariantEngine,
    players: u8,
    seed: u64,
    max: usize,
) -> Result<(Handle, Vec<(Seat, String)>), String> {
    let game = engine
        .create(&Setup::new(players, seed))
        .map_err(|e| e.to_string())?;
    let mut rng = GameRng::new(seed);
    let mut played = Vec::new();
    for _ in 0..max {
        let Some(seat) = seat_to_act(engine, game) else {
            break;
        };
        let actions = engine
            .legal_actions(game, seat)
            .map_err(|e| format!("{players} players, seed {seed}: {e}"))?;
        if actions.is_empty() {
            return Err(format!(
                "{players} players, seed {seed}: seat {seat} to act has no action"
            ));
        }
        let id = actions[rng.below(actions.len())].id.clone();
        engine
            .apply(game, seat, &id)
            .map_err(|e| format!("{players} players, seed {seed}: {id}: {e}"))?;
        played.push((seat, id));
    }
    Ok((game, played))
}

#[test]
fn the_script_is_built_in_with_its_texts() {
    let script = shipped();
    let info = script.info();
    assert_eq!(info.id, ID);
    assert_eq!(info.game, "roc-noir");
    assert_eq!(info.name.fr, "Le château fort enchanté");
    assert_eq!(info.name.en, "The enchanted castle");
    assert!(!info.description.fr.is_empty() && !info.description.en.is_empty());
    assert!(!info.changes.is_empty());
    assert!(info
        .changes
        .iter()
        .all(|c| !c.fr.is_empty() && !c.en.is_empty() && c.fr != c.en));
    assert_eq!(info.hooks, ["setup"]);
    // The worked example is the same rule, with the same texts.
    let example = enchanted();
    let hooks = example.info();
    assert_eq!(hooks.hooks, ["setup", "after_action", "view"]);
    assert_eq!(
        (&hooks.id, &hooks.name, &hooks.description, &hooks.changes),
        (&info.id, &info.name, &info.description, &info.changes)
    );
    assert_eq!(
        library::resolve(ID, "roc-noir", None).unwrap().file,
        FILE,
        "found by id"
    );
    // Only for roc-noir.
    assert!(library::resolve(ID, "siege", None).is_err());
}

#[test]
fn a_fresh_game_is_not_turned() {
    let mut engine = wasm_engine();
    for players in 2..=4 {
        let game = engine.create(&Setup::new(players, 5)).unwrap();
        assert_eq!(turns(&engine, game), 0, "set by setup");
        for viewer in [None, Some(0), Some(players - 1)] {
            assert_eq!(engine.view(game, viewer).unwrap().rotation, 0);
        }
        // The plugin's queries, through the variant engine.
        assert_eq!(
            engine
                .operation(game, "last_die_face", &json!(null))
                .unwrap(),
            Value::Null
        );
    }
}

/// Every roll: the plugin's face (its saved state and its event), the query, the count of
/// quarter turns and the rotation of every viewer's scene agree.
#[test]
fn the_castle_turns_exactly_on_ring_rolls() {
    let mut engine = wasm_engine();
    let mut rings = 0u64;
    let mut rolls_seen = 0u64;
    // One game per player count: the rotation only moves on a ring, so checking every
    // viewer on rings and now and then proves what checking on every roll did.
    for players in 2..=4u8 {
        for seed in 0..1u64 {
            let game = engine.create(&Setup::new(players, 40 + seed)).unwrap();
            let mut rng = GameRng::new(seed);
            let mut expected = 0u64;
            for step in 0..1500 {
                let Some(seat) = seat_to_act(&mut engine, game) else {
                    break;
                };
                let actions = engine.legal_actions(game, seat).unwrap();
                let id = actions[rng.below(actions.len())].id.clone();
                let events = engine.apply(game, seat, &id).unwrap();
                if id == "roll" {
                    rolls_seen += 1;
                    let face = plugin_die_face(&mut engine, game).expect("the die was rolled");
                    let ring = face == 0;
                    // The plugin's own roll event says whether the ring came up.
                    assert_eq!(events[0].text.en.contains("with the ring"), ring);
                    let query = engine
                        .operation(game, "last_die_face", &json!(null))
                        .unwrap();
                    assert_eq!(query == json!("ring"), ring, "face {face}, query {query}");
                    if ring {
                        expected += 1;
                        rings += 1;
                        // The script's line comes right after the roll, before any step.
                        assert_eq!(events.len(), 2, "{events:?}");
                        assert!(
                            events[1]
                                .text
                                .fr
                                .starts_with("L'anneau ! Le château tourne")
                                && events[1].text.en.starts_with("The ring! The castle turns"),
                            "{events:?}"
                        );
                    } else {
                        assert_eq!(events.len(), 1, "{events:?}");
                    }
                }
                assert_eq!(turns(&engine, game), expected, "after {id}");
                // The view of every seat and of a spectator (checked on rolls and now and
                // then: a view costs a scene through Lua).
                if (id == "roll" && events.len() == 2) || step % 97 == 0 {
                    let mut viewers: Vec<Option<Seat>> = (0..players).map(Some).collect();
                    viewers.push(None);
                    for viewer in viewers {
                        let scene = engine.view(game, viewer).unwrap();
                        assert_eq!(u64::from(scene.rotation), expected % 4, "{viewer:?}");
                    }
                }
            }
            assert!(
                engine.disabled(game).is_empty(),
                "{:?}",
                engine.disabled(game)
            );
            engine.drop_game(game);
        }
    }
    // One face in six shows the ring.
    assert!(rolls_seen > 300, "{rolls_seen} rolls");
    let share = rings as f64 / rolls_seen as f64;
    assert!(
        (0.10..0.25).contains(&share),
        "{rings} rings in {rolls_seen} rolls"
    );
}

#[test]
fn the_rotation_survives_save_and_load() {
    let mut engine = wasm_engine();
    // Play until the castle has turned an odd number of times (rotation 1 or 3).
    let game = engine.create(&Setup::new(3, 8)).unwrap();
    let mut rng = GameRng::new(8);
    let mut steps = 0;
    while turns(&engine, game).is_multiple_of(2) || turns(&engine, game) < 3 {
        let seat = seat_to_act(&mut engine, game).expect("the game goes on");
        let actions = engine.legal_actions(game, seat).unwrap();
        let id = actions[rng.below(actions.len())].id.clone();
        engine.apply(game, seat, &id).unwrap();
        steps += 1;
        assert!(steps < 5_000, "no ring came up");
    }
    let count = turns(&engine, game);
    let rotation = engine.view(game, Some(1)).unwrap().rotation;
    assert_eq!(u64::from(rotation), count % 4);
    assert!(rotation == 1 || rotation == 3);
    let saved = engine.save(game).unwrap();

    // A fresh engine (fresh plugin, fresh Lua state) resumes it as it was.
    let mut other = wasm_engine();
    let back = other.load(&saved).unwrap();
    assert_eq!(other.save(back).unwrap(), saved);
    assert_eq!(turns(&other, back), count);
    for viewer in [None, Some(0), Some(1), Some(2)] {
        assert_eq!(
            other.view(back, viewer).unwrap(),
            engine.view(game, viewer).unwrap()
        );
    }
    // Both go on identically, and the count goes on from where it was.
    let mut a = GameRng::new(99);
    let mut b = GameRng::new(99);
    for _ in 0..600 {
        let Some(seat) = seat_to_act(&mut engine, game) else {
            break;
        };
        let actions = engine.legal_actions(game, seat).unwrap();
        let id = actions[a.below(actions.len())].id.clone();
        let other_actions = other.legal_actions(back, seat).unwrap();
        assert_eq!(other_actions, actions);
        let other_id = other_actions[b.below(other_actions.len())].id.clone();
        assert_eq!(
            engine.apply(game, seat, &id).unwrap(),
            other.apply(back, seat, &other_id).unwrap()
        );
    }
    assert!(turns(&other, back) > count, "the castle turned again");
    assert_eq!(engine.save(game).unwrap(), other.save(back).unwrap());
    assert_eq!(
        engine.view(game, None).unwrap().rotation,
        other.view(back, None).unwrap().rotation
    );

    // Without the variant, the saved game is refused.
    let runtime = runtime();
    let mut plain =
        VariantEngine::new(Box::new(builtin_plugin(&runtime, "roc-noir")), Vec::new()).unwrap();
    let err = plain.load(&saved).unwrap_err().to_string();
    assert!(err.contains(ID), "{err}");
}

#[test]
fn a_game_replays_identically_from_its_seed_and_action_ids() {
    let mut first = wasm_engine();
    let mut second = wasm_engine();
    for (players, seed) in [(2, 3), (3, 4), (4, 5)] {
        // The first game, with the count of quarter turns after each action.
        let game = first.create(&Setup::new(players, seed)).unwrap();
        let mut rng = GameRng::new(seed);
        let mut played = Vec::new();
        for _ in 0..1_000 {
            let Some(seat) = seat_to_act(&mut first, game) else {
                break;
            };
            let actions = first.legal_actions(game, seat).unwrap();
            let id = actions[rng.below(actions.len())].id.clone();
            first.apply(game, seat, &id).unwrap();
            played.push((seat, id, turns(&first, game)));
        }
        assert!(turns(&first, game) > 0, "a ring came up");
        // The replay from the seed and the ids alone turns at the same moments.
        let replay = second.create(&Setup::new(players, seed)).unwrap();
        for (seat, id, count) in &played {
            second.apply(replay, *seat, id).unwrap();
            assert_eq!(turns(&second, replay), *count, "after {id}");
        }
        assert_eq!(first.save(game).unwrap(), second.save(replay).unwrap());
        for viewer in [None, Some(0)] {
            assert_eq!(
                first.view(game, viewer).unwrap(),
                second.view(replay, viewer).unwrap()
            );
        }
        first.drop_game(game);
        second.drop_game(replay);
    }
}

#[test]
fn conformance_kit_passes_with_the_enchanted_castle() {
    conformance_with(enchanted);
    conformance_with(shipped);
}

fn conformance_with(rule: fn() -> Script) {
    let mut engine = house::wasm_engine("roc-noir", vec![rule()]);
    let native = native_engine("roc-noir").expect("roc-noir has a native build");
    let mut reference = VariantEngine::new(native, vec![rule()]).unwrap();
    // roc-noir games run to thousands of moves: one game per player count.
    // Deep checks (every viewer, save/load, replays) on a sample of the steps.
    let config = CheckConfig {
        games: 1,
        deep_steps: 40,
        deep_stride: 200,
        ..CheckConfig::default()
    };
    let report = check(&mut engine, Some(&mut reference), &config);
    assert!(
        report.passed(),
        "roc-noir + {FILE} failed the conformance kit:\n{}",
        report.failures.join("\n")
    );
    assert!(report.moves > 1_000, "{} moves", report.moves);
}

/// Random games with the variant on, stepwise (legal_actions + apply, so every hook runs),
/// for 2, 3 and 4 players: no error, no script switched off, every game ends.
fn many_random_games(players: u8, games: u64) {
    let mut engine = wasm_engine();
    let mut turned = 0;
    for seed in 0..games {
        let (game, played) = random_game(&mut engine, players, 20_000 + seed, 20_000)
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(
            engine.disabled(game).is_empty(),
            "{players} players, seed {seed}: {:?}",
            engine.disabled(game)
        );
        assert!(
            seat_to_act(&mut engine, game).is_none(),
            "{players} players, seed {seed}: not over after {} actions",
            played.len()
        );
        turned += turns(&engine, game);
        engine.drop_game(game);
    }
    assert!(
        turned > games,
        "the castle turned {turned} times in {games} games"
    );
}

#[test]
fn random_games_with_the_enchanted_castle_two_players() {
    many_random_games(2, GAMES);
}

#[test]
fn random_games_with_the_enchanted_castle_three_players() {
    many_random_games(3, GAMES);
}

#[test]
fn random_games_with_the_enchanted_castle_four_players() {
    many_random_games(4, GAMES);
}

/// Games per player count in the tests above. A roc-noir game with the variant is ~5 000
/// actions played move by move through the host, so 500 × 3 games take many minutes of one
/// core: the default run plays a few per player count, the ignored test below 500, and
/// `veillee simulate roc-noir --variant chateau-fort-enchante` plays any number in release.
const GAMES: u64 = 3;

/// The full run: `cargo test -p veillee-tests --test variants_roc_noir five_hundred --
/// --ignored` (or in release).
#[test]
#[ignore = "long in a debug build: 500 games × 3 player counts"]
fn five_hundred_random_games_with_the_enchanted_castle_for_each_player_count() {
    for players in 2..=4 {
        many_random_games(players, 500);
    }
}

/// The cost of the variant per move and per game, for the report:
/// `cargo test -p veillee-tests --test variants_roc_noir measure -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement, not a check"]
fn measure_random_games() {
    let runtime = runtime();
    let time = |engine: &mut dyn GameEngine| {
        let started = std::time::Instant::now();
        let mut moves = 0u64;
        for seed in 0..5 {
            let game = engine.create(&Setup::new(3, seed)).unwrap();
            let mut rng = GameRng::new(seed);
            while let Some(seat) = seat_to_act(engine, game) {
                let actions = engine.legal_actions(game, seat).unwrap();
                let id = actions[rng.below(actions.len())].id.clone();
                engine.apply(game, seat, &id).unwrap();
                moves += 1;
            }
            engine.drop_game(game);
        }
        let secs = started.elapsed().as_secs_f64();
        (secs * 1e6 / moves as f64, secs / 5.0)
    };
    let (plain, plain_game) = time(&mut builtin_plugin(&runtime, "roc-noir"));
    let (variant, variant_game) = time(&mut wasm_engine());
    println!(
        "3 players: plain plugin {plain:.1} µs/move ({plain_game:.2} s/game), with the \
         enchanted castle {variant:.1} µs/move ({variant_game:.2} s/game)"
    );
}
