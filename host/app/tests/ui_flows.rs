//! The launcher's main flows, driven through AccessKit (labels and roles, not pixels).

use std::path::Path;
use std::time::{Duration, Instant};

use egui_kittest::kittest::{NodeT, Queryable};
use egui_kittest::Harness;
use veillee_app::library::LibraryScreen;
use veillee_app::App;
use veillee_runtime::data_dir::DataDir;
use veillee_runtime::engine::GameEngine;
use veillee_runtime::store::model::BotLevel;
use veillee_sdk::{GameRng, Seat, Setup};

mod common;
use common::{harness, wait};

fn moves(h: &Harness<'static, App>) -> Option<u32> {
    h.state().play().view.as_ref().map(|v| v.meta.moves)
}

/// The human seat to act in the game shown.
fn actor(h: &Harness<'static, App>) -> Option<Seat> {
    h.state().play().view.as_ref().and_then(|v| v.actor)
}

fn session_id(h: &Harness<'static, App>) -> u64 {
    h.state()
        .play()
        .view
        .as_ref()
        .expect("a game is shown")
        .meta
        .id
}

fn labels(h: &Harness<'static, App>) -> Vec<String> {
    common::texts(h)
}

/// Opens a game's new-game screen from the library.
fn open_setup(h: &mut Harness<'static, App>, game: &str) {
    h.get_by_label(&format!("New game — {game}"))
        .click_accesskit();
    wait(h, "the new-game screen", |h| {
        h.query_by_label_contains("Start the game").is_some()
    });
}

fn start(h: &mut Harness<'static, App>) {
    h.get_by_label_contains("Start the game").click();
    wait(h, "the game to start", |h| moves(h) == Some(0));
}

/// Plays a whole random Siège game between two humans in the data directory, without the
/// window (the library's own sessions), and returns its id.
fn finished_siege_game(data: &Path) -> u64 {
    let (catalog, sessions) = common::catalog_and_sessions(data);
    let mut engine = catalog.engine("siege").unwrap();
    let mut live = sessions
        .start(&mut engine, common::ana_and_bruno(), Setup::new(2, 7))
        .unwrap();
    let mut rng = GameRng::new(7);
    for _ in 0..5000 {
        let status = engine.status(live.game).unwrap();
        let Some(&seat) = status.seats().first() else {
            return live.meta.id;
        };
        let actions = engine.legal_actions(live.game, seat).unwrap();
        let id = actions[rng.below(actions.len())].id.clone();
        sessions
            .apply(&mut engine, &mut live, seat, &id, serde_json::Value::Null)
            .unwrap();
    }
    panic!("the random game did not end");
}

/// Passes the screen on when the game asks: "Done" after a move's result, then the hand-off.
/// Returns whether there was anything to pass.
fn hand_over(h: &mut Harness<'static, App>) -> bool {
    let mut passed = false;
    if h.query_by_label("Done").is_some() {
        h.get_by_label("Done").click();
        h.step();
        h.step();
        passed = true;
    }
    if h.query_by_label("Click when ready").is_some() {
        h.get_by_label("Click when ready").click();
        h.step();
        passed = true;
    }
    passed
}

/// A new Siège game where a bot attacks (seat 0) and the human defender has placed the lord.
fn siege_against_a_bot(h: &mut Harness<'static, App>) {
    open_setup(h, "Siège");
    h.query_all_by_label("Bot").next().expect("seat 1").click();
    h.step();
    start(h);
    h.get_by_label("d6").click();
}

fn start_siege(h: &mut Harness<'static, App>) {
    h.get_by_label("New game — Siège").click_accesskit();
    wait(h, "the new-game screen", |h| {
        h.query_by_label_contains("Start the game").is_some()
    });
    h.get_by_label_contains("Start the game").click();
    wait(h, "the game to start", |h| moves(h) == Some(0));
}

#[test]
fn library_lists_siege_and_a_two_human_game_is_played_by_clicks_undone_and_resumed() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(dir.path(), "en");
    assert!(
        h.query_all_by_label("Siège").count() > 0,
        "Siège has a card"
    );
    start_siege(&mut h);

    // SG-S1: the defender places the lord on a crown: one click on d6.
    h.get_by_label("d6").click();
    wait(&mut h, "the lord's placement", |h| moves(h) == Some(1));
    // The attacker: the knight on c0, then d2.
    h.get_by_label("c0").click();
    h.step();
    h.get_by_label("d2").click();
    wait(&mut h, "the knight's move", |h| moves(h) == Some(2));
    assert!(
        h.query_by_label_contains("Knight c0 → d2").is_some(),
        "the log says it"
    );

    // Taking back the other player's move is asked first.
    h.get_by_label("Undo").click();
    wait(&mut h, "the question", |h| {
        h.query_by_label_contains("Do they agree?").is_some()
    });
    assert!(h
        .query_by_label_contains("Undo takes back Attacker's last move")
        .is_some());
    assert_eq!(
        moves(&h),
        Some(2),
        "nothing is taken back before the answer"
    );
    h.query_all_by_label("Undo").last().unwrap().click();
    wait(&mut h, "the undo", |h| moves(h) == Some(1));
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Y);
    wait(&mut h, "the redo", |h| moves(h) == Some(2));
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    wait(&mut h, "the question", |h| {
        h.query_by_label_contains("Do they agree?").is_some()
    });
    h.query_all_by_label("Undo").last().unwrap().click();
    wait(&mut h, "the undo by keyboard", |h| moves(h) == Some(1));
    let id = h.state().play().view.as_ref().unwrap().meta.id;

    // Quit in the middle, then resume from the saved games.
    h.get_by_label("← Back").click();
    wait(&mut h, "the library", |h| {
        h.query_by_label("Saved games").is_some()
    });
    h.get_by_label("Saved games").click();
    wait(&mut h, "the saved games", |h| {
        h.query_by_label(&format!("Resume #{id}")).is_some()
    });
    h.get_by_label(&format!("Resume #{id}")).click();
    wait(&mut h, "the resumed game", |h| moves(h) == Some(1));
    h.get_by_label("c0").click();
    h.step();
    h.get_by_label("d2").click();
    wait(&mut h, "a move after resuming", |h| moves(h) == Some(2));
}

#[test]
fn a_bad_plugin_file_is_refused_with_an_error_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("broken.wasm");
    std::fs::write(&bad, b"this is not webassembly").unwrap();
    let mut h = harness(&dir.path().join("data"), "en");
    // No file chooser here: the typed path appears.
    h.get_by_label("Install a game…").click();
    wait(&mut h, "the typed path", |h| {
        h.query_by_label("Game file").is_some()
    });
    h.get_by_label("Game file").click();
    h.step();
    h.get_by_label("Game file")
        .type_text(&bad.display().to_string());
    h.step();
    h.get_by_label("Install").click();
    wait(&mut h, "the install error", |h| {
        h.query_by_label_contains("could not be installed")
            .is_some()
    });
    assert!(
        h.query_by_label_contains("broken").is_some(),
        "the error names the file"
    );
}

