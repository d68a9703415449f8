//! House rules with real power that stay fast, through the real wasm plugins and
//! real Luau:
//!
//! * hooks that declare the actions they concern (`actions = {…}`) are called only for those,
//!   and random playouts run inside the plugin between them (`playout_until`, ABI 1.7),
//!   giving the very game the host would play move by move;
//! * a script with only `setup` plays out entirely inside the plugin;
//! * `add_actions` / `play_action` add moves: Siège « seigneur agile » (the worked example of
//!   `variants/examples/`), the same rule move for move as the shipped one, which the game
//!   plays itself (`nimble_lord`, a `setup`-only script);
//! * Château Noir « prise obligatoire »: `end-turn` is never offered while a take is;
//! * roc noir « trappe coûteuse »: a fall costs the faller's player a rope, the game's own
//!   `costly_trapdoor` the same as its `after_action` example move for move;
//! * a `before_action` that refuses every move never makes a playout loop;
//! * `seats`, `max_added` and `after_when` (ABI 1.10 `PlayoutWatch::rules`): the hooks run
//!   for exactly the moves they name, and the playout stops only for those;
//! * Siège « renforts »: the game's own `reinforcements` (a question as ordinary actions) the
//!   same as its `ctx.choose` example move for move;
//! * roc noir « le château fort enchanté »: the game's own `enchanted_castle` (its scene's
//!   rotation) the same as its `after_action` + `view` example move for move;
//! * `ctx.game.end_game` ends every built-in game, saved with it and in playouts;
//! * `ctx.game.pass_turn` ends the turn in every built-in game (each declares `pass_turn`), and
//!   switches the script off, naming the commands, in a game without the command.

use serde_json::{json, Value};
use veillee_runtime::conformance::{check, CheckConfig};
use veillee_runtime::engine::GameEngine;
use veillee_runtime::native::native_engine;
use veillee_runtime::variants::library;
use veillee_runtime::variants::VariantLimits;
use veillee_runtime::variants::{Script, VariantEngine};
use veillee_sdk::{GameRng, MoveCondition, PlayoutWatch, Setup, Status, WatchOn, WatchRule};
use veillee_tests::house::{
    builtin_script as builtin, ids, script, seat_to_act, wasm_engine as engine,
};
use veillee_tests::{builtin_plugin, runtime};

/// A script counting in `ctx.state` how often each of its hooks ran.
fn counting(game: &str, actions: Option<&str>) -> Script {
    script(&format!(
        r#"return {{
            id = "counting", name = "c", description = "c", game = "{game}", version = "1",
            {}
            after_action = function(ctx, seat, action)
              ctx.state.after = (ctx.state.after or 0) + 1
              ctx.state.last = action.id
            end,
            before_action = function(ctx, seat, action)
              ctx.state.before = (ctx.state.before or 0) + 1
            end,
          }}"#,
        actions.map_or(String::new(), |a| format!("actions = {{ {a} }},"))
    ))
}

/// Plays `game` to its end with random legal actions (through the scripts); the seat of
/// each move, in order.
fn random_game(
    engine: &mut VariantEngine,
    game: veillee_sdk::Handle,
    seed: u64,
) -> Vec<veillee_sdk::Seat> {
    random_game_moves(engine, game, seed, usize::MAX)
}

/// [`random_game`] for at most `most` moves.
fn random_game_moves(
    engine: &mut VariantEngine,
    game: veillee_sdk::Handle,
    seed: u64,
    most: usize,
) -> Vec<veillee_sdk::Seat> {
    let mut rng = GameRng::new(seed);
    let mut seats = Vec::new();
    while let Some(seat) = seat_to_act(engine, game).filter(|_| seats.len() < most) {
        let actions = ids(engine, game, seat);
        engine
            .apply(game, seat, &actions[rng.below(actions.len())])
            .unwrap();
        seats.push(seat);
    }
    seats
}

