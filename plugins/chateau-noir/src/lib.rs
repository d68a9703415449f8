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
//! `alliance` (CN-A1), `draw` (agree to a draw, CN-E3).

mod board;
mod ops;
mod rules;
mod saved;
mod scene;
#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};
use veillee_sdk::{
    text, Action, Event, Game, GameError, GameRng, Log, Manifest, Outcome, Scene, Seat, Setup,
    Status, Target, Text,
};

use board::{army_of, is_captain, territory, Pc, Sq, ARMY_NAMES, CELLS, NONE, PIECES};

/// Points that win (CN-E1).
pub const TARGET: i32 = 27;
/// An army's movement factor (CN-T1).
pub const FACTOR: u8 = 6;
/// The movement factor of two armies in a team alliance (CN-A2).
pub const ALLIED_FACTOR: u8 = 12;
/// Turns (of all armies, over the whole match) after which the match is drawn, so that
/// every game ends (interpretation: the players are deemed to agree to a draw, CN-E3).
pub const TURN_LIMIT: u32 = 2000;
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
    /// [`TURN_LIMIT`] turns were played.
    TurnLimit,
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

impl ChateauNoir {
    // -----------------------------------------------------------------------------------
    // Seats, sides and units

    /// The seat that commands an army. Seats: 4 players Green, Red, Yellow, Blue; 3 players
    /// Green+Blue, Red, Yellow; 2 players Green+Blue, Red+Yellow.
    pub fn controller(&self, army: u8) -> Seat {
        match (self.players, army) {
            (_, 0) => 0,
            (_, 1) => 1,
            (4, 2) => 3,
            (_, 2) => 0,
            (2, _) => 1,
            _ => 2,
        }
    }

    /// The side an army scores for: its team in team games, else itself.
    pub fn side(&self, army: u8) -> u8 {
        if self.teams {
            army & 1
        } else {
            army
        }
    }

    /// Number of sides.
    pub fn sides(&self) -> u8 {
        if self.teams {
            2
        } else {
            4
        }
    }

    /// The side a seat plays for.
    pub fn seat_side(&self, seat: Seat) -> u8 {
        let army = (0..4).find(|&a| self.controller(a) == seat).unwrap_or(0);
        self.side(army)
    }

    /// The armies that play in `army`'s turn: itself, plus its partner when the partner
    /// declared a team alliance (CN-A2). A bit per army.
    pub fn unit(&self, army: u8) -> u8 {
        let partner = army ^ 2;
        if self.teams && self.declared & (1 << partner) != 0 {
            (1 << army) | (1 << partner)
        } else {
            1 << army
        }
    }

    /// The movement factor of `army`'s turn (CN-T1, CN-A2).
    pub fn factor(&self, army: u8) -> u8 {
        if self.unit(army).count_ones() == 2 {
            ALLIED_FACTOR
        } else {
            FACTOR
        }
    }

    /// Whether any army of `unit` (a bit per army) still has a piece on the board.
    fn alive(&self, unit: u8) -> bool {
        (0..PIECES as Pc).any(|p| unit & (1 << army_of(p)) != 0 && self.pos[p as usize] != NONE)
    }

    /// Whether `army` gets turns: it has pieces (or its ally has) and did not hand its turns
    /// to its partner (CN-A2).
    fn playable(&self, army: u8) -> bool {
        self.declared & (1 << army) == 0 && self.alive(self.unit(army))
    }

    /// Whether an army has a piece in a territory.
    fn present(&self, army: u8, territory: u8) -> bool {
        board::territory_squares(territory).iter().any(|&s| {
            let q = self.board[s as usize];
            q != 0 && army_of(q - 1) == army
        })
    }

    /// The territories (a bit per army index) where an army has pieces.
    fn presence(&self, army: u8) -> u8 {
        (0..4)
            .filter(|&t| self.present(army, t))
            .fold(0, |m, t| m | (1 << t))
    }

    /// The territory an army must leave next (CN-S2): its colour table is the next three
    /// territories clockwise, then its own.
    pub fn next_target(&self, army: u8) -> u8 {
        (army + 1 + self.table[army as usize]) % 4
    }