#[test]
fn the_language_switches_to_french_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(dir.path(), "en");
    let count = |h: &Harness<'static, App>, label: &str| h.query_all_by_label(label).count();
    assert!(count(&h, "Library") > 0);
    h.get_by_label("Settings").click();
    wait(&mut h, "the settings", |h| {
        h.query_by_label("Français").is_some()
    });
    h.get_by_label("Français").click();
    wait(&mut h, "French", |h| count(h, "Réglages") > 0);
    assert!(count(&h, "Ludothèque") > 0);
    assert_eq!(count(&h, "Library"), 0);
    assert_eq!(count(&h, "Settings"), 0);
}

#[test]
fn a_data_directory_held_by_another_veillee_gets_a_clear_message() {
    let dir = tempfile::tempdir().unwrap();
    let _held = veillee_runtime::store::Store::open(dir.path()).unwrap();
    let app = App::new(DataDir::at(dir.path()), Some("en".into()));
    let mut h = Harness::builder()
        .with_size(egui::vec2(1200.0, 800.0))
        .build_ui_state(|ui, app: &mut App| app.ui(ui), app);
    let start = Instant::now();
    while h.query_by_label("Veillée is already open").is_none() {
        assert!(start.elapsed() < Duration::from_secs(60));
        h.step();
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(h.query_by_label("Quit").is_some());
}

#[test]
fn a_bot_seat_moves_after_its_pause_and_the_human_gets_the_turn_back() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(dir.path(), "en");
    open_setup(&mut h, "Siège");
    // Seat 1 (the attacker) is a bot; the defender, who opens (SG-S1), is human.
    h.query_all_by_label("Bot")
        .next()
        .expect("a bot choice per seat")
        .click();
    h.step();
    // A bot gets a level, which a menu per bot seat offers to change.
    assert!(
        h.query_by_label("Bot level of seat 1").is_some(),
        "{:?}",
        labels(&h)
    );
    h.step();
    start(&mut h);
    assert_eq!(actor(&h), Some(1), "the human defender opens");
    h.get_by_label("d6").click();
    wait(&mut h, "the lord's placement", |h| moves(h) == Some(1));
    // The bot's turn is announced while it "thinks" ...
    let view = h.state().play().view.as_ref().unwrap();
    assert_eq!((view.actor, view.bot), (None, Some(0)));
    assert!(
        h.query_by_label_contains("is thinking").is_some(),
        "{:?}",
        labels(&h)
    );
    // ... then it plays by itself, and the human has the turn again.
    wait(&mut h, "the bot's move", |h| {
        moves(h) == Some(2) && actor(h) == Some(1)
    });
    assert!(h.query_by_label_contains("your turn").is_some());
    assert_eq!(
        h.state().play().chimes(),
        0,
        "no sound unless the table asks for it"
    );
}

#[test]
fn with_the_chime_on_the_human_hears_their_turn_come_back_after_a_bot() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(dir.path(), "en");
    h.state_mut().shared.assist.sound = true;
    siege_against_a_bot(&mut h);
    wait(&mut h, "the lord's placement", |h| moves(h) == Some(1));
    assert_eq!(h.state().play().chimes(), 0, "the bot's turn: no chime");
    wait(&mut h, "the bot's move", |h| {
        moves(h) == Some(2) && actor(h) == Some(1)
    });
    assert_eq!(
        h.state().play().chimes(),
        1,
        "the human's turn again: one chime"
    );
}

/// The bot thinks on its own thread, shown as thinking, while the window stays
/// free; an undo during its search drops the search, and the game goes on as if it never
/// started (Castel's cards in force, so the search runs through the engine, a few seconds at
/// `strong` in a debug build).
#[test]
fn undo_while_a_bot_thinks_drops_its_search_and_the_game_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(dir.path(), "en");
    open_setup(&mut h, "Castel");
    h.query_all_by_label("Bot").nth(1).expect("seat 2").click();
    h.step();
    h.get_by_label("Bot level of seat 2").click();
    h.step();
    h.step();
    h.get_by_label("strong").click();
    h.step();
    start(&mut h);
    let view = h.state().play().view.as_ref().unwrap();
    assert_eq!(view.meta.seats[1].level, Some(BotLevel::Strong));
    // Whoever starts (the dealer is drawn), the human's turn comes: a turn is two actions.
    wait(&mut h, "the human's turn", |h| actor(h) == Some(0));
    let m = moves(&h).unwrap();
    h.get_by_label("Draw").click();
    wait(&mut h, "a draw", |h| moves(h) == Some(m + 1));
    h.get_by_label("Draw").click();
    wait(&mut h, "a draw", |h| moves(h) == Some(m + 2));
    // The bot's turn: it thinks (the worker idle meanwhile), and Undo can be clicked.
    let start = Instant::now();
    while h.state().play().view.as_ref().and_then(|v| v.thinking) != Some(1) {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the bot never thought"
        );
        h.step();
        std::thread::sleep(Duration::from_millis(5));
    }
    let before = moves(&h).unwrap();
    assert!(!h.state().busy(), "the worker waits on no bot");
    assert!(h.query_by_label_contains("is thinking").is_some());
    h.get_by_label("Undo").click();
    wait(&mut h, "the undo", |h| {
        moves(h).is_some_and(|m| m < before) && actor(h) == Some(0)
    });
    assert_eq!(h.state().play().view.as_ref().unwrap().thinking, None);
    // The human plays the turn again; the bot's dropped search changes nothing, and the bot
    // plays its own turn to the end.
    let m = moves(&h).unwrap();
    h.get_by_label("Draw").click();
    wait(&mut h, "a draw", |h| moves(h) == Some(m + 1));
    if m + 1 < before {
        h.get_by_label("Draw").click();
        wait(&mut h, "a draw", |h| moves(h) == Some(m + 2));
    }
    wait(&mut h, "the bot's turn", |h| {
        actor(h) == Some(0) && moves(h).is_some_and(|n| n >= before + 2)
    });
    assert!(h.state().play().view.as_ref().unwrap().thinking.is_none());
    assert!(
        h.query_by_label_contains("could not").is_none(),
        "{:?}",
        labels(&h)
    );
}

/// A house rule that refuses every Siège move.
const REFUSE_ALL: &str = include_str!("../../../tests/fixtures/variants/rien-ne-va-plus.lua");

