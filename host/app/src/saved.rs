//! Saved games: the list, resume, delete (with confirmation), export and import.

use std::path::PathBuf;

use egui::{RichText, Ui};

use super::i18n::{Lang, S};
use super::play::PlayScreen;
use super::replay::ReplayScreen;
use super::screen::{Nav, Screen, Shared, Target};
use super::widgets::{self, Answer, ACCENT, MUTED};
use super::worker::{FileDone, Pick, Reply, Request};
use veillee_runtime::store::model::SessionMeta;
use veillee_runtime::store::SetAside;
use veillee_runtime::vetting::Unfamiliar;
use veillee_sdk::Seat;

/// The saved-games screen.
#[derive(Default)]
pub struct SavedScreen {
    /// The sessions, most recent first.
    pub list: Vec<SessionMeta>,
    /// Whether the list was asked for.
    pub loaded: bool,
    /// The path typed in the import field.
    pub import_path: String,
    /// The game being exported and the path typed for it (shown beside the file dialog,
    /// which may be unavailable: no desktop portal, a bare X server).
    pub export: Option<Exporting>,
    confirm_delete: Option<(u64, String)>,
    /// A session file whose scripts the player must accept before it is imported.
    confirm_import: Option<(PathBuf, Vec<Unfamiliar>)>,
    /// An unfinished game with hidden information about to be exported: everything, or
    /// only what one seat saw?
    confirm_export: Option<SessionMeta>,
    notice: Option<String>,
    error: Option<veillee_sdk::Text>,
    /// The import dialog answered nothing: say that the path can be typed.
    dialog_failed: bool,
    /// Damaged databases set aside, whose games can be brought back.
    pub set_aside: Vec<SetAside>,
}

/// An export under way: which game, all of it or one seat's view, and the path typed.
pub struct Exporting {
    pub id: u64,
    /// `Some`: only what this seat saw (a seat view file).
    pub seat: Option<Seat>,
    pub path: String,
}

/// Where an export goes unless the player types another path: the documents folder, else
/// the home folder, else the data directory.
pub fn default_export_path(
    data_dir: &std::path::Path,
    game: &str,
    id: u64,
    seat: Option<Seat>,
) -> PathBuf {
    let dirs = directories::UserDirs::new();
    let folder = dirs
        .as_ref()
        .and_then(|d| d.document_dir().map(PathBuf::from))
        .filter(|d| d.is_dir())
        .or_else(|| dirs.as_ref().map(|d| d.home_dir().to_path_buf()))
        .filter(|d| d.is_dir())
        .unwrap_or_else(|| data_dir.to_path_buf());
    match seat {
        None => folder.join(format!("veillee-{game}-{id}.json")),
        Some(seat) => folder.join(format!("veillee-{game}-{id}-seat-{seat}.json")),
    }
}

impl SavedScreen {
    /// An export, import or delete ended.
    pub fn file_done(&mut self, shared: &Shared, result: Result<FileDone, veillee_sdk::Text>) {
        let lang = shared.lang;
        match result {
            Ok(FileDone::Exported(path)) => {
                self.export = None;
                self.error = None;
                self.notice = Some(lang.f(S::Exported, &[&path.display().to_string()]))
            }
            Ok(FileDone::Imported(id)) => {
                self.import_path.clear();
                self.dialog_failed = false;
                self.error = None;
                self.notice = Some(lang.f(S::Imported, &[&id.to_string()]))
            }
            Ok(FileDone::ImportAsks(path, scripts)) => {
                self.error = None;
                self.notice = None;
                self.confirm_import = Some((path, scripts));
            }
            Ok(FileDone::Deleted) => self.notice = Some(lang.t(S::Deleted).to_string()),
            Err(e) => {
                self.notice = None;
                self.error = Some(e)
            }
        }
    }