    /// A side's points as shown: 0 while a debt is owed (CN-S1).
    pub fn shown_score(&self, side: u8) -> i32 {
        self.scores[side as usize].max(0)
    }

    /// The raw points of a side (negative: a debt).
    pub fn score(&self, side: u8) -> i32 {
        self.scores[side as usize]
    }

    /// The round of the match (CN-E2).
    pub fn round(&self) -> u32 {
        self.round
    }

    /// The number of the turn being played.
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// How the match ended, if it has.
    pub fn ending(&self) -> Option<Ending> {
        self.ending
    }

    // -----------------------------------------------------------------------------------
    // Rounds and turns

    /// An empty state before the first round.
    fn blank(players: u8, teams: bool, seed: u64) -> Self {
        ChateauNoir {
            players,
            teams,
            board: [0; CELLS],
            pos: [NONE; PIECES],
            arrived: [0; PIECES],
            walked_in: 0,
            siege: [0; PIECES],
            scores: [0; 4],
            table: [0; 4],
            ready: [0; 4],
            sim: [0; 4],
            declared: 0,
            active: 0,
            phase: Phase::Coups,
            coups: 0,
            current: None,
            trail_start: 0,
            done: 0,
            visited: 0,
            this_turn: Vec::new(),
            prev_turn: Vec::new(),
            capturable: 0,
            turn: 1,
            last_turn_of: [0; 4],
            round: 0,
            draw_votes: 0,
            voted: false,
            rng: GameRng::new(seed),
            ending: None,
            diagonal_flanking: false,
            penalties: [0; 4],
        }
    }

    /// Puts every piece on its start square and clears everything but the scores (CN-E2).
    fn set_pieces(&mut self) {
        self.board = [0; CELLS];
        for p in 0..PIECES as Pc {
            let s = board::start_square(p);
            self.board[s as usize] = p + 1;
            self.pos[p as usize] = s;
        }
        self.arrived = [0; PIECES];
        self.walked_in = 0;
        self.siege = [0; PIECES];
        self.table = [0; 4];
        self.ready = [0; 4];
        self.sim = [0; 4];
        self.declared = 0;
        self.last_turn_of = [0; 4];
        self.prev_turn.clear();
        self.this_turn.clear();
    }

    /// Starts a new round: pieces back in place, scores kept, a random first army (CN-E2).
    fn new_round(&mut self, log: &mut Log) {
        self.round += 1;
        self.set_pieces();
        let first = self.rng.below(4) as u8;
        if self.round > 1 {
            let round = self.round;
            log.record(|| {
                Event::new(text(
                    format!("Nouvelle manche ({round}) : les pièces reprennent leur place"),
                    format!("New round ({round}): every piece goes back in place"),
                ))
            });
        }
        self.advance(first, true, log);
    }

    /// Gives the turn to the next army (clockwise from `army`, or `army` itself when
    /// `include` is set) that can play, handling château (CN-S4) and sieges (CN-S7) at the
    /// start of each turn.
    fn advance(&mut self, mut army: u8, include: bool, log: &mut Log) {
        let mut first = include;
        for _ in 0..32 {
            if !first {
                army = (army + 1) % 4;
            }
            first = false;
            if !self.playable(army) {
                continue;
            }
            if self.start_turn(army, log) {
                return;
            }
            if self.ending.is_some() {
                return;
            }
            if self.round_over() {
                self.new_round(log);
                return;
            }
        }
        debug_assert!(false, "no army can play");
        self.ending = Some(Ending::TurnLimit);
    }

