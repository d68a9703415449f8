//! The store never hides or loses data: a full disk is not damage, one flipped
//! bit or a truncated file loses at most what it touches, oversized values are refused at the
//! door — on real sled databases, real files and a real kernel limit.

use std::path::Path;
use std::process::{Command, Stdio};

use veillee_runtime::engine::NativeEngine;
use veillee_runtime::session::{SessionError, Sessions};
use veillee_runtime::store::model::{PlayerKind, SeatPlayer, VariantScript};
use veillee_runtime::store::{limits, Store};
use veillee_sdk::Setup;
use veillee_tests::dice::Dice;

fn players(names: &[&str]) -> Vec<SeatPlayer> {
    names
        .iter()
        .map(|n| SeatPlayer {
            name: n.to_string(),
            kind: PlayerKind::Human,
            level: None,
        })
        .collect()
}

/// `count` sessions of the dice game, session `i` with `i + 3` moves and players named
/// `Joueur-<i>-a` / `Joueur-<i>-b` (so that a record can be found in the file).
fn sessions_in(dir: &Path, count: u64) {
    let (store, _) = Store::open(dir).unwrap();
    let sessions = Sessions::new(store);
    let mut dice = NativeEngine::<Dice<1>>::default();
    for i in 0..count {
        let a = format!("Joueur-{i}-a");
        let b = format!("Joueur-{i}-b");
        let mut live = sessions
            .start(&mut dice, players(&[&a, &b]), Setup::new(2, i))
            .unwrap();
        for _ in 0..i + 3 {
            let seat = live.meta.status.seats()[0];
            sessions
                .apply(&mut dice, &mut live, seat, "roll", serde_json::Value::Null)
                .unwrap();
        }
    }
}

fn set_aside_folders(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with("sessions.broken-"))
        .collect()
}

#[cfg(unix)]
#[test]
fn a_full_disk_refuses_the_move_it_cannot_save_and_moves_nothing_aside() {
    let dir = tempfile::tempdir().unwrap();
    sessions_in(dir.path(), 3);
    let output = Command::new(env!("CARGO_BIN_EXE_full_disk_child"))
        .arg(dir.path())
        .arg("20")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .expect("the child runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let lines: Vec<&str> = stdout.lines().collect();
    let refused = lines
        .iter()
        .find_map(|l| l.strip_prefix("refused "))
        .expect("a move was refused once the disk was full");
    assert!(
        refused.contains("the disk refused") && refused.contains("ulimit -f"),
        "{refused}"
    );
    assert!(
        refused.contains("nothing already saved was lost"),
        "{refused}"
    );
    // Every move reported saved is there, in the database left in place.
    let mut saved: std::collections::BTreeMap<u64, u32> = Default::default();
    for line in &lines {
        if let Some(rest) = line.strip_prefix("saved ") {
            let mut parts = rest.split(' ').map(|p| p.parse::<u64>().unwrap());
            let (id, index) = (parts.next().unwrap(), parts.next().unwrap());
            saved.insert(id, index as u32 + 1);
        }
    }
    assert!(saved.values().sum::<u32>() > 20, "{saved:?}");
    let (store, recovery) = Store::open(dir.path()).expect("opens once there is room");
    assert!(recovery.is_none(), "nothing was damaged: {recovery:?}");
    assert!(set_aside_folders(dir.path()).is_empty());
    let sessions = Sessions::new(store);
    assert!(
        sessions.list().unwrap().len() >= 4,
        "the three older games and the new one"
    );
    for (id, moves) in saved {
        let log = sessions.log(id).unwrap().len() as u32;
        // The refused move was reported as not saved; at most it may have reached the disk.
        assert!(
            log == moves || log == moves + 1,
            "session {id}: {log} vs {moves}"
        );
    }
}

/// Flips one bit of the database file inside the bytes of `needle`, as a failing disk would.
fn flip_bit_in(db_file: &Path, needle: &[u8]) {
    let mut bytes = std::fs::read(db_file).unwrap();
    let at = bytes
        .windows(needle.len())
        .position(|w| w == needle)
        .unwrap_or_else(|| panic!("{needle:?} is in the file"));
    bytes[at + needle.len() / 2] ^= 0x04;
    std::fs::write(db_file, bytes).unwrap();
}

/// What every salvage must give: the launcher starts, the damage is reported, the damaged
/// database is kept aside and offered for restore, and every game listed is whole.
fn check_salvaged(dir: &Path, recovery: &Option<veillee_runtime::store::Recovery>) -> Vec<u64> {
    let recovery = recovery
        .as_ref()
        .expect("the damage is reported, never silent");
    assert!(
        recovery.moved_to.join("db").exists(),
        "the damaged file is kept"
    );
    let (store, again) = Store::open(dir).expect("opens again");
    assert!(again.is_none(), "the salvaged database is healthy");
    let sessions = Sessions::new(store);
    assert_eq!(sessions.store().set_aside().len(), 1, "offered to restore");
    let listed = sessions.list().unwrap();
    assert_eq!(listed.len(), recovery.kept.len(), "{recovery}");
    for meta in &listed {
        assert_eq!(sessions.log(meta.id).unwrap().len() as u32, meta.moves);
    }
    let mut kept = recovery.kept.clone();
    kept.sort();
    kept
}

#[test]
fn one_flipped_bit_in_a_live_record_keeps_the_games_before_it_and_reports_the_loss() {
    let dir = tempfile::tempdir().unwrap();
    sessions_in(dir.path(), 21);
    // Any later command opens the database: sled then records where every page is.
    drop(Store::open(dir.path()).unwrap());
    flip_bit_in(&dir.path().join("sessions.sled/db"), b"Joueur-7-a");
    let recovery = Store::open(dir.path()).expect("the launcher starts").1;
    let kept = check_salvaged(dir.path(), &recovery);
    // Only what the damaged record holds is lost: the sessions written before it and after.
    assert!(kept.starts_with(&[1, 2, 3, 4, 5, 6, 7]), "{kept:?}");
    assert!(kept.len() >= 20, "{kept:?}");
    let recovery = recovery.unwrap();
    assert!(recovery.to_string().contains("checksum"), "{recovery}");
}

#[test]
fn one_flipped_bit_in_what_was_written_since_the_last_start_is_seen_not_silently_dropped() {
    let dir = tempfile::tempdir().unwrap();
    sessions_in(dir.path(), 21);
    flip_bit_in(&dir.path().join("sessions.sled/db"), b"Joueur-7-a");
    let recovery = Store::open(dir.path()).expect("the launcher starts").1;
    let kept = check_salvaged(dir.path(), &recovery);
    // sled would have taken the damage for a torn write and dropped everything after it:
    // seen before sled opens the database, nothing after it is lost.
    assert!(kept.len() >= 20, "{kept:?}");
    let recovery = recovery.unwrap();
    assert!(
        recovery
            .reason
            .contains("does not match its checksum, and records follow it"),
        "{recovery}"
    );
}

#[test]
fn a_truncated_database_file_keeps_every_session_that_can_still_be_read() {
    let dir = tempfile::tempdir().unwrap();
    sessions_in(dir.path(), 21);
    let db_file = dir.path().join("sessions.sled/db");
    let len = std::fs::metadata(&db_file).unwrap().len();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&db_file)
        .unwrap()
        .set_len(len * 2 / 3)
        .unwrap();
    let recovery = Store::open(dir.path()).expect("the launcher starts").1;
    let kept = check_salvaged(dir.path(), &recovery);
    assert!(kept.len() >= 10, "{kept:?}");
}

