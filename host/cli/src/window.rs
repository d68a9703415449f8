//! The launcher window, opened when `veillee` runs without a subcommand (feature `window`);
//! without that feature, a word on how to get it.

use std::path::PathBuf;

/// The launcher window, on the data directory of the command line.
#[cfg(feature = "window")]
pub fn open(data_dir: Option<PathBuf>, lang: Option<String>) -> anyhow::Result<()> {
    let data = veillee_runtime::data_dir::DataDir::resolve(data_dir)?;
    print_scripts_to_log(&data);
    veillee_app::run(data, lang)
}

/// The window has no terminal: what house-rule scripts `print` is appended to
/// `house-rules.log` in the data directory (started afresh past 1 MiB). A log that cannot
/// be opened is no reason not to play: prints are then dropped.
#[cfg(feature = "window")]
fn print_scripts_to_log(data: &veillee_runtime::data_dir::DataDir) {
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
pub fn open(_data_dir: Option<PathBuf>, _lang: Option<String>) -> anyhow::Result<()> {
    use clap::CommandFactory;
    crate::Cli::command().print_help()?;
    anyhow::bail!(
        "this veillee was built without the launcher window (feature `window`); run one of the \
         commands above, or build with default features to get the window"
    )
}
