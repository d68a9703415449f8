//! Draws any plugin's [`Scene`] and turns clicks into actions, knowing nothing of the game.
//!
//! Boards of any size and layout — squares, points joined by lines, hexagons, tracks — turned
//! by the scene's quarter turns, cells with their colours and labels, pieces by shape and
//! colour, card zones face up or down, highlights. Clicking walks the actions' click paths: the first click picks something that starts a path (a
//! piece), the cells or pieces that can follow light up, and a click on one of them either
//! completes an action or narrows it down; when several actions share the whole path, the
//! remaining ones are offered as buttons. Every clickable square and card is an accessible
//! button named after it (`"d6"`), so tests and screen readers find them.
//!
//! This module holds the click state and the layout; `geometry` places a board's cells for
//! its layout, `board` draws cells, lines and stacks, `pieces` one piece by shape, `zones` the card zones and cards, `scores` the score table.

use std::collections::HashSet;

use egui::{pos2, vec2, Rect, Sense, Ui};
use veillee_sdk::{Action, HighlightKind, Scene, Seat, Target};

mod board;
mod geometry;
pub mod motion;
mod pieces;
mod scores;
mod zones;

pub use scores::scores_ui;

use board::draw_board;
use zones::{card_size, draw_zone, fit_card_size, zone_height};

use super::i18n::{Lang, S};
use super::widgets::{self};

/// The click state of a scene: the path prefix chosen so far; and the pieces drawn, so
/// that the next scene's moves can be followed.
#[derive(Default)]
pub struct SceneView {
    selected: Vec<Target>,
    /// Pieces sliding, leaving and arriving between scenes.
    pub motion: motion::Motion,
}

/// What the last frame's clicks asked for.
pub type Chosen = Option<String>;

impl SceneView {
    /// Forgets the selection (after a move, an undo, a new view).
    pub fn reset(&mut self) {
        self.selected.clear();
    }

    /// The targets chosen so far.
    pub fn selected(&self) -> &[Target] {
        &self.selected
    }

