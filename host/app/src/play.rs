//! Play: the scene, the moves by clicks, bots after a short pause, undo/redo with the reveal
//! rule, the hot-seat handoff, the log, and the end of the game.

use egui::{RichText, Ui};
use veillee_sdk::{Seat, Status};

use super::i18n::S;
use super::library::LibraryScreen;
use super::replay::ReplayScreen;
use super::rules::RulesScreen;
use super::scene::{self, SceneView};
use super::screen::{Nav, Screen, Shared, Target};
use super::widgets::{self, colour, Answer, ACCENT, MUTED};
use super::worker::{seat_name, Assist, Consent, GameView, LogLine, Reply, Request};
use veillee_runtime::store::model::PlayerKind;
use veillee_runtime::variants::library::ScriptSource;

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
    fn time_log(&mut self, now: f64, pace: super::scene::motion::Pace) {
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
            super::sound::play_chime();
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

    /// Draws the screen.
    fn ui(&mut self, ui: &mut Ui, shared: &mut Shared) -> Option<Nav> {
        let lang = shared.lang;
        let code = lang.code();
        let mut nav = None;
        let assist = *self.assist.get_or_insert(shared.assist);
        let pace = assist.pace();
        self.scene.motion.pace = pace;
        // What the whole table sees may move from one player's view to the next (roc noir
        // between two humans); a view with something of its own never does.
        self.scene.motion.public =
            self.result.is_none() && self.view.as_ref().is_some_and(|v| !v.private);
        let now = ui.input(|i| i.time);
        self.time_log(now, pace);
        let Some(mut view) = self.view.clone() else {
            ui.centered_and_justified(|ui| widgets::busy(ui, lang.t(S::Working)));
            if let Some(error) = self.error.clone() {
                let error = error.get(code);
                if widgets::error_panel(ui, lang.t(S::GameFailed), error, lang.t(S::BackToLibrary))
                {
                    self.error = None;
                    return Some(Nav::to::<LibraryScreen>());
                }
            }
            return None;
        };
        // While the result is shown, the board is the one the seat who had the screen sees
        // now, with nothing to play.
        let result_for = self.showing_result();
        if let Some((seat, scene)) = &self.result {
            view.scene = scene.clone();
            view.viewer = Some(*seat);
            view.actor = None;
            view.actions.clear();
            view.bot = None;
        }
        let finished = view.status.outcome().cloned();
        let can_undo = view.can_undo && !self.waiting && self.handoff.is_none();
        let can_redo = view.can_redo && !self.waiting && self.handoff.is_none();

        // Keyboard: Ctrl+Z / Ctrl+Y (also Ctrl+Shift+Z).
        let (undo_key, redo_key) = ui.input_mut(|i| {
            let undo = i.consume_key(egui::Modifiers::COMMAND, egui::Key::Z);
            let redo = i.consume_key(egui::Modifiers::COMMAND, egui::Key::Y)
                || i.consume_key(
                    egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
                    egui::Key::Z,
                );
            (undo, redo)
        });

        let mut undo_clicked = undo_key && can_undo;
        egui::Panel::top("play-bar")
            .frame(widgets::panel_frame(10))
            .show(ui, |ui| {
                // The buttons on the right first; the game's name and notes take what is
                // left, cut short rather than drawn under the buttons.
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    if widgets::button(ui, lang.t(S::Rules)).clicked() {
                        nav = Some(Nav::on::<RulesScreen>(Target::Game(
                            view.manifest.id.clone(),
                        )));
                    }
                    ui.menu_button(lang.t(S::AssistShort), |ui| {
                        if let Some(assist) = &mut self.assist {
                            super::settings::assist_checkboxes(ui, lang, assist);
                        }
                    });
                    if ui
                        .add_enabled(
                            can_redo,
                            egui::Button::new(lang.t(S::Redo)).min_size(egui::vec2(0.0, 40.0)),
                        )
                        .on_hover_text("Ctrl+Y")
                        .clicked()
                    {
                        self.send(shared, Request::Redo);
                    }
                    if ui
                        .add_enabled(
                            can_undo,
                            egui::Button::new(lang.t(S::Undo)).min_size(egui::vec2(0.0, 40.0)),
                        )
                        .on_hover_text("Ctrl+Z")
                        .clicked()
                    {
                        undo_clicked = true;
                    }
                    ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
                        if widgets::button(ui, lang.t(S::Back)).clicked() {
                            nav = Some(Nav::to::<LibraryScreen>());
                        }
                        ui.add(
                            egui::Label::new(
                                RichText::new(view.manifest.name.get(code))
                                    .size(28.0)
                                    .strong()
                                    .color(ACCENT),
                            )
                            .truncate(),
                        );
                        let mut note = lang.f(S::Saved, &[&view.meta.id.to_string()]);
                        if !view.house_rules.is_empty() {
                            let names: Vec<&str> =
                                view.house_rules.iter().map(|n| n.get(code)).collect();
                            note.push_str(" · ");
                            note.push_str(&lang.f(S::HouseRules, &[&names.join(", ")]));
                        }
                        ui.add(
                            egui::Label::new(RichText::new(note).small().color(MUTED)).truncate(),
                        );
                    });
                });
            });
        if undo_clicked {
            // The table says whose consent it needs (another player's move, a reveal).
            self.send(
                shared,
                Request::Undo {
                    consent: Consent::NotAsked,
                },
            );
        }
        if redo_key && can_redo {
            self.send(shared, Request::Redo);
        }

        // The hand-off screen hides everything of the game.
        if let Some(seat) = self.handoff() {
            let name = seat_name(&view.meta, seat);
            egui::CentralPanel::default().show(ui, |ui| {
                ui.vertical_centered(|ui| {
                    ui.add_space(ui.available_height() * 0.3);
                    ui.label(
                        RichText::new(lang.f(S::PassTo, &[&name]))
                            .size(48.0)
                            .strong()
                            .color(ACCENT),
                    );
                    ui.add_space(12.0);
                    ui.label(RichText::new(lang.t(S::HiddenNote)).color(MUTED));
                    ui.add_space(24.0);
                    if widgets::primary(ui, lang.t(S::ClickWhenReady)).clicked() {
                        self.handoff = None;
                        self.shown_viewer = Some(seat);
                        self.chime();
                    }
                });
            });
            return nav;
        }

        let mut chosen = None;
        let side = widgets::side_width(ui.ctx());
        egui::Panel::right("play-side")
            .exact_size(side)
            .frame(widgets::panel_frame(16))
            .show(ui, |ui| {
                // The decisions and scores scroll on their own when the window is small
                // (a TV-sized interface scale); the log keeps the rest of the height.
                let short = widgets::short_window(ui.ctx());
                let top_h = ui.available_height() * if short { 0.84 } else { 0.78 };
                egui::ScrollArea::vertical()
                    .id_salt("side-top")
                    .max_height(top_h)
                    .auto_shrink([false, true])
                    .show(ui, |ui| {
                        if let Some(seat) = result_for {
                            let next = self.handoff.map(|s| seat_name(&view.meta, s));
                            ui.label(
                                RichText::new(
                                    lang.f(S::ResultFor, &[&seat_name(&view.meta, seat)]),
                                )
                                .size(24.0)
                                .strong()
                                .color(ACCENT),
                            );
                            ui.label(lang.f(S::NextIs, &[&next.unwrap_or_default()]));
                            if widgets::primary(ui, lang.t(S::Done)).clicked() {
                                self.result = None;
                            }
                            ui.separator();
                        } else if let Some(outcome) = &finished {
                            ui.label(
                                RichText::new(lang.t(S::GameOver))
                                    .size(30.0)
                                    .strong()
                                    .color(ACCENT),
                            );
                            let headline = outcome_headline(lang, &view.meta, outcome);
                            ui.label(RichText::new(headline).size(26.0).strong());
                            ui.label(outcome.reason.get(code));
                            if !outcome.scores.is_empty() {
                                egui::Grid::new("final-scores").show(ui, |ui| {
                                    for (seat, score) in outcome.scores.iter().enumerate() {
                                        ui.label(seat_name(&view.meta, seat as Seat));
                                        ui.label(RichText::new(score.to_string()).strong());
                                        ui.end_row();
                                    }
                                });
                            }
                            ui.add_space(8.0);
                            ui.horizontal_wrapped(|ui| {
                                if widgets::primary(ui, lang.t(S::PlayAgain)).clicked() {
                                    let mut setup = view.meta.setup.clone();
                                    setup.seed = super::setup::clock_seed();
                                    let variants = view
                                        .meta
                                        .variants
                                        .iter()
                                        .map(|v| ScriptSource {
                                            origin: format!("session:{}", v.file),
                                            file: v.file.clone(),
                                            text: v.text.clone(),
                                        })
                                        .collect();
                                    shared.worker.send(Request::Start {
                                        game: view.meta.game.clone(),
                                        seats: view.meta.seats.clone(),
                                        setup,
                                        variants,
                                        phones: view.meta.phones.clone(),
                                    });
                                    self.expect_game();
                                }
                                if widgets::button(ui, lang.t(S::WatchReplay)).clicked() {
                                    nav = Some(Nav::on::<ReplayScreen>(Target::Session(
                                        view.meta.id,
                                    )));
                                }
                                if widgets::button(ui, lang.t(S::BackToLibrary)).clicked() {
                                    nav = Some(Nav::to::<LibraryScreen>());
                                }
                            });
                            ui.separator();
                        } else {
                            // Smaller on a short window (1024×600), where the scores must
                            // fit under it.
                            let (message, turn) = if short { (18.0, 21.0) } else { (24.0, 26.0) };
                            ui.label(RichText::new(view.scene.message.get(code)).size(message));
                            if let Some(seat) = view.actor {
                                let dot = view
                                    .manifest
                                    .seats
                                    .get(seat as usize)
                                    .map_or(ACCENT, |s| colour(s.colour));
                                ui.horizontal(|ui| {
                                    widgets::seat_dot(ui, dot, 22.0);
                                    // Wrapped: a long name must not push the panel past
                                    // the window's edge.
                                    ui.add(
                                        egui::Label::new(
                                            RichText::new(
                                                lang.f(
                                                    S::YourTurn,
                                                    &[&seat_name(&view.meta, seat)],
                                                ),
                                            )
                                            .size(turn)
                                            .strong()
                                            .color(ACCENT),
                                        )
                                        .wrap(),
                                    );
                                });
                            } else if let Some(bot) = view.bot {
                                widgets::busy(
                                    ui,
                                    &lang.f(S::BotThinking, &[&seat_name(&view.meta, bot)]),
                                );
                            } else if view.room.is_some() {
                                let names: Vec<String> = view
                                    .status
                                    .seats()
                                    .iter()
                                    .map(|&s| seat_name(&view.meta, s))
                                    .collect();
                                super::room::waiting_ui(ui, &names, lang);
                            }
                            if !self.waiting {
                                chosen =
                                    scene::action_buttons(ui, &mut self.scene, &view.actions, lang);
                            } else {
                                widgets::busy(ui, lang.t(S::Working));
                            }
                            ui.separator();
                        }
                        if let Some(error) = self.error.clone() {
                            let detail = format!("{}\n{}", error.get(code), lang.t(S::SessionKept));
                            if widgets::error_panel(
                                ui,
                                lang.t(S::GameFailed),
                                &detail,
                                lang.t(S::Dismiss),
                            ) {
                                self.error = None;
                            }
                        }
                        if let Some(room) = &view.room {
                            if let Some(seat) = super::room::room_ui(ui, room, lang) {
                                self.send(shared, Request::HandOver(seat));
                            }
                            ui.separator();
                        }
                        scene::scores_ui(ui, &view.scene, lang, |s| {
                            let dot = view
                                .manifest
                                .seats
                                .get(s as usize)
                                .map_or(MUTED, |info| colour(info.colour));
                            (seat_name(&view.meta, s), dot)
                        });
                    });
                ui.separator();
                ui.label(RichText::new(lang.t(S::Log)).strong().color(MUTED));
                egui::ScrollArea::vertical()
                    .stick_to_bottom(true)
                    .show(ui, |ui| {
                        // The latest lines: a long game's whole log would be laid out every
                        // frame (the replay shows every move).
                        let from = self.log.len().saturating_sub(LOG_LINES_SHOWN);
                        for (line, &at) in self.log.iter().zip(&self.log_at).skip(from) {
                            if at <= now {
                                log_line(ui, lang, &line.who, line.text_for(view.viewer));
                            }
                        }
                    });
            });
        if let Some(wait) = self.repaint_after.take() {
            ui.ctx().request_repaint_after(wait);
        }
        egui::CentralPanel::default().show(ui, |ui| {
            let actions = if self.waiting || finished.is_some() {
                &[][..]
            } else {
                &view.actions[..]
            };
            let help = scene::Help {
                targets: assist.show_targets,
                last_move: assist.show_last_move,
            };
            if let Some(id) = self
                .scene
                .ui(ui, &view.scene, actions, lang, help, view.viewer)
            {
                chosen = Some(id);
            }
        });
        if let (Some(id), Some(seat)) = (chosen, view.actor) {
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
        if let Some((seat, id, label)) = self.confirm.clone() {
            let body = lang.f(S::PlayThis, &[label.get(code)]);
            match widgets::ask(
                ui.ctx(),
                "confirm-move",
                &body,
                lang.t(S::PlayIt),
                lang.t(S::Cancel),
                false,
            ) {
                Answer::Yes => {
                    self.confirm = None;
                    self.send(shared, Request::Act { seat, action: id });
                }
                Answer::No => self.confirm = None,
                Answer::Open => {}
            }
        }

        // Bots: a short visible pause, then the worker plays. Not while an error is shown: a
        // bot whose move failed would otherwise fail again every pause, for ever.
        if view.bot.is_some()
            && view.thinking.is_none()
            && !self.waiting
            && self.reveal.is_none()
            && finished.is_none()
            && self.error.is_none()
        {
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

        if let Some(theirs) = self.confirm_undo {
            let body = lang.f(S::UndoTheirs, &[&seat_name(&view.meta, theirs)]);
            match widgets::ask(
                ui.ctx(),
                "confirm-undo",
                &body,
                lang.t(S::Undo),
                lang.t(S::Cancel),
                false,
            ) {
                Answer::Yes => {
                    self.confirm_undo = None;
                    let consent = Consent::OwnerAgreed;
                    self.send(shared, Request::Undo { consent });
                }
                Answer::No => self.confirm_undo = None,
                Answer::Open => {}
            }
        }

        if let Some(reveals) = self.reveal.clone() {
            let body = format!(
                "{}\n\n• {}\n\n{}",
                lang.t(S::RevealBody),
                reveals
                    .iter()
                    .map(|t| t.get(code))
                    .collect::<Vec<_>>()
                    .join("\n• "),
                lang.t(S::RevealAsk)
            );
            match widgets::confirm(
                ui.ctx(),
                "reveal",
                &body,
                lang.t(S::Agree),
                lang.t(S::Cancel),
            ) {
                Answer::Yes => {
                    self.reveal = None;
                    let consent = Consent::Given;
                    self.send(shared, Request::Undo { consent });
                }
                Answer::No => self.reveal = None,
                Answer::Open => {}
            }
        }
        nav
    }
}

/// One line of a game's log: who, then what, as each language writes it ("Ana : …",
/// "Ana: …"); the launcher's own notes in a quieter colour.
pub fn log_line(ui: &mut Ui, lang: super::i18n::Lang, who: &str, text: &veillee_sdk::Text) {
    let text = text.get(lang.code());
    if who.is_empty() {
        ui.label(RichText::new(text).color(MUTED));
    } else {
        ui.label(lang.f(S::LogLine, &[who, text]));
    }
}

/// "Winner: Ana, Bruno" or "Draw", for the end of a game.
pub fn outcome_headline(
    lang: super::i18n::Lang,
    meta: &veillee_runtime::store::model::SessionMeta,
    outcome: &veillee_sdk::Outcome,
) -> String {
    let winners: Vec<String> = outcome
        .winners
        .iter()
        .map(|&w| seat_name(meta, w))
        .collect();
    if winners.is_empty() {
        lang.t(S::Draw).to_string()
    } else {
        lang.f(S::Winner, &[&winners.join(", ")])
    }
}
