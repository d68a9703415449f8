//! # Le Renard et les Poules
//!
//! Fox and geese on the 33 points of the cross: thirteen (or seventeen) hens try to shut the
//! fox in; the fox jumps over them to eat them. The rules, with their ids (`RP-F3`), are in
//! this crate's README.md; comments and test names cite them. This is the game the SDK's
//! guide (`sdk/README.md`) walks through.
//!
//! Action ids: `c3-c4` (a step, from and to points), `d4xd6xf6` (the fox jumps from d4 over a
//! hen to d6, then over another to f6).

mod board;
mod eval;
mod ops;
mod scene;
#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};
use veillee_sdk::{
    move_path, text, Action, Event, Game, GameError, Log, Manifest, Outcome, Scene, Seat, Setup,
    Status,
};

pub use board::Point;
use board::DIRECTIONS;

/// The hens' seat. RP-S2: the hens move first.
pub const HENS: Seat = 0;
/// The fox's seat.
pub const FOX: Seat = 1;
/// RP-E2: the fox wins when fewer hens than this are left.
pub const HENS_TO_TRAP: usize = 9;
/// RP-E4: moves in a row without a capture or a hen moving forward after which the game is
/// drawn.
pub const QUIET_LIMIT: u16 = 50;

/// A game: where the fox and every hen stand, and whose turn it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Unchecked")]
pub struct Renard {
    fox: Point,
    /// Hen `i` (piece id `h{i+1}`) stands here; `None` once eaten.
    hens: Vec<Option<Point>>,
    to_move: Seat,
    /// RP-F4: the option « prise obligatoire ».
    compulsory: bool,
    /// Moves in a row without a capture or a hen moving forward (RP-E4).
    quiet: u16,
    /// The points of the last move, from the start (for highlights); empty at the start.
    last: Vec<Point>,
    /// Where the hens eaten by the last move stood.
    eaten: Vec<Point>,
}

/// A legal move. `Vec`s are small here (at most a few jumps) and keep the example clear.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Move {
    /// A hen (RP-H1) or the fox (RP-F1) steps to a neighbouring point.
    Step {
        /// Point left.
        from: Point,
        /// Point reached.
        to: Point,
    },
    /// The fox jumps over a hen, and perhaps more, one after the other (RP-F2, RP-F3).
    Jumps {
        /// Point left.
        from: Point,
        /// Where it lands after each jump, in order.
        landings: Vec<Point>,
    },
}

/// What stands on a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Spot {
    Empty,
    Hen,
    Fox,
}

impl Renard {
    /// The position at the start (RP-S1): `hens` is 13 or 17.
    pub fn start(hens: usize, compulsory: bool) -> Renard {
        let mut names = vec![
            "c1", "d1", "e1", "c2", "d2", "e2", "a3", "b3", "c3", "d3", "e3", "f3", "g3",
        ];
        if hens == 17 {
            names.extend(["a4", "b4", "f4", "g4"]);
        }
        Renard {
            fox: point("d4"),
            hens: names.into_iter().map(|n| Some(point(n))).collect(),
            to_move: HENS,
            compulsory,
            quiet: 0,
            last: Vec::new(),
            eaten: Vec::new(),
        }
    }

    /// The hens still on the board.
    pub fn hens_left(&self) -> usize {
        self.hens.iter().flatten().count()
    }

    /// What stands on every point of the lattice.
    fn spots(&self) -> [Spot; 49] {
        let mut spots = [Spot::Empty; 49];
        for hen in self.hens.iter().flatten() {
            spots[hen.index()] = Spot::Hen;
        }
        spots[self.fox.index()] = Spot::Fox;
        spots
    }

    /// The hens' moves (RP-H1, RP-H2): one step forward (up the board) or sideways along a
    /// line to an empty point; never backward, never a jump.
    fn hen_moves(&self, spots: &[Spot; 49]) -> Vec<Move> {
        let mut moves = Vec::new();
        for &from in self.hens.iter().flatten() {
            for d in DIRECTIONS.into_iter().filter(|&(_, dr)| dr <= 0) {
                if let Some(to) = from.step(d).filter(|to| spots[to.index()] == Spot::Empty) {
                    moves.push(Move::Step { from, to });
                }
            }
        }
        moves
    }

