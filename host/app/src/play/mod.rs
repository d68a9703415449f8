//! Play: the scene, the moves by clicks, bots after a short pause, undo/redo with the reveal
//! rule, the hot-seat handoff, the log, and the end of the game. This file holds the screen's
//! state and how the worker's news changes it; `panels.rs` draws the bar, the side panel, the
//! log and the board, `dialogs.rs` what is asked over them and the hand-off screen.

mod dialogs;
mod panels;

pub use panels::{log_line, outcome_headline};

use egui::Ui;
use veillee_sdk::{Seat, Status};

use crate::i18n::{Lang, S};
use crate::library::LibraryScreen;
use crate::scene::SceneView;
use crate::screen::{Nav, Screen, Shared, Target};
use crate::widgets;
use crate::worker::{Assist, GameView, LogLine, Reply, Request};
use veillee_runtime::store::model::PlayerKind;

/// How many of the log's latest lines the play screen shows.
pub const LOG_LINES_SHOWN: usize = 300;

/// How long a bot "thinks" before its move is played, so that people see it coming.
pub const BOT_PAUSE_SECONDS: f64 = 0.8;

/// The play screen.
#[derive(Default)]
pub struct PlayScreen {
    /// The game as it stands (none while it is being started or resumed).
    pub view: Option<GameView>,
    log: Vec<LogLine>,
    /// When each line of the log shows (NaN: not timed yet): the lines of one move come one
    /// after the other, with the pieces' motion.
    log_at: Vec<f64>,
    scene: SceneView,
    /// A full-window "pass to" screen is up for this seat.
    handoff: Option<Seat>,
    /// Before a hand-off: the human who had the screen sees where the game stands (their
    /// move's result, a bot's move) until they press "Done".
    result: Option<(Seat, veillee_sdk::Scene)>,
    /// Undo would take back another player's move: asked first.
    confirm_undo: Option<Seat>,
    /// The seat whose view was last shown.
    shown_viewer: Option<Seat>,
    bot_due: Option<f64>,
    /// An undo waits for the table's agreement to take back these reveals.
    reveal: Option<Vec<veillee_sdk::Text>>,
    error: Option<veillee_sdk::Text>,
    waiting: bool,
    /// This game's assisted mode (starts from the settings' defaults).
    assist: Option<Assist>,
    /// A frame is wanted this long from now (a log line due).
    repaint_after: Option<std::time::Duration>,
    /// How many times the "your turn" chime was asked for (it plays only when sound is on).
    chimes: u32,
    /// A move waiting for "Play it?" (assisted mode): (seat, action id, its label).
    confirm: Option<(Seat, String, veillee_sdk::Text)>,
}

impl PlayScreen {
    /// A game is being started or resumed: wait for it.
    pub fn expect_game(&mut self) {
        *self = PlayScreen {
            waiting: true,
            assist: self.assist,
            ..PlayScreen::default()
        };
    }

    /// The game as the worker sees it now.
    pub fn on_game(&mut self, view: GameView) {
        if view.fresh {
            self.log.clear();
            self.log_at.clear();
            self.shown_viewer = None;
        }
        self.log.extend(view.log.iter().cloned());
        // A fresh log (a resume) shows at once; a move's lines, one after the other.
        let at = if view.fresh { 0.0 } else { f64::NAN };
        self.log_at.resize(self.log.len(), at);
        self.scene.reset();
        self.waiting = false;
        self.bot_due = None;
        self.reveal = None;
        self.confirm = None;
        let humans = view
            .meta
            .seats
            .iter()
            .filter(|p| p.kind == PlayerKind::Human)
            .count();
        let finished = matches!(view.status, Status::Finished { .. });
        // A bot has just played and a human's turn comes (without a hand-off: that one
        // chimes when the player says they are ready).
        let after_bot = self.view.as_ref().is_some_and(|v| v.bot.is_some());
        let human_turn = view.actor.is_some() && view.bot.is_none();
        self.handoff = None;
        self.result = None;
        self.confirm_undo = None;
        // The screen is handed over only when the next viewer sees something the table may
        // not (a hand, secret options, a private line of the log): roc noir, Siège and the
        // other games with nothing private to one seat just say whose turn it is.
        let private = view.private
            || (view.viewer.is_some() && self.log.iter().any(|l| l.private_to(view.viewer)));
        if humans >= 2 && !finished && private {
            if let Some(viewer) = view.viewer {
                if self.shown_viewer != Some(viewer) {
                    self.handoff = Some(viewer);
                    // First the one who had the screen sees the result.
                    self.result = view
                        .result
                        .clone()
                        .filter(|(had, _)| self.shown_viewer == Some(*had))
                        .map(|(had, scene)| (had, *scene));
                }
            }
        }
        if self.handoff.is_none() {
            self.shown_viewer = view.viewer;
            if after_bot && human_turn && !finished {
                self.chime();
            }
        }
        self.view = Some(view);
    }

