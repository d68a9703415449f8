//! Moves you can follow: when a new scene replaces the one drawn, what changed place travels
//! there from where it was drawn — a piece from its square to the next, a card from a hand
//! to the board, from the board back to a hand, from the exchange to a hand — what left
//! fades out where it stood, what arrived fades in, and a die that shows a new roll turns
//! through its faces before it settles.
//!
//! One move's changes come in stages, one after the other, each as long as a stage of the
//! pace (the play screen shows the move's log lines on the same beat): first the move
//! itself — what the scene marks as the last move (a highlighted piece, card, or the square
//! a piece came to) — then what it caused (other things travelling, pieces taken fading
//! out), then what is new. A scene that marks nothing plays the first two stages as one.
//!
//! Nothing here knows a game: it compares what was drawn with what is to be drawn. A thing
//! keeps its identity by its place in the scene (`board/piece`, `zone/card`), else by its id
//! (Castel's card in a hand is the same id on the board), else by its owner (the back of a
//! card leaving Beige's hand and a Beige piece arriving on the board). Only two scenes of
//! the same viewer are compared, or two that the whole table sees (`Motion::public`): when
//! the viewer changes (a hand-off, a replay watched as someone else) nothing travels, so
//! that nothing of the last viewer's scene is drawn for the next. With animation off,
//! everything is drawn at once.

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};

use egui::Rect;
use veillee_sdk::{Card, HighlightKind, Piece, Scene, Seat, Target};

/// How moves are shown: animated or not, and how long one stage takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pace {
    /// Whether things move (else they jump).
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

/// Something drawn: a piece on a board or a card in a zone.
#[derive(Clone, Debug)]
pub enum Thing {
    /// A piece.
    Piece(Piece),
    /// A card (or a die), with the seat whose zone it is in.
    Card(Card, Option<Seat>),
}

impl Thing {
    fn id(&self) -> &str {
        match self {
            Thing::Piece(p) => &p.id,
            Thing::Card(c, _) => &c.id,
        }
    }

    fn owner(&self) -> Option<Seat> {
        match self {
            Thing::Piece(p) => p.owner,
            Thing::Card(_, owner) => *owner,
        }
    }
}

/// A thing on its way: from where it was drawn, starting at a time.
#[derive(Clone, Copy, Debug)]
struct Flight {
    from: Rect,
    start: f64,
}

/// What the scenes drawn looked like, frame to frame, and what is moving between them.
#[derive(Default)]
pub struct Motion {
    /// The pace, from the assisted-mode settings.
    pub pace: Pace,
    /// Whether the scene drawn is what the whole table sees (nothing in it is private to
    /// its viewer): two such scenes are compared even when their viewers differ (roc noir
    /// between two humans at one screen).
    pub public: bool,
    /// Whether the scene drawn last was.
    last_public: bool,
    /// Where each thing was drawn this frame (by key): where it was shown, and what it is.
    drawn: RefCell<HashMap<String, (Rect, Thing)>>,
    /// The same, the frame before.
    last: HashMap<String, (Rect, Thing)>,
    /// Where the scene is drawn: what travels is drawn over all of it, within it.
    area: Cell<Option<Rect>>,
    /// A fingerprint of the scene drawn last (a change starts the motion).
    fingerprint: u64,
    /// Whose view was drawn last.
    viewer: Option<Option<Seat>>,
    /// Things travelling to their new place.
    flights: HashMap<String, Flight>,
    /// Things gone: faded out where they stood, from a time.
    leaving: Vec<(Thing, Rect, f64)>,
    /// Things that arrived: faded in from a time.
    arriving: HashMap<String, f64>,
    /// Each die's face on top and roll, the scene before.
    dice: HashMap<String, (u8, u32)>,
    /// Dice showing a new roll: turning from a time.
    rolling: HashMap<String, f64>,
    /// When the last stage of the latest change ends.
    until: f64,
}

/// A piece's key: its board and its id.
pub fn key(board: &str, piece: &str) -> String {
    format!("{board}/{piece}")
}

/// A card's key: its zone and its id.
pub fn card_key(zone: &str, card: &str) -> String {
    format!("{zone}//{card}")
}