    /// The start of `army`'s turn. Returns `false` when the army lost its turn (château, or
    /// its last pieces fell to a siege).
    fn start_turn(&mut self, army: u8, log: &mut Log) -> bool {
        let unit = self.unit(army);
        // CN-S4: an army that cannot carry out its full movement factor is captured whole.
        if !self.can_make_factor(unit, self.factor(army)) {
            self.chateau(army, unit, log);
            return false;
        }
        // CN-S7: sieges are counted at the start of the besieged army's turns.
        let mut fallen = Vec::new();
        for p in 0..PIECES as Pc {
            if unit & (1 << army_of(p)) == 0 || self.pos[p as usize] == NONE {
                continue;
            }
            if self.besieged(p) {
                self.siege[p as usize] += 1;
                if self.siege[p as usize] >= SIEGE_CAPTURE {
                    fallen.push(p);
                }
            } else {
                self.siege[p as usize] = 0;
            }
        }
        for p in fallen {
            let taker = self.siege_taker(p);
            let at = self.pos[p as usize];
            log.record(|| {
                Event::new(text(
                    format!(
                        "Siège : {} en {} est pris par l'armée {}",
                        piece_noun_fr(p),
                        board::name(at),
                        army_name_fr(taker)
                    ),
                    format!(
                        "Siege: the {} on {} is taken by {}",
                        piece_noun_en(p),
                        board::name(at),
                        ARMY_NAMES[taker as usize].1
                    ),
                ))
            });
            self.remove_piece(p, taker, log);
            if self.ending.is_some() {
                return false;
            }
        }
        if !self.alive(unit) {
            return false;
        }
        self.active = army;
        self.phase = Phase::Coups;
        self.coups = 0;
        self.current = None;
        self.trail_start = 0;
        self.done = 0;
        self.visited = 0;
        self.this_turn.clear();
        self.sim = [0; 4];
        self.capturable = 0;
        self.voted = false;
        true
    }

    /// CN-S7: the enemy army that takes a besieged piece: the one with most pieces
    /// orthogonally next to it, ties going to the one that played last.
    fn siege_taker(&self, p: Pc) -> u8 {
        let s = self.pos[p as usize];
        let mine = self.side(army_of(p));
        let mut count = [0u8; 4];
        for (dc, dr) in board::ORTHOGONAL {
            if let Some(n) = board::offset(s, dc, dr) {
                let q = self.board[n as usize];
                if q != 0 && self.side(army_of(q - 1)) != mine {
                    count[army_of(q - 1) as usize] += 1;
                }
            }
        }
        (0..4u8)
            .filter(|&a| count[a as usize] > 0)
            .max_by_key(|&a| (count[a as usize], self.last_turn_of[a as usize]))
            .unwrap_or_else(|| self.last_enemy(army_of(p)))
    }

    /// The enemy of `army` that played last (CN-S4's "army that played last"); before anyone
    /// played, the nearest enemy counter-clockwise.
    fn last_enemy(&self, army: u8) -> u8 {
        let mine = self.side(army);
        (1..4u8)
            .map(|k| (army + 4 - k) % 4)
            .filter(|&a| self.side(a) != mine)
            .max_by_key(|&a| (self.last_turn_of[a as usize], 4 - ((army + 4 - a) % 4)))
            .unwrap_or((army + 3) % 4)
    }

    /// CN-S4: the army (its whole unit) is captured for the enemy that played last: a point
    /// per soldier, 3 for a captain (the victim's side loses 3), 5 more, and 2 per army wiped
    /// out (CN-S6).
    fn chateau(&mut self, army: u8, unit: u8, log: &mut Log) {
        let taker = self.last_enemy(army);
        log.record(|| {
            Event::new(text(
                format!(
                    "Château ! L'armée {} ne peut plus faire ses coups : elle est prise entière \
                     par l'armée {}",
                    army_name_fr(army),
                    army_name_fr(taker)
                ),
                format!(
                    "Château! {} cannot make its moves any more: the whole army is taken by {}",
                    ARMY_NAMES[army as usize].1, ARMY_NAMES[taker as usize].1
                ),
            ))
        });
        self.add_points(self.side(taker), 5);
        for p in 0..PIECES as Pc {
            if unit & (1 << army_of(p)) != 0 && self.pos[p as usize] != NONE {
                self.remove_piece(p, taker, log);
            }
        }
    }

    /// Whether at most one side still has pieces on the board (CN-E2).
    fn round_over(&self) -> bool {
        let mut sides = 0u8;
        for p in 0..PIECES as Pc {
            if self.pos[p as usize] != NONE {
                sides |= 1 << self.side(army_of(p));
            }
        }
        sides.count_ones() <= 1
    }

