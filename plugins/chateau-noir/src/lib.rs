//! # Château Noir
//!
//! A 1983 strategy game for two to four players: four armies of a captain and eight soldiers
//! cross a medieval castle, flank and capture enemy pieces, occupy the coloured territories
//! and score to 27 points in five ways. The rules are `shared/rules/chateau-noir.md`;
//! comments cite its rule ids (`CN-M2`). The board and the basic moves are the spec's
//! reconstruction: see this crate's README.md.
//!
//! Action ids: `c3-c4` (one coup: a step or a jump of the piece on `c3`), `end-coups` (stop
//! moving), `take-e5` (take the flanked enemy piece on `e5`), `end-turn` (take nothing more),
//! `alliance` (CN-A1), `draw` (agree to a draw, CN-E3), `new-round` / `end-match` (at the
//! end of a round, X.2), `accept-draw` / `play-on` (the safety net's draw offer).

mod blocking;
mod board;
mod diagram;
mod eval;
mod game;
mod ops;
mod rules;
mod safety;
mod saved;
mod scene;
mod scoring;
mod sides;
mod turn;
mod words;

#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};
use veillee_sdk::{GameRng, Seat};

use board::{Pc, Sq, CELLS, PIECES};

/// Points that win (CN-E1).
pub const TARGET: i32 = 27;
/// An army's movement factor (CN-T1).
pub const FACTOR: u8 = 6;
/// The movement factor of two armies in a team alliance (CN-A2).
pub const ALLIED_FACTOR: u8 = 12;
/// The safety net, not a rule of the original (whose players agree on a draw, CN-E3): after
/// this many turns (of all armies, over the whole match) every player in turn is asked to
/// accept a draw or play on; the match is drawn only if all accept.
pub const DRAW_OFFER_TURNS: u32 = 2000;
/// While the players play on, the safety net asks again after this many more turns.
pub const DRAW_REOFFER_TURNS: u32 = 100;
/// A piece besieged at the start of this many consecutive turns of its army is captured
/// (three turns besieged, taken at the start of the fourth: CN-S7).
pub const SIEGE_CAPTURE: u8 = 4;
/// The id of the board in the scene.
pub const BOARD_ID: &str = "board";

/// Where the turn stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The army to move plays its coups (CN-T).
    Coups,
    /// The coups are over: the army chooses which flanked enemies to take (CN-C2).
    Captures,
    /// The round is over without 27 points: this seat, an opponent of the side left on the
    /// board, chooses whether to demand a new round (X.2, CN-E2).
    RoundOver {
        /// The seat asked now.
        asking: Seat,
    },
    /// The safety net ([`DRAW_OFFER_TURNS`]): the players are asked one after the other,
    /// from the one after the last army's player, whether to accept a draw; this seat now.
    DrawOffer {
        /// The seat asked now.
        asking: Seat,
    },
}

/// How the match ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// This side reached 27 points (CN-E1).
    Points(u8),
    /// This side left every opposing army unable to move (CN-S5).
    ChateauNoir(u8),
    /// Every player agreed to a draw (CN-E3).
    Agreed,
    /// Every player accepted the draw the safety net offered ([`DRAW_OFFER_TURNS`]).
    TurnLimit,
    /// A round ended without 27 points and no opponent demanded a new one: the match ends on
    /// the points (X.2).
    OnPoints,
}

/// A legal move: small, `Copy`, never a string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// One coup: the piece on `from` steps or jumps to `to` (`c3-c4`).
    Coup {
        /// Square left.
        from: Sq,
        /// Square reached.
        to: Sq,
    },
    /// Stop moving before the movement factor is used up (`end-coups`).
    EndCoups,
    /// Take the flanked enemy piece on this square (`take-e5`).
    Take(Sq),
    /// Take nothing more and end the turn (`end-turn`).
    EndTurn,
    /// Declare a team alliance instead of playing (`alliance`, CN-A1).
    Alliance,
    /// Agree to a draw (`draw`, CN-E3): the match is drawn once every player agreed, each
    /// at the start of one of their turns, in one unbroken table round.
    AgreeDraw,
    /// At the end of a round, demand a new one (`new-round`, X.2).
    NewRound,
    /// At the end of a round, let the match end on the points (`end-match`, X.2).
    EndMatch,
    /// Accept the draw offered by the safety net (`accept-draw`).
    AcceptDraw,
    /// Refuse it: the match goes on (`play-on`).
    PlayOn,
}

