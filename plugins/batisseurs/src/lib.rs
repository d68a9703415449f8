//! # Bâtisseurs
//!
//! Fred Horn's castle-assembly game for two players: each player moves the five pieces of a
//! castle (a tower, two gates and two straight triple walls) across a 9 × 9 board, and the
//! first to gather them into a 3 × 3 square wins. The rules are `shared/rules/batisseurs.md`;
//! comments cite its rule ids (`BT-M6`). The set-up and the shapes are a reconstruction (the
//! original figures are lost): see this crate's README.md.
//!
//! Action ids: `e9-e8` (a unit piece), `b9-b7` (a wall, named by its middle square),
//! `b9-b7+d8+e8` (a part of several pieces: its first piece's move, then the other pieces by
//! square), `jump-e5-e3` (BT-M7), `pass` (only when a player has no legal move),
//! `accept-draw` / `play-on` (only while the safety limit's draw is offered).

mod board;
mod diagram;
mod draw;
mod eval;
mod ops;
mod rules;
mod saved;
mod scene;
#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};
use veillee_sdk::{
    text, Action, Event, Game, GameError, Log, Manifest, Outcome, Scene, Seat, Setup, Status,
    Target, Text,
};

use board::{PieceIx, Sq, PIECES};

/// White's seat. BT set-up: the player who starts takes White.
pub const WHITE: Seat = 0;
/// Black's seat.
pub const BLACK: Seat = 1;
/// BT-E3's 150 rounds, a safety net only: after this many rounds without a castle (a round
/// is White's move then Black's) both players are offered a draw (`accept-draw` /
/// `play-on`); the game is drawn only if both accept. Never a silent end.
pub const DRAW_OFFER_AFTER: u16 = 150;
/// While the players play on, the draw is offered again every this many rounds.
pub const DRAW_OFFER_EVERY: u16 = 25;
/// BT-E3: a position seen this many times with the same player to move is a draw.
pub const REPETITIONS: usize = 3;

/// The id of the board in the scene.
pub const BOARD_ID: &str = "board";

/// A position as compared by the repetition rule: each player's tower, gates (sorted) and
/// walls (sorted), White first, then the player to move. Gates (and walls) are
/// interchangeable, so two positions that differ only by which gate is where are the same.
pub type Key = [u8; 11];

/// A game of Bâtisseurs: the whole state.
///
/// It serializes to a readable JSON object (pieces by id and square name); see `saved.rs`.
/// Nothing in it is random.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "saved::Saved", try_from = "saved::Saved")]
pub struct Batisseurs {
    /// Each player's pieces (White first), by index ([`board::WALL1`] …): their reference
    /// squares (a wall's middle square).
    at: [[Sq; PIECES as usize]; 2],
    /// Whose move it is.
    to_move: Seat,
    /// Moves and passes played.
    plies: u32,
    /// Rounds completed (Black's moves and passes).
    rounds: u16,
    /// Every position since the start, the current one last (BT-E3).
    history: Vec<Key>,
    /// The last move, for highlights; `None` at the start and after a pass.
    last: Option<LastMove>,
    /// How the game ended, if it has.
    end: Option<End>,
    /// While the safety limit's draw is offered: the seats that accepted (a bit each).
    draw_offer: Option<u8>,
    /// House rule « Tour maîtresse » (set by the `require_central_tower` command, see
    /// `ops.rs`): a castle counts for BT-E1 only with its tower in the centre. Off under
    /// the plain rules.
    central_tower: bool,
}

/// The last move played, for the scene's highlights.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct LastMove {
    /// Who moved.
    seat: Seat,
    /// The pieces that moved (a bit set of indices).
    part: u8,
    /// Where its first piece's reference square was.
    from: Sq,
    /// Where it is now.
    to: Sq,
    /// Whether it was a jump (BT-M7).
    jump: bool,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// BT-E1: only this player completed a castle at the end of the round.
    Castle(Seat),
    /// BT-E2: both did; this player's tower is in the centre and the other's is not.
    TowerInCentre(Seat),
    /// BT-E2: both did, and neither or both towers are in the centre.
    BothCastles,
    /// BT-E3: threefold repetition.
    Repetition,
    /// Both players accepted the draw offered after [`DRAW_OFFER_AFTER`] rounds.
    DrawAgreed,
}