    /// The fox's moves: its jumps (RP-F2, RP-F3) — with « prise obligatoire » (RP-F4) only
    /// the longest series, and nothing else when there is one — and its steps (RP-F1).
    fn fox_moves(&self, spots: &[Spot; 49]) -> Vec<Move> {
        let mut jumps = Vec::new();
        let mut spots = *spots;
        spots[self.fox.index()] = Spot::Empty;
        let mut landings = Vec::new();
        series(
            &mut spots,
            self.fox,
            &mut landings,
            self.compulsory,
            &mut jumps,
        );
        let mut moves: Vec<Move> = jumps
            .into_iter()
            .map(|landings| Move::Jumps {
                from: self.fox,
                landings,
            })
            .collect();
        if self.compulsory && !moves.is_empty() {
            return moves;
        }
        for d in DIRECTIONS {
            if let Some(to) = self
                .fox
                .step(d)
                .filter(|to| spots[to.index()] == Spot::Empty)
            {
                moves.push(Move::Step { from: self.fox, to });
            }
        }
        moves
    }

    /// How the game has ended, if it has: RP-E2 first (the count of hens), then the side to
    /// move without a move (RP-E1, RP-E3), then the quiet moves (RP-E4).
    pub fn outcome(&self) -> Option<Outcome> {
        if self.hens_left() < HENS_TO_TRAP {
            return Some(Outcome::win(
                FOX,
                text!(
                    "Il reste moins de {HENS_TO_TRAP} poules : le renard gagne",
                    "Fewer than {HENS_TO_TRAP} hens are left: the fox wins"
                ),
            ));
        }
        if self.legal_moves().is_empty() {
            return Some(if self.to_move == FOX {
                Outcome::win(
                    HENS,
                    text(
                        "Le renard est enfermé : les poules gagnent",
                        "The fox is shut in: the hens win",
                    ),
                )
            } else {
                Outcome::win(
                    FOX,
                    text(
                        "Les poules ne peuvent plus bouger : le renard gagne",
                        "The hens cannot move: the fox wins",
                    ),
                )
            });
        }
        (self.quiet >= QUIET_LIMIT).then(|| {
            Outcome::draw(text!(
                "{QUIET_LIMIT} coups sans prise ni poule qui avance : partie nulle",
                "{QUIET_LIMIT} moves without a capture or a hen moving forward: a draw"
            ))
        })
    }

    /// The moves of the side to move, ignoring whether the game is over.
    fn legal_moves(&self) -> Vec<Move> {
        let spots = self.spots();
        if self.to_move == FOX {
            self.fox_moves(&spots)
        } else {
            self.hen_moves(&spots)
        }
    }

    /// Whether the fox can eat a hen now.
    pub fn can_jump(&self) -> bool {
        self.fox_moves(&self.spots())
            .iter()
            .any(|mv| matches!(mv, Move::Jumps { .. }))
    }

    /// How many hens the fox, where it stands, could jump over now (RP-F2) with the pieces
    /// on `spots`: each neighbour that is a hen with the point beyond it empty.
    fn hens_to_eat(&self, spots: &[Spot; 49]) -> usize {
        DIRECTIONS
            .into_iter()
            .filter(|&d| {
                self.fox
                    .step(d)
                    .filter(|over| spots[over.index()] == Spot::Hen)
                    .and_then(|over| over.step(d))
                    .is_some_and(|to| spots[to.index()] == Spot::Empty)
            })
            .count()
    }

    /// The hen's number (0-based) on a point.
    fn hen_at(&self, p: Point) -> Option<usize> {
        self.hens.iter().position(|&h| h == Some(p))
    }
}