fn script(id: &str, text: String) -> VariantScript {
    VariantScript {
        id: id.into(),
        file: format!("{id}.lua"),
        hash: String::new(),
        text,
    }
}

#[test]
fn a_session_file_over_the_limits_is_refused_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    sessions_in(dir.path(), 1);
    let (store, _) = Store::open(dir.path()).unwrap();
    let sessions = Sessions::new(store);
    let good = sessions.export(1).unwrap();
    let check = |file: &veillee_runtime::store::model::SessionFile| {
        veillee_runtime::session::check_file(file)
            .unwrap_err()
            .to_string()
    };
    let mut long_name = good.clone();
    long_name.session.seats[0].name = "N".repeat(400_000);
    assert!(
        check(&long_name)
            .contains("the name of player 1 is 400000 characters long; a name has at most 40"),
        "{}",
        check(&long_name)
    );
    let mut big_rule = good.clone();
    big_rule.session.variants = vec![script("maison", "-".repeat(limits::SCRIPT_BYTES + 1))];
    assert!(check(&big_rule).contains("the house rule `maison` is 262145 bytes"));
    let mut many_moves = good.clone();
    many_moves.session.moves = limits::MOVES + 1;
    many_moves.log = vec![many_moves.log[0].clone(); limits::MOVES as usize + 1];
    assert!(check(&many_moves).contains("at most 1000000 are kept"));
    // Through import too, and nothing is written.
    let mut dice = NativeEngine::<Dice<1>>::default();
    let error = sessions.import(&mut dice, long_name).unwrap_err();
    assert!(matches!(error, SessionError::BadFile(_)), "{error}");
    assert_eq!(sessions.list().unwrap().len(), 1);
}

#[test]
fn a_session_file_larger_than_the_limit_is_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("huge.json");
    // Sparse: the size is real, the disk is not used.
    std::fs::File::create(&file)
        .unwrap()
        .set_len(limits::FILE_BYTES + 1)
        .unwrap();
    let error = veillee_runtime::session::read_file(&file)
        .unwrap_err()
        .to_string();
    assert!(error.contains("more than the 256 MiB allowed"), "{error}");
}