    /// A restore of a set-aside database ended.
    pub fn restored(
        &mut self,
        shared: &Shared,
        result: Result<(usize, usize, usize), veillee_sdk::Text>,
    ) {
        match result {
            Ok((added, already, lost)) => {
                self.error = None;
                let counts = [added, already, lost].map(|n| n.to_string());
                let counts: Vec<&str> = counts.iter().map(String::as_str).collect();
                self.notice = Some(shared.lang.f(S::RestoredGames, &counts));
            }
            Err(e) => {
                self.notice = None;
                self.error = Some(e);
            }
        }
    }

    /// The set-aside databases, each with its "bring its games back" button.
    fn set_aside_ui(&self, ui: &mut Ui, shared: &mut Shared) {
        let lang = shared.lang;
        for aside in &self.set_aside {
            widgets::card(ui, |ui| {
                ui.set_width(ui.available_width());
                ui.label(
                    RichText::new(lang.t(S::SetAsideTitle))
                        .strong()
                        .color(ACCENT),
                );
                let since = aside.since.map_or_else(|| "?".into(), when);
                let path = aside.path.display().to_string();
                ui.label(lang.f(S::SetAsideBody, &[&since, &path]));
                let button = widgets::primary(ui, lang.t(S::RestoreSetAside));
                let spoken = format!("{} — {}", lang.t(S::RestoreSetAside), aside.name);
                button.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &spoken));
                if button.clicked() {
                    shared.worker.send(Request::Restore(aside.name.clone()));
                }
            });
            ui.add_space(8.0);
        }
    }

    /// A file dialog closed without a file (cancelled, or there is no dialog here).
    pub fn dialog_closed(&mut self, import: bool) {
        if import {
            self.dialog_failed = true;
        }
    }

    /// The file dialog chose where to export: the typed-path row is no longer needed.
    pub fn export_picked(&mut self, id: u64) {
        if self.export.as_ref().is_some_and(|e| e.id == id) {
            self.export = None;
        }
    }
}

impl Screen for SavedScreen {
    fn tab(&self) -> Option<S> {
        Some(S::SavedGames)
    }

    fn open(&mut self, _shared: &mut Shared, _target: Target) -> bool {
        // The list is asked for again when the screen is drawn.
        self.loaded = false;
        true
    }

    fn reply(&mut self, shared: &mut Shared, reply: Reply) -> Option<Reply> {
        match reply {
            Reply::Saved(list) => self.list = list,
            Reply::SetAside(found) => self.set_aside = found,
            Reply::Restored(result) => self.restored(shared, result),
            Reply::FileDone(result) => self.file_done(shared, result),
            Reply::Picked(Pick::ImportSession, Some(path)) => {
                shared.worker.send(Request::Import(path))
            }
            Reply::Picked(Pick::ImportSession, None) => self.dialog_closed(true),
            Reply::Picked(Pick::ExportSession(id, seat), Some(path)) => {
                self.export_picked(id);
                shared.worker.send(Request::Export(id, seat, path))
            }
            Reply::Picked(Pick::ExportSession(..), None) => self.dialog_closed(false),
            other => return Some(other),
        }
        None
    }

    /// Draws the screen: the title and import, the typed paths when there is no file
    /// dialog, what happened last, the set-aside databases, the saved games, and the
    /// questions before an export or a delete.
    fn ui(&mut self, ui: &mut Ui, shared: &mut Shared) -> Option<Nav> {
        if !self.loaded {
            self.loaded = true;
            shared.worker.send(Request::ListSaved);
        }
        title_bar(ui, shared);
        // The typed path only when the file chooser did not answer (no desktop portal).
        if self.dialog_failed {
            self.typed_import(ui, shared);
        }
        self.typed_export(ui, shared);
        self.messages(ui, shared.lang);
        ui.add_space(8.0);
        self.set_aside_ui(ui, shared);
        if self.list.is_empty() {
            ui.label(RichText::new(shared.lang.t(S::NoSaved)).color(MUTED));
        }
        let (nav, mut export) = self.session_list(ui, shared);
        if let Some(asked) = self.export_question(ui, shared) {
            export = Some(asked);
        }
        if let Some(export) = export {
            self.export = Some(export);
        }
        self.delete_question(ui, shared);
        self.import_question(ui, shared);
        nav
    }
}