/// What a scene holds, by key: the thing, and whether it is part of the last move.
fn contents(scene: &Scene) -> Vec<(String, Thing, bool)> {
    let marked = |target: &Target| {
        scene.highlights.iter().any(|h| {
            matches!(h.kind, HighlightKind::LastMove | HighlightKind::Selected)
                && &h.target == target
        })
    };
    let mut out = Vec::new();
    for board in &scene.boards {
        for p in &board.pieces {
            let lead =
                marked(&Target::piece(&p.id)) || marked(&Target::cell(&board.id, p.col, p.row));
            out.push((key(&board.id, &p.id), Thing::Piece(p.clone()), lead));
        }
    }
    for zone in &scene.zones {
        for c in &zone.cards {
            let lead = marked(&Target::Card { id: c.id.clone() });
            out.push((
                card_key(&zone.id, &c.id),
                Thing::Card(c.clone(), zone.owner),
                lead,
            ));
        }
    }
    out
}

/// A fingerprint of where everything stands: pieces on their cells, cards in their zones,
/// dice with their faces.
fn fingerprint(scene: &Scene) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for board in &scene.boards {
        board.id.hash(&mut hasher);
        for piece in &board.pieces {
            (&piece.id, piece.col, piece.row).hash(&mut hasher);
        }
    }
    for zone in &scene.zones {
        zone.id.hash(&mut hasher);
        for card in &zone.cards {
            (&card.id, card.face_up).hash(&mut hasher);
            if let Some(die) = &card.die {
                (die.up, die.roll).hash(&mut hasher);
            }
        }
    }
    // Never 0, which stands for "nothing drawn yet".
    hasher.finish() | 1
}

impl Motion {
    /// Starts a frame of `scene`, as `viewer` sees it, at time `now`, drawn in `area`.
    pub fn begin(
        &mut self,
        ctx: &egui::Context,
        scene: &Scene,
        viewer: Option<Seat>,
        area: Rect,
        now: f64,
    ) {
        self.last = std::mem::take(self.drawn.get_mut());
        self.area.set(Some(area));
        let public = self.public && self.last_public;
        if self.viewer != Some(viewer) && !public {
            // Another viewer's scene: nothing of the last one may travel into this one.
            *self = Motion {
                pace: self.pace,
                public: self.public,
                viewer: Some(viewer),
                area: Cell::new(Some(area)),
                ..Motion::default()
            };
        }
        self.viewer = Some(viewer);
        self.last_public = self.public;
        let fingerprint = fingerprint(scene);
        if fingerprint != self.fingerprint {
            let first = self.fingerprint == 0;
            self.fingerprint = fingerprint;
            if self.pace.on && !first && !self.last.is_empty() {
                self.plan(scene, now);
            }
            self.note_dice(scene, now, first);
        }
        let seconds = f64::from(self.pace.seconds);
        self.flights.retain(|_, f| now < f.start + seconds);
        self.leaving.retain(|(_, _, t)| now < t + seconds);
        self.arriving.retain(|_, t| now < *t + seconds);
        self.rolling.retain(|_, t| now < *t + seconds);
        if self.busy() {
            ctx.request_repaint();
        }
    }

    /// Sets what travels, fades and waits between the scene drawn last and `scene`.
    fn plan(&mut self, scene: &Scene, now: f64) {
        let seconds = f64::from(self.pace.seconds);
        let next = contents(scene);
        let keys: HashSet<&str> = next.iter().map(|(k, _, _)| k.as_str()).collect();
        // The things drawn last that are not in the new scene under the same key.
        let mut gone: Vec<(&String, Rect, &Thing)> = self
            .last
            .iter()
            .filter(|(k, _)| !keys.contains(k.as_str()))
            .map(|(k, (rect, thing))| (k, *rect, thing))
            .collect();
        gone.sort_by(|a, b| a.0.cmp(b.0));
        let mut taken = vec![false; gone.len()];
        // (key, from, part of the move itself)
        let mut travels: Vec<(String, Rect, bool)> = Vec::new();
        let mut new: Vec<&String> = Vec::new();
        let pick = |found: Option<usize>, taken: &mut Vec<bool>| {
            let i = found?;
            taken[i] = true;
            Some(gone[i].1)
        };
        let mut unmatched: Vec<&(String, Thing, bool)> = Vec::new();
        for item in &next {
            let (k, _, lead) = item;
            match self.last.get(k) {
                Some((rect, before)) => {
                    let moved = match (before, &item.1) {
                        (Thing::Piece(a), Thing::Piece(b)) => (a.col, a.row) != (b.col, b.row),
                        _ => false,
                    };
                    travels.push((k.clone(), *rect, *lead && moved));
                }
                None => unmatched.push(item),
            }
        }
        // The same id elsewhere (a card from a hand onto the board), then the same owner
        // (the back of a card in Beige's hand and a Beige piece on the board).
        let mut still: Vec<&(String, Thing, bool)> = Vec::new();
        for item in unmatched {
            let found = gone
                .iter()
                .enumerate()
                .position(|(i, g)| !taken[i] && g.2.id() == item.1.id());
            match pick(found, &mut taken) {
                Some(from) => travels.push((item.0.clone(), from, item.2)),
                None => still.push(item),
            }
        }
        for item in still {
            let owner = item.1.owner();
            let found = gone
                .iter()
                .enumerate()
                .position(|(i, g)| !taken[i] && owner.is_some() && g.2.owner() == owner);
            match pick(found, &mut taken) {
                Some(from) => travels.push((item.0.clone(), from, item.2)),
                None => new.push(&item.0),
            }
        }
        // Stages: the move itself, what it caused, what is new.
        let led = travels.iter().any(|(_, _, lead)| *lead);
        let (caused, arrive) = if led {
            (now + seconds, now + 2.0 * seconds)
        } else {
            (now, now + seconds)
        };
        for (k, from, lead) in travels {
            let start = if lead || !led { now } else { caused };
            self.flights.insert(k, Flight { from, start });
        }
        for (i, (_, rect, thing)) in gone.iter().enumerate() {
            if !taken[i] {
                self.leaving.push(((*thing).clone(), *rect, caused));
            }
        }
        for k in new {
            self.arriving.insert(k.clone(), arrive);
        }
        self.until = arrive + seconds;
    }