/// A legal move: four bytes, `Copy`, and never a string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A part (bit set of piece indices, connected by sides) moves by `(dc, dr)` squares
    /// (BT-M2 to BT-M6). `dr > 0` goes down the board, toward row 9.
    Shift {
        /// The pieces that move.
        part: u8,
        /// Columns.
        dc: i8,
        /// Rows.
        dr: i8,
    },
    /// A blocked piece jumps two squares over opponent pieces (BT-M7).
    Jump {
        /// The piece.
        piece: PieceIx,
        /// Columns (−2, 0 or 2).
        dc: i8,
        /// Rows (−2, 0 or 2).
        dr: i8,
    },
    /// The player has no legal move (BT-E3).
    Pass,
    /// Accept the draw offered at the safety limit ([`DRAW_OFFER_AFTER`]).
    AcceptDraw,
    /// Decline it: the game goes on.
    PlayOn,
}

/// The set-up (reconstruction): each player's walls, tower and gates by reference square.
/// Black at the top: walls a1–c1 and g1–i1, tower e1, gates d2 and f2; White point-mirrored.
const fn start() -> [[Sq; PIECES as usize]; 2] {
    use board::sq;
    [
        // White: walls a9–c9 (middle b9) and g9–i9 (h9), tower e9, gates d8, f8.
        [sq(1, 8), sq(7, 8), sq(4, 8), sq(3, 7), sq(5, 7)],
        // Black: walls a1–c1 (b1) and g1–i1 (h1), tower e1, gates d2, f2.
        [sq(1, 0), sq(7, 0), sq(4, 0), sq(3, 1), sq(5, 1)],
    ]
}

impl Batisseurs {
    /// The starting position, White to move.
    pub fn initial() -> Self {
        Batisseurs::position(start(), WHITE)
    }

    /// A position with nothing played yet.
    fn position(at: [[Sq; PIECES as usize]; 2], to_move: Seat) -> Self {
        let mut game = Batisseurs {
            at,
            to_move,
            plies: 0,
            rounds: 0,
            history: Vec::new(),
            last: None,
            end: None,
            draw_offer: None,
            central_tower: false,
        };
        game.history.push(game.key());
        game
    }

    /// The position's key for the repetition rule.
    pub fn key(&self) -> Key {
        let mut key = [0u8; 11];
        for seat in 0..2 {
            let at = &self.at[seat];
            let (g1, g2) = (at[3].min(at[4]), at[3].max(at[4]));
            let (w1, w2) = (at[0].min(at[1]), at[0].max(at[1]));
            key[seat * 5..seat * 5 + 5].copy_from_slice(&[at[2], g1, g2, w1, w2]);
        }
        key[10] = self.to_move;
        key
    }

    /// Moves and passes played.
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// Rounds completed.
    pub fn rounds(&self) -> u16 {
        self.rounds
    }

    /// How many times the current position has been seen with this player to move.
    pub fn repetitions(&self) -> usize {
        let key = self.key();
        self.history.iter().filter(|&&k| k == key).count()
    }

    /// How the game ended, if it has.
    pub fn end(&self) -> Option<End> {
        self.end
    }

    /// The outcome of an ending.
    pub fn outcome(&self) -> Option<Outcome> {
        self.end.map(|end| match end {
            End::Castle(seat) => {
                let (fr, en) = scene::side_name(seat);
                Outcome::win(
                    seat,
                    text(
                        format!("Les {fr} ont bâti leur château et gagnent"),
                        format!("{en} has built the castle and wins"),
                    ),
                )
            }
            End::TowerInCentre(seat) => {
                let (fr, en) = scene::side_name(seat);
                Outcome::win(
                    seat,
                    text(
                        format!(
                            "Les deux châteaux sont achevés au même tour ; la tour des {fr} est au \
                             centre : les {fr} gagnent"
                        ),
                        format!(
                            "Both castles were completed in the same round; {en}'s tower is in the \
                             centre: {en} wins"
                        ),
                    ),
                )
            }
            End::BothCastles => Outcome::draw(text(
                "Les deux châteaux sont achevés au même tour, sans départage par la tour : \
                 partie nulle",
                "Both castles were completed in the same round and the towers do not decide: \
                 the game is drawn",
            )),
            End::Repetition => Outcome::draw(text(
                "Même position pour la troisième fois : partie nulle",
                "The same position for the third time: the game is drawn",
            )),
            End::DrawAgreed => Outcome::draw(text(
                format!(
                    "Partie nulle acceptée par les deux joueurs après {} tours sans château \
                     (limite de sécurité)",
                    self.rounds
                ),
                format!(
                    "Draw accepted by both players after {} rounds without a castle (safety \
                     limit)",
                    self.rounds
                ),
            )),
        })
    }

    /// The part a move moves (a bit set of pieces) and its translation.
    fn motion(mv: &Move) -> Option<(u8, i8, i8)> {
        match *mv {
            Move::Shift { part, dc, dr } => Some((part, dc, dr)),
            Move::Jump { piece, dc, dr } => Some((1 << piece, dc, dr)),
            Move::Pass | Move::AcceptDraw | Move::PlayOn => None,
        }
    }

