//! The store against damaged, hostile and oversized input, on real sled databases. What a
//! player sees of the same (through sessions, the CLI and the window) is tested in
//! `tests/tests/store_trust.rs`, `host/cli/tests/cli.rs` and `host/app/tests/ui_flows.rs`.

use std::path::Path;

use proptest::prelude::*;
use veillee_sdk::{Setup, Status};

use super::model::{LogEntry, PlayerKind, SeatPlayer, SessionMeta, VariantScript};
use super::sessions::{entry_key, session_key};
use super::*;

fn meta(id: u64, names: &[&str], moves: u32) -> SessionMeta {
    SessionMeta {
        id,
        game: "dice".into(),
        plugin_hash: "h".into(),
        plugin_version: "1".into(),
        variants: Vec::new(),
        seats: names
            .iter()
            .map(|n| SeatPlayer {
                name: n.to_string(),
                kind: PlayerKind::Human,
                level: None,
            })
            .collect(),
        setup: Setup::new(names.len() as u8, id),
        created: 1000 + id,
        last_played: 2000 + id,
        moves,
        status: Status::to_act(0),
        phones: Vec::new(),
    }
}

fn entry(i: u32) -> LogEntry {
    LogEntry {
        seat: (i % 2) as u8,
        action: format!("move-{i}"),
        extra: serde_json::Value::Null,
        reveals: Vec::new(),
    }
}

fn script(id: &str, text: &str) -> VariantScript {
    VariantScript {
        id: id.into(),
        file: format!("{id}.lua"),
        hash: "x".into(),
        text: text.into(),
    }
}

/// A session of `moves` moves written through the store, with its scripts.
fn save(store: &Store, id: u64, moves: u32, scripts: &[VariantScript]) {
    let mut m = meta(id, &["Ana", "Bruno"], moves);
    m.variants = scripts.to_vec();
    let entries: Vec<LogEntry> = (0..moves).map(entry).collect();
    let change = SessionChange {
        meta: Some(&m),
        scripts: (!scripts.is_empty()).then_some(scripts),
        append: entries
            .iter()
            .enumerate()
            .map(|(i, e)| (i as u32, e))
            .collect(),
        snapshot: Some((0, b"state")),
        ..SessionChange::default()
    };
    store.commit(id, &change).expect("saved");
}

/// Writes a session's description alone.
fn describe(store: &Store, meta: &SessionMeta) -> Result<(), StoreError> {
    let change = SessionChange {
        meta: Some(meta),
        ..SessionChange::default()
    };
    store.commit(meta.id, &change)
}

fn open(dir: &Path) -> (Store, Option<Recovery>) {
    Store::open(dir).expect("the store opens")
}

/// Writes raw bytes under a key of a tree, as damage or an older Veillée would.
fn poke(store: &Store, tree: TreeName, key: &[u8], value: &[u8]) {
    store.tree(tree).unwrap().insert(key, value).unwrap();
    store.flush().unwrap();
}

#[test]
fn session_ids_count_from_one_and_follow_on_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let mut ids = Vec::new();
    for _ in 0..3 {
        // A fresh start each time (sled's own generator jumps by a million per start).
        let (store, _) = open(dir.path());
        let id = store.new_session_id().unwrap();
        save(&store, id, 1, &[]);
        ids.push(id);
    }
    assert_eq!(ids, [1, 2, 3]);
    let (store, _) = open(dir.path());
    store.delete_session(3).unwrap();
    store.delete_session(1).unwrap();
    assert_eq!(
        store.new_session_id().unwrap(),
        3,
        "after the highest saved"
    );
}

#[test]
fn a_schema_version_of_zero_is_damage_to_salvage_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    {
        let (store, _) = open(dir.path());
        save(&store, 1, 3, &[]);
        poke(&store, TreeName::Meta, b"schema_version", b"0");
    }
    let (store, recovery) = open(dir.path());
    let recovery = recovery.expect("salvaged");
    assert!(
        recovery.reason.contains("schema version 0 does not exist"),
        "{recovery}"
    );
    assert_eq!(recovery.kept, vec![1]);
    assert_eq!(store.log(1, 0).unwrap().len(), 3);
}