    /// Adds points to a side; reaching 27 wins at once (CN-E1).
    fn add_points(&mut self, side: u8, points: i32) {
        self.scores[side as usize] += points;
        if points > 0 && self.scores[side as usize] >= TARGET && self.ending.is_none() {
            self.ending = Some(Ending::Points(side));
        }
    }

    /// Takes a piece off the board for `taker`'s army, with its points (CN-S1, CN-S6) and
    /// consequences (CN-A3, CN-S2 occupation).
    fn remove_piece(&mut self, p: Pc, taker: u8, log: &mut Log) {
        let s = self.pos[p as usize];
        debug_assert!(s != NONE);
        self.board[s as usize] = 0;
        self.pos[p as usize] = NONE;
        self.walked_in &= !(1 << p);
        self.siege[p as usize] = 0;
        self.arrived[p as usize] = 0;
        let victim = army_of(p);
        let gain = self.side(taker);
        if is_captain(p) {
            // CN-S1: 3 for the taker, 3 off the captain's side (a debt below zero).
            self.add_points(gain, 3);
            let lose = self.side(victim);
            self.scores[lose as usize] -= 3;
            // CN-A3: the alliance ends with the declaring captain.
            if self.declared & (1 << victim) != 0 {
                self.declared &= !(1 << victim);
                log.record(|| {
                    Event::new(text(
                        "L'alliance d'équipes prend fin",
                        "The team alliance is over",
                    ))
                });
            }
        } else {
            self.add_points(gain, 1);
        }
        // CN-S2: an occupation ends when the army's last piece leaves the territory.
        if let Some(t) = territory(s) {
            if !self.present(victim, t) {
                self.ready[victim as usize] &= !(1 << t);
            }
        }
        // CN-S6: 2 more for wiping out an army.
        if !self.alive(1 << victim) {
            self.add_points(gain, 2);
            log.record(|| {
                Event::new(text(
                    format!(
                        "L'armée {} est entièrement prise (+2)",
                        army_name_fr(victim)
                    ),
                    format!("{} is wiped out (+2)", ARMY_NAMES[victim as usize].1),
                ))
            });
        }
    }

    /// One coup (CN-T, CN-M), with the territory points it may score (CN-S2, CN-S3).
    fn play_coup(&mut self, from: Sq, to: Sq, log: &mut Log) {
        let p = self.board[from as usize] - 1;
        // CN-T2: moving another piece ends the previous one's move for this turn.
        if self.current != Some(p) {
            if let Some(c) = self.current {
                self.done |= 1 << c;
            }
            self.current = Some(p);
            self.trail_start = self.this_turn.len();
            self.visited = board::bit(from);
        }
        self.board[from as usize] = 0;
        self.board[to as usize] = p + 1;
        self.pos[p as usize] = to;
        self.visited |= board::bit(to);
        self.this_turn.push((from, to));
        self.arrived[p as usize] = self.turn;
        // CN-C3: remember whether it walked in between two hostile pieces.
        if self.flanked_by_hostile(p, to) {
            self.walked_in |= 1 << p;
        } else {
            self.walked_in &= !(1 << p);
        }
        self.leave_territory(p, from, to, log);
        self.coups += 1;
        if self.ending.is_none() && self.coups >= self.factor(self.active) {
            self.finish_coups(log);
        }
    }

