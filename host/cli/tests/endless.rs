//! House rules that would never end, driven through the binary: `play`, `check-variant` and
//! `simulate` each finish on them with the message naming the script and the bound, and the
//! game played stays saved, listed, and says again why it stopped when resumed. Every run is
//! bounded here by a generous deadline that kills the child and fails, since without the
//! bounds these commands run until killed.

mod common;

use std::io::Read;
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use common::command;

const QUESTIONS: &str = include_str!("../../../tests/fixtures/variants/questions-sans-fin.lua");
const ENDLESS_CASTEL: &str = include_str!("../../../tests/fixtures/variants/castel-sans-fin.lua");

/// Far longer than any of these runs takes on a loaded machine; only a run that never ends
/// reaches it.
const DEADLINE: Duration = Duration::from_secs(600);

/// What a finished run printed, and whether it succeeded.
struct Run {
    ok: bool,
    out: String,
    err: String,
}

/// The output of a pipe, read on a thread so that a chatty child never blocks on it.
fn drain(pipe: Option<impl Read + Send + 'static>) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_string(&mut text);
        }
        text
    })
}

/// Kills the child and fails the test when it is still running at the deadline.
fn wait_within(child: &mut Child, what: &str) -> bool {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("the child can be waited for") {
            return status.success();
        }
        if started.elapsed() > DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            panic!("`veillee {what}` still running after {DEADLINE:?}: it never ends");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// `veillee ARGS`, which must end before the deadline.
fn veillee(data: &Path, args: &[&str]) -> Run {
    let mut child = command(data, args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("veillee starts");
    let (out, err) = (drain(child.stdout.take()), drain(child.stderr.take()));
    let ok = wait_within(&mut child, &args.join(" "));
    Run {
        ok,
        out: out.join().unwrap_or_default(),
        err: err.join().unwrap_or_default(),
    }
}

/// Every part of the message is on the run's standard output.
fn assert_says(run: &Run, message: &[&str]) {
    for part in message {
        assert!(
            run.out.contains(part),
            "`{part}` not in:\n{}\n{}",
            run.out,
            run.err
        );
    }
}

/// The session `play` started, from its line `… — session 3 (resume it with …)`.
fn session_id(play_output: &str) -> String {
    let after = play_output
        .split("— session ")
        .nth(1)
        .expect("play prints its session");
    after
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_string()
}

/// `play` (bots at every seat) ends on the rule with `message`, the session stays listed,
/// and `resume` says again that it stopped, and why.
fn play_stops_saved(data: &Path, game: &str, rule: &Path, message: &[&str]) {
    let rule = rule.to_str().expect("a UTF-8 path");
    let args = [
        "play",
        game,
        "--seats",
        "random,random",
        "--seed",
        "3",
        "--variant",
        rule,
    ];
    let played = veillee(data, &args);
    assert_says(&played, message);
    assert!(played.out.contains("Stopped — "), "{}", played.out);
    let id = session_id(&played.out);
    let listed = veillee(data, &["sessions"]);
    assert!(listed.ok, "{}", listed.err);
    assert!(
        listed
            .out
            .lines()
            .any(|l| l.trim_start().starts_with(&id) && l.contains(game)),
        "session {id} is listed:\n{}",
        listed.out
    );
    let resumed = veillee(data, &["resume", &id]);
    assert_says(&resumed, message);
    assert!(resumed.out.contains("Stopped — "), "{}", resumed.out);
}

/// `check-variant` ends, failing, with `message` among its problems.
fn check_variant_fails(data: &Path, rule: &Path, extra: &[&str], message: &[&str]) {
    let mut args = vec!["check-variant", rule.to_str().expect("a UTF-8 path")];
    args.extend(extra);
    let checked = veillee(data, &args);
    assert!(!checked.ok, "the check fails:\n{}", checked.out);
    assert_says(&checked, message);
}

/// `simulate` ends, counting the game as failed with `message`, and the game it saved is
/// listed.
fn simulate_fails_saved(data: &Path, game: &str, rule: &Path, message: &[&str]) {
    let rule = rule.to_str().expect("a UTF-8 path");
    let args = [
        "simulate",
        game,
        "--games",
        "1",
        "--seed",
        "2",
        "--save",
        "--variant",
        rule,
    ];
    let simulated = veillee(data, &args);
    assert_says(&simulated, message);
    assert!(
        simulated.out.contains("errors           1"),
        "{}",
        simulated.out
    );
    let listed = veillee(data, &["sessions"]);
    assert!(listed.out.matches(game).count() >= 2, "{}", listed.out);
}

#[test]
fn endless_questions_end_play_check_variant_and_simulate_with_the_bound_named() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let rule = dir.path().join("questions-sans-fin.lua");
    std::fs::write(&rule, QUESTIONS).expect("the rule is written");
    let message = &[
        "Game stopped: the rule “Endless questions” (questions-sans-fin.lua) asked 64 \
                   questions in one move",
    ];
    play_stops_saved(dir.path(), "siege", &rule, message);
    check_variant_fails(dir.path(), &rule, &["--games", "2"], message);
    simulate_fails_saved(dir.path(), "siege", &rule, message);
}

#[test]
fn an_endless_castel_ends_simulate_with_the_bound_named_and_is_saved() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let rule = dir.path().join("castel-sans-fin.lua");
    std::fs::write(&rule, ENDLESS_CASTEL).expect("the rule is written");
    let message = &[
        "Game stopped after 15000 moves, the most a game with scripted rules may last",
        "“Endless Castel” (castel-sans-fin.lua) keep it going",
    ];
    // Played to the bound through `play` (every move saved) and `check-variant` (every move
    // checked in depth), 15,000 moves cost minutes: the questions above take those two
    // commands through the same stop, and `tests/tests/variants_endless.rs` plays this very
    // rule to the bound through the engine.
    simulate_fails_saved(dir.path(), "castel", &rule, message);
}