#[test]
fn hooks_that_declare_their_actions_run_only_for_those() {
    let mut engine = engine("siege", vec![counting("siege", Some(r#""lord-*""#))]);
    let game = engine.create(&Setup::new(2, 1)).unwrap();
    assert!(random_game(&mut engine, game, 5).len() > 10);
    let state = engine.script_state(game, "counting").unwrap();
    // Only the lord's placement matches `lord-*`: one call of each hook in the whole game.
    assert_eq!(state["after"], 1, "{state}");
    assert_eq!(state["before"], 1, "{state}");
    assert!(
        state["last"].as_str().unwrap().starts_with("lord-"),
        "{state}"
    );
}

#[test]
fn a_watched_playout_plays_inside_the_plugin_and_stops_at_watched_actions() {
    let runtime = runtime();
    let mut plugin = builtin_plugin(&runtime, "chateau-noir");
    let game = plugin.create(&Setup::new(2, 3)).unwrap();
    let watch = PlayoutWatch {
        played: vec!["take-*".into()],
        ..PlayoutWatch::default()
    };
    let stop = plugin
        .playout_until(game, 9, 100_000, &watch)
        .unwrap()
        .expect("the built-in plugins export veillee_playout_until (ABI 1.7)");
    let seat = stop
        .seat
        .expect("a random game of Château Noir takes a piece");
    let id = stop.action.expect("a played watch names the action");
    assert!(id.starts_with("take-"), "{id}");
    assert!(ids(&mut plugin, game, seat).contains(&id));
    // A list watch stops before the pick, at a seat whose list holds a match.
    let listed = PlayoutWatch {
        listed: vec!["end-turn".into()],
        ..PlayoutWatch::default()
    };
    let game = plugin.create(&Setup::new(2, 3)).unwrap();
    let stop = plugin
        .playout_until(game, 9, 100_000, &listed)
        .unwrap()
        .unwrap();
    assert_eq!(stop.action, None);
    let seat = stop.seat.unwrap();
    assert!(ids(&mut plugin, game, seat).contains(&"end-turn".to_string()));
}

#[test]
fn a_watched_playout_runs_the_hooks_for_exactly_the_watched_moves() {
    // Watching `lord-*`: the one placement of the lord, whatever else happens inside the
    // plugin; the game is played to its end.
    let mut siege = engine("siege", vec![counting("siege", Some(r#""lord-*""#))]);
    for seed in 0..5 {
        let game = siege.create(&Setup::new(2, seed)).unwrap();
        let result = siege.playout(game, 100 + seed, 10_000).unwrap();
        assert!(result.outcome.is_some(), "{result:?}");
        assert!(result.moves > 1);
        let state = siege.script_state(game, "counting").unwrap();
        assert_eq!(state["after"], 1, "seed {seed}: {state}");
        assert_eq!(state["before"], 1, "seed {seed}: {state}");
        assert!(state["last"].as_str().unwrap().starts_with("lord-"));
    }
    // Watching `take-*` in Château Noir: the hook sees takes, and takes only.
    let takes = r#"return {
        id = "takes", name = "t", description = "t", game = "chateau-noir", version = "1",
        actions = { "take-*" },
        after_action = function(ctx, seat, action)
          if string.sub(action.id, 1, 5) ~= "take-" then error("not watched: " .. action.id) end
          ctx.state.takes = (ctx.state.takes or 0) + 1
        end,
      }"#;
    let mut noir = engine("chateau-noir", vec![script(takes)]);
    let game = noir.create(&Setup::new(2, 1)).unwrap();
    let result = noir.playout(game, 7, 20_000).unwrap();
    assert!(noir.disabled(game).is_empty(), "{:?}", noir.disabled(game));
    assert!(result.moves > 100, "{result:?}");
    assert!(
        noir.script_state(game, "takes").unwrap()["takes"]
            .as_u64()
            .unwrap()
            > 0
    );
}

#[test]
fn a_setup_only_script_plays_out_exactly_like_its_plain_game() {
    // « Sans règle spéciale » only calls a command in `setup`: its playouts run entirely
    // inside the plugin. Against the plain plugin after the same command, same game.
    let mut variant = engine("siege", vec![builtin("siege", "sans-regle-speciale.lua")]);
    let runtime = runtime();
    let mut plain = builtin_plugin(&runtime, "siege");
    for seed in 0..5 {
        let a = variant.create(&Setup::new(2, seed)).unwrap();
        let b = plain.create(&Setup::new(2, seed)).unwrap();
        plain
            .operation(b, "end_special_rule", &serde_json::Value::Null)
            .unwrap();
        // The variant engine seeds its in-plugin stretch from its own generator.
        let stretch_seed = GameRng::new(seed).next_u64();
        assert_eq!(
            variant.playout(a, seed, 10_000).unwrap(),
            plain.playout(b, stretch_seed, 10_000).unwrap()
        );
    }
}

#[test]
fn a_before_action_that_refuses_everything_never_makes_a_playout_loop() {
    let mut engine = engine(
        "siege",
        vec![script(
            r#"return { id = "no", name = "n", description = "n", game = "siege", version = "1",
                 before_action = function() return false, "never" end }"#,
        )],
    );
    let game = engine.create(&Setup::new(2, 0)).unwrap();
    let result = engine.playout(game, 1, 1000).unwrap();
    assert!(result.stuck, "{result:?}");
    assert_eq!(result.moves, 0);
}

/// The seigneur agile's added steps from the lord's square (the steps whose from-square is
/// the lord's and that the plain game does not offer).
#[test]
fn seigneur_agile_adds_the_lords_diagonal_step_and_plays_it_as_a_move() {
    // The hook version, the guide's worked example; the shipped rule is the game's
    // `nimble_lord` (see `seigneur_agile_inside_the_game_is_its_hook_example_move_for_move`).
    let example = veillee_tests::house::example_script("seigneur-agile.lua");
    let mut agile = engine("siege", vec![example]);
    let game = agile.create(&Setup::new(2, 0)).unwrap();
    // The defender places the lord on d6; the special rule still binds: no agile step yet.
    agile.apply(game, 1, "lord-d6").unwrap();
    agile
        .operation(game, "end_special_rule", &serde_json::Value::Null)
        .unwrap();
    agile.apply(game, 0, "c0-b2").unwrap();
    let listed = agile.legal_actions(game, 1).unwrap();
    let step = listed.iter().find(|a| a.id == "d6-c5").unwrap_or_else(|| {
        panic!(
            "d6-c5 is offered: {:?}",
            listed.iter().map(|a| &a.id).collect::<Vec<_>>()
        )
    });
    assert_eq!(
        step.path.len(),
        2,
        "a click path: the lord, then the square"
    );
    assert!(step.label.en.contains("nimble"), "{}", step.label.en);
    // The plain game does not offer it.
    let base = agile.base();
    let plain_game = base.create(&Setup::new(2, 0)).unwrap();
    base.apply(plain_game, 1, "lord-d6").unwrap();
    base.operation(plain_game, "end_special_rule", &serde_json::Value::Null)
        .unwrap();
    base.apply(plain_game, 0, "c0-b2").unwrap();
    assert!(!ids(base, plain_game, 1).contains(&"d6-c5".to_string()));
    // Played: the lord is on c5 and the attacker is to move.
    agile.apply(game, 1, "d6-c5").unwrap();
    assert_eq!(seat_to_act(&mut agile, game), Some(0));
    assert_eq!(
        agile
            .operation(game, "where_is", &serde_json::json!({"piece": "lord"}))
            .unwrap(),
        serde_json::json!("c5")
    );
    assert!(
        agile.disabled(game).is_empty(),
        "{:?}",
        agile.disabled(game)
    );
}

#[test]
fn prise_obligatoire_never_offers_end_turn_while_a_take_is_possible() {
    let mut engine = engine(
        "chateau-noir",
        vec![builtin("chateau-noir", "prise-obligatoire.lua")],
    );
    let mut takes_seen = 0;
    for seed in 0..4 {
        let game = engine.create(&Setup::new(2, seed)).unwrap();
        let mut rng = GameRng::new(seed);
        for _ in 0..3000 {
            let Some(seat) = seat_to_act(&mut engine, game) else {
                break;
            };
            let actions = ids(&mut engine, game, seat);
            if actions.iter().any(|a| a.starts_with("take-")) {
                takes_seen += 1;
                assert!(!actions.contains(&"end-turn".to_string()), "{actions:?}");
            }
            let id = actions[rng.below(actions.len())].clone();
            engine.apply(game, seat, &id).unwrap();
        }
        assert!(engine.disabled(game).is_empty());
        engine.drop_game(game);
    }
    assert!(takes_seen > 0, "random games reach a capture phase");
}

#[test]
fn the_example_rules_pass_the_conformance_kit() {
    let example: fn(&str, &str) -> Script = |_, file| veillee_tests::house::example_script(file);
    for (game, file, load) in [
        (
            "siege",
            "seigneur-agile.lua",
            builtin as fn(&str, &str) -> Script,
        ),
        ("siege", "seigneur-agile.lua", example),
        ("chateau-noir", "prise-obligatoire.lua", builtin),
        ("roc-noir", "trappe-couteuse.lua", builtin),
        ("roc-noir", "trappe-couteuse.lua", example),
    ] {
        let mut variant = engine(game, vec![load(game, file)]);
        let mut reference =
            VariantEngine::new(native_engine(game).unwrap(), vec![load(game, file)]).unwrap();
        let config = CheckConfig {
            games: 1,
            deep_steps: 30,
            deep_stride: 500,
            ..CheckConfig::default()
        };
        let report = check(&mut variant, Some(&mut reference), &config);
        assert!(report.passed(), "{file}:\n{}", report.failures.join("\n"));
    }
}

#[test]
fn trappe_couteuse_a_knight_that_falls_costs_its_player_a_rope() {
    let mut engine = engine("roc-noir", vec![builtin("roc-noir", "trappe-couteuse.lua")]);
    let query = |engine: &mut VariantEngine, game, name: &str, args: serde_json::Value| {
        engine.operation(game, name, &args).unwrap()
    };
    let mut charged = 0;
    for seed in 0..6 {
        let game = engine.create(&Setup::new(2, seed)).unwrap();
        let mut rng = GameRng::new(seed);
        for _ in 0..1500 {
            let Some(seat) = seat_to_act(&mut engine, game) else {
                break;
            };
            let ropes: Vec<u64> = (0..2)
                .map(|s| {
                    query(&mut engine, game, "ropes", serde_json::json!({"seat": s}))
                        .as_u64()
                        .unwrap()
                })
                .collect();
            let fell_before = query(&mut engine, game, "last_fall", serde_json::Value::Null);
            let actions = ids(&mut engine, game, seat);
            let id = actions[rng.below(actions.len())].clone();
            let events = engine.apply(game, seat, &id).unwrap();
            let fell = query(&mut engine, game, "last_fall", serde_json::Value::Null);
            if fell.is_null() || fell == fell_before {
                continue;
            }
            let faller = fell["seat"].as_u64().unwrap() as usize;
            let after = query(
                &mut engine,
                game,
                "ropes",
                serde_json::json!({"seat": faller}),
            );
            // A jump hands back its own rope first (RN-R1; RN-R3's jump back out is free
            // without one); the fall then costs one more.
            let plain = if id.starts_with("jump-") && faller == seat as usize {
                ropes[faller].saturating_sub(1)
            } else {
                ropes[faller]
            };
            let expected = plain.saturating_sub(1);
            assert_eq!(
                after,
                serde_json::json!(expected),
                "seed {seed}, {id}: {fell}"
            );
            if plain > 0 {
                charged += 1;
                assert!(
                    events.iter().any(|e| e.text.en.contains("Costly trapdoor")),
                    "{events:?}"
                );
            }
        }
        assert!(
            engine.disabled(game).is_empty(),
            "{:?}",
            engine.disabled(game)
        );
        engine.drop_game(game);
    }
    assert!(charged > 0, "random games see a fall");
}

/// Safety: a user's script cannot make itself part of a game (loaded with every game,
/// never chosen); a user's copy of a game's own script is "modified rules", offered as a
/// choice, and a new game runs it only when picked.
#[test]
fn a_users_script_cannot_be_part_of_the_game_and_a_copy_of_one_must_be_picked() {
    let dir = tempfile::tempdir().unwrap();
    let sneaky = r#"return { id = "sneaky", name = "s", description = "s", game = "castel",
        version = "1", part_of_game = true, setup = function(ctx) end }"#;
    std::fs::write(dir.path().join("sneaky.lua"), sneaky).unwrap();
    let cards = library::builtin(Some("castel"))
        .into_iter()
        .find(|s| s.file == "cards.lua")
        .unwrap();
    let copy_path = dir.path().join("my-cards.lua");
    std::fs::write(
        &copy_path,
        cards.text.replace("Ambassadeur", "Ambassadrice"),
    )
    .unwrap();
    let user = Some(dir.path());

    let refused = library::available(Some("castel"), user)
        .into_iter()
        .find(|a| a.source.file == "sneaky.lua")
        .unwrap();
    let why = refused.info.unwrap_err();
    assert!(why.contains("only for a game's own scripts"), "{why}");
    let own: Vec<String> = library::game_scripts("castel", user)
        .into_iter()
        .map(|s| s.file)
        .collect();
    assert!(!own.contains(&"sneaky.lua".to_string()), "{own:?}");

    let copies = library::modified_game_scripts("castel", user);
    assert_eq!(copies.len(), 1);
    let copy = copies[0].source.clone();
    assert!(library::house_rules(Some("castel"), user)
        .iter()
        .any(|a| a.source == copy && library::is_modified_game_script(a)));
    // Not picked: the shipped cards; picked: the copy, in their place.
    let unpicked = library::new_game_scripts("castel", &[], user);
    assert_eq!(unpicked, vec![cards.clone()]);
    let picked = library::new_game_scripts("castel", std::slice::from_ref(&copy), user);
    assert_eq!(picked, vec![copy]);
}

#[test]
fn a_rules_watch_stops_only_for_its_seat_and_for_moves_that_meet_its_condition() {
    let runtime = runtime();
    let mut plugin = builtin_plugin(&runtime, "siege");
    // The defender's turns only, drawing among the listed actions and four more: a stop is
    // always the defender's, names no action and says which of the four was drawn.
    let added = PlayoutWatch {
        rules: vec![WatchRule {
            seats: vec![1],
            actions: vec!["*".into()],
            on: WatchOn::Added { max: 4 },
        }],
        ..PlayoutWatch::default()
    };
    let mut stops = 0;
    for seed in 0..20 {
        let game = plugin.create(&Setup::new(2, seed)).unwrap();
        let stop = plugin
            .playout_until(game, seed, 10_000, &added)
            .unwrap()
            .unwrap();
        if stop.outcome.is_some() {
            continue;
        }
        stops += 1;
        assert_eq!(stop.seat, Some(1), "{stop:?}");
        assert_eq!(stop.action, None, "{stop:?}");
        assert!(stop.extra.is_some_and(|e| e < 4), "{stop:?}");
        assert_eq!(seat_to_act(&mut plugin, game), Some(1));
    }
    assert!(stops > 0, "some draws fall on the four added actions");
    // Every seat's moves, but only those that change `soldiers_lost`: the stop names a move
    // not played yet, and playing it costs the defender a soldier.
    let losses = PlayoutWatch {
        rules: vec![WatchRule {
            seats: Vec::new(),
            actions: vec!["*".into()],
            on: WatchOn::Played {
                when: Some(MoveCondition {
                    query: "soldiers_lost".into(),
                    equals: None,
                }),
            },
        }],
        ..PlayoutWatch::default()
    };
    let lost = |plugin: &mut dyn GameEngine, game| {
        plugin
            .operation(game, "soldiers_lost", &Value::Null)
            .unwrap()
    };
    let mut checked = 0;
    for seed in 0..10 {
        let game = plugin.create(&Setup::new(2, seed)).unwrap();
        let stop = plugin
            .playout_until(game, seed, 10_000, &losses)
            .unwrap()
            .unwrap();
        let (Some(seat), Some(id)) = (stop.seat, stop.action) else {
            continue;
        };
        let before = lost(&mut plugin, game);
        plugin.apply(game, seat, &id).unwrap();
        assert_ne!(lost(&mut plugin, game), before, "seed {seed}: {id}");
        checked += 1;
    }
    assert!(checked > 0, "random games of Siège cost soldiers");
}

#[test]
fn after_when_runs_the_hook_after_exactly_the_moves_that_meet_it() {
    // Counted in playouts (inside the plugin between the moves) and move by move: once per
    // soldier lost, which only ever grows in Siège without reinforcements.
    let text = r#"return {
        id = "losses", name = "l", description = "l", game = "siege", version = "1",
        after_when = { query = "soldiers_lost", changed = true },
        after_action = function(ctx) ctx.state.n = (ctx.state.n or 0) + 1 end,
      }"#;
    let mut siege = engine("siege", vec![script(text)]);
    let mut total = 0;
    for seed in 0..5 {
        let game = siege.create(&Setup::new(2, seed)).unwrap();
        siege.playout(game, seed, 10_000).unwrap();
        let n = siege.script_state(game, "losses").unwrap()["n"].clone();
        let lost = siege
            .operation(game, "soldiers_lost", &Value::Null)
            .unwrap();
        assert_eq!(
            n.as_u64().unwrap_or(0),
            lost.as_u64().unwrap(),
            "seed {seed}"
        );
        total += lost.as_u64().unwrap();
    }
    assert!(total > 0);
    let game = siege.create(&Setup::new(2, 3)).unwrap();
    random_game(&mut siege, game, 3);
    let lost = siege
        .operation(game, "soldiers_lost", &Value::Null)
        .unwrap();
    assert_eq!(siege.script_state(game, "losses").unwrap()["n"], lost);
    // `equals`: after the moves where the answer is that value.
    let lord = r#"return {
        id = "lord", name = "l", description = "l", game = "siege", version = "1",
        after_when = { query = "special_rule_applies", equals = false },
        after_action = function(ctx)
          if ctx.game.query("special_rule_applies") then error("called while it applies") end
          ctx.state.n = (ctx.state.n or 0) + 1
        end,
      }"#;
    let mut siege = engine("siege", vec![script(lord)]);
    let game = siege.create(&Setup::new(2, 1)).unwrap();
    siege.playout(game, 1, 10_000).unwrap();
    assert!(
        siege.disabled(game).is_empty(),
        "{:?}",
        siege.disabled(game)
    );
}

#[test]
fn seats_limit_the_hooks_to_those_seats_moves() {
    let text = r#"return {
        id = "defender", name = "d", description = "d", game = "siege", version = "1",
        seats = { 1 },
        after_action = function(ctx, seat)
          if seat ~= 1 then error("called for seat " .. seat) end
          ctx.state.n = (ctx.state.n or 0) + 1
        end,
      }"#;
    let mut siege = engine("siege", vec![script(text)]);
    let game = siege.create(&Setup::new(2, 2)).unwrap();
    let seats = random_game(&mut siege, game, 2);
    let defender_moves = seats.iter().filter(|&&s| s == 1).count();
    assert!(defender_moves > 0);
    assert_eq!(
        siege.script_state(game, "defender").unwrap()["n"],
        json!(defender_moves)
    );
    let game = siege.create(&Setup::new(2, 4)).unwrap();
    let result = siege.playout(game, 4, 10_000).unwrap();
    assert!(result.outcome.is_some(), "{result:?}");
    assert!(
        siege.disabled(game).is_empty(),
        "{:?}",
        siege.disabled(game)
    );
}

#[test]
fn a_script_that_adds_more_than_its_max_added_is_switched_off() {
    let text = r#"return {
        id = "greedy", name = "g", description = "g", game = "siege", version = "1",
        max_added = 1,
        add_actions = function(ctx, seat)
          return { { id = "x-1", label = { fr = "x", en = "x" } },
                   { id = "x-2", label = { fr = "y", en = "y" } } }
        end,
        play_action = function(ctx) ctx.game.pass_turn() end,
      }"#;
    let mut siege = engine("siege", vec![script(text)]);
    let game = siege.create(&Setup::new(2, 0)).unwrap();
    let listed = ids(&mut siege, game, 1);
    assert!(!listed.iter().any(|id| id.starts_with("x-")), "{listed:?}");
    // Switched off with the move that follows, which says why.
    siege.apply(game, 1, "lord-d6").unwrap();
    let disabled = siege.disabled(game);
    assert_eq!(disabled.len(), 1, "{disabled:?}");
    assert!(disabled[0].1.contains("max_added"), "{disabled:?}");
}

#[test]
fn the_new_fields_are_checked_when_the_script_loads() {
    let load = |fields: &str| {
        Script::load(
            "test.lua",
            &format!(
                r#"return {{ id = "t", name = "t", description = "t", game = "siege",
                    version = "1", {fields} }}"#
            ),
            VariantLimits::default(),
        )
        .map(|_| ())
        .map_err(|e| e.to_string())
    };
    let after = "after_action = function(ctx) end,";
    assert!(load(&format!("seats = {{ 1 }}, {after}")).is_ok());
    for (fields, says) in [
        (format!("seats = {{ -1 }}, {after}"), "`seats`"),
        (format!("seats = {{}}, {after}"), "`seats`"),
        (format!("max_added = 2, {after}"), "add_actions"),
        (
            "max_added = 0, add_actions = function() end,".to_string(),
            "`max_added`",
        ),
        (
            format!("after_when = {{ query = \"soldiers_lost\" }}, {after}"),
            "changed",
        ),
        (
            "after_when = { query = \"soldiers_lost\", changed = true },".to_string(),
            "after_action",
        ),
    ] {
        let error = load(&fields).expect_err(&fields);
        assert!(error.contains(says), "{fields}: {error}");
    }
    // A query the game does not offer is refused when the engine is built, naming the
    // queries it offers.
    let text = r#"return {
        id = "t", name = "t", description = "t", game = "siege", version = "1",
        after_when = { query = "no_such_query", changed = true },
        after_action = function(ctx) end,
      }"#;
    let runtime = runtime();
    let plugin = builtin_plugin(&runtime, "siege");
    let error = VariantEngine::new(Box::new(plugin), vec![script(text)])
        .err()
        .expect("an unknown query is refused")
        .to_string();
    assert!(
        error.contains("no_such_query") && error.contains("soldiers_lost"),
        "{error}"
    );
}

