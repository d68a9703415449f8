//! The `veillee` command line: the same runtime as the launcher, without a window.

mod bench;
mod board_text;
mod check;
mod games;
mod inspect;
mod play;
mod simulate;

use std::path::PathBuf;

use clap::{Parser, Subcommand};

use crate::catalog::Catalog;
use crate::data_dir::DataDir;
use crate::plugin::Runtime;

/// Veillée: a game-night launcher for board games shipped as sandboxed plugins.
#[derive(Debug, Parser)]
#[command(name = "veillee", version, about, propagate_version = true)]
pub struct Cli {
    /// Data directory (installed games, caches). Defaults to the platform's data directory.
    #[arg(long, global = true, env = crate::data_dir::DATA_DIR_ENV, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
    /// Language of game texts: fr or en (default: from the system locale).
    #[arg(long, global = true, value_parser = ["fr", "en"])]
    pub lang: Option<String>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// What to do.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List built-in and installed games.
    Games,
    /// Play many random games through the wasm plugin and report the results.
    Simulate {
        /// Game id.
        game: String,
        /// Number of games.
        #[arg(long, default_value_t = 100)]
        games: u32,
        /// Seed of the first game (game i uses seed + i).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Players per game (default: the game's minimum).
        #[arg(long)]
        players: Option<u8>,
        /// A game longer than this counts as an error.
        #[arg(long, default_value_t = 100_000)]
        max_moves: u32,
        /// Worker threads (default: one per core).
        #[arg(long)]
        threads: Option<usize>,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Play a game in the terminal.
    Play {
        /// Game id.
        game: String,
        /// One entry per seat: `human` or `random` (e.g. `human,random`).
        #[arg(long, value_delimiter = ',', default_value = "human,random")]
        seats: Vec<String>,
        /// Seed of the game (default: from the clock).
        #[arg(long)]
        seed: Option<u64>,
    },
    /// Validate a plugin file fully and install it.
    Install {
        /// The plugin's .wasm file.
        file: PathBuf,
    },
    /// Remove an installed game.
    Uninstall {
        /// Game id.
        id: String,
    },
    /// List installed plugin files, and any that failed to load.
    Plugins,
    /// Apply actions from the start and print status, legal actions and a viewer's scene.
    Inspect {
        /// Game id.
        game: String,
        /// Seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Players (default: the game's minimum).
        #[arg(long)]
        players: Option<u8>,
        /// Action ids to apply in order; `SEAT:ID` picks the seat when several may act.
        #[arg(long, value_delimiter = ',')]
        actions: Vec<String>,
        /// Seat whose view to print (default: a spectator's).
        #[arg(long)]
        viewer: Option<u8>,
        /// Print JSON (the only format for now).
        #[arg(long)]
        json: bool,
    },
    /// Run the conformance kit on a game id or a plugin file.
    Check {
        /// Game id or path to a .wasm file.
        game: String,
        /// Random games per player count.
        #[arg(long, default_value_t = 20)]
        games: u32,
        /// First seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Measure wasm vs native speed and the compiled-code cache.
    Bench {
        /// Built-in game id.
        #[arg(default_value = "siege")]
        game: String,
        /// Random playouts per build.
        #[arg(long, default_value_t = 2_000)]
        playouts: u32,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    let lang = cli.lang.clone().unwrap_or_else(system_lang);
    let Some(command) = cli.command else {
        use clap::CommandFactory;
        Cli::command().print_help()?;
        return Ok(());
    };
    let data = DataDir::resolve(cli.data_dir)?;
    let open = || -> anyhow::Result<Catalog> {
        let runtime = Runtime::new(Some(data.compiled_cache()))?;
        Ok(Catalog::open(runtime, data.clone()))
    };
    match command {
        Command::Games => games::list_games(&open()?, &lang),
        Command::Plugins => games::list_plugins(&open()?, &data),
        Command::Install { file } => games::install(&mut open()?, &file, &lang),
        Command::Uninstall { id } => games::uninstall(&mut open()?, &id),
        Command::Simulate {
            game,
            games,
            seed,
            players,
            max_moves,
            threads,
            json,
        } => simulate::run(
            &open()?,
            &game,
            games,
            seed,
            players,
            max_moves,
            threads,
            json,
        ),
        Command::Play { game, seats, seed } => play::run(&open()?, &game, &seats, seed, &lang),
        Command::Inspect {
            game,
            seed,
            players,
            actions,
            viewer,
            json: _,
        } => inspect::run(&open()?, &game, seed, players, &actions, viewer),
        Command::Check { game, games, seed } => check::run(&open()?, &game, games, seed),
        Command::Bench {
            game,
            playouts,
            json,
        } => bench::run(&game, playouts, json),
    }
}

/// `fr` when the system locale is French, else `en`.
pub fn system_lang() -> String {
    let locale = ["LC_ALL", "LC_MESSAGES", "LANG"]
        .iter()
        .find_map(|v| std::env::var(v).ok().filter(|s| !s.is_empty()))
        .unwrap_or_default();
    if locale.starts_with("fr") { "fr" } else { "en" }.to_string()
}
