//! What a failure means: turning wasmtime's errors and the limiter's state into a
//! [`Fault`], then into a [`PluginError`] that names the plugin and the call.

use wasmtime::{Store, Trap};

use super::instance::State;
use super::limits::{Limits, Refusal};
use super::PluginError;

/// How a plugin misbehaved, and in which export. Turned into a [`PluginError`] once the
/// plugin's name is at hand.
#[derive(Debug)]
pub(crate) enum Fault {
    Timeout {
        export: &'static str,
        seconds: f64,
    },
    OutOfMemory {
        export: &'static str,
        limit_mib: u64,
    },
    Panic {
        export: &'static str,
        message: String,
    },
    Trap {
        export: &'static str,
        detail: String,
    },
    Protocol {
        export: &'static str,
        detail: String,
    },
    MissingExport {
        export: &'static str,
        detail: String,
    },
}

impl Fault {
    pub(crate) fn into_error(self, plugin: &str) -> PluginError {
        let plugin = plugin.to_string();
        match self {
            Fault::Timeout { export, seconds } => PluginError::Timeout {
                plugin,
                call: export.into(),
                seconds,
            },
            Fault::OutOfMemory { export, limit_mib } => PluginError::OutOfMemory {
                plugin,
                call: export.into(),
                limit_mib,
            },
            Fault::Panic { export, message } => PluginError::Panic {
                plugin,
                call: export.into(),
                message,
            },
            Fault::Trap { export, detail } => PluginError::Trap {
                plugin,
                call: export.into(),
                detail,
            },
            Fault::Protocol { export, detail } => PluginError::Protocol {
                plugin,
                call: export.into(),
                detail,
            },
            Fault::MissingExport { export, detail } => PluginError::MissingExport {
                plugin,
                export: export.into(),
                detail,
            },
        }
    }
}

/// A failure explained by the sandbox's own limits: the epoch deadline or the limiter.
pub(crate) fn resource_fault(
    store: &Store<State>,
    limits: &Limits,
    seconds: f64,
    export: &'static str,
    error: &wasmtime::Error,
) -> Option<Fault> {
    if matches!(error.downcast_ref::<Trap>(), Some(Trap::Interrupt)) {
        return Some(Fault::Timeout { export, seconds });
    }
    match store.data().cap.refused()? {
        Refusal::Memory => Some(Fault::OutOfMemory {
            export,
            limit_mib: limits.memory_mib(),
        }),
        Refusal::Table => Some(Fault::Trap {
            export,
            detail: format!(
                "tried to grow a table past {} entries",
                limits.table_elements
            ),
        }),
    }
}

/// Wasmtime's description of a failure: the trap's, when it is one.
pub(crate) fn describe(error: &wasmtime::Error) -> String {
    match error.downcast_ref::<Trap>() {
        Some(trap) => trap.to_string(),
        None => format!("{error:#}"),
    }
}