    /// Gives the log's new lines their times: the first at once (or after the lines still
    /// to show), each next one a stage later; asks for a frame when the next is due.
    fn time_log(&mut self, now: f64, pace: crate::scene::motion::Pace) {
        let step = if pace.on {
            f64::from(pace.seconds)
        } else {
            0.0
        };
        let mut next = self
            .log_at
            .iter()
            .filter(|t| !t.is_nan())
            .fold(now - step, |a, &b| a.max(b))
            + step;
        next = next.max(now);
        for at in self.log_at.iter_mut().filter(|t| t.is_nan()) {
            *at = next;
            next += step;
        }
        if let Some(&last) = self.log_at.last() {
            if last > now {
                // egui asks for the next frame itself while anything animates; this covers
                // the lines that come after the pieces have stopped.
                let wait = std::time::Duration::from_secs_f64((last - now).min(1.0));
                self.repaint_after = Some(wait);
            }
        }
    }

    /// The "your turn" chime, when this game's settings want sound.
    fn chime(&mut self) {
        if self.assist.is_some_and(|a| a.sound) {
            self.chimes += 1;
            crate::sound::play_chime();
        }
    }

    /// How many times the "your turn" chime played (tests).
    pub fn chimes(&self) -> u32 {
        self.chimes
    }

    /// A game call failed (the session stays as saved).
    pub fn on_error(&mut self, message: veillee_sdk::Text) {
        self.waiting = false;
        self.error = Some(message);
    }

    /// Undo would take back another player's move: they are asked first.
    pub fn on_undo_asks_owner(&mut self, owner: Seat) {
        self.waiting = false;
        self.confirm_undo = Some(owner);
    }

    /// Undo needs everyone's agreement.
    pub fn on_reveal(&mut self, reveals: Vec<veillee_sdk::Text>) {
        self.waiting = false;
        self.reveal = Some(reveals);
    }

    /// Whether a hand-off screen hides the board (not while the result is still shown).
    pub fn handoff(&self) -> Option<Seat> {
        self.handoff.filter(|_| self.result.is_none())
    }

    /// The scene drawer (tests follow the pieces' motion through it).
    pub fn scene(&self) -> &SceneView {
        &self.scene
    }

    /// Whether the result of the last move is shown to this seat before a hand-off.
    pub fn showing_result(&self) -> Option<Seat> {
        self.result.as_ref().map(|(seat, _)| *seat)
    }

    fn send(&mut self, shared: &mut Shared, request: Request) {
        self.waiting = true;
        shared.worker.send(request);
    }
}

impl Screen for PlayScreen {
    fn whole_window(&self) -> bool {
        true
    }

    /// A game the worker is starting (`Nothing`) or a saved one to go on with.
    fn open(&mut self, shared: &mut Shared, target: Target) -> bool {
        match target {
            Target::Nothing => self.expect_game(),
            Target::Session(id) => {
                self.expect_game();
                shared.worker.send(Request::Resume(id));
            }
            Target::Game(_) | Target::SessionAt(..) => return false,
        }
        true
    }

    /// Leaving the game closes it (it stays saved; a phone's room closes with it).
    fn leave(&mut self, shared: &mut Shared) {
        shared.worker.send(Request::Close);
        *self = PlayScreen::default();
    }

    fn reply(&mut self, _shared: &mut Shared, reply: Reply) -> Option<Reply> {
        match reply {
            Reply::Game(view) => self.on_game(*view),
            Reply::GameFailed(message) => self.on_error(message),
            Reply::UndoAsksOwner(owner) => self.on_undo_asks_owner(owner),
            Reply::RevealInTheWay(reveals) => self.on_reveal(reveals),
            other => return Some(other),
        }
        None
    }