#[test]
fn a_damaged_description_loses_only_its_session_and_the_rest_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    {
        let (store, _) = open(dir.path());
        for id in 1..=5 {
            save(&store, id, id as u32, &[]);
        }
        poke(
            &store,
            TreeName::Sessions,
            &session_key(3),
            b"{\"id\":3,\"ga",
        );
    }
    let (store, recovery) = open(dir.path());
    let recovery = recovery.expect("salvaged");
    assert_eq!(recovery.kept, vec![1, 2, 4, 5]);
    assert_eq!(recovery.lost.len(), 1, "{recovery}");
    assert_eq!(recovery.lost[0].id, 3);
    assert!(recovery.to_string().contains("session 3"), "{recovery}");
    let ids: Vec<u64> = store.sessions().unwrap().iter().map(|m| m.id).collect();
    assert_eq!(ids, vec![1, 2, 4, 5]);
    assert_eq!(store.log(5, 0).unwrap().len(), 5);
    assert!(
        recovery.moved_to.join("db").exists(),
        "the damaged one is kept"
    );
    assert_eq!(store.set_aside().len(), 1);
}

#[test]
fn a_damaged_move_is_reported_when_read_and_salvaged_at_the_next_start() {
    let dir = tempfile::tempdir().unwrap();
    {
        let (store, _) = open(dir.path());
        save(&store, 1, 4, &[]);
        save(&store, 2, 4, &[]);
        poke(&store, TreeName::Log, &entry_key(2, 1), b"\xff\x00");
    }
    {
        let (store, recovery) = open(dir.path());
        assert!(recovery.is_none(), "opening does not read the logs");
        assert_eq!(store.sessions().unwrap().len(), 2);
        let error = store.log(2, 0).unwrap_err();
        assert!(error.is_damage());
        assert!(error.to_string().contains("session 2, move 2"), "{error}");
    }
    let (store, recovery) = open(dir.path());
    let recovery = recovery.expect("the damage noted is salvaged");
    assert_eq!(recovery.kept, vec![1]);
    assert!(
        recovery.lost[0].why.contains("move 2 cannot be read"),
        "{recovery}"
    );
    assert_eq!(store.log(1, 0).unwrap().len(), 4);
}

#[test]
fn scripts_are_written_once_and_not_rewritten_with_every_move() {
    let dir = tempfile::tempdir().unwrap();
    let (store, _) = open(dir.path());
    let text = "return {}".repeat(1000);
    save(&store, 1, 0, &[script("cartes", &text)]);
    let stored = store.tree(TreeName::Sessions).unwrap().get(session_key(1));
    let stored = stored.unwrap().unwrap();
    assert!(
        stored.len() < 1000,
        "the description is small: {} bytes",
        stored.len()
    );
    let listed = store.sessions().unwrap();
    assert!(
        listed[0].variants[0].text.is_empty(),
        "a listing reads no script"
    );
    assert_eq!(store.session(1).unwrap().unwrap().variants[0].text, text);
    // A move rewrites the description only.
    let mut m = store.session(1).unwrap().unwrap();
    m.moves = 1;
    let e = entry(0);
    let change = SessionChange {
        meta: Some(&m),
        append: vec![(0, &e)],
        ..SessionChange::default()
    };
    store.commit(1, &change).unwrap();
    assert_eq!(store.session(1).unwrap().unwrap().variants[0].text, text);
}

#[test]
fn a_schema_1_database_keeps_its_scripts_when_upgraded() {
    let dir = tempfile::tempdir().unwrap();
    {
        let (store, _) = open(dir.path());
        let mut m = meta(1, &["Ana", "Bruno"], 0);
        m.variants = vec![script("renforts", "return { id = 'renforts' }")];
        // Schema 1 kept the texts in the description.
        poke(&store, TreeName::Sessions, &session_key(1), &encode(&m));
        force_schema_version(&store, 1).unwrap();
    }
    let (store, recovery) = open(dir.path());
    assert!(recovery.is_none());
    let m = store.session(1).unwrap().unwrap();
    assert_eq!(m.variants[0].text, "return { id = 'renforts' }");
    let raw = store.tree(TreeName::Sessions).unwrap().get(session_key(1));
    assert!(!String::from_utf8_lossy(&raw.unwrap().unwrap()).contains("return"));
}

