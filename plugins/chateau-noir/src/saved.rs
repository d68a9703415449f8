//! The saved form of a game: readable, deterministic JSON.
//!
//! Pieces are listed by id in a fixed order (`green-captain`, `green-1` … `yellow-8`);
//! captured pieces are absent. Coups are written `c3-c4`. Loading checks that the position
//! makes sense, so a bad save is refused instead of misbehaving later.

use serde::{Deserialize, Serialize};
use veillee_sdk::GameRng;

use crate::board::{self, bit, Pc, Sq, CELLS, NONE, PIECES};
use crate::safety::first_draw_offer;
use crate::{ChateauNoir, Ending, Phase};

fn is_first_draw_offer(at: &u32) -> bool {
    *at == first_draw_offer()
}

#[derive(Serialize, Deserialize)]
pub(crate) struct Saved {
    players: u8,
    teams: bool,
    round: u32,
    turn: u32,
    active: u8,
    phase: SavedPhase,
    /// The seat asked whether to demand a new round (phase `round_over`) or to accept the
    /// safety net's draw (phase `draw_offer`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    asking: Option<u8>,
    /// The turns played at which the safety net next offers a draw (absent while it is the
    /// first offer, so that saves stay as they were).
    #[serde(
        default = "first_draw_offer",
        skip_serializing_if = "is_first_draw_offer"
    )]
    draw_offer_at: u32,
    pieces: Vec<SavedPiece>,
    scores: Vec<i32>,
    table: Vec<u8>,
    ready: Vec<u8>,
    sim: Vec<u8>,
    declared: u8,
    coups: u8,
    current: Option<String>,
    trail_start: usize,
    done: Vec<String>,
    this_turn: Vec<String>,
    prev_turn: Vec<String>,
    capturable: Vec<String>,
    last_turn_of: Vec<u32>,
    draw_votes: u8,
    voted: bool,
    rng: GameRng,
    ending: Option<SavedEnding>,
    /// House rule « Prise en diagonale » (absent when off, so plain games save as before).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    diagonal_flanking: bool,
    /// Points taken off per side by `penalise` (absent when none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    penalties: Option<Vec<u32>>,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum SavedPhase {
    Coups,
    Captures,
    /// X.2: the end of a round; `asking` names the seat asked.
    RoundOver,
    /// The safety net's draw offer; `asking` names the seat asked.
    DrawOffer,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum SavedEnding {
    Points(u8),
    ChateauNoir(u8),
    Agreed,
    TurnLimit,
    OnPoints,
}

#[derive(Serialize, Deserialize)]
struct SavedPiece {
    id: String,
    at: String,
    #[serde(default)]
    arrived: u32,
    #[serde(default)]
    walked_in: bool,
    #[serde(default)]
    siege: u8,
}

fn coup_name(&(from, to): &(Sq, Sq)) -> String {
    format!("{}-{}", board::name(from), board::name(to))
}

fn pieces_of(mask: u64) -> Vec<String> {
    (0..PIECES as Pc)
        .filter(|&p| mask & (1 << p) != 0)
        .map(board::piece_id)
        .collect()
}

impl From<ChateauNoir> for Saved {
    fn from(g: ChateauNoir) -> Self {
        Saved {
            players: g.players,
            teams: g.teams,
            round: g.round,
            turn: g.turn,
            active: g.active,
            phase: match g.phase {
                Phase::Coups => SavedPhase::Coups,
                Phase::Captures => SavedPhase::Captures,
                Phase::RoundOver { .. } => SavedPhase::RoundOver,
                Phase::DrawOffer { .. } => SavedPhase::DrawOffer,
            },
            asking: match g.phase {
                Phase::RoundOver { asking } | Phase::DrawOffer { asking } => Some(asking),
                _ => None,
            },
            draw_offer_at: g.draw_offer_at,
            pieces: (0..PIECES as Pc)
                .filter(|&p| g.pos[p as usize] != NONE)
                .map(|p| SavedPiece {
                    id: board::piece_id(p),
                    at: board::name(g.pos[p as usize]),
                    arrived: g.arrived[p as usize],
                    walked_in: g.walked_in & (1 << p) != 0,
                    siege: g.siege[p as usize],
                })
                .collect(),
            scores: g.scores.to_vec(),
            table: g.table.to_vec(),
            ready: g.ready.to_vec(),
            sim: g.sim.to_vec(),
            declared: g.declared,
            coups: g.coups,
            current: g.current.map(board::piece_id),
            trail_start: g.trail_start,
            done: pieces_of(g.done),
            this_turn: g.this_turn.iter().map(coup_name).collect(),
            prev_turn: g.prev_turn.iter().map(coup_name).collect(),
            capturable: pieces_of(g.capturable),
            last_turn_of: g.last_turn_of.to_vec(),
            draw_votes: g.draw_votes,
            voted: g.voted,
            rng: g.rng,
            ending: g.ending.map(|e| match e {
                Ending::Points(s) => SavedEnding::Points(s),
                Ending::ChateauNoir(s) => SavedEnding::ChateauNoir(s),
                Ending::Agreed => SavedEnding::Agreed,
                Ending::TurnLimit => SavedEnding::TurnLimit,
                Ending::OnPoints => SavedEnding::OnPoints,
            }),
            diagonal_flanking: g.diagonal_flanking,
            penalties: (g.penalties != [0; 4]).then(|| g.penalties.to_vec()),
        }
    }
}

fn square(name: &str) -> Result<Sq, String> {
    board::parse(name).ok_or_else(|| format!("`{name}` is not a square of the board"))
}

