//! Bots through the real wasm plugins, real Lua and real sled: a bot never peeks —
//! in roc noir (hidden trapdoors and portrait piles, searched inside the plugin) and in Castel
//! (hidden hands and piles, every card effect in Lua, searched through the engine) it chooses
//! the same move on the true game and on copies where everything its seat cannot see was
//! re-drawn; its moves replay exactly from the seed; a plugin built before the search (ABI
//! 1.3) still gets a searching bot.

use std::path::Path;

use veillee_runtime::bot::{self, Searched};
use veillee_runtime::engine::search::search_through;
use veillee_runtime::engine::GameEngine;
use veillee_runtime::store::model::BotLevel;
use veillee_runtime::variants::{library, Script, VariantEngine, VariantLimits};
use veillee_sdk::search::{SearchAnswer, SearchRequest};
use veillee_sdk::{GameRng, Handle, Seat, Setup, Status};
use veillee_tests::{builtin_plugin, runtime, temp_catalog};

/// Castel as it is played: the wasm plugin with its cards script.
fn castel() -> VariantEngine {
    let cards = library::builtin(Some("castel"))
        .into_iter()
        .find(|s| s.file == "cards.lua")
        .expect("cards.lua is built in");
    let script = Script::load(&cards.file, &cards.text, VariantLimits::default()).unwrap();
    let plugin = builtin_plugin(&runtime(), "castel");
    VariantEngine::new(Box::new(plugin), vec![script]).unwrap()
}

/// Plays `moves` random moves of a new game (seed `seed`), stopping early if it ends.
fn random_position(engine: &mut dyn GameEngine, players: u8, seed: u64, moves: u32) -> Handle {
    let game = engine.create(&Setup::new(players, seed)).unwrap();
    let mut rng = GameRng::new(seed ^ 0xfeed);
    for _ in 0..moves {
        let Status::ToAct { seats } = engine.status(game).unwrap() else {
            break;
        };
        let seat = seats[rng.below(seats.len())];
        let actions = engine.legal_actions(game, seat).unwrap();
        let id = actions[rng.below(actions.len())].id.clone();
        engine.apply(game, seat, &id).unwrap();
    }
    game
}

/// The search's whole answer for `seat` (its move, visits and value): the plugin's own
/// search when it has one, else the search through the engine.
fn answer(
    engine: &mut dyn GameEngine,
    game: Handle,
    seat: Seat,
    request: &SearchRequest,
) -> SearchAnswer {
    match engine.search(game, seat, request).unwrap() {
        Some(answer) => answer,
        None => search_through(engine, game, seat, request).unwrap(),
    }
}

/// At positions after each of `depths` random moves: the bot of the seat to act chooses the
/// same action on the game and on three copies re-drawn for that seat — with the very same
/// visits and value, since the search only ever sees worlds re-drawn from what the seat
/// knows — and the copies do differ from the game (so a bot that read the hidden state could
/// have chosen otherwise). Returns how the decisions were made.
fn same_choice_whatever_is_hidden(
    engine: &mut dyn GameEngine,
    players: u8,
    level: BotLevel,
    depths: &[u32],
) -> Vec<Searched> {
    let mut searched = Vec::new();
    for (i, &depth) in depths.iter().enumerate() {
        let seed = 40 + i as u64;
        let game = random_position(engine, players, seed, depth);
        let Some(&seat) = engine.status(game).unwrap().seats().first() else {
            engine.drop_game(game);
            continue;
        };
        let decision = bot::decision_seed(seed, depth, seat);
        let truth = bot::choose(engine, game, seat, players, level, decision, &[])
            .unwrap()
            .expect("a legal move");
        let request = SearchRequest::new(64, 8, decision, players);
        let full = answer(engine, game, seat, &request);
        let saved = engine.save(game).unwrap();
        let mut differed = false;
        for redraw in 0..3 {
            let copy = engine
                .redraw_hidden(game, Some(seat), 1000 + redraw)
                .unwrap();
            differed |= engine.save(copy).unwrap() != saved;
            // What the search stands on: re-drawing depends only on what the seat knows, so
            // the game and its copy re-drawn with one seed are the very same world.
            let (a, b) = (
                engine.redraw_hidden(game, Some(seat), 7).unwrap(),
                engine.redraw_hidden(copy, Some(seat), 7).unwrap(),
            );
            assert!(
                engine.save(a).unwrap() == engine.save(b).unwrap(),
                "seed {seed}, after {depth} moves: a re-draw for seat {seat} depends on the hidden state it replaces"
            );
            engine.drop_game(a);
            engine.drop_game(b);
            let sampled = bot::choose(engine, copy, seat, players, level, decision, &[])
                .unwrap()
                .expect("a legal move");
            let where_ = format!("seed {seed}, after {depth} moves, seat {seat}");
            assert_eq!(
                truth.action.id, sampled.action.id,
                "{where_}: the bot chose differently once what it cannot see was re-drawn"
            );
            assert_eq!(
                full,
                answer(engine, copy, seat, &request),
                "{where_}: the search saw other worlds once what the seat cannot see was re-drawn"
            );
            engine.drop_game(copy);
        }
        assert!(
            differed,
            "seed {seed}, after {depth} moves: the re-draws changed nothing, the test proves nothing"
        );
        searched.push(truth.searched);
        engine.drop_game(game);
    }
    searched
}

