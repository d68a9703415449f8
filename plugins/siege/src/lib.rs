//! # Siège
//!
//! A 1966 siege game for two players: four mounted knights (the attacker, seat 0) storm a
//! castle held by four foot soldiers and their lord (the defender, seat 1). The rules are
//! `shared/rules/siege.md`; comments cite its rule ids (`SG-K2`). The board is a
//! reconstruction (the original picture is lost): see this crate's README.md.
//!
//! Action ids: `c0-d2` (a move, from and to squares), `lord-d6` / `lord-e6` (where the
//! defender puts the lord, before any move), `pass` (only when a player has no legal move).

mod board;
mod eval;
mod ops;
mod rules;
mod saved;
mod scene;
#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};
use veillee_sdk::search::{hash_move, MoveKey};
use veillee_sdk::{
    move_path, text, Action, Event, Game, GameError, Log, Manifest, Outcome, Scene, Seat, Setup,
    Status,
};

use board::{Code, Sq, CELLS, EMPTY, LORD};

/// The attacker's seat (the knights). SG-S2: the attacker moves first.
pub const ATTACKER: Seat = 0;
/// The defender's seat (the soldiers and the lord).
pub const DEFENDER: Seat = 1;
/// Consecutive moves (passes included) without a capture after which the game is drawn
/// (SG-E3).
pub const QUIET_LIMIT: u16 = 200;
/// How many of the defender's first moves the special rule SG-R governs.
pub const SPECIAL_RULE_MOVES: u8 = 4;

/// The id of the board in the scene.
pub const BOARD_ID: &str = "board";

/// A game of Siège: the whole state.
///
/// It serializes to a readable JSON object (pieces by id and square name); see
/// `saved.rs`. Nothing in it is random.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "saved::Saved", try_from = "saved::Saved")]
pub struct Siege {
    /// What stands on every square (see [`board::Code`]); cells off the board stay empty.
    board: [Code; CELLS],
    /// Whose move it is (once the lord is placed).
    to_move: Seat,
    /// Whether the defender has put the lord on a crown (SG-S1: the defender's first decision).
    lord_placed: bool,
    /// Moves the defender has made since placing the lord, counted up to 4 (SG-R).
    defender_moves: u8,
    /// Whether either side has captured anything yet (ends SG-R).
    capture_made: bool,
    /// Consecutive moves and passes without a capture (SG-E3).
    quiet_plies: u16,
    /// Moves and passes played since the lord was placed.
    plies: u32,
    /// Knights still on the board (derived from `board`).
    knights: u8,
    /// Soldiers still on the board (derived from `board`).
    soldiers: u8,
    /// Whether a knight has captured the lord (SG-E1).
    lord_taken: bool,
    /// The last move, for highlights; `None` at the start and after a pass.
    last: Option<LastMove>,
    /// House rule « seigneur agile » (command `nimble_lord`): the lord may also step one
    /// square diagonally inside the castle (SG-L1, SG-L3).
    nimble_lord: bool,
    /// House rule « renforts » (command `reinforcements`): where the defender's one-time
    /// reinforcement stands.
    reinforcements: Reinforcements,
}

/// House rule « renforts »: once per game, after losing a soldier, the defender may bring one
/// back onto an empty dotted square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reinforcements {
    /// The rule is not played.
    #[default]
    Off,
    /// Not used yet: the next soldier lost brings the question.
    Ready,
    /// A soldier has just been lost: the defender answers before moving.
    Asking,
    /// Used: the rule is spent.
    Used,
}

/// The last move played, for the scene's highlights.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct LastMove {
    /// Where the piece came from (`None` for the lord's placement).
    from: Option<Sq>,
    /// Where it went.
    to: Sq,
    /// What it captured ([`EMPTY`] when nothing).
    taken: Code,
}

