//! The saved form of a game: readable, deterministic JSON.
//!
//! ```json
//! {"pieces":[{"id":"w-wall1","at":"b9"},…,{"id":"b-gate2","at":"f2"}],"to_move":0,
//!  "plies":0,"rounds":0,"history":["e9d8f8b9h9e1d2f2b1h1w"],"last":null,"end":null}
//! ```
//!
//! Pieces come in a fixed order (White's then Black's, each `wall1 wall2 tower gate1
//! gate2`), a wall at its middle square. `history` lists every position so far (the
//! repetition rule, BT-E3): each player's tower, gates and walls by square, White first, then
//! `w` or `b` for the player to move. `draw_offer` (the seats that accepted) appears only
//! while the safety limit's draw is offered. Loading checks that the position makes sense, so a bad
//! save is refused instead of misbehaving later.

use serde::{Deserialize, Serialize};
use veillee_sdk::Seat;

use crate::board::{self, PieceIx, Sq, PIECES};
use crate::{Batisseurs, End, Key, LastMove, BLACK, WHITE};

#[derive(Serialize, Deserialize)]
pub(crate) struct Saved {
    pieces: Vec<SavedPiece>,
    to_move: Seat,
    plies: u32,
    rounds: u16,
    history: Vec<String>,
    #[serde(default)]
    last: Option<SavedLast>,
    #[serde(default)]
    end: Option<String>,
    /// While the safety limit's draw is offered: the seats that accepted so far (absent
    /// without an offer, so other games save as before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    draw_offer: Option<Vec<Seat>>,
    /// House rule « Tour maîtresse » (absent when off, so plain games save as before).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    central_tower: bool,
}

#[derive(Serialize, Deserialize)]
struct SavedPiece {
    id: String,
    at: String,
}

#[derive(Serialize, Deserialize)]
struct SavedLast {
    /// The pieces that moved, the part's first piece first.
    pieces: Vec<String>,
    /// Its first piece's square before the move.
    from: String,
    /// And after.
    to: String,
    jump: bool,
}

fn key_string(key: &Key) -> String {
    let mut s = String::with_capacity(21);
    for &q in &key[..10] {
        board::push_name(&mut s, q);
    }
    s.push(if key[10] == WHITE { 'w' } else { 'b' });
    s
}

fn parse_key(s: &str) -> Result<Key, String> {
    let bad = || format!("`{s}` is not a position of the history");
    if s.len() != 21 || !s.is_ascii() {
        return Err(bad());
    }
    let mut key = [0u8; 11];
    for (i, k) in key.iter_mut().take(10).enumerate() {
        *k = board::parse(&s[2 * i..2 * i + 2]).ok_or_else(bad)?;
    }
    key[10] = match &s[20..] {
        "w" => WHITE,
        "b" => BLACK,
        _ => return Err(bad()),
    };
    Ok(key)
}

fn end_name(end: End) -> &'static str {
    match end {
        End::Castle(WHITE) => "castle-white",
        End::Castle(_) => "castle-black",
        End::TowerInCentre(WHITE) => "tower-white",
        End::TowerInCentre(_) => "tower-black",
        End::BothCastles => "both-castles",
        End::Repetition => "repetition",
        End::DrawAgreed => "draw-agreed",
    }
}

fn parse_end(s: &str) -> Result<End, String> {
    Ok(match s {
        "castle-white" => End::Castle(WHITE),
        "castle-black" => End::Castle(BLACK),
        "tower-white" => End::TowerInCentre(WHITE),
        "tower-black" => End::TowerInCentre(BLACK),
        "both-castles" => End::BothCastles,
        "repetition" => End::Repetition,
        // Saves of earlier versions, where 150 rounds drew the game without asking.
        "draw-agreed" | "round-limit" => End::DrawAgreed,
        _ => return Err(format!("`{s}` is not an ending")),
    })
}