/// Every series of jumps from `at` (RP-F2, RP-F3), each eaten hen taken off `spots` as it is
/// jumped. Each series is pushed once; without « prise obligatoire » every beginning of a
/// series is a move of its own (the fox may stop after any jump), with it only the series
/// that cannot go on (RP-F4).
fn series(
    spots: &mut [Spot; 49],
    at: Point,
    landings: &mut Vec<Point>,
    longest_only: bool,
    out: &mut Vec<Vec<Point>>,
) {
    let mut went_on = false;
    for d in DIRECTIONS {
        let Some(over) = at.step(d).filter(|p| spots[p.index()] == Spot::Hen) else {
            continue;
        };
        // The landing point is on the same line, just beyond (RP-F2).
        let Some(to) = over.step(d).filter(|p| spots[p.index()] == Spot::Empty) else {
            continue;
        };
        went_on = true;
        spots[over.index()] = Spot::Empty;
        landings.push(to);
        if !longest_only {
            out.push(landings.clone());
        }
        series(spots, to, landings, longest_only, out);
        landings.pop();
        spots[over.index()] = Spot::Hen;
    }
    if longest_only && !went_on && !landings.is_empty() {
        out.push(landings.clone());
    }
}

/// A point by name, for the fixed positions of the set-up.
fn point(name: &str) -> Point {
    Point::parse(name).unwrap_or_else(|| panic!("{name} is a point of the cross"))
}

/// The hen jumped between two points of a jump.
fn jumped(from: Point, to: Point) -> Point {
    let (fc, fr) = from.cell();
    let (tc, tr) = to.cell();
    point_between(fc.midpoint(tc), fr.midpoint(tr))
}

fn point_between(col: u16, row: u16) -> Point {
    Point::at(col as i16, row as i16).expect("a jump passes over a point of the cross")
}

impl Game for Renard {
    type Move = Move;

    fn manifest() -> Manifest {
        scene::manifest()
    }

    fn new(setup: &Setup) -> Result<Self, GameError> {
        let hens = if setup.choice("poules") == Some("17") {
            17
        } else {
            13
        };
        Ok(Renard::start(hens, setup.flag("prise-obligatoire")))
    }

    fn status(&self) -> Status {
        match self.outcome() {
            Some(outcome) => Status::Finished { outcome },
            None => Status::to_act(self.to_move),
        }
    }

    fn evaluate(&self, seat: Seat) -> f32 {
        eval::evaluate(self, seat)
    }

    /// No random moves after the search's tree: random hens hand the fox a hen every few
    /// moves, so random playouts made every move of the hens look alike (BENCHMARKS.md,
    /// "Bots"); the evaluation (`eval.rs`) values the leaves instead.
    fn bot_playout_moves(&self, _host: u32) -> u32 {
        0
    }

    /// A bot's choice, not a rule (people keep every move RP-H1 allows): a bot's hens never
    /// leave a hen for the fox to eat at once (RP-F2) when another move leaves none.
    fn bot_may_choose(&self, seat: Seat, mv: &Move) -> bool {
        if seat != HENS {
            return true;
        }
        let Move::Step { from, to } = mv else {
            return true;
        };
        let mut spots = self.spots();
        spots[from.index()] = Spot::Empty;
        spots[to.index()] = Spot::Hen;
        self.hens_to_eat(&spots) == 0
    }

    fn moves(&self, seat: Seat) -> Vec<Move> {
        if seat != self.to_move || self.outcome().is_some() {
            return Vec::new();
        }
        self.legal_moves()
    }