/// A legal move: three bytes, `Copy`, and never a string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// The defender's first decision: the lord goes on this crown square (`lord-d6`).
    PlaceLord(Sq),
    /// A piece moves from one square to another, capturing whatever stands there
    /// (`c0-d2`).
    Step {
        /// Square left.
        from: Sq,
        /// Square reached.
        to: Sq,
    },
    /// The player has no legal move (SG-E3).
    Pass,
    /// House rule « renforts »: a lost soldier comes back onto this empty dotted square
    /// (`reinforce-d5`).
    Reinforce(Sq),
    /// House rule « renforts »: keep the reinforcements for a later loss
    /// (`keep-reinforcements`).
    KeepReinforcements,
}

impl Siege {
    /// The position before the defender has placed the lord (SG-S1).
    pub fn initial() -> Self {
        let mut board = [EMPTY; CELLS];
        for i in 0..4u8 {
            board[board::KNIGHT_HOMES[i as usize] as usize] = board::knight(i);
            board[board::SOLDIER_HOMES[i as usize] as usize] = board::soldier(i);
        }
        Siege {
            board,
            to_move: DEFENDER,
            lord_placed: false,
            defender_moves: 0,
            capture_made: false,
            quiet_plies: 0,
            plies: 0,
            knights: 4,
            soldiers: 4,
            lord_taken: false,
            last: None,
            nimble_lord: false,
            reinforcements: Reinforcements::Off,
        }
    }

    /// Whether the special rule SG-R binds the defender's next move: one of the defender's
    /// first four moves, and nobody has captured anything yet.
    pub fn special_rule_applies(&self) -> bool {
        self.lord_placed && !self.capture_made && self.defender_moves < SPECIAL_RULE_MOVES
    }

    /// Consecutive moves without a capture so far.
    pub fn quiet_plies(&self) -> u16 {
        self.quiet_plies
    }

    /// Moves and passes played since the lord was placed.
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// How the game has ended, if it has.
    pub fn outcome(&self) -> Option<Outcome> {
        if !self.lord_placed {
            return None;
        }
        if let Some(outcome) = self.decided() {
            return Some(outcome);
        }
        if self.nobody_can_move() {
            return Some(Outcome::draw(text(
                "Aucun des deux camps ne peut jouer : partie nulle",
                "Neither side can move: the game is drawn",
            )));
        }
        None
    }

    /// The endings that need no move generation: SG-E1, SG-E2 and the 200-move rule.
    fn decided(&self) -> Option<Outcome> {
        if self.lord_taken {
            // SG-E1
            Some(Outcome::win(
                ATTACKER,
                text(
                    "Le seigneur est fait prisonnier : l'assaillant gagne",
                    "The lord is captured: the attacker wins",
                ),
            ))
        } else if self.knights == 0 {
            // SG-E2
            Some(Outcome::win(
                DEFENDER,
                text(
                    "Les quatre chevaliers sont faits prisonniers : le défenseur gagne",
                    "All four knights are captured: the defender wins",
                ),
            ))
        } else if self.quiet_plies >= QUIET_LIMIT {
            // SG-E3
            Some(Outcome::draw(text(
                "200 coups sans prise : partie nulle",
                "200 moves without a capture: the game is drawn",
            )))
        } else {
            None
        }
    }

    /// SG-E3: a player without a move passes; when neither side can move the game is drawn
    /// at once (passing back and forth would change nothing).
    fn nobody_can_move(&self) -> bool {
        !self.has_any_move(self.to_move) && !self.has_any_move(self.to_move ^ 1)
    }

    fn is_decided(&self) -> bool {
        self.lord_taken || self.knights == 0 || self.quiet_plies >= QUIET_LIMIT
    }