#[test]
fn a_roc_noir_bot_chooses_the_same_whatever_the_trapdoors_and_piles_hide() {
    let mut engine = builtin_plugin(&runtime(), "roc-noir");
    let searched =
        same_choice_whatever_is_hidden(&mut engine, 2, BotLevel::Normal, &[3, 11, 40, 90, 160]);
    assert!(
        searched.contains(&Searched::Plugin),
        "some decision was searched inside the plugin: {searched:?}"
    );
}

/// `strong` searches on two cores: two trees side by side, each from a copy re-drawn for
/// its seat, their root statistics added up; it chooses the same whatever is hidden too.
#[test]
fn a_strong_roc_noir_bot_on_two_cores_chooses_the_same_whatever_is_hidden() {
    let mut engine = builtin_plugin(&runtime(), "roc-noir");
    let searched = same_choice_whatever_is_hidden(&mut engine, 2, BotLevel::Strong, &[3, 40, 160]);
    assert!(searched.contains(&Searched::Plugin), "{searched:?}");
    let game = random_position(&mut engine, 2, 3, 40);
    let seat = engine.status(game).unwrap().seats()[0];
    let chosen = bot::choose(&mut engine, game, seat, 2, BotLevel::Strong, 9, &[])
        .unwrap()
        .expect("a legal move");
    let lanes = bot::Effort::of(BotLevel::Strong, true, true).unwrap();
    if chosen.searched == Searched::Plugin {
        assert_eq!(chosen.iterations, lanes.iterations * u32::from(lanes.lanes));
    }
}

/// Searches run side by side (one plugin instance per lane, each on its own thread) answer
/// exactly what they answer one after the other: more cores make a bot sooner, never another.
#[test]
fn searches_side_by_side_answer_as_one_after_the_other() {
    for id in ["batisseurs", "roc-noir"] {
        let mut engine = builtin_plugin(&runtime(), id);
        let game = random_position(&mut engine, 2, 9, 12);
        let seat = engine.status(game).unwrap().seats()[0];
        let requests: Vec<SearchRequest> = (0..3)
            .map(|lane| SearchRequest::new(300, 8, 100 + lane, 2))
            .collect();
        let side_by_side = engine.search_lanes(game, seat, &requests).unwrap().unwrap();
        let one_by_one: Vec<SearchAnswer> = requests
            .iter()
            .map(|r| engine.search(game, seat, r).unwrap().unwrap())
            .collect();
        assert_eq!(side_by_side, one_by_one, "{id}");
        assert!(
            side_by_side.windows(2).any(|w| w[0].root != w[1].root),
            "{id}: the lanes' seeds should give different trees"
        );
        // The game itself is untouched by the helpers' copies.
        assert!(engine.legal_actions(game, seat).is_ok());
    }
}

#[test]
fn a_castel_bot_chooses_the_same_whatever_the_other_hands_and_piles_hide() {
    let mut engine = castel();
    let searched =
        same_choice_whatever_is_hidden(&mut engine, 2, BotLevel::Easy, &[0, 5, 16, 33, 60]);
    // cards.lua concerns every placement: the search goes through the engine, cards in force.
    assert!(
        searched.contains(&Searched::Engine),
        "some decision was searched through the engine: {searched:?}"
    );
    assert!(!searched.contains(&Searched::Plugin), "{searched:?}");
}

#[test]
fn the_same_seed_gives_the_same_bot_moves() {
    let mut engine = builtin_plugin(&runtime(), "siege");
    let play = |engine: &mut dyn GameEngine| {
        let game = engine.create(&Setup::new(2, 5)).unwrap();
        let mut ids = Vec::new();
        for moves in 0..12 {
            let Some(&seat) = engine.status(game).unwrap().seats().first() else {
                break;
            };
            let seed = bot::decision_seed(5, moves, seat);
            let chosen = bot::choose(engine, game, seat, 2, BotLevel::Normal, seed, &[])
                .unwrap()
                .expect("a legal move");
            engine.apply(game, seat, &chosen.action.id).unwrap();
            ids.push(chosen.action.id);
        }
        engine.drop_game(game);
        ids
    };
    let first = play(&mut engine);
    assert_eq!(first, play(&mut engine));
    assert!(
        first[0].starts_with("lord-"),
        "the defender places the lord first: {first:?}"
    );
}