impl From<Batisseurs> for Saved {
    fn from(game: Batisseurs) -> Self {
        let mut pieces = Vec::with_capacity(10);
        for seat in [WHITE, BLACK] {
            for i in 0..PIECES {
                pieces.push(SavedPiece {
                    id: Batisseurs::piece_id(seat, i),
                    at: board::name(game.at[seat as usize][i as usize]),
                });
            }
        }
        Saved {
            pieces,
            to_move: game.to_move,
            plies: game.plies,
            rounds: game.rounds,
            history: game.history.iter().map(key_string).collect(),
            last: game.last.map(|last| SavedLast {
                pieces: (0..PIECES)
                    .filter(|i| last.part & (1 << i) != 0)
                    .map(|i| Batisseurs::piece_id(last.seat, i))
                    .collect(),
                from: board::name(last.from),
                to: board::name(last.to),
                jump: last.jump,
            }),
            end: game.end.map(|end| end_name(end).to_string()),
            draw_offer: game
                .draw_offer
                .map(|accepted| (0..2).filter(|&s| accepted & (1 << s) != 0).collect()),
            central_tower: game.central_tower,
        }
    }
}

/// The seats that accepted the draw offered, as bits; both cannot have (the game would be
/// over).
fn accepted_bits(seats: Vec<Seat>) -> Result<u8, String> {
    let mut bits = 0u8;
    for seat in seats {
        if seat > 1 || bits & (1 << seat) != 0 {
            return Err(format!("seat {seat} cannot accept the draw offered"));
        }
        bits |= 1 << seat;
    }
    if bits == 0b11 {
        return Err("both players accepted the draw but the game goes on".into());
    }
    Ok(bits)
}

fn square(name: &str) -> Result<Sq, String> {
    board::parse(name).ok_or_else(|| format!("`{name}` is not a square of the board"))
}

fn piece(id: &str) -> Result<(Seat, PieceIx), String> {
    [WHITE, BLACK]
        .into_iter()
        .flat_map(|seat| (0..PIECES).map(move |i| (seat, i)))
        .find(|&(seat, i)| Batisseurs::piece_id(seat, i) == id)
        .ok_or_else(|| format!("`{id}` is not a piece of Bâtisseurs"))
}

impl TryFrom<Saved> for Batisseurs {
    type Error = String;

    fn try_from(saved: Saved) -> Result<Self, String> {
        let mut at = [[Sq::MAX; PIECES as usize]; 2];
        let mut covered: board::Mask = 0;
        for p in &saved.pieces {
            let (seat, i) = piece(&p.id)?;
            let s = square(&p.at)?;
            if at[seat as usize][i as usize] != Sq::MAX {
                return Err(format!("piece `{}` is listed twice", p.id));
            }
            if !board::fits(i, s) {
                return Err(format!("`{}` cannot stand on {}", p.id, p.at));
            }
            let fp = board::footprint(i, s);
            if covered & fp != 0 {
                return Err(format!("`{}` on {} overlaps another piece", p.id, p.at));
            }
            covered |= fp;
            at[seat as usize][i as usize] = s;
        }
        if at.iter().flatten().any(|&s| s == Sq::MAX) {
            return Err("every player has exactly five pieces".into());
        }
        if saved.to_move > 1 {
            return Err(format!("seat {} does not play Bâtisseurs", saved.to_move));
        }
        let history = saved
            .history
            .iter()
            .map(|s| parse_key(s))
            .collect::<Result<Vec<Key>, String>>()?;
        let mut game = Batisseurs {
            at,
            to_move: saved.to_move,
            plies: saved.plies,
            rounds: saved.rounds,
            history,
            last: None,
            end: saved.end.as_deref().map(parse_end).transpose()?,
            draw_offer: saved.draw_offer.map(accepted_bits).transpose()?,
            central_tower: saved.central_tower,
        };
        if game.draw_offer.is_some() && game.end.is_some() {
            return Err("a draw is offered in a finished game".into());
        }
        if game.history.last() != Some(&game.key()) {
            return Err("the history must end with the current position".into());
        }
        if let Some(last) = saved.last {
            let mut part = 0u8;
            let mut seat = None;
            for id in &last.pieces {
                let (s, i) = piece(id)?;
                if seat.is_some_and(|seat| seat != s) {
                    return Err("the last move moved pieces of both players".into());
                }
                seat = Some(s);
                part |= 1 << i;
            }
            let seat = seat.ok_or("the last move moved no piece")?;
            game.last = Some(LastMove {
                seat,
                part,
                from: square(&last.from)?,
                to: square(&last.to)?,
                jump: last.jump,
            });
        }
        Ok(game)
    }
}