    fn describe(&self, seat: Seat, mv: &Move) -> Action {
        let piece = |from: Point| match self.hen_at(from) {
            Some(i) if seat == HENS => format!("h{}", i + 1),
            _ => "fox".to_string(),
        };
        match mv {
            Move::Step { from, to } => {
                let (from_name, to_name) = (from.name(), to.name());
                let label = if seat == HENS {
                    text!(
                        "Poule {from_name} → {to_name}",
                        "Hen {from_name} → {to_name}"
                    )
                } else {
                    text!(
                        "Renard {from_name} → {to_name}",
                        "Fox {from_name} → {to_name}"
                    )
                };
                Action::new(
                    format!("{from_name}-{to_name}"),
                    label,
                    move_path(scene::BOARD_ID, piece(*from), &[to.cell()]),
                )
            }
            Move::Jumps { from, landings } => {
                let names: Vec<String> = landings.iter().map(|p| p.name()).collect();
                let (start, route) = (from.name(), names.join(" → "));
                let n = landings.len();
                let label = if n == 1 {
                    text!(
                        "Renard {start} → {route} (mange une poule)",
                        "Fox {start} → {route} (eats a hen)"
                    )
                } else {
                    text!(
                        "Renard {start} → {route} (mange {n} poules)",
                        "Fox {start} → {route} (eats {n} hens)"
                    )
                };
                let cells: Vec<(u16, u16)> = landings.iter().map(|p| p.cell()).collect();
                Action::new(
                    format!("{start}x{}", names.join("x")),
                    label,
                    move_path(scene::BOARD_ID, "fox", &cells),
                )
            }
        }
    }

    fn play(&mut self, seat: Seat, mv: &Move, log: &mut Log) {
        self.eaten.clear();
        match mv {
            Move::Step { from, to } => {
                if seat == HENS {
                    let moved_forward = to.cell().1 < from.cell().1;
                    if let Some(i) = self.hen_at(*from) {
                        self.hens[i] = Some(*to);
                    }
                    self.quiet = if moved_forward { 0 } else { self.quiet + 1 };
                } else {
                    self.fox = *to;
                    self.quiet += 1;
                }
                self.last = vec![*from, *to];
            }
            Move::Jumps { from, landings } => {
                let mut at = *from;
                for &to in landings {
                    let over = jumped(at, to);
                    if let Some(i) = self.hen_at(over) {
                        self.hens[i] = None;
                    }
                    self.eaten.push(over);
                    at = to;
                }
                self.fox = at;
                self.quiet = 0;
                self.last = std::iter::once(*from)
                    .chain(landings.iter().copied())
                    .collect();
            }
        }
        log.record(|| Event::new(self.describe(seat, mv).label));
        self.to_move = 1 - seat;
        if let Some(outcome) = self.outcome() {
            log.record(|| Event::new(outcome.reason.clone()));
        }
    }

    fn view(&self, _viewer: Option<Seat>) -> Scene {
        scene::view(self)
    }

    fn command(
        &mut self,
        name: &str,
        args: &serde_json::Value,
    ) -> Result<serde_json::Value, GameError> {
        ops::command(self, name, args)
    }
}

veillee_sdk::export_game!(Renard);

/// The saved form before it is checked: the same fields as [`Renard`].
#[derive(Deserialize)]
struct Unchecked {
    fox: Point,
    hens: Vec<Option<Point>>,
    to_move: Seat,
    compulsory: bool,
    quiet: u16,
    last: Vec<Point>,
    eaten: Vec<Point>,
}

impl TryFrom<Unchecked> for Renard {
    type Error = String;

    /// Refuses a position that cannot happen: another hen count, two pieces on one point, a
    /// seat that does not exist, a last move longer than any series of jumps.
    fn try_from(u: Unchecked) -> Result<Renard, String> {
        if u.hens.len() != 13 && u.hens.len() != 17 {
            return Err(format!("{} hens: the game has 13 or 17", u.hens.len()));
        }
        let mut seen = vec![u.fox];
        for hen in u.hens.iter().flatten() {
            if seen.contains(hen) {
                return Err(format!("two pieces on {}", hen.name()));
            }
            seen.push(*hen);
        }
        if u.to_move > FOX {
            return Err(format!("seat {} does not play", u.to_move));
        }
        if u.last.len() > 18 || u.eaten.len() > 17 {
            return Err("the last move is longer than any series of jumps".into());
        }
        Ok(Renard {
            fox: u.fox,
            hens: u.hens,
            to_move: u.to_move,
            compulsory: u.compulsory,
            quiet: u.quiet,
            last: u.last,
            eaten: u.eaten,
        })
    }
}
