//! The saved form of a game: readable, deterministic JSON.
//!
//! ```json
//! {"pieces":[{"id":"k1","at":"c0"},…,{"id":"lord","at":"d6"}],"to_move":0,
//!  "lord_placed":true,"defender_moves":0,"capture_made":false,"quiet_plies":0,"plies":0,
//!  "last":{"from":null,"to":"d6","taken":null}}
//! ```
//!
//! Pieces are listed in a fixed order (`k1`–`k4`, `s1`–`s4`, `lord`); captured pieces are
//! absent. Loading checks that the position makes sense, so a bad save is refused instead of
//! misbehaving later.

use serde::{Deserialize, Serialize};
use veillee_sdk::Seat;

use crate::board::{self, Code, CASTLE, CELLS, EMPTY, LORD, MOAT};
use crate::{LastMove, Reinforcements, Siege, SPECIAL_RULE_MOVES};

#[derive(Serialize, Deserialize)]
pub(crate) struct Saved {
    pieces: Vec<SavedPiece>,
    to_move: Seat,
    lord_placed: bool,
    defender_moves: u8,
    capture_made: bool,
    quiet_plies: u16,
    plies: u32,
    #[serde(default)]
    last: Option<SavedLast>,
    /// House rule « seigneur agile » switched on (command `nimble_lord`); left out when off.
    #[serde(default, skip_serializing_if = "is_false")]
    nimble_lord: bool,
    /// House rule « renforts » (command `reinforcements`): `ready`, `asking` or `used`;
    /// left out when off.
    #[serde(default, skip_serializing_if = "is_off")]
    reinforcements: Reinforcements,
}

fn is_off(rule: &Reinforcements) -> bool {
    *rule == Reinforcements::Off
}

fn is_false(on: &bool) -> bool {
    !*on
}

#[derive(Serialize, Deserialize)]
struct SavedPiece {
    id: String,
    at: String,
}

#[derive(Serialize, Deserialize)]
struct SavedLast {
    #[serde(default)]
    from: Option<String>,
    to: String,
    #[serde(default)]
    taken: Option<String>,
}

impl From<Siege> for Saved {
    fn from(game: Siege) -> Self {
        let mut pieces: Vec<(Code, u8)> = (0..CELLS as u8)
            .filter(|&s| game.board[s as usize] != EMPTY)
            .map(|s| (game.board[s as usize], s))
            .collect();
        pieces.sort_unstable();
        Saved {
            pieces: pieces
                .into_iter()
                .map(|(code, s)| SavedPiece {
                    id: board::piece_id(code).into(),
                    at: board::name(s),
                })
                .collect(),
            to_move: game.to_move,
            lord_placed: game.lord_placed,
            defender_moves: game.defender_moves,
            capture_made: game.capture_made,
            quiet_plies: game.quiet_plies,
            plies: game.plies,
            last: game.last.map(|last| SavedLast {
                from: last.from.map(board::name),
                to: board::name(last.to),
                taken: (last.taken != EMPTY).then(|| board::piece_id(last.taken).into()),
            }),
            nimble_lord: game.nimble_lord,
            reinforcements: game.reinforcements,
        }
    }
}

impl Saved {
    /// A position after the lord's placement, with SG-R over and no move played: what
    /// [`Siege::from_diagram`] builds.
    pub(crate) fn position(pieces: &[(Code, u8)], to_move: Seat) -> Saved {
        Saved {
            pieces: pieces
                .iter()
                .map(|&(code, s)| SavedPiece {
                    id: board::piece_id(code).into(),
                    at: board::name(s),
                })
                .collect(),
            to_move,
            lord_placed: true,
            defender_moves: SPECIAL_RULE_MOVES,
            capture_made: false,
            quiet_plies: 0,
            plies: 0,
            last: None,
            nimble_lord: false,
            reinforcements: Reinforcements::Off,
        }
    }
}

fn square(name: &str) -> Result<u8, String> {
    board::parse(name).ok_or_else(|| format!("`{name}` is not a square of the board"))
}

impl TryFrom<Saved> for Siege {
    type Error = String;

    fn try_from(saved: Saved) -> Result<Self, String> {
        let mut game = Siege::initial();
        game.board = [EMPTY; CELLS];
        game.knights = 0;
        game.soldiers = 0;
        let mut lord_seen = false;
        for piece in &saved.pieces {
            let code = board::parse_piece(&piece.id)
                .ok_or_else(|| format!("`{}` is not a piece of Siège", piece.id))?;
            let at = square(&piece.at)?;
            if game.board.contains(&code) {
                return Err(format!("piece `{}` is listed twice", piece.id));
            }
            if game.board[at as usize] != EMPTY {
                return Err(format!("two pieces stand on {}", piece.at));
            }
            if board::is_knight(code) {
                game.knights += 1;
            } else if board::is_soldier(code) {
                if board::has(MOAT, at) {
                    return Err(format!("a soldier cannot stand on {}", piece.at));
                }
                game.soldiers += 1;
            } else {
                if !board::has(CASTLE, at) {
                    return Err(format!("the lord cannot stand on {}", piece.at));
                }
                lord_seen = true;
            }
            game.board[at as usize] = code;
        }
        if !saved.lord_placed && lord_seen {
            return Err("the lord is on the board before being placed".into());
        }
        if saved.to_move > 1 {
            return Err(format!("seat {} does not play Siège", saved.to_move));
        }
        if saved.defender_moves > SPECIAL_RULE_MOVES {
            return Err("defender_moves counts at most 4".into());
        }
        game.to_move = saved.to_move;
        game.lord_placed = saved.lord_placed;
        game.lord_taken = saved.lord_placed && !lord_seen;
        game.defender_moves = saved.defender_moves;
        game.capture_made = saved.capture_made;
        game.quiet_plies = saved.quiet_plies;
        game.plies = saved.plies;
        game.nimble_lord = saved.nimble_lord;
        if saved.reinforcements == Reinforcements::Asking
            && (saved.to_move != crate::DEFENDER || !saved.lord_placed)
        {
            return Err("the reinforcements question is the defender's, during the game".into());
        }
        // The question brings back a soldier that was lost: without one, there is nothing to ask.
        if saved.reinforcements == Reinforcements::Asking && game.soldiers == 4 {
            return Err("the reinforcements question without a soldier lost".into());
        }
        game.reinforcements = saved.reinforcements;
        game.last = match saved.last {
            None => None,
            Some(last) => Some(LastMove {
                from: last.from.as_deref().map(square).transpose()?,
                to: square(&last.to)?,
                taken: match last.taken.as_deref() {
                    None => EMPTY,
                    Some(id) => board::parse_piece(id)
                        .ok_or_else(|| format!("`{id}` is not a piece of Siège"))?,
                },
            }),
        };
        debug_assert!(game.board.iter().filter(|&&c| c == LORD).count() <= 1);
        Ok(game)
    }
}
