//! Sandbox escape attempts by variant scripts, through real Luau and the wasm Siège plugin:
//! each is contained, switches its script off with a message naming the file, the line and
//! the reason, and leaves the game playable under the plain rules.

use veillee_runtime::engine::GameEngine;
use veillee_runtime::variants::{Script, VariantEngine, VariantLimits};
use veillee_sdk::{GameRng, Setup, Status};
use veillee_tests::{builtin_plugin, runtime};

/// A script whose `setup` hook runs `body`, starting on line 3 of `esc.lua`.
fn escape_script(body: &str) -> String {
    format!(
        "return {{ id = \"esc\", name = \"Escape\", description = \"x\", game = \"siege\", version = \"1\",\n\
         setup = function(ctx)\n\
         {body}\n\
         end }}\n"
    )
}

/// A small budget, and a deadline far behind it: each test here names the limit it expects,
/// and on a loaded machine a hook could reach the default 2 s before its budget runs out (the
/// deadline has its own test below).
fn limits() -> VariantLimits {
    VariantLimits {
        budget: 200_000,
        memory_bytes: 4 << 20,
        // These tests are about the budget and the memory cap, which do not depend on the
        // machine: a wall-clock deadline far away keeps a loaded machine from stopping a
        // script first (the deadline has its own test).
        deadline: std::time::Duration::from_secs(120),
    }
}

/// Runs `body` in a setup hook; returns the message the script was switched off with.
fn contained(body: &str) -> String {
    let script = Script::load("esc.lua", &escape_script(body), limits())
        .unwrap_or_else(|e| panic!("loads: {e}"));
    let runtime = runtime();
    let plugin = builtin_plugin(&runtime, "siege");
    let mut engine = VariantEngine::new(Box::new(plugin), vec![script]).unwrap();
    let game = engine.create(&Setup::new(2, 1)).unwrap();
    let disabled = engine.disabled(game);
    assert_eq!(disabled.len(), 1, "{body}: not switched off");
    // The game goes on under the plain rules.
    let mut rng = GameRng::new(1);
    for _ in 0..30 {
        let Status::ToAct { seats } = engine.status(game).unwrap() else {
            break;
        };
        let actions = engine.legal_actions(game, seats[0]).unwrap();
        let id = actions[rng.below(actions.len())].id.clone();
        engine.apply(game, seats[0], &id).unwrap();
    }
    disabled[0].1.clone()
}

fn assert_contained(body: &str, reason: &str) {
    let message = contained(body);
    // The hook starts on line 2 and its body on line 3: the message names a line of either.
    let last_line = 2 + body.lines().count();
    let named_a_line_of_the_hook =
        (2..=last_line).any(|line| message.starts_with(&format!("esc.lua:{line}:")));
    assert!(
        named_a_line_of_the_hook,
        "{body}: the message should name the file and a line of the hook (2–{last_line}): {message}"
    );
    assert!(
        message.to_lowercase().contains(&reason.to_lowercase()),
        "{body}: expected `{reason}` in: {message}"
    );
}

#[test]
fn io_is_absent() {
    assert_contained(
        "local f = io.open('/etc/passwd')",
        "`io.open` is not available",
    );
}

#[test]
fn os_is_absent() {
    assert_contained(
        "os.execute('touch /tmp/pwned')",
        "`os.execute` is not available",
    );
}

#[test]
fn require_is_absent() {
    assert_contained("local m = require('os')", "`require` is not available");
}

#[test]
fn dofile_and_loadfile_are_absent() {
    assert_contained("dofile('/etc/passwd')", "dofile");
    assert_contained("loadfile('/etc/passwd')", "loadfile");
}

#[test]
fn load_refuses_binary_chunks() {
    assert_contained(
        "local f, err = load('\\27Lua\\81\\0\\1\\4\\8\\4') assert(f, err)",
        "binary chunks",
    );
    // Text still loads, inside the same sandbox.
    assert_contained(
        "local f = assert(load('return io.open')) f()",
        "`io.open` is not available",
    );
}