#[test]
fn end_game_ends_every_built_in_game_with_the_scripts_outcome() {
    for id in [
        "batisseurs",
        "castel",
        "chateau-noir",
        "renard",
        "roc-noir",
        "siege",
    ] {
        let text = format!(
            r#"return {{
                id = "ender", name = "e", description = "e", game = "{id}", version = "1",
                after_action = function(ctx, seat)
                  ctx.game.end_game({{ winners = {{ seat }}, reason = {{ fr = "fin", en = "the end" }} }})
                end,
              }}"#
        );
        let mut engine = engine(id, vec![script(&text)]);
        let players = engine.manifest().min_players;
        let game = engine.create(&Setup::new(players, 1)).unwrap();
        let seat = seat_to_act(&mut engine, game).unwrap();
        let first = ids(&mut engine, game, seat)[0].clone();
        engine.apply(game, seat, &first).unwrap();
        let over = |engine: &mut VariantEngine, game| match engine.status(game).unwrap() {
            Status::Finished { outcome } => outcome,
            other => panic!("{id}: the game goes on: {other:?}"),
        };
        let outcome = over(&mut engine, game);
        assert_eq!(outcome.winners, vec![seat], "{id}");
        assert_eq!(outcome.reason.en, "the end", "{id}");
        assert!(engine.legal_actions(game, seat).unwrap().is_empty(), "{id}");
        assert!(
            engine.apply(game, seat, &first).is_err(),
            "{id}: a move after the end"
        );
        // Saved with the game.
        let saved = engine.save(game).unwrap();
        let loaded = engine.load(&saved).unwrap();
        assert_eq!(over(&mut engine, loaded), outcome, "{id}: after loading");
        // A random game ends at its first move, with the same outcome.
        let fresh = engine.create(&Setup::new(players, 2)).unwrap();
        let result = engine.playout(fresh, 2, 1000).unwrap();
        assert_eq!(result.moves, 1, "{id}: {result:?}");
        assert_eq!(
            result.outcome.map(|o| o.reason.en),
            Some("the end".into()),
            "{id}"
        );
        assert!(
            engine.disabled(game).is_empty(),
            "{id}: {:?}",
            engine.disabled(game)
        );
    }
}