#[test]
fn a_plugin_older_than_the_search_gets_a_bot_searching_through_the_engine() {
    let fixture = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/abi-1.3/nim.wasm"
    ));
    let (mut catalog, _dir) = temp_catalog();
    catalog.install(fixture).expect("the 1.3 plugin installs");
    let mut engine = catalog.engine("nim").unwrap();
    let game = engine.create(&Setup::new(2, 1)).unwrap();
    let seat: Seat = engine.status(game).unwrap().seats()[0];
    let seed = bot::decision_seed(1, 0, seat);
    let chosen = bot::choose(&mut engine, game, seat, 2, BotLevel::Normal, seed, &[])
        .unwrap()
        .expect("a legal move");
    let legal = engine.legal_actions(game, seat).unwrap();
    assert!(legal.iter().any(|a| a.id == chosen.action.id));
    assert_eq!(chosen.searched, Searched::Engine);
    assert!(chosen.iterations > 0);
}

/// Roc noir's wandering position (its unit tests' `wandering.json`: a native `normal`-vs-
/// `normal` game in which Red's knight stepped back and forth for 60 decisions and more,
/// RN-T2 setting no limit) under a house rule that watches every step, so that the bot is
/// searched through the engine: `strip` forgets the knight's trail, as the bot did before it
/// kept one. Returns the bot's decisions until the move ends, at most `limit`.
fn roc_noir_move_through_the_engine(
    first: &[&str],
    limit: usize,
    strip: bool,
) -> Vec<(String, Searched)> {
    const WANDERING: &str = include_str!("../../plugins/roc-noir/src/wandering.json");
    // The hook version (`variants/examples/`): the shipped rule is played inside the game.
    let script = veillee_tests::house::example_script("trappe-couteuse.lua");
    let mut engine = veillee_tests::house::wasm_engine("roc-noir", vec![script]);
    // The house rules' layer of a new game (the first two lines of a save) over the position.
    let fresh = engine.create(&Setup::new(2, 122)).unwrap();
    let layer_len = |saved: &[u8]| {
        let second = saved.iter().enumerate().filter(|(_, &b)| b == b'\n').nth(1);
        second.expect("two lines of house rules").0 + 1
    };
    let fresh_save = engine.save(fresh).unwrap();
    let layer = fresh_save[..layer_len(&fresh_save)].to_vec();
    // Each save's own layer is cut off: it counts the moves played, so its length changes.
    let base = |engine: &mut VariantEngine, game| {
        let saved = engine.save(game).unwrap();
        String::from_utf8(saved[layer_len(&saved)..].to_vec()).unwrap()
    };
    let mut game = engine
        .load(&[&layer[..], WANDERING.as_bytes()].concat())
        .unwrap();
    for id in first {
        engine.apply(game, 0, id).unwrap();
    }
    let mut decisions = Vec::new();
    while decisions.len() < limit {
        let state = base(&mut engine, game);
        if !state.contains(r#""turn":0,"phase":"move""#) {
            break;
        }
        // Edited as text: the generator's 128-bit state does not survive a JSON `Value`.
        if let (true, Some(at)) = (strip, state.find(r#","trail":["#)) {
            let end = at + state[at..].find(']').unwrap() + 1;
            let stripped = format!("{}{}", &state[..at], &state[end..]);
            game = engine
                .load(&[&layer[..], stripped.as_bytes()].concat())
                .unwrap();
        }
        let seed = bot::decision_seed(122, decisions.len() as u32, 0);
        let thought = bot::choose(&mut engine, game, 0, 2, BotLevel::Normal, seed, &[])
            .unwrap()
            .expect("a legal move");
        engine.apply(game, 0, &thought.action.id).unwrap();
        decisions.push((thought.action.id, thought.searched));
    }
    decisions
}

/// Whether a knight's move stepped on some square twice.
fn steps_twice(decisions: &[(String, Searched)]) -> bool {
    let steps: Vec<&String> = decisions
        .iter()
        .map(|(id, _)| id)
        .filter(|id| id.starts_with("step-"))
        .collect();
    let mut distinct = steps.clone();
    distinct.sort();
    distinct.dedup();
    distinct.len() != steps.len()
}

/// The bound on a roc noir bot's move (its `Game::bot_may_choose`) holds through the engine
/// too: the legal actions mark the steps back onto the knight's trail (ABI 1.12) and the
/// host's search leaves them out. Three steps after the wandering position (g7, g8, h8), the
/// bot without a trail went back and stepped between e7 and f7 for 30 decisions before it
/// entered the treasure room; with it, it ends its move (or enters a gallery) within a few
/// decisions, never on a square twice.
#[test]
fn a_roc_noir_bot_searched_through_the_engine_never_steps_back_onto_its_trail() {
    let first = ["step-g7", "step-g8", "step-h8"];
    let old = roc_noir_move_through_the_engine(&first, 40, true);
    assert!(
        old.len() >= 20 && steps_twice(&old),
        "the bot without a trail did not wander: {old:?}"
    );
    let new = roc_noir_move_through_the_engine(&first, 40, false);
    assert!(new.len() < 10, "still moving after {new:?}");
    assert!(new.iter().all(|(_, s)| *s != Searched::Plugin), "{new:?}");
    assert!(new.iter().any(|(_, s)| *s == Searched::Engine), "{new:?}");
    assert!(!steps_twice(&new), "a square stepped on twice: {new:?}");
}