    /// Notes each die's face and roll; a new roll (or a die just come) turns.
    fn note_dice(&mut self, scene: &Scene, now: f64, first: bool) {
        let mut dice = HashMap::new();
        for zone in &scene.zones {
            for card in &zone.cards {
                if let Some(die) = &card.die {
                    let k = card_key(&zone.id, &card.id);
                    let shown = (die.up, die.roll);
                    if self.pace.on && !first && self.dice.get(&k) != Some(&shown) {
                        self.rolling.insert(k.clone(), now);
                    }
                    dice.insert(k, shown);
                }
            }
        }
        self.dice = dice;
    }

    /// Whether something is still moving, fading or rolling.
    pub fn busy(&self) -> bool {
        !self.flights.is_empty()
            || !self.leaving.is_empty()
            || !self.arriving.is_empty()
            || !self.rolling.is_empty()
    }

    /// Where to draw the thing `key` whose place this frame is `target`, and how opaque.
    pub fn place(&self, ctx: &egui::Context, key: &str, target: Rect, thing: Thing) -> (Rect, f32) {
        let (shown, alpha) = if self.pace.on {
            let now = ctx.input(|i| i.time);
            let t = f64::from(self.pace.seconds).max(1e-3);
            let shown = match self.flights.get(key) {
                Some(f) => {
                    let p = ((now - f.start) / t).clamp(0.0, 1.0) as f32;
                    // Ease in and out.
                    let e = p * p * (3.0 - 2.0 * p);
                    Rect::from_center_size(
                        f.from.center().lerp(target.center(), e),
                        f.from.size() + (target.size() - f.from.size()) * e,
                    )
                }
                None => target,
            };
            let alpha = match self.arriving.get(key) {
                Some(&from) => ((now - from) / t).clamp(0.0, 1.0) as f32,
                None => 1.0,
            };
            (shown, alpha)
        } else {
            (target, 1.0)
        };
        self.drawn
            .borrow_mut()
            .insert(key.to_string(), (shown, thing));
        (shown, alpha)
    }

    /// A painter for a thing drawn at `shown` instead of its place `target`: over the whole
    /// scene while it travels, so that nothing is drawn over it and no panel cuts it off.
    pub fn painter_for(&self, painter: &egui::Painter, shown: Rect, target: Rect) -> egui::Painter {
        if shown == target {
            return painter.clone();
        }
        let clip = self.area.get().unwrap_or_else(|| painter.clip_rect());
        painter
            .clone()
            .with_layer_id(egui::LayerId::new(
                egui::Order::Foreground,
                egui::Id::unique("veillee-moving"),
            ))
            .with_clip_rect(clip)
    }

    /// How far the die `key` has turned since its new roll (0 to 1), while it turns.
    pub fn rolling(&self, ctx: &egui::Context, key: &str) -> Option<f32> {
        let from = *self.rolling.get(key)?;
        let now = ctx.input(|i| i.time);
        let t = f64::from(self.pace.seconds).max(1e-3);
        Some(((now - from) / t).clamp(0.0, 1.0) as f32)
    }

