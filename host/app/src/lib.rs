//! The launcher window (eframe/egui): library, new game, play, replay, saved games, rules,
//! settings.
//!
//! One file per screen, each a struct with its state that implements [`screen::Screen`];
//! [`app`] lists them.
//! [`scene`] draws any plugin's scene with no knowledge of the game. **The UI thread never
//! waits on a plugin, the disk or a bot**: all of that runs on the [`worker`] thread, and the
//! window reads its replies each frame without blocking.

pub mod app;
pub mod i18n;
pub mod lab;
pub mod library;
pub mod play;
pub mod prepare;
pub mod replay;
pub mod room;
pub mod rules;
pub mod saved;
pub mod scene;
pub mod screen;
pub mod settings;
pub mod setup;
pub mod sound;
pub mod thinker;
pub mod widgets;
pub mod worker;

pub use app::App;

use veillee_runtime::data_dir::DataDir;

/// `VEILLEE_UI_SIZE=1920x1080`: the window's first size (screenshots; default 1366×860).
pub const SIZE_ENV: &str = "VEILLEE_UI_SIZE";

/// Opens the launcher window and runs it until it is closed.
/// `lang`: `fr` or `en` from the command line; `None` uses the remembered or system language.
pub fn run(data: DataDir, lang: Option<String>) -> anyhow::Result<()> {
    let size = std::env::var(SIZE_ENV)
        .ok()
        .and_then(|s| {
            let (w, h) = s.split_once('x')?;
            Some([w.trim().parse().ok()?, h.trim().parse().ok()?])
        })
        .unwrap_or([1366.0, 860.0]);
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Veillée")
            .with_app_id("veillee")
            .with_inner_size(size)
            .with_min_inner_size([900.0, 600.0])
            .with_drag_and_drop(true),
        ..eframe::NativeOptions::default()
    };
    eframe::run_native(
        "Veillée",
        options,
        Box::new(move |_cc| Ok(Box::new(App::new(data, lang)))),
    )
    .map_err(|e| anyhow::anyhow!("cannot open the window: {e}"))
}
