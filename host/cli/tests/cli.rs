//! The `veillee` command line end to end, as a user runs it: a real process, a temporary data
//! directory, the real embedded wasm plugins. (These live in the host package because only
//! its own integration tests can locate the built binary.)

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn veillee(data: &Path, args: &[&str]) -> Output {
    veillee_with_input(data, args, "")
}

fn veillee_with_input(data: &Path, args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_veillee"))
        .args(args)
        .env("VEILLEE_DATA_DIR", data)
        // One compiled-code cache for the whole run: each test has its own data directory,
        // and compiling every plugin again for each would dominate the run time.
        .env(
            "VEILLEE_CACHE_DIR",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/compiled-plugins"),
        )
        .env("LANG", "en_GB.UTF-8")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("veillee starts");
    // The process may exit before reading everything (e.g. on an error): ignore a broken pipe.
    let _ = child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes());
    child.wait_with_output().expect("veillee finishes")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn games_lists_the_builtin_games() {
    let dir = tempfile::tempdir().unwrap();
    let out = veillee(dir.path(), &["games"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let siege = text
        .lines()
        .find(|l| l.starts_with("siege"))
        .unwrap_or_else(|| panic!("no siege in:\n{text}"));
    assert!(
        siege.contains("Siège") && siege.contains("built-in") && siege.contains(" 2 "),
        "{siege}"
    );
}

#[test]
fn help_lists_the_commands() {
    let dir = tempfile::tempdir().unwrap();
    let out = veillee(dir.path(), &["--help"]);
    assert!(out.status.success());
    assert!(stdout(&out).contains("simulate"), "{}", stdout(&out));
}

#[test]
fn simulate_json_reports_complete_games_without_errors() {
    let dir = tempfile::tempdir().unwrap();
    let out = veillee(
        dir.path(),
        &[
            "simulate", "siege", "--games", "40", "--seed", "3", "--json",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("one JSON object");
    assert_eq!(report["games"], 40);
    assert_eq!(report["errors"], 0, "{report}");
    let wins: u64 = report["wins"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_u64().unwrap())
        .sum();
    assert_eq!(wins + report["draws"].as_u64().unwrap(), 40);
    assert!(report["mean_length"].as_f64().unwrap() > 0.0);
}

#[test]
fn simulate_is_reproducible_from_its_seed() {
    let dir = tempfile::tempdir().unwrap();
    let run = |threads: &str| {
        let out = veillee(
            dir.path(),
            &[
                "simulate",
                "siege",
                "--games",
                "20",
                "--seed",
                "11",
                "--json",
                "--threads",
                threads,
            ],
        );
        let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        (
            v["wins"].clone(),
            v["draws"].clone(),
            v["total_moves"].clone(),
        )
    };
    assert_eq!(run("1"), run("2"));
}

#[test]
fn inspect_applies_actions_and_shows_the_viewers_scene() {
    let dir = tempfile::tempdir().unwrap();
    let out = veillee(
        dir.path(),
        &[
            "inspect",
            "siege",
            "--seed",
            "1",
            "--actions",
            "lord-d6,c0-d2",
            "--viewer",
            "1",
            "--json",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["applied"].as_array().unwrap().len(), 2);
    assert_eq!(
        v["status"]["seats"],
        serde_json::json!([1]),
        "the defender moves after the knight"
    );
    let ids: Vec<&str> = v["legal_actions"][0]["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["id"].as_str().unwrap())
        .collect();
    assert!(
        ids.contains(&"d5-d4"),
        "a soldier may leave its dot: {ids:?}"
    );
    assert!(
        !ids.iter().any(|id| id.starts_with("d6-")),
        "SG-R: the lord may not move yet: {ids:?}"
    );
    assert_eq!(v["state_hash"].as_str().unwrap().len(), 16);
}

#[test]
fn inspect_names_an_illegal_action_and_lists_the_legal_ones() {
    let dir = tempfile::tempdir().unwrap();
    let out = veillee(
        dir.path(),
        &["inspect", "siege", "--actions", "lord-d6,c0-c1", "--json"],
    );
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("action 2 of --actions (`c0-c1`)") && err.contains("c0-d2"),
        "{err}"
    );
}

#[test]
fn play_reasks_on_invalid_input_and_quits_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let out = veillee_with_input(
        dir.path(),
        &["play", "siege", "--seats", "random,human", "--seed", "5"],
        "xyz\n999\n1\nq\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("`xyz` is not one of the"), "{text}");
    assert!(text.contains("`999` is not one of the"), "{text}");
    assert!(
        text.contains("Defender: "),
        "the first answer was played: {text}"
    );
    assert!(
        text.contains("Saved. Resume with `veillee resume"),
        "{text}"
    );
}

/// A house rule for Castel: the first player to place a card hides a treasure, secretly.
const TREASURE: &str = r#"
return {
  id = "tresor",
  name = { fr = "Trésor", en = "Treasure" },
  description = { fr = "Le premier à poser une carte cache un trésor.", en = "The first to place a card hides a treasure." },
  game = "castel",
  version = "1.0.0",
  after_action = function(ctx, seat, action, events)
    if ctx.state.hidden or string.sub(action.id, 1, 6) ~= "place-" then
      return
    end
    ctx.state.hidden = ctx.choose(seat, {
      { fr = "Cacher le rubis", en = "Hide the ruby" },
      { fr = "Cacher la perle", en = "Hide the pearl" },
    }, { fr = "Où cacher le trésor ?", en = "Where to hide the treasure?" })
  end,
}
"#;

#[test]
fn the_terminal_shows_a_secret_answer_only_to_its_seat() {
    let dir = tempfile::tempdir().unwrap();
    let rule = dir.path().join("tresor.lua");
    std::fs::write(&rule, TREASURE).unwrap();
    // Black places a card, hides the ruby, draws; the screen is handed to Beige, who quits.
    let out = veillee_with_input(
        dir.path(),
        &[
            "play",
            "castel",
            "--seats",
            "human,human",
            "--seed",
            "3",
            "--variant",
            rule.to_str().unwrap(),
        ],
        "place-chevalier-noir-b5\n1\ndraw\n\nq\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let (black, beige) = text
        .split_once("==== Pass to Beige pawns")
        .unwrap_or_else(|| panic!("a hand-off screen: {text}"));
    assert!(black.contains("Black pawns: Hide the ruby"), "{black}");
    // The screen is cleared at the hand-off, and Beige catches up on what Black did, as
    // Beige may read it: that Black answered, not what.
    assert!(
        beige.starts_with(" — press Enter when ready ====\n\x1b[2J"),
        "{beige}"
    );
    assert!(
        beige.contains("Black pawns: answers: Where to hide the treasure?"),
        "{beige}"
    );
    assert!(
        beige.contains("Black pawns: Place Black Knight: b5"),
        "{beige}"
    );
    assert!(!beige.contains("ruby"), "{beige}");
}

/// The session id a `play` printed.
fn session_id(play_output: &str) -> String {
    let after = play_output
        .split("session ")
        .nth(1)
        .expect("play prints its session");
    after.split_whitespace().next().unwrap().to_string()
}

#[test]
fn a_played_game_is_saved_and_can_be_listed_resumed_undone_exported_imported_and_deleted() {
    let dir = tempfile::tempdir().unwrap();
    // Two human seats: lord on d6, the attacker's c0-d2, then quit.
    let out = veillee_with_input(
        dir.path(),
        &["play", "siege", "--seats", "human,human", "--seed", "9"],
        "lord-d6\nc0-d2\nq\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let id = session_id(&stdout(&out));

    let list = stdout(&veillee(dir.path(), &["sessions"]));
    let row = list
        .lines()
        .find(|l| l.trim_start().starts_with(&id))
        .unwrap_or_else(|| panic!("{list}"));
    assert!(
        row.contains("siege") && row.contains("in progress") && row.contains(" 2 "),
        "{row}"
    );

    let undo = veillee(dir.path(), &["undo", &id]);
    assert!(undo.status.success(), "{}", stderr(&undo));
    assert!(
        stdout(&undo).contains("1 moves taken back, now at move 1"),
        "{}",
        stdout(&undo)
    );

    let resumed = veillee_with_input(dir.path(), &["resume", &id], "q\n");
    assert!(stdout(&resumed).contains("move 1"), "{}", stdout(&resumed));
    assert!(
        stdout(&resumed).contains("c0-d2"),
        "the attacker is to move again: {}",
        stdout(&resumed)
    );

    let file = dir.path().join("game.json");
    assert!(
        veillee(dir.path(), &["export", &id, file.to_str().unwrap()])
            .status
            .success()
    );
    let imported = veillee(dir.path(), &["import", file.to_str().unwrap()]);
    assert!(
        stdout(&imported).contains("Imported as session"),
        "{}",
        stderr(&imported)
    );

    let deleted = veillee(dir.path(), &["delete", &id]);
    assert!(deleted.status.success());
    let list = stdout(&veillee(dir.path(), &["sessions"]));
    assert_eq!(
        list.lines().filter(|l| l.contains("siege")).count(),
        1,
        "only the imported copy is left: {list}"
    );
}

#[test]
fn importing_a_tampered_file_is_refused_and_names_the_move() {
    let dir = tempfile::tempdir().unwrap();
    let out = veillee_with_input(
        dir.path(),
        &["play", "siege", "--seats", "human,human", "--seed", "9"],
        "lord-d6\nc0-d2\nq\n",
    );
    let id = session_id(&stdout(&out));
    let file = dir.path().join("game.json");
    veillee(dir.path(), &["export", &id, file.to_str().unwrap()]);
    let text = std::fs::read_to_string(&file)
        .unwrap()
        .replace("c0-d2", "c0-c1");
    std::fs::write(&file, text).unwrap();
    let imported = veillee(dir.path(), &["import", file.to_str().unwrap()]);
    assert!(!imported.status.success());
    assert!(
        stderr(&imported).contains("diverges at move 2 (`c0-c1`"),
        "{}",
        stderr(&imported)
    );
}

#[test]
fn simulate_saves_sessions_only_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    veillee(dir.path(), &["simulate", "siege", "--games", "3", "--json"]);
    assert!(stdout(&veillee(dir.path(), &["sessions"])).contains("No saved sessions"));
    let out = veillee(
        dir.path(),
        &["simulate", "siege", "--games", "3", "--json", "--save"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let list = stdout(&veillee(dir.path(), &["sessions"]));
    assert_eq!(
        list.lines().filter(|l| l.contains("siege")).count(),
        3,
        "{list}"
    );
}

#[test]
fn install_refuses_a_file_that_is_not_a_plugin_and_installs_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let bogus = dir.path().join("notes.wasm");
    std::fs::write(&bogus, "just some text").unwrap();
    let out = veillee(dir.path(), &["install", bogus.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("not a WebAssembly module"),
        "{}",
        stderr(&out)
    );
    let installed = std::fs::read_dir(dir.path().join("plugins"))
        .map(|d| d.count())
        .unwrap_or(0);
    assert_eq!(installed, 0);
}

#[test]
fn install_refuses_to_shadow_a_builtin_game() {
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("my-siege.wasm");
    std::fs::write(
        &copy,
        veillee_runtime::builtin::plugin_bytes("siege").unwrap(),
    )
    .unwrap();
    let out = veillee(dir.path(), &["install", copy.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("`siege` is the id of a built-in game"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_broken_installed_plugin_is_reported_and_the_rest_still_works() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("plugins")).unwrap();
    std::fs::write(
        dir.path().join("plugins/broken.wasm"),
        b"\0asm\x01\0\0\0garbage",
    )
    .unwrap();
    let out = veillee(dir.path(), &["games"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("siege"));
    assert!(stderr(&out).contains("broken.wasm"), "{}", stderr(&out));
}

#[test]
fn check_runs_the_conformance_kit_against_the_native_build() {
    let dir = tempfile::tempdir().unwrap();
    let out = veillee(dir.path(), &["check", "siege", "--games", "2"]);
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
    assert!(
        stdout(&out).contains("native and wasm builds compared"),
        "{}",
        stdout(&out)
    );
    assert!(stdout(&out).contains("conformance: passed"));
}

#[test]
fn check_plays_only_the_player_count_asked_and_refuses_one_the_game_has_not() {
    let dir = tempfile::tempdir().unwrap();
    let out = veillee(
        dir.path(),
        &["check", "chateau-noir", "--players", "3", "--games", "1"],
    );
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
    assert!(
        stdout(&out).contains("chateau-noir: 1 games (3 players), "),
        "{}",
        stdout(&out)
    );

    let out = veillee(dir.path(), &["check", "siege", "--players", "3"]);
    assert!(!out.status.success(), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("siege plays with 2–2 players, not 3"),
        "{}",
        stderr(&out)
    );
}

/// A user's copy of Castel's cards whose every placement tells the table a card of the
/// placer's hand: `veillee check castel` plays the game with it and refuses it, naming who
/// reads the secret, how often, where first, and the first text that differed.
#[test]
fn check_refuses_a_script_that_tells_a_hand_naming_the_seat_and_the_text() {
    let dir = tempfile::tempdir().unwrap();
    let text = include_str!("../../../variants/castel/cards.lua");
    let end = "    command(ctx, \"end_effect\")\n  end,\n}";
    assert!(text.contains(end), "cards.lua ends as this test expects");
    let leak = "    local hand = query(ctx, \"hand\", { seat = pending.seat })\n    \
                if #hand > 0 then ctx.event({ fr = \"garde \" .. hand[1], en = \"keeps \" .. hand[1] }) end\n";
    let folder = dir.path().join("variants");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(
        folder.join("cards.lua"),
        text.replace(end, &format!("{leak}{end}")),
    )
    .unwrap();

    let out = veillee(
        dir.path(),
        &["check", "castel", "--players", "2", "--games", "1"],
    );
    let text = stdout(&out);
    assert!(!out.status.success(), "{text}");
    assert!(
        stderr(&out).contains("castel failed the conformance kit"),
        "{}",
        stderr(&out)
    );
    let leak = text
        .lines()
        .position(|l| {
            l.contains("FAILED leak: the events of seat 0, Black pawns's action as the spectator reads them depend on what the spectator cannot see")
        })
        .unwrap_or_else(|| panic!("{text}"));
    let line = text.lines().nth(leak).unwrap();
    assert!(line.contains("first: 2 players, seed 1, move "), "{line}");
    let detail = text.lines().nth(leak + 1).unwrap();
    assert!(
        detail.contains("first difference: ") && detail.contains("\"keeps "),
        "{detail}"
    );
}

#[test]
fn uninstalling_a_builtin_game_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = veillee(dir.path(), &["uninstall", "siege"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("built-in game and cannot be uninstalled"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn simulate_runs_house_rules_move_by_move_without_errors() {
    let dir = tempfile::tempdir().unwrap();
    let out = veillee(
        dir.path(),
        &[
            "simulate",
            "siege",
            "--games",
            "20",
            "--seed",
            "4",
            "--json",
            "--variant",
            "renforts",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        (report["games"].as_u64(), report["errors"].as_u64()),
        (Some(20), Some(0)),
        "{report}"
    );
    let unknown = veillee(
        dir.path(),
        &["simulate", "siege", "--games", "1", "--variant", "nope"],
    );
    assert!(!unknown.status.success());
    assert!(
        stderr(&unknown).contains("renforts"),
        "lists the house rules there are: {}",
        stderr(&unknown)
    );
}

const LORD_ON_E6: &str = r#"
return {
  id = "seigneur-e6",
  name = { fr = "Seigneur en e6", en = "Lord on e6" },
  description = { fr = "Le seigneur commence en e6.", en = "The lord starts on e6." },
  game = "siege",
  version = "1.0.0",
  before_action = function(ctx, seat, action)
    if action.id == "lord-d6" then
      return false, { fr = "Le seigneur commence en e6.", en = "The lord starts on e6." }
    end
  end,
}
"#;

#[test]
fn a_session_keeps_playing_the_house_rule_text_it_started_with() {
    let dir = tempfile::tempdir().unwrap();
    let scripts = dir.path().join("variants");
    std::fs::create_dir_all(&scripts).unwrap();
    std::fs::write(scripts.join("seigneur-e6.lua"), LORD_ON_E6).unwrap();
    let out = veillee_with_input(
        dir.path(),
        &[
            "play",
            "siege",
            "--seats",
            "human,human",
            "--seed",
            "2",
            "--variant",
            "seigneur-e6",
        ],
        "lord-d6\nlord-e6\nq\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("Refused: The lord starts on e6."), "{text}");
    assert!(text.contains("Defender: "), "lord-e6 was played: {text}");
    let id = session_id(&text);
    // The file changes (here: breaks); the session still runs the recorded text.
    std::fs::write(scripts.join("seigneur-e6.lua"), "return {").unwrap();
    let resumed = veillee_with_input(dir.path(), &["resume", &id], "q\n");
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert!(stdout(&resumed).contains("move 1"), "{}", stdout(&resumed));
}

#[test]
fn castel_lists_its_cards_as_part_of_the_game_and_the_dragon_as_a_house_rule() {
    let dir = tempfile::tempdir().unwrap();
    let out = veillee(dir.path(), &["variants", "castel"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let cards = text
        .lines()
        .find(|l| l.trim_start().starts_with("cartes"))
        .unwrap_or_else(|| panic!("no cards script in:\n{text}"));
    assert!(cards.contains("part of the game"), "{cards}");
    assert!(cards.contains("builtin:castel/cards.lua"), "{cards}");
    let dragon = text
        .lines()
        .find(|l| l.trim_start().starts_with("dragon-apprivoise"))
        .unwrap_or_else(|| panic!("no Dragon apprivoisé in:\n{text}"));
    assert!(!dragon.contains("part of the game"), "{dragon}");
}

/// One `simulate --json` report of Castel.
fn castel_report(data: &Path, players: &str, games: &str) -> serde_json::Value {
    let out = veillee(
        data,
        &[
            "simulate",
            "castel",
            "--players",
            players,
            "--games",
            games,
            "--seed",
            "11",
            "--json",
        ],
    );
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
    serde_json::from_str(&stdout(&out)).expect("one JSON object")
}

#[test]
fn castel_random_games_with_its_cards_end_without_errors_for_every_table() {
    let dir = tempfile::tempdir().unwrap();
    for players in ["2", "3", "4", "5"] {
        let report = castel_report(dir.path(), players, "25");
        assert_eq!(report["errors"], 0, "{players} players: {report}");
        assert_eq!(report["games"], 25);
    }
}

#[test]
fn editing_a_copy_of_castels_cards_changes_the_game_without_rebuilding() {
    let dir = tempfile::tempdir().unwrap();
    let before = castel_report(dir.path(), "3", "40");

    // The user's copy (same id) takes the built-in script's place: the Roi returns nothing.
    let text = include_str!("../../../variants/castel/cards.lua");
    let roi = "function effects.roi(ctx, a)\n";
    assert!(
        text.contains(roi),
        "the Roi's effect is where this test expects it"
    );
    let edited = text.replace(roi, &format!("{roi}  do return end\n"));
    let folder = dir.path().join("variants");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("cards.lua"), edited).unwrap();

    let listed = stdout(&veillee(dir.path(), &["variants", "castel"]));
    assert!(
        listed.contains(&folder.join("cards.lua").display().to_string()),
        "the copy replaces the built-in script:\n{listed}"
    );
    let after = castel_report(dir.path(), "3", "40");
    assert_eq!(after["errors"], 0, "{after}");
    assert_ne!(
        (&before["mean_length"], &before["wins"]),
        (&after["mean_length"], &after["wins"]),
        "same seeds, another Roi: other games"
    );
}

#[test]
fn simulations_with_scripts_give_the_same_games_on_one_thread_or_two() {
    let dir = tempfile::tempdir().unwrap();
    let run = |threads: &str| {
        let out = veillee(
            dir.path(),
            &[
                "simulate",
                "castel",
                "--players",
                "3",
                "--games",
                "12",
                "--seed",
                "5",
                "--threads",
                threads,
                "--json",
            ],
        );
        assert!(out.status.success(), "{}", stderr(&out));
        let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        assert_eq!(report["errors"], 0, "{report}");
        (report["wins"].clone(), report["mean_length"].clone())
    };
    assert_eq!(run("1"), run("2"));
}
