//! The `veillee` binary: the launcher window when run without a subcommand (with the default
//! `window` feature), else the command line — the same runtime as the launcher, without a
//! window. One file per command family; `board_text` draws any scene as text.
//!
//! **Invariant: this crate only parses, dispatches and prints; everything it runs lives in
//! `veillee-runtime`, and the window in `veillee-app`.**

mod args;
mod bench;
mod board_text;
mod check;
mod games;
mod inputs;
mod inspect;
mod new;
mod play;
mod room;
mod sessions;
mod simulate;
mod table;
mod term;
mod variants;

use clap::Parser;
use veillee_runtime::catalog::Catalog;
use veillee_runtime::data_dir::DataDir;
use veillee_runtime::plugin::Runtime;

use crate::term::errln;
use args::{Cli, Command};

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

/// The launcher window, on the data directory of the command line.
#[cfg(feature = "window")]
fn open_window(data_dir: Option<std::path::PathBuf>, lang: Option<String>) -> anyhow::Result<()> {
    let data = DataDir::resolve(data_dir)?;
    print_scripts_to_log(&data);
    veillee_app::run(data, lang)
}

/// The window has no terminal: what house-rule scripts `print` is appended to
/// `house-rules.log` in the data directory (started afresh past 1 MiB). A log that cannot
/// be opened is no reason not to play: prints are then dropped.
#[cfg(feature = "window")]
fn print_scripts_to_log(data: &DataDir) {
    use std::io::Write as _;
    let path = data.root().join("house-rules.log");
    let too_big = std::fs::metadata(&path).is_ok_and(|m| m.len() > 1 << 20);
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(!too_big)
        .write(true)
        .truncate(too_big)
        .open(&path);
    if let Ok(file) = file {
        let file = std::sync::Mutex::new(file);
        veillee_runtime::variants::print_to(Some(std::sync::Arc::new(move |text: &str| {
            if let Ok(mut file) = file.lock() {
                let _ = writeln!(file, "{text}");
            }
        })));
    }
}

/// Built without the window: say how to get it, and show the commands.
#[cfg(not(feature = "window"))]
fn open_window(_data_dir: Option<std::path::PathBuf>, _lang: Option<String>) -> anyhow::Result<()> {
    use clap::CommandFactory;
    Cli::command().print_help()?;
    anyhow::bail!(
        "this veillee was built without the launcher window (feature `window`); run one of the \
         commands above, or build with default features to get the window"
    )
}

/// Runs a parsed command line.
fn run(cli: Cli) -> anyhow::Result<()> {
    let Some(command) = cli.command else {
        return open_window(cli.data_dir, cli.lang);
    };
    let lang = cli
        .lang
        .unwrap_or_else(veillee_runtime::locale::system_lang);
    let data = DataDir::resolve(cli.data_dir)?;
    let open = || -> anyhow::Result<Catalog> {
        let runtime = Runtime::new(Some(data.compiled_cache()))?;
        Ok(Catalog::open(runtime, data.clone()))
    };
    match command {
        Command::Games { options } => games::list_games(&open()?, options, &lang),
        Command::Plugins => games::list_plugins(&open()?, &data),
        Command::Install { file } => games::install(&mut open()?, &file, &lang),
        Command::Uninstall { id } => games::uninstall(&mut open()?, &id),
        Command::Simulate {
            game,
            games,
            seed,
            players,
            options: written_options,
            max_moves,
            threads,
            json,
            save,
            variants,
            seats,
        } => {
            let sessions = if save {
                Some(open_sessions(&data)?)
            } else {
                None
            };
            let options = simulate::Options {
                games,
                seed,
                players,
                options: written_options,
                max_moves,
                threads,
                json,
                seats,
            };
            let catalog = open()?;
            simulate::run(
                &catalog,
                &game,
                &options,
                &variants,
                &data.variants(),
                sessions.as_ref(),
            )
        }
        Command::Play {
            game,
            seats,
            seed,
            options,
            variants,
            room,
        } => {
            let listen = room.listen();
            let new_game = play::NewGame {
                game: &game,
                seats: &seats,
                seed,
                options: &options,
                variants: &variants,
                listen: &listen,
            };
            play::run(&open()?, &data, &new_game, &lang)
        }
        Command::Sessions => sessions::list(&data),
        Command::Resume { id, room } => play::resume(&open()?, &data, id, &room.listen(), &lang),
        Command::Undo { id, steps, agree } => sessions::undo(&open()?, &data, id, steps, agree),
        Command::Redo { id } => sessions::redo(&open()?, &data, id),
        Command::Export { id, file, seat } => match seat {
            None => sessions::export(&open()?, &data, id, &file),
            Some(seat) => sessions::export_seat(&open()?, &data, id, seat, &file),
        },
        Command::ShowView { file, at } => sessions::show_view(&file, at, &lang),
        Command::Import { file } => sessions::import(&open()?, &data, &file),
        Command::Delete { id } => sessions::delete(&data, id),
        Command::Restore { name } => sessions::restore(&data, name.as_deref()),
        Command::Inspect {
            game,
            seed,
            players,
            options,
            actions,
            viewer,
            json: _,
            text,
            variants,
        } => {
            let format = if text {
                inspect::Format::Text { lang: &lang }
            } else {
                inspect::Format::Json
            };
            let request = inspect::Request {
                game: &game,
                seed,
                players,
                options: &options,
                actions: &actions,
                viewer,
                format,
                variants: &variants,
            };
            inspect::run(&open()?, &data.variants(), &request)
        }
        Command::Check {
            game,
            games,
            seed,
            players,
            options,
        } => {
            let request = check::Request {
                game: &game,
                games,
                seed,
                players,
                options: &options,
            };
            check::run(&open()?, &data.variants(), &request)
        }
        Command::New { id, dir, sdk, git } => new::run(&id, dir, sdk, git),
        Command::Variants { game, dir } => variants::list(&data, game.as_deref(), dir, &lang),
        Command::CheckVariant {
            file,
            games,
            players,
            max_moves,
        } => {
            let request = variants::CheckRequest {
                file: &file,
                games,
                players,
                max_moves,
            };
            variants::check_variant(&open()?, &data, &request, &lang)
        }
        Command::Bench {
            game,
            playouts,
            json,
        } => bench::run(&game, playouts, json),
    }
}

/// The session store of the data directory, reporting a recovery from corruption.
fn open_sessions(data: &DataDir) -> anyhow::Result<veillee_runtime::session::Sessions> {
    let (store, recovery) = veillee_runtime::store::Store::open(data.root())?;
    if let Some(recovery) = recovery {
        errln!("warning: {recovery}");
    }
    Ok(veillee_runtime::session::Sessions::new(store))
}

/// Refuses a player count the game does not allow, naming the counts it does.
fn ensure_players(manifest: &veillee_sdk::Manifest, players: u8) -> anyhow::Result<()> {
    let (min, max) = (manifest.min_players, manifest.max_players);
    let allowed = if min == max {
        min.to_string()
    } else {
        format!("{min}–{max}")
    };
    anyhow::ensure!(
        (min..=max).contains(&players),
        "{} plays with {allowed} players, not {players}",
        manifest.id
    );
    Ok(())
}
