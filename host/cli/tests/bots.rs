//! The bots for programs, end to end: `veillee bot` answers a position given by action ids
//! with the very move a session's bot plays there, and `veillee engine` answers its line
//! protocol, refusing a bad line with an error and going on.

mod common;

use common::veillee_with_input as run;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The bot's move in JSON: an id among the legal ones, where it was searched, its figures;
/// and a knight that can take the lord takes it, the check saying it is a proven win.
#[test]
fn bot_answers_a_position_with_a_legal_id_and_takes_a_win_it_proves() {
    let data = tempfile::tempdir().unwrap();
    let position = "lord-d6,e0-f2,d5-e6,f2-e4,c6-c5";
    let out = run(
        data.path(),
        &[
            "bot",
            "siege",
            "--level",
            "strong",
            "--seed",
            "7",
            "--actions",
            position,
            "--json",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let answer: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON line");
    assert_eq!(answer["action"], "e4-d6", "{answer}");
    assert_eq!(answer["proven"], "win 1", "{answer}");
    assert_eq!(answer["seat"], 0);
    assert!(answer["seconds"].as_f64().is_some_and(|s| s >= 0.0));

    // Without --json, the id alone; a bad position names the move that failed.
    let out = run(
        data.path(),
        &["bot", "siege", "--actions", "lord-d6,e0-f2"],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let id = text(&out.stdout);
    assert!(id.trim().contains('-') && id.lines().count() == 1, "{id}");
    let out = run(
        data.path(),
        &["bot", "siege", "--actions", "lord-d6,z9-a1"],
        "",
    );
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("move 2 (`z9-a1`)"),
        "{}",
        text(&out.stderr)
    );
}

/// The protocol: a position, `go` twice gives the same move, `play` and `status` follow the
/// game, a bad line is an `error` and the engine keeps answering.
#[test]
fn engine_answers_its_protocol_and_survives_bad_lines() {
    let data = tempfile::tempdir().unwrap();
    let input = "\
position seed 7 moves lord-d6 e0-f2 d5-e6 f2-e4 c6-c5
go
go
position moves nonsense
legal
play e4-d6
status
frobnicate
level godlike
go
quit
";
    let out = run(data.path(), &["engine", "siege"], input);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines: Vec<String> = text(&out.stdout).lines().map(String::from).collect();
    assert_eq!(lines[0], "veillee-engine 1 siege");
    assert_eq!(lines[1], "ready");
    let best: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(best, ["bestmove e4-d6", "bestmove e4-d6"], "{lines:#?}");
    let info = lines.iter().find(|l| l.starts_with("info")).unwrap();
    assert!(info.contains("proven win 1"), "{info}");
    let errors: Vec<&String> = lines.iter().filter(|l| l.starts_with("error")).collect();
    assert_eq!(errors.len(), 4, "{lines:#?}");
    assert!(errors[0].contains("nonsense"), "{}", errors[0]);
    assert!(errors[1].contains("frobnicate"), "{}", errors[1]);
    assert!(errors[2].contains("godlike"), "{}", errors[2]);
    assert!(
        errors[3].contains("over"),
        "go after the end: {}",
        errors[3]
    );
    // The bad position left the good one: its legal moves are listed, and it is won.
    assert!(lines
        .iter()
        .any(|l| l.starts_with("legal 0 ") && l.contains("e4-d6")));
    assert!(lines.iter().any(|l| l == "status over 0"), "{lines:#?}");
}

/// `h` at a player's prompt shows what a bot would play for that seat, and why when it is a
/// forced win; the hint is not played: the same player is asked again.
#[test]
fn h_at_the_prompt_hints_the_move_that_takes_the_lord() {
    let data = tempfile::tempdir().unwrap();
    let out = run(
        data.path(),
        &["play", "siege", "--seats", "human,human", "--seed", "7"],
        "lord-d6\ne0-f2\nd5-e6\nf2-e4\nc6-c5\nh\nq\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    let hint = said
        .lines()
        .find(|l| l.contains("Hint: "))
        .unwrap_or_else(|| panic!("no hint in: {said}"));
    assert!(hint.contains("[e4-d6]"), "{hint}");
    assert!(hint.contains("wins by force within 1 move"), "{hint}");
    let after = &said[said.find("Hint: ").unwrap()..];
    assert!(
        after.contains("Attacker, your move"),
        "asked again after the hint: {after}"
    );
    assert!(after.contains("Saved. Resume with"), "{after}");
}
