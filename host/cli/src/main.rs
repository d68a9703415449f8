//! The `veillee` binary: the launcher window when run without a subcommand (with the default
//! `window` feature), else the command line — the same runtime as the launcher, without a
//! window. This file lists the commands and dispatches; each command's arguments and `run`
//! live in its file under `commands/`; `board_text` draws any scene as text.
//!
//! **Invariant: this crate only parses, dispatches and prints; everything it runs lives in
//! `veillee-runtime`, and the window in `veillee-app`.**
//!
//! Where things are: `commands` (one file per command family; the flags several share,
//! `--players`, `--option`, `--variant`, declared once in `commands/game_flags.rs` and
//! flattened where taken), `window` (the launcher window, feature `window`, on by default),
//! `board_text` (any scene as text, every layout on a character grid: `play` and `inspect
//! --text` print it), `term` (the only way to print: control characters quoted as git and ls
//! do, `\e[2J` instead of a cleared screen, one-line fields with their line breaks quoted
//! too, JSON with `\u00XX` escapes), `table` (the terminal's tables), `room` (the phone seats
//! of `play --seats phone,…` and of `resume`: opens the room, prints each seat's link and a
//! terminal QR code, plays phones' moves through the same loop as the terminal's and publishes
//! the phones' states), `inputs` (the lines typed at the terminal and the phones' moves on
//! one channel).
//!
//! The terminal prints moves as the human at the screen reads them and, after a hand-off,
//! clears the screen and catches the next human up on what they missed, as they may read it.
//! `main` first calls `plugin::init_compiler_process()`: started as `veillee
//! __compile-plugin …` the binary is the compiler process and exits. The end-to-end tests
//! (`tests/cli.rs`, with a hand-written plugin whose texts the tests fill in,
//! `tests/plugins/one_move.wat`; `tests/phones.rs`, the phone page in headless Chromium) are
//! the only ones that can locate the built binary.

mod board_text;
mod commands;
mod inputs;
mod progress;
mod room;
mod table;
mod term;
mod window;

use std::path::PathBuf;

use clap::{Parser, Subcommand};

use crate::commands::{
    bench, bot, check, check_variant, games, inspect, new, play, sessions, simulate, variants,
    Context,
};
use crate::term::errln;

/// Veillée: a game-night launcher for board games shipped as sandboxed plugins.
#[derive(Debug, Parser)]
#[command(name = "veillee", version, about, propagate_version = true)]
pub struct Cli {
    /// Data directory (installed games, caches). Defaults to the platform's data directory.
    #[arg(long, global = true, env = veillee_runtime::data_dir::DATA_DIR_ENV, value_name = "DIR")]
    data_dir: Option<PathBuf>,
    /// Language of game texts: fr or en (default: from the system locale).
    #[arg(long, global = true, value_parser = ["fr", "en"])]
    lang: Option<String>,
    #[command(subcommand)]
    command: Option<Command>,
}

/// What to do.
#[derive(Debug, Subcommand)]
enum Command {
    /// List built-in and installed games.
    Games(games::GamesArgs),
    /// Play many games between bots (random movers unless --seats says otherwise) and report
    /// wins per seat with confidence intervals, draws, capped games, lengths and think times.
    Simulate(simulate::SimulateArgs),
    /// Play a game in the terminal (saved move by move as a session).
    Play(play::PlayArgs),
    /// List saved sessions.
    Sessions,
    /// Go on with a saved session in the terminal (a game played with phones opens the room
    /// again, with new links).
    Resume(play::ResumeArgs),
    /// Take back moves of a saved session (bots' moves go with the human move before them).
    Undo(sessions::UndoArgs),
    /// Re-apply what the last undo took back.
    Redo(sessions::RedoArgs),
    /// Write a session to a readable JSON file (every secret of it: the seed, every move),
    /// or with --seat, the game as one seat saw it (for sharing a game in progress).
    Export(sessions::ExportArgs),
    /// Show a file written by `export --seat`: each move as that seat read it, then the
    /// board as it saw it.
    ShowView(sessions::ShowViewArgs),
    /// Validate a session file fully (game installed, log replays) and store it.
    Import(sessions::ImportArgs),
    /// Delete a saved session.
    Delete(sessions::DeleteArgs),
    /// List the saved-games databases set aside as damaged, or bring one's games back.
    Restore(sessions::RestoreArgs),
    /// Validate a plugin file fully and install it.
    Install(games::InstallArgs),
    /// Remove an installed game.
    Uninstall(games::UninstallArgs),
    /// List installed plugin files, and any that failed to load.
    Plugins,
    /// Apply actions from the start of a game as it is played (with its own scripts) and print
    /// status, legal actions and a viewer's scene (JSON, or `--text` as the terminal draws it).
    Inspect(inspect::InspectArgs),
    /// Run the conformance kit on a game id or a plugin file.
    Check(check::CheckArgs),
    /// Write a new game plugin crate (it builds to wasm and passes `veillee check` as it is).
    New(new::NewArgs),
    /// List house rules (Lua variants) per game: built-in ones and yours.
    Variants(variants::VariantsArgs),
    /// Load a house-rule script in the sandbox: its metadata, hooks, and a few random games.
    CheckVariant(check_variant::CheckVariantArgs),
    /// Measure wasm vs native speed and the compiled-code cache.
    Bench(bench::BenchArgs),
    /// The move a bot of a level plays in a position given by action ids (`--json`: with
    /// its think time, iterations and what its exact check proved).
    Bot(bot::BotArgs),
    /// A bot for programs: load a game once, then answer `position`, `go` (`bestmove ID`),
    /// `legal`, `status`, `level` and `play` lines on standard input.
    Engine(bot::EngineArgs),
}

fn main() -> std::process::ExitCode {
    // Started as a compiler process, this compiles one plugin and exits; otherwise every
    // runtime of this process will compile untrusted plugins in such a child.
    veillee_runtime::plugin::init_compiler_process();
    match run(Cli::parse()) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            errln!("error: {error:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// Runs a parsed command line: the window without a subcommand, else the command.
fn run(cli: Cli) -> anyhow::Result<()> {
    let Some(command) = cli.command else {
        return window::open(cli.data_dir, cli.lang);
    };
    let ctx = Context::new(cli.data_dir, cli.lang)?;
    match command {
        Command::Games(args) => args.run(&ctx),
        Command::Simulate(args) => args.run(&ctx),
        Command::Play(args) => args.run(&ctx),
        Command::Sessions => sessions::list(&ctx),
        Command::Resume(args) => args.run(&ctx),
        Command::Undo(args) => args.run(&ctx),
        Command::Redo(args) => args.run(&ctx),
        Command::Export(args) => args.run(&ctx),
        Command::ShowView(args) => args.run(&ctx),
        Command::Import(args) => args.run(&ctx),
        Command::Delete(args) => args.run(&ctx),
        Command::Restore(args) => args.run(&ctx),
        Command::Install(args) => args.run(&ctx),
        Command::Uninstall(args) => args.run(&ctx),
        Command::Plugins => games::list_plugins(&ctx),
        Command::Inspect(args) => args.run(&ctx),
        Command::Check(args) => args.run(&ctx),
        Command::New(args) => args.run(),
        Command::Variants(args) => args.run(&ctx),
        Command::CheckVariant(args) => args.run(&ctx),
        Command::Bench(args) => args.run(),
        Command::Bot(args) => args.run(&ctx),
        Command::Engine(args) => args.run(&ctx),
    }
}
