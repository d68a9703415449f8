//! Compiling an untrusted plugin in a child process, under a budget of time and memory.
//!
//! A thread cannot be stopped and an allocation failure aborts the whole process, so the
//! only robust bound on what compiling a hostile module costs is another process: the
//! `veillee` binary re-executes itself with a hidden subcommand ([`COMPILE_SUBCOMMAND`]),
//! the child lowers its own limits (its data segment on Linux, its CPU time on unix), reads
//! the module on stdin, compiles it with the very engine configuration of the host and
//! writes the compiled code on stdout. The parent feeds it, reads at most
//! [`MAX_ARTIFACT_BYTES`] back, and kills it at the deadline. Whatever happens to the child
//! (killed, aborted, out of memory) becomes a [`PluginError`] naming the plugin.
//!
//! Both ends are here, since they share the command line and the exit codes.

use std::ffi::OsString;
use std::io::{Read as _, Write as _};
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use super::limits::CompileLimits;
use super::PluginError;

/// The hidden subcommand that makes a Veillée executable a plugin compiler:
/// `veillee __compile-plugin MEMORY_BYTES SECONDS MODULE_BYTES` (module on stdin).
pub const COMPILE_SUBCOMMAND: &str = "__compile-plugin";

/// Largest compiled module read back from a child.
const MAX_ARTIFACT_BYTES: u64 = 512 << 20;
/// Most of the child's error output kept for the message.
const MAX_STDERR_BYTES: u64 = 16 << 10;
/// Exit code of a child whose module did not compile (its error is on stderr).
const EXIT_INVALID: i32 = 3;
/// Exit code of a child started with arguments it does not understand.
const EXIT_USAGE: i32 = 2;
/// How often the parent looks whether the child is done.
const POLL: Duration = Duration::from_millis(5);

/// The program (and its first arguments) that runs [`serve_compile_if_asked`]: how the host
/// starts a compiler process.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompilerCommand {
    program: PathBuf,
    args: Vec<OsString>,
}

impl CompilerCommand {
    /// `program args…`, to which the compile arguments are appended.
    pub fn new(
        program: impl Into<PathBuf>,
        args: impl IntoIterator<Item = impl Into<OsString>>,
    ) -> Self {
        CompilerCommand {
            program: program.into(),
            args: args.into_iter().map(Into::into).collect(),
        }
    }

    /// This very executable with [`COMPILE_SUBCOMMAND`]: for a binary whose `main` starts
    /// with [`serve_compile_if_asked`].
    pub fn this_executable() -> std::io::Result<Self> {
        Ok(CompilerCommand::new(
            std::env::current_exe()?,
            [COMPILE_SUBCOMMAND],
        ))
    }
}

/// When this process was started as a plugin compiler (its first argument is
/// [`COMPILE_SUBCOMMAND`]), compiles the module on stdin, writes the compiled code on
/// stdout and exits; otherwise returns at once. Call it first thing in `main`.
pub fn serve_compile_if_asked() {
    let mut args = std::env::args_os().skip(1);
    if args.next().is_none_or(|first| first != COMPILE_SUBCOMMAND) {
        return;
    }
    let numbers: Option<Vec<u64>> = args.map(|a| a.to_str()?.parse().ok()).collect();
    let code = match numbers.as_deref() {
        Some(&[memory_bytes, seconds, module_bytes]) => serve(memory_bytes, seconds, module_bytes),
        _ => {
            eprintln!(
                "usage: {COMPILE_SUBCOMMAND} MEMORY_BYTES SECONDS MODULE_BYTES < module.wasm"
            );
            EXIT_USAGE
        }
    };
    std::process::exit(code);
}