#[test]
fn oversized_names_scripts_and_moves_are_refused_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let (store, _) = open(dir.path());
    let long = "A".repeat(limits::NAME_CHARS + 1);
    let m = meta(1, &["Ana", &long], 0);
    let error = describe(&store, &m).unwrap_err();
    assert_eq!(
        error.to_string(),
        "the name of player 2 is 41 characters long; a name has at most 40"
    );
    let m = meta(1, &["Ana", "\u{1b}]52;c;bad\u{7}"], 0);
    let error = describe(&store, &m).unwrap_err();
    assert!(
        error.to_string().contains("control character (U+001B)"),
        "{error}"
    );
    let big = script("big", &"-".repeat(limits::SCRIPT_BYTES + 1));
    let mut m = meta(1, &["Ana", "Bruno"], 0);
    m.variants = vec![big.clone()];
    let error = store
        .commit(
            1,
            &SessionChange {
                meta: Some(&m),
                scripts: Some(std::slice::from_ref(&big)),
                ..SessionChange::default()
            },
        )
        .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("the house rule `big` is 262145 bytes"),
        "{error}"
    );
    let mut huge = entry(0);
    huge.action = "x".repeat(limits::ACTION_BYTES + 1);
    let error = store
        .commit(
            1,
            &SessionChange {
                append: vec![(0, &huge)],
                ..SessionChange::default()
            },
        )
        .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("move 1 has an action id of 1025 bytes"),
        "{error}"
    );
    assert!(store.sessions().unwrap().is_empty());
    assert!(store.log(1, 0).unwrap().is_empty());
}

#[test]
fn phone_seats_are_kept_and_must_be_seats_of_the_game_each_once() {
    let dir = tempfile::tempdir().unwrap();
    let (store, _) = open(dir.path());
    let mut m = meta(1, &["Ana", "Bruno", "Cy"], 0);
    for bad in [vec![3], vec![1, 0], vec![1, 1]] {
        m.phones = bad.clone();
        let error = describe(&store, &m).unwrap_err();
        assert!(
            error.to_string().contains("held by phones"),
            "{bad:?}: {error}"
        );
    }
    assert!(store.sessions().unwrap().is_empty());
    m.phones = vec![0, 2];
    describe(&store, &m).unwrap();
    assert_eq!(store.sessions().unwrap()[0].phones, [0, 2]);
}

#[test]
fn a_salvage_interrupted_before_its_end_leaves_the_old_database_in_place() {
    let dir = tempfile::tempdir().unwrap();
    {
        let (store, _) = open(dir.path());
        save(&store, 1, 2, &[]);
    }
    // A half-built new database beside the old one: the process was killed while salvaging.
    std::fs::create_dir(dir.path().join("sessions.salvaging")).unwrap();
    std::fs::write(dir.path().join("sessions.salvaging/db"), b"half").unwrap();
    let (store, recovery) = open(dir.path());
    assert!(recovery.is_none());
    assert_eq!(store.sessions().unwrap().len(), 1);
    assert!(!dir.path().join("sessions.salvaging").exists());
}

#[test]
fn restoring_a_set_aside_database_brings_back_its_games_once() {
    let dir = tempfile::tempdir().unwrap();
    {
        let (store, _) = open(dir.path());
        for id in 1..=3 {
            save(&store, id, 2, &[script("r", "return 1")]);
        }
    }
    // An older Veillée set a healthy database aside (a full disk taken for damage).
    std::fs::rename(
        dir.path().join("sessions.sled"),
        dir.path().join("sessions.broken-1700000000"),
    )
    .unwrap();
    let (store, recovery) = open(dir.path());
    assert!(recovery.is_none());
    assert!(store.sessions().unwrap().is_empty(), "a fresh database");
    // A new game took id 1 meanwhile.
    let mut new_game = meta(1, &["Zoé", "Yves"], 0);
    new_game.created = 99_999;
    describe(&store, &new_game).unwrap();
    let set_aside = store.set_aside();
    assert_eq!(set_aside.len(), 1);
    assert_eq!(set_aside[0].since, Some(1_700_000_000));
    let restored = store.restore("sessions.broken-1700000000").unwrap();
    assert!(restored.complete());
    assert_eq!(restored.added.len(), 3);
    assert_eq!(restored.added[0].0, 1);
    assert_ne!(restored.added[0].1, 1, "id 1 was taken: a new id");
    assert_eq!(&restored.added[1..], &[(2, 2), (3, 3)]);
    assert!(restored.folder.ends_with("sessions.restored-1700000000"));
    assert_eq!(store.sessions().unwrap().len(), 4);
    let moved = restored.added[0].1;
    assert_eq!(store.log(moved, 0).unwrap().len(), 2);
    assert_eq!(
        store.session(moved).unwrap().unwrap().variants[0].text,
        "return 1"
    );
    assert!(store.set_aside().is_empty());
    let error = store.restore("sessions.broken-1700000000").unwrap_err();
    assert!(
        error.to_string().contains("no set-aside database"),
        "{error}"
    );
    assert!(matches!(
        store.restore("../../etc").unwrap_err(),
        StoreError::NoSuchSetAside(_)
    ));
}