#[test]
fn a_bot_whose_every_move_is_refused_stops_the_game_with_a_message() {
    let dir = tempfile::tempdir().unwrap();
    let variants = dir.path().join("variants");
    std::fs::create_dir_all(&variants).unwrap();
    std::fs::write(variants.join("rien-ne-va-plus.lua"), REFUSE_ALL).unwrap();
    let mut h = harness(dir.path(), "en");
    open_setup(&mut h, "Siège");
    // The defender, who places the lord first (SG-S1), is a bot.
    h.query_all_by_label("Bot").nth(1).expect("seat 2").click();
    h.step();
    // Below the fold of the form: clicked through AccessKit.
    h.get_by_label("Nothing goes").click_accesskit();
    h.step();
    h.get_by_label_contains("Start the game").click();
    wait(&mut h, "the bot to give up", |h| {
        h.query_by_label_contains("cannot move").is_some()
    });
    assert!(
        h.query_by_label_contains(
            "Defender cannot move: the house rules refused every one of its moves (Nothing goes.; Nothing goes.)"
        )
        .is_some()
    );
    assert_eq!(moves(&h), Some(0), "nothing was played");
    // The bot is not asked again while the message is shown: no loop.
    for _ in 0..50 {
        h.step();
    }
    assert!(!h.state().busy());
}

/// The rules lab in the window: a house rule's card runs games of normal bots
/// with and without the rule and shows both balances side by side.
#[test]
fn test_this_rule_shows_the_balance_beside_the_plain_game() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(dir.path(), "en");
    open_setup(&mut h, "Siège");
    h.query_all_by_label("Test this rule")
        .next()
        .expect("a test button per house rule")
        .click_accesskit();
    h.step();
    wait(&mut h, "the balance", |h| {
        h.query_by_label_contains("Games of normal bots (12 each) — plain game: Attacker wins")
            .is_some()
    });
    let balance = h
        .query_by_label_contains("Games of normal bots")
        .and_then(|n| n.accesskit_node().value())
        .unwrap_or_default();
    assert!(
        balance.contains("; with this rule: Attacker wins") && balance.contains("draws"),
        "{balance}"
    );
}

#[test]
fn two_humans_at_a_hidden_information_game_hand_over_with_the_board_hidden() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(dir.path(), "en");
    open_setup(&mut h, "Castel");
    start(&mut h);
    let board_shown = |h: &Harness<'static, App>| h.query_by_label("c4").is_some();
    let first = h
        .state()
        .play()
        .handoff()
        .expect("a hand-off before anything is shown");
    let name = veillee_app::worker::seat_name(&h.state().play().view.as_ref().unwrap().meta, first);
    assert!(h.query_by_label(&format!("Pass to {name}")).is_some());
    assert!(!board_shown(&h), "the board is hidden behind the hand-off");
    assert!(
        h.query_by_label("Draw").is_none(),
        "no decision is offered before the player is ready"
    );
    h.get_by_label("Click when ready").click();
    h.step();
    h.step();
    assert!(board_shown(&h), "{:?}", labels(&h));
    assert_eq!(h.state().play().view.as_ref().unwrap().viewer, Some(first));

    // A turn is two actions: draw twice, then the other human gets the device.
    h.get_by_label("Draw").click();
    wait(&mut h, "the first draw", |h| moves(h) == Some(1));
    assert!(
        h.state().play().handoff().is_none(),
        "same player, no hand-off"
    );
    h.get_by_label("Draw").click();
    wait(&mut h, "the second draw", |h| moves(h) == Some(2));
    // The player sees where the game stands after their turn before the board is hidden.
    assert_eq!(h.state().play().showing_result(), Some(first));
    assert!(board_shown(&h), "the result stays in sight");
    assert!(h.query_by_label("Draw").is_none(), "nothing more to play");
    assert_eq!(h.state().play().handoff(), None);
    h.get_by_label("Done").click();
    h.step();
    h.step();
    let second = h.state().play().handoff().expect("the seat to act changed");
    assert_ne!(second, first);
    let name =
        veillee_app::worker::seat_name(&h.state().play().view.as_ref().unwrap().meta, second);
    assert!(h.query_by_label(&format!("Pass to {name}")).is_some());
    assert!(!board_shown(&h));
    h.get_by_label("Click when ready").click();
    h.step();
    h.step();
    assert!(board_shown(&h));
    assert_eq!(h.state().play().view.as_ref().unwrap().viewer, Some(second));
}

#[test]
fn a_finished_game_shows_the_outcome_then_play_again_and_back_to_library() {
    let dir = tempfile::tempdir().unwrap();
    let id = finished_siege_game(dir.path());
    let mut h = harness(dir.path(), "en");
    h.get_by_label("Saved games").click();
    wait(&mut h, "the saved games", |h| {
        h.query_by_label(&format!("Resume #{id}")).is_some()
    });
    assert!(h.query_by_label_contains("Finished").is_some());
    h.get_by_label(&format!("Resume #{id}")).click();
    wait(&mut h, "the finished game", |h| {
        h.query_by_label("Game over").is_some()
    });
    assert!(h.query_by_label_contains("Winner").is_some() || h.query_by_label("Draw").is_some());

    // Play again: the same players, a new game.
    h.get_by_label("Play again").click();
    wait(&mut h, "the new game", |h| {
        moves(h) == Some(0) && h.state().play().view.as_ref().unwrap().meta.id != id
    });
    let again = h.state().play().view.as_ref().unwrap();
    let names: Vec<&str> = again.meta.seats.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["Ana", "Bruno"]);

    // Back to the finished one, and back to the library from its end screen.
    h.get_by_label("← Back").click();
    wait(&mut h, "the library", |h| {
        h.state().showing::<LibraryScreen>()
    });
    h.get_by_label("Saved games").click();
    wait(&mut h, "the saved games", |h| {
        h.query_by_label(&format!("Resume #{id}")).is_some()
    });
    h.get_by_label(&format!("Resume #{id}")).click();
    wait(&mut h, "the finished game", |h| {
        h.query_by_label("Back to library").is_some()
    });
    h.get_by_label("Back to library").click();
    wait(&mut h, "the library", |h| {
        h.state().showing::<LibraryScreen>()
    });
    assert!(h.query_by_label("New game — Siège").is_some());
}

/// A user's house rule that asks the attacker a question once the lord is placed.
const QUESTION: &str = r#"
return {
  id = "question", name = { fr = "Question", en = "A question" },
  description = { fr = "Pose une question.", en = "Asks a question." },
  game = "siege", version = "1",
  changes = { { fr = "L'attaquant choisit un camp.", en = "The attacker picks a side." } },
  after_action = function(ctx, seat, action)
    if ctx.state.asked then return end
    local pick = ctx.choose(0, { { fr = "Gauche", en = "Left" }, { fr = "Droite", en = "Right" } },
      { fr = "De quel côté ?", en = "Which side?" })
    ctx.state.asked = true
    ctx.event({ fr = "Côté choisi : " .. pick, en = "Side chosen: " .. pick })
  end,
}
"#;

