//! The launcher window (eframe/egui): library, new game, play, replay, saved games, rules,
//! settings.
//!
//! One file per screen, each a struct with its state that implements [`screen::Screen`];
//! [`app`] lists them.
//! [`scene`] draws any plugin's scene with no knowledge of the game. **The UI thread never
//! waits on a plugin, the disk or a bot**: all of that runs on the [`worker`] thread, and the
//! window reads its replies each frame without blocking.
//!
//! # Where things are
//!
//! * [`screen`]: the one `Screen` trait — its tab, whether it draws the whole window, what it
//!   does when opened and left, the worker's replies it keeps, its `ui`. [`app`] lists one
//!   file per screen (`library`, `setup`, `play`, `replay`, `saved`, `rules`, `settings`) —
//!   adding a screen is its file and a line in that list — and routes their `Nav`s and the
//!   replies.
//! * [`worker`]: the thread that does all plugin and disk work, and owns the room of a game
//!   with phone seats (`room`). `protocol` its requests and replies; `state` the worker
//!   itself (`games` the library and the plugins compiling, `playing` the game in play — a
//!   runtime `Table` it relays, `view` what the window is shown of it, `bots` the thinker and
//!   the rules lab, `files` replays, export, import); `log` the log lines each viewer reads;
//!   `preferences` the remembered settings.
//! * `prepare`: the thread that compiles the listed games' plugins in the background, one at
//!   a time (a game opened goes first; a game started before its plugin is ready waits in the
//!   worker for it; each library card shows where its plugin stands and gets its thumbnail
//!   once it is ready, drawn by `scene::thumbnail` from the game's spectator view at the
//!   start).
//! * `thinker`: the thread a bot's search runs on (its own engine, fed a copy of the game; the
//!   worker drops a decision made for a game that changed since, which is how undo, back and
//!   quit cancel a search). `lab`: a house rule's "Test this rule" — twelve games of `normal`
//!   bots with the rule and twelve without, on a thread of their own, the two balances side by
//!   side.
//! * [`scene`]: the scene drawer. `geometry` places a board's cells for its layout and turns a
//!   click into the cell drawn under the pointer (the nearest centre, exact for squares,
//!   hexagons and points, whose boxes overlap); pieces that share a cell are stacked; the
//!   zones go beside the board when there is room (the viewer's own first, other players'
//!   hidden hands as compact rows of backs; on a short window, `widgets::short_window`, cards
//!   shrink to their names — the effect in the tooltip — until the hand and the market fit,
//!   `zones::fit_card_size`); the assisted-mode settings (`worker::Assist`) are followed, and
//!   set the pace of `motion` or turn it off. A die with a new roll (ABI 1.11 `Card::die`,
//!   drawn by `zones`) turns through its faces; a bot waits for a move's last stage.
//! * `sound`: the "your turn" chime; `i18n`: every launcher string in French and English;
//!   `widgets`: the palette and shared widgets (cards, panels, confirmations).
//! * The play screen hands over between humans only when the next human's view shows
//!   something the table may not see, and after the one who had the screen has seen where the
//!   game stands and pressed "Done". The replay screen steps through what the worker sends for
//!   one viewer (`Sessions::seen_by`): first, back, forward, last, or by itself at a chosen
//!   speed.
//!
//! Kittest flows are in `tests/` (`ui_boards.rs`: clicks on points and hexagons);
//! `examples/layouts.rs` shows every board layout in one window.

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
