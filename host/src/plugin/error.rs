//! What can go wrong with a plugin, in words a person can act on.

/// A plugin failed or was refused. Always names the plugin and, for calls, the call.
#[derive(Debug, thiserror::Error)]
pub enum PluginError {
    /// The file is not a WebAssembly module at all.
    #[error("{plugin}: not a WebAssembly module ({detail})")]
    NotWasm { plugin: String, detail: String },
    /// The module is malformed or does not compile.
    #[error("{plugin}: invalid WebAssembly: {detail}")]
    Invalid { plugin: String, detail: String },
    /// The module asks for something the sandbox does not give.
    #[error("{plugin}: imports `{module}::{name}`, but Veillée plugins may import nothing (no files, network, clock or entropy)")]
    ForbiddenImport { plugin: String, module: String, name: String },
    /// A required export is missing or has the wrong signature.
    #[error("{plugin}: missing or malformed export `{export}` ({detail}); is it built with veillee-sdk's export_game! macro?")]
    MissingExport { plugin: String, export: String, detail: String },
    /// Built for another major ABI version.
    #[error("{plugin}: built for plugin ABI {found}, this Veillée speaks ABI {expected}; rebuild it with veillee-sdk {expected_major}.x")]
    AbiMismatch { plugin: String, found: String, expected: String, expected_major: u16 },
    /// The manifest is unreadable or not sane.
    #[error("{plugin}: bad manifest: {detail}")]
    BadManifest { plugin: String, detail: String },
    /// A call ran past its deadline (an infinite loop?).
    #[error("{plugin}: `{call}` did not finish within {seconds} s and was stopped")]
    Timeout { plugin: String, call: String, seconds: f64 },
    /// A call tried to use more memory than a plugin may.
    #[error("{plugin}: `{call}` tried to use more than {limit_mib} MiB of memory and was stopped")]
    OutOfMemory { plugin: String, call: String, limit_mib: u64 },
    /// The plugin panicked.
    #[error("{plugin}: `{call}` panicked: {message}")]
    Panic { plugin: String, call: String, message: String },
    /// The plugin trapped (a bug in the plugin).
    #[error("{plugin}: `{call}` crashed: {detail}")]
    Trap { plugin: String, call: String, detail: String },
    /// The plugin broke the protocol (bad JSON, out-of-bounds buffer…).
    #[error("{plugin}: `{call}` broke the plugin protocol: {detail}")]
    Protocol { plugin: String, call: String, detail: String },
    /// The compiled-code cache or the engine could not be set up.
    #[error("plugin runtime: {0}")]
    Runtime(String),
}