/// The saved-games screen's parts, top to bottom.
impl SavedScreen {
    /// The import path, typed, and its button.
    fn typed_import(&mut self, ui: &mut Ui, shared: &mut Shared) {
        let lang = shared.lang;
        ui.label(RichText::new(lang.t(S::DialogUnavailable)).color(MUTED));
        ui.horizontal(|ui| {
            widgets::text_field(ui, lang.t(S::SessionPath), &mut self.import_path, 420.0);
            let ready = !self.import_path.trim().is_empty();
            if ui
                .add_enabled(ready, egui::Button::new(lang.t(S::ImportThis)))
                .clicked()
            {
                shared
                    .worker
                    .send(Request::Import(self.import_path.trim().into()));
            }
        });
    }

    /// The export under way, if any: its path, typed or as proposed, export and cancel.
    fn typed_export(&mut self, ui: &mut Ui, shared: &mut Shared) {
        let lang = shared.lang;
        let mut close_export = false;
        if let Some(Exporting { id, seat, path }) = &mut self.export {
            let (id, seat) = (*id, *seat);
            widgets::card(ui, |ui| {
                ui.set_width(ui.available_width());
                ui.label(RichText::new(lang.t(S::ExportHint)).color(MUTED));
                ui.horizontal(|ui| {
                    let label = lang.f(S::ExportTo, &[&id.to_string()]);
                    widgets::text_field(ui, &label, path, 560.0);
                    let ready = !path.trim().is_empty();
                    if ui
                        .add_enabled(ready, egui::Button::new(lang.t(S::ExportHere)))
                        .clicked()
                    {
                        shared
                            .worker
                            .send(Request::Export(id, seat, PathBuf::from(path.trim())));
                    }
                    if widgets::button(ui, lang.t(S::Cancel)).clicked() {
                        close_export = true;
                    }
                });
            });
        }
        if close_export {
            self.export = None;
        }
    }

    /// The last file error and the last notice, each until dismissed.
    fn messages(&mut self, ui: &mut Ui, lang: Lang) {
        if let Some(error) = &self.error {
            if widgets::error_panel(
                ui,
                lang.t(S::FileFailed),
                error.get(lang.code()),
                lang.t(S::Dismiss),
            ) {
                self.error = None;
            }
        }
        if let Some(notice) = &self.notice {
            if widgets::info_panel(ui, notice, lang.t(S::Dismiss)) {
                self.notice = None;
            }
        }
    }

    /// A card per saved game, and what its buttons lead to: where to go (replay, resume),
    /// the export to show (a game without secrets starts its export at once).
    fn session_list(
        &mut self,
        ui: &mut Ui,
        shared: &mut Shared,
    ) -> (Option<Nav>, Option<Exporting>) {
        let lang = shared.lang;
        let mut nav = None;
        let mut export_clicked = None;
        egui::ScrollArea::vertical().show(ui, |ui| {
            for meta in &self.list {
                let name = shared
                    .games
                    .iter()
                    .find(|g| g.manifest.id == meta.game)
                    .map_or(meta.game.clone(), |g| {
                        g.manifest.name.get(lang.code()).to_string()
                    });
                match session_card(ui, lang, meta, &name) {
                    Some(CardButton::Delete) => self.confirm_delete = Some((meta.id, name)),
                    Some(CardButton::Export) if holds_secrets(shared, meta) => {
                        self.confirm_export = Some(meta.clone());
                    }
                    Some(CardButton::Export) => {
                        export_clicked = Some(start_export(shared, meta.id, &meta.game, None));
                    }
                    Some(CardButton::Replay) => {
                        nav = Some(Nav::on::<ReplayScreen>(Target::Session(meta.id)));
                    }
                    Some(CardButton::Resume) => {
                        nav = Some(Nav::on::<PlayScreen>(Target::Session(meta.id)));
                    }
                    None => {}
                }
                ui.add_space(8.0);
            }
        });
        (nav, export_clicked)
    }

