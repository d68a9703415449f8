//! What can go wrong with a plugin, in words a person can act on.

/// A plugin failed or was refused. Always names the plugin and, for calls, the call.
#[derive(Debug, thiserror::Error)]
pub enum PluginError {
    /// The file is not a WebAssembly module at all.
    #[error(
        "{plugin}: not a WebAssembly module ({detail}); a Veillée game plugin is a .wasm file"
    )]
    NotWasm {
        /// The plugin, as the player knows it (its id or file).
        plugin: String,
        /// What was wrong, as the checker or wasmtime said it.
        detail: String,
    },
    /// The module is malformed or does not compile.
    #[error("{plugin}: invalid WebAssembly: {detail}; the file is damaged or truncated, or was not built for wasm32-unknown-unknown")]
    Invalid {
        /// The plugin, as the player knows it (its id or file).
        plugin: String,
        /// What was wrong, as the checker or wasmtime said it.
        detail: String,
    },
    /// The module is larger than a plugin may be (file, functions, code): refused before
    /// compiling, since compiling it could take the host's memory and time.
    #[error("{plugin}: refused before compiling: {detail}; a game plugin is far smaller (Veillée's largest built-in game has 583 functions in 0.5 MB), so this file is not one or was built to harm")]
    TooLarge {
        /// The plugin, as the player knows it (its id or file).
        plugin: String,
        /// What was wrong, as the checker or wasmtime said it.
        detail: String,
    },
    /// Compiling the plugin went past its budget of time or memory (or the compiler process
    /// failed); the host is unharmed.
    #[error("{plugin}: compiling it {detail}; it was stopped and the plugin is left out (a game plugin compiles in about a second: report this to its author)")]
    CompileBudget {
        /// The plugin, as the player knows it (its id or file).
        plugin: String,
        /// What was wrong, as the checker or wasmtime said it.
        detail: String,
    },
    /// The module asks for something the sandbox does not give.
    #[error("{plugin}: imports `{module}::{name}`, but Veillée plugins may import nothing (no files, network, clock or entropy); build it for wasm32-unknown-unknown with veillee-sdk, without WASI or host functions")]
    ForbiddenImport {
        /// The plugin, as the player knows it (its id or file).
        plugin: String,
        /// The import's module.
        module: String,
        /// The import's name.
        name: String,
    },
    /// A required export is missing or has the wrong signature.
    #[error("{plugin}: missing or malformed export `{export}` ({detail}); is it built with veillee-sdk's export_game! macro?")]
    MissingExport {
        /// The plugin, as the player knows it (its id or file).
        plugin: String,
        /// The export's name.
        export: String,
        /// What was wrong, as the checker or wasmtime said it.
        detail: String,
    },
    /// Built for another major ABI version.
    #[error("{plugin}: built for plugin ABI {found}, but this Veillée speaks ABI {expected}; rebuild the plugin with a veillee-sdk for ABI {expected_major}.x, or use a Veillée that speaks ABI {found}")]
    AbiMismatch {
        /// The plugin, as the player knows it (its id or file).
        plugin: String,
        /// The ABI version the plugin was built for.
        found: String,
        /// The ABI version this Veillée speaks.
        expected: String,
        /// Its major version.
        expected_major: u16,
    },
    /// The manifest is unreadable or not sane.
    #[error("{plugin}: bad manifest: {detail}; fix what the game's `Game::manifest` returns")]
    BadManifest {
        /// The plugin, as the player knows it (its id or file).
        plugin: String,
        /// What was wrong, as the checker or wasmtime said it.
        detail: String,
    },
    /// A call ran past its deadline (an infinite loop?). The plugin is restarted.
    #[error("{plugin}: `{call}` did not finish within {seconds} s and was stopped (an endless loop in the game, or too much work for one call); its games in progress are lost")]
    Timeout {
        /// The plugin, as the player knows it (its id or file).
        plugin: String,
        /// The call that failed.
        call: String,
        /// The call's deadline, in seconds.
        seconds: f64,
    },
    /// A call tried to use more memory than a plugin may. The plugin is restarted.
    #[error("{plugin}: `{call}` tried to use more than {limit_mib} MiB of memory and was stopped; its games in progress are lost")]
    OutOfMemory {
        /// The plugin, as the player knows it (its id or file).
        plugin: String,
        /// The call that failed.
        call: String,
        /// The memory cap, in MiB.
        limit_mib: u64,
    },
    /// The plugin panicked (it trapped, and `veillee_panic_message` then gave a text).
    #[error("{plugin}: `{call}` panicked: {message} (a bug in the game: report it to its author)")]
    Panic {
        /// The plugin, as the player knows it (its id or file).
        plugin: String,
        /// The call that failed.
        call: String,
        /// The game's panic message.
        message: String,
    },
    /// The plugin trapped (a bug in the plugin); `detail` is wasmtime's description.
    #[error("{plugin}: `{call}` crashed: {detail} (a bug in the game: report it to its author)")]
    Trap {
        /// The plugin, as the player knows it (its id or file).
        plugin: String,
        /// The call that failed.
        call: String,
        /// What was wrong, as the checker or wasmtime said it.
        detail: String,
    },
    /// The plugin broke the protocol (bad JSON, out-of-bounds buffer…).
    #[error("{plugin}: `{call}` broke the plugin protocol: {detail} (a bug in the plugin: report it to its author)")]
    Protocol {
        /// The plugin, as the player knows it (its id or file).
        plugin: String,
        /// The call that failed.
        call: String,
        /// What was wrong, as the checker or wasmtime said it.
        detail: String,
    },
    /// The compiled-code cache or the engine could not be set up.
    #[error("plugin runtime: {0}")]
    Runtime(String),
}