#[test]
fn a_house_rule_question_is_a_decision_answered_by_a_click() {
    let dir = tempfile::tempdir().unwrap();
    let variants = DataDir::at(dir.path()).variants();
    std::fs::create_dir_all(&variants).unwrap();
    std::fs::write(variants.join("question.lua"), QUESTION).unwrap();
    let mut h = harness(dir.path(), "en");
    open_setup(&mut h, "Siège");
    // The checklist shows the script with its rules diff.
    assert!(h
        .query_by_label_contains("The attacker picks a side.")
        .is_some());
    // Below the game's own house rules: scrolled into sight, then ticked.
    h.get_by_label("A question").scroll_to_me();
    for _ in 0..30 {
        h.step();
    }
    h.get_by_label("A question").click();
    h.step();
    start(&mut h);
    assert!(
        h.query_by_label_contains("House rules: A question")
            .is_some(),
        "{:?}",
        labels(&h)
    );
    h.get_by_label("d6").click();
    wait(&mut h, "the question", |h| {
        h.query_by_label("Which side?").is_some()
    });
    assert_eq!(actor(&h), Some(0), "the attacker answers");
    h.get_by_label("Right").click();
    wait(&mut h, "the answer", |h| moves(h) == Some(2));
    // What the answer caused shows in the log a moment after the answer itself.
    wait(&mut h, "the script's line", |h| {
        h.query_by_label_contains("Side chosen: 2").is_some()
    });
    assert!(h.query_by_label("Which side?").is_none());
}

/// Both players of a Castel game pick a fruit at once, privately, after the first action.
const SECRET_PICKS: &str = include_str!("../../../tests/fixtures/variants/fruits-at-once.lua");

#[test]
fn players_asked_at_once_answer_in_turn_each_seeing_only_their_own_options() {
    let dir = tempfile::tempdir().unwrap();
    let variants = DataDir::at(dir.path()).variants();
    std::fs::create_dir_all(&variants).unwrap();
    std::fs::write(variants.join("fruits.lua"), SECRET_PICKS).unwrap();
    let mut h = harness(dir.path(), "en");
    open_setup(&mut h, "Castel");
    // Below Castel's own house rules: scrolled into sight, then ticked.
    h.get_by_label("Secret fruits").scroll_to_me();
    for _ in 0..30 {
        h.step();
    }
    h.get_by_label("Secret fruits").click();
    h.step();
    start(&mut h);
    h.get_by_label("Click when ready").click();
    wait(&mut h, "the board", |h| h.query_by_label("Draw").is_some());
    assert!(
        h.query_by_label_contains("House rules: Secret fruits")
            .is_some(),
        "{:?}",
        labels(&h)
    );
    let first = actor(&h).expect("a seat acts");
    h.get_by_label("Draw").click();
    wait(&mut h, "the question", |h| {
        ["A fruit?", "Click when ready", "Done"]
            .iter()
            .any(|l| h.query_by_label(l).is_some())
    });
    let mine = |seat: Seat| {
        if seat == 0 {
            ["Apple", "Pear"]
        } else {
            ["Plum", "Fig"]
        }
    };
    let mut answered = Vec::new();
    for turn in 0..2 {
        if hand_over(&mut h) {
            wait(&mut h, "the question", |h| {
                h.query_by_label("A fruit?").is_some()
            });
        }
        let seat = actor(&h).expect("a seat answers");
        let other = 1 - seat;
        assert!(
            h.query_by_label(mine(seat)[0]).is_some(),
            "{:?}",
            labels(&h)
        );
        assert!(
            h.query_by_label(mine(other)[0]).is_none()
                && h.query_by_label(mine(other)[1]).is_none(),
            "seat {seat} does not see the other's options"
        );
        assert!(
            h.query_by_label_contains("Fruits:").is_none(),
            "nothing is told before everyone has answered"
        );
        assert!(!answered.contains(&seat), "each player answers once");
        answered.push(seat);
        h.get_by_label(mine(seat)[1]).click();
        wait(&mut h, "the answer", |h| moves(h) == Some(2 + turn));
    }
    // Back to the first player's second action (after a hand-off if the other answered last).
    hand_over(&mut h);
    wait(&mut h, "the board", |h| h.query_by_label("Draw").is_some());
    assert_eq!(actor(&h), Some(first));
    // The log shows this player's own answer, and only that the other one answered.
    let name = |seat: Seat| {
        if seat == 0 {
            "Black pawns"
        } else {
            "Beige pawns"
        }
    };
    let own = format!("{}: {}", name(first), mine(first)[1]);
    let theirs = format!("{}: answers: A fruit?", name(1 - first));
    assert!(
        h.query_by_label(&own).is_some() && h.query_by_label(&theirs).is_some(),
        "{own} and {theirs} in the log: {:?}",
        labels(&h)
    );
    let other = 1 - first;
    assert!(
        h.query_by_label(&format!("{}: {}", name(other), mine(other)[1]))
            .is_none(),
        "the other's answer stays private (until the script tells it)"
    );
    assert!(
        h.query_by_label_contains("Fruits: Pear and Fig").is_some(),
        "the script tells the result once all have answered: {:?}",
        labels(&h)
    );
}

#[test]
fn an_installed_game_is_uninstalled_only_after_confirmation() {
    let dir = tempfile::tempdir().unwrap();
    // A copy of Les Bâtisseurs under another game id (same length, so the wasm stays valid).
    let bytes = veillee_runtime::builtin::plugin_bytes("batisseurs").unwrap();
    let (from, to) = (b"batisseurs", b"batisseurq");
    let mut copy = bytes.to_vec();
    let mut i = 0;
    while i + from.len() <= copy.len() {
        if &copy[i..i + from.len()] == from {
            copy[i..i + from.len()].copy_from_slice(to);
            i += from.len();
        } else {
            i += 1;
        }
    }
    let file = dir.path().join("copy.wasm");
    std::fs::write(&file, copy).unwrap();
    let mut h = harness(&dir.path().join("data"), "en");
    // The built-in games (however many ship), before the install.
    let built_in = h.state().shared.games.len();
    h.get_by_label("Install a game…").click();
    wait(&mut h, "the typed path", |h| {
        h.query_by_label("Game file").is_some()
    });
    h.get_by_label("Game file").click();
    h.step();
    h.get_by_label("Game file")
        .type_text(&file.display().to_string());
    h.step();
    h.get_by_label("Install").click();
    wait(&mut h, "the install", |h| {
        h.query_by_label_contains("is installed").is_some()
    });
    assert!(
        h.query_by_label("Installed").is_some(),
        "the card says installed"
    );
    assert_eq!(h.state().shared.games.len(), built_in + 1);

    // Uninstall asks first; cancelling keeps the game.
    h.get_by_label("Uninstall").click_accesskit();
    wait(&mut h, "the confirmation", |h| {
        h.query_by_label_contains("Saved games stay").is_some()
    });
    h.get_by_label("Cancel").click();
    wait(&mut h, "the dialog to close", |h| {
        h.query_by_label_contains("Saved games stay").is_none()
    });
    assert_eq!(h.state().shared.games.len(), built_in + 1);
    h.get_by_label("Uninstall").click_accesskit();
    wait(&mut h, "the confirmation", |h| {
        h.query_by_label_contains("Saved games stay").is_some()
    });
    // The dialog's button (the card's own is behind the modal).
    h.query_all_by_label("Uninstall").last().unwrap().click();
    wait(&mut h, "the uninstall", |h| {
        h.query_by_label_contains("was uninstalled").is_some()
    });
    assert_eq!(h.state().shared.games.len(), built_in);
    assert!(h.query_by_label("Uninstall").is_none());
}

