//! Compiling the games' plugins in the background, one after the other, so that the library
//! shows every game at once (listed from their manifest sections) and each game can start as
//! soon as its own plugin is ready.
//!
//! One thread, one plugin at a time: wasmtime already compiles a module's functions on every
//! core, so a second thread would only slow the first game down. The worker may move a game
//! to the front of the line ([`Preparer::first`]) when a player opens it.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use veillee_runtime::catalog::{CatalogError, PluginSource};
use veillee_runtime::plugin::{Plugin, Runtime};

/// What the compiler thread tells the worker.
#[derive(Debug)]
pub enum News {
    /// It started compiling this plugin.
    Started(PluginSource),
    /// It finished: the plugin, or why it does not load.
    Done(PluginSource, Box<Result<Plugin, CatalogError>>),
}

/// The plugins still to compile, and the thread compiling them.
pub struct Preparer {
    queue: Arc<Mutex<VecDeque<PluginSource>>>,
    stop: Arc<AtomicBool>,
}

impl Preparer {
    /// Starts compiling `sources` in order on a thread of its own; `tell` hands each piece of
    /// news to the worker and answers `false` once nobody listens (the thread then stops).
    pub fn start(
        runtime: Runtime,
        sources: Vec<PluginSource>,
        tell: impl Fn(News) -> bool + Send + 'static,
    ) -> Preparer {
        let queue = Arc::new(Mutex::new(VecDeque::from(sources)));
        let stop = Arc::new(AtomicBool::new(false));
        let (line, stopped) = (Arc::clone(&queue), Arc::clone(&stop));
        let spawned = std::thread::Builder::new()
            .name("veillee-compiler".into())
            .spawn(move || loop {
                if stopped.load(Ordering::Relaxed) {
                    return;
                }
                let next = line.lock().ok().and_then(|mut q| q.pop_front());
                let Some(source) = next else { return };
                if !tell(News::Started(source.clone())) {
                    return;
                }
                let result = source.compile(&runtime);
                if !tell(News::Done(source, Box::new(result))) {
                    return;
                }
            });
        // Without the thread nothing is lost: a game not compiled yet is compiled when played.
        drop(spawned);
        Preparer { queue, stop }
    }

    /// Moves the plugins `wanted` picks to the front of the line (a player opened that game).
    pub fn first(&self, wanted: impl Fn(&PluginSource) -> bool) {
        if let Ok(mut queue) = self.queue.lock() {
            if let Some(at) = queue.iter().position(wanted) {
                if let Some(source) = queue.remove(at) {
                    queue.push_front(source);
                }
            }
        }
    }
}

impl Drop for Preparer {
    /// The thread stops after the plugin it is compiling (a window closed mid-start).
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}