    /// The action's label.
    fn label(&self, mv: &Move) -> veillee_sdk::Text {
        match *mv {
            Move::PlaceLord(s) => {
                let crown = board::name(s);
                text!(
                    "Placer le seigneur sur {crown}",
                    "Place the lord on {crown}"
                )
            }
            Move::Step { from, to } => {
                let piece = self.board[from as usize];
                let taken = self.board[to as usize];
                let (fr, en) = board::piece_title(piece);
                // House rule « seigneur agile »: the lord's one-square diagonal step.
                let (nimble_fr, nimble_en) = if piece == LORD && rules::is_nimble_step(from, to) {
                    (" (pas agile)", " (nimble step)")
                } else {
                    ("", "")
                };
                let (from, to) = (board::name(from), board::name(to));
                let (take_fr, take_en) = if taken == EMPTY {
                    (String::new(), String::new())
                } else {
                    let (fr, en) = board::piece_noun(taken);
                    (format!(" prend {fr}"), format!(" takes {en}"))
                };
                text!(
                    "{fr} {from} → {to}{take_fr}{nimble_fr}",
                    "{en} {from} → {to}{take_en}{nimble_en}"
                )
            }
            Move::Pass => text("Passer (aucun coup possible)", "Pass (no legal move)"),
            Move::Reinforce(s) => {
                let square = board::name(s);
                text!(
                    "Faire revenir un soldat sur {square}",
                    "Bring a soldier back onto {square}"
                )
            }
            Move::KeepReinforcements => text(
                "Garder les renforts pour plus tard",
                "Keep the reinforcements for later",
            ),
        }
    }
}

impl Game for Siege {
    type Move = Move;

    fn manifest() -> Manifest {
        scene::manifest()
    }

    fn new(_setup: &Setup) -> Result<Self, GameError> {
        // No options and no randomness: every game starts the same way.
        Ok(Siege::initial())
    }

    fn status(&self) -> Status {
        if !self.lord_placed || self.reinforcements == Reinforcements::Asking {
            return Status::to_act(DEFENDER);
        }
        match self.outcome() {
            Some(outcome) => Status::Finished { outcome },
            None => Status::to_act(self.to_move),
        }
    }

    fn seats_to_act(&self, out: &mut Vec<Seat>) -> bool {
        out.clear();
        let seat = if self.reinforcements == Reinforcements::Asking {
            DEFENDER
        } else if self.lord_placed {
            if self.is_decided() || self.nobody_can_move() {
                return false;
            }
            self.to_move
        } else {
            DEFENDER
        };
        out.push(seat);
        true
    }

    fn moves(&self, seat: Seat) -> Vec<Move> {
        let mut moves = Vec::with_capacity(40);
        self.moves_into(seat, &mut moves);
        moves
    }

    fn moves_into(&self, seat: Seat, moves: &mut Vec<Move>) {
        moves.clear();
        if !self.lord_placed {
            // SG-S1: the defender's first decision is the lord's crown square.
            if seat == DEFENDER {
                moves.extend([Move::PlaceLord(board::D6), Move::PlaceLord(board::E6)]);
            }
            return;
        }
        if self.reinforcements == Reinforcements::Asking {
            // House rule « renforts »: the defender's answer comes before any move.
            if seat == DEFENDER {
                moves.extend(ops::empty_dots(self).into_iter().map(Move::Reinforce));
                moves.push(Move::KeepReinforcements);
            }
            return;
        }
        if seat != self.to_move || self.is_decided() {
            return;
        }
        self.each_move(seat, &mut |mv| {
            moves.push(mv);
            false
        });
        // SG-E3: `pass` only when there is nothing else, and only while the other side can
        // still move (otherwise the game is drawn and nobody acts).
        if moves.is_empty() && self.has_any_move(seat ^ 1) {
            moves.push(Move::Pass);
        }
    }

    fn describe(&self, seat: Seat, mv: &Move) -> Action {
        let path = match *mv {
            Move::PlaceLord(s) => vec![scene::cell_target(s)],
            Move::Step { from, to } => {
                let piece = board::piece_id(self.board[from as usize]);
                move_path(BOARD_ID, piece, &[board::cell(to)])
            }
            Move::Pass | Move::KeepReinforcements => Vec::new(),
            Move::Reinforce(s) => vec![scene::cell_target(s)],
        };
        Action::new(self.move_id(seat, mv), self.label(mv), path)
    }

    fn evaluate(&self, seat: Seat) -> f32 {
        eval::evaluate(self, seat)
    }