#[test]
fn end_game_is_refused_where_it_cannot_be_and_with_a_seat_the_game_has_not() {
    for (hook, outcome, says) in [
        (
            "before_action = function(ctx)",
            "{ winners = {}, reason = 'draw' }",
            "not available in before_action",
        ),
        (
            "after_action = function(ctx)",
            "{ winners = { 5 }, reason = 'x' }",
            "seat 5",
        ),
        (
            "after_action = function(ctx)",
            "{ winners = { 0 } }",
            "`reason`",
        ),
    ] {
        let text = format!(
            r#"return {{ id = "bad", name = "b", description = "b", game = "siege", version = "1",
                {hook} ctx.game.end_game({outcome}) end }}"#
        );
        let mut engine = engine("siege", vec![script(&text)]);
        let game = engine.create(&Setup::new(2, 0)).unwrap();
        engine.apply(game, 1, "lord-d6").unwrap();
        let disabled = engine.disabled(game);
        assert_eq!(disabled.len(), 1, "{hook}: {disabled:?}");
        assert!(disabled[0].1.contains(says), "{hook}: {disabled:?}");
        assert!(
            matches!(engine.status(game).unwrap(), Status::ToAct { .. }),
            "{hook}: the game goes on"
        );
    }
}

#[test]
fn pass_turn_ends_the_turn_in_every_built_in_game_and_names_the_commands_elsewhere() {
    // A rule that ends the turn right after an action: (game, players, the script's
    // `actions`, the action, the seat to act then counted from the first one, one of its
    // actions).
    for (id, players, actions, action, next, offered) in [
        // roc noir: after the roll, the next player clockwise rolls.
        ("roc-noir", 3, r#"actions = { "roll" },"#, "roll", 1, "roll"),
        // Bâtisseurs: after White's move the rule passes for Black, White moves again.
        ("batisseurs", 2, "", "e9-e8", 0, "e8-e7"),
        // Renard: after a hen's move the rule passes for the fox, the hens move again.
        ("renard", 2, "", "c3-c4", 0, "c4-c5"),
        // Castel: after the first of two actions, the next seat acts.
        ("castel", 2, "", "draw", 1, "draw"),
        // Siège: once the defender placed the lord, the rule passes for the attacker.
        ("siege", 2, "", "lord-d6", 0, "d5-d4"),
        // Château Noir: after one coup of its turn, the next army moves.
        ("chateau-noir", 2, "", "h8-h7", 1, "a8-a7"),
    ] {
        let text = format!(
            r#"return {{
                id = "short", name = "s", description = "s", game = "{id}", version = "1",
                {actions}
                after_action = function(ctx) ctx.game.pass_turn() end,
              }}"#
        );
        let mut engine = engine(id, vec![script(&text)]);
        let game = engine.create(&Setup::new(players, 4)).unwrap();
        let first = seat_to_act(&mut engine, game).unwrap();
        engine.apply(game, first, action).unwrap();
        assert!(
            engine.disabled(game).is_empty(),
            "{id}: {:?}",
            engine.disabled(game)
        );
        let seat = (first + next) % players as veillee_sdk::Seat;
        assert_eq!(seat_to_act(&mut engine, game), Some(seat), "{id}");
        assert!(
            ids(&mut engine, game, seat).contains(&offered.to_string()),
            "{id}"
        );
    }
    // Every built-in game declares the command.
    for (id, _) in veillee_runtime::builtin::BUILTIN_PLUGINS {
        let offers = engine(id, Vec::new())
            .manifest()
            .operations
            .iter()
            .any(|op| op.name == "pass_turn" && op.kind == veillee_sdk::OperationKind::Command);
        assert!(offers, "{id} declares pass_turn");
    }
    // A game that does not (the guide's Nim, a plugin of ABI 1.3): the script is switched off
    // with the commands it offers.
    let fixture = std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/abi-1.3/nim.wasm"
    ));
    let (mut catalog, _dir) = veillee_tests::temp_catalog();
    catalog.install(fixture).expect("the 1.3 plugin installs");
    let text = r#"return {
        id = "short", name = "s", description = "s", game = "nim", version = "1",
        after_action = function(ctx) ctx.game.pass_turn() end,
      }"#;
    let mut nim =
        VariantEngine::new(Box::new(catalog.engine("nim").unwrap()), vec![script(text)]).unwrap();
    let game = nim.create(&Setup::new(2, 1)).unwrap();
    random_game_moves(&mut nim, game, 1, 1);
    let disabled = nim.disabled(game);
    assert_eq!(disabled.len(), 1, "{disabled:?}");
    assert!(
        disabled[0].1.contains("no command `pass_turn`"),
        "{disabled:?}"
    );
}

