//! A house rule cannot show a phone another seat's secret. The hostile rule of
//! `tests/fixtures/variants/voyeur.lua` reads the black pawns' hand after each of their moves
//! and puts it in a question to the beige pawns' phone and in an event for the log; it also
//! tries to remember the black pawns' list of moves between calls.
//!
//! The proof re-draws the hidden part: two games of Castel (the wasm plugin, its cards'
//! script and the rule, through the real engine) that the beige pawns cannot tell apart —
//! the second one's hands and piles re-drawn for them — but where the black pawns hold other
//! cards. The black pawns play the same move in both; what the beige pawns' phone is sent
//! (view, questions, log) must be the very same.

use serde_json::{json, Value};
use veillee_room::table::{move_lines, seat_state, TableInfo};
use veillee_runtime::engine::GameEngine;
use veillee_runtime::plugin::Runtime;
use veillee_runtime::variants::{library, Script, VariantEngine, VariantLimits};
use veillee_sdk::{Handle, Seat, Setup, Status, Text};

const VOYEUR: &str = include_str!("../../../tests/fixtures/variants/voyeur.lua");
const BLACK: Seat = 0;
const BEIGE: Seat = 1;

/// Castel as the launcher plays it, with the hostile rule on top.
fn castel_with_the_voyeur() -> VariantEngine {
    let runtime = Runtime::new(None).expect("the plugin runtime starts");
    let bytes = veillee_runtime::builtin::plugin_bytes("castel").expect("castel is built in");
    let plugin = runtime.load_builtin("castel", bytes).expect("castel loads");
    let mut scripts: Vec<Script> = library::game_scripts("castel", None)
        .iter()
        .map(|s| s.load(VariantLimits::default()).expect("the cards load"))
        .collect();
    scripts.push(
        Script::load("voyeur.lua", VOYEUR, VariantLimits::default()).expect("the rule loads"),
    );
    VariantEngine::new(Box::new(plugin), scripts).expect("the scripts run")
}

fn hand(engine: &mut VariantEngine, game: Handle, seat: Seat) -> Value {
    engine
        .operation(game, "hand", &json!({ "seat": seat }))
        .expect("castel answers `hand`")
}

/// The black pawns play `id`, then the beige pawns answer the rule's question (its last
/// option); what the beige pawns' phone is sent after each, as JSON.
fn beige_phone_after(engine: &mut VariantEngine, game: Handle, id: &str) -> [Value; 2] {
    let mut log = Vec::new();
    let asked = play(engine, game, BLACK, id, &mut log);
    let answer = asked["actions"]
        .as_array()
        .and_then(|a| a.last())
        .and_then(|a| a["id"].as_str())
        .filter(|id| id.starts_with("choose"))
        .unwrap_or_else(|| panic!("beige is asked the rule's question: {asked}"))
        .to_string();
    let told = play(engine, game, BEIGE, &answer, &mut log);
    [asked, told]
}

/// `seat` plays `id`; its lines join `log`; what the beige pawns' phone is then sent.
fn play(
    engine: &mut VariantEngine,
    game: Handle,
    seat: Seat,
    id: &str,
    log: &mut Vec<veillee_room::table::LogLine>,
) -> Value {
    let action = engine
        .legal_actions(game, seat)
        .expect("the seat's moves")
        .into_iter()
        .find(|a| a.id == id)
        .expect("the move is legal in both games");
    let events = engine.apply(game, seat, id).expect("the move is played");
    log.extend(move_lines(
        ["Black", "Beige"][usize::from(seat)],
        seat,
        &action,
        &events,
    ));
    let info = TableInfo {
        game: Text::same("Castel"),
        players: vec!["Black".into(), "Beige".into()],
        moves: 1,
    };
    let state = seat_state(engine, game, BEIGE, &info, log).expect("beige's state");
    serde_json::to_value(state).expect("a state is JSON")
}

fn log_texts(state: &Value) -> Vec<String> {
    state["log"]
        .as_array()
        .expect("a log")
        .iter()
        .map(|line| line["text"]["en"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn a_house_rule_reading_a_hand_sends_the_other_phone_the_same_whatever_that_hand_holds() {
    let mut engine = castel_with_the_voyeur();
    let mut compared = 0;
    for seed in 1..=6u64 {
        let game = engine.create(&Setup::new(2, seed)).expect("a game");
        if engine.status(game).expect("status") != (Status::ToAct { seats: vec![BLACK] }) {
            continue;
        }
        let other = engine
            .redraw_hidden(game, Some(BEIGE), seed.wrapping_mul(977))
            .expect("a re-draw for beige");
        // Only a re-draw that changed the black pawns' hand proves anything.
        if hand(&mut engine, game, BLACK) == hand(&mut engine, other, BLACK) {
            continue;
        }
        let truth = beige_phone_after(&mut engine, game, "draw");
        let redrawn = beige_phone_after(&mut engine, other, "draw");
        // The rule did run and did show something, in its question and in its events.
        let texts = log_texts(&truth[1]);
        assert!(
            texts.iter().any(|t| t.starts_with("hand of black: ")),
            "the rule's event is in the log: {texts:?}"
        );
        // Nothing survives between two calls of a house rule but its `ctx.state`.
        assert!(
            texts.iter().any(|t| t == "remembered:  / nil"),
            "the rule remembered nothing of black's moves: {texts:?}"
        );
        assert_eq!(
            truth, redrawn,
            "seed {seed}: beige's phone is sent something that depends on black's hand"
        );
        compared += 1;
    }
    assert!(compared >= 3, "only {compared} games compared");
}
