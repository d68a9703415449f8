//! What the command line's end-to-end tests share: running `veillee` as a user does, and a
//! game with phone seats whose room listens on loopback.

#![allow(dead_code)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// `veillee ARGS` on a data directory, in English.
pub fn command(data: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_veillee"));
    command
        .args(args)
        .env("VEILLEE_DATA_DIR", data)
        // One compiled-code cache for the whole run: each test has its own data directory,
        // and compiling every plugin again for each would dominate the run time.
        .env(
            "VEILLEE_CACHE_DIR",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/compiled-plugins"),
        )
        // Its key beside it, not in the user's configuration directory.
        .env(
            "VEILLEE_CACHE_KEY",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/compiled-plugins.key"),
        )
        .env("LANG", "en_GB.UTF-8")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES");
    command
}

/// `veillee ARGS` run to its end with `input` on its standard input: its output.
pub fn veillee_with_input(data: &Path, args: &[&str], input: &str) -> std::process::Output {
    let mut child = command(data, args)
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

/// `veillee ARGS` with phone seats, the room on loopback: the running process (killed if
/// the test fails first), the seats' links, and its output read on a thread.
pub struct WithPhones {
    pub child: std::process::Child,
    /// The seats' links, in seat order.
    pub links: Vec<String>,
    output: Option<std::thread::JoinHandle<String>>,
}

impl WithPhones {
    pub fn start(data: &Path, args: &[&str]) -> WithPhones {
        use std::io::BufRead;
        let mut args = args.to_vec();
        args.extend(["--room-address", "127.0.0.1"]);
        let mut child = command(data, &args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("veillee starts");
        let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
        let mut printed = Vec::new();
        let mut links = Vec::new();
        for line in lines.by_ref() {
            let line = line.unwrap();
            if let Some(at) = line.find("http://127.0.0.1:") {
                if line[at..].contains("/s/") {
                    links.push(line[at..].trim().to_string());
                }
            }
            printed.push(line);
            if printed.iter().any(|l| l.contains("Waiting for")) {
                break;
            }
        }
        // The rest is read on a thread, so that the game never waits on the pipe.
        let output = std::thread::spawn(move || {
            printed.extend(lines.map_while(Result::ok));
            printed.join("\n")
        });
        WithPhones {
            child,
            links,
            output: Some(output),
        }
    }

    /// Types a line at the big screen.
    pub fn type_line(&mut self, line: &str) {
        let keyboard = self.child.stdin.as_mut().expect("the terminal's input");
        writeln!(keyboard, "{line}").unwrap();
    }

    /// Waits for the process to end: whether it succeeded, and everything it printed.
    pub fn finish(mut self) -> (bool, String) {
        drop(self.child.stdin.take());
        let success = self.child.wait().unwrap().success();
        let printed = self.output.take().unwrap().join().unwrap();
        (success, printed)
    }
}

impl Drop for WithPhones {
    fn drop(&mut self) {
        if self.child.try_wait().ok().flatten().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
