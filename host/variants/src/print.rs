//! Where `print` in a script goes: a debugging aid for script authors. The command line
//! sets a sink that writes to the terminal (`check-variant`, `play`), the window one that
//! appends to a log file; with none (simulations, bots, the conformance kit) `print` does
//! nothing. What a script prints never changes the game.

use std::sync::{Arc, RwLock};

/// Receives each line a script prints, already prefixed with the script's file name
/// (`[renforts.lua] lost 2`) and with its control characters made visible.
pub type PrintSink = Arc<dyn Fn(&str) + Send + Sync>;

static SINK: RwLock<Option<PrintSink>> = RwLock::new(None);

/// Sends every script's `print` of this process to `sink` (`None`: nowhere).
pub fn print_to(sink: Option<PrintSink>) {
    *SINK.write().unwrap_or_else(|e| e.into_inner()) = sink;
}

/// The current sink, if any.
pub(crate) fn sink() -> Option<PrintSink> {
    SINK.read().unwrap_or_else(|e| e.into_inner()).clone()
}

/// The longest line a `print` hands to the sink, in characters (the rest is cut, marked).
pub const MAX_PRINT_CHARS: usize = 1000;