fn piece(id: &str) -> Result<Pc, String> {
    board::parse_piece(id).ok_or_else(|| format!("`{id}` is not a piece of Château Noir"))
}

fn coups(list: &[String]) -> Result<Vec<(Sq, Sq)>, String> {
    list.iter()
        .map(|c| {
            let (from, to) = c
                .split_once('-')
                .ok_or_else(|| format!("`{c}` is not a coup"))?;
            Ok((square(from)?, square(to)?))
        })
        .collect()
}

fn mask(list: &[String]) -> Result<u64, String> {
    list.iter()
        .try_fold(0u64, |m, id| Ok(m | (1 << piece(id)?)))
}

fn four<T: Copy + Default>(v: &[T], what: &str) -> Result<[T; 4], String> {
    <[T; 4]>::try_from(v).map_err(|_| format!("`{what}` must have 4 entries"))
}

impl TryFrom<Saved> for ChateauNoir {
    type Error = String;

    fn try_from(s: Saved) -> Result<Self, String> {
        if !(2..=4).contains(&s.players) || (s.players < 4 && !s.teams) {
            return Err("2–4 players, and 2 or 3 players always play in teams".into());
        }
        if s.active > 3 {
            return Err(format!("there is no army {}", s.active));
        }
        let mut g = ChateauNoir::blank(s.players, s.teams, 0);
        for sp in &s.pieces {
            let p = piece(&sp.id)?;
            let at = square(&sp.at)?;
            if g.pos[p as usize] != NONE {
                return Err(format!("piece `{}` is listed twice", sp.id));
            }
            if g.board[at as usize] != 0 {
                return Err(format!("two pieces stand on {}", sp.at));
            }
            g.pos[p as usize] = at;
            g.board[at as usize] = p + 1;
            g.arrived[p as usize] = sp.arrived;
            if sp.walked_in {
                g.walked_in |= 1 << p;
            }
            g.siege[p as usize] = sp.siege;
        }
        g.round = s.round;
        g.turn = s.turn;
        g.active = s.active;
        g.phase = match (s.phase, s.asking) {
            (SavedPhase::Coups, None) => Phase::Coups,
            (SavedPhase::Captures, None) => Phase::Captures,
            (SavedPhase::RoundOver, Some(asking)) if asking < s.players => {
                Phase::RoundOver { asking }
            }
            (SavedPhase::DrawOffer, Some(asking)) if asking < s.players => {
                Phase::DrawOffer { asking }
            }
            _ => {
                return Err(
                    "`asking` names a seat in the `round_over` and `draw_offer` phases only".into(),
                )
            }
        };
        g.draw_offer_at = s.draw_offer_at;
        g.scores = four(&s.scores, "scores")?;
        g.table = four(&s.table, "table")?;
        if g.table.iter().any(|&t| t > 3) {
            return Err("a colour table index is 0–3".into());
        }
        g.ready = four(&s.ready, "ready")?;
        g.sim = four(&s.sim, "sim")?;
        g.declared = s.declared;
        g.coups = s.coups;
        g.current = s.current.as_deref().map(piece).transpose()?;
        g.done = mask(&s.done)?;
        g.this_turn = coups(&s.this_turn)?;
        g.prev_turn = coups(&s.prev_turn)?;
        g.capturable = mask(&s.capturable)?;
        g.last_turn_of = four(&s.last_turn_of, "last_turn_of")?;
        if s.draw_votes >= 1 << s.players {
            return Err("draw agreements name unknown seats".into());
        }
        g.draw_votes = s.draw_votes;
        g.voted = s.voted;
        g.rng = s.rng;
        g.ending = s.ending.map(|e| match e {
            SavedEnding::Points(s) => Ending::Points(s),
            SavedEnding::ChateauNoir(s) => Ending::ChateauNoir(s),
            SavedEnding::Agreed => Ending::Agreed,
            SavedEnding::TurnLimit => Ending::TurnLimit,
            SavedEnding::OnPoints => Ending::OnPoints,
        });
        g.diagonal_flanking = s.diagonal_flanking;
        if let Some(penalties) = &s.penalties {
            g.penalties = four(penalties, "penalties")?;
        }
        if g.coups > g.factor(g.active) {
            return Err("more coups than the movement factor".into());
        }
        // The moving piece: its trail is the end of this turn's coups (CN-T3).
        if let Some(p) = g.current {
            let trail = g
                .this_turn
                .get(s.trail_start..)
                .filter(|t| !t.is_empty())
                .ok_or("the moving piece has no coup this turn")?;
            if trail.last().map(|c| c.1) != Some(g.pos[p as usize]) {
                return Err("the moving piece is not where its last coup went".into());
            }
            g.trail_start = s.trail_start;
            g.visited = trail.iter().fold(bit(trail[0].0), |v, c| v | bit(c.1));
        }
        if matches!(g.phase, Phase::DrawOffer { .. }) && g.turns_played() < g.draw_offer_at {
            return Err("the safety net's draw is not due yet".into());
        }
        if matches!(g.phase, Phase::RoundOver { .. }) && !g.round_over() {
            return Err("the round is not over: two sides still have pieces".into());
        }
        if g.capturable & !pieces_alive(&g) != 0 {
            return Err("a captured piece cannot be taken".into());
        }
        debug_assert!(g.board.iter().filter(|&&c| c != 0).count() <= CELLS);
        Ok(g)
    }
}

fn pieces_alive(g: &ChateauNoir) -> u64 {
    (0..PIECES as Pc)
        .filter(|&p| g.pos[p as usize] != NONE)
        .fold(0, |m, p| m | (1 << p))
}