    /// The things leaving the scene, fading where they stood, with their opacity now.
    pub fn leaving(&self, now: f64) -> Vec<(&Thing, Rect, f32)> {
        let t = f64::from(self.pace.seconds).max(1e-3);
        // Whole until its stage comes, then fading.
        self.leaving
            .iter()
            .map(|(thing, rect, from)| {
                (
                    thing,
                    *rect,
                    (1.0 - (now - from) / t).clamp(0.0, 1.0) as f32,
                )
            })
            .collect()
    }

    /// Where the thing `key` was drawn last frame (tests follow a move with it).
    pub fn drawn_at(&self, key: &str) -> Option<Rect> {
        self.last.get(key).map(|(rect, _)| *rect)
    }

    /// When the stages of the latest change are over (time as egui counts it).
    pub fn settled_at(&self) -> f64 {
        self.until
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui::{pos2, vec2, Context, RawInput};
    use veillee_sdk::{text, Board, Colour, DieFace, Highlight, Shape, Zone};

    const STAGE: f64 = 0.45;

    /// A hand (seat 0's), a table zone and a board with one pawn.
    fn scene(hand: &[&str], table: &[&str], pawn_at: (u16, u16)) -> Scene {
        let card = |id: &&str| Card {
            id: (*id).into(),
            face_up: true,
            title: text(*id, *id),
            ..Card::default()
        };
        let mut board = Board {
            id: "b".into(),
            cols: 8,
            rows: 8,
            ..Board::default()
        };
        board.pieces.push(Piece::new(
            "pawn",
            pawn_at,
            Shape::Disc,
            Colour::rgb(200, 0, 0),
        ));
        let mut scene = Scene::new(text("", ""));
        scene.boards.push(board);
        scene.zones.push(Zone {
            id: "hand".into(),
            owner: Some(0),
            cards: hand.iter().map(card).collect(),
            ..Zone::default()
        });
        scene.zones.push(Zone {
            id: "table".into(),
            owner: None,
            cards: table.iter().map(card).collect(),
            ..Zone::default()
        });
        scene
    }

    /// Where the scene drawer would put each thing: cards in a row per zone, the pawn on a
    /// 50-point grid.
    fn places(scene: &Scene) -> Vec<(String, Rect, Thing)> {
        let mut out = Vec::new();
        for p in &scene.boards[0].pieces {
            let at = pos2(f32::from(p.col) * 50.0, f32::from(p.row) * 50.0);
            out.push((
                key("b", &p.id),
                Rect::from_min_size(at, vec2(50.0, 50.0)),
                Thing::Piece(p.clone()),
            ));
        }
        for (z, zone) in scene.zones.iter().enumerate() {
            for (i, c) in zone.cards.iter().enumerate() {
                let at = pos2(500.0 + i as f32 * 80.0, z as f32 * 200.0);
                out.push((
                    card_key(&zone.id, &c.id),
                    Rect::from_min_size(at, vec2(70.0, 100.0)),
                    Thing::Card(c.clone(), zone.owner),
                ));
            }
        }
        out
    }

    /// Draws `scene` as `viewer` sees it at time `t`: where each thing is shown, and how
    /// opaque.
    fn frame(
        ctx: &Context,
        motion: &mut Motion,
        t: f64,
        scene: &Scene,
        viewer: Option<Seat>,
    ) -> HashMap<String, (Rect, f32)> {
        let input = RawInput {
            time: Some(t),
            ..RawInput::default()
        };
        let mut shown = HashMap::new();
        ctx.run_pass(input, |ctx| {
            motion.begin(ctx, scene, viewer, Rect::EVERYTHING, t);
            for (k, place, thing) in places(scene) {
                shown.insert(k.clone(), motion.place(ctx, &k, place, thing));
            }
        })
        .drop_without_applying_deltas();
        shown
    }

    fn centre(shown: &HashMap<String, (Rect, f32)>, k: &str) -> egui::Pos2 {
        shown[k].0.center()
    }

    #[test]
    fn a_card_played_flies_from_the_hand_to_the_table_and_lands_there() {
        let ctx = Context::default();
        let mut motion = Motion::default();
        let before = scene(&["ace", "king"], &[], (0, 0));
        let after = scene(&["king"], &["ace"], (0, 0));
        let drawn = frame(&ctx, &mut motion, 1.0, &before, Some(0));
        let from = centre(&drawn, "hand//ace");
        let to = places(&after)
            .into_iter()
            .find(|(k, _, _)| k == "table//ace")
            .unwrap()
            .1
            .center();
        let mut path = Vec::new();
        for i in 1..=12 {
            let shown = frame(
                &ctx,
                &mut motion,
                1.0 + f64::from(i) * 0.05,
                &after,
                Some(0),
            );
            path.push(centre(&shown, "table//ace"));
        }
        // It starts near the hand, goes nearer the table at every frame, and lands on it.
        assert!(path[0].distance(from) < path[0].distance(to), "{path:?}");
        assert!(
            path.windows(2)
                .all(|w| w[1].distance(to) <= w[0].distance(to) + 0.01),
            "{path:?}"
        );
        assert!(path.last().unwrap().distance(to) < 0.5, "{path:?}");
        assert!(!motion.busy(), "it is over");
    }

    #[test]
    fn what_a_move_caused_waits_for_the_move_itself() {
        let ctx = Context::default();
        let mut motion = Motion::default();
        let before = scene(&["ace"], &[], (0, 0));
        // The card played is the last move; the pawn it pushed moves as a consequence.
        let mut after = scene(&[], &["ace"], (3, 0));
        after.highlights.push(Highlight {
            target: Target::Card { id: "ace".into() },
            kind: HighlightKind::LastMove,
        });
        frame(&ctx, &mut motion, 1.0, &before, Some(0));
        let start = frame(&ctx, &mut motion, 1.01, &after, Some(0));
        let pawn_from = start["b/pawn"].0.center();
        // Half-way through the first stage: the card is on its way, the pawn has not left.
        let mid = frame(&ctx, &mut motion, 1.01 + STAGE / 2.0, &after, Some(0));
        assert_ne!(centre(&mid, "table//ace"), centre(&start, "table//ace"));
        assert_eq!(centre(&mid, "b/pawn"), pawn_from, "the pawn waits its turn");
        // In the second stage the pawn moves; after it, all is in place.
        let second = frame(&ctx, &mut motion, 1.01 + STAGE * 1.5, &after, Some(0));
        assert_ne!(centre(&second, "b/pawn"), pawn_from);
        let end = frame(&ctx, &mut motion, 1.01 + STAGE * 3.0, &after, Some(0));
        assert_eq!(centre(&end, "b/pawn"), pos2(175.0, 25.0));
        assert!(motion.settled_at() >= 1.01 + STAGE * 2.0);
    }

    #[test]
    fn nothing_travels_from_one_viewers_scene_into_anothers() {
        let ctx = Context::default();
        let mut motion = Motion::default();
        // Seat 0's hand, then seat 1's view where the same card is on the table: a hand-off.
        let mine = scene(&["ace"], &[], (0, 0));
        let theirs = scene(&[], &["ace"], (2, 2));
        frame(&ctx, &mut motion, 1.0, &mine, Some(0));
        let shown = frame(&ctx, &mut motion, 1.01, &theirs, Some(1));
        for (k, place, _) in places(&theirs) {
            assert_eq!(shown[&k], (place, 1.0), "{k} is drawn in place at once");
        }
        assert!(!motion.busy());
        assert!(
            motion.leaving(1.01).is_empty(),
            "seat 0's hand is not faded in"
        );
    }

    #[test]
    fn a_new_roll_turns_the_die_and_animation_off_moves_nothing() {
        let ctx = Context::default();
        let faces: Vec<DieFace> = (1..=6)
            .map(|n| DieFace::pips(n, Colour::rgb(250, 250, 250), text("", "")))
            .collect();
        let with_die = |up, roll| {
            let mut s = scene(&[], &[], (0, 0));
            s.zones[1]
                .cards
                .push(Card::die("die", faces.clone(), up).rolled(roll));
            s
        };
        let mut motion = Motion::default();
        frame(&ctx, &mut motion, 1.0, &with_die(2, 1), None);
        // The same face again, by a new roll: it turns all the same.
        let input = RawInput {
            time: Some(1.1),
            ..RawInput::default()
        };
        ctx.run_pass(input, |ctx| {
            motion.begin(ctx, &with_die(2, 2), None, Rect::EVERYTHING, 1.1);
            assert_eq!(motion.rolling(ctx, "table//die"), Some(0.0));
        })
        .drop_without_applying_deltas();
        let mut still = Motion {
            pace: Pace {
                on: false,
                seconds: 0.45,
            },
            ..Motion::default()
        };
        frame(
            &ctx,
            &mut still,
            1.0,
            &scene(&["ace"], &[], (0, 0)),
            Some(0),
        );
        let shown = frame(
            &ctx,
            &mut still,
            1.01,
            &scene(&[], &["ace"], (4, 4)),
            Some(0),
        );
        assert_eq!(
            centre(&shown, "b/pawn"),
            pos2(225.0, 225.0),
            "with animation off the pawn is on its square at once"
        );
        assert!(!still.busy());
    }
}
