//! The command line's arguments (clap): the global options and one variant per command.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

/// Veillée: a game-night launcher for board games shipped as sandboxed plugins.
#[derive(Debug, Parser)]
#[command(name = "veillee", version, about, propagate_version = true)]
pub struct Cli {
    /// Data directory (installed games, caches). Defaults to the platform's data directory.
    #[arg(long, global = true, env = veillee_runtime::data_dir::DATA_DIR_ENV, value_name = "DIR")]
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
    Games {
        /// Also list each game's options (for `--option id=value`).
        #[arg(long)]
        options: bool,
    },
    /// Play many games between bots (random movers unless --seats says otherwise) and report
    /// wins per seat with confidence intervals, draws, capped games, lengths and think times.
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
        /// A game option as `id=value` (repeatable; `veillee games --options` lists them).
        #[arg(long = "option", value_name = "ID=VALUE")]
        options: Vec<String>,
        /// A game longer than this counts as an error.
        #[arg(long, default_value_t = 100_000)]
        max_moves: u32,
        /// Worker threads (default: one per core).
        #[arg(long)]
        threads: Option<usize>,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
        /// Save every game as a session (played move by move; slower).
        #[arg(long)]
        save: bool,
        /// A house rule to play with: its id or a .lua file (repeatable, applied in order).
        #[arg(long = "variant", value_name = "ID_OR_FILE")]
        variants: Vec<String>,
        /// A bot per seat: `easy`, `normal` (or `bot`), `strong` or `random` (e.g.
        /// `strong,random`; sets the player count). Default: random at every seat, played
        /// inside the plugin.
        #[arg(long, value_delimiter = ',')]
        seats: Vec<String>,
    },
    /// Play a game in the terminal (saved move by move as a session).
    Play {
        /// Game id.
        game: String,
        /// One entry per seat: `human` (this terminal), `phone` (a player's phone, joining
        /// by a link or QR code printed here) or a bot: `easy`, `normal` (or `bot`),
        /// `strong`, `random` (e.g. `human,strong`).
        #[arg(long, value_delimiter = ',', default_value = "human,normal")]
        seats: Vec<String>,
        #[command(flatten)]
        room: RoomArgs,
        /// Seed of the game (default: from the clock).
        #[arg(long)]
        seed: Option<u64>,
        /// A game option as `id=value` (repeatable; `veillee games --options` lists them).
        #[arg(long = "option", value_name = "ID=VALUE")]
        options: Vec<String>,
        /// A house rule to play with: its id or a .lua file (repeatable, applied in order).
        #[arg(long = "variant", value_name = "ID_OR_FILE")]
        variants: Vec<String>,
    },
    /// List saved sessions.
    Sessions,
    /// Go on with a saved session in the terminal (a game played with phones opens the room
    /// again, with new links).
    Resume {
        /// Session id (see `veillee sessions`).
        id: u64,
        #[command(flatten)]
        room: RoomArgs,
    },
    /// Take back moves of a saved session (bots' moves go with the human move before them).
    Undo {
        /// Session id.
        id: u64,
        /// Decisions to take back.
        #[arg(long, default_value_t = 1)]
        steps: u32,
        /// Everyone at the table agrees to take back what was revealed (die rolls, cards).
        #[arg(long)]
        agree: bool,
    },
    /// Re-apply what the last undo took back.
    Redo {
        /// Session id.
        id: u64,
    },
    /// Write a session to a readable JSON file (every secret of it: the seed, every move),
    /// or with --seat, the game as one seat saw it (for sharing a game in progress).
    Export {
        /// Session id.
        id: u64,
        /// The file to write.
        file: PathBuf,
        /// Only what this seat saw, move by move: no seed, no move ids, nobody else's
        /// secrets (`veillee show-view FILE` shows it; it cannot be imported and played on).
        #[arg(long)]
        seat: Option<u8>,
    },
    /// Show a file written by `export --seat`: each move as that seat read it, then the
    /// board as it saw it.
    ShowView {
        /// The file to read.
        file: PathBuf,
        /// The board after this move (0: before the first; default: the last).
        #[arg(long = "move")]
        at: Option<u32>,
    },
    /// Validate a session file fully (game installed, log replays) and store it.
    Import {
        /// The file to read.
        file: PathBuf,
    },
    /// Delete a saved session.
    Delete {
        /// Session id.
        id: u64,
    },
    /// List the saved-games databases set aside as damaged, or bring one's games back.
    Restore {
        /// The set-aside folder's name (`sessions.broken-…`, see `veillee sessions`).
        name: Option<String>,
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
    /// Apply actions from the start of a game as it is played (with its own scripts) and print
    /// status, legal actions and a viewer's scene (JSON, or `--text` as the terminal draws it).
    Inspect {
        /// Game id.
        game: String,
        /// Seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Players (default: the game's minimum).
        #[arg(long)]
        players: Option<u8>,
        /// A game option as `id=value` (repeatable; `veillee games --options` lists them).
        #[arg(long = "option", value_name = "ID=VALUE")]
        options: Vec<String>,
        /// Action ids to apply in order; `SEAT:ID` picks the seat when several may act.
        #[arg(long, value_delimiter = ',')]
        actions: Vec<String>,
        /// Seat whose view to print (default: a spectator's).
        #[arg(long)]
        viewer: Option<u8>,
        /// Print JSON (the default).
        #[arg(long, conflicts_with = "text")]
        json: bool,
        /// Print the viewer's scene as the terminal draws it, with the status and the legal
        /// actions, instead of JSON.
        #[arg(long)]
        text: bool,
        /// Play with this house rule: a built-in id or a .lua file (repeatable, in order).
        #[arg(long = "variant", value_name = "ID_OR_FILE")]
        variants: Vec<String>,
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
        /// Only this player count (default: every one the game allows).
        #[arg(long)]
        players: Option<u8>,
        /// A game option as `id=value` (repeatable; `veillee games --options` lists them).
        #[arg(long = "option", value_name = "ID=VALUE")]
        options: Vec<String>,
    },
    /// Write a new game plugin crate (it builds to wasm and passes `veillee check` as it is).
    New {
        /// The game's id: lowercase letters, digits and hyphens (`nine-men`).
        id: String,
        /// Folder to write it in (default: ./ID); must not exist or be empty.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
        /// Depend on the SDK in this folder (default: the SDK of the clone this veillee was
        /// built from, else the project's git repository).
        #[arg(long, value_name = "SDK_DIR", conflicts_with = "git")]
        sdk: Option<PathBuf>,
        /// Depend on the SDK through the project's git repository.
        #[arg(long)]
        git: bool,
    },
    /// List house rules (Lua variants) per game: built-in ones and yours.
    Variants {
        /// Only this game's.
        game: Option<String>,
        /// Print the folder for your own scripts instead.
        #[arg(long)]
        dir: bool,
    },
    /// Load a house-rule script in the sandbox: its metadata, hooks, and a few random games.
    CheckVariant {
        /// The .lua file.
        file: PathBuf,
        /// Random games to play with it.
        #[arg(long, default_value_t = 20)]
        games: u64,
        /// Players (default: the game's minimum).
        #[arg(long)]
        players: Option<u8>,
        /// Moves after which a game is stopped (counted, not an error), so that a check
        /// always ends.
        #[arg(long, default_value_t = 2_000)]
        max_moves: u32,
    },
    /// Measure wasm vs native speed and the compiled-code cache.
    Bench {
        /// Built-in game id, or `all` for every built-in game.
        #[arg(default_value = "all")]
        game: String,
        /// Random playouts per build (default: about 1,000,000 moves' worth, 20 to 20,000).
        #[arg(long)]
        playouts: Option<u32>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

/// Where the room listens when seats are phones (`play`, `resume`).
#[derive(clap::Args, Debug)]
pub struct RoomArgs {
    /// With phone seats: the address to listen on (default: this computer's address on the
    /// local network).
    #[arg(long, value_name = "IP")]
    pub room_address: Option<std::net::IpAddr>,
    /// With phone seats: the port to listen on (default: any free port).
    #[arg(long, default_value_t = 0)]
    pub room_port: u16,
}
