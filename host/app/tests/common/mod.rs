//! What the launcher's kittest files share: the environment, a harness on a data directory,
//! and waiting for the worker thread.

use std::path::Path;
use std::time::{Duration, Instant};

use egui_kittest::kittest::{NodeT, Queryable};
use egui_kittest::Harness;
use veillee_app::App;
use veillee_runtime::data_dir::DataDir;

/// The environment every test shares: one compiled-code cache (plugins are compiled once)
/// and no native file dialogs (the typed-path fields are used instead).
pub fn environment() {
    std::env::set_var(
        veillee_runtime::data_dir::CACHE_DIR_ENV,
        Path::new(env!("CARGO_TARGET_TMPDIR")).join("ui-compiled-cache"),
    );
    // Its key beside it, not in the user's configuration directory.
    std::env::set_var(
        veillee_runtime::data_dir::CACHE_KEY_ENV,
        Path::new(env!("CARGO_TARGET_TMPDIR")).join("ui-compiled-cache.key"),
    );
    std::env::set_var(veillee_app::worker::NO_DIALOG_ENV, "1");
}

pub fn harness(data: &Path, lang: &str) -> Harness<'static, App> {
    environment();
    let app = App::new(DataDir::at(data), Some(lang.to_string()));
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1366.0, 860.0))
        .build_ui_state(|ui, app: &mut App| app.ui(ui), app);
    wait(&mut harness, "the games to load", |h| h.state().loaded());
    harness
}

/// Steps frames until `done` holds and the worker is idle (the worker runs on its own thread).
pub fn wait(
    h: &mut Harness<'static, App>,
    what: &str,
    done: impl Fn(&Harness<'static, App>) -> bool,
) {
    let start = Instant::now();
    loop {
        h.step();
        if done(h) && !h.state().busy() {
            h.step();
            return;
        }
        if start.elapsed() > Duration::from_secs(60) {
            let labels = texts(h);
            panic!("timed out waiting for {what}; on screen: {labels:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Every name and text on screen (buttons' names, labels' texts), for failure messages.
pub fn texts(h: &Harness<'static, App>) -> Vec<String> {
    h.query_all_by(|_| true)
        .filter_map(|n| {
            let node = n.accesskit_node();
            (node.role() != egui::accesskit::Role::TextRun)
                .then(|| node.label().or_else(|| node.value()))
                .flatten()
        })
        .collect()
}

/// The library's games and the saved sessions of a data directory, without the window (to
/// prepare sessions the window then opens).
#[allow(dead_code)] // not every test file prepares sessions
pub fn catalog_and_sessions(
    data: &Path,
) -> (
    veillee_runtime::catalog::Catalog,
    veillee_runtime::session::Sessions,
) {
    environment();
    let dir = DataDir::at(data);
    let runtime = veillee_runtime::plugin::Runtime::new(Some(dir.compiled_cache())).unwrap();
    let catalog = veillee_runtime::catalog::Catalog::open(runtime, dir);
    let (store, _) = veillee_runtime::store::Store::open(data).unwrap();
    (catalog, veillee_runtime::session::Sessions::new(store))
}

/// Two human players, Ana and Bruno.
#[allow(dead_code)] // not every test file prepares sessions
pub fn ana_and_bruno() -> Vec<veillee_runtime::store::model::SeatPlayer> {
    ["Ana", "Bruno"]
        .map(veillee_runtime::store::model::SeatPlayer::human)
        .to_vec()
}