    /// Where a move takes its first piece's reference square.
    fn primary_squares(&self, seat: Seat, mv: &Move) -> Option<(Sq, Sq)> {
        let (part, dc, dr) = Self::motion(mv)?;
        let from = self.at[seat as usize][rules::primary(part) as usize];
        let to = board::step(from, dc, dr)?;
        Some((from, to))
    }

    /// The action's label: what moves where ("muraille + porte d8 : b9→b7").
    fn label(&self, seat: Seat, mv: &Move) -> Text {
        let part = match *mv {
            Move::Shift { part, .. } => part,
            Move::Jump { piece, .. } => 1 << piece,
            Move::Pass => return text("Passer (aucun coup possible)", "Pass (no legal move)"),
            Move::AcceptDraw => return text("Accepter la partie nulle", "Accept the draw"),
            Move::PlayOn => return text("Continuer la partie", "Play on"),
        };
        let (from, to) = self.primary_squares(seat, mv).expect("a legal move");
        let first = rules::primary(part);
        let (mut fr, mut en) = {
            let (fr, en) = board::piece_noun(first);
            (fr.to_string(), en.to_string())
        };
        for i in first + 1..PIECES {
            if part & (1 << i) != 0 {
                let (f, e) = board::piece_noun(i);
                let at = board::name(self.at[seat as usize][i as usize]);
                fr.push_str(&format!(" + {f} {at}"));
                en.push_str(&format!(" + {e} {at}"));
            }
        }
        let (from, to) = (board::name(from), board::name(to));
        let mut label = text(format!("{fr} : {from}→{to}"), format!("{en}: {from}→{to}"));
        if matches!(mv, Move::Jump { .. }) {
            label.fr.push_str(" (saut par-dessus l'adversaire)");
            label.en.push_str(" (jumps over the opponent)");
        }
        label
    }

    /// The scene id of a piece (its middle square for a wall): `w-tower`, `b-wall2`.
    pub fn piece_id(seat: Seat, i: PieceIx) -> String {
        let side = if seat == WHITE { "w" } else { "b" };
        format!("{side}-{}", board::piece_suffix(i))
    }

    /// Hands the move to the other side, ends the round after Black's move, and records the
    /// end of the game, if it came.
    fn finish_ply(&mut self, log: &mut Log) {
        let mover = self.to_move;
        self.to_move ^= 1;
        self.plies += 1;
        let key = self.key();
        self.history.push(key);
        if mover == BLACK {
            self.rounds = self.rounds.saturating_add(1);
            // BT-E1: castles are checked at the end of each round, White's move then Black's
            // (under « Tour maîtresse », only castles with the tower in the centre count).
            self.end = match (self.counting_castle(WHITE), self.counting_castle(BLACK)) {
                (Some(_), None) => Some(End::Castle(WHITE)),
                (None, Some(_)) => Some(End::Castle(BLACK)),
                // BT-E2: both in the same round: the tower in the centre decides.
                (Some(_), Some(_)) => {
                    match (self.tower_in_centre(WHITE), self.tower_in_centre(BLACK)) {
                        (true, false) => Some(End::TowerInCentre(WHITE)),
                        (false, true) => Some(End::TowerInCentre(BLACK)),
                        _ => Some(End::BothCastles),
                    }
                }
                (None, None) => None,
            };
        }
        // BT-E3: the draws come after the castles.
        if self.end.is_none() && self.history.iter().filter(|&&k| k == key).count() >= REPETITIONS {
            self.end = Some(End::Repetition);
        }
        if mover == BLACK {
            self.offer_draw_when_due();
        }
        if self.end.is_some() {
            log.record(|| Event::new(self.outcome().expect("the game has ended").reason));
        }
    }
}

impl Game for Batisseurs {
    type Move = Move;

    fn manifest() -> Manifest {
        scene::manifest()
    }

    fn new(_setup: &Setup) -> Result<Self, GameError> {
        // No options and no randomness: every game starts the same way.
        Ok(Batisseurs::initial())
    }

    fn status(&self) -> Status {
        match self.outcome() {
            Some(outcome) => Status::Finished { outcome },
            None if self.draw_offer.is_some() => Status::ToAct {
                seats: self.draw_offered_to(),
            },
            None => Status::to_act(self.to_move),
        }
    }