    /// The id is built from the move value alone, one id per value: the search keys its tree
    /// by the value's hash instead of building the id.
    fn move_key(&self, _seat: Seat, mv: &Move) -> MoveKey {
        hash_move(mv)
    }

    fn move_id(&self, _seat: Seat, mv: &Move) -> String {
        match *mv {
            Move::PlaceLord(s) => format!("lord-{}", board::name(s)),
            Move::Step { from, to } => format!("{}-{}", board::name(from), board::name(to)),
            Move::Pass => "pass".into(),
            Move::Reinforce(s) => format!("reinforce-{}", board::name(s)),
            Move::KeepReinforcements => "keep-reinforcements".into(),
        }
    }

    fn play(&mut self, seat: Seat, mv: &Move, log: &mut Log) {
        match *mv {
            Move::PlaceLord(s) => {
                debug_assert!(!self.lord_placed && board::has(board::CROWN, s));
                log.record(|| Event::new(self.label(mv)));
                self.board[s as usize] = LORD;
                self.lord_placed = true;
                // SG-S2: the attacker moves first.
                self.to_move = ATTACKER;
                self.last = Some(LastMove {
                    from: None,
                    to: s,
                    taken: EMPTY,
                });
            }
            Move::Step { from, to } => {
                debug_assert_eq!(seat, self.to_move);
                log.record(|| Event::new(self.label(mv)));
                let piece = std::mem::replace(&mut self.board[from as usize], EMPTY);
                let taken = std::mem::replace(&mut self.board[to as usize], piece);
                if taken == EMPTY {
                    self.quiet_plies = self.quiet_plies.saturating_add(1);
                } else {
                    // SG-K5, SG-D2, SG-L3: the captured piece leaves the game.
                    self.quiet_plies = 0;
                    // SG-R: the obligation ends with the first capture.
                    self.capture_made = true;
                    if board::is_knight(taken) {
                        self.knights -= 1;
                    } else if board::is_soldier(taken) {
                        self.soldiers -= 1;
                    } else {
                        self.lord_taken = true;
                    }
                }
                if self.to_move == DEFENDER && self.defender_moves < SPECIAL_RULE_MOVES {
                    self.defender_moves += 1;
                }
                self.finish_ply(log);
                self.last = Some(LastMove {
                    from: Some(from),
                    to,
                    taken,
                });
                // House rule « renforts »: a soldier lost while the reinforcements are unused
                // brings the question, if the game goes on and a dotted square is empty.
                if board::is_soldier(taken)
                    && self.reinforcements == Reinforcements::Ready
                    && self.outcome().is_none()
                    && !ops::empty_dots(self).is_empty()
                {
                    self.reinforcements = Reinforcements::Asking;
                }
            }
            Move::Reinforce(s) => {
                let code = (0..4u8)
                    .map(board::soldier)
                    .find(|&c| !self.board.contains(&c))
                    .expect("a soldier was lost");
                self.board[s as usize] = code;
                self.soldiers += 1;
                self.reinforcements = Reinforcements::Used;
                log.record(|| {
                    let (id, square) = (board::piece_id(code), board::name(s));
                    Event::new(text!(
                        "Renforts : un soldat ({id}) revient sur {square}",
                        "Reinforcements: a soldier ({id}) comes back onto {square}"
                    ))
                });
            }
            Move::KeepReinforcements => self.reinforcements = Reinforcements::Ready,
            Move::Pass => {
                log.record(|| Event::new(self.label(mv)));
                // SG-E3: a pass counts towards the 200 moves without capture. It is not one
                // of the defender's "first four moves" of SG-R (nothing moved).
                self.quiet_plies = self.quiet_plies.saturating_add(1);
                self.finish_ply(log);
                self.last = None;
            }
        }
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

impl Siege {
    /// Hands the move to the other side and records the end of the game, if it came.
    fn finish_ply(&mut self, log: &mut Log) {
        self.to_move ^= 1;
        self.plies += 1;
        if self.is_decided() {
            log.record(|| {
                let outcome = self.decided().expect("the game is decided");
                Event::new(outcome.reason)
            });
        }
    }
}

veillee_sdk::export_game!(Siege);

impl Siege {
    /// A position from a diagram, for tests and tools: seven lines for ranks 6 down to 0,
    /// eight characters each for columns `a`–`h` (spaces ignored, an optional rank number
    /// first): `K` a knight, `S` a soldier, `L` the lord, `.` (or any other character) an
    /// empty square. On rank 0 only columns `c`–`f` may hold a piece.
    ///
    /// The lord counts as placed (a diagram without `L` is a game the attacker has won),
    /// `to_move` is to move, nothing has been captured yet and the special rule SG-R is
    /// over (see [`Siege::with_special_rule`]). Pieces on their starting squares keep their
    /// ids (`k1` on c0, `s2` on d5); the others take the free ids in square order.
    pub fn from_diagram(diagram: &str, to_move: Seat) -> Result<Siege, String> {
        let mut lines: Vec<Vec<char>> = diagram
            .lines()
            .map(|line| {
                line.chars()
                    .filter(|c| !c.is_whitespace())
                    .collect::<Vec<_>>()
            })
            .filter(|line| !line.is_empty())
            .collect();
        // An optional rank number may start each line (`6 ...L....`).
        for (row, line) in lines.iter_mut().enumerate() {
            let rank = (b'0' + board::RANKS - 1).wrapping_sub(row as u8) as char;
            if line.len() == 9 && line[0] == rank {
                line.remove(0);
            }
        }
        if lines.len() != board::RANKS as usize || lines.iter().any(|l| l.len() != 8) {
            return Err("a diagram is 7 lines (ranks 6 to 0) of 8 squares (a to h)".into());
        }
        if to_move > 1 {
            return Err(format!("seat {to_move} does not play Siège"));
        }
        let mut wanted: Vec<(char, Sq)> = Vec::new();
        for (row, line) in lines.iter().enumerate() {
            let rank = board::RANKS - 1 - row as u8;
            for (col, &c) in line.iter().enumerate() {
                if matches!(c, 'K' | 'S' | 'L') {
                    let s = board::sq(col as u8, rank);
                    if !board::has(board::VALID, s) {
                        return Err(format!("{} is not a square of the board", board::name(s)));
                    }
                    wanted.push((c, s));
                }
            }
        }
        wanted.sort_by_key(|&(_, s)| s);
        let mut pieces = Vec::new();
        for (letter, homes, first) in [
            ('K', board::KNIGHT_HOMES, board::knight(0)),
            ('S', board::SOLDIER_HOMES, board::soldier(0)),
        ] {
            let squares: Vec<Sq> = wanted
                .iter()
                .filter(|w| w.0 == letter)
                .map(|w| w.1)
                .collect();
            if squares.len() > 4 {
                return Err(format!("at most four `{letter}`"));
            }
            let mut free = (0..4u8)
                .filter(|&i| !squares.contains(&homes[i as usize]))
                .map(|i| first + i);
            for &s in &squares {
                let code = match homes.iter().position(|&h| h == s) {
                    Some(i) => first + i as u8,
                    None => free.next().expect("at most four pieces"),
                };
                pieces.push((code, s));
            }
        }
        let lords: Vec<Sq> = wanted.iter().filter(|w| w.0 == 'L').map(|w| w.1).collect();
        if lords.len() > 1 {
            return Err("only one `L`".into());
        }
        pieces.extend(lords.iter().map(|&s| (LORD, s)));
        Siege::try_from(saved::Saved::position(&pieces, to_move))
    }

    /// The same position with the special rule SG-R in force: the defender has made
    /// `defender_moves` (0–3) of the first four moves and nothing has been captured yet.
    pub fn with_special_rule(mut self, defender_moves: u8) -> Siege {
        self.defender_moves = defender_moves.min(SPECIAL_RULE_MOVES);
        self.capture_made = false;
        self
    }

    /// The same position after `quiet_plies` moves without a capture.
    pub fn with_quiet_plies(mut self, quiet_plies: u16) -> Siege {
        self.quiet_plies = quiet_plies;
        self
    }
}
