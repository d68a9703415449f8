//! The `veillee` command line end to end, as a user runs it: a real process, a temporary data
//! directory, the real embedded wasm plugins. (These live in the host package because only
//! its own integration tests can locate the built binary.)

mod common;

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::{command, veillee_with_input, WithPhones};

fn veillee(data: &Path, args: &[&str]) -> Output {
    veillee_with_input(data, args, "")
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
fn games_keeps_its_columns_aligned_whatever_the_length_of_a_name() {
    let dir = tempfile::tempdir().unwrap();
    let out = veillee(dir.path(), &["games", "--lang", "en"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("Blackrock Castle"),
        "the long name is there: {text}"
    );
    // Where the "origin" column starts, counted in characters as a terminal shows them.
    let origin_at = |line: &str, word: &str| {
        let at = line
            .rfind(word)
            .unwrap_or_else(|| panic!("no {word} in {line:?}"));
        line[..at].chars().count()
    };
    let lines: Vec<&str> = text.lines().collect();
    let header = origin_at(lines[0], "origin");
    for game in &lines[1..] {
        assert_eq!(origin_at(game, "built-in"), header, "misaligned:\n{text}");
    }
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

/// A two-seat Castel game with « Trésor » in `data`: Black places a card, hides the ruby and
/// draws; the screen is handed to Beige, who quits.
fn play_castel_hiding_the_ruby(data: &Path) -> Output {
    let rule = data.join("tresor.lua");
    std::fs::write(&rule, TREASURE).unwrap();
    veillee_with_input(
        data,
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
    )
}

#[test]
fn the_terminal_shows_a_secret_answer_only_to_its_seat() {
    let dir = tempfile::tempdir().unwrap();
    let out = play_castel_hiding_the_ruby(dir.path());
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

/// The terminal at a hidden-information game: each seat's figures on a line after its name,
/// a move's event that only says the move again left out, and a move taken back never told
/// to the next player.
#[test]
fn the_terminal_names_each_seats_figures_and_tells_no_undone_move() {
    let dir = tempfile::tempdir().unwrap();
    // Black places the knight on b5, takes it back, places it on c5 and draws; the screen
    // is handed to Beige, who quits.
    let out = veillee_with_input(
        dir.path(),
        &["play", "castel", "--seats", "human,human", "--seed", "3"],
        "place-chevalier-noir-b5\nu\nplace-chevalier-noir-c5\ndraw\n\nq\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("\n  Black pawns: Cards in hand 9, Draw pile 13\n  Beige pawns: Cards in hand 9, Draw pile 13\n"),
        "{text}"
    );
    assert!(text.contains("Undone (1 moves)."), "{text}");
    // Castel's event "Black pawns: Draw" says the move "Draw" again: one line, not two.
    assert!(text.contains("Black pawns: Draw\n"), "{text}");
    assert!(!text.contains("    Black pawns: Draw"), "{text}");
    let (_, beige) = text
        .split_once("==== Pass to Beige pawns")
        .unwrap_or_else(|| panic!("a hand-off screen: {text}"));
    assert!(
        beige.contains("Black pawns: Place Black Knight: c5\nBlack pawns: Draw\n"),
        "{beige}"
    );
    assert!(
        !beige.contains("Black Knight: b5"),
        "the move taken back is not told: {beige}"
    );
}

/// A game in progress shared as one seat saw it: Beige's file tells that Black answered,
/// not what, and holds no seed and no move ids; Black's own file has Black's answer. The
/// full export warns that it holds everyone's secrets.
#[test]
fn export_as_a_seat_gives_that_seats_view_only() {
    let dir = tempfile::tempdir().unwrap();
    let out = play_castel_hiding_the_ruby(dir.path());
    assert!(out.status.success(), "{}", stderr(&out));
    let id = session_id(&stdout(&out));

    let full = dir.path().join("full.json");
    let out = veillee(dir.path(), &["export", &id, full.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("The file holds every player's secrets"),
        "{}",
        stderr(&out)
    );

    let beige = dir.path().join("beige.json");
    let out = veillee(
        dir.path(),
        &["export", &id, beige.to_str().unwrap(), "--seat", "1"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("as seat 1 (Beige"),
        "{}",
        stdout(&out)
    );
    let text = std::fs::read_to_string(&beige).unwrap();
    assert!(text.contains("\"format\": \"veillee-seat-view\""), "{text}");
    assert!(
        text.contains("answers: Where to hide the treasure?"),
        "{text}"
    );
    for secret in ["ruby", "rubis", "\"seed\"", "place-chevalier-noir-b5"] {
        assert!(!text.contains(secret), "{secret} in {text}");
    }
    // The board Beige saw after each move is in the file, and shown by show-view.
    let out = veillee(dir.path(), &["show-view", beige.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let shown = stdout(&out);
    assert!(
        shown.contains("Black pawns: answers: Where to hide"),
        "{shown}"
    );
    assert!(!shown.contains("ruby"), "{shown}");
    let out = veillee(
        dir.path(),
        &["show-view", beige.to_str().unwrap(), "--move", "99"],
    );
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("--move goes from 0"),
        "{}",
        stderr(&out)
    );

    let black = dir.path().join("black.json");
    let out = veillee(
        dir.path(),
        &["export", &id, black.to_str().unwrap(), "--seat", "0"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&black).unwrap();
    assert!(text.contains("Hide the ruby"), "{text}");

    let out = veillee(
        dir.path(),
        &["export", &id, black.to_str().unwrap(), "--seat", "2"],
    );
    assert!(!out.status.success());
    assert!(stderr(&out).contains("not seat 2"), "{}", stderr(&out));
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
    // Each game names its saved session, so a figure's game can be opened and read.
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("one JSON object");
    for game in report["each_game"].as_array().expect("a list of games") {
        let id = game["session"].as_u64().expect("a session id").to_string();
        assert!(
            list.split_whitespace().any(|word| word == id),
            "session {id} of {game} not in:\n{list}"
        );
    }
}

#[test]
fn simulate_lists_every_game_by_seed_with_how_it_ended() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "simulate",
        "siege",
        "--seats",
        "random,random",
        "--games",
        "6",
        "--seed",
        "40",
    ];
    let out = veillee(dir.path(), &[&args[..], &["--json"]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("one JSON object");
    let games = report["each_game"].as_array().expect("a list of games");
    let seeds: Vec<u64> = games.iter().map(|g| g["seed"].as_u64().unwrap()).collect();
    assert_eq!(seeds, (40..46).collect::<Vec<_>>());
    // The list adds up to the totals: wins per seat, draws, lengths.
    let mut wins = [0u64; 2];
    for game in games {
        let winners = game["winners"].as_array().unwrap();
        match game["ended"].as_str().unwrap() {
            "won" => assert!(!winners.is_empty(), "{game}"),
            "drawn" => assert!(winners.is_empty(), "{game}"),
            other => panic!("a random Siège game ended as {other}: {game}"),
        }
        assert!(!game["reason"].as_str().unwrap().is_empty(), "{game}");
        for seat in winners {
            wins[seat.as_u64().unwrap() as usize] += 1;
        }
    }
    assert_eq!(report["wins"], serde_json::json!(wins));
    let moves: u64 = games.iter().map(|g| g["moves"].as_u64().unwrap()).sum();
    assert_eq!(report["total_moves"], moves);
    // The text names the seeds behind each ending, to replay one.
    let text = stdout(&veillee(dir.path(), &args));
    let first = games[0]["reason"].as_str().unwrap();
    let ending = text
        .lines()
        .find(|l| l.contains(first))
        .unwrap_or_else(|| panic!("no line for `{first}` in:\n{text}"));
    assert!(
        ending.contains("seed 40") || ending.contains("seeds 40,"),
        "{ending}"
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
    // Asking for a game that is not there points at the plugins that were left out.
    let out = veillee(dir.path(), &["play", "broken", "--seats", "random,random"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("`veillee plugins` says why"),
        "{}",
        stderr(&out)
    );
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

/// Turns of the slow plugin's empty loop per new game: a fraction of a second each (its
/// self-check takes some six seconds here), far within the five-second deadline of a call.
const SLOW_SPINS: u32 = 1_000_000_000;

#[test]
fn installing_a_slow_plugin_says_which_self_check_game_plays_before_it_ends() {
    use std::io::BufRead;
    let dir = tempfile::tempdir().unwrap();
    let file = write_plugin(
        dir.path(),
        "slow.wasm",
        &one_move_plugin_spinning("", false, SLOW_SPINS),
    );
    let mut child = command(dir.path(), &["install", file.to_str().unwrap()])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("veillee starts");
    let mut lines = std::io::BufReader::new(child.stderr.take().unwrap()).lines();
    let first = lines
        .next()
        .expect("a line before the end")
        .expect("readable");
    // Said as the first game starts: the three others, slow, are still to come.
    assert_eq!(first, "self-check: game 1 of 4, 1 player…");
    assert!(
        child.try_wait().unwrap().is_none(),
        "the progress came while the install was still at work"
    );
    let rest: Vec<String> = lines.map_while(Result::ok).collect();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{rest:?}");
    assert_eq!(
        rest,
        [
            "self-check: game 2 of 4, 1 player…",
            "self-check: game 3 of 4, 2 players…",
            "self-check: game 4 of 4, 2 players…",
        ],
        "one plain line per game when stderr is not a terminal"
    );
    assert!(
        stdout(&out).contains("Installed One move"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn check_says_each_game_as_it_plays_in_the_players_language() {
    let dir = tempfile::tempdir().unwrap();
    let out = veillee(dir.path(), &["check", "siege", "--games", "2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "siege, 2 players: game 1 of 2…\nsiege, 2 players: game 2 of 2…\n"
    );
    let out = veillee(
        dir.path(),
        &["check", "siege", "--games", "2", "--lang", "fr"],
    );
    assert!(
        stderr(&out).contains("siege, 2 joueurs : partie 2 sur 2…"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_cache_others_can_write_is_said_once_per_run_with_the_way_to_fix_it() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("shared-cache");
    std::fs::create_dir(&cache).unwrap();
    std::fs::set_permissions(&cache, std::fs::Permissions::from_mode(0o777)).unwrap();
    let run = |args: &[&str]| {
        let out = command(dir.path(), args)
            .env("VEILLEE_CACHE_DIR", &cache)
            .env("VEILLEE_CACHE_KEY", dir.path().join("cache.key"))
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        stderr(&out)
    };
    for args in [
        &["games"][..],
        &["simulate", "siege", "--games", "2"],
        &["plugins"],
    ] {
        let said = run(args);
        let warnings: Vec<&str> = said
            .lines()
            .filter(|l| l.contains("compiled-code cache"))
            .collect();
        assert_eq!(warnings.len(), 1, "{args:?} says it once: {said}");
        assert!(
            warnings[0].starts_with("warning: ")
                && warnings[0].contains("writable by other users")
                && warnings[0].contains(&format!("`chmod go-rwx {}`", cache.display())),
            "the reason and the fix: {said}"
        );
    }
    // Fixed as it says, the cache is used and nothing is said.
    std::fs::set_permissions(&cache, std::fs::Permissions::from_mode(0o700)).unwrap();
    assert_eq!(run(&["games"]), "");
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
        stderr(&out).contains("siege plays with 2 players, not 3"),
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
    let folder = dir.path().join("variants");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("cards.lua"), leaking_cards()).unwrap();

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
    assert!(
        listed.contains("[modified rules: a new game runs them when picked with --variant]"),
        "{listed}"
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

#[test]
fn renard_plays_in_the_terminal_on_its_cross_of_points_and_lines() {
    let dir = tempfile::tempdir().unwrap();
    let out = veillee_with_input(
        dir.path(),
        &["play", "renard", "--seats", "human,human", "--seed", "1"],
        "c3-c4\nd4xd6\nd4-d5\nq\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    // The cross: its top arm with the diagonals of each small square, its full middle rows.
    for line in [
        "  7          .---.---.",
        "             | \\ | / |",
        "  5  .---.---.---.---.---.---.",
        "     | \\ | / | \\ | / | \\ | / |",
        "     a   b   c   d   e   f   g",
    ] {
        assert!(text.contains(line), "no {line:?} in:\n{text}");
    }
    assert!(
        text.contains("Hens: c3-c4") || text.contains("Hens: Hen c3 → c4"),
        "{text}"
    );
    // d4xd6 was not legal (no hen on d5): asked again, then the fox stepped.
    assert!(text.contains("`d4xd6` is not one of the"), "{text}");
    assert!(text.contains("Fox d4 → d5"), "{text}");
}

#[test]
fn inspect_text_prints_the_scene_as_the_terminal_draws_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = veillee(
        dir.path(),
        &["inspect", "renard", "--actions", "c3-c4", "--text"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("  4  .---.---O---l---.---.---."), "{text}");
    assert!(text.contains("Seat 1 to act:"), "{text}");
    assert!(text.contains("Fox d4 → d5  [d4-d5]"), "{text}");
    assert!(!text.trim_start().starts_with('{'), "not JSON: {text}");
}

/// How long one `cargo` run of the new plugin may take before the test gives up on it: a cold
/// build of its few dependencies takes a minute or two on two cores.
const CARGO_TIME_LIMIT: Duration = Duration::from_secs(15 * 60);

/// Runs `command` to its end, its output in files under `dir` (so that a full pipe never
/// blocks it), killing it past `limit`; fails the test with its output if it fails.
fn run_bounded(mut command: Command, dir: &Path, limit: Duration) {
    let log = |name: &str| std::fs::File::create(dir.join(name)).unwrap();
    let mut child = command
        .stdin(Stdio::null())
        .stdout(log("cargo.out"))
        .stderr(log("cargo.err"))
        .spawn()
        .expect("cargo starts");
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    let output = std::fs::read_to_string(dir.join("cargo.err")).unwrap_or_default();
    match status {
        Some(status) if status.success() => {}
        Some(status) => panic!("{command:?} failed ({status}):\n{output}"),
        None => panic!("{command:?} took more than {limit:?}, stopped:\n{output}"),
    }
}

/// `veillee new` outside the repository, built to wasm against this clone's SDK, and checked.
#[test]
fn a_new_plugin_builds_to_wasm_and_passes_the_checks_as_it_is() {
    let home = tempfile::tempdir().unwrap();
    let data = home.path().join("data");
    let out = veillee(
        &data,
        &[
            "new",
            "nine-men",
            "--dir",
            home.path().join("nine-men").to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let crate_dir = home.path().join("nine-men");
    let manifest = std::fs::read_to_string(crate_dir.join("Cargo.toml")).unwrap();
    let sdk = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../sdk")
        .canonicalize()
        .unwrap();
    assert!(
        manifest.contains(&format!(
            "veillee-sdk = {{ path = {:?} }}",
            sdk.to_str().unwrap()
        )),
        "the SDK of this clone, by path:\n{manifest}"
    );
    // The workspace's lock file pins the versions already fetched, so that the build works
    // offline; a target folder of its own under this build's keeps rebuilds quick.
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../Cargo.lock"),
        crate_dir.join("Cargo.lock"),
    )
    .unwrap();
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("new-plugin-target");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let run = |args: &[&str]| {
        let mut command = Command::new(&cargo);
        command
            .args(args)
            .current_dir(&crate_dir)
            .env("CARGO_TARGET_DIR", &target)
            .env_remove("RUSTFLAGS")
            .env_remove("CARGO_ENCODED_RUSTFLAGS");
        run_bounded(command, home.path(), CARGO_TIME_LIMIT);
    };
    run(&["test", "--offline", "--quiet"]);
    run(&[
        "build",
        "--offline",
        "--release",
        "--target",
        "wasm32-unknown-unknown",
    ]);
    let wasm = target.join("wasm32-unknown-unknown/release/nine_men.wasm");
    let out = veillee(&data, &["check", wasm.to_str().unwrap(), "--games", "5"]);
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
    assert!(
        stdout(&out).contains("conformance: passed"),
        "{}",
        stdout(&out)
    );
    let out = veillee(&data, &["install", wasm.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = veillee(&data, &["inspect", "nine-men", "--actions", "b2", "--text"]);
    assert!(stdout(&out).contains("  2  . X ."), "{}", stdout(&out));
}

#[test]
fn new_refuses_a_bad_id_and_a_folder_in_use() {
    let dir = tempfile::tempdir().unwrap();
    let out = veillee(dir.path(), &["new", "Nine Men"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("cannot be a game id"),
        "{}",
        stderr(&out)
    );
    std::fs::write(dir.path().join("keep.txt"), "mine").unwrap();
    let out = veillee(
        dir.path(),
        &["new", "x", "--dir", dir.path().to_str().unwrap()],
    );
    assert!(stderr(&out).contains("not empty"), "{}", stderr(&out));
}

/// Runs `veillee` and fails the test if it has not finished within `seconds` (a FIFO or a
/// device in the data directory once made every start hang or read forever).
fn veillee_within(data: &Path, args: &[&str], seconds: u64) -> Output {
    let child = command(data, args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("veillee starts");
    let id = child.id();
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = sender.send(child.wait_with_output());
    });
    match receiver.recv_timeout(std::time::Duration::from_secs(seconds)) {
        Ok(output) => output.expect("veillee finishes"),
        Err(_) => {
            let _ = Command::new("kill").args(["-9", &id.to_string()]).status();
            panic!("veillee {args:?} did not finish within {seconds} s");
        }
    }
}

#[cfg(unix)]
fn symlink(target: impl AsRef<Path>, at: &Path) {
    std::os::unix::fs::symlink(target, at).unwrap();
}

#[cfg(unix)]
fn mkfifo(at: &Path) {
    let made = Command::new("mkfifo")
        .arg(at)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
}

#[cfg(unix)]
#[test]
fn devices_fifos_and_link_loops_in_the_data_directory_are_reported_and_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let plugins = dir.path().join("plugins");
    let variants = dir.path().join("variants");
    std::fs::create_dir_all(&plugins).unwrap();
    std::fs::create_dir_all(&variants).unwrap();
    symlink("/dev/zero", &plugins.join("zero.wasm"));
    mkfifo(&plugins.join("pipe.wasm"));
    symlink("/dev/zero", &variants.join("zero.lua"));
    mkfifo(&variants.join("pipe.lua"));
    symlink(".", &variants.join("again"));
    symlink("self.lua", &variants.join("self.lua"));
    let rule = r#"return { id = "maison", name = { fr = "Maison", en = "House" },
        description = { fr = "-", en = "-" }, game = "siege", version = "1.0.0" }"#;
    std::fs::write(variants.join("maison.lua"), rule).unwrap();
    symlink("maison.lua", &variants.join("twin.lua"));

    let out = veillee_within(dir.path(), &["games"], 60);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("siege"));
    let errors = stderr(&out);
    assert!(
        errors.contains("zero.wasm is a character device, not a regular file; skipped"),
        "{errors}"
    );
    assert!(
        errors.contains("pipe.wasm is a FIFO (named pipe), not a regular file; skipped"),
        "{errors}"
    );

    let out = veillee_within(dir.path(), &["variants", "siege"], 60);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.matches("maison ").count(), 1, "read once:\n{text}");
    for expected in [
        "zero.lua: is a character device, not a regular file; skipped",
        "pipe.lua: is a FIFO (named pipe), not a regular file; skipped",
        "again: leads back to",
        "self.lua: is a loop of links; skipped",
        "twin.lua: is the same file as",
    ] {
        assert!(text.contains(expected), "{expected} in:\n{text}");
    }

    let out = veillee_within(dir.path(), &["install", "/dev/zero"], 60);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("/dev/zero is a character device, not a regular file"),
        "{}",
        stderr(&out)
    );
}

/// `count` random Siège games saved as sessions 1, 2, …
fn saved_siege_games(data: &Path, count: &str) {
    let out = veillee(
        data,
        &[
            "simulate", "siege", "--games", count, "--save", "--seed", "4",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn a_set_aside_database_is_offered_and_its_games_brought_back() {
    let dir = tempfile::tempdir().unwrap();
    saved_siege_games(dir.path(), "2");
    // What an older Veillée did on a full disk: the healthy database renamed as broken.
    std::fs::rename(
        dir.path().join("sessions.sled"),
        dir.path().join("sessions.broken-1700000000"),
    )
    .unwrap();
    let out = veillee(dir.path(), &["sessions"]);
    let text = stdout(&out);
    assert!(text.contains("No saved sessions yet"), "{text}");
    assert!(
        text.contains("2 game(s) there can be read and are not here: `veillee restore sessions.broken-1700000000` brings them back"),
        "{text}"
    );
    let out = veillee(dir.path(), &["restore", "sessions.broken-1700000000"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("Session 1 brought back.") && text.contains("Session 2 brought back."),
        "{text}"
    );
    assert!(text.contains("Every game of it is back"), "{text}");
    assert!(
        text.contains(
            "2 game(s) of it could be read (2 brought back, 0 already here); 0 could not."
        ),
        "{text}"
    );
    let out = veillee(dir.path(), &["sessions"]);
    let text = stdout(&out);
    assert_eq!(
        text.lines().filter(|l| l.contains("siege")).count(),
        2,
        "{text}"
    );
    assert!(!text.contains("Set aside"), "{text}");
}

#[cfg(unix)]
#[test]
fn on_a_full_disk_the_saved_games_stay_where_they_are() {
    let dir = tempfile::tempdir().unwrap();
    saved_siege_games(dir.path(), "3");
    // No file may grow: every write fails with EFBIG, as on a full disk (root included).
    let out = Command::new("sh")
        .arg("-c")
        .arg("trap '' XFSZ; ulimit -f 0; exec \"$0\" sessions")
        .arg(env!("CARGO_BIN_EXE_veillee"))
        .env("VEILLEE_DATA_DIR", dir.path())
        .env("LANG", "en_GB.UTF-8")
        .output()
        .unwrap();
    let text = format!("{}{}", stdout(&out), stderr(&out));
    assert!(!text.contains("No saved sessions yet"), "{text}");
    if !out.status.success() {
        assert!(text.contains("the disk refused"), "{text}");
        assert!(
            text.contains("saved games were left where they are"),
            "{text}"
        );
    }
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        !names.iter().any(|n| n.starts_with("sessions.broken")),
        "{names:?}"
    );
    let out = veillee(dir.path(), &["sessions"]);
    assert_eq!(
        stdout(&out).lines().filter(|l| l.contains("siege")).count(),
        3,
        "{}",
        stdout(&out)
    );
}

#[test]
fn games_options_lists_each_games_options_with_their_values_and_default() {
    let dir = tempfile::tempdir().unwrap();
    let out = veillee(dir.path(), &["games", "--options"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("--option mode=teams|individual   With four players (default: teams)"),
        "{text}"
    );
    assert!(text.contains("(no options)"), "siege has none:\n{text}");
    // Without the flag, one line per game.
    let plain = stdout(&veillee(dir.path(), &["games"]));
    assert!(!plain.contains("--option"), "{plain}");
}

/// Four players each for themselves, only reachable through the game's `mode` option.
#[test]
fn simulate_and_check_take_game_options() {
    let dir = tempfile::tempdir().unwrap();
    let out = veillee(
        dir.path(),
        &[
            "simulate",
            "chateau-noir",
            "--players",
            "4",
            "--option",
            "mode=individual",
            "--games",
            "6",
            "--json",
        ],
    );
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
    let individual: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(individual["errors"], 0, "{individual}");
    let teams: serde_json::Value = serde_json::from_str(&stdout(&veillee(
        dir.path(),
        &[
            "simulate",
            "chateau-noir",
            "--players",
            "4",
            "--games",
            "6",
            "--json",
        ],
    )))
    .unwrap();
    assert_ne!(
        (&individual["mean_length"], &individual["wins"]),
        (&teams["mean_length"], &teams["wins"]),
        "same seeds, other mode: other games"
    );
    let out = veillee(
        dir.path(),
        &[
            "check",
            "chateau-noir",
            "--games",
            "1",
            "--option",
            "mode=individual",
        ],
    );
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
    assert!(
        stdout(&out).starts_with("chateau-noir with mode=individual: 3 games"),
        "{}",
        stdout(&out)
    );
}

// ---------------------------------------------------------------------------------------
// Hostile plugins at the command line: texts with escape sequences, a plugin
// that gets stuck for one seed, a module that would take the compiler to gigabytes.
// ---------------------------------------------------------------------------------------

/// Clear screen, set the window title, write the clipboard (OSC 52), and an 8-bit CSI.
const ESCAPES: &str = "\u{1b}[2J\u{1b}[H\u{1b}]0;pwned\u{7}\u{1b}]52;c;cm0gLXJmIH4=\u{7}\u{9b}31m";

/// `tests/plugins/one_move.wat` assembled, with `texts` (its manifest, statuses, actions…)
/// in its memory; `broken`: games with a seed of 10 or more get stuck.
fn one_move_plugin(decoration: &str, broken: bool) -> Vec<u8> {
    one_move_plugin_spinning(decoration, broken, 0)
}

/// [`one_move_plugin`] whose every new game first turns an empty loop `spins` times: slow
/// calls, well within the deadline of one.
fn one_move_plugin_spinning(decoration: &str, broken: bool, spins: u32) -> Vec<u8> {
    let text = |s: &str| format!("{s}{decoration}");
    // JSON escapes the control characters; the plugin hands them to the host as they are.
    let json = |s: &str| serde_json::to_string(&text(s)).unwrap();
    let both = |s: &str| format!(r#"{{"fr":{},"en":{}}}"#, json(s), json(s));
    let outcome = format!(r#"{{"winners":[0],"scores":[],"reason":{}}}"#, both("won"));
    let texts: Vec<(&str, String)> = vec![
        (
            "MANIFEST",
            format!(
                r##"{{"id":"one-move","name":{},"description":{},"version":"1.0.0","min_players":1,"max_players":2,"seats":[{{"name":{},"colour":"#aa0000"}},{{"name":{},"colour":"#0000aa"}}],"hidden_information":false}}"##,
                both("One move"),
                both("A test game"),
                both("Ana"),
                both("Bruno")
            ),
        ),
        ("TO_ACT", r#"{"state":"to_act","seats":[0]}"#.into()),
        (
            "FINISHED",
            format!(r#"{{"state":"finished","outcome":{outcome}}}"#),
        ),
        ("EMPTY", "[]".into()),
        (
            "ACTIONS",
            format!(r#"[{{"id":"win","path":[],"label":{}}}]"#, both("Win")),
        ),
        (
            "EVENTS",
            format!(r#"[{{"text":{},"reveal":false}}]"#, both("Victory")),
        ),
        ("SCENE", format!(r#"{{"message":{}}}"#, both("Play"))),
        (
            "PLAYOUT_ONE",
            format!(r#"{{"moves":1,"outcome":{outcome},"stuck":false}}"#),
        ),
        (
            "PLAYOUT_DONE",
            format!(r#"{{"moves":0,"outcome":{outcome},"stuck":false}}"#),
        ),
        (
            "PLAYOUT_OPEN",
            r#"{"moves":0,"outcome":null,"stuck":false}"#.into(),
        ),
        (
            "PLAYOUT_STUCK",
            r#"{"moves":0,"outcome":null,"stuck":true}"#.into(),
        ),
        ("GAME_OVER", r#"{"error":"game_over"}"#.into()),
        (
            "ILLEGAL",
            r#"{"error":"illegal_action","detail":{"seat":0,"action":"?"}}"#.into(),
        ),
        (
            "INVALID_STATE",
            r#"{"error":"invalid_state","detail":"?"}"#.into(),
        ),
    ];
    let mut wat = include_str!("plugins/one_move.wat")
        .replace("@BROKEN@", if broken { "1" } else { "0" })
        .replace("@SPIN@", &spins.to_string());
    let mut data = String::new();
    let mut offset = 1024;
    for (key, text) in &texts {
        wat = wat.replace(
            &format!("$${key}"),
            &format!("(i32.const {offset}) (i32.const {})", text.len()),
        );
        let bytes: String = text.bytes().map(|b| format!("\\{b:02x}")).collect();
        data.push_str(&format!("  (data (i32.const {offset}) \"{bytes}\")\n"));
        offset += text.len() + 1;
    }
    assert!(offset < 32768, "the texts overflow the data area");
    let end = wat.rfind(')').unwrap();
    wat.insert_str(end, &data);
    wat::parse_str(&wat).unwrap_or_else(|e| panic!("one_move.wat does not assemble: {e}"))
}

fn write_plugin(dir: &Path, name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// No control character but line breaks (and tabs) reached the terminal.
fn assert_no_raw_controls(what: &str, text: &str) {
    let raw: Vec<char> = text
        .chars()
        .filter(|c| c.is_control() && !matches!(c, '\n' | '\t'))
        .collect();
    assert!(
        raw.is_empty(),
        "{what} has raw control characters {raw:?}:\n{text}"
    );
}

#[test]
fn a_wrong_option_is_refused_naming_the_option_and_its_values() {
    let dir = tempfile::tempdir().unwrap();
    for command in ["simulate", "check", "inspect", "play"] {
        let out = veillee(
            dir.path(),
            &[command, "chateau-noir", "--option", "mode=solo"],
        );
        assert!(!out.status.success(), "{command}");
        assert!(
            stderr(&out).contains(
                "option `mode` of chateau-noir cannot be `solo`: it takes teams or individual"
            ),
            "{command}: {}",
            stderr(&out)
        );
        let out = veillee(dir.path(), &[command, "siege", "--option", "mode=teams"]);
        assert!(
            stderr(&out).contains("siege has no option `mode`; siege has no options"),
            "{command}: {}",
            stderr(&out)
        );
    }
    assert!(
        veillee(dir.path(), &["sessions"]).status.success()
            && stdout(&veillee(dir.path(), &["sessions"])).lines().count() <= 1,
        "a refused `play` saves nothing"
    );
}

#[test]
fn importing_a_file_with_an_oversized_name_is_refused_clearly() {
    let dir = tempfile::tempdir().unwrap();
    saved_siege_games(dir.path(), "1");
    let file = dir.path().join("game.json");
    let out = veillee(dir.path(), &["export", "1", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    json["session"]["seats"][1]["name"] = "x".repeat(10_000).into();
    std::fs::write(&file, json.to_string()).unwrap();
    let out = veillee(dir.path(), &["import", file.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(
        stderr(&out)
            .contains("the name of player 2 is 10000 characters long; a name has at most 40"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn escape_sequences_from_a_plugin_are_quoted_in_every_output() {
    let dir = tempfile::tempdir().unwrap();
    let file = write_plugin(dir.path(), "escapes.wasm", &one_move_plugin(ESCAPES, false));
    let install = veillee(dir.path(), &["install", file.to_str().unwrap()]);
    assert!(install.status.success(), "{}", stderr(&install));
    let runs: [(&[&str], &str); 6] = [
        (&["install", file.to_str().unwrap()], ""),
        (&["games"], ""),
        (&["plugins"], ""),
        (
            &["play", "one-move", "--seats", "human,random", "--seed", "3"],
            "1\n",
        ),
        (&["sessions"], ""),
        (&["inspect", "one-move", "--json"], ""),
    ];
    for (args, input) in runs {
        let out = veillee_with_input(dir.path(), args, input);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        assert_no_raw_controls(&format!("{args:?} stdout"), &stdout(&out));
        assert_no_raw_controls(&format!("{args:?} stderr"), &stderr(&out));
    }
    let games = stdout(&veillee(dir.path(), &["games"]));
    assert!(
        games.contains("One move\\e[2J\\e[H\\e]0;pwned\\x07\\e]52;c;"),
        "the name is shown, quoted as git does: {games}"
    );
    let played = stdout(&veillee_with_input(
        dir.path(),
        &["play", "one-move", "--seats", "human,random", "--seed", "4"],
        "1\n",
    ));
    // The seat's name is the manifest's, fitted to a storable name (control characters
    // dropped); the plugin's outcome text after it is quoted.
    assert!(played.contains("Winner: Ana[2J[H]0;pwned"), "{played}");
    assert!(played.contains("won\\e[2J"), "{played}");
    // JSON stays JSON: the escapes are JSON escapes.
    let inspected = stdout(&veillee(dir.path(), &["inspect", "one-move", "--json"]));
    let value: serde_json::Value = serde_json::from_str(&inspected).unwrap();
    assert_eq!(value["scene"]["message"]["en"], format!("Play{ESCAPES}"));
}

#[test]
fn a_plugin_stuck_for_one_seed_stops_the_game_and_the_session_resumes_once_fixed() {
    let dir = tempfile::tempdir().unwrap();
    let broken = write_plugin(dir.path(), "broken.wasm", &one_move_plugin("", true));
    // It passes the install self-check: only seeds of two digits get stuck.
    let install = veillee(dir.path(), &["install", broken.to_str().unwrap()]);
    assert!(install.status.success(), "{}", stderr(&install));
    let out = veillee_with_input(
        dir.path(),
        &["play", "one-move", "--seats", "human,human", "--seed", "42"],
        "1\n",
    );
    assert!(!out.status.success(), "a stuck game cannot be played on");
    let err = stderr(&out);
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        err.contains("session 1 is saved") && err.contains("`veillee resume 1`"),
        "{err}"
    );
    assert!(
        err.contains("one-move")
            && err.contains("veillee_legal_actions")
            && err.contains("no action for seat 0"),
        "the message names the plugin, the call and the problem: {err}"
    );
    // Resuming with the broken plugin fails the same way, again without a panic.
    let again = veillee_with_input(dir.path(), &["resume", "1"], "1\n");
    assert!(!again.status.success());
    assert!(!stderr(&again).contains("panicked"), "{}", stderr(&again));
    // The fixed build replaces it: the session resumes and is played to the end.
    let fixed = write_plugin(dir.path(), "fixed.wasm", &one_move_plugin("", false));
    let install = veillee(dir.path(), &["install", fixed.to_str().unwrap()]);
    assert!(install.status.success(), "{}", stderr(&install));
    let resumed = veillee_with_input(dir.path(), &["resume", "1"], "1\n");
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert!(
        stdout(&resumed).contains("Winner: Ana"),
        "{}",
        stdout(&resumed)
    );
}

#[test]
fn simulate_save_counts_a_stuck_game_instead_of_panicking() {
    let dir = tempfile::tempdir().unwrap();
    let broken = write_plugin(dir.path(), "broken.wasm", &one_move_plugin("", true));
    let install = veillee(dir.path(), &["install", broken.to_str().unwrap()]);
    assert!(install.status.success(), "{}", stderr(&install));
    for save in [false, true] {
        let mut args = vec!["simulate", "one-move", "--games", "3", "--seed", "9"];
        if save {
            args.push("--save");
        }
        let out = veillee(dir.path(), &args);
        let err = stderr(&out);
        assert!(!out.status.success(), "seeds 10 and 11 are stuck");
        assert!(!err.contains("panicked"), "{err}");
        assert!(
            err.contains("one-move") || stdout(&out).contains("no legal move"),
            "{err}"
        );
    }
}

/// A module of `functions` functions that each return at once.
fn trivial_functions(functions: usize) -> Vec<u8> {
    wat::parse_str(format!("(module {})", "(func)".repeat(functions))).expect("valid text")
}

#[test]
fn a_module_of_300000_functions_in_plugins_is_left_out_and_every_command_still_works() {
    let dir = tempfile::tempdir().unwrap();
    let plugins = dir.path().join("plugins");
    std::fs::create_dir_all(&plugins).unwrap();
    write_plugin(&plugins, "bomb.wasm", &trivial_functions(300_000));
    let out = veillee(dir.path(), &["games"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("siege"), "{}", stdout(&out));
    let err = stderr(&out);
    assert!(
        err.contains("bomb.wasm") && err.contains("300000 functions"),
        "the plugin is left out with its reason: {err}"
    );
    let out = veillee(dir.path(), &["simulate", "siege", "--games", "2", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    // Installing it is refused the same way, and installs nothing.
    let bomb = write_plugin(
        dir.path(),
        "bomb-to-install.wasm",
        &trivial_functions(300_000),
    );
    let out = veillee(dir.path(), &["install", bomb.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("refused before compiling"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn inspect_and_play_use_the_option_and_the_session_keeps_it() {
    let dir = tempfile::tempdir().unwrap();
    let inspect = |mode: &str| -> serde_json::Value {
        let out = veillee(
            dir.path(),
            &[
                "inspect",
                "chateau-noir",
                "--players",
                "4",
                "--option",
                &format!("mode={mode}"),
                "--json",
            ],
        );
        assert!(out.status.success(), "{}", stderr(&out));
        serde_json::from_str(&stdout(&out)).unwrap()
    };
    let individual = inspect("individual");
    assert_eq!(individual["options"]["mode"], "individual");
    // Each for themselves there is a score line per army, in teams one per team.
    let score_lines = |v: &serde_json::Value| v["scene"]["scores"].as_array().unwrap().len();
    assert!(score_lines(&individual) > score_lines(&inspect("teams")));
    let out = veillee_with_input(
        dir.path(),
        &[
            "play",
            "chateau-noir",
            "--seats",
            "human,random,random,random",
            "--option",
            "mode=individual",
            "--seed",
            "3",
        ],
        "q\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let id = session_id(&stdout(&out));
    let file = dir.path().join("game.json");
    let out = veillee(dir.path(), &["export", &id, file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let exported = std::fs::read_to_string(&file).unwrap();
    assert!(exported.contains("\"individual\""), "{exported}");
}

/// What `check`, `simulate`, `play` and `inspect` print for one game of Castel each.
fn castel_runs(data: &Path, pick_copy: bool) -> [String; 4] {
    let run = |args: &[&str]| {
        let out = veillee(data, args);
        assert!(
            out.status.success(),
            "{args:?}: {}{}",
            stdout(&out),
            stderr(&out)
        );
        stdout(&out)
    };
    [
        run(&["check", "castel", "--games", "1", "--players", "2"]),
        run(&["simulate", "castel", "--games", "3", "--json"]),
        run(&[
            &["play", "castel", "--seats", "random,random", "--seed", "5"][..],
            if pick_copy {
                &["--variant", "cartes"][..]
            } else {
                &[]
            },
        ]
        .concat()),
        run(&["inspect", "castel", "--json"]),
    ]
}

/// What a run's result is, without the line naming the scripts: the moves checked, the
/// simulation's figures, the game played (without its session number), the inspected state.
fn castel_result(command: usize, output: &str) -> String {
    match command {
        0 => output.lines().nth(1).unwrap_or_default().to_string(),
        1 | 3 => {
            let value: serde_json::Value = serde_json::from_str(output).expect("JSON");
            let keys = [
                "mean_length",
                "wins",
                "total_moves",
                "state_hash",
                "legal_actions",
            ];
            keys.iter().map(|k| value[k].to_string()).collect()
        }
        _ => output
            .lines()
            .skip_while(|l| !l.contains(" — session "))
            .skip(1)
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

/// The card table line of the Ambassador in `cards.lua`, and the same line with `count`
/// copies instead of the one the game has.
fn castel_cards_with_ambassadors(count: u32) -> String {
    let text = include_str!("../../../variants/castel/cards.lua");
    let one = r#"en = "Ambassador" }, article = "l'", count = 1,"#;
    assert!(
        text.contains(one),
        "the card table is where this test expects it"
    );
    text.replace(one, &one.replace("count = 1", &format!("count = {count}")))
}

/// Every command runs Castel as it is played, with its cards script (`cards.lua`, part of
/// the game), and with the user's copy of it in its place: here a copy that leaves the
/// Ambassador out of the deal, so every deal, hence every result, differs. A new game runs
/// the copy only when the players pick it ("modified rules", `--variant cartes`).
#[test]
fn check_simulate_play_and_inspect_run_castel_with_its_cards_or_the_users_copy() {
    let dir = tempfile::tempdir().unwrap();
    let before = castel_runs(dir.path(), false);
    for output in &before {
        assert!(
            output.contains("cartes (builtin:castel/cards.lua)"),
            "{output}"
        );
    }
    assert!(
        before[0].starts_with("Part of the game: cartes") && before[0].contains("passed"),
        "{}",
        before[0]
    );
    assert!(before[2].contains("Game over."), "{}", before[2]);
    let folder = dir.path().join("variants");
    std::fs::create_dir_all(&folder).unwrap();
    let copy = folder.join("cards.lua");
    std::fs::write(&copy, castel_cards_with_ambassadors(0)).unwrap();
    // Not picked: a new game plays the cards as shipped, and says how to pick the copy.
    let unpicked = castel_runs(dir.path(), false);
    assert!(
        unpicked[2].contains("cartes (builtin:castel/cards.lua)")
            && unpicked[2].contains("Modified rules not used: your copy of cartes")
            && unpicked[2].contains("--variant cartes"),
        "{}",
        unpicked[2]
    );
    assert_eq!(castel_result(2, &unpicked[2]), castel_result(2, &before[2]));
    let after = castel_runs(dir.path(), true);
    assert!(after[2].contains("Modified rules: "), "{}", after[2]);
    let named = format!("cartes ({})", copy.display());
    for (command, output) in after.iter().enumerate() {
        assert!(output.contains(&named), "the copy runs:\n{output}");
        assert!(!output.contains("builtin:castel/cards.lua"), "{output}");
        assert_ne!(
            castel_result(command, output),
            castel_result(command, &before[command]),
            "another deal, another result:\n{output}"
        );
    }
    let inspected: serde_json::Value = serde_json::from_str(&after[3]).unwrap();
    assert_eq!(inspected["failed_scripts"], serde_json::json!([]));
    assert_eq!(inspected["scripts"][0]["id"], "cartes");
}

/// A copy of the cards the game refuses (two Ambassadors, when it has one) switches the
/// script off: Castel without its cards is not the game, so `check`, `simulate` and
/// `inspect` fail naming the script's error, and `play` warns.
#[test]
fn a_castel_cards_copy_the_game_refuses_fails_every_command_naming_the_error() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("variants");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("cards.lua"), castel_cards_with_ambassadors(2)).unwrap();
    let refused = "`count` is a whole number from 0 to 1";
    for args in [
        &["check", "castel", "--games", "1", "--players", "2"][..],
        &["simulate", "castel", "--games", "2"],
        &["inspect", "castel", "--json"],
    ] {
        let out = veillee(dir.path(), args);
        assert!(!out.status.success(), "{args:?}: {}", stdout(&out));
        let all = format!("{}{}", stdout(&out), stderr(&out));
        assert!(
            all.contains("switched off") && all.contains(refused),
            "{args:?}: {all}"
        );
    }
    let out = veillee(
        dir.path(),
        &[
            "play",
            "castel",
            "--seats",
            "random,random",
            "--seed",
            "5",
            "--variant",
            "cartes",
        ],
    );
    assert!(
        stderr(&out).contains("Warning: a script was switched off")
            && stderr(&out).contains(refused),
        "{}",
        stderr(&out)
    );
}

/// A phone for `play --seats phone,…`: a WebSocket client holding a seat's link.
struct Phone {
    socket: tungstenite::WebSocket<tungstenite::stream::MaybeTlsStream<std::net::TcpStream>>,
}

impl Phone {
    /// Opens the seat of `link` (`http://…/s/TOKEN`).
    fn join(link: &str) -> Phone {
        let (base, token) = link.split_once("/s/").expect("a seat link");
        let url = format!("{}/ws", base.replacen("http://", "ws://", 1));
        let (mut socket, _) = tungstenite::connect(url).expect("the room accepts the phone");
        // A room that says nothing for a minute has hung: fail rather than wait forever.
        if let tungstenite::stream::MaybeTlsStream::Plain(stream) = socket.get_ref() {
            stream
                .set_read_timeout(Some(Duration::from_secs(60)))
                .unwrap();
        }
        let hello = serde_json::json!({"type": "hello", "token": token}).to_string();
        socket.send(tungstenite::Message::text(hello)).unwrap();
        Phone { socket }
    }

    /// The next message of the room (not its "alive" notes); `None` once it closed.
    fn next(&mut self) -> Option<serde_json::Value> {
        let since = Instant::now();
        loop {
            assert!(
                since.elapsed() < Duration::from_secs(60),
                "the room only said it was alive for a minute"
            );
            match self.socket.read() {
                Ok(tungstenite::Message::Text(text)) => {
                    let message: serde_json::Value = serde_json::from_str(&text).unwrap();
                    if message["type"] != "alive" {
                        return Some(message);
                    }
                }
                Ok(_) => continue,
                Err(tungstenite::Error::Io(e))
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) =>
                {
                    panic!("the room said nothing for a minute ({e})")
                }
                Err(_) => return None,
            }
        }
    }

    /// The next state of the seat (a refusal fails the test).
    fn state(&mut self) -> serde_json::Value {
        loop {
            let message = self.next().expect("the room keeps the phone connected");
            assert!(
                message["type"] != "refused",
                "the phone was refused: {message}"
            );
            if message["type"] == "state" {
                return message;
            }
        }
    }

    /// Plays one of the state's moves.
    fn play(&mut self, state: &serde_json::Value, rng: &mut veillee_sdk::GameRng) {
        let actions = state["actions"].as_array().unwrap();
        let action = &actions[rng.below(actions.len())]["id"];
        let act = serde_json::json!({"type": "act", "action": action, "version": state["version"]});
        self.socket
            .send(tungstenite::Message::text(act.to_string()))
            .unwrap();
    }

    /// Plays random legal moves of its seat until the game ends; returns how many moves it
    /// saw in the end.
    fn play_to_the_end(mut self, seed: u64) -> u64 {
        let mut rng = veillee_sdk::GameRng::new(seed);
        let mut version = None;
        loop {
            let state = self.state();
            if state["status"]["state"] == "finished" {
                return state["moves"].as_u64().unwrap();
            }
            if state["actions"].as_array().unwrap().is_empty()
                || version == Some(state["version"].clone())
            {
                continue;
            }
            version = Some(state["version"].clone());
            self.play(&state, &mut rng);
        }
    }
}

#[test]
fn play_with_phone_seats_prints_links_and_qr_codes_and_phones_play_castel_to_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "play",
        "castel",
        "--seats",
        "phone,phone,random",
        "--seed",
        "4",
    ];
    let game = WithPhones::start(dir.path(), &args);
    assert_eq!(game.links.len(), 2);
    let phones: Vec<_> = game
        .links
        .iter()
        .cloned()
        .enumerate()
        .map(|(i, link)| std::thread::spawn(move || Phone::join(&link).play_to_the_end(i as u64)))
        .collect();
    let moves: Vec<u64> = phones.into_iter().map(|p| p.join().unwrap()).collect();
    assert_eq!(moves[0], moves[1]);
    let (success, printed) = game.finish();
    assert!(success, "{printed}");
    assert!(
        printed.contains("Players join with their phones"),
        "{printed}"
    );
    assert!(printed.contains('█'), "a QR code is printed:\n{printed}");
    assert!(
        printed.contains("Winner: ") || printed.contains("Draw — "),
        "the game ended on the big screen:\n{printed}"
    );
    assert!(printed.contains("(on their phones)"), "{printed}");
    // The whole game is saved.
    let sessions = stdout(&veillee(dir.path(), &["sessions"]));
    assert!(sessions.contains("castel"), "{sessions}");
}

#[test]
fn undo_at_the_big_screen_takes_a_phones_move_back_and_resume_opens_the_room_again() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "play",
        "castel",
        "--seats",
        "phone,random,random",
        "--seed",
        "6",
    ];
    let mut game = WithPhones::start(dir.path(), &args);
    let link = game.links[0].clone();
    let mut ana = Phone::join(&link);
    let mut rng = veillee_sdk::GameRng::new(1);
    // Ana plays three moves (the bots answer at once).
    let mut state = ana.state();
    let mut played = 0;
    let before_undo = loop {
        if !state["actions"].as_array().unwrap().is_empty() {
            if played == 3 {
                break state;
            }
            ana.play(&state, &mut rng);
            played += 1;
        }
        state = ana.state();
    };
    let log_of = |state: &serde_json::Value| state["log"].as_array().unwrap().clone();
    let moves = before_undo["moves"].as_u64().unwrap();

    // At the big screen the host takes back Ana's last move (and the bots' after it), once
    // she agrees: her phone is sent the game as it stood before it, its lines gone from her
    // log.
    game.type_line("u");
    game.type_line("y");
    let back = ana.state();
    let back_moves = back["moves"].as_u64().unwrap();
    assert!(
        back_moves < moves,
        "{back_moves} moves after the undo, {moves} before"
    );
    assert!(
        !back["actions"].as_array().unwrap().is_empty(),
        "Ana plays again"
    );
    let log = log_of(&back);
    assert_eq!(
        log.last().unwrap()["text"]["en"],
        format!(
            "Move(s) taken back on the big screen: {}",
            moves - back_moves
        )
    );
    assert!(
        log.len() <= log_of(&before_undo).len(),
        "the undone moves left the log"
    );

    // Save and quit at the big screen: the phone is told, the game is saved as it stands.
    game.type_line("q");
    let closed = loop {
        match ana.next() {
            Some(m) if m["type"] == "refused" => break m,
            Some(_) => continue,
            None => panic!("the room closed without a word"),
        }
    };
    assert_eq!(closed["code"], "closed");
    let (success, printed) = game.finish();
    assert!(success, "{printed}");
    assert!(printed.contains("Undone ("), "{printed}");
    let session = printed
        .split("resume it with `veillee resume ")
        .nth(1)
        .and_then(|rest| rest.split('`').next())
        .expect("the session's id")
        .to_string();

    // Resuming opens the room again with a new link: the old one opens nothing, the new one
    // gives Ana her seat where the game stood, and she plays it to the end.
    let game = WithPhones::start(dir.path(), &["resume", &session]);
    assert_eq!(game.links.len(), 1);
    let (new_base, _) = game.links[0].split_once("/s/").unwrap();
    let (_, old_token) = link.split_once("/s/").unwrap();
    let mut old = Phone::join(&format!("{new_base}/s/{old_token}"));
    assert_eq!(old.next().unwrap()["code"], "bad_token");
    let mut ana = Phone::join(&game.links[0]);
    assert_eq!(ana.next().unwrap()["type"], "welcome");
    let resumed = ana.state();
    assert_eq!(resumed["moves"].as_u64().unwrap(), back_moves);
    assert_eq!(resumed["scene"], back["scene"]);
    ana.play(&resumed, &mut rng);
    ana.play_to_the_end(2);
    let (success, printed) = game.finish();
    assert!(success, "{printed}");
    assert!(
        printed.contains("Winner: ") || printed.contains("Draw — "),
        "{printed}"
    );
}

/// `show-view` reads a file someone handed over: garbage, another kind of JSON and a folder
/// are each refused with a message naming the file, never a panic.
#[test]
fn show_view_refuses_a_file_that_is_not_a_seat_view_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let garbage = dir.path().join("garbage.json");
    std::fs::write(&garbage, b"\x00\xff{{{ not json").unwrap();
    let other = dir.path().join("other.json");
    std::fs::write(&other, r#"{"format":"something-else","format_version":1}"#).unwrap();
    for file in [&garbage, &other, &dir.path().to_path_buf()] {
        let out = veillee(dir.path(), &["show-view", file.to_str().unwrap()]);
        assert!(!out.status.success(), "{file:?}: {}", stdout(&out));
        let err = stderr(&out);
        assert!(!err.contains("panicked"), "{err}");
        assert!(
            err.contains(file.file_name().unwrap().to_str().unwrap()),
            "the error names the file: {err}"
        );
    }
}

/// A house rule whose `after_action` fails at the first move, and prints before it fails.
const FAILS_AFTER_A_MOVE: &str = r#"
return {
  id = "boom", name = "Boom", description = "Fails after a move.", game = "siege",
  version = "1.0.0",
  after_action = function(ctx, seat, action)
    print("played", action.id, {})
    error("boom after " .. action.id)
  end,
}
"#;

/// `print` reaches the terminal, `sessions` names each session's house rules, `resume`
/// says which rule was switched off, and a reader that stops reading (`veillee sessions |
/// head`) ends the program quietly.
#[test]
fn prints_reach_the_terminal_sessions_name_house_rules_resume_names_a_rule_switched_off() {
    let dir = tempfile::tempdir().unwrap();
    let scripts = dir.path().join("variants");
    std::fs::create_dir_all(&scripts).unwrap();
    std::fs::write(scripts.join("boom.lua"), FAILS_AFTER_A_MOVE).unwrap();
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
            "boom",
        ],
        "lord-d6\nq\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("[boom.lua] played\tlord-d6\ttable"),
        "{}",
        stderr(&out)
    );
    let id = session_id(&stdout(&out));
    let resumed = veillee_with_input(dir.path(), &["resume", &id], "q\n");
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert!(
        stderr(&resumed).contains("a script was switched off")
            && stderr(&resumed).contains("boom after lord-d6"),
        "{}",
        stderr(&resumed)
    );
    let listed = veillee(dir.path(), &["sessions"]);
    let row = stdout(&listed)
        .lines()
        .find(|l| l.trim_start().starts_with(&id))
        .map(str::to_string)
        .unwrap_or_else(|| panic!("{}", stdout(&listed)));
    assert!(row.ends_with("house rules: boom"), "{row}");
    // Every command writes through term.rs: with the reading end closed, it stops quietly.
    for args in [&["sessions"][..], &["variants"], &["games"]] {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = command(dir.path(), args)
            .stdout(writer)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
    }
}

/// A rule that refuses every move: `check-variant` plays on with other moves, finds that a
/// seat can play nothing, says so once with how often, and fails.
#[test]
fn check_variant_finds_a_rule_that_refuses_every_move_and_says_each_problem_once() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("never.lua");
    std::fs::write(
        &file,
        r#"return { id = "never", name = "Never", description = "No move.", game = "siege",
             version = "1", before_action = function() return false, "never" end }"#,
    )
    .unwrap();
    let out = veillee(
        dir.path(),
        &["check-variant", file.to_str().unwrap(), "--games", "3"],
    );
    let text = stdout(&out);
    assert!(!out.status.success(), "{text}");
    let problems: Vec<&str> = text.lines().filter(|l| l.contains("problem")).collect();
    assert_eq!(problems.len(), 1, "{text}");
    assert!(
        problems[0].contains("(3 times), first in game 0, move 0")
            && problems[0].contains("every listed move was refused by the house rules"),
        "{text}"
    );
    assert!(text.contains("before_action"), "{text}");
}

/// A sound rule (the hook version of « le château fort enchanté »): counts per hook, the
/// `view` hook exercised, games capped, no problem.
#[test]
fn check_variant_counts_each_hook_and_draws_views_of_a_sound_rule() {
    let dir = tempfile::tempdir().unwrap();
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../variants/examples/chateau-fort-enchante.lua"
    );
    let out = veillee(
        dir.path(),
        &["check-variant", file, "--games", "2", "--max-moves", "300"],
    );
    let text = stdout(&out);
    assert!(out.status.success(), "{text}\n{}", stderr(&out));
    assert!(text.contains("2 stopped at 300 moves"), "{text}");
    let count = |hook: &str| -> (u64, u64) {
        let row = text
            .lines()
            .find(|l| l.trim_start().starts_with(hook))
            .unwrap_or_else(|| panic!("no {hook} row in\n{text}"));
        let numbers: Vec<u64> = row
            .split(|c: char| !c.is_ascii_digit())
            .filter_map(|n| n.parse().ok())
            .collect();
        (numbers[0], numbers[1])
    };
    // Its after_action runs for rolls only (`actions = { "roll" }`): a fraction of the moves.
    let (rolls, counted) = count("after_action");
    assert!(rolls > 0 && rolls < 600 && counted > 0, "{text}");
    assert_eq!(count("setup"), (2, 2), "{text}");
    // Every 25 moves, every viewer: 13 times 3 per game; unturned scenes are not changed.
    let (views, turned) = count("view");
    assert_eq!(views, 2 * 13 * 3, "{text}");
    assert!(turned < views, "{text}");
    assert!(text.contains("no problem"), "{text}");
}

/// `inspect --variant` plays the actions with a house rule: « seigneur agile » offers the
/// lord's diagonal step.
#[test]
fn inspect_plays_with_a_house_rule() {
    let dir = tempfile::tempdir().unwrap();
    let args = |variant: bool| {
        let mut args = vec!["inspect", "siege", "--seed", "0", "--actions", "lord-d6"];
        if variant {
            args.extend(["--variant", "seigneur-agile"]);
        }
        args
    };
    let plain = stdout(&veillee(dir.path(), &args(false)));
    let agile = veillee(dir.path(), &args(true));
    assert!(agile.status.success(), "{}", stderr(&agile));
    let agile: serde_json::Value = serde_json::from_str(&stdout(&agile)).unwrap();
    assert_eq!(agile["scripts"][0]["id"], "seigneur-agile");
    assert!(plain.contains("\"scripts\": []"), "{plain}");
}

/// A house rule that refuses every move (`before_action` on everything).
const REFUSE_ALL: &str = include_str!("../../../tests/fixtures/variants/rien-ne-va-plus.lua");

/// A bot whose every move a house rule refuses never tries one twice: the game
/// stops at once with a message naming the refusals, stays saved, and `resume` stops the same
/// way instead of spinning; a simulation counts that game as failed.
#[test]
fn a_bot_whose_every_move_is_refused_stops_the_game_saved_instead_of_looping() {
    let dir = tempfile::tempdir().unwrap();
    let rule = dir.path().join("rien-ne-va-plus.lua");
    std::fs::write(&rule, REFUSE_ALL).unwrap();
    let out = veillee(
        dir.path(),
        &[
            "play",
            "siege",
            "--seats",
            "human,normal",
            "--seed",
            "3",
            "--variant",
            rule.to_str().unwrap(),
        ],
    );
    assert!(!out.status.success(), "{}", stdout(&out));
    let err = stderr(&out);
    assert!(
        err.contains("Defender cannot move: the house rules refused every one of its 2 moves"),
        "{err}"
    );
    assert!(err.contains("Nothing goes."), "{err}");
    let id = session_id(&stdout(&out));
    assert!(err.contains(&format!("veillee resume {id}")), "{err}");
    // Still saved, at move 0; resuming stops the same way.
    assert!(stdout(&veillee(dir.path(), &["sessions"])).contains("siege"));
    let again = veillee(dir.path(), &["resume", &id]);
    assert!(!again.status.success());
    assert!(stderr(&again).contains("refused every one of its 2 moves"));
    // The rules lab: the game fails, named, and the run ends.
    let out = veillee(
        dir.path(),
        &[
            "simulate",
            "siege",
            "--seats",
            "random,normal",
            "--games",
            "2",
            "--variant",
            rule.to_str().unwrap(),
        ],
    );
    assert!(!out.status.success());
    assert!(
        stdout(&out).contains("the house rules refused all 2 moves of seat 1"),
        "{}",
        stdout(&out)
    );
}

/// The rules lab: bots per seat, wins with their 95 % interval, think time per
/// seat, as text and JSON.
#[test]
fn simulate_with_bots_reports_wins_with_intervals_and_think_time_per_seat() {
    let dir = tempfile::tempdir().unwrap();
    let out = veillee(
        dir.path(),
        &[
            "simulate",
            "siege",
            "--seats",
            "normal,random",
            "--games",
            "4",
            "--seed",
            "2",
            "--json",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(report["players"], 2);
    assert_eq!(report["games"], 4);
    let seats = report["seats"].as_array().unwrap();
    assert_eq!(seats[0]["level"], "normal");
    assert_eq!(seats[1]["level"], "random");
    // A normal attacker takes the lord of a random defender every time.
    assert_eq!(seats[0]["wins"], 4, "{report}");
    let interval = seats[0]["interval"].as_array().unwrap();
    assert!(interval[0].as_f64().unwrap() > 0.4 && interval[1].as_f64().unwrap() == 1.0);
    assert!(seats[0]["searched_in_plugin"].as_u64().unwrap() > 0);
    assert!(seats[0]["seconds_p95"].as_f64().unwrap() > 0.0);
    let text = stdout(&veillee(
        dir.path(),
        &[
            "simulate",
            "siege",
            "--seats",
            "normal,random",
            "--games",
            "2",
        ],
    ));
    assert!(text.contains("95 % interval"), "{text}");
    // One bot per seat: a count that disagrees is refused, naming both.
    let out = veillee(
        dir.path(),
        &["simulate", "siege", "--seats", "normal", "--players", "2"],
    );
    assert!(!out.status.success());
    assert!(stderr(&out).contains("--players 2 but --seats names 1 seats"));
}

/// Castel's cards, changed to tell the table the first card of the hand of whoever placed a
/// card with an effect: a public event that reads a secret.
fn leaking_cards() -> String {
    let text = include_str!("../../../variants/castel/cards.lua");
    let end = "    command(ctx, \"end_effect\")\n  end,\n}";
    assert!(text.contains(end), "cards.lua ends as this test expects");
    let leak = "    local hand = query(ctx, \"hand\", { seat = pending.seat })\n    \
                if #hand > 0 then ctx.event({ fr = \"garde \" .. hand[1], en = \"keeps \" .. hand[1] }) end\n";
    text.replace(end, &format!("{leak}{end}"))
}

fn castel_sessions(data: &Path) -> usize {
    stdout(&veillee(data, &["sessions"]))
        .lines()
        .filter(|l| l.contains("castel"))
        .count()
}

#[test]
fn a_copy_of_castels_cards_that_leaks_a_hand_does_not_play() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("variants");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("cards.lua"), leaking_cards()).unwrap();
    let args = ["play", "castel", "--seats", "human,human", "--seed", "3"];
    let out = veillee_with_input(
        dir.path(),
        &[&args[..], &["--variant", "cartes"]].concat(),
        "q\n",
    );
    assert!(!out.status.success(), "{}", stdout(&out));
    let said = stderr(&out);
    assert!(
        said.contains("Checking cartes for leaks before it first plays"),
        "{said}"
    );
    assert!(
        said.contains("the leak check failed with the scripts cartes") && said.contains("\"keeps "),
        "{said}"
    );
    assert_eq!(castel_sessions(dir.path()), 0, "no game was started");
    // The cards as shipped are trusted: no check, the game starts.
    let plain = veillee_with_input(dir.path(), &args, "q\n");
    assert!(plain.status.success(), "{}", stderr(&plain));
    assert!(!stderr(&plain).contains("Checking"), "{}", stderr(&plain));
}

#[test]
fn a_house_rule_passes_its_leak_check_before_it_first_plays_and_only_once() {
    let dir = tempfile::tempdir().unwrap();
    let rule = dir.path().join("voyeur.lua");
    std::fs::write(
        &rule,
        include_str!("../../../tests/fixtures/variants/voyeur.lua"),
    )
    .unwrap();
    let args = [
        "play",
        "castel",
        "--seats",
        "human,human",
        "--seed",
        "3",
        "--variant",
    ];
    let first = veillee_with_input(
        dir.path(),
        &[&args[..], &[rule.to_str().unwrap()]].concat(),
        "q\n",
    );
    assert!(first.status.success(), "{}", stderr(&first));
    // Even this hostile rule reads only the spectator's world: it cannot leak, and passes.
    assert!(
        stderr(&first).contains("Checking voyeur for leaks"),
        "{}",
        stderr(&first)
    );
    let again = veillee_with_input(
        dir.path(),
        &[&args[..], &[rule.to_str().unwrap()]].concat(),
        "q\n",
    );
    assert!(again.status.success(), "{}", stderr(&again));
    assert!(
        !stderr(&again).contains("Checking"),
        "the verdict is remembered: {}",
        stderr(&again)
    );
    assert_eq!(castel_sessions(dir.path()), 2);
}

#[test]
fn a_session_file_bringing_scripts_shows_them_and_runs_them_only_once_accepted() {
    let dir = tempfile::tempdir().unwrap();
    let played = veillee_with_input(
        dir.path(),
        &["play", "castel", "--seats", "human,human", "--seed", "3"],
        "q\n",
    );
    let id = session_id(&stdout(&played));
    let file = dir.path().join("game.json");
    assert!(
        veillee(dir.path(), &["export", &id, file.to_str().unwrap()])
            .status
            .success()
    );

    // The cards as shipped are already here: nothing to ask.
    let plain = veillee(dir.path(), &["import", file.to_str().unwrap()]);
    assert!(plain.status.success(), "{}", stderr(&plain));
    assert!(
        !stdout(&plain).contains("not installed here"),
        "{}",
        stdout(&plain)
    );

    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let cards = json["session"]["variants"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|v| v["id"] == "cartes")
        .expect("the session records Castel's cards");
    let leaking = leaking_cards();
    // The hash a file records is only a claim: it is made to match.
    cards["hash"] = veillee_runtime::variants::text_hash(&leaking).into();
    cards["text"] = leaking.into();
    std::fs::write(&file, json.to_string()).unwrap();

    let refused = veillee(dir.path(), &["import", file.to_str().unwrap()]);
    assert!(!refused.status.success());
    let shown = stdout(&refused);
    assert!(
        shown.contains("This file brings 1 script(s) not installed here"),
        "{shown}"
    );
    assert!(
        shown.contains("cartes (cards.lua)") && shown.contains("Run them? [y/N]"),
        "{shown}"
    );
    assert!(
        stderr(&refused).contains("its scripts were not accepted"),
        "{}",
        stderr(&refused)
    );

    let accepted = veillee_with_input(dir.path(), &["import", file.to_str().unwrap()], "y\n");
    assert!(!accepted.status.success());
    assert!(
        stderr(&accepted).contains("the leak check failed with the scripts cartes"),
        "{}",
        stderr(&accepted)
    );
    assert_eq!(
        castel_sessions(dir.path()),
        2,
        "the game and its plain import only"
    );
}

/// A Siège game with a phone seat, played to its end through the table (first legal move
/// each turn); returns its session id.
fn finished_phone_game(data: &Path) -> u64 {
    use veillee_runtime::table::{Table, Turn};
    let dir = veillee_runtime::data_dir::DataDir::at(data);
    let runtime = veillee_runtime::plugin::Runtime::new(None).unwrap();
    let catalog = veillee_runtime::catalog::Catalog::open(runtime, dir);
    let (store, _) = veillee_runtime::store::Store::open(data).unwrap();
    let sessions = veillee_runtime::session::Sessions::new(store);
    let setup = veillee_sdk::Setup::new(2, 4);
    let (engine, recorded) =
        veillee_runtime::launch::engine_for_new_game(&catalog, "siege", &[], &setup, &mut |_| {})
            .unwrap();
    let players = ["Ana", "Bruno"]
        .map(veillee_runtime::store::model::SeatPlayer::human)
        .to_vec();
    let mut table = Table::start(sessions, engine, players, setup, recorded, vec![1]).unwrap();
    loop {
        let seat = match table.turn().unwrap() {
            Turn::Over(_) => return table.meta().id,
            Turn::Screen(seat) | Turn::Bot(seat, _) => seat,
            Turn::Phones(seats) => seats[0],
        };
        let first = table.legal_actions(seat).unwrap()[0].id.clone();
        table.play(seat, &first).unwrap();
    }
}

#[test]
fn resuming_a_finished_phone_game_shows_its_result_without_opening_the_room() {
    let dir = tempfile::tempdir().unwrap();
    let id = finished_phone_game(dir.path()).to_string();
    // An address no machine has: opening the room there would fail.
    let out = veillee(
        dir.path(),
        &["resume", &id, "--room-address", "203.0.113.7"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let shown = stdout(&out);
    assert!(
        shown.contains("Winner: ") || shown.contains("Draw — "),
        "{shown}"
    );
}