/// A game (a match of one or more rounds) of Château Noir: the whole state.
///
/// It serializes to a readable JSON object (see `saved.rs`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "saved::Saved", try_from = "saved::Saved")]
pub struct ChateauNoir {
    /// Number of players (2–4).
    players: u8,
    /// Whether the armies play in two teams, Green+Blue against Red+Yellow.
    teams: bool,
    /// `piece + 1` on every square, 0 when empty.
    board: [u8; CELLS],
    /// Every piece's square, [`NONE`] once captured.
    pos: [Sq; PIECES],
    /// The turn in which each piece last arrived on its square (0: placed at the start).
    arrived: [u32; PIECES],
    /// Pieces that arrived between two hostile pieces (a bit per piece, CN-C3).
    walked_in: u64,
    /// Consecutive starts of its army's turns at which each piece was besieged (CN-S7).
    siege: [u8; PIECES],
    /// Points per side (army, or team in team games); negative while a debt is owed (CN-S1).
    scores: [i32; 4],
    /// Per army, the index (0–3) of the next territory of its colour table (CN-S2).
    table: [u8; 4],
    /// Per army, the territories (bit per army index) it has occupied since before its
    /// previous turn ended (CN-S2).
    ready: [u8; 4],
    /// Per army, territory points of this turn that can still make a simultanée (CN-S3):
    /// the table index reached, or 255 once the chain is broken.
    sim: [u8; 4],
    /// Armies that declared a team alliance (a bit per army, CN-A).
    declared: u8,
    /// The army whose turn it is.
    active: u8,
    /// Where the turn stands.
    phase: Phase,
    /// Coups played this turn.
    coups: u8,
    /// The piece moving now (CN-T2).
    current: Option<Pc>,
    /// Where the moving piece's coups start in `this_turn`.
    trail_start: usize,
    /// Pieces done for this turn (a bit per piece, CN-T2).
    done: u64,
    /// Squares the moving piece has stood on this turn (CN-T3).
    visited: u128,
    /// The coups of this turn.
    this_turn: Vec<(Sq, Sq)>,
    /// The coups of the previous turn (for the scene).
    prev_turn: Vec<(Sq, Sq)>,
    /// Pieces the army may still take (a bit per piece) in the capture phase.
    capturable: u64,
    /// Number of the turn being played, from 1, over the whole match.
    turn: u32,
    /// The number of turns played at which the safety net next offers a draw.
    draw_offer_at: u32,
    /// Per army, the number of its last finished turn (0: none yet this round).
    last_turn_of: [u32; 4],
    /// Round of the match, from 1 (CN-E2).
    round: u32,
    /// Seats that agreed to a draw in the current unbroken chain of turns (a bit per seat,
    /// CN-E3).
    draw_votes: u8,
    /// Whether the player to move agreed to a draw in this turn.
    voted: bool,
    /// The seeded generator that draws the first army of every round.
    rng: GameRng,
    /// How the match ended.
    ending: Option<Ending>,
    /// House rule « Prise en diagonale » (set by the `allow_diagonal_flanking` command, see
    /// `ops.rs`): a piece between two pieces of one side on a diagonal is flanked too, for
    /// captures (CN-C1) and for immunity (CN-C3). Off under the plain rules.
    diagonal_flanking: bool,
    /// Points taken off each side by the `penalise` command (house rule « Partie
    /// chronométrée », XI.2), already counted in `scores`; shown in the scene.
    penalties: [u32; 4],
}

veillee_sdk::export_game!(ChateauNoir);