/// The game's state inside a variant engine's save (its last line), without `drop`'s keys:
/// the house rule's own switches, which only one of two engines compared has.
fn base_state(engine: &mut VariantEngine, game: veillee_sdk::Handle, drop: &[&str]) -> Value {
    let saved = engine.save(game).unwrap();
    let last = saved.rsplit(|&b| b == b'\n').next().unwrap();
    let mut state: Value = serde_json::from_slice(last).unwrap();
    if let Some(object) = state.as_object_mut() {
        for key in drop {
            object.remove(*key);
        }
    }
    state
}

/// A shipped house rule played inside the plugin (`setup` only) and its hook-based worked
/// example (`variants/examples/`) are the same rule: on `seeds` random games (the same draws
/// for both), every seat to act is offered the same actions, in the same order, every move
/// tells the same events, and the games end in the same state, outcome and scene. Both scripts
/// have the same id and texts, and the shipped one only `setup`. Returns how many `mark`ed moves were played.
fn same_rule_both_ways(
    game: &str,
    shipped: &str,
    example: &str,
    players: u8,
    seeds: std::ops::Range<u64>,
    drop: &[&str],
    mark: impl Fn(&veillee_sdk::Action, &[veillee_sdk::Event]) -> bool,
) -> usize {
    let (shipped, example) = (
        builtin(game, shipped),
        veillee_tests::house::example_script(example),
    );
    // The same rule for the players: the same id and texts, and only `setup` shipped.
    let (a, b) = (shipped.info(), example.info());
    assert_eq!(
        (&a.id, &a.name, &a.description, &a.changes),
        (&b.id, &b.name, &b.description, &b.changes)
    );
    assert_eq!(a.hooks, ["setup"]);
    let mut inside = engine(game, vec![shipped]);
    let mut hooks = engine(game, vec![example]);
    let mut marked = 0;
    for seed in seeds {
        let a = inside.create(&Setup::new(players, seed)).unwrap();
        let b = hooks.create(&Setup::new(players, seed)).unwrap();
        let mut rng = GameRng::new(seed);
        let mut moves = 0;
        while let Some(seat) = seat_to_act(&mut inside, a) {
            assert_eq!(
                seat_to_act(&mut hooks, b),
                Some(seat),
                "seed {seed}, move {moves}"
            );
            let listed = inside.legal_actions(a, seat).unwrap();
            let asked = hooks.legal_actions(b, seat).unwrap();
            let pick = rng.below(listed.len());
            let hooks_id = if hooks.pending_choice(b).is_some() {
                // The example asks with `ctx.choose`: the host's buttons carry the options'
                // texts, which the game offers as its own actions.
                let options: Vec<_> = asked
                    .iter()
                    .map(|a| a.private.as_ref().map(|p| p.text.clone()))
                    .collect();
                let labels: Vec<_> = listed.iter().map(|a| Some(a.label.clone())).collect();
                assert_eq!(options, labels, "seed {seed}, move {moves}");
                asked[pick].id.clone()
            } else {
                assert_eq!(listed, asked, "seed {seed}, move {moves}");
                listed[pick].id.clone()
            };
            let action = &listed[pick];
            let events = inside.apply(a, seat, &action.id).unwrap();
            assert_eq!(
                events,
                hooks.apply(b, seat, &hooks_id).unwrap(),
                "seed {seed}, move {moves}"
            );
            marked += usize::from(mark(action, &events));
            moves += 1;
            assert!(moves < 20_000, "seed {seed}: the game does not end");
        }
        assert_eq!(seat_to_act(&mut hooks, b), None, "seed {seed}");
        assert_eq!(inside.status(a).unwrap(), hooks.status(b).unwrap());
        assert_eq!(
            base_state(&mut inside, a, drop),
            base_state(&mut hooks, b, drop),
            "seed {seed}"
        );
        assert_eq!(
            inside.view(a, None).unwrap(),
            hooks.view(b, None).unwrap(),
            "seed {seed}"
        );
        assert!(inside.disabled(a).is_empty() && hooks.disabled(b).is_empty());
        inside.drop_game(a);
        hooks.drop_game(b);
    }
    marked
}

