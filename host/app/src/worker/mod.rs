//! The worker thread: everything that may take time — loading and compiling plugins, the
//! database, playing moves, bots, files — runs here, never on the UI thread.
//!
//! The window sends [`Request`]s and reads [`Reply`]s each frame without waiting; the worker
//! asks for a repaint whenever it answers. It owns the catalog, the sessions and the game
//! being played; the window only ever sees copies ([`GameView`]).

mod log;
mod preferences;
mod protocol;
mod state;

use std::sync::mpsc::{channel, Receiver, Sender, TryRecvError};

use veillee_runtime::data_dir::DataDir;

pub use log::{move_lines, LogLine};
pub use preferences::{Animation, Assist, ASSIST, LANGUAGE, SCALE, SEAT_NAMES};
pub use protocol::{
    FileDone, GameInfo, GameView, Pick, Preparation, ReplayData, Reply, Request, VariantInfo,
};
pub use veillee_runtime::table::{seat_name, Consent};

use state::State;

/// Set to anything: never open a native file dialog (tests, systems without a desktop
/// portal); the screens' typed-path fields do the job.
pub const NO_DIALOG_ENV: &str = "VEILLEE_NO_FILE_DIALOG";

/// The window's end of the worker.
pub struct Worker {
    requests: Option<Sender<Request>>,
    replies: Receiver<Reply>,
    reply_sender: Sender<Reply>,
    ctx: Repaint,
    pending: usize,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Worker {
    /// Closing the window lets the worker finish what it is doing (a move being saved) and
    /// close the database, so that the data directory is free when the window is gone.
    fn drop(&mut self) {
        if let Some(requests) = self.requests.take() {
            let _ = requests.send(Request::Quit);
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The window's context, once it exists, to wake the window when a reply is ready.
#[derive(Clone, Default)]
struct Repaint(std::sync::Arc<std::sync::Mutex<Option<egui::Context>>>);

impl Repaint {
    fn request(&self) {
        if let Some(ctx) = self.0.lock().ok().and_then(|c| c.clone()) {
            ctx.request_repaint();
        }
    }
}

impl Worker {
    /// Starts the worker thread for a data directory.
    pub fn spawn(data: DataDir) -> Worker {
        let (requests, inbox) = channel::<Request>();
        let (reply_sender, replies) = channel::<Reply>();
        let out = reply_sender.clone();
        let ctx = Repaint::default();
        let repaint = ctx.clone();
        // The worker's own inbox: the thinker's decisions, the lab's notes, phones' moves and
        // the compiler's news.
        let to_self = requests.clone();
        let thread = std::thread::Builder::new()
            .name("veillee-worker".into())
            .spawn(move || {
                let mut state = State::new(data, to_self);
                while let Ok(request) = inbox.recv() {
                    // The thinker's decisions, the lab's notes, phones' moves and the compiler's
                    // news are not the window's requests: no `Finished`.
                    let finished = match request {
                        Request::Quit => return,
                        Request::Thought(_)
                        | Request::Lab(_)
                        | Request::Phone(_)
                        | Request::Prepared(_) => None,
                        _ => Some(Reply::Finished),
                    };
                    let replies = state.handle(request);
                    for reply in replies.into_iter().chain(finished) {
                        if out.send(reply).is_err() {
                            return;
                        }
                    }
                    repaint.request();
                }
            })
            .expect("cannot start the worker thread");
        Worker {
            requests: Some(requests),
            replies,
            reply_sender,
            ctx,
            pending: 0,
            thread: Some(thread),
        }
    }

    /// The window's context, to wake it when replies arrive.
    pub fn attach(&self, ctx: &egui::Context) {
        if let Ok(mut slot) = self.ctx.0.lock() {
            *slot = Some(ctx.clone());
        }
    }

    /// Sends a request (never waits).
    pub fn send(&mut self, request: Request) {
        self.pending += 1;
        if let Some(requests) = &self.requests {
            let _ = requests.send(request);
        }
    }

    /// The replies that arrived since the last call (never waits).
    pub fn poll(&mut self) -> Vec<Reply> {
        let mut out = Vec::new();
        loop {
            match self.replies.try_recv() {
                Ok(Reply::Finished) => self.pending = self.pending.saturating_sub(1),
                Ok(reply) => out.push(reply),
                Err(TryRecvError::Empty | TryRecvError::Disconnected) => return out,
            }
        }
    }

    /// Whether a request is still being worked on.
    pub fn busy(&self) -> bool {
        self.pending > 0
    }

    /// Opens a native file dialog on its own thread; the choice arrives as [`Reply::Picked`].
    /// With [`NO_DIALOG_ENV`] set, or when the system has no dialog to offer, the answer is
    /// "no file", and the screens offer a typed path instead.
    pub fn pick_file(&self, pick: Pick, title: String) {
        let out = self.reply_sender.clone();
        let ctx = self.ctx.clone();
        if std::env::var_os(NO_DIALOG_ENV).is_some_and(|v| !v.is_empty()) {
            let _ = out.send(Reply::Picked(pick, None));
            ctx.request();
            return;
        }
        std::thread::spawn(move || {
            let dialog = rfd::FileDialog::new().set_title(title);
            let path = match pick {
                Pick::Plugin => dialog.add_filter("Veillée plugin", &["wasm"]).pick_file(),
                Pick::ImportSession => dialog.add_filter("JSON", &["json"]).pick_file(),
                Pick::ExportSession(id, _) => dialog
                    .set_file_name(format!("veillee-{id}.json"))
                    .save_file(),
            };
            let _ = out.send(Reply::Picked(pick, path));
            ctx.request();
        });
    }
}