/// An unfinished Castel game holds secrets: Export… asks first, and "Only what … saw"
/// writes that seat's view (no seed, no move ids) rather than the session file.
#[test]
fn exporting_an_unfinished_hidden_game_asks_and_can_give_one_seats_view() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(&dir.path().join("data"), "en");
    open_setup(&mut h, "Castel");
    start(&mut h);
    let id = session_id(&h);
    let first = veillee_app::worker::seat_name(&h.state().play().view.as_ref().unwrap().meta, 0);
    h.get_by_label("← Back").click();
    wait(&mut h, "the library", |h| {
        h.state().showing::<LibraryScreen>()
    });
    h.get_by_label("Saved games").click();
    wait(&mut h, "the saved games", |h| {
        h.query_by_label(&format!("Export… #{id}")).is_some()
    });
    h.get_by_label(&format!("Export… #{id}")).click();
    let only = format!("Only what {first} saw");
    wait(&mut h, "the question", |h| {
        h.query_by_label(&only).is_some()
    });
    assert!(h
        .query_by_label_contains("every player's secrets")
        .is_some());
    assert!(h.query_by_label("Export anyway").is_some());
    h.get_by_label(&only).click();
    let field = format!("Export game #{id} to the file");
    wait(&mut h, "the export path", |h| {
        h.query_by_label(&field).is_some()
    });
    let default = h.state().saved_export_path().expect("a default path");
    assert!(
        default.ends_with(&format!("veillee-castel-{id}-seat-0.json")),
        "{default}"
    );
    let file = dir.path().join("seat.json");
    h.get_by_label(&field).click();
    h.step();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_by_label(&field)
        .type_text(&file.display().to_string());
    h.step();
    h.get_by_label("Export here").click();
    wait(&mut h, "the export", |h| {
        h.query_by_label_contains("Game exported to").is_some()
    });
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("\"format\": \"veillee-seat-view\""), "{text}");
    assert!(!text.contains("\"seed\""), "{text}");
}

#[test]
fn a_saved_game_is_exported_to_a_typed_path_deleted_after_confirmation_and_imported() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(&dir.path().join("data"), "en");
    open_setup(&mut h, "Siège");
    start(&mut h);
    h.get_by_label("d6").click();
    wait(&mut h, "a move", |h| moves(h) == Some(1));
    let id = session_id(&h);
    h.get_by_label("← Back").click();
    wait(&mut h, "the library", |h| {
        h.state().showing::<LibraryScreen>()
    });
    h.get_by_label("Saved games").click();
    wait(&mut h, "the saved games", |h| {
        h.query_by_label(&format!("Export… #{id}")).is_some()
    });

    // No file dialog here: the typed path, with a default to start from.
    h.get_by_label(&format!("Export… #{id}")).click();
    wait(&mut h, "the export path", |h| {
        h.query_by_label(&format!("Export game #{id} to the file"))
            .is_some()
    });
    let field = format!("Export game #{id} to the file");
    let default = h.state().saved_export_path().expect("a default path");
    assert!(
        default.ends_with(&format!("veillee-siege-{id}.json")),
        "{default}"
    );
    let file = dir.path().join("exported.json");
    h.get_by_label(&field).click();
    h.step();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_by_label(&field)
        .type_text(&file.display().to_string());
    h.step();
    h.get_by_label("Export here").click();
    wait(&mut h, "the export", |h| {
        h.query_by_label_contains("Game exported to").is_some()
    });
    assert!(file.exists());

    // Delete asks first.
    h.get_by_label(&format!("Delete #{id}")).click();
    wait(&mut h, "the confirmation", |h| {
        h.query_by_label_contains("for good?").is_some()
    });
    h.get_by_label("Cancel").click();
    wait(&mut h, "the dialog to close", |h| {
        h.query_by_label_contains("for good?").is_none()
    });
    assert!(h.query_by_label(&format!("Resume #{id}")).is_some());
    h.get_by_label(&format!("Delete #{id}")).click();
    wait(&mut h, "the confirmation", |h| {
        h.query_by_label_contains("for good?").is_some()
    });
    h.get_by_label("Delete").click();
    wait(&mut h, "the deletion", |h| {
        h.query_by_label("No saved games yet.").is_some()
    });

    // Import it back from the typed path (no file chooser here).
    h.get_by_label("Import a game…").click();
    wait(&mut h, "the typed path", |h| {
        h.query_by_label("Saved-game file").is_some()
    });
    h.get_by_label("Saved-game file").click();
    h.step();
    h.get_by_label("Saved-game file")
        .type_text(&file.display().to_string());
    h.step();
    h.get_by_label("Import this file").click();
    wait(&mut h, "the import", |h| {
        h.query_by_label_contains("Game imported").is_some()
    });
    assert!(h.query_by_label_contains("Resume #").is_some());
}

#[test]
fn a_corrupt_database_is_reported_in_words_and_the_launcher_works() {
    let dir = tempfile::tempdir().unwrap();
    {
        let _ = veillee_runtime::store::Store::open(dir.path()).unwrap();
    }
    let db = dir.path().join("sessions.sled");
    for entry in std::fs::read_dir(&db).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            let len = std::fs::metadata(&path).unwrap().len() as usize;
            std::fs::write(&path, vec![0xA5; len.max(64)]).unwrap();
        }
    }
    let mut h = harness(dir.path(), "en");
    assert!(
        h.query_by_label_contains("The saved games were repaired")
            .is_some(),
        "{:?}",
        labels(&h)
    );
    assert!(h.query_by_label_contains("sessions.broken-").is_some());
    h.get_by_label("Dismiss").click();
    h.step();
    h.step();
    assert!(h.query_by_label_contains("were repaired").is_none());
    open_setup(&mut h, "Siège");
    start(&mut h);
}