#[test]
fn string_dump_is_absent() {
    assert_contained(
        "local s = string.dump(function() end)",
        "`string.dump` is not available",
    );
}

#[test]
fn an_endless_loop_exhausts_the_budget() {
    assert_contained("while true do end", "instruction budget");
    // Catching the error does not help.
    assert_contained(
        "while true do pcall(function() while true do end end) end",
        "budget",
    );
}

#[test]
fn deep_recursion_is_stopped() {
    assert_contained(
        "local function f(n) return 1 + f(n + 1) end f(1)",
        "stack overflow",
    );
}

#[test]
fn a_string_rep_bomb_hits_the_memory_cap() {
    assert_contained("local s = string.rep('x', 2^30)", "memory");
    assert_contained("local s = 'x' for i = 1, 40 do s = s .. s end", "memory");
}

#[test]
fn huge_tables_hit_the_memory_cap() {
    assert_contained(
        "local t = {} for i = 1, 100 do t[i] = string.rep('x', 1000000) .. i end",
        "memory",
    );
    assert_contained("local t = table.create(1e9, 0)", "overflow");
}

#[test]
fn the_string_library_and_globals_are_read_only() {
    assert_contained(
        "getmetatable('').__index = function() return 'pwned' end",
        "readonly",
    );
    assert_contained("string.upper = function() end", "readonly");
    assert_contained("setmetatable(string, {})", "readonly");
    assert_contained(
        "rawset(math, 'random', function() return 4 end)",
        "readonly",
    );
}

#[test]
fn no_clock_and_no_reseeding() {
    assert_contained("local t = os.clock()", "`os.clock` is not available");
    assert_contained("math.randomseed(42)", "randomseed");
    assert_contained("collectgarbage('count')", "collectgarbage");
}

#[test]
fn ctx_state_holds_only_data() {
    assert_contained("ctx.state.f = function() end", "ctx.state");
}

#[test]
fn operations_are_checked() {
    assert_contained("ctx.game.command('win_now')", "no command `win_now`");
    assert_contained(
        "ctx.game.command('add_soldier', { square = 'd5' })",
        "d5 is not empty",
    );
    assert_contained("ctx.game.query('end_special_rule')", "is a command");
}

#[test]
fn a_failure_leaves_the_game_unchanged_by_that_hook() {
    // The command ran on a copy: the failing hook's commands do not count.
    let message = contained("ctx.game.command('end_special_rule') error('after the command')");
    assert!(message.contains("after the command"), "{message}");
    let script = Script::load(
        "esc.lua",
        &escape_script("ctx.game.command('end_special_rule') error('x')"),
        limits(),
    )
    .unwrap();
    let runtime = runtime();
    let mut engine =
        VariantEngine::new(Box::new(builtin_plugin(&runtime, "siege")), vec![script]).unwrap();
    let game = engine.create(&Setup::new(2, 1)).unwrap();
    engine.apply(game, 1, "lord-d6").unwrap();
    let applies = engine
        .operation(game, "special_rule_applies", &serde_json::json!(null))
        .unwrap();
    assert_eq!(applies, serde_json::json!(true));
}

#[test]
fn load_errors_name_the_line() {
    let err = Script::load("bad.lua", "return {\n id = 'x',\n oops oops\n}", limits())
        .unwrap_err()
        .to_string();
    assert!(err.contains("bad.lua:3"), "{err}");
    let err = Script::load("bad.lua", "local x = 1\nerror('boom')", limits())
        .unwrap_err()
        .to_string();
    assert!(err.contains("bad.lua:2: boom"), "{err}");
    let err = Script::load("bad.lua", "return 42", limits())
        .unwrap_err()
        .to_string();
    assert!(err.contains("must `return` a table"), "{err}");
    let err = Script::load(
        "bad.lua",
        "return { id = 'x', name = 'x', description = 'x', game = 'siege', version = '1', after_acton = function() end }",
        limits(),
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("after_acton"), "{err}");
    let err = Script::load("bad.lua", "while true do end", limits())
        .unwrap_err()
        .to_string();
    assert!(err.contains("budget"), "{err}");
}