    /// Everything or one seat's view, for a game that holds secrets; the export to show
    /// once answered.
    fn export_question(&mut self, ui: &mut Ui, shared: &mut Shared) -> Option<Exporting> {
        let meta = self.confirm_export.as_ref()?;
        let export = match ask_what_to_export(ui.ctx(), shared.lang, meta)? {
            ExportChoice::Cancel => None,
            ExportChoice::Everything => Some(start_export(shared, meta.id, &meta.game, None)),
            ExportChoice::Seat(seat) => Some(start_export(shared, meta.id, &meta.game, Some(seat))),
        };
        self.confirm_export = None;
        export
    }

    /// "Delete game #n?", while a delete waits for its answer.
    /// The scripts a session file brings, before it is imported: each one's id, file, size
    /// and SHA-256, import and run them, or cancel.
    fn import_question(&mut self, ui: &mut Ui, shared: &mut Shared) {
        let lang = shared.lang;
        let Some((path, scripts)) = self.confirm_import.clone() else {
            return;
        };
        let listed: Vec<String> = scripts
            .iter()
            .map(|s| format!("• {} ({}), {} B, SHA-256 {}", s.id, s.file, s.bytes, s.hash))
            .collect();
        let body = lang.f(S::ConfirmImportScripts, &[&listed.join("\n")]);
        match widgets::confirm(
            ui.ctx(),
            "import",
            &body,
            lang.t(S::ImportAndRun),
            lang.t(S::Cancel),
        ) {
            Answer::Yes => {
                let accepted = scripts.into_iter().map(|s| s.hash).collect();
                shared.worker.send(Request::ImportAccepted(path, accepted));
                self.confirm_import = None;
            }
            Answer::No => {
                self.confirm_import = None;
                self.notice = Some(lang.t(S::NotImported).to_string());
            }
            Answer::Open => {}
        }
    }

    fn delete_question(&mut self, ui: &mut Ui, shared: &mut Shared) {
        let lang = shared.lang;
        let Some((id, name)) = self.confirm_delete.clone() else {
            return;
        };
        let body = lang.f(S::ConfirmDelete, &[&id.to_string(), &name]);
        match widgets::confirm(
            ui.ctx(),
            "delete",
            &body,
            lang.t(S::Delete),
            lang.t(S::Cancel),
        ) {
            Answer::Yes => {
                shared.worker.send(Request::Delete(id));
                self.confirm_delete = None;
            }
            Answer::No => self.confirm_delete = None,
            Answer::Open => {}
        }
    }
}

/// The screen's title, and the import button on the right.
fn title_bar(ui: &mut Ui, shared: &Shared) {
    let lang = shared.lang;
    ui.horizontal(|ui| {
        widgets::title(ui, lang.t(S::SavedGames));
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            if widgets::primary(ui, lang.t(S::Import)).clicked() {
                shared
                    .worker
                    .pick_file(Pick::ImportSession, lang.t(S::Import).to_string());
            }
        });
    });
}

/// A button of a saved game's card.
enum CardButton {
    Delete,
    Export,
    Replay,
    Resume,
}

/// One saved game: its name and number, its players, when it was last played, its moves
/// and whether it is over; its buttons on the right. Returns the button clicked.
fn session_card(ui: &mut Ui, lang: Lang, meta: &SessionMeta, name: &str) -> Option<CardButton> {
    let mut clicked = None;
    widgets::card(ui, |ui| {
        ui.set_width(ui.available_width());
        ui.horizontal(|ui| {
            ui.vertical(|ui| session_summary(ui, lang, meta, name));
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                clicked = session_buttons(ui, lang, meta.id);
            });
        });
    });
    clicked
}

/// A saved game's words on its card.
fn session_summary(ui: &mut Ui, lang: Lang, meta: &SessionMeta, name: &str) {
    ui.label(
        RichText::new(format!("{name}  #{}", meta.id))
            .size(26.0)
            .strong()
            .color(ACCENT),
    );
    let players: Vec<&str> = meta.seats.iter().map(|s| s.name.as_str()).collect();
    ui.label(players.join(" · "));
    let status = if meta.status.outcome().is_some() {
        lang.t(S::Finished)
    } else {
        lang.t(S::InProgress)
    };
    ui.label(
        RichText::new(format!(
            "{} — {} — {}",
            lang.f(S::LastPlayed, &[&when(meta.last_played)]),
            lang.f(S::MovesCount, &[&meta.moves.to_string()]),
            status
        ))
        .color(MUTED),
    );
}

