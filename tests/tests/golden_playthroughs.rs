//! Recorded playthroughs: for every built-in game, a few seeded games (set-up seed + the
//! actions chosen) with their outcome and final state hash, kept as snapshot files in
//! `tests/snapshots/`. A rules change that alters history shows up as a diff here; when the
//! change is intended, review it with `cargo insta review` (or re-run with
//! `INSTA_UPDATE=always`) and commit the new snapshots.

use serde_json::json;
use veillee_runtime::conformance::state_hash;
use veillee_runtime::engine::GameEngine;
use veillee_runtime::launch::with_own_scripts;
use veillee_sdk::{GameRng, Setup, Status};
use veillee_tests::{builtin_plugin, runtime};

/// Plays a game whose choices come from `seed`; returns its record.
fn playthrough(engine: &mut dyn GameEngine, players: u8, seed: u64) -> serde_json::Value {
    let game = engine
        .create(&Setup::new(players, seed))
        .expect("the game is created");
    let mut chooser = GameRng::new(seed.wrapping_mul(0x9e37_79b9));
    let mut actions = Vec::new();
    let outcome = loop {
        match engine.status(game).expect("status") {
            Status::Finished { outcome } => break outcome,
            Status::ToAct { seats } => {
                let seat = seats[chooser.below(seats.len())];
                let legal = engine.legal_actions(game, seat).expect("legal actions");
                let id = legal[chooser.below(legal.len())].id.clone();
                engine
                    .apply(game, seat, &id)
                    .expect("a listed action applies");
                actions.push(format!("{seat}:{id}"));
            }
        }
        assert!(actions.len() < 20_000, "the game does not end");
    };
    let hash = state_hash(&engine.save(game).expect("save"));
    json!({ "players": players, "seed": seed, "actions": actions.join(" "), "outcome": outcome, "state_hash": hash })
}

#[test]
fn recorded_playthroughs_replay_identically() {
    let runtime = runtime();
    for (id, _) in veillee_runtime::builtin::BUILTIN_PLUGINS {
        // As played: with the game's own scripts (Castel's cards).
        let mut plugin = with_own_scripts(Box::new(builtin_plugin(&runtime, id)), None).unwrap();
        let manifest = plugin.manifest().clone();
        // The smallest and the largest table, two seeds each: enough to see any change of
        // history, small enough to review (some games run to thousands of actions).
        let mut tables = vec![manifest.min_players, manifest.max_players];
        tables.dedup();
        let records: Vec<_> = tables
            .into_iter()
            .flat_map(|players| (1..=2).map(move |seed| (players, seed)))
            .map(|(players, seed)| playthrough(&mut *plugin, players, seed))
            .collect();
        insta::assert_json_snapshot!(format!("playthroughs_{id}"), records);
    }
}