    /// Draws the screen: the bar, then the hand-off screen, or the side panel, the board and
    /// what may be asked over them.
    fn ui(&mut self, ui: &mut Ui, shared: &mut Shared) -> Option<Nav> {
        let lang = shared.lang;
        let assist = *self.assist.get_or_insert(shared.assist);
        let pace = assist.pace();
        self.scene.motion.pace = pace;
        // What the whole table sees may move from one player's view to the next (roc noir
        // between two humans); a view with something of its own never does.
        self.scene.motion.public =
            self.result.is_none() && self.view.as_ref().is_some_and(|v| !v.private);
        let now = ui.input(|i| i.time);
        self.time_log(now, pace);
        let Some(view) = self.shown_view() else {
            return self.starting_ui(ui, lang);
        };
        let finished = view.status.outcome().cloned();
        let nav = self.bar(ui, shared, &view);
        // The hand-off screen hides everything of the game.
        if let Some(seat) = self.handoff() {
            self.handoff_ui(ui, lang, &view, seat);
            return nav;
        }
        let (side_nav, mut chosen) = self.side_panel(ui, shared, &view, finished.as_ref(), now);
        if let Some(wait) = self.repaint_after.take() {
            ui.ctx().request_repaint_after(wait);
        }
        if let Some(id) = self.board(ui, lang, &view, finished.is_some(), assist) {
            chosen = Some(id);
        }
        if let (Some(id), Some(seat)) = (chosen, view.actor) {
            self.choose(shared, &view, seat, id, assist);
        }
        self.confirm_move_dialog(ui, shared);
        self.bot_turn(ui, shared, &view, now, finished.is_some());
        self.undo_consent_dialog(ui, shared, &view);
        self.reveal_dialog(ui, shared);
        side_nav.or(nav)
    }
}

impl PlayScreen {
    /// The game as the screen draws it: while the result is shown, the board the seat who
    /// had the screen sees now, with nothing to play.
    fn shown_view(&self) -> Option<GameView> {
        let mut view = self.view.clone()?;
        if let Some((seat, scene)) = &self.result {
            view.scene = scene.clone();
            view.viewer = Some(*seat);
            view.actor = None;
            view.actions.clear();
            view.bot = None;
        }
        Some(view)
    }

    /// While the game is being started or resumed: a spinner, and why it failed if it did.
    fn starting_ui(&mut self, ui: &mut Ui, lang: Lang) -> Option<Nav> {
        ui.centered_and_justified(|ui| widgets::busy(ui, lang.t(S::Working)));
        if let Some(error) = self.error.clone() {
            let error = error.get(lang.code());
            if widgets::error_panel(ui, lang.t(S::GameFailed), error, lang.t(S::BackToLibrary)) {
                self.error = None;
                return Some(Nav::to::<LibraryScreen>());
            }
        }
        None
    }

    /// A move chosen on the board or among the buttons: asked about first in assisted mode,
    /// else sent.
    fn choose(
        &mut self,
        shared: &mut Shared,
        view: &GameView,
        seat: Seat,
        id: String,
        assist: Assist,
    ) {
        if assist.confirm_moves {
            let label = view.actions.iter().find(|a| a.id == id).map_or_else(
                || veillee_sdk::Text::same(&id),
                |a| a.label_for(seat, Some(seat)).clone(),
            );
            self.confirm = Some((seat, id, label));
        } else {
            self.send(shared, Request::Act { seat, action: id });
        }
    }

    /// Bots: a short visible pause, then the worker plays. Not while an error is shown: a
    /// bot whose move failed would otherwise fail again every pause, for ever.
    fn bot_turn(
        &mut self,
        ui: &Ui,
        shared: &mut Shared,
        view: &GameView,
        now: f64,
        finished: bool,
    ) {
        let pace = self.scene.motion.pace;
        if view.bot.is_none()
            || view.thinking.is_some()
            || self.waiting
            || self.reveal.is_some()
            || finished
            || self.error.is_some()
        {
            return;
        }
        // After the last move has been shown, line by line and stage by stage.
        let shown = (self.log_at.last().copied().unwrap_or(0.0) + f64::from(pace.seconds))
            .max(self.scene.motion.settled_at());
        let due = *self
            .bot_due
            .get_or_insert((now + BOT_PAUSE_SECONDS).max(shown));
        if now >= due {
            self.bot_due = None;
            self.send(shared, Request::Bot);
        } else {
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_secs_f64(due - now));
        }
    }
}