    /// CN-S2/CN-S3: a piece moving out of a territory.
    fn leave_territory(&mut self, p: Pc, from: Sq, to: Sq, log: &mut Log) {
        let Some(t) = territory(from) else {
            return;
        };
        if territory(to) == Some(t) {
            return;
        }
        let a = army_of(p);
        let ai = a as usize;
        let index = self.table[ai];
        if self.next_target(a) == t {
            let own = t == a;
            let occupied = self.ready[ai] & (1 << t) != 0;
            // CN-S2: 1 for another territory occupied a full table round; 2 for the own
            // territory, which needs no waiting.
            if own || occupied {
                let points = if own { 2 } else { 1 };
                self.add_points(self.side(a), points);
                self.table[ai] = (index + 1) % 4;
                self.ready[ai] &= !(1 << t);
                log.record(|| {
                    Event::new(text(
                        format!(
                            "L'armée {} sort du territoire {} : +{points}",
                            army_name_fr(a),
                            army_name_fr(t)
                        ),
                        format!(
                            "{} leaves the {} territory: +{points}",
                            ARMY_NAMES[ai].1, ARMY_NAMES[t as usize].1
                        ),
                    ))
                });
                // CN-S3: four occupied territories left in table order in one turn make a
                // simultanée, 7 points instead of 1+1+1+2.
                if index == 0 {
                    self.sim[ai] = 0;
                }
                if occupied && self.sim[ai] == index {
                    self.sim[ai] += 1;
                    if self.sim[ai] == 4 {
                        self.sim[ai] = 0;
                        self.add_points(self.side(a), 7 - 5);
                        log.record(|| {
                            Event::new(text(
                                format!("Simultanée de l'armée {} : 7 points", army_name_fr(a)),
                                format!("Simultanée by {}: 7 points", ARMY_NAMES[ai].1),
                            ))
                        });
                    }
                } else {
                    self.sim[ai] = u8::MAX;
                }
            }
        }
        if !self.present(a, t) {
            self.ready[ai] &= !(1 << t);
        }
    }

    /// The coups are over: on to the capture decisions, or straight to the end of the turn
    /// when nothing can be taken (CN-C2).
    fn finish_coups(&mut self, log: &mut Log) {
        if let Some(c) = self.current {
            self.done |= 1 << c;
        }
        self.current = None;
        self.visited = 0;
        self.trail_start = 0;
        self.phase = Phase::Captures;
        self.capturable = self.capturable();
        if self.capturable == 0 {
            self.end_turn(log);
        }
    }

    /// The end of the turn: the occupation clock (CN-S2), château noir (CN-S5), the turn
    /// limit, then the next army.
    fn end_turn(&mut self, log: &mut Log) {
        let army = self.active;
        let unit = self.unit(army);
        for a in 0..4u8 {
            if unit & (1 << a) != 0 {
                // CN-S2: what the army occupies now counts from the end of this turn.
                self.ready[a as usize] = self.presence(a);
                self.last_turn_of[a as usize] = self.turn;
            }
        }
        // CN-E3: a turn without agreement breaks the chain of draw agreements.
        if !self.voted {
            self.draw_votes = 0;
        }
        self.voted = false;
        self.turn += 1;
        self.prev_turn = std::mem::take(&mut self.this_turn);
        self.current = None;
        self.capturable = 0;
        self.phase = Phase::Coups;
        // CN-S5: every opposing army unable to carry out its movement factor at once.
        if self.chateau_noir(self.side(army)) {
            let side = self.side(army);
            self.ending = Some(Ending::ChateauNoir(side));
            log.record(|| {
                Event::new(text(
                    "Château noir ! Aucune armée adverse ne peut plus faire ses coups",
                    "Château noir! No opposing army can make its moves any more",
                ))
            });
            return;
        }
        if self.turn > TURN_LIMIT {
            self.ending = Some(Ending::TurnLimit);
            return;
        }
        self.advance(army, false, log);
    }

    /// CN-S5: whether every opposing army (there is at least one) is unable to carry out its
    /// movement factor.
    fn chateau_noir(&self, side: u8) -> bool {
        let mut any = false;
        for a in 0..4u8 {
            if self.side(a) == side || !self.playable(a) {
                continue;
            }
            any = true;
            if self.can_make_factor(self.unit(a), self.factor(a)) {
                return false;
            }
        }
        any
    }

    /// CN-A1: whether the army to move may declare a team alliance now.
    pub fn may_declare_alliance(&self) -> bool {
        let a = self.active;
        let partner = a ^ 2;
        if !self.teams
            || self.phase != Phase::Coups
            || self.coups > 0
            || self.declared & ((1 << a) | (1 << partner)) != 0
        {
            return false;
        }
        let cap = self.pos[board::captain(a) as usize];
        if cap == NONE {
            return false;
        }
        let soldiers = (1..9u8)
            .filter(|&i| self.pos[(board::captain(a) + i) as usize] != NONE)
            .count();
        soldiers <= 1
            && board::ALL_DIRECTIONS.iter().any(|&(dc, dr)| {
                board::offset(cap, dc, dr).is_some_and(|n| {
                    let q = self.board[n as usize];
                    q != 0 && army_of(q - 1) == partner && !is_captain(q - 1)
                })
            })
    }