/// Every store command over a database holding `value` under `key` in `tree`: none may
/// panic; each answers or fails with an error.
fn every_command(dir: &Path) {
    let (store, _) = match Store::open(dir) {
        Ok(opened) => opened,
        Err(_) => return,
    };
    let _ = store.sessions();
    for id in 0..3 {
        let _ = store.session(id);
        let _ = store.log(id, 0);
        let _ = store.latest_snapshot(id, u32::MAX);
        let _ = store.redo_stack(id);
    }
    let _ = store.setting::<serde_json::Value>("ui.language");
    for aside in store.set_aside() {
        let _ = store.restore(&aside.name);
    }
}

fn tree_name() -> impl Strategy<Value = TreeName> {
    prop::sample::select(TreeName::ALL.to_vec())
}

fn record_key() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        Just(session_key(1).to_vec()),
        Just(entry_key(1, 0).to_vec()),
        Just(entry_key(1, 1).to_vec()),
        Just(b"schema_version".to_vec()),
        Just(b"ui.language".to_vec()),
        prop::collection::vec(any::<u8>(), 0..16),
    ]
}

/// A valid record of some tree, for mutation.
fn valid_record() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        Just(encode(&meta(1, &["Ana", "Bruno"], 2))),
        Just(encode(&entry(0))),
        Just(encode(&vec![vec![entry(0)]])),
        Just(encode(&vec![script("r", "return 1")])),
        Just(encode(&2u32)),
        Just(b"\"fr\"".to_vec()),
    ]
}

/// A record: random bytes, or a valid record with bytes flipped, cut or numbers replaced.
fn hostile_record() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..64),
        (valid_record(), any::<prop::sample::Index>(), any::<u8>()).prop_map(|(mut r, at, bit)| {
            let i = at.index(r.len());
            r[i] ^= 1 << (bit % 8);
            r
        }),
        (valid_record(), any::<prop::sample::Index>())
            .prop_map(|(r, at)| { r[..at.index(r.len())].to_vec() }),
        (
            valid_record(),
            prop_oneof![
                Just("0"),
                Just("-1"),
                Just("4294967296"),
                Just("1e400"),
                Just("null")
            ]
        )
            .prop_map(|(r, n)| {
                String::from_utf8_lossy(&r)
                    .replace(['2', '0'], n)
                    .into_bytes()
            }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    /// The record decoders alone, on many inputs: an error or a value, never a panic.
    #[test]
    fn no_record_bytes_panic_a_decoder(bytes in hostile_record()) {
        let _ = decode::<SessionMeta>(TreeName::Sessions, 1, &bytes);
        let _ = decode::<LogEntry>(TreeName::Log, 1, &bytes);
        let _ = decode::<RedoStack>(TreeName::Redo, 1, &bytes);
        let _ = decode::<Vec<VariantScript>>(TreeName::Scripts, 1, &bytes);
        let _ = decode::<u32>(TreeName::Meta, 1, &bytes);
        let _ = sessions::id_of(&bytes);
        let _ = sessions::index_of(&bytes);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]

    /// Whole databases holding one hostile record: every command, no panic, and the healthy
    /// session beside it is still there afterwards (kept, or salvaged).
    #[test]
    fn no_record_in_the_database_panics_the_store(
        tree in tree_name(),
        key in record_key(),
        value in hostile_record(),
    ) {
        let dir = tempfile::tempdir().unwrap();
        {
            let (store, _) = open(dir.path());
            save(&store, 2, 2, &[script("r", "return 1")]);
            poke(&store, tree, &key, &value);
        }
        every_command(dir.path());
        if let Ok((store, _)) = Store::open(dir.path()) {
            let kept = store.session(2);
            prop_assert!(matches!(kept, Ok(Some(_))), "session 2: {kept:?}");
            prop_assert_eq!(store.log(2, 0).map(|l| l.len()).ok(), Some(2));
        }
    }
}