/// The child: limits itself, compiles stdin to stdout.
fn serve(memory_bytes: u64, seconds: u64, module_bytes: u64) -> i32 {
    limit_self(memory_bytes, seconds);
    let mut module = Vec::new();
    let read = std::io::stdin()
        .lock()
        .take(module_bytes + 1)
        .read_to_end(&mut module);
    if let Err(e) = read {
        eprintln!("cannot read the module: {e}");
        return EXIT_USAGE;
    }
    if module.len() as u64 > module_bytes {
        eprintln!("the module is larger than {module_bytes} bytes");
        return EXIT_INVALID;
    }
    let compiled = super::config::engine_without_clock().and_then(|engine| {
        engine
            .precompile_module(&module)
            .map_err(|e| format!("{e:#}"))
    });
    match compiled {
        Ok(artifact) => {
            let mut out = std::io::stdout().lock();
            match out.write_all(&artifact).and_then(|()| out.flush()) {
                Ok(()) => 0,
                Err(_) => EXIT_USAGE,
            }
        }
        Err(e) => {
            eprintln!("{e}");
            EXIT_INVALID
        }
    }
}

/// Lowers this process's own limits: memory (the data segment, which on Linux counts every
/// private writable mapping, so `malloc`'s and the compiler's alike) and CPU time (a
/// backstop should the parent die: the wall-clock deadline is the parent's).
#[cfg(unix)]
fn limit_self(memory_bytes: u64, seconds: u64) {
    let set = |resource, value: u64| {
        let limit = libc::rlimit {
            rlim_cur: value as libc::rlim_t,
            rlim_max: value as libc::rlim_t,
        };
        // SAFETY: setrlimit reads the struct given; failing only leaves the limit as it was.
        unsafe { libc::setrlimit(resource, &limit) };
    };
    #[cfg(target_os = "linux")]
    set(libc::RLIMIT_DATA, memory_bytes);
    #[cfg(not(target_os = "linux"))]
    let _ = memory_bytes;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get() as u64);
    set(
        libc::RLIMIT_CPU,
        seconds.saturating_mul(threads).saturating_add(1),
    );
}

#[cfg(not(unix))]
fn limit_self(_memory_bytes: u64, _seconds: u64) {}

/// Why a compile in a child failed.
#[derive(Debug)]
pub(crate) enum Failure {
    /// Because of the module (past the budget, invalid, or it broke the compiler): the same
    /// bytes would fail again.
    Module(PluginError),
    /// The compiler process could not be started: nothing is known about the module.
    Environment(PluginError),
}

impl Failure {
    pub(crate) fn into_error(self) -> PluginError {
        match self {
            Failure::Module(error) | Failure::Environment(error) => error,
        }
    }
}

/// The parent: compiles `module` in a child started with `command`, within `limits`, and
/// returns the compiled code.
pub(crate) fn compile(
    command: &CompilerCommand,
    plugin: &str,
    module: &[u8],
    limits: &CompileLimits,
) -> Result<Vec<u8>, Failure> {
    let budget = |detail: String| {
        Failure::Module(PluginError::CompileBudget {
            plugin: plugin.to_string(),
            detail,
        })
    };
    let mut child = Command::new(&command.program)
        .args(&command.args)
        .args([
            limits.memory_bytes.to_string(),
            (limits.seconds.ceil() as u64).to_string(),
            limits.module_bytes.to_string(),
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            Failure::Environment(PluginError::CompileBudget {
                plugin: plugin.to_string(),
                detail: format!(
                    "needs the compiler process {}, which did not start ({e}); restart Veillée",
                    command.program.display()
                ),
            })
        })?;
    let exchange = Exchange::start(&mut child, module.to_vec());
    let deadline = Instant::now() + Duration::from_secs_f64(limits.seconds);
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() < deadline && !exchange.overflowed() => {
                std::thread::sleep(POLL)
            }
            Ok(None) | Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                let (_, _, overflowed) = exchange.finish();
                return Err(budget(if overflowed {
                    format!(
                        "produced more than {} MiB of code",
                        MAX_ARTIFACT_BYTES >> 20
                    )
                } else {
                    format!("took more than {} s", limits.seconds)
                }));
            }
        }
    };
    let (artifact, stderr, overflowed) = exchange.finish();
    if overflowed {
        return Err(budget(format!(
            "produced more than {} MiB of code",
            MAX_ARTIFACT_BYTES >> 20
        )));
    }
    judge(plugin, status, artifact, &stderr, limits).map_err(Failure::Module)
}