/// How a button is drawn: [`widgets::primary`], [`widgets::button`] or [`widgets::danger`].
type ButtonLook = fn(&mut Ui, &str) -> egui::Response;

/// Delete, export, replay and resume, right to left; screen readers (and tests) hear the
/// game's number with each. Returns the one clicked.
fn session_buttons(ui: &mut Ui, lang: Lang, id: u64) -> Option<CardButton> {
    let mut clicked = None;
    let buttons: [(S, ButtonLook, CardButton); 4] = [
        (S::Delete, widgets::danger, CardButton::Delete),
        (S::Export, widgets::button, CardButton::Export),
        (S::Replay, widgets::button, CardButton::Replay),
        (S::Resume, widgets::primary, CardButton::Resume),
    ];
    for (label, draw, button) in buttons {
        let response = draw(ui, lang.t(label));
        let spoken = format!("{} #{id}", lang.t(label));
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &spoken));
        if response.clicked() {
            clicked = Some(button);
        }
    }
    clicked
}

/// Whether a saved game's file would hold secrets: a game with hidden information that is
/// not over (its log and seed give every hand and every secret move).
fn holds_secrets(shared: &Shared, meta: &SessionMeta) -> bool {
    let hidden = shared
        .games
        .iter()
        .any(|g| g.manifest.id == meta.game && g.manifest.hidden_information);
    hidden && !matches!(meta.status, veillee_sdk::Status::Finished { .. })
}

/// Opens the file dialog for an export (and the typed path beside it, in case there is no
/// dialog on this system); returns the export row to show.
fn start_export(shared: &Shared, id: u64, game: &str, seat: Option<Seat>) -> Exporting {
    let path = default_export_path(&shared.data_dir, game, id, seat);
    shared.worker.pick_file(
        Pick::ExportSession(id, seat),
        shared.lang.t(S::Export).to_string(),
    );
    Exporting {
        id,
        seat,
        path: path.display().to_string(),
    }
}

/// What to export of a game that holds secrets.
enum ExportChoice {
    Everything,
    Seat(Seat),
    Cancel,
}

/// The question before exporting an unfinished game with hidden information: every secret
/// (the session file), only what one player saw (a seat view), or nothing.
fn ask_what_to_export(
    ctx: &egui::Context,
    lang: super::i18n::Lang,
    meta: &SessionMeta,
) -> Option<ExportChoice> {
    let mut choice = None;
    egui::Modal::new(egui::Id::unique("export-secrets")).show(ctx, |ui| {
        ui.set_max_width(620.0);
        ui.label(lang.f(S::ExportSecrets, &[&meta.id.to_string()]));
        ui.add_space(12.0);
        ui.horizontal_wrapped(|ui| {
            for (seat, player) in meta.seats.iter().enumerate() {
                if widgets::primary(ui, &lang.f(S::ExportAsSeat, &[&player.name])).clicked() {
                    choice = Some(ExportChoice::Seat(seat as Seat));
                }
            }
        });
        ui.add_space(8.0);
        ui.horizontal(|ui| {
            if widgets::danger(ui, lang.t(S::ExportAnyway)).clicked() {
                choice = Some(ExportChoice::Everything);
            }
            if widgets::button(ui, lang.t(S::Cancel)).clicked() {
                choice = Some(ExportChoice::Cancel);
            }
        });
    });
    choice
}

/// A date and time in the local time zone, `2026-11-21 22:40`.
fn when(seconds: u64) -> String {
    let Ok(ts) = jiff::Timestamp::from_second(seconds as i64) else {
        return seconds.to_string();
    };
    let zoned = ts.to_zoned(jiff::tz::TimeZone::system());
    zoned.strftime("%Y-%m-%d %H:%M").to_string()
}