#[test]
fn assisted_mode_asks_before_each_move_and_is_remembered() {
    let dir = tempfile::tempdir().unwrap();
    {
        let mut h = harness(dir.path(), "en");
        h.get_by_label("Settings").click();
        wait(&mut h, "the settings", |h| {
            h.query_by_label("Ask before playing each move").is_some()
        });
        h.get_by_label("Ask before playing each move").click();
        wait(&mut h, "the setting", |h| {
            h.state().shared.assist.confirm_moves
        });
        h.get_by_label("Library").click();
        wait(&mut h, "the library", |h| {
            h.query_by_label("New game — Siège").is_some()
        });
        open_setup(&mut h, "Siège");
        start(&mut h);
        h.get_by_label("d6").click();
        wait(&mut h, "the question", |h| {
            h.query_by_label_contains("Play: ").is_some()
        });
        h.get_by_label("Cancel").click();
        wait(&mut h, "the dialog to close", |h| {
            h.query_by_label_contains("Play: ").is_none()
        });
        assert_eq!(moves(&h), Some(0), "cancelled: nothing played");
        h.get_by_label("d6").click();
        wait(&mut h, "the question", |h| {
            h.query_by_label_contains("Play: ").is_some()
        });
        h.get_by_label("Play it").click();
        wait(&mut h, "the confirmed move", |h| moves(h) == Some(1));
    }
    let h = harness(dir.path(), "en");
    assert!(h.state().shared.assist.confirm_moves, "remembered");
}

/// Frame time of a Siège game in play (printed, never asserted: see BENCHMARKS.md).
/// `cargo test -p veillee --release --test ui_flows -- --ignored --nocapture frame_time`
#[test]
#[ignore]
fn frame_time_of_a_siege_game() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(dir.path(), "en");
    start_siege(&mut h);
    h.get_by_label("d6").click();
    wait(&mut h, "the lord's placement", |h| moves(h) == Some(1));
    h.get_by_label("c0").click(); // a selection: targets lit
    h.step();
    let frames = 300;
    let start = Instant::now();
    for _ in 0..frames {
        h.step();
    }
    let per_frame = start.elapsed() / frames;
    eprintln!("Siège play screen: {per_frame:?} per frame (mean of {frames}, kittest step: ctx.run + AccessKit tree, no GPU)");
}

/// Labels of the window's own controls, which a player at the table does not click to play.
const CHROME: &[&str] = &["← Back", "Rules", "Help", "Undo", "Redo", "Clear selection"];

#[test]
fn three_humans_play_a_game_of_castel_to_the_end_with_the_mouse_only() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(dir.path(), "en");
    open_setup(&mut h, "Castel");
    h.get_by_label("3").click();
    h.step();
    start(&mut h);
    assert!(
        h.query_by_label_contains("House rules").is_none(),
        "Castel's cards are the game, not a house rule"
    );
    // Any enabled control of the game (a lit card or square, an action button, a card's
    // question) is a legal click: click one at random until the game is over.
    let mut rng = veillee_sdk::GameRng::new(7);
    let mut handoffs = 0;
    let mut named_pieces = false;
    for _ in 0..20_000 {
        if h.query_by_label("Game over").is_some() {
            assert!(handoffs >= 3, "every seat was handed the device");
            assert!(named_pieces, "the cards on the board are named");
            assert!(h.query_by_label("Play again").is_some());
            let meta = &h.state().play().view.as_ref().unwrap().meta;
            assert!(meta.moves > 10, "a real game: {} moves", meta.moves);
            assert!(
                meta.variants.iter().any(|v| v.id == "cartes"),
                "played with Castel's cards script"
            );
            eprintln!(
                "Castel for three: {} moves, {handoffs} hand-offs",
                meta.moves
            );
            return;
        }
        // A square with a card on it says which card, in English ("d4 — King").
        named_pieces |= h.query_all_by_label_contains(" — ").next().is_some();
        if let Some(ready) = h.query_by_label("Click when ready") {
            ready.click();
            handoffs += 1;
        } else {
            let choices: Vec<String> = h
                .query_all_by(|n| n.role() == egui::accesskit::Role::Button && !n.is_disabled())
                .filter_map(|n| n.accesskit_node().label())
                .filter(|label| !CHROME.contains(&label.as_str()))
                .collect();
            assert!(!choices.is_empty(), "nothing to click: {:?}", labels(&h));
            let pick = &choices[rng.below(choices.len())];
            // Several cards may share a title (Soldier): click an enabled one.
            h.query_all_by_label(pick)
                .find(|n| !n.accesskit_node().is_disabled())
                .expect("the control is still there")
                .click();
        }
        wait(&mut h, "the click to be handled", |_| true);
    }
    panic!("the game did not end after 20 000 clicks");
}

#[test]
fn the_interface_size_applies_at_once_and_is_remembered() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(dir.path(), "en");
    h.get_by_label("Settings").click();
    wait(&mut h, "the settings", |h| {
        h.query_all_by_label("Interface size").next().is_some()
    });
    // A click in the middle of the slider (75 % to 250 %) makes the interface bigger.
    h.get_by_role_and_label(egui::accesskit::Role::Slider, "Interface size")
        .click();
    wait(&mut h, "the new size", |h| h.state().shared.scale > 1.4);
    let scale = h.state().shared.scale;
    assert!(scale < 1.9, "{scale}");
    h.step();
    assert!(
        (h.ctx.zoom_factor() - scale).abs() < 1e-3,
        "applied to the window at once"
    );
    drop(h);
    let h = harness(dir.path(), "en");
    assert!(
        (h.state().shared.scale - scale).abs() < 1e-3,
        "remembered: {}",
        h.state().shared.scale
    );
}

#[test]
fn a_set_aside_database_is_offered_on_the_saved_games_screen_and_its_games_come_back() {
    let dir = tempfile::tempdir().unwrap();
    let id = finished_siege_game(dir.path());
    // What an older Veillée did on a full disk: the healthy database renamed as broken.
    std::fs::rename(
        dir.path().join("sessions.sled"),
        dir.path().join("sessions.broken-1700000000"),
    )
    .unwrap();
    let mut h = harness(dir.path(), "en");
    h.get_by_label("Saved games").click();
    wait(&mut h, "the set-aside database", |h| {
        h.query_by_label("Bring its games back — sessions.broken-1700000000")
            .is_some()
    });
    assert!(h.query_by_label_contains("No saved games yet").is_some());
    h.get_by_label("Bring its games back — sessions.broken-1700000000")
        .click();
    wait(&mut h, "the games brought back", |h| {
        h.query_by_label(&format!("Resume #{id}")).is_some()
    });
    assert!(
        h.query_by_label_contains("1 game(s) brought back, 0 already here, 0 still unreadable")
            .is_some(),
        "{:?}",
        labels(&h)
    );
    assert!(h.query_by_label_contains("Bring its games back").is_none());
}