    // -----------------------------------------------------------------------------------
    // Words

    /// The action's label.
    fn label(&self, mv: &Move) -> Text {
        match *mv {
            Move::Coup { from, to } => {
                let p = self.board[from as usize].wrapping_sub(1);
                let (from, to) = (board::name(from), board::name(to));
                text(
                    format!("{} {from} → {to}", piece_title_fr(p)),
                    format!("{} {from} → {to}", piece_title_en(p)),
                )
            }
            Move::EndCoups => {
                let left = self.factor(self.active).saturating_sub(self.coups);
                text(
                    format!("Arrêter les coups ({left} restant(s))"),
                    format!("Stop moving ({left} coup(s) left)"),
                )
            }
            Move::Take(s) => {
                let p = self.board[s as usize].wrapping_sub(1);
                text(
                    format!("Prendre {} en {}", piece_noun_fr(p), board::name(s)),
                    format!("Take the {} on {}", piece_noun_en(p), board::name(s)),
                )
            }
            Move::EndTurn => text(
                "Finir le tour sans rien prendre de plus",
                "End the turn, taking nothing more",
            ),
            Move::Alliance => text("Déclarer l'alliance d'équipes", "Declare a team alliance"),
            Move::AgreeDraw => text(
                "Proposer ou accepter la partie nulle",
                "Offer or accept a draw",
            ),
        }
    }

    /// The outcome, once the match is over.
    pub fn outcome(&self) -> Option<Outcome> {
        let ending = self.ending?;
        let scores = (0..self.players)
            .map(|s| i64::from(self.shown_score(self.seat_side(s))))
            .collect();
        let winners_of = |side: u8| -> Vec<Seat> {
            (0..self.players)
                .filter(|&s| self.seat_side(s) == side)
                .collect()
        };
        let (winners, reason) = match ending {
            Ending::Points(side) => (
                winners_of(side),
                text(
                    format!("{} atteint {TARGET} points", self.side_name(side).0),
                    format!("{} reaches {TARGET} points", self.side_name(side).1),
                ),
            ),
            Ending::ChateauNoir(side) => (
                winners_of(side),
                text(
                    format!("Château noir : {} gagne", self.side_name(side).0),
                    format!("Château noir: {} wins", self.side_name(side).1),
                ),
            ),
            Ending::Agreed => (
                Vec::new(),
                text("Partie nulle d'un commun accord", "Draw by agreement"),
            ),
            Ending::TurnLimit => (
                Vec::new(),
                text(
                    format!("{TURN_LIMIT} tours joués : partie nulle"),
                    format!("{TURN_LIMIT} turns played: the game is drawn"),
                ),
            ),
        };
        Some(Outcome {
            winners,
            scores,
            reason,
        })
    }

    /// A side's name in French and English ("l'équipe Vert-Bleu", "Green").
    pub fn side_name(&self, side: u8) -> (String, String) {
        if self.teams {
            let (a, b) = (side as usize, side as usize + 2);
            (
                format!("l'équipe {}-{}", ARMY_NAMES[a].0, ARMY_NAMES[b].0),
                format!("team {}-{}", ARMY_NAMES[a].1, ARMY_NAMES[b].1),
            )
        } else {
            (
                format!("l'armée {}", army_name_fr(side)),
                ARMY_NAMES[side as usize].1.to_string(),
            )
        }
    }
}

/// An army's French colour word as used after "l'armée" / "le territoire".
pub(crate) fn army_name_fr(army: u8) -> &'static str {
    ["verte", "rouge", "bleue", "jaune"][army as usize]
}

fn piece_title_fr(p: Pc) -> String {
    let army = army_of(p) as usize;
    if is_captain(p) {
        format!("Capitaine {}", ["vert", "rouge", "bleu", "jaune"][army])
    } else {
        format!("Soldat {}", ["vert", "rouge", "bleu", "jaune"][army])
    }
}

