//! The conformance kit over every built-in game, through the real wasm plugins, with the
//! native build as the reference where there is one.

use veillee_runtime::conformance::{check, CheckConfig};
use veillee_runtime::launch::with_own_scripts;
use veillee_runtime::native::native_engine;
use veillee_tests::{builtin_plugin, runtime};

#[test]
fn every_builtin_game_passes_the_conformance_kit() {
    let runtime = runtime();
    assert!(!veillee_runtime::builtin::BUILTIN_PLUGINS.is_empty());
    for (id, _) in veillee_runtime::builtin::BUILTIN_PLUGINS {
        // Each game as it is played: with its own scripts (Castel's cards), on both builds.
        let mut plugin = with_own_scripts(Box::new(builtin_plugin(&runtime, id)), None).unwrap();
        let mut native = native_engine(id).map(|n| with_own_scripts(n, None).unwrap());
        let reference = native.as_deref_mut();
        // Some games run to thousands of actions: two games per player count here (every
        // step checked in depth at first, then one in 16); `veillee check` goes further, and
        // `.ci/run` runs it in full for every built-in game.
        let config = CheckConfig {
            games: 2,
            ..CheckConfig::default()
        };
        let report = check(&mut *plugin, reference, &config);
        assert!(
            report.passed(),
            "{id} failed the conformance kit:\n{}",
            report.failures.join("\n")
        );
        assert!(report.moves > 0, "{id}: no move was checked");
    }
}

#[test]
fn every_builtin_game_has_a_native_reference() {
    for (id, _) in veillee_runtime::builtin::BUILTIN_PLUGINS {
        assert!(
            native_engine(id).is_some(),
            "{id} has no native build registered in host/src/native.rs"
        );
    }
}

/// `veillee check castel` found leaks at 4 players (seeds 11 and 14). Two causes: the copy
/// re-drawn for a viewer mid-choice re-ran the card's hook against re-dealt hands (see
/// `castel_redrawn_mid_question_asks_the_same_seats`), and `cards.lua` told the table what a
/// hand held — a pick among one's own hand asked only when it held two kinds or more, and the
/// Courtisane's event naming the hand drawn from, a choice its placer makes in secret. With
/// the `cards.lua` of before, this test fails on the Courtisane's event (seed 11, move 14).
#[test]
fn castel_redrawn_mid_choice_shows_each_viewer_the_same_game() {
    let native = native_engine("castel").unwrap();
    let mut engine = with_own_scripts(native, None).unwrap();
    for (players, seed) in [(4, 11), (4, 14)] {
        let config = CheckConfig {
            games: 1,
            seed,
            players: Some(players),
            ..CheckConfig::default()
        };
        let report = check(&mut *engine, None, &config);
        assert!(
            report.passed(),
            "castel, {players} players, seed {seed}:\n{}",
            report.failures.join("\n")
        );
    }
}

/// A house rule that asks, after every placement, the placer which of their hand's rampart
/// cards to "show" — only when their hand holds one — then always whether to keep the pawn
/// on the card placed, and applies the answer. A copy re-drawn for another viewer while the
/// second question is pending re-deals the placer's hand: before, the hook re-ran there with
/// the first answer given to the second question when the new hand held no rampart card, so
/// it ended, took the pawn off, and the viewer saw the board change (the castel leaks of
/// `veillee check` at 4 and 5 players had this cause, through the Alchimiste's questions).
const ASKS_BY_HAND: &str = r#"
return {
  id = "indiscret",
  name = { fr = "Indiscret", en = "Nosy" },
  description = { fr = "", en = "" },
  game = "castel",
  version = "1.0.0",
  after_action = function(ctx, seat, action, events)
    if string.sub(action.id, 1, 6) ~= "place-" or ctx.game.status().state == "finished" then
      return
    end
    local placed = ctx.game.query("turn").last_placed
    local ramparts = {}
    for _, id in ipairs(ctx.game.query("hand", { seat = seat })) do
      if ctx.game.query("card", { card = id }).zone == "rampart" then
        ramparts[#ramparts + 1] = { fr = "Montrer " .. id, en = "Show " .. id }
      end
    end
    if #ramparts > 0 then
      ctx.choose(seat, ramparts, { fr = "Quelle carte montrer ?", en = "Which card to show?" })
    end
    local keep = ctx.choose(seat, { { fr = "Garder", en = "Keep" }, { fr = "Retirer", en = "Take off" } },
      { fr = "Garder le pion ?", en = "Keep the pawn?" })
    if keep == 2 and placed ~= nil then
      ctx.game.command("set_pawn", { card = placed, seat = nil })
    end
  end,
}
"#;

#[test]
fn castel_redrawn_mid_question_asks_the_same_seats() {
    use veillee_runtime::variants::{library, Script, VariantEngine, VariantLimits};
    let own = library::game_scripts("castel", None);
    let mut scripts: Vec<Script> = own
        .iter()
        .map(|s| s.load(VariantLimits::default()).unwrap())
        .collect();
    scripts.push(Script::load("indiscret.lua", ASKS_BY_HAND, VariantLimits::default()).unwrap());
    let mut engine = VariantEngine::new(native_engine("castel").unwrap(), scripts).unwrap();
    let config = CheckConfig {
        games: 2,
        players: Some(4),
        deep_steps: 60,
        ..CheckConfig::default()
    };
    let report = check(&mut engine, None, &config);
    assert!(report.passed(), "{}", report.failures.join("\n"));
}