#[test]
fn a_damaged_database_keeps_its_readable_games_in_the_window() {
    let dir = tempfile::tempdir().unwrap();
    let id = finished_siege_game(dir.path());
    {
        let (store, _) = veillee_runtime::store::Store::open(dir.path()).unwrap();
        // A version number that cannot be: once every command panicked on it.
        veillee_runtime::store::force_schema_version(&store, 0).unwrap();
    }
    let mut h = harness(dir.path(), "en");
    assert!(
        h.query_by_label_contains("1 game(s) could be read and were kept")
            .is_some(),
        "{:?}",
        labels(&h)
    );
    h.get_by_label("Saved games").click();
    wait(&mut h, "the kept game", |h| {
        h.query_by_label(&format!("Resume #{id}")).is_some()
    });
    assert!(h.query_by_label_contains("Bring its games back").is_some());
}

#[cfg(unix)]
#[test]
fn a_device_or_a_fifo_among_the_installed_games_is_reported_and_the_library_opens() {
    let dir = tempfile::tempdir().unwrap();
    let plugins = dir.path().join("plugins");
    std::fs::create_dir_all(&plugins).unwrap();
    std::os::unix::fs::symlink("/dev/zero", plugins.join("zero.wasm")).unwrap();
    let fifo = std::process::Command::new("mkfifo")
        .arg(plugins.join("pipe.wasm"))
        .status()
        .unwrap();
    assert!(fifo.success());
    let h = harness(dir.path(), "en");
    assert!(
        h.query_by_label_contains("zero.wasm is a character device")
            .is_some(),
        "{:?}",
        labels(&h)
    );
    assert!(h.query_by_label_contains("pipe.wasm is a FIFO").is_some());
    assert!(h.query_all_by_label("Siège").count() > 0);
}

#[test]
fn a_game_with_nothing_private_to_one_seat_never_blanks_the_board_between_two_humans() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(dir.path(), "en");
    open_setup(&mut h, "Le Château du roc noir (Blackrock Castle)");
    start(&mut h);
    // Roc noir hides its trapdoors from everyone alike: nothing is one seat's own.
    assert!(
        h.state()
            .play()
            .view
            .as_ref()
            .unwrap()
            .manifest
            .hidden_information
    );
    let mut seats_seen = Vec::new();
    for n in 0..60 {
        assert_eq!(h.state().play().handoff(), None, "no hand-off at move {n}");
        assert_eq!(h.state().play().showing_result(), None);
        assert!(h.query_by_label("Click when ready").is_none());
        let view = h.state().play().view.clone().unwrap();
        if view.status.outcome().is_some() {
            break;
        }
        let seat = view.actor.expect("a human acts");
        if seats_seen.last() != Some(&seat) {
            seats_seen.push(seat);
            // The turn is said on the board's side, with the player's name.
            let name = veillee_app::worker::seat_name(&view.meta, seat);
            assert!(h.query_by_label(&format!("{name}, your turn!")).is_some());
        }
        if seats_seen.len() >= 3 {
            break;
        }
        // RN-T2: a knight may step « aussi loin que vous voulez », back and forth too: stop
        // when stopping is offered, so that the turn passes whatever the session's seed.
        let action = view
            .actions
            .iter()
            .find(|a| a.id == "stop")
            .unwrap_or(&view.actions[0])
            .id
            .clone();
        h.state_mut()
            .shared
            .worker
            .send(veillee_app::worker::Request::Act { seat, action });
        wait(&mut h, "the move", |h| moves(h) == Some(n + 1));
    }
    assert!(seats_seen.len() >= 2, "the turn passed: {seats_seen:?}");
}

#[test]
fn an_animated_bot_move_slides_from_its_square_and_ends_on_the_new_one() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(dir.path(), "en");
    siege_against_a_bot(&mut h);
    wait(&mut h, "the lord's placement", |h| moves(h) == Some(1));
    let before = h.state().play().view.as_ref().unwrap().scene.clone();
    wait(&mut h, "the bot's move", |h| moves(h) == Some(2));
    let after = h.state().play().view.as_ref().unwrap().scene.clone();
    // The knight the bot moved, and the square it went to.
    let board = &after.boards[0];
    let moved = board
        .pieces
        .iter()
        .find(|p| {
            before.boards[0]
                .pieces
                .iter()
                .any(|q| q.id == p.id && (q.col, q.row) != (p.col, p.row))
        })
        .expect("a piece moved");
    let square = format!(
        "{}{}",
        board.col_labels[moved.col as usize], board.row_labels[moved.row as usize]
    );
    let target = h.get_by_label(&square).rect().center();
    let key = veillee_app::scene::motion::key(&board.id, &moved.id);
    let shown = |h: &Harness<'static, App>| {
        h.state()
            .play()
            .scene()
            .motion
            .drawn_at(&key)
            .expect("the piece is drawn")
            .center()
    };
    // On its way: not yet on its square.
    let start = shown(&h);
    assert!(
        start.distance(target) > 10.0,
        "the knight starts from where it was: {start:?}, its square {target:?}"
    );
    let mut path = vec![start];
    for _ in 0..120 {
        h.step();
        path.push(shown(&h));
    }
    // It moved in steps, each closer than the last, and ends exactly on its square.
    assert!(path.windows(2).any(|w| w[0] != w[1]), "it slid: {path:?}");
    assert!(
        path.windows(2)
            .all(|w| w[1].distance(target) <= w[0].distance(target) + 0.01),
        "always nearer: {path:?}"
    );
    assert!(
        shown(&h).distance(target) < 0.5,
        "{:?} vs {target:?}",
        shown(&h)
    );
}

#[test]
fn with_animation_off_a_bot_move_is_drawn_on_its_square_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(dir.path(), "en");
    h.state_mut().shared.assist.animation = veillee_app::worker::Animation::Off;
    siege_against_a_bot(&mut h);
    wait(&mut h, "the bot's move", |h| moves(h) == Some(2));
    let scene = h.state().play().view.as_ref().unwrap().scene.clone();
    let board = &scene.boards[0];
    for piece in &board.pieces {
        let square = format!(
            "{}{}",
            board.col_labels[piece.col as usize], board.row_labels[piece.row as usize]
        );
        let key = veillee_app::scene::motion::key(&board.id, &piece.id);
        let at = h
            .state()
            .play()
            .scene()
            .motion
            .drawn_at(&key)
            .unwrap()
            .center();
        assert!(at.distance(h.get_by_label(&square).rect().center()) < 0.5);
    }
}

#[test]
fn every_built_in_game_has_a_picture_of_its_starting_position_in_the_library() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(dir.path(), "en");
    let games: Vec<(String, String)> = h
        .state()
        .shared
        .games
        .iter()
        .filter(|g| g.builtin)
        .map(|g| (g.manifest.id.clone(), g.manifest.name.en.clone()))
        .collect();
    // Each card says how long a game takes (every built-in game's manifest has it).
    let times: Vec<String> = h
        .state()
        .shared
        .games
        .iter()
        .filter(|g| g.builtin)
        .map(|g| {
            let t = g.manifest.play_time.expect("a built-in game's play time");
            format!(" · {}–{}\u{a0}min", t.min, t.max)
        })
        .collect();
    for time in &times {
        assert!(
            h.query_by_label_contains(time).is_some(),
            "{time}: {:?}",
            labels(&h)
        );
    }
    assert!(games.len() >= 6, "{games:?}");
    wait(&mut h, "the pictures", |h| {
        games
            .iter()
            .all(|(id, _)| h.state().shared.thumbnails.contains_key(id))
    });
    for (id, name) in &games {
        // The spectator's view of a new game: its boards, with pieces where a game has some
        // at the start.
        let scene = &h.state().shared.thumbnails[id];
        assert!(!scene.boards.is_empty(), "{id} has a board to draw");
        assert!(
            h.query_by_label(&format!("{name}: the starting position"))
                .is_some(),
            "{name}'s card shows it: {:?}",
            labels(&h)
        );
    }
}

