//! Rounds and turns: the start and the end of a round (CN-E2, X.2), the order of the
//! armies, the start of a turn (château CN-S4, sieges CN-S7), one coup (CN-T, CN-M), the end
//! of the coups and of the turn (château noir CN-S5, châteaux at once IX.4a).

use veillee_sdk::{text, Event, GameRng, Log, Seat};

use crate::board::{self, army_of, Pc, Sq, CELLS, NONE, PIECES};
use crate::{ChateauNoir, Ending, Phase};

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
            draw_offer_at: crate::DRAW_OFFER_TURNS,
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

    /// X.2 « Si un joueur n'a pas atteint les 27 points nécessaires pour gagner, son
    /// adversaire peut exiger que l'on recommence une autre partie »: the round is over
    /// without 27 points. The opponents of the side left on the board (every player when no
    /// side is left) are asked one after the other, in seat order, whether they demand a new
    /// round (CN-E2); if none does, the match ends on the points.
    pub(crate) fn end_round(&mut self, log: &mut Log) {
        let Some(asking) = self.next_asked(None) else {
            self.ending = Some(Ending::OnPoints);
            return;
        };
        self.phase = Phase::RoundOver { asking };
        self.current = None;
        self.capturable = 0;
        let round = self.round;
        log.record(|| {
            Event::new(text(
                format!(
                    "Fin de la manche {round} sans 27 points : l'adversaire peut exiger une \
                     nouvelle manche"
                ),
                format!(
                    "Round {round} is over without 27 points: the opponent may demand a new round"
                ),
            ))
        });
    }

    /// X.2: the seat asked after `after` (from the first when `None`) whether to demand a new
    /// round: a player none of whose armies is left on the board.
    pub(crate) fn next_asked(&self, after: Option<Seat>) -> Option<Seat> {
        let left = (0..PIECES as Pc)
            .find(|&p| self.pos[p as usize] != NONE)
            .map(|p| self.side(army_of(p)));
        let from = after.map_or(0, |s| s + 1);
        (from..self.players).find(|&s| Some(self.seat_side(s)) != left)
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
                self.end_round(log);
                return;
            }
        }
        debug_assert!(false, "no army can play");
        self.ending = Some(Ending::TurnLimit);
    }

    /// The start of `army`'s turn. Returns `false` when the army lost its turn (its last
    /// pieces fell to a siege).
    fn start_turn(&mut self, army: u8, log: &mut Log) -> bool {
        let unit = self.unit(army);
        // CN-S4 needs no test here: every turn ends by capturing the armies it left blocked
        // (IX.4a, `capture_blocked_armies`), and a round starts with every army free.
        // CN-S7: sieges are counted at the start of the besieged army's turns.
        self.count_sieges(unit, log);
        if self.ending.is_some() {
            return false;
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
        // XI.1: a piece that moves has freed itself; its siege counts again from nothing.
        self.siege[p as usize] = 0;
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

    /// The end of the turn: the occupation clock (CN-S2), château noir (CN-S5), the
    /// châteaux (IX.4a), the end of the round, the safety net's draw offer, then the next
    /// army.
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
        // IX.4a: the armies this turn left blocked are captured now, not at their own turn.
        self.capture_blocked_armies(army, log);
        if self.ending.is_some() {
            return;
        }
        if self.round_over() {
            self.end_round(log);
            return;
        }
        // The safety net (not a rule): past its turn count, the players are asked first.
        if self.offer_draw_when_due(log) {
            return;
        }
        self.next_army(log);
    }

    /// Gives the turn to the army after the one that played last.
    pub(crate) fn next_army(&mut self, log: &mut Log) {
        self.advance(self.active, false, log);
    }
}