const DB_DIR_NAME: &str = "sessions.sled";
/// The share of sessions (in percent) that must come back over all the damages below. sled's
/// file layout depends on the timing of its flusher, so the same seeds give 97–99% from one
/// run to the next (before the log was read apart from sled: none came back as saved); 90
/// leaves room for that and still fails if one damage loses everything after it.
const SALVAGE_FLOOR_PERCENT: u64 = 90;

/// A deterministic generator for the damage below (splitmix64): the same seed, the same
/// damage, on every machine.
struct Seeded(u64);

impl Seeded {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// A move as a game writes it: a seat, an action id and the details a game keeps.
fn played(session: u64, i: u32) -> LogEntry {
    LogEntry {
        seat: (i % 3) as u8,
        action: format!("play:{}:{}", i % 7, (i * 13 + session as u32) % 52),
        extra: serde_json::json!({ "roll": [i % 6 + 1, (i + session as u32) % 6 + 1], "note": "a card was drawn and kept face down" }),
        reveals: Vec::new(),
    }
}

/// Sessions played move by move, taking turns as an evening's games do (so that their
/// records are spread over the whole file), one commit per move and a snapshot every 20.
fn play_evening(store: &Store, sessions: u64) -> Vec<(SessionMeta, Vec<LogEntry>)> {
    let mut games: Vec<(SessionMeta, Vec<LogEntry>, u32)> = (1..=sessions)
        .map(|id| {
            let target = 40 + (id as u32 * 37) % 120;
            (meta(id, &["Ana", "Bruno", "Cy"], 0), Vec::new(), target)
        })
        .collect();
    loop {
        let mut played_any = false;
        for (m, log, target) in &mut games {
            if m.moves == *target {
                continue;
            }
            played_any = true;
            let entry = played(m.id, m.moves);
            m.moves += 1;
            m.last_played += 1;
            m.status = Status::to_act((m.moves % 3) as u8);
            let state = format!("state of session {} after {} moves", m.id, m.moves).repeat(4);
            let change = SessionChange {
                meta: Some(m),
                append: vec![(m.moves - 1, &entry)],
                snapshot: (m.moves % 20 == 0).then_some((m.moves, state.as_bytes())),
                ..SessionChange::default()
            };
            store.commit(m.id, &change).expect("saved");
            log.push(entry);
        }
        if !played_any {
            break;
        }
    }
    games.into_iter().map(|(m, log, _)| (m, log)).collect()
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// Every file of a folder, with its length.
fn files(dir: &Path) -> Vec<(std::path::PathBuf, u64)> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_dir() {
            found.extend(files(&entry.path()));
        } else {
            found.push((entry.path(), entry.metadata().unwrap().len()));
        }
    }
    found.sort();
    found
}

/// Flips `count` bytes of the database at random places (seeded): in the last three
/// quarters of its log file, or anywhere in its other files, by their sizes.
fn flip_bytes(db: &Path, seed: u64, count: usize) -> Vec<(std::path::PathBuf, u64)> {
    let mut rng = Seeded(seed);
    let all = files(db);
    let weights: Vec<u64> = all
        .iter()
        .map(
            |(path, len)| match path.file_name().and_then(|n| n.to_str()) {
                Some("db") => len - len / 4,
                _ => *len,
            },
        )
        .collect();
    let total: u64 = weights.iter().sum();
    let mut flipped = Vec::new();
    for _ in 0..count {
        let mut at = rng.below(total);
        let mut i = 0;
        while at >= weights[i] {
            at -= weights[i];
            i += 1;
        }
        let (path, len) = &all[i];
        let offset = len - weights[i] + at;
        let mut bytes = std::fs::read(path).unwrap();
        bytes[offset as usize] ^= 1 + rng.below(255) as u8;
        std::fs::write(path, bytes).unwrap();
        flipped.push((path.clone(), offset));
    }
    flipped
}

