//! House rules that would never end, through real Luau and the real wasm games: a rule that
//! asks question after question in one move (`questions-sans-fin.lua`, Siège) and one that
//! never lets Castel end (`castel-sans-fin.lua`: the safety limit's draw refused, cards sent
//! back to the hands). Each game stops at its bound (`variants::bounds`), over with no
//! winner and a reason naming the script and the bound, and stays so once saved and loaded.

use veillee_runtime::engine::GameEngine;
use veillee_runtime::variants::bounds::{MAX_MOVES_WITH_SCRIPTS, MAX_QUESTIONS_PER_MOVE};
use veillee_runtime::variants::{Script, VariantEngine, VariantLimits};
use veillee_sdk::{GameRng, Handle, Setup, Status};
use veillee_tests::house::{builtin_script, ids, seat_to_act, wasm_engine};

const QUESTIONS: &str = include_str!("../fixtures/variants/questions-sans-fin.lua");
const ENDLESS_CASTEL: &str = include_str!("../fixtures/variants/castel-sans-fin.lua");

fn fixture(file: &str, text: &str) -> Script {
    Script::load(file, text, VariantLimits::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// How a game played at random went: moves (answers apart) and answers to questions.
struct Played {
    moves: u32,
    answers: u32,
}

/// Plays random legal actions until the game is over or `most` actions were played (far
/// more than the bound: without it the game would still be going).
fn play_at_random(engine: &mut VariantEngine, game: Handle, seed: u64, most: u32) -> Played {
    let mut rng = GameRng::new(seed);
    let mut played = Played {
        moves: 0,
        answers: 0,
    };
    for _ in 0..most {
        let Some(seat) = seat_to_act(engine, game) else {
            break;
        };
        let listed = ids(engine, game, seat);
        let id = listed[rng.below(listed.len())].clone();
        engine
            .apply(game, seat, &id)
            .unwrap_or_else(|e| panic!("{id}: {e}"));
        match id.starts_with("choose:") {
            true => played.answers += 1,
            false => played.moves += 1,
        }
    }
    played
}

/// The game is over with no winner, for the reason it stopped; saved and loaded, still so.
fn assert_stopped(engine: &mut VariantEngine, game: Handle, names: &[&str]) -> String {
    let Some(why) = engine.stopped(game).cloned() else {
        panic!("not stopped: {:?}", engine.status(game));
    };
    for name in names {
        assert!(why.en.contains(name), "`{name}` not in: {}", why.en);
    }
    assert!(
        engine.disabled(game).is_empty(),
        "stopped, not switched off"
    );
    let Status::Finished { outcome } = engine.status(game).unwrap() else {
        panic!("a stopped game is over");
    };
    assert!(outcome.winners.is_empty());
    assert_eq!(outcome.reason, why);
    let saved = engine.save(game).unwrap();
    let loaded = engine.load(&saved).unwrap();
    assert_eq!(engine.stopped(loaded), Some(&why), "saved with the game");
    assert!(engine.legal_actions(loaded, 0).unwrap().is_empty());
    why.en
}

#[test]
fn a_rule_asking_question_after_question_stops_the_game_in_the_first_move() {
    let rule = fixture("questions-sans-fin.lua", QUESTIONS);
    let mut engine = wasm_engine("siege", vec![rule]);
    let game = engine.create(&Setup::new(2, 1)).unwrap();
    let played = play_at_random(&mut engine, game, 1, 20 * MAX_QUESTIONS_PER_MOVE);
    assert_eq!(played.moves, 1, "the first move never ended");
    assert_eq!(played.answers, MAX_QUESTIONS_PER_MOVE);
    let limit = format!("asked {MAX_QUESTIONS_PER_MOVE} questions in one move");
    assert_stopped(
        &mut engine,
        game,
        &["“Endless questions” (questions-sans-fin.lua)", &limit],
    );
}

#[test]
fn the_questions_of_one_move_do_not_count_against_the_next() {
    // Four questions after every move: more questions in a game than one move may hold.
    let rule = veillee_tests::house::script(
        "return { id = \"une-question\", name = \"One question\", description = \"x\", \
         game = \"siege\", version = \"1\", \
         after_action = function(ctx, seat) \
         for i = 1, 4 do ctx.choose(seat, { \"a\", \"b\" }, \"?\") end end }",
    );
    let mut engine = wasm_engine("siege", vec![rule]);
    let game = engine.create(&Setup::new(2, 2)).unwrap();
    let played = play_at_random(&mut engine, game, 2, 8 * MAX_QUESTIONS_PER_MOVE);
    assert!(
        played.answers > MAX_QUESTIONS_PER_MOVE,
        "{}",
        played.answers
    );
    assert_eq!(engine.stopped(game), None);
}

#[test]
fn a_rule_that_never_lets_castel_end_stops_it_at_the_most_moves_a_game_may_last() {
    let cards = builtin_script("castel", "cards.lua");
    let rule = fixture("castel-sans-fin.lua", ENDLESS_CASTEL);
    let mut engine = wasm_engine("castel", vec![cards, rule]);
    let game = engine.create(&Setup::new(2, 3)).unwrap();
    let played = play_at_random(&mut engine, game, 3, 3 * MAX_MOVES_WITH_SCRIPTS);
    assert_eq!(played.moves, MAX_MOVES_WITH_SCRIPTS);
    let limit = format!("Game stopped after {MAX_MOVES_WITH_SCRIPTS} moves");
    // Both scripts in play are named: the engine cannot tell which keeps the game going.
    assert_stopped(
        &mut engine,
        game,
        &[
            &limit,
            "(cards.lua)",
            "“Endless Castel” (castel-sans-fin.lua)",
        ],
    );
}
