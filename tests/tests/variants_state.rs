//! `ctx.state` keeps every Lua table a script puts there exactly — through hook calls and
//! through a save and a load (a resumed session) — or refuses it at once, naming the value.
//! Real Luau, the native Siège engine.

use veillee_runtime::engine::GameEngine;
use veillee_runtime::native::native_engine;
use veillee_runtime::variants::{Script, VariantEngine, VariantLimits};
use veillee_sdk::{Handle, Setup};

/// A script that stores `tables` in `setup` and, in each `after_action`, checks them with
/// `check` (Lua returning true or a complaint), recording the verdict in `ctx.state.verdict`.
fn keeper(store: &str, check: &str) -> Script {
    let text = format!(
        r#"
local function same(a, b)
  if type(a) ~= type(b) then return false end
  if type(a) ~= "table" then return a == b end
  for k, v in pairs(a) do if not same(v, b[k]) then return false end end
  for k, v in pairs(b) do if not same(v, a[k]) then return false end end
  return true
end
return {{
  id = "keeper", name = "Keeper", description = "keeps tables", game = "siege", version = "1",
  setup = function(ctx)
    {store}
  end,
  after_action = function(ctx, seat, action, events)
    local ok, why = (function() {check} end)()
    ctx.state.verdict = ok and "kept" or ("lost: " .. tostring(why))
  end,
}}
"#
    );
    Script::load("keeper.lua", &text, VariantLimits::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn engine(script: Script) -> VariantEngine {
    VariantEngine::new(native_engine("siege").unwrap(), vec![script]).unwrap()
}

/// Plays the attacker's first legal move and returns the script's verdict.
fn verdict_after_a_move(engine: &mut VariantEngine, game: Handle) -> String {
    let first = engine.legal_actions(game, 1).unwrap()[0].id.clone();
    engine.apply(game, 1, &first).unwrap();
    assert!(
        engine.disabled(game).is_empty(),
        "switched off: {:?}",
        engine.disabled(game)
    );
    engine.script_state(game, "keeper").unwrap()["verdict"]
        .as_str()
        .unwrap_or("no verdict")
        .to_string()
}

const STORE: &str = r#"
    ctx.state.seats = { [0] = 10, [1] = 11, [2] = 12 }
    ctx.state.mixed = { "a", "b", name = "Chevalier", [10] = "far" }
    ctx.state.sparse = { [1] = "one", [3] = "three", [100] = "hundred" }
    ctx.state.numeric = { [1.5] = "half", [-2] = "minus two", [true] = "yes" }
    ctx.state.list = { 1, 2, { 3, { 4 } } }
    ctx.state.empty = {}
"#;

const CHECK: &str = r#"
    local s = ctx.state
    if not same(s.seats, { [0] = 10, [1] = 11, [2] = 12 }) then return false, "seats" end
    if not same(s.mixed, { "a", "b", name = "Chevalier", [10] = "far" }) then return false, "mixed" end
    if not same(s.sparse, { [1] = "one", [3] = "three", [100] = "hundred" }) then return false, "sparse" end
    if not same(s.numeric, { [1.5] = "half", [-2] = "minus two", [true] = "yes" }) then return false, "numeric" end
    if not same(s.list, { 1, 2, { 3, { 4 } } }) then return false, "list" end
    if next(s.empty) ~= nil then return false, "empty" end
    return true
"#;

#[test]
fn tables_with_seat_zero_holes_and_mixed_keys_are_kept_between_hooks() {
    let mut engine = engine(keeper(STORE, CHECK));
    let game = engine.create(&Setup::new(2, 7)).unwrap();
    assert_eq!(verdict_after_a_move(&mut engine, game), "kept");
}

#[test]
fn tables_are_kept_through_a_save_and_a_load() {
    let mut engine = engine(keeper(STORE, CHECK));
    let game = engine.create(&Setup::new(2, 7)).unwrap();
    let saved = engine.save(game).unwrap();
    let resumed = engine.load(&saved).unwrap();
    assert_eq!(verdict_after_a_move(&mut engine, resumed), "kept");
    // The same tables always save to the same bytes (keys in a fixed order).
    let again = engine.load(&saved).unwrap();
    assert_eq!(engine.save(again).unwrap(), saved);
}

/// Sets `ctx.state` in setup and returns the message the script was switched off with.
fn refused(store: &str) -> String {
    let mut engine = engine(keeper(store, "return true"));
    let game = engine.create(&Setup::new(2, 7)).unwrap();
    let disabled = engine.disabled(game);
    assert_eq!(disabled.len(), 1, "{store}: not refused");
    disabled[0].1.clone()
}

#[test]
fn what_cannot_be_saved_is_refused_when_set_naming_the_value() {
    let message = refused("ctx.state.by_table = {}; ctx.state.by_table[{}] = 1");
    assert!(
        message.contains("ctx.state.by_table has a table as a key"),
        "{message}"
    );
    let message = refused("ctx.state.f = { handler = function() end }");
    assert!(
        message.contains("ctx.state.f.handler is a function"),
        "{message}"
    );
    let message = refused("ctx.state.x = { [2] = 0/0 }");
    assert!(message.contains("ctx.state.x[2] is NaN"), "{message}");
}

#[test]
fn nesting_deeper_than_can_be_saved_is_refused_when_set() {
    let message = refused(
        "local t = {} local top = t for i = 1, 40 do t.next = {} t = t.next end ctx.state.deep = top",
    );
    assert!(message.contains("deeper than 32 levels"), "{message}");
    let message = refused("local t = {} t.me = t ctx.state.loop = t");
    assert!(message.contains("contains itself"), "{message}");
}
