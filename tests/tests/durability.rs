//! Every move reported as saved survives a crash: a child process plays games through the
//! real session store and reports each move once it is saved; the test kills it (SIGKILL) at
//! random moments, reopens the database and checks that every reported move is there, that
//! the logs replay, and that the database opens every time without needing recovery.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

use veillee_runtime::session::Sessions;
use veillee_runtime::store::Store;
use veillee_sdk::GameRng;
use veillee_tests::{builtin_plugin, runtime};

const KILLS: u32 = 60;

#[test]
fn every_reported_move_survives_sigkill() {
    let dir = tempfile::tempdir().unwrap();
    let runtime = runtime();
    let mut plugin = builtin_plugin(&runtime, "siege");
    let mut rng = GameRng::new(2026);
    let mut total_reported = 0;
    for round in 0..KILLS {
        let mut child = Command::new(env!("CARGO_BIN_EXE_durability_child"))
            .arg(dir.path())
            .arg(round.to_string())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the child starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let (sender, receiver) = std::sync::mpsc::channel();
        let reader = std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = sender.send(line);
            }
        });
        if round < 3 {
            // While the child plays, a second process on the same data is refused clearly.
            let first = receiver
                .recv_timeout(Duration::from_secs(60))
                .expect("the child saves a move");
            let error = Store::open(dir.path())
                .err()
                .expect("a second open is refused");
            assert!(
                error
                    .to_string()
                    .contains("Veillée is already running on this data"),
                "{error}"
            );
            let mut lines = vec![first];
            lines.extend(collect_after_kill(&mut child, reader, receiver));
            kill_and_check(
                round,
                &mut child,
                lines.into_iter(),
                &dir,
                &mut plugin,
                &mut total_reported,
            );
            continue;
        }
        std::thread::sleep(Duration::from_millis(20 + rng.below(400) as u64));
        let lines = collect_after_kill(&mut child, reader, receiver);
        kill_and_check(
            round,
            &mut child,
            lines.into_iter(),
            &dir,
            &mut plugin,
            &mut total_reported,
        );
    }
    assert!(
        total_reported > KILLS as usize,
        "the children reported only {total_reported} moves: the test would prove nothing"
    );
}

/// Kills the child and returns every line it printed (that is still unread).
fn collect_after_kill(
    child: &mut std::process::Child,
    reader: std::thread::JoinHandle<()>,
    receiver: std::sync::mpsc::Receiver<String>,
) -> Vec<String> {
    child.kill().expect("SIGKILL");
    reader.join().expect("the reader thread ends");
    receiver.try_iter().collect()
}

fn kill_and_check(
    round: u32,
    child: &mut std::process::Child,
    lines: impl Iterator<Item = String>,
    dir: &tempfile::TempDir,
    plugin: &mut veillee_runtime::plugin::Plugin,
    total_reported: &mut usize,
) {
    let lines: Vec<String> = lines.collect();
    let status = child.wait().expect("the child is reaped");
    if status.success() {
        let mut err = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).ok();
        panic!("the child stopped by itself: {err}");
    }

    let (store, recovery) = Store::open(dir.path())
        .unwrap_or_else(|e| panic!("round {round}: the database does not open: {e}"));
    assert!(
        recovery.is_none(),
        "round {round}: the database needed recovery: {recovery:?}"
    );
    let sessions = Sessions::new(store);
    let mut touched = BTreeSet::new();
    for line in &lines {
        let fields: Vec<&str> = line.split(' ').collect();
        let [_, id, index, action] = fields[..] else {
            panic!("odd line {line}")
        };
        let (id, index): (u64, usize) = (id.parse().unwrap(), index.parse().unwrap());
        let log = sessions.log(id).unwrap();
        let saved = log.get(index).unwrap_or_else(|| {
            panic!("round {round}: move {index} of session {id} was reported saved but is missing")
        });
        assert_eq!(
            saved.action, action,
            "round {round}: session {id} move {index}"
        );
        touched.insert(id);
    }
    *total_reported += lines.len();
    // The sessions of this round, including the one cut short, replay from their logs.
    if let Some(last) = sessions.list().unwrap().iter().map(|m| m.id).max() {
        touched.insert(last);
    }
    for id in touched {
        let live = sessions
            .resume(plugin, id)
            .unwrap_or_else(|e| panic!("round {round}: session {id} does not replay: {e}"));
        use veillee_runtime::engine::GameEngine;
        plugin.drop_game(live.game);
    }
}