/// What the child's end means.
fn judge(
    plugin: &str,
    status: ExitStatus,
    artifact: Vec<u8>,
    stderr: &str,
    limits: &CompileLimits,
) -> Result<Vec<u8>, PluginError> {
    let stderr = stderr.trim();
    if status.success() && !artifact.is_empty() {
        return Ok(artifact);
    }
    let out_of_memory = [
        "memory allocation",
        "out of memory",
        "Cannot allocate memory",
    ]
    .iter()
    .any(|words| stderr.contains(words));
    if status.code() == Some(EXIT_INVALID) && !out_of_memory {
        return Err(PluginError::Invalid {
            plugin: plugin.to_string(),
            detail: stderr.to_string(),
        });
    }
    let detail = if out_of_memory {
        format!(
            "needed more than {} MiB of memory",
            limits.memory_bytes >> 20
        )
    } else if killed_for_cpu(&status) {
        format!("took more than its {} s of processor time", limits.seconds)
    } else {
        format!(
            "made the compiler process fail ({status}){}",
            if stderr.is_empty() {
                String::new()
            } else {
                format!(": {stderr}")
            }
        )
    };
    Err(PluginError::CompileBudget {
        plugin: plugin.to_string(),
        detail,
    })
}

#[cfg(unix)]
fn killed_for_cpu(status: &ExitStatus) -> bool {
    use std::os::unix::process::ExitStatusExt as _;
    status.signal() == Some(libc::SIGXCPU)
}

#[cfg(not(unix))]
fn killed_for_cpu(_status: &ExitStatus) -> bool {
    false
}

/// The threads that feed the child's stdin and drain its stdout and stderr (each on its
/// own, so that neither side ever waits on a full pipe).
struct Exchange {
    stdout: std::thread::JoinHandle<(Vec<u8>, bool)>,
    stderr: std::thread::JoinHandle<Vec<u8>>,
    overflow: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl Exchange {
    fn start(child: &mut Child, module: Vec<u8>) -> Exchange {
        use std::sync::atomic::{AtomicBool, Ordering};
        use std::sync::Arc;
        if let Some(mut stdin) = child.stdin.take() {
            // A child that dies early closes the pipe: the write error is its exit's news.
            std::thread::spawn(move || {
                let _ = stdin.write_all(&module);
            });
        }
        let overflow = Arc::new(AtomicBool::new(false));
        let stdout = child.stdout.take();
        let flag = Arc::clone(&overflow);
        let stdout = std::thread::spawn(move || {
            stdout.map_or((Vec::new(), false), |s| {
                read_bounded(s, MAX_ARTIFACT_BYTES, || {
                    flag.store(true, Ordering::Relaxed)
                })
            })
        });
        let stderr = child.stderr.take();
        let stderr = std::thread::spawn(move || {
            stderr.map_or(Vec::new(), |s| read_bounded(s, MAX_STDERR_BYTES, || ()).0)
        });
        Exchange {
            stdout,
            stderr,
            overflow,
        }
    }

    fn overflowed(&self) -> bool {
        self.overflow.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The child's output, once it has exited or been killed (the pipes are then closed).
    fn finish(self) -> (Vec<u8>, String, bool) {
        let (stdout, over) = self.stdout.join().unwrap_or_default();
        let stderr = self.stderr.join().unwrap_or_default();
        (stdout, String::from_utf8_lossy(&stderr).into_owned(), over)
    }
}

/// Reads up to `max` bytes; if more come, calls `on_overflow` at once and drains (drops)
/// the rest until the pipe closes. Says whether there was more.
fn read_bounded(
    mut source: impl std::io::Read,
    max: u64,
    on_overflow: impl FnOnce(),
) -> (Vec<u8>, bool) {
    let mut kept = Vec::new();
    let _ = (&mut source).take(max).read_to_end(&mut kept);
    let mut one = [0u8; 1];
    let more = matches!(source.read(&mut one), Ok(1));
    if more {
        on_overflow();
        let _ = std::io::copy(&mut source, &mut std::io::sink());
    }
    (kept, more)
}