/// Opens a damaged data directory as a player would: open, use every session (damage found
/// while reading is noted), then open again (the noted damage is salvaged). Returns the
/// store as it then stands and every recovery report on the way.
fn open_twice(dir: &Path) -> (Store, Vec<Recovery>) {
    let mut reports = Vec::new();
    {
        let (store, recovery) = open(dir);
        reports.extend(recovery);
        for meta in store.sessions().unwrap_or_default() {
            let _ = store.session(meta.id);
            let _ = store.log(meta.id, 0);
            let _ = store.latest_snapshot(meta.id, meta.moves);
        }
    }
    let (store, recovery) = open(dir);
    reports.extend(recovery);
    (store, reports)
}

/// Random damage to a database of an evening's sessions: every session that comes back
/// is exactly the one saved (nothing damaged is passed off as good), nothing panics, the
/// damaged database is kept byte for byte, and most sessions come back. The figure is
/// printed (`cargo test -p veillee-store salvage_figure -- --nocapture`).
#[test]
fn salvage_figure_over_random_damage() {
    const SESSIONS: u64 = 16;
    const DAMAGES: u64 = 24;
    const FLIPS: usize = 20;
    let template = tempfile::tempdir().unwrap();
    let saved = {
        let (store, _) = open(template.path());
        play_evening(&store, SESSIONS)
    };
    let (mut back, mut total, mut wrong) = (0u64, 0u64, Vec::new());
    for run in 0..DAMAGES {
        let dir = tempfile::tempdir().unwrap();
        copy_tree(template.path(), dir.path());
        let flipped = flip_bytes(&dir.path().join(DB_DIR_NAME), 1000 + run, FLIPS);
        let damaged: Vec<(std::path::PathBuf, Vec<u8>)> = files(&dir.path().join(DB_DIR_NAME))
            .into_iter()
            .map(|(p, _)| {
                let bytes = std::fs::read(&p).unwrap();
                (p, bytes)
            })
            .collect();
        let (store, reports) = open_twice(dir.path());
        let mut came_back = 0;
        for (original, log) in &saved {
            let id = original.id;
            let (Ok(Some(meta)), Ok(read)) = (store.session(id), store.log(id, 0)) else {
                continue;
            };
            if &meta != original || &read != log {
                wrong.push(format!("run {run}: session {id} came back changed"));
                continue;
            }
            came_back += 1;
        }
        // Only whole sessions are listed.
        let listed = store.sessions().map(|l| l.len()).unwrap_or(0);
        assert_eq!(listed, came_back, "run {run}: {reports:?}");
        // The damaged database is kept: sled opened it in place only when it found no damage
        // in what it replays, and then writes only past the end of its log.
        let mut changed = 0;
        if let Some(report) = reports.first() {
            for (path, bytes) in &damaged {
                let rel = path.strip_prefix(dir.path().join(DB_DIR_NAME)).unwrap();
                let kept = std::fs::read(report.moved_to.join(rel)).unwrap_or_default();
                if rel == Path::new("db") {
                    assert_eq!(kept.len(), bytes.len(), "run {run}: the set-aside log file");
                }
                changed += usize::from(kept != *bytes);
            }
        }
        eprintln!(
            "damage {run:2} ({} bytes flipped, {} in the log file): {came_back:2}/{SESSIONS} sessions back{}",
            flipped.len(),
            flipped.iter().filter(|(p, _)| p.ends_with("db")).count(),
            if reports.is_empty() { " (no damage seen)" } else { "" }
        );
        if changed > 0 {
            eprintln!(
                "  ({changed} file(s) of the set-aside database differ from the damaged ones)"
            );
        }
        back += came_back as u64;
        total += SESSIONS;
    }
    eprintln!(
        "salvage over {DAMAGES} random damages of {FLIPS} bytes: {back}/{total} sessions back ({:.1}%)",
        100.0 * back as f64 / total as f64
    );
    assert!(wrong.is_empty(), "{wrong:#?}");
    assert!(
        back * 100 >= total * SALVAGE_FLOOR_PERCENT,
        "{back}/{total}"
    );
}
