//! `veillee-variants`: house rules ("variants") and game scripts: Lua scripts that change a game's rules without rebuilding its
//! plugin. The guide for script authors is `variants/README.md`.
//!
//! * [`Script`] — one script loaded into its own sandboxed Luau state (safe libraries only,
//!   read-only globals, an instruction budget per hook call and a memory cap), with its
//!   metadata ([`ScriptInfo`]), exact text and SHA-256.
//! * [`VariantEngine`] — a base [`veillee_engine::GameEngine`] plus scripts, itself a
//!   `GameEngine`: sessions, the CLI and the conformance kit use it unchanged.
//! * [`library`] — the built-in scripts (`variants/<game>/*.lua`, embedded in the binary) and
//!   the user's (`<data dir>/variants/`), found by id or file.
//!
//! **Determinism.** A game with variants is still a function of its set-up and its actions:
//! `ctx.random` and `math.random` draw from a generator seeded by the set-up seed and saved
//! with the game; a script never sees a clock; the host never iterates a Lua table in
//! `pairs` order (tables cross as JSON with sorted keys); the instruction budget counts
//! interpreter interrupts, not time; a script that fails is switched off as part of the
//! game's state. Turn timers enter only through [`VariantEngine::end_turn`], whose value the
//! session logs.
//!
//! **Invariant: the only crate of Veillée that depends on mlua. A script sees the game only
//! through the operations its game declares and the hook arguments; it can reach no file,
//! clock or entropy, and a failing script is switched off, never a host crash.**
//!
//! # How the pieces fit
//!
//! * Hooks run around listing and applying actions. A script that names the actions it
//!   concerns (`actions` patterns) and the seats (`seats`) is asked only when one of the
//!   listed ids matches and the seat is among them; `add_actions` adds moves that its
//!   `play_action` plays with the game's commands, `filter_actions` removes some.
//! * `ctx.choose` is an ordinary pending decision `choose:N`, answered by a logged action and
//!   re-running the hook with the recorded answers. `ctx.choose_all` asks several seats at
//!   once: all are "to act", each sees only its own options, the hook re-runs when the last
//!   has answered, and a copy re-drawn for one viewer forgets the others' answers.
//! * `ctx.game.end_game` is an outcome the engine holds beside the base game: its status says
//!   finished whatever the game says, for every plugin.
//! * [`bounds`]: every game with scripts ends. Each hook call is bounded by
//!   [`VariantLimits`]; the sequence by at most [`bounds::MAX_QUESTIONS_PER_MOVE`] questions
//!   in one move and [`bounds::MAX_MOVES_WITH_SCRIPTS`] moves in a game. A game that reaches
//!   one stops the same way as `end_game`, with no winner and a reason naming the scripts
//!   and the bound ([`VariantEngine::stopped`]), saved with the game.
//! * While a game is unchanged the engine keeps the base game's status and the listed
//!   actions, so a move asks the plugin once for each. Each [`Script`] counts its hooks' calls
//!   and those that changed something (`veillee check-variant` prints them).
//! * [`library`]: user scripts are found and read through `veillee-files` — regular files of
//!   at most 256 KiB, each once, the rest listed as scripts that do not load; a user script
//!   with a built-in's id replaces it.
//! * A script marked `part_of_game` (Castel's cards) is part of its game: `launch` loads it
//!   with every game of that game, before any house rule, and it is never offered as a
//!   choice. Only a shipped script may be one; a user's copy of one is "modified rules",
//!   offered as a choice and run by a new game only when picked
//!   (`library::new_game_scripts`; the tools run it as it is).
//! * Scripts' `print` goes to a process-wide sink (`print`) that the command line points at
//!   the terminal and the window at `house-rules.log`; none by default.

pub mod bounds;
mod engine;
pub mod library;
mod print;
mod script;

pub use engine::{VariantEngine, CHOOSE_PREFIX};
pub use print::{print_to, PrintSink, MAX_PRINT_CHARS};
pub use script::{text_hash, ChoiceRequest, HookArg, HookCount, Script, ScriptInfo, HOOKS};

/// Resource limits of every script.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariantLimits {
    /// Interpreter interrupts (function calls and loop iterations, roughly) one hook call may
    /// use before it is stopped and its script switched off. Deterministic, unlike time.
    pub budget: u64,
    /// Bytes of memory one script's Lua state may hold.
    pub memory_bytes: usize,
    /// Wall-clock time one hook call may take, a backstop behind the budget (which also
    /// charges the string library's work by the byte). Unlike the budget it depends on the
    /// machine, so it is generous: a script that reaches it is broken on any machine.
    pub deadline: std::time::Duration,
}

impl Default for VariantLimits {
    fn default() -> Self {
        VariantLimits {
            budget: 1_000_000,
            memory_bytes: 16 << 20,
            deadline: std::time::Duration::from_secs(2),
        }
    }
}

/// Why scripts could not be used.
#[derive(Debug, thiserror::Error)]
pub enum VariantError {
    /// The script does not load: syntax error, error in its body, bad metadata.
    #[error("house rule {file}: {detail}")]
    Load {
        /// The script's file name.
        file: String,
        /// What is wrong, with the line when known.
        detail: String,
    },
    /// The script is for another game.
    #[error("house rule {file} is for the game `{script_game}`, not `{game}`")]
    WrongGame {
        /// The script's file name.
        file: String,
        /// The game it says it is for.
        script_game: String,
        /// The game being set up.
        game: String,
    },
    /// Two scripts have the same id.
    #[error("house rules {first} and {second} have the same id `{id}`: choose one")]
    Duplicate {
        /// The id.
        id: String,
        /// One file.
        first: String,
        /// The other.
        second: String,
    },
    /// Two exclusive scripts together.
    #[error("house rules {first} and {second} are both exclusive: they cannot be played together, choose one")]
    Exclusive {
        /// One script.
        first: String,
        /// The other.
        second: String,
    },
    /// No script has this id or path.
    #[error("no house rule `{wanted}` for {game}: {hint}")]
    NotFound {
        /// What was asked.
        wanted: String,
        /// The game.
        game: String,
        /// What exists.
        hint: String,
    },
    /// A file could not be read.
    #[error("cannot read house rule {path}: {detail}")]
    Io {
        /// The path.
        path: String,
        /// The system's message.
        detail: String,
    },
}