#[test]
fn seigneur_agile_inside_the_game_is_its_hook_example_move_for_move() {
    let nimble = same_rule_both_ways(
        "siege",
        "seigneur-agile.lua",
        "seigneur-agile.lua",
        2,
        0..30,
        &["nimble_lord"],
        |action, _| action.label.en.ends_with("(nimble step)"),
    );
    assert!(nimble > 0, "random games play a nimble step");
}

#[test]
fn trappe_couteuse_inside_the_game_is_its_hook_example_move_for_move() {
    let charged = same_rule_both_ways(
        "roc-noir",
        "trappe-couteuse.lua",
        "trappe-couteuse.lua",
        2,
        0..30,
        &["costly_trapdoor"],
        |_, events| {
            events
                .iter()
                .any(|e| e.text.en.starts_with("Costly trapdoor"))
        },
    );
    assert!(charged > 0, "random games charge a fall");
}

#[test]
fn renforts_inside_the_game_is_its_hook_example_move_for_move() {
    let reinforced = same_rule_both_ways(
        "siege",
        "renforts.lua",
        "renforts.lua",
        2,
        0..30,
        &["reinforcements"],
        |action, _| action.id.starts_with("reinforce-"),
    );
    assert!(reinforced > 0, "random games bring a soldier back");
}

#[test]
fn chateau_fort_enchante_inside_the_game_is_its_hook_example_move_for_move() {
    let rings = same_rule_both_ways(
        "roc-noir",
        "chateau-fort-enchante.lua",
        "chateau-fort-enchante.lua",
        3,
        0..30,
        &["castle_turns"],
        |_, events| events.iter().any(|e| e.text.en.starts_with("The ring!")),
    );
    assert!(rings > 0, "random games roll the ring");
}