fn piece_title_en(p: Pc) -> String {
    let army = ARMY_NAMES[army_of(p) as usize].1;
    if is_captain(p) {
        format!("{army} captain")
    } else {
        format!("{army} soldier")
    }
}

fn piece_noun_fr(p: Pc) -> String {
    let army = ["vert", "rouge", "bleu", "jaune"][army_of(p) as usize];
    if is_captain(p) {
        format!("le capitaine {army}")
    } else {
        format!("le soldat {army}")
    }
}

fn piece_noun_en(p: Pc) -> String {
    piece_title_en(p).to_lowercase()
}

impl Game for ChateauNoir {
    type Move = Move;

    fn manifest() -> Manifest {
        scene::manifest()
    }

    fn new(setup: &Setup) -> Result<Self, GameError> {
        let players = setup.players;
        if !(2..=4).contains(&players) {
            return Err(GameError::InvalidSetup(format!(
                "Château Noir plays with 2–4 players, not {players}"
            )));
        }
        // 2 and 3 players always play in teams; 4 players choose.
        let teams = players < 4 || setup.choice("mode") != Some("individual");
        let mut game = ChateauNoir::blank(players, teams, setup.seed);
        game.new_round(&mut Log::off());
        Ok(game)
    }

    fn status(&self) -> Status {
        if let Some(outcome) = self.outcome() {
            return Status::Finished { outcome };
        }
        Status::to_act(self.controller(self.active))
    }

    fn moves(&self, seat: Seat) -> Vec<Move> {
        if self.ending.is_some() {
            return Vec::new();
        }
        if seat != self.controller(self.active) {
            return Vec::new();
        }
        match self.phase {
            Phase::Coups => {
                let mut moves = Vec::with_capacity(48);
                self.each_coup(&mut |from, to| {
                    moves.push(Move::Coup { from, to });
                    false
                });
                moves.push(Move::EndCoups);
                if self.coups == 0 {
                    if self.may_declare_alliance() {
                        moves.push(Move::Alliance);
                    }
                    if !self.voted {
                        moves.push(Move::AgreeDraw);
                    }
                }
                moves
            }
            Phase::Captures => {
                let mut moves: Vec<Move> = (0..PIECES)
                    .filter(|&p| self.capturable & (1 << p) != 0)
                    .map(|p| Move::Take(self.pos[p]))
                    .collect();
                moves.sort_unstable_by_key(|m| match m {
                    Move::Take(s) => *s,
                    _ => 0,
                });
                moves.push(Move::EndTurn);
                moves
            }
        }
    }

    fn describe(&self, seat: Seat, mv: &Move) -> Action {
        let path = match *mv {
            Move::Coup { from, to } => vec![
                Target::piece(board::piece_id(self.board[from as usize].wrapping_sub(1))),
                scene::cell_target(to),
            ],
            Move::Take(s) => vec![Target::piece(board::piece_id(
                self.board[s as usize].wrapping_sub(1),
            ))],
            _ => Vec::new(),
        };
        Action::new(self.move_id(seat, mv), path, self.label(mv))
    }

    fn move_id(&self, _seat: Seat, mv: &Move) -> String {
        let mut id = String::with_capacity(9);
        match *mv {
            Move::Coup { from, to } => {
                board::push_name(&mut id, from);
                id.push('-');
                board::push_name(&mut id, to);
            }
            Move::Take(s) => {
                id.push_str("take-");
                board::push_name(&mut id, s);
            }
            Move::EndCoups => id.push_str("end-coups"),
            Move::EndTurn => id.push_str("end-turn"),
            Move::Alliance => id.push_str("alliance"),
            Move::AgreeDraw => id.push_str("draw"),
        }
        id
    }

