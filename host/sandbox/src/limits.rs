//! What a plugin may use: time per call and memory, and the store limiter that enforces
//! the memory part.

use wasmtime::ResourceLimiter;

use super::PluginError;

const MIB: u64 = 1 << 20;

/// Resources a plugin may use. Each [`super::Plugin`] (and each duplicate) gets these on
/// its own; a call that exceeds them fails and the plugin is restarted.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// Most linear memory a plugin instance may have, in bytes.
    pub memory_bytes: u64,
    /// Most entries a plugin's function table may grow to.
    pub table_elements: u32,
    /// Wall-clock deadline of an ordinary call (create, status, apply…), in seconds.
    /// Also bounds loading (instantiation, ABI version and manifest).
    pub call_seconds: f64,
    /// Deadline of [`veillee_engine::GameEngine::playout`], which plays a whole game.
    pub playout_seconds: f64,
    /// Deadline of [`veillee_engine::GameEngine::search`], a bot's thinking.
    pub search_seconds: f64,
    /// Most bytes one answer of the plugin may have (a JSON list of actions, a scene, a
    /// saved state): what the host copies out of the plugin and parses is bounded by this,
    /// not by the plugin's memory cap.
    pub answer_bytes: u64,
    /// What a plugin may cost to compile.
    pub compile: CompileLimits,
}

/// What compiling a plugin may cost. The shape caps are checked on the file before any
/// compiling (a module of 300,000 trivial functions would otherwise take the compiler to
/// gigabytes); the budget bounds the compiler process of an untrusted plugin.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CompileLimits {
    /// Largest plugin file, in bytes (custom sections such as debug info included).
    pub module_bytes: u64,
    /// Most functions a plugin may define.
    pub functions: u32,
    /// Largest code section (all function bodies), in bytes.
    pub code_bytes: u64,
    /// Largest single function body, in bytes.
    pub function_bytes: u64,
    /// Most entries of each other section (types, imports, exports, globals, tables,
    /// memories, element and data segments).
    pub section_entries: u32,
    /// Wall-clock time the compiler process of an untrusted plugin may take.
    pub seconds: f64,
    /// Memory the compiler process of an untrusted plugin may use (its data segment, on
    /// Linux), in bytes.
    pub memory_bytes: u64,
}

impl Default for CompileLimits {
    /// Far past the largest built-in game (Castel: 0.5 MB, 583 functions, 0.36 MB of code,
    /// 21 KB in its largest function), and a budget a sane plugin never nears
    /// (`veillee bench` prints what compiling one costs; see BENCHMARKS.md).
    fn default() -> Self {
        CompileLimits {
            module_bytes: 16 * MIB,
            functions: 10_000,
            code_bytes: 8 * MIB,
            function_bytes: MIB,
            section_entries: 100_000,
            seconds: 60.0,
            memory_bytes: 1024 * MIB,
        }
    }
}

impl Default for Limits {
    /// 256 MiB of memory, 5 s per call, 5 s per playout, 60 s per search, 4 MiB per answer:
    /// far beyond what a sane game needs (Castel's largest scene is a few kilobytes; the
    /// longest built-in playout, a game of roc noir of some 5,000 moves, takes milliseconds),
    /// short enough that a stuck plugin does not look like a frozen launcher and a looping
    /// playout is stopped in seconds. A search may think for long: the bots' levels ask for
    /// their own time, far below this.
    fn default() -> Self {
        Limits {
            memory_bytes: 256 * MIB,
            table_elements: 100_000,
            call_seconds: 5.0,
            playout_seconds: 5.0,
            search_seconds: 60.0,
            answer_bytes: 4 * MIB,
            compile: CompileLimits::default(),
        }
    }
}

/// Longest deadline accepted: a day. Longer is surely a mistake (and would overflow ticks).
const MAX_SECONDS: f64 = 86_400.0;

impl Limits {
    /// Refuses limits no plugin could run under.
    pub(crate) fn check(&self) -> Result<(), PluginError> {
        let seconds_ok = |s: f64| s.is_finite() && s > 0.0 && s <= MAX_SECONDS;
        let deadlines = [self.call_seconds, self.playout_seconds, self.search_seconds];
        if !deadlines.into_iter().all(seconds_ok) {
            return Err(PluginError::Runtime(format!(
                "plugin deadlines must be between 0 and {MAX_SECONDS} s (got {} s per call, {} s per playout, {} s per search)",
                self.call_seconds, self.playout_seconds, self.search_seconds
            )));
        }
        let compile = &self.compile;
        if !seconds_ok(compile.seconds) {
            return Err(PluginError::Runtime(format!(
                "the compile deadline must be between 0 and {MAX_SECONDS} s (got {} s)",
                compile.seconds
            )));
        }
        if self.answer_bytes < 1024 || compile.memory_bytes < 16 * MIB {
            return Err(PluginError::Runtime(format!(
                "plugins need at least 1 KiB per answer and 16 MiB to compile (the limits are {} bytes and {} bytes)",
                self.answer_bytes, compile.memory_bytes
            )));
        }
        if self.memory_bytes < 64 * 1024 {
            return Err(PluginError::Runtime(format!(
                "a plugin needs at least one 64 KiB page of memory (the limit is {} bytes)",
                self.memory_bytes
            )));
        }
        Ok(())
    }

