//! Rounds and turns: the start of a round (CN-E2), the order of the armies, the start of a
//! turn (château CN-S4, sieges CN-S7), one coup (CN-T, CN-M), the end of the coups and of the
//! turn.

use veillee_sdk::{text, Event, GameRng, Log};

use crate::board::{self, army_of, Pc, Sq, ARMY_NAMES, CELLS, NONE, PIECES};
use crate::words::{army_name_fr, piece_noun_en, piece_noun_fr};
use crate::{ChateauNoir, Ending, Phase, SIEGE_CAPTURE, TURN_LIMIT};

impl ChateauNoir {
    /// An empty state before the first round.
    pub(crate) fn blank(players: u8, teams: bool, seed: u64) -> Self {
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
    pub(crate) fn new_round(&mut self, log: &mut Log) {
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

    /// Whether at most one side still has pieces on the board (CN-E2).
    pub(crate) fn round_over(&self) -> bool {
        let mut sides = 0u8;
        for p in 0..PIECES as Pc {
            if self.pos[p as usize] != NONE {
                sides |= 1 << self.side(army_of(p));
            }
        }
        sides.count_ones() <= 1
    }

    /// One coup (CN-T, CN-M), with the territory points it may score (CN-S2, CN-S3).
    pub(crate) fn play_coup(&mut self, from: Sq, to: Sq, log: &mut Log) {
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

    /// The coups are over: on to the capture decisions, or straight to the end of the turn
    /// when nothing can be taken (CN-C2).
    pub(crate) fn finish_coups(&mut self, log: &mut Log) {
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
    pub(crate) fn end_turn(&mut self, log: &mut Log) {
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
}
