//! Seats, sides and units: who commands which army, who scores for whom, the armies that
//! move together under a team alliance (CN-A), and the read-only accessors.

use veillee_sdk::Seat;

use crate::board::{self, army_of, is_captain, Pc, NONE, PIECES};
use crate::{ChateauNoir, Ending, Phase, ALLIED_FACTOR, FACTOR};

impl ChateauNoir {
    /// The seat that commands an army. Seats follow the order of play, so that partners sit
    /// diagonally (IV.3.A « Chaque joueur se place en diagonale par rapport à son
    /// coéquipier »: seats 0 and 2, 1 and 3) and play goes round the table clockwise (IV.2).
    /// 4 players: Green, Red, Blue, Yellow; 3 players: Green, Red+Yellow, Blue; 2 players:
    /// Green+Blue, Red+Yellow.
    pub fn controller(&self, army: u8) -> Seat {
        match self.players {
            4 => army,
            3 if army == 3 => 1,
            3 => army,
            _ => army & 1,
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
    pub(crate) fn alive(&self, unit: u8) -> bool {
        (0..PIECES as Pc).any(|p| unit & (1 << army_of(p)) != 0 && self.pos[p as usize] != NONE)
    }

    /// Whether `army` gets turns: it has pieces (or its ally has) and did not hand its turns
    /// to its partner (CN-A2).
    pub(crate) fn playable(&self, army: u8) -> bool {
        self.declared & (1 << army) == 0 && self.alive(self.unit(army))
    }

    /// Whether an army has a piece in a territory.
    pub(crate) fn present(&self, army: u8, territory: u8) -> bool {
        board::territory_squares(territory).iter().any(|&s| {
            let q = self.board[s as usize];
            q != 0 && army_of(q - 1) == army
        })
    }

    /// The territories (a bit per army index) where an army has pieces.
    pub(crate) fn presence(&self, army: u8) -> u8 {
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

    /// CN-A1: whether the army to move may declare a team alliance now. VIII.1: only « dans
    /// le cas où le jeu s'effectue en équipe (à trois ou quatre participants) », never in a
    /// two-player game, where each player already commands both armies of a team.
    pub fn may_declare_alliance(&self) -> bool {
        let a = self.active;
        let partner = a ^ 2;
        if !self.teams
            || self.players < 3
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
}