    /// The actions whose path starts with the selection.
    fn candidates<'a>(&self, actions: &'a [Action]) -> Vec<&'a Action> {
        actions
            .iter()
            .filter(|a| !a.path.is_empty() && a.path.starts_with(&self.selected))
            .collect()
    }

    /// What may be clicked next.
    fn next_targets(&self, actions: &[Action]) -> HashSet<Target> {
        let depth = self.selected.len();
        self.candidates(actions)
            .into_iter()
            .filter_map(|a| a.path.get(depth).cloned())
            .collect()
    }

    /// Actions whose whole path is the selection (more than one: the player picks by name).
    pub fn complete<'a>(&self, actions: &'a [Action]) -> Vec<&'a Action> {
        if self.selected.is_empty() {
            return Vec::new();
        }
        actions.iter().filter(|a| a.path == self.selected).collect()
    }

    /// Handles a click on something; returns the action id when an action is complete.
    fn click(&mut self, clicked: &[Target], actions: &[Action]) -> Chosen {
        let next = self.next_targets(actions);
        let hit = clicked.iter().find(|t| next.contains(t)).cloned();
        let Some(hit) = hit else {
            // Not a continuation: start over from this click if it begins a path.
            let had = !self.selected.is_empty();
            self.selected.clear();
            if had {
                return self.click(clicked, actions);
            }
            return None;
        };
        self.selected.push(hit);
        let complete = self.complete(actions);
        let longer = self
            .candidates(actions)
            .iter()
            .any(|a| a.path.len() > self.selected.len());
        if complete.len() == 1 && !longer {
            let id = complete[0].id.clone();
            self.selected.clear();
            return Some(id);
        }
        None
    }

    /// Draws the scene in the space available and handles clicks on it.
    /// `actions` are the legal actions of the viewer (empty: nothing is clickable).
    /// With zones (hands, a market) and room to the side, the board stands on the left and
    /// the zones in a scrolling column on the right; otherwise the zones go under the board.
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        scene: &Scene,
        actions: &[Action],
        lang: Lang,
        help: Help,
        viewer: Option<Seat>,
    ) -> Chosen {
        let mut chosen = None;
        let now = ui.input(|i| i.time);
        let area = Rect::from_min_size(ui.cursor().min, ui.available_size());
        self.motion.begin(ui.ctx(), scene, viewer, area, now);
        let first: HashSet<Target> = actions
            .iter()
            .filter_map(|a| a.path.first().cloned())
            .collect();
        let next = self.next_targets(actions);
        let lit = Lit {
            first: &first,
            next: &next,
            selected: &self.selected,
            scene,
            help,
            motion: &self.motion,
            still: false,
        };
        let mut clicks: Vec<Vec<Target>> = Vec::new();
        let avail = ui.available_size();
        // The viewer's own zones (their hand) first, then the others in the scene's order.
        let mut zones: Vec<&veillee_sdk::Zone> = scene.zones.iter().collect();
        zones.sort_by_key(|z| viewer.is_none() || z.owner != viewer);
        let has_zones = !scene.zones.is_empty();
        let side_by_side = has_zones && !scene.boards.is_empty() && avail.x > avail.y * 1.05;
        if side_by_side {
            // Two fixed rectangles, so that nothing spills over the panels around.
            let area = Rect::from_min_size(ui.cursor().min, avail);
            let gap = 16.0;
            let board_w = (avail.x * 0.62).min(avail.y * 1.02).max(avail.x * 0.5);
            let board_rect = Rect::from_min_size(area.min, vec2(board_w, avail.y));
            let zones_rect =
                Rect::from_min_max(pos2(board_rect.right() + gap, area.top()), area.max);
            ui.allocate_rect(area, Sense::hover());
            let h = avail.y / scene.boards.len() as f32;
            for (i, board) in scene.boards.iter().enumerate() {
                let rect =
                    Rect::from_min_size(board_rect.min + vec2(0.0, h * i as f32), vec2(board_w, h));
                draw_board(ui, rect, board, scene.rotation, &lit, lang, &mut clicks);
            }
            ui.scope_builder(egui::UiBuilder::new().max_rect(zones_rect), |ui| {
                ui.set_clip_rect(zones_rect.intersect(ui.clip_rect()));
                egui::ScrollArea::vertical()
                    .id_salt("zones")
                    .auto_shrink([false, false])
                    .show(ui, |ui| {
                        // Leave room for the scroll bar; smaller cards when the window
                        // is short, so that the hand and the market fit.
                        let short = crate::widgets::short_window(ui.ctx());
                        let width = zones_rect.width() - 30.0;
                        let card = fit_card_size(&zones, width, avail.y - 8.0, short);
                        for zone in &zones {
                            draw_zone(ui, zone, card, &lit, lang, &mut clicks);
                        }
                    });
            });
        } else {
            let card = card_size(avail.x.min(900.0));
            let zones_height: f32 = scene
                .zones
                .iter()
                .map(|z| zone_height(z, card, avail.x))
                .sum();
            let board_height = if scene.boards.is_empty() {
                0.0
            } else {
                ((avail.y - zones_height) / scene.boards.len() as f32).max(220.0)
            };
            egui::ScrollArea::vertical()
                .id_salt("scene")
                .auto_shrink([false, false])
                .show(ui, |ui| {
                    for board in &scene.boards {
                        let size = vec2(ui.available_width(), board_height);
                        let (rect, _) = ui.allocate_exact_size(size, Sense::hover());
                        draw_board(ui, rect, board, scene.rotation, &lit, lang, &mut clicks);
                    }
                    for zone in &zones {
                        draw_zone(ui, zone, card, &lit, lang, &mut clicks);
                    }
                });
        }
        // What left the scene fades where it stood, over everything.
        for (thing, rect, alpha) in self.motion.leaving(now) {
            let mut painter = self.motion.painter_for(ui.painter(), rect, Rect::NOTHING);
            painter.multiply_opacity(alpha);
            match thing {
                motion::Thing::Piece(piece) => {
                    pieces::draw_piece(&painter, rect, piece, lang, false)
                }
                motion::Thing::Card(card, _) => zones::paint_card(&painter, rect, card, lang, None),
            }
        }
        for clicked in clicks {
            if let Some(id) = self.click(&clicked, actions) {
                chosen = Some(id);
            }
        }
        chosen
    }
}

/// A game's picture for the library: its boards as the scene drawer draws them, in `rect`,
/// side by side, with nothing to click.
pub fn thumbnail(ui: &mut Ui, rect: Rect, scene: &Scene, lang: Lang) {
    let none = HashSet::new();
    let mut still = motion::Motion::default();
    still.pace = motion::Pace {
        on: false,
        seconds: 0.0,
    };
    let lit = Lit {
        first: &none,
        next: &none,
        selected: &[],
        scene,
        help: Help {
            targets: false,
            last_move: false,
        },
        motion: &still,
        still: true,
    };
    let count = scene.boards.len().max(1) as f32;
    let w = rect.width() / count;
    for (i, board) in scene.boards.iter().enumerate() {
        let part = Rect::from_min_size(rect.min + vec2(w * i as f32, 0.0), vec2(w, rect.height()));
        draw_board(ui, part, board, scene.rotation, &lit, lang, &mut Vec::new());
    }
}

