//! The child process of the full-disk test (`tests/store_trust.rs`): plays a Siège game
//! through the real session store, printing `saved INDEX` after each move is durably saved.
//! After `FREE_MOVES` moves the disk "fills up": the process may no longer grow any file
//! (`RLIMIT_FSIZE` at the database's current size, so every write past it fails with `EFBIG`,
//! a real error from the kernel, for root too), and it plays on until a move is refused, then
//! prints `refused MESSAGE` and exits.
//!
//! Usage: `full_disk_child DATA_DIR FREE_MOVES`

use std::io::Write;

use anyhow::Context;
use veillee_runtime::engine::GameEngine;
use veillee_runtime::session::Sessions;
use veillee_runtime::store::model::{PlayerKind, SeatPlayer};
use veillee_runtime::store::Store;
use veillee_sdk::{GameRng, Setup};

fn main() -> anyhow::Result<()> {
    let usage = "usage: full_disk_child DATA_DIR FREE_MOVES";
    let mut args = std::env::args().skip(1);
    let dir = std::path::PathBuf::from(args.next().context(usage)?);
    let free_moves: u32 = args.next().context(usage)?.parse()?;
    let (store, _) = Store::open(&dir)?;
    let sessions = Sessions::new(store);
    let runtime = veillee_runtime::plugin::Runtime::new(None)?;
    let bytes = veillee_runtime::builtin::plugin_bytes("chateau-noir").context("built in")?;
    let mut plugin = runtime.load("chateau-noir", bytes)?;
    let seats: Vec<SeatPlayer> = (0..2)
        .map(|i| SeatPlayer {
            name: format!("P{i}"),
            kind: PlayerKind::Bot,
            level: None,
        })
        .collect();
    let mut out = std::io::stdout().lock();
    let mut rng = GameRng::new(11);
    let mut live = sessions.start(&mut plugin, seats.clone(), Setup::new(2, 11))?;
    writeln!(out, "session {}", live.meta.id)?;
    for played in 0.. {
        if played == free_moves {
            fill_the_disk(&dir.join("sessions.sled"))?;
        }
        let Some(&seat) = plugin.status(live.game)?.seats().first() else {
            live = sessions.start(&mut plugin, seats.clone(), Setup::new(2, rng.next_u64()))?;
            writeln!(out, "session {}", live.meta.id)?;
            continue;
        };
        let actions = plugin.legal_actions(live.game, seat)?;
        let action = actions[rng.below(actions.len())].id.clone();
        let index = live.meta.moves;
        match sessions.apply(
            &mut plugin,
            &mut live,
            seat,
            &action,
            serde_json::Value::Null,
        ) {
            Ok(_) => writeln!(out, "saved {} {index}", live.meta.id)?,
            Err(error) => {
                writeln!(out, "refused {error}")?;
                return Ok(());
            }
        }
        out.flush()?;
    }
    Ok(())
}

/// From now on no file of this process may grow past the database's current size.
#[cfg(unix)]
fn fill_the_disk(db: &std::path::Path) -> anyhow::Result<()> {
    let size = std::fs::metadata(db.join("db"))?.len();
    // SAFETY: plain libc calls with valid arguments; ignoring SIGXFSZ makes a write past the
    // limit fail with EFBIG instead of killing the process.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        anyhow::ensure!(
            libc::getrlimit(libc::RLIMIT_FSIZE, &mut limit) == 0,
            "getrlimit failed"
        );
        limit.rlim_cur = size as libc::rlim_t;
        anyhow::ensure!(
            libc::setrlimit(libc::RLIMIT_FSIZE, &limit) == 0,
            "setrlimit failed"
        );
    }
    Ok(())
}

#[cfg(not(unix))]
fn fill_the_disk(_db: &std::path::Path) -> anyhow::Result<()> {
    anyhow::bail!("only on unix")
}
