//! Moves you can follow: when a new scene replaces the one drawn, each piece that changed
//! place slides there from where it was drawn (egui's `animate_value_with_time`), pieces
//! that left the board fade out where they stood, and pieces that arrived fade in once the
//! slides are over. Nothing here knows a game: it compares what was drawn with what is to
//! be drawn, by piece id. With animation off, everything is drawn at once.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use egui::{pos2, Rect};
use veillee_sdk::{Piece, Scene};

/// How moves are shown: animated or not, and how long one stage takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pace {
    /// Whether pieces move (else they jump).
    pub on: bool,
    /// Seconds one stage takes (a slide, a fade).
    pub seconds: f32,
}

impl Default for Pace {
    fn default() -> Self {
        Pace {
            on: true,
            seconds: 0.45,
        }
    }
}

/// The pieces of the scenes drawn, frame to frame.
#[derive(Default)]
pub struct Motion {
    /// The pace, from the assisted-mode settings.
    pub pace: Pace,
    /// Where each piece was drawn this frame (board id / piece id): its place and where it
    /// was shown on its way there.
    drawn: RefCell<HashMap<String, (Rect, Piece)>>,
    /// The same, the frame before.
    last: HashMap<String, (Rect, Piece)>,
    /// The pieces' places in the scene drawn last (a change starts the motion).
    places: u64,
    /// Pieces gone from the board: faded out where they stood, from this time.
    leaving: Vec<(Piece, Rect, f64)>,
    /// Pieces that arrived: faded in from this time.
    arriving: HashMap<String, f64>,
}

/// A piece's key: its board and its id.
pub fn key(board: &str, piece: &str) -> String {
    format!("{board}/{piece}")
}

impl Motion {
    /// Starts a frame of `scene` at time `now`.
    pub fn begin(&mut self, ctx: &egui::Context, scene: &Scene, now: f64) {
        self.last = std::mem::take(self.drawn.get_mut());
        let seconds = f64::from(self.pace.seconds);
        let places = places(scene);
        if places != self.places {
            self.places = places;
            if self.pace.on && !self.last.is_empty() {
                let keys: HashSet<String> = scene
                    .boards
                    .iter()
                    .flat_map(|b| b.pieces.iter().map(|p| key(&b.id, &p.id)))
                    .collect();
                for (k, (rect, piece)) in &self.last {
                    if !keys.contains(k) {
                        self.leaving.push((piece.clone(), *rect, now));
                    }
                }
                for k in keys {
                    if !self.last.contains_key(&k) {
                        // After the slides: what a move brings comes last.
                        self.arriving.insert(k, now + seconds);
                    }
                }
            }
        }
        self.leaving.retain(|(_, _, t)| now < t + seconds);
        self.arriving.retain(|_, t| now < *t + seconds);
        if !self.leaving.is_empty() || !self.arriving.is_empty() {
            ctx.request_repaint();
        }
    }

    /// Whether something is still moving or fading.
    pub fn busy(&self) -> bool {
        !self.leaving.is_empty() || !self.arriving.is_empty()
    }

    /// Where to draw the piece `key` whose place this frame is `target`, and how opaque.
    pub fn place(
        &self,
        ctx: &egui::Context,
        key: &str,
        target: Rect,
        piece: &Piece,
    ) -> (Rect, f32) {
        let (shown, alpha) = if self.pace.on {
            let id = egui::Id::unique(("veillee-piece", key));
            let t = self.pace.seconds;
            let x = ctx.animate_value_with_time(id.with("x"), target.center().x, t);
            let y = ctx.animate_value_with_time(id.with("y"), target.center().y, t);
            let now = ctx.input(|i| i.time);
            let alpha = match self.arriving.get(key) {
                Some(&from) => ((now - from) / f64::from(t)).clamp(0.0, 1.0) as f32,
                None => 1.0,
            };
            (Rect::from_center_size(pos2(x, y), target.size()), alpha)
        } else {
            (target, 1.0)
        };
        self.drawn
            .borrow_mut()
            .insert(key.to_string(), (shown, piece.clone()));
        (shown, alpha)
    }

    /// The pieces leaving the board, fading where they stood, with their opacity now.
    pub fn leaving(&self, now: f64) -> Vec<(&Piece, Rect, f32)> {
        let t = f64::from(self.pace.seconds);
        self.leaving
            .iter()
            .map(|(piece, rect, from)| {
                (
                    piece,
                    *rect,
                    (1.0 - (now - from) / t).clamp(0.0, 1.0) as f32,
                )
            })
            .collect()
    }

    /// Where the piece `key` was drawn last frame (tests follow a move with it).
    pub fn drawn_at(&self, key: &str) -> Option<Rect> {
        self.last.get(key).map(|(rect, _)| *rect)
    }
}

/// A fingerprint of where every piece stands.
fn places(scene: &Scene) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for board in &scene.boards {
        board.id.hash(&mut hasher);
        for piece in &board.pieces {
            (&piece.id, piece.col, piece.row).hash(&mut hasher);
        }
    }
    hasher.finish()
}
