//! The child process of the durability test (`tests/durability.rs`): plays Siège games
//! forever through the real session store, printing `saved SESSION INDEX ACTION` after each
//! move has been durably saved, until it is killed.
//!
//! Usage: `durability_child DATA_DIR SEED`

use std::io::Write;

use anyhow::Context;
use veillee_runtime::engine::GameEngine;
use veillee_runtime::plugin::{CacheConfig, Runtime};
use veillee_runtime::session::Sessions;
use veillee_runtime::store::model::{PlayerKind, SeatPlayer};
use veillee_runtime::store::Store;
use veillee_sdk::{GameRng, Setup};

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let dir = std::path::PathBuf::from(
        args.next()
            .context("usage: durability_child DATA_DIR SEED")?,
    );
    let seed: u64 = args
        .next()
        .context("usage: durability_child DATA_DIR SEED")?
        .parse()?;
    let (store, recovery) = Store::open(&dir)?;
    anyhow::ensure!(
        recovery.is_none(),
        "the database needed recovery: {recovery:?}"
    );
    let sessions = Sessions::new(store);
    let runtime = Runtime::new(Some(CacheConfig {
        dir: dir.join("cache"),
        key_file: dir.join("cache.key"),
    }))?;
    let bytes = veillee_runtime::builtin::plugin_bytes("siege").context("siege is built in")?;
    let mut plugin = runtime.load_builtin("siege", bytes)?;
    let mut rng = GameRng::new(seed);
    let seats: Vec<SeatPlayer> = (0..2)
        .map(|i| SeatPlayer {
            name: format!("P{i}"),
            kind: PlayerKind::Bot,
            level: None,
        })
        .collect();
    let mut out = std::io::stdout().lock();
    loop {
        let mut live = sessions.start(&mut plugin, seats.clone(), Setup::new(2, rng.next_u64()))?;
        while let Some(&seat) = plugin.status(live.game)?.seats().first() {
            let actions = plugin.legal_actions(live.game, seat)?;
            let action = actions[rng.below(actions.len())].id.clone();
            let index = live.meta.moves;
            sessions.apply(
                &mut plugin,
                &mut live,
                seat,
                &action,
                serde_json::Value::Null,
            )?;
            writeln!(out, "saved {} {index} {action}", live.meta.id)?;
            out.flush()?;
        }
    }
}