/// Plays the first listed move of the seat to act until another seat is to act (a side of
/// two colours may move twice): one whole turn, sent as the screen's clicks are.
fn play_whole_turn(h: &mut Harness<'static, App>) -> Seat {
    let seat = actor(h).expect("a human acts");
    while actor(h) == Some(seat) {
        let view = h.state().play().view.clone().unwrap();
        let action = view.actions[0].id.clone();
        let before = view.meta.moves;
        h.state_mut()
            .shared
            .worker
            .send(veillee_app::worker::Request::Act { seat, action });
        wait(h, "the move", |h| moves(h) == Some(before + 1));
    }
    seat
}

#[test]
fn a_timed_game_ends_a_slow_turn_in_the_window_with_its_penalty() {
    let dir = tempfile::tempdir().unwrap();
    let variants = DataDir::at(dir.path()).variants();
    std::fs::create_dir_all(&variants).unwrap();
    // The shipped « Partie chronométrée », its three minutes cut to three seconds (a user
    // copy replaces the built-in script of the same id).
    let shipped = include_str!("../../../variants/chateau-noir/partie-chronometree.lua");
    let quick = shipped.replace("local LIMIT_SECONDS = 180", "local LIMIT_SECONDS = 3");
    assert_ne!(quick, shipped);
    std::fs::write(variants.join("partie-chronometree.lua"), quick).unwrap();
    let mut h = harness(dir.path(), "en");
    open_setup(&mut h, "Château Noir");
    h.get_by_label("Timed game").scroll_to_me();
    for _ in 0..30 {
        h.step();
    }
    h.get_by_label("Timed game").click();
    h.step();
    start(&mut h);
    assert!(
        h.query_by_label_contains("House rules: Timed game")
            .is_some(),
        "{:?}",
        labels(&h)
    );
    let first = play_whole_turn(&mut h);
    assert!(
        h.query_by_label_contains("Timed game: player").is_none(),
        "a quick turn costs nothing: {:?}",
        labels(&h)
    );
    std::thread::sleep(Duration::from_millis(3500));
    let slow = play_whole_turn(&mut h);
    assert_ne!(slow, first);
    let line = format!("Timed game: player {} took", slow + 1);
    wait(&mut h, "the penalty in the log", |h| {
        h.query_by_label_contains(&line).is_some()
    });
    let id = session_id(&h);
    // The window lets go of the database as it closes.
    drop(h);
    let (_, sessions) = common::catalog_and_sessions(dir.path());
    let log = sessions.log(id).unwrap();
    let slow_ms = log.last().unwrap().extra[veillee_runtime::session::TURN_TIME_KEY]
        .as_u64()
        .expect("the window saves each move's turn time");
    assert!(slow_ms >= 3500, "{slow_ms} ms");
}

/// A Siège house rule that is not shipped: the lord may not start with d6.
const NO_LORD_D6: &str = r#"
return {
  id = "pas-de-d6",
  name = { fr = "Pas de d6", en = "No d6" },
  description = { fr = "Le seigneur ne commence pas en d6.", en = "The lord does not start on d6." },
  game = "siege",
  version = "1.0.0",
  before_action = function(ctx, seat, action)
    if action.id == "lord-d6" then
      return false, { fr = "Pas en d6.", en = "Not on d6." }
    end
  end,
}
"#;

/// A session file of Siège played with `NO_LORD_D6`, made in another data directory.
fn session_file_with_a_house_rule(dir: &Path) -> std::path::PathBuf {
    let elsewhere = dir.join("elsewhere");
    std::fs::create_dir_all(elsewhere.join("variants")).unwrap();
    std::fs::write(elsewhere.join("variants/pas-de-d6.lua"), NO_LORD_D6).unwrap();
    let (catalog, sessions) = common::catalog_and_sessions(&elsewhere);
    let setup = Setup::new(2, 7);
    let wanted = ["pas-de-d6".to_string()];
    let (engine, recorded) = veillee_runtime::launch::engine_for_new_game(
        &catalog,
        "siege",
        &wanted,
        &setup,
        &mut |_| {},
    )
    .unwrap();
    let table = veillee_runtime::table::Table::start(
        sessions.clone(),
        engine,
        common::ana_and_bruno(),
        setup,
        recorded,
        Vec::new(),
    )
    .unwrap();
    let file = dir.join("with-a-rule.json");
    let exported = sessions.export(table.meta().id).unwrap();
    std::fs::write(&file, serde_json::to_string(&exported).unwrap()).unwrap();
    file
}

#[test]
fn a_session_file_bringing_a_script_is_imported_only_once_the_player_accepts_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = session_file_with_a_house_rule(dir.path());
    let mut h = harness(&dir.path().join("data"), "en");
    h.get_by_label("Saved games").click();
    wait(&mut h, "the saved games", |h| {
        h.query_by_label("No saved games yet.").is_some()
    });
    let ask = |h: &mut Harness<'static, App>| {
        h.get_by_label("Import a game…").click();
        wait(h, "the typed path", |h| {
            h.query_by_label("Saved-game file").is_some()
        });
        h.get_by_label("Saved-game file").click();
        h.step();
        h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
        h.get_by_label("Saved-game file")
            .type_text(&file.display().to_string());
        h.step();
        h.get_by_label("Import this file").click();
        wait(h, "the question", |h| {
            h.query_by_label_contains("brings scripts that are not installed here")
                .is_some()
        });
    };
    ask(&mut h);
    let question = common::texts(&h).join("\n");
    assert!(
        question.contains("pas-de-d6 (pas-de-d6.lua)") && question.contains("SHA-256 "),
        "{question}"
    );
    h.get_by_label("Cancel").click();
    wait(&mut h, "the refusal", |h| {
        h.query_by_label_contains("its scripts were not accepted")
            .is_some()
    });
    assert!(
        h.query_by_label("No saved games yet.").is_some(),
        "nothing was imported"
    );

    ask(&mut h);
    h.get_by_label("Import and run them").click();
    wait(&mut h, "the import", |h| {
        h.query_by_label_contains("Game imported").is_some()
    });
    assert!(h.query_by_label_contains("Resume #").is_some());
}