#[test]
fn string_library_work_is_charged_to_the_budget() {
    // Each call is one interpreter step, but reads 1 MB: 1,000 of them would take seconds
    // if only the steps were counted.
    assert_contained(
        "local big = string.rep('a', 1000000) .. 'b'\n\
         for i = 1, 1000 do local at = string.find(big, 'ab', 1, true) end",
        "instruction budget",
    );
    assert_contained(
        "local big = string.rep('x', 300000)\n\
         for i = 1, 1000 do local s = big:sub(2) end",
        "instruction budget",
    );
}

#[test]
fn a_hook_that_runs_past_the_time_limit_is_stopped() {
    let limits = VariantLimits {
        budget: u64::MAX,
        deadline: std::time::Duration::from_millis(50),
        ..VariantLimits::default()
    };
    let script = Script::load(
        "slow.lua",
        &escape_script("local n = 0 while true do n = n + 1 end"),
        limits,
    )
    .unwrap();
    let runtime = runtime();
    let mut engine =
        VariantEngine::new(Box::new(builtin_plugin(&runtime, "siege")), vec![script]).unwrap();
    let game = engine.create(&Setup::new(2, 1)).unwrap();
    let disabled = engine.disabled(game);
    assert_eq!(disabled.len(), 1);
    assert!(
        disabled[0].1.contains("time limit of 50 ms"),
        "{}",
        disabled[0].1
    );
}

#[test]
fn tostring_of_a_table_or_function_shows_no_memory_address() {
    // An address differs from one run to the next: kept in ctx.state it would make a
    // replayed game differ from the one played.
    let text = "return { id = 'addr', name = 'A', description = 'x', game = 'siege', version = '1',\n\
                setup = function(ctx)\n\
                  ctx.state.t = tostring({})\n\
                  ctx.state.f = tostring(print)\n\
                  ctx.state.s = string.format('%s|%s', {}, 42)\n\
                  ctx.state.own = tostring(setmetatable({}, { __tostring = function() return 'mine' end }))\n\
                end }";
    let script = Script::load("addr.lua", text, limits()).unwrap();
    let runtime = runtime();
    let mut engine =
        VariantEngine::new(Box::new(builtin_plugin(&runtime, "siege")), vec![script]).unwrap();
    let game = engine.create(&Setup::new(2, 1)).unwrap();
    assert!(
        engine.disabled(game).is_empty(),
        "{:?}",
        engine.disabled(game)
    );
    let state = engine.script_state(game, "addr").unwrap();
    assert_eq!(state["t"], "table");
    assert_eq!(state["f"], "function");
    assert_eq!(state["s"], "table|42");
    assert_eq!(state["own"], "mine");
}

#[test]
fn escape_sequences_in_script_texts_are_shown_not_obeyed() {
    // Clear the screen, retitle the window, write the clipboard (OSC 52): in a log line and
    // in an action's label.
    let text = "return { id = 'esc', name = 'E', description = 'x', game = 'siege', version = '1',\n\
                filter_actions = function(ctx, seat, actions)\n\
                  local out = {}\n\
                  for i, a in ipairs(actions) do out[i] = { id = a.id, label = '\\27]0;pwned\\7' .. a.id } end\n\
                  return out\n\
                end,\n\
                after_action = function(ctx, seat, action, events)\n\
                  ctx.event('\\27[2J\\27]52;c;ZXZpbA==\\7moved')\n\
                end }";
    let script = Script::load("esc.lua", text, limits()).unwrap();
    let runtime = runtime();
    let mut engine =
        VariantEngine::new(Box::new(builtin_plugin(&runtime, "siege")), vec![script]).unwrap();
    let game = engine.create(&Setup::new(2, 1)).unwrap();
    let actions = engine.legal_actions(game, 1).unwrap();
    let label = &actions[0].label.en;
    assert!(
        !label.contains('\u{1b}') && !label.contains('\u{7}'),
        "{label:?}"
    );
    assert!(label.starts_with("␛]0;pwned␇"), "{label:?}");
    let events = engine.apply(game, 1, &actions[0].id).unwrap();
    let logged = &events.last().unwrap().text.fr;
    assert_eq!(logged, "␛[2J␛]52;c;ZXZpbA==␇moved");
}