    /// The memory cap in MiB, as error messages show it.
    pub(crate) fn memory_mib(&self) -> u64 {
        self.memory_bytes / MIB
    }
}

/// Why the limiter refused a growth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// Memory would have grown past the cap (or the system could not provide it).
    Memory,
    /// A table would have grown past [`Limits::table_elements`].
    Table,
}

/// The store's resource limiter. Growth past a cap *traps* (instead of `memory.grow`
/// returning -1): a plugin that ignores the failure and retries would otherwise spin until
/// its deadline, and a Rust plugin aborts on allocation failure anyway. The refusal is
/// remembered so the host can report `OutOfMemory` rather than a generic trap.
#[derive(Debug)]
pub(crate) struct Cap {
    memory_bytes: usize,
    table_elements: usize,
    refused: Option<Refusal>,
}

impl Cap {
    pub(crate) fn new(limits: &Limits) -> Self {
        Cap {
            memory_bytes: usize::try_from(limits.memory_bytes).unwrap_or(usize::MAX),
            table_elements: usize::try_from(limits.table_elements).unwrap_or(usize::MAX),
            refused: None,
        }
    }

    /// The refusal since the last [`Cap::reset`], if any.
    pub(crate) fn refused(&self) -> Option<Refusal> {
        self.refused
    }

    /// Forgets a previous refusal (at the start of each call).
    pub(crate) fn reset(&mut self) {
        self.refused = None;
    }

    fn refuse(&mut self, why: Refusal, what: String) -> wasmtime::Result<bool> {
        self.refused = Some(why);
        Err(wasmtime::Error::msg(what))
    }
}

impl ResourceLimiter for Cap {
    fn memory_growing(
        &mut self,
        _current: usize,
        desired: usize,
        maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        if desired > self.memory_bytes {
            return self.refuse(
                Refusal::Memory,
                format!(
                    "memory growth to {desired} bytes refused (the cap is {} bytes)",
                    self.memory_bytes
                ),
            );
        }
        // Past the module's own declared maximum: ordinary wasm semantics (`memory.grow`
        // returns -1), the plugin asked for that limit itself.
        Ok(maximum.is_none_or(|max| desired <= max))
    }

    fn memory_grow_failed(&mut self, error: wasmtime::Error) -> wasmtime::Result<()> {
        self.refused = Some(Refusal::Memory);
        Err(error.context("the system could not provide the plugin's memory"))
    }

    fn table_growing(
        &mut self,
        _current: usize,
        desired: usize,
        maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        if desired > self.table_elements {
            return self.refuse(
                Refusal::Table,
                format!(
                    "table growth to {desired} elements refused (the cap is {})",
                    self.table_elements
                ),
            );
        }
        Ok(maximum.is_none_or(|max| desired <= max))
    }

    fn table_grow_failed(&mut self, error: wasmtime::Error) -> wasmtime::Result<()> {
        self.refused = Some(Refusal::Table);
        Err(error.context("the system could not provide the plugin's table"))
    }

    // One instance with one memory per store (multi-memory is off in the engine anyway), so
    // the per-memory cap above is the cap of the whole plugin.
    fn instances(&self) -> usize {
        1
    }

    fn memories(&self) -> usize {
        1
    }

    fn tables(&self) -> usize {
        4
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_and_nonsense_is_refused() {
        assert!(Limits::default().check().is_ok());
        let bad = Limits {
            call_seconds: f64::NAN,
            ..Limits::default()
        };
        assert!(bad.check().is_err());
        let bad = Limits {
            playout_seconds: 0.0,
            ..Limits::default()
        };
        assert!(bad.check().is_err());
        let bad = Limits {
            memory_bytes: 10,
            ..Limits::default()
        };
        assert!(bad.check().is_err());
    }

    #[test]
    fn cap_traps_and_remembers() {
        let mut cap = Cap::new(&Limits {
            memory_bytes: 1 << 20,
            ..Limits::default()
        });
        assert!(matches!(cap.memory_growing(0, 1 << 16, None), Ok(true)));
        assert!(matches!(
            cap.memory_growing(0, 1 << 17, Some(1 << 16)),
            Ok(false)
        ));
        assert_eq!(cap.refused(), None);
        assert!(cap.memory_growing(0, 2 << 20, None).is_err());
        assert_eq!(cap.refused(), Some(Refusal::Memory));
        cap.reset();
        assert_eq!(cap.refused(), None);
    }
}