    fn seats_to_act(&self, out: &mut Vec<Seat>) -> bool {
        out.clear();
        if self.end.is_some() {
            return false;
        }
        if self.draw_offer.is_some() {
            // Rare (the safety limit): this may allocate.
            out.extend(self.draw_offered_to());
        } else {
            out.push(self.to_move);
        }
        true
    }

    fn moves(&self, seat: Seat) -> Vec<Move> {
        let mut moves = Vec::with_capacity(64);
        self.moves_into(seat, &mut moves);
        moves
    }

    fn moves_into(&self, seat: Seat, moves: &mut Vec<Move>) {
        moves.clear();
        if self.draw_offer.is_some() {
            moves.extend(self.draw_answers(seat));
            return;
        }
        if seat != self.to_move || self.end.is_some() {
            return;
        }
        self.each_move(seat, &mut |mv| {
            moves.push(mv);
            false
        });
        // BT-E3: a player with no legal move passes (and only then).
        if moves.is_empty() {
            moves.push(Move::Pass);
        }
    }

    fn describe(&self, seat: Seat, mv: &Move) -> Action {
        let path = match (Self::motion(mv), self.primary_squares(seat, mv)) {
            (Some((part, dc, dr)), Some((_, to))) => {
                let first = rules::primary(part);
                let dest = scene::cell_target(to);
                let mut path = vec![Target::piece(Self::piece_id(seat, first)), dest.clone()];
                // Several parts led by the same piece make the same move: the player then
                // clicks the other pieces of the part (in piece order), then the destination
                // again. Such paths never are a prefix of one another.
                let rivals = self
                    .moves(seat)
                    .iter()
                    .filter(|other| match other {
                        Move::Shift {
                            part: p,
                            dc: c,
                            dr: r,
                        } => rules::primary(*p) == first && (*c, *r) == (dc, dr),
                        _ => false,
                    })
                    .count();
                if rivals > 1 {
                    for i in first + 1..PIECES {
                        if part & (1 << i) != 0 {
                            path.push(Target::piece(Self::piece_id(seat, i)));
                        }
                    }
                    path.push(dest);
                }
                path
            }
            _ => Vec::new(),
        };
        Action::new(self.move_id(seat, mv), self.label(seat, mv), path)
    }

    fn evaluate(&self, seat: Seat) -> f32 {
        eval::evaluate(self, seat)
    }

    fn move_id(&self, seat: Seat, mv: &Move) -> String {
        let mut id = String::with_capacity(12);
        let Some((from, to)) = self.primary_squares(seat, mv) else {
            id.push_str(match mv {
                Move::AcceptDraw => "accept-draw",
                Move::PlayOn => "play-on",
                _ => "pass",
            });
            return id;
        };
        if matches!(mv, Move::Jump { .. }) {
            id.push_str("jump-");
        }
        board::push_name(&mut id, from);
        id.push('-');
        board::push_name(&mut id, to);
        if let Move::Shift { part, .. } = *mv {
            for i in rules::primary(part) + 1..PIECES {
                if part & (1 << i) != 0 {
                    id.push('+');
                    board::push_name(&mut id, self.at[seat as usize][i as usize]);
                }
            }
        }
        id
    }

    fn play(&mut self, seat: Seat, mv: &Move, log: &mut Log) {
        if let Move::AcceptDraw | Move::PlayOn = *mv {
            self.answer_draw(seat, *mv == Move::AcceptDraw, log);
            return;
        }
        debug_assert_eq!(seat, self.to_move);
        log.record(|| Event::new(self.label(seat, mv)));
        match Self::motion(mv) {
            Some((part, dc, dr)) => {
                let at = &mut self.at[seat as usize];
                let offset = dr as i16 * board::SIZE as i16 + dc as i16;
                let from = at[rules::primary(part) as usize];
                for (i, square) in at.iter_mut().enumerate() {
                    if part & (1 << i) != 0 {
                        *square = (*square as i16 + offset) as Sq;
                    }
                }
                self.last = Some(LastMove {
                    seat,
                    part,
                    from,
                    to: at[rules::primary(part) as usize],
                    jump: matches!(mv, Move::Jump { .. }),
                });
            }
            None => self.last = None,
        }
        self.finish_ply(log);
    }

    fn view(&self, _viewer: Option<Seat>) -> Scene {
        // Perfect information: every viewer sees the same scene.
        scene::view(self)
    }

    fn query(&self, name: &str, args: &serde_json::Value) -> Result<serde_json::Value, GameError> {
        ops::query(self, name, args)
    }

    fn command(
        &mut self,
        name: &str,
        args: &serde_json::Value,
    ) -> Result<serde_json::Value, GameError> {
        ops::command(self, name, args)
    }
}

veillee_sdk::export_game!(Batisseurs);