    fn play(&mut self, seat: Seat, mv: &Move, log: &mut Log) {
        if self.ending.is_some() {
            return;
        }
        log.record(|| Event::new(self.label(mv)));
        match *mv {
            Move::Coup { from, to } => self.play_coup(from, to, log),
            Move::EndCoups => self.finish_coups(log),
            Move::Take(s) => {
                let p = self.board[s as usize] - 1;
                self.capturable &= !(1 << p);
                self.remove_piece(p, self.active, log);
                if self.ending.is_none() {
                    if self.round_over() {
                        self.new_round(log);
                    } else if self.capturable == 0 {
                        self.end_turn(log);
                    }
                }
            }
            Move::EndTurn => self.end_turn(log),
            Move::Alliance => {
                // CN-A1/CN-A2: the turn is handed to the partner, for good.
                self.declared |= 1 << self.active;
                self.end_turn(log);
            }
            Move::AgreeDraw => {
                // CN-E3: every player must agree; the agreement does not use the turn.
                self.voted = true;
                self.draw_votes |= 1 << seat;
                if self.draw_votes == (1 << self.players) - 1 {
                    self.ending = Some(Ending::Agreed);
                }
            }
        }
        if let Some(outcome) = self.ending.and_then(|_| self.outcome()) {
            log.record(|| Event::new(outcome.reason));
        }
    }

    fn view(&self, viewer: Option<Seat>) -> Scene {
        scene::view(self, viewer)
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

veillee_sdk::export_game!(ChateauNoir);

impl ChateauNoir {
    /// A position from a diagram, for tests and tools: ten lines for rows 1 to 10, ten
    /// squares each for columns `a`–`j` (spaces between squares and a leading row number are
    /// allowed). A square is its map letter (`W B X g r u y`, checked against the board) or
    /// `.` when empty, or a piece: captains `G R U Y` (Green, Red, blUe, Yellow) and soldiers
    /// `1 2 3 4` (of the same armies). Soldiers take the numbers 1–8 in reading order.
    ///
    /// The result is the start of `active`'s first turn of round 1 (turn 1), with no start of
    /// turn processed (no château or siege test), no points and no alliance.
    pub fn from_diagram(
        diagram: &str,
        players: u8,
        teams: bool,
        active: u8,
    ) -> Result<ChateauNoir, String> {
        let lines: Vec<String> = diagram
            .lines()
            .map(|line| {
                let mut tokens: Vec<&str> = line.split_whitespace().collect();
                if tokens.len() > 1 && tokens[0].parse::<u8>().is_ok() {
                    tokens.remove(0);
                }
                tokens.concat()
            })
            // Empty lines and a column header (`a b c … j`) are skipped.
            .filter(|l| !l.is_empty() && l != "abcdefghij")
            .collect();
        if lines.len() != 10 || lines.iter().any(|l| l.chars().count() != 10) {
            return Err("a diagram is 10 lines (rows 1 to 10) of 10 squares (a to j)".into());
        }
        if !(2..=4).contains(&players) || (players < 4 && !teams) || active > 3 {
            return Err("2–4 players (2 and 3 play in teams), active army 0–3".into());
        }
        let mut game = ChateauNoir::blank(players, teams, 0);
        game.round = 1;
        let mut soldiers = [0u8; 4];
        for (r, line) in lines.iter().enumerate() {
            for (c, ch) in line.chars().enumerate() {
                let s = board::sq(c as u8, r as u8);
                let p = match ch {
                    'G' | 'R' | 'U' | 'Y' => {
                        let army = "GRUY".find(ch).unwrap_or(0) as u8;
                        board::captain(army)
                    }
                    '1'..='4' => {
                        let army = ch as u8 - b'1';
                        soldiers[army as usize] += 1;
                        if soldiers[army as usize] > 8 {
                            return Err(format!("more than 8 soldiers `{ch}`"));
                        }
                        board::captain(army) + soldiers[army as usize]
                    }
                    '.' => continue,
                    letter => {
                        let expected = board::MAP[r].as_bytes()[c] as char;
                        if letter != expected {
                            return Err(format!(
                                "{} is `{expected}` on the map, not `{letter}`",
                                board::name(s)
                            ));
                        }
                        continue;
                    }
                };
                if game.pos[p as usize] != NONE {
                    return Err(format!("two captains `{ch}`"));
                }
                game.pos[p as usize] = s;
                game.board[s as usize] = p + 1;
            }
        }
        if !game.playable(active) {
            return Err("the army to move has no piece".into());
        }
        game.active = active;
        Ok(game)
    }
}