#[test]
fn pairs_and_next_refuse_a_table_whose_keys_are_tables_or_functions() {
    // Luau places such keys by their memory address: the order would change from run to run,
    // and with it a replayed game.
    for body in [
        "local t = { [{}] = 1, a = 2 }\nfor k in pairs(t) do end",
        "local t = { [print] = 1 }\nlocal k = next(t)",
    ] {
        assert_contained(body, "as a key");
    }
}

#[test]
fn pairs_over_strings_and_numbers_gives_the_same_order_in_every_lua_state() {
    // The order follows what was put in and taken out, never the addresses: two scripts in two
    // Lua states (as in a game played and the same game replayed) walk the same order.
    let text =
        "return { id = 'order', name = 'O', description = 'x', game = 'siege', version = '1',\n\
                setup = function(ctx)\n\
                  local junk = {}\n\
                  for i = 1, ctx.random(200) do junk[i] = {} end\n\
                  local t = {}\n\
                  for i = 1, 60 do t['k' .. (i * 7919 % 101)] = i; t[i * 0.5] = i end\n\
                  t.k3 = nil; t[true] = 0\n\
                  local order = {}\n\
                  for k in pairs(t) do order[#order + 1] = tostring(k) end\n\
                  ctx.state.order = table.concat(order, ',')\n\
                end }";
    let runtime = runtime();
    let mut orders = Vec::new();
    for seed in [1, 2] {
        let script = Script::load("order.lua", text, limits()).unwrap();
        let mut engine =
            VariantEngine::new(Box::new(builtin_plugin(&runtime, "siege")), vec![script]).unwrap();
        let game = engine.create(&Setup::new(2, seed)).unwrap();
        assert!(
            engine.disabled(game).is_empty(),
            "{:?}",
            engine.disabled(game)
        );
        orders.push(engine.script_state(game, "order").unwrap()["order"].clone());
    }
    assert_eq!(orders[0].as_str().unwrap().split(',').count(), 120);
    assert_eq!(orders[0], orders[1]);
}

/// A house rule keeps nothing between two calls but `ctx.state`: a counter in a local table
/// at the top of the file, and one in a global, start again at every call, while the same
/// count in `ctx.state` goes on (and is saved with the game).
#[test]
fn a_house_rule_remembers_only_its_ctx_state_between_calls() {
    let text = r#"
local seen = { n = 0 }
return { id = "memoire", name = "Memory", description = "x", game = "siege", version = "1",
  after_action = function(ctx, seat, action)
    seen.n = seen.n + 1
    calls = (calls or 0) + 1
    ctx.state.n = (ctx.state.n or 0) + 1
    ctx.event(string.format("local %d global %d state %d", seen.n, calls, ctx.state.n))
  end }
"#;
    let runtime = runtime();
    let plugin = builtin_plugin(&runtime, "siege");
    let script = Script::load("memoire.lua", text, VariantLimits::default()).unwrap();
    let mut engine = VariantEngine::new(Box::new(plugin), vec![script]).unwrap();
    let game = engine.create(&Setup::new(2, 3)).unwrap();
    let mut rng = GameRng::new(3);
    let mut told = Vec::new();
    for _ in 0..4 {
        let Status::ToAct { seats } = engine.status(game).unwrap() else {
            break;
        };
        let actions = engine.legal_actions(game, seats[0]).unwrap();
        let id = actions[rng.below(actions.len())].id.clone();
        let events = engine.apply(game, seats[0], &id).unwrap();
        told.extend(
            events
                .into_iter()
                .map(|e| e.text.en)
                .filter(|t| t.starts_with("local")),
        );
    }
    assert_eq!(
        told,
        [
            "local 1 global 1 state 1",
            "local 1 global 1 state 2",
            "local 1 global 1 state 3",
            "local 1 global 1 state 4"
        ]
    );
}