/// What the play screen's assisted mode shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Help {
    /// Light up what can be clicked (pieces that can move, their destinations).
    pub targets: bool,
    /// Show the game's "last move" highlights.
    pub last_move: bool,
}

impl Default for Help {
    fn default() -> Self {
        Help {
            targets: true,
            last_move: true,
        }
    }
}

/// What is lit up this frame.
struct Lit<'a> {
    first: &'a HashSet<Target>,
    next: &'a HashSet<Target>,
    selected: &'a [Target],
    scene: &'a Scene,
    help: Help,
    motion: &'a motion::Motion,
    /// A still picture: nothing to click, no names for screen readers, no titles.
    still: bool,
}

impl Lit<'_> {
    fn highlight(&self, targets: &[Target]) -> Option<HighlightKind> {
        self.scene
            .highlights
            .iter()
            .filter(|h| self.help.last_move || h.kind != HighlightKind::LastMove)
            .filter(|h| targets.contains(&h.target))
            .map(|h| h.kind)
            .max_by_key(|k| match k {
                HighlightKind::Danger => 3,
                HighlightKind::Selected => 2,
                HighlightKind::LastMove => 1,
                HighlightKind::Info => 0,
            })
    }
}

/// What the seat choosing reads of one of its own actions: its private text if it has one.
fn own_label(action: &Action) -> &veillee_sdk::Text {
    match &action.private {
        Some(p) if p.seats.is_empty() => &p.text,
        _ => &action.label,
    }
}

/// The actions without a place on the board, and the ones left to choose between when
/// several share the selected path, as buttons. Returns the action clicked.
pub fn action_buttons(ui: &mut Ui, view: &mut SceneView, actions: &[Action], lang: Lang) -> Chosen {
    let mut chosen = None;
    let complete: Vec<&Action> = view.complete(actions);
    if complete.len() > 1 || (!complete.is_empty() && !view.selected().is_empty()) {
        ui.label(lang.t(S::ChooseAmong));
        for action in complete {
            if widgets::primary(ui, own_label(action).get(lang.code())).clicked() {
                chosen = Some(action.id.clone());
            }
        }
    }
    let free: Vec<&Action> = actions.iter().filter(|a| a.path.is_empty()).collect();
    for action in free {
        if widgets::primary(ui, own_label(action).get(lang.code())).clicked() {
            chosen = Some(action.id.clone());
        }
    }
    // Last, so that it never moves the buttons above from under the pointer.
    if !view.selected().is_empty() && widgets::button(ui, lang.t(S::ClearSelection)).clicked() {
        view.reset();
    }
    if chosen.is_some() {
        view.reset();
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;
    use veillee_sdk::Text;

    fn action(id: &str, path: Vec<Target>) -> Action {
        Action::new(id, Text::same(id), path)
    }

    #[test]
    fn a_piece_then_a_cell_completes_a_move() {
        let a = vec![
            action("c0-d2", vec![Target::piece("k1"), Target::cell("b", 3, 4)]),
            action("c0-b2", vec![Target::piece("k1"), Target::cell("b", 1, 4)]),
        ];
        let mut view = SceneView::default();
        assert_eq!(
            view.click(&[Target::piece("k1"), Target::cell("b", 2, 6)], &a),
            None
        );
        assert_eq!(view.next_targets(&a).len(), 2);
        assert_eq!(
            view.click(&[Target::cell("b", 3, 4)], &a),
            Some("c0-d2".to_string())
        );
        assert!(view.selected().is_empty());
    }

    #[test]
    fn several_actions_on_one_path_are_left_to_buttons() {
        let path = vec![Target::piece("p"), Target::cell("b", 0, 0)];
        let a = vec![action("promote-q", path.clone()), action("promote-n", path)];
        let mut view = SceneView::default();
        view.click(&[Target::piece("p")], &a);
        assert_eq!(view.click(&[Target::cell("b", 0, 0)], &a), None);
        assert_eq!(view.complete(&a).len(), 2);
    }

    #[test]
    fn clicking_another_piece_starts_over() {
        let a = vec![
            action("a", vec![Target::piece("x"), Target::cell("b", 0, 0)]),
            action("b", vec![Target::piece("y"), Target::cell("b", 1, 0)]),
        ];
        let mut view = SceneView::default();
        view.click(&[Target::piece("x")], &a);
        view.click(&[Target::piece("y")], &a);
        assert_eq!(view.selected(), &[Target::piece("y")]);
    }
}
