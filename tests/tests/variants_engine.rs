//! The variant engine through the real wasm Siège plugin and real Luau: every hook, choices
//! (saved and resumed), replay determinism, failures, the shipped examples, the conformance
//! kit and many random games.

use serde_json::json;
use veillee_runtime::conformance::{check, CheckConfig};
use veillee_runtime::engine::{EngineError, GameEngine};
use veillee_runtime::native::native_engine;
use veillee_runtime::variants::library::{self, ScriptSource};
use veillee_runtime::variants::{Script, VariantEngine, VariantError, VariantLimits};
use veillee_sdk::{GameError, GameRng, Handle, Seat, Setup, Status};
use veillee_tests::house::ids;
use veillee_tests::house::seat_to_act;
use veillee_tests::{builtin_plugin, runtime};

const ATTACKER: Seat = 0;
const DEFENDER: Seat = 1;

fn script(file: &str, text: &str) -> Script {
    Script::load(file, text, VariantLimits::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn builtin(file: &str) -> Script {
    let source = library::builtin(Some("siege"))
        .into_iter()
        .find(|s| s.file == file)
        .unwrap_or_else(|| panic!("{file} is built in"));
    source.load(VariantLimits::default()).unwrap()
}

/// « Renforts » with hooks (`after_action`, `ctx.choose`): the guide's worked example, which
/// exercises the host's choices. The shipped rule is Siège's `reinforcements` command.
fn renforts_example() -> Script {
    veillee_tests::house::example_script("renforts.lua")
}

fn wasm_engine(scripts: Vec<Script>) -> VariantEngine {
    let runtime = runtime();
    let plugin = builtin_plugin(&runtime, "siege");
    VariantEngine::new(Box::new(plugin), scripts).unwrap_or_else(|e| panic!("{e}"))
}

fn native_variant_engine(scripts: Vec<Script>) -> VariantEngine {
    let native = native_engine("siege").unwrap();
    VariantEngine::new(native, scripts).unwrap()
}

/// A script with every hook, recording what it saw in ctx.state.
const PROBE: &str = r#"
return {
  id = "probe", name = { fr = "Sonde", en = "Probe" }, description = "records",
  game = "siege", version = "1.0.0",
  changes = { { fr = "Pas de seigneur en e6", en = "No lord on e6" } },
  setup = function(ctx)
    ctx.state.setup = (ctx.state.setup or 0) + 1
    ctx.state.roll = ctx.random(1000)
    ctx.state.players = ctx.players
  end,
  filter_actions = function(ctx, seat, actions)
    local out = {}
    for _, a in ipairs(actions) do
      if a.id == "lord-d6" then
        out[#out + 1] = { id = a.id, label = { fr = "Seigneur en d6 !", en = "Lord on d6!" } }
      elseif a.id ~= "lord-e6" then
        out[#out + 1] = a.id
      end
    end
    return out
  end,
  before_action = function(ctx, seat, action)
    if action.id == "c0-b2" then
      return false, { fr = "Pas par là", en = "Not that way" }
    end
  end,
  after_action = function(ctx, seat, action, events)
    ctx.state.after = (ctx.state.after or 0) + 1
    ctx.state.last = action.id
    ctx.state.last_events = #events
    ctx.event("after " .. action.id)
  end,
  on_turn_start = function(ctx, seat)
    ctx.state.starts = (ctx.state.starts or 0) + 1
    ctx.state.start_seat = seat
  end,
  on_turn_end = function(ctx, seat, elapsed)
    ctx.state.elapsed = elapsed
    ctx.state.end_seat = seat
  end,
  view = function(ctx, viewer, scene)
    scene.rotation = 2
    scene.message = { fr = "vu par " .. tostring(viewer), en = "seen by " .. tostring(viewer) }
    return scene
  end,
}
"#;

#[test]
fn every_hook_runs_at_its_moment() {
    let mut engine = wasm_engine(vec![script("probe.lua", PROBE)]);
    assert_eq!(
        engine.scripts()[0].info().hooks,
        [
            "setup",
            "filter_actions",
            "before_action",
            "after_action",
            "on_turn_start",
            "on_turn_end",
            "view"
        ]
    );
    let game = engine.create(&Setup::new(2, 7)).unwrap();
    let state = engine.script_state(game, "probe").unwrap().clone();
    assert_eq!(state["setup"], json!(1));
    assert_eq!(state["players"], json!(2));
    assert!((1..=1000).contains(&state["roll"].as_i64().unwrap()));
    // on_turn_start for the defender, who places the lord first.
    assert_eq!(state["starts"], json!(1));
    assert_eq!(state["start_seat"], json!(DEFENDER));

    // filter_actions removes lord-e6 and relabels lord-d6.
    let actions = engine.legal_actions(game, DEFENDER).unwrap();
    assert_eq!(actions.len(), 1);
    assert_eq!(actions[0].id, "lord-d6");
    assert_eq!(actions[0].label.en, "Lord on d6!");
    assert_eq!(engine.action_count(game, DEFENDER).unwrap(), 1);
    let err = engine.apply(game, DEFENDER, "lord-e6").unwrap_err();
    assert!(
        matches!(err, EngineError::Game(GameError::IllegalAction { .. })),
        "{err}"
    );

    // after_action, with the hook's event after the game's.
    let events = engine.apply(game, DEFENDER, "lord-d6").unwrap();
    assert_eq!(events.last().unwrap().text.en, "after lord-d6");
    let state = engine.script_state(game, "probe").unwrap().clone();
    assert_eq!(state["after"], json!(1));
    assert_eq!(state["last"], json!("lord-d6"));
    assert_eq!(state["last_events"], json!(1));
    assert_eq!(state["starts"], json!(2));
    assert_eq!(state["start_seat"], json!(ATTACKER));

    // before_action refuses with a reason, and nothing changes.
    let before = engine.save(game).unwrap();
    let err = engine.apply(game, ATTACKER, "c0-b2").unwrap_err();
    match err {
        EngineError::Game(GameError::Refused { reason, seat, .. }) => {
            assert_eq!(reason.fr, "Pas par là");
            assert_eq!(seat, ATTACKER);
        }
        other => panic!("{other}"),
    }
    assert_eq!(engine.save(game).unwrap(), before);

    // on_turn_end gets the host's elapsed time.
    engine.apply(game, ATTACKER, "c0-d2").unwrap();
    engine.end_turn(game, ATTACKER, 12_345).unwrap();
    let state = engine.script_state(game, "probe").unwrap().clone();
    assert_eq!(state["elapsed"], json!(12.345));
    assert_eq!(state["end_seat"], json!(ATTACKER));

    // view changes the presentation.
    let scene = engine.view(game, Some(DEFENDER)).unwrap();
    assert_eq!(scene.rotation, 2);
    assert_eq!(scene.message.en, "seen by 1");
    assert_eq!(engine.view(game, None).unwrap().message.en, "seen by nil");
    assert!(
        engine.disabled(game).is_empty(),
        "{:?}",
        engine.disabled(game)
    );
}

/// Two choices in a row, in the middle of the attacker's turn, after a random draw.
const CHOOSER: &str = r#"
return {
  id = "chooser", name = "Chooser", description = "asks twice", game = "siege", version = "1",
  after_action = function(ctx, seat, action)
    if seat ~= 0 or ctx.state.done then return end
    local roll = ctx.random(1000000)
    local a = ctx.choose(1, { "un", { fr = "deux", en = "two" } }, "Premier ?")
    -- pcall does not swallow a pending choice: the host notices it anyway
    local ok, b = pcall(ctx.choose, 0, { "x", "y", "z" }, { fr = "Second ?", en = "Second?" })
    ctx.state.done = true
    ctx.state.roll = roll
    ctx.state.a = a
    ctx.state.b = b
    ctx.event("chose " .. a .. b)
  end,
}
"#;

#[test]
fn a_choice_mid_turn_is_saved_and_resumed() {
    let mut engine = wasm_engine(vec![script("chooser.lua", CHOOSER)]);
    let game = engine.create(&Setup::new(2, 99)).unwrap();
    engine.apply(game, DEFENDER, "lord-d6").unwrap();
    engine.apply(game, ATTACKER, "c0-d2").unwrap();

    // The defender must choose, in the attacker's turn.
    assert_eq!(engine.status(game).unwrap(), Status::to_act(DEFENDER));
    assert_eq!(ids(&mut engine, game, DEFENDER), ["choose:0", "choose:1"]);
    assert!(ids(&mut engine, game, ATTACKER).is_empty());
    assert_eq!(
        engine.legal_actions(game, DEFENDER).unwrap()[1]
            .label_for(DEFENDER, Some(DEFENDER))
            .en,
        "two"
    );
    assert_eq!(engine.view(game, None).unwrap().message.fr, "Premier ?");
    assert!(matches!(
        engine.apply(game, ATTACKER, "choose:0"),
        Err(EngineError::Game(GameError::NotYourTurn { .. }))
    ));
    assert!(matches!(
        engine.apply(game, DEFENDER, "choose:2"),
        Err(EngineError::Game(GameError::IllegalAction { .. }))
    ));
    let saved = engine.save(game).unwrap();

    // Resume in another engine (fresh plugin and fresh Lua states).
    let mut other = wasm_engine(vec![script("chooser.lua", CHOOSER)]);
    let resumed = other.load(&saved).unwrap();
    assert_eq!(other.save(resumed).unwrap(), saved);
    assert_eq!(other.status(resumed).unwrap(), Status::to_act(DEFENDER));
    assert!(other
        .apply(resumed, DEFENDER, "choose:1")
        .unwrap()
        .is_empty());
    // The second choice is the attacker's.
    assert_eq!(other.status(resumed).unwrap(), Status::to_act(ATTACKER));
    assert_eq!(
        ids(&mut other, resumed, ATTACKER),
        ["choose:0", "choose:1", "choose:2"]
    );
    let saved2 = other.save(resumed).unwrap();
    let mut third = wasm_engine(vec![script("chooser.lua", CHOOSER)]);
    let again = third.load(&saved2).unwrap();
    let events = third.apply(again, ATTACKER, "choose:2").unwrap();
    assert_eq!(events.last().unwrap().text.en, "chose 23");
    let state = third.script_state(again, "chooser").unwrap().clone();
    assert_eq!(
        (state["a"].clone(), state["b"].clone()),
        (json!(2), json!(3))
    );
    // Back to the game: the defender moves.
    assert_eq!(third.status(again).unwrap(), Status::to_act(DEFENDER));
    assert!(!ids(&mut third, again, DEFENDER)
        .iter()
        .any(|id| id.starts_with("choose:")));

    // The same answers without saving give the same state, random draw included.
    engine.apply(game, DEFENDER, "choose:1").unwrap();
    engine.apply(game, ATTACKER, "choose:2").unwrap();
    assert_eq!(engine.save(game).unwrap(), third.save(again).unwrap());

    // Loading with other scripts is refused clearly.
    let mut plain = wasm_engine(Vec::new());
    let err = plain.load(&saved).unwrap_err().to_string();
    assert!(err.contains("chooser@"), "{err}");
}

/// Plays `moves` random actions through legal_actions + apply; returns the action ids.
fn random_game(
    engine: &mut dyn GameEngine,
    seed: u64,
    max: usize,
) -> Result<(Handle, Vec<(Seat, String)>), String> {
    let game = engine
        .create(&Setup::new(2, seed))
        .map_err(|e| e.to_string())?;
    let mut rng = GameRng::new(seed);
    let mut played = Vec::new();
    for _ in 0..max {
        let Some(seat) = seat_to_act(engine, game) else {
            break;
        };
        let actions = engine
            .legal_actions(game, seat)
            .map_err(|e| format!("seed {seed}: {e}"))?;
        if actions.is_empty() {
            return Err(format!("seed {seed}: seat {seat} to act has no action"));
        }
        let id = actions[rng.below(actions.len())].id.clone();
        engine
            .apply(game, seat, &id)
            .map_err(|e| format!("seed {seed}: {id}: {e}"))?;
        played.push((seat, id));
    }
    Ok((game, played))
}

#[test]
fn same_seed_and_actions_replay_to_the_same_bytes() {
    let scripts = || vec![renforts_example(), script("probe.lua", PROBE)];
    let mut first = wasm_engine(scripts());
    let mut second = wasm_engine(scripts());
    for seed in [3, 4, 5] {
        let (game, played) = random_game(&mut first, seed, 400).unwrap();
        let replay = second.create(&Setup::new(2, seed)).unwrap();
        for (seat, id) in &played {
            second.apply(replay, *seat, id).unwrap();
        }
        assert_eq!(first.save(game).unwrap(), second.save(replay).unwrap());
    }
}

#[test]
fn renforts_brings_a_soldier_back_once() {
    let mut engine = wasm_engine(vec![renforts_example()]);
    let mut offered = 0;
    let mut used = 0;
    for seed in 0..60 {
        let game = engine.create(&Setup::new(2, seed)).unwrap();
        let mut rng = GameRng::new(seed);
        let mut used_here = false;
        for _ in 0..500 {
            let Some(seat) = seat_to_act(&mut engine, game) else {
                break;
            };
            let actions = engine.legal_actions(game, seat).unwrap();
            if let Some(request) = engine.pending_choice(game).cloned() {
                assert_eq!(request.seat, DEFENDER);
                assert!(!used_here, "seed {seed}: offered again after being used");
                offered += 1;
                let lost = engine
                    .operation(game, "soldiers_lost", &json!(null))
                    .unwrap();
                // Take the first square.
                let events = engine.apply(game, DEFENDER, "choose:0").unwrap();
                assert!(
                    events[0].text.en.starts_with("Reinforcements"),
                    "{events:?}"
                );
                let now = engine
                    .operation(game, "soldiers_lost", &json!(null))
                    .unwrap();
                assert_eq!(now.as_i64().unwrap(), lost.as_i64().unwrap() - 1);
                used_here = true;
                used += 1;
                continue;
            }
            let id = actions[rng.below(actions.len())].id.clone();
            engine.apply(game, seat, &id).unwrap();
        }
        assert!(
            engine.disabled(game).is_empty(),
            "{:?}",
            engine.disabled(game)
        );
        engine.drop_game(game);
    }
    assert!(offered > 5 && used > 5, "offered {offered}, used {used}");
}

#[test]
fn sans_regle_speciale_frees_the_defender() {
    let mut plain = wasm_engine(Vec::new());
    let mut free = wasm_engine(vec![builtin("sans-regle-speciale.lua")]);
    for engine in [&mut plain, &mut free] {
        let game = engine.create(&Setup::new(2, 1)).unwrap();
        engine.apply(game, DEFENDER, "lord-d6").unwrap();
        engine.apply(game, ATTACKER, "c0-d2").unwrap();
    }
    let restricted = ids(&mut plain, 0, DEFENDER);
    let unrestricted = ids(&mut free, 0, DEFENDER);
    assert!(!restricted.contains(&"d6-e6".to_string()));
    assert!(
        unrestricted.contains(&"d6-e6".to_string()),
        "{unrestricted:?}"
    );
    assert!(restricted.iter().all(|id| unrestricted.contains(id)));
}

#[test]
fn exclusive_duplicate_and_foreign_scripts_are_refused() {
    let exclusive = |id: &str| {
        format!(
            r#"return {{ id = "{id}", name = "{id}", description = "x", game = "siege", version = "1", exclusive = true }}"#
        )
    };
    let runtime = runtime();
    let err = VariantEngine::new(
        Box::new(builtin_plugin(&runtime, "siege")),
        vec![
            script("a.lua", &exclusive("a")),
            script("b.lua", &exclusive("b")),
        ],
    )
    .err()
    .unwrap();
    assert!(matches!(err, VariantError::Exclusive { .. }), "{err}");
    assert!(err.to_string().contains("a.lua") && err.to_string().contains("b.lua"));

    let err = VariantEngine::new(
        Box::new(builtin_plugin(&runtime, "siege")),
        vec![builtin("renforts.lua"), renforts_example()],
    )
    .err()
    .unwrap();
    assert!(matches!(err, VariantError::Duplicate { .. }), "{err}");

    let other =
        r#"return { id = "x", name = "x", description = "x", game = "roc-noir", version = "1" }"#;
    let err = VariantEngine::new(
        Box::new(builtin_plugin(&runtime, "siege")),
        vec![script("x.lua", other)],
    )
    .err()
    .unwrap();
    assert!(err.to_string().contains("roc-noir"), "{err}");
}

#[test]
fn a_script_error_mid_game_switches_it_off_and_the_game_goes_on() {
    let text = r#"return {
  id = "fragile", name = "Fragile", description = "x", game = "siege", version = "1",
  after_action = function(ctx, seat, action)
    ctx.state.n = (ctx.state.n or 0) + 1
    if ctx.state.n == 3 then
      error("third move")
    end
  end,
}"#;
    let mut engine = wasm_engine(vec![script("fragile.lua", text)]);
    let game = engine.create(&Setup::new(2, 1)).unwrap();
    engine.apply(game, DEFENDER, "lord-d6").unwrap();
    engine.apply(game, ATTACKER, "c0-d2").unwrap();
    let events = engine.apply(game, DEFENDER, "d5-d4").unwrap();
    let disabled = engine.disabled(game);
    assert_eq!(disabled.len(), 1);
    assert!(
        disabled[0].1.contains("fragile.lua:6: third move"),
        "{disabled:?}"
    );
    assert!(events.iter().any(|e| e.text.en.contains("switched off")));
    // The game goes on, and the state stays as it was before the failing call.
    assert_eq!(engine.script_state(game, "fragile").unwrap()["n"], json!(2));
    let (_, played) = {
        let mut rng = GameRng::new(1);
        let mut n = 0;
        while let Some(seat) = seat_to_act(&mut engine, game) {
            let actions = engine.legal_actions(game, seat).unwrap();
            let id = actions[rng.below(actions.len())].id.clone();
            engine.apply(game, seat, &id).unwrap();
            n += 1;
        }
        ((), n)
    };
    assert!(played > 0);
    // Disabled is part of the saved state.
    let saved = engine.save(game).unwrap();
    let mut other = wasm_engine(vec![script("fragile.lua", text)]);
    let back = other.load(&saved).unwrap();
    assert_eq!(other.disabled(back), engine.disabled(game));
}

fn conformance_with(file: &str) {
    conformance_with_script(file, || builtin(file));
}

fn conformance_with_script(file: &str, load: impl Fn() -> Script) {
    let mut engine = wasm_engine(vec![load()]);
    let mut reference = native_variant_engine(vec![load()]);
    let config = CheckConfig {
        games: 4,
        ..CheckConfig::default()
    };
    let report = check(&mut engine, Some(&mut reference), &config);
    assert!(
        report.passed(),
        "siege + {file} failed the conformance kit:\n{}",
        report.failures.join("\n")
    );
    assert!(report.moves > 0);
}

#[test]
fn conformance_kit_passes_with_sans_regle_speciale() {
    conformance_with("sans-regle-speciale.lua");
}

#[test]
fn conformance_kit_passes_with_renforts() {
    conformance_with("renforts.lua");
    conformance_with_script("examples/renforts.lua", renforts_example);
}

fn many_random_games(file: &str) {
    many_random_games_with(builtin(file));
}

fn many_random_games_with(rule: Script) {
    let mut engine = wasm_engine(vec![rule]);
    let mut finished = 0;
    for seed in 0..500 {
        let (game, _) = random_game(&mut engine, 10_000 + seed, 2_000).unwrap();
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
    assert_eq!(finished, 500, "every game ends");
}

#[test]
fn five_hundred_random_games_with_sans_regle_speciale() {
    many_random_games("sans-regle-speciale.lua");
}

#[test]
fn five_hundred_random_games_with_renforts() {
    many_random_games("renforts.lua");
    many_random_games_with(renforts_example());
}

#[test]
fn playout_goes_through_the_hooks_and_is_deterministic() {
    let mut engine = wasm_engine(vec![renforts_example()]);
    let a = engine.create(&Setup::new(2, 5)).unwrap();
    let b = engine.create(&Setup::new(2, 5)).unwrap();
    let ra = engine.playout(a, 42, 5_000).unwrap();
    let rb = engine.playout(b, 42, 5_000).unwrap();
    assert_eq!(ra, rb);
    assert_eq!(engine.save(a).unwrap(), engine.save(b).unwrap());
}

#[test]
fn every_builtin_script_file_is_listed_and_loads() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../variants");
    let mut on_disk = Vec::new();
    for game in std::fs::read_dir(&dir).unwrap().flatten() {
        // `examples/` holds the guide's worked examples: not house rules of any game.
        if game.path().is_dir() && game.file_name() != "examples" {
            for file in std::fs::read_dir(game.path()).unwrap().flatten() {
                if file.path().extension().is_some_and(|e| e == "lua") {
                    on_disk.push((
                        game.file_name().to_string_lossy().into_owned(),
                        file.file_name().to_string_lossy().into_owned(),
                    ));
                }
            }
        }
    }
    on_disk.sort();
    let mut listed: Vec<(String, String)> = library::BUILTIN
        .iter()
        .map(|(g, f, _)| (g.to_string(), f.to_string()))
        .collect();
    listed.sort();
    assert_eq!(listed, on_disk, "update variants::library::BUILTIN");
    for source in library::builtin(None) {
        let script = source.load(VariantLimits::default()).unwrap();
        let info = script.info();
        assert!(!info.changes.is_empty(), "{}: no rules diff", source.file);
        // Castel's own card script keeps the file name the issue gives it (id « cartes »).
        if (source.file.as_str(), info.id.as_str()) != ("cards.lua", "cartes") {
            assert_eq!(format!("{}.lua", info.id), source.file);
        }
    }
    let found: ScriptSource = library::resolve("renforts", "siege", None).unwrap();
    assert_eq!(found.file, "renforts.lua");
    assert!(library::resolve("nope", "siege", None).is_err());
}

/// Prints the cost of the variant layer per move (legal_actions + apply), for the report:
/// `cargo test -p veillee-tests --test variants_engine overhead -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement, not a check"]
fn overhead_per_move() {
    let time = |engine: &mut dyn GameEngine| {
        let started = std::time::Instant::now();
        let mut moves = 0;
        for seed in 0..50 {
            let (game, played) = random_game(engine, seed, 2_000).unwrap();
            moves += played.len();
            engine.drop_game(game);
        }
        started.elapsed().as_secs_f64() * 1e6 / moves as f64
    };
    let runtime = runtime();
    let plain = time(&mut builtin_plugin(&runtime, "siege"));
    let empty = time(&mut wasm_engine(Vec::new()));
    let renforts = time(&mut wasm_engine(vec![renforts_example()]));
    let never_refuses = PROBE.replace("c0-b2", "none");
    let probe = time(&mut wasm_engine(vec![script("probe.lua", &never_refuses)]));
    println!(
        "µs per move (legal_actions + apply): plain plugin {plain:.1}, no scripts {empty:.1}, \
         renforts {renforts:.1}, every hook {probe:.1}"
    );
}

/// Both seats pick a number at once after the attacker's first move.
const BOTH_CHOOSE: &str = r#"
return {
  id = "both", name = "Both", description = "both choose", game = "siege", version = "1.0.0",
  after_action = function(ctx, seat, action, events)
    if ctx.state.done then return end
    local picks = ctx.choose_all({
      { seat = 0, options = { "a0", "b0" }, prompt = { fr = "Choix secret", en = "Secret pick" } },
      { seat = 1, options = { "a1", "b1", "c1" }, prompt = { fr = "Choix secret", en = "Secret pick" } },
    })
    ctx.state.done = true
    ctx.state.picks = { picks[0], picks[1] }
    ctx.event("picked " .. picks[0] .. picks[1])
  end,
}
"#;

#[test]
fn choose_all_asks_every_seat_at_once_and_keeps_answers_private() {
    let mut engine = wasm_engine(vec![script("both.lua", BOTH_CHOOSE)]);
    let game = engine.create(&Setup::new(2, 5)).unwrap();
    engine.apply(game, DEFENDER, "lord-d6").unwrap();

    // Both seats are to act, each with only its own options.
    assert_eq!(
        engine.status(game).unwrap(),
        Status::ToAct {
            seats: vec![ATTACKER, DEFENDER]
        }
    );
    assert_eq!(ids(&mut engine, game, ATTACKER), ["choose:0", "choose:1"]);
    assert_eq!(
        ids(&mut engine, game, DEFENDER),
        ["choose:0", "choose:1", "choose:2"]
    );
    assert_eq!(
        engine.view(game, Some(DEFENDER)).unwrap().message.en,
        "Secret pick"
    );

    // The defender answers first: nothing is told, the attacker still decides, and what the
    // attacker sees does not depend on the defender's answer.
    let mut other = wasm_engine(vec![script("both.lua", BOTH_CHOOSE)]);
    let twin = other.load(&engine.save(game).unwrap()).unwrap();
    assert!(engine.apply(game, DEFENDER, "choose:2").unwrap().is_empty());
    other.apply(twin, DEFENDER, "choose:0").unwrap();
    assert_eq!(engine.status(game).unwrap(), Status::to_act(ATTACKER));
    assert!(ids(&mut engine, game, DEFENDER).is_empty());
    assert_eq!(
        engine.view(game, Some(ATTACKER)).unwrap(),
        other.view(twin, Some(ATTACKER)).unwrap()
    );
    assert_eq!(
        engine.legal_actions(game, ATTACKER).unwrap(),
        other.legal_actions(twin, ATTACKER).unwrap()
    );
    assert!(matches!(
        engine.apply(game, DEFENDER, "choose:1"),
        Err(EngineError::Game(GameError::NotYourTurn { .. }))
    ));

    // Re-drawn for the attacker, the defender's answer is forgotten: the defender decides
    // again in that copy.
    let copy = engine.redraw_hidden(game, Some(ATTACKER), 1).unwrap();
    assert_eq!(
        engine.status(copy).unwrap(),
        Status::ToAct {
            seats: vec![ATTACKER, DEFENDER]
        }
    );
    engine.drop_game(copy);

    // Saved mid-choice, resumed elsewhere: the same end.
    let saved = engine.save(game).unwrap();
    let mut third = wasm_engine(vec![script("both.lua", BOTH_CHOOSE)]);
    let resumed = third.load(&saved).unwrap();
    let events = third.apply(resumed, ATTACKER, "choose:1").unwrap();
    assert_eq!(events.last().unwrap().text.en, "picked 23");
    assert_eq!(
        third.script_state(resumed, "both").unwrap()["picks"],
        json!([2, 3])
    );
    engine.apply(game, ATTACKER, "choose:1").unwrap();
    assert_eq!(engine.save(game).unwrap(), third.save(resumed).unwrap());
    assert_eq!(engine.status(game).unwrap(), Status::to_act(ATTACKER));
}

#[test]
fn a_user_script_cannot_make_itself_part_of_the_game_and_a_user_copy_replaces_a_builtin() {
    let dir = tempfile::tempdir().unwrap();
    // A script of the user's declaring itself part of Siège: it would be loaded with every
    // game, unasked. Refused, with the reason, and never loaded.
    let own = r#"return { id = "maison", name = "Maison", description = "part of the game",
      game = "siege", version = "1.0.0", part_of_game = true,
      setup = function(ctx) ctx.state.here = true end }"#;
    std::fs::write(dir.path().join("maison.lua"), own).unwrap();
    // A user copy of « Renforts » with another name replaces the built-in one.
    let renforts = library::builtin(Some("siege"))
        .into_iter()
        .find(|s| s.file == "renforts.lua")
        .unwrap();
    let edited = renforts.text.replace(
        "name = { fr = \"Renforts\"",
        "name = { fr = \"Renforts (modifié)\"",
    );
    assert_ne!(edited, renforts.text, "the edit applies");
    std::fs::write(dir.path().join("renforts.lua"), &edited).unwrap();

    assert!(library::game_scripts("siege", Some(dir.path())).is_empty());
    let refused = library::available(Some("siege"), Some(dir.path()))
        .into_iter()
        .find(|a| a.source.file == "maison.lua")
        .unwrap();
    let why = refused.info.unwrap_err();
    assert!(why.contains("part_of_game"), "{why}");
    let choices: Vec<_> = library::house_rules(Some("siege"), Some(dir.path()))
        .into_iter()
        .filter_map(|a| a.info.ok())
        .collect();
    assert!(choices.iter().all(|i| i.id != "maison"), "not offered");
    let renforts = choices.iter().find(|i| i.id == "renforts").unwrap();
    assert_eq!(renforts.name.fr, "Renforts (modifié)");
    assert_eq!(choices.iter().filter(|i| i.id == "renforts").count(), 1);

    // A new game gets the chosen house rule only.
    let chosen = vec![library::resolve("renforts", "siege", Some(dir.path())).unwrap()];
    let sources = veillee_runtime::launch::with_game_scripts("siege", &chosen, dir.path());
    let files: Vec<&str> = sources.iter().map(|s| s.file.as_str()).collect();
    assert_eq!(files, ["renforts.lua"]);
    assert!(sources[0].text.contains("Renforts (modifié)"));

    // A user copy of a game's own script (same id: Castel's cards) still replaces it.
    let cards = library::builtin(Some("castel"))
        .into_iter()
        .find(|s| s.file == "cards.lua")
        .unwrap();
    std::fs::write(
        dir.path().join("cards.lua"),
        cards.text.replace("-- ", "--  "),
    )
    .unwrap();
    let own = library::game_scripts("castel", Some(dir.path()));
    assert_eq!(own.len(), 1);
    assert_ne!(
        own[0].origin, cards.origin,
        "the user's copy is the one loaded"
    );
}