/// A Siège house rule that relabels every move with 1 MiB of text and tells `events` events
/// of 1 KiB after each move.
fn chatterbox(events: u32) -> VariantEngine {
    let text = format!(
        "local big = string.rep(\"x\", 1048576)\n\
         return {{ id = \"bavard\", name = \"Bavard\", description = \"x\", game = \"siege\", version = \"1\",\n\
         filter_actions = function(ctx, seat, actions)\n\
           local out = {{}}\n\
           for i, a in ipairs(actions) do out[i] = {{ id = a.id, label = big }} end\n\
           return out\n\
         end,\n\
         after_action = function(ctx, seat, action, events)\n\
           for i = 1, {events} do ctx.event(string.rep(\"y\", 1024)) end\n\
         end }}\n"
    );
    let script = Script::load("bavard.lua", &text, VariantLimits::default()).unwrap();
    let runtime = runtime();
    let plugin = builtin_plugin(&runtime, "siege");
    VariantEngine::new(Box::new(plugin), vec![script]).unwrap()
}

fn first_to_act(engine: &mut VariantEngine, game: veillee_sdk::Handle) -> veillee_sdk::Seat {
    match engine.status(game).unwrap() {
        Status::ToAct { seats } => seats[0],
        Status::Finished { .. } => panic!("the game has just begun"),
    }
}

#[test]
fn a_house_rules_labels_and_events_reach_no_one_longer_than_the_one_text_limit() {
    let mut engine = chatterbox(100);
    let game = engine.create(&Setup::new(2, 1)).unwrap();
    let seat = first_to_act(&mut engine, game);
    let actions = engine.legal_actions(game, seat).unwrap();
    assert!(!actions.is_empty());
    for action in &actions {
        assert_eq!(
            action.label.en.chars().count(),
            veillee_sdk::MAX_TEXT_CHARS + 1
        );
        assert!(action.label.en.ends_with('…'), "the cut is marked");
    }
    let events = engine.apply(game, seat, &actions[0].id).unwrap();
    let told: Vec<_> = events
        .iter()
        .filter(|e| e.text.en.starts_with('y'))
        .collect();
    assert_eq!(told.len(), 100, "every event is told");
    assert!(told
        .iter()
        .all(|e| e.text.en.chars().count() == veillee_sdk::MAX_TEXT_CHARS + 1));
    assert!(engine.disabled(game).is_empty());
}

#[test]
fn a_house_rule_telling_thousands_of_events_a_move_is_switched_off_naming_the_bound() {
    let mut engine = chatterbox(5000);
    let game = engine.create(&Setup::new(2, 1)).unwrap();
    let seat = first_to_act(&mut engine, game);
    let first = engine.legal_actions(game, seat).unwrap()[0].id.clone();
    let events = engine.apply(game, seat, &first).unwrap();
    assert!(
        events.len() <= veillee_sdk::MAX_EVENTS_PER_MOVE,
        "{}",
        events.len()
    );
    let disabled = engine.disabled(game);
    assert_eq!(disabled.len(), 1, "switched off");
    assert!(
        disabled[0]
            .1
            .contains("ctx.event was called more than 256 times in one hook call"),
        "{}",
        disabled[0].1
    );
    // The game goes on under the plain rules.
    let Status::ToAct { seats } = engine.status(game).unwrap() else {
        panic!("the game goes on")
    };
    assert!(!engine.legal_actions(game, seats[0]).unwrap().is_empty());
}
