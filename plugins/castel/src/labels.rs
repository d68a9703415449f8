//! The words of the game: seat names, spot names and ids, move labels and move ids.

use veillee_sdk::{text, Seat, Text};

use crate::board;
use crate::cards;
use crate::{Castel, Move, Spot, PAWNS_EN, PAWNS_FR};

pub(crate) fn seat_name(seat: Seat) -> Text {
    text(
        format!("Pions {}", PAWNS_FR[seat as usize]),
        format!("{} pawns", capitalised(PAWNS_EN[seat as usize])),
    )
}

/// `black` → `Black`.
pub(crate) fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

impl Castel {
    pub(crate) fn spot_id(spot: Spot) -> String {
        match spot {
            Spot::Square(q) => board::name(q),
            Spot::Outside => "outside".into(),
            Spot::Engine(r) => format!("engine-{}", board::RAMPARTS[r as usize]),
            Spot::On(c) => format!("on-{}", cards::card_id(c)),
        }
    }

    pub(crate) fn spot_text(spot: Spot) -> Text {
        match spot {
            Spot::Square(q) => Text::same(board::name(q)),
            Spot::Outside => text("hors les murs", "outside the walls"),
            Spot::Engine(r) => text(
                format!("face au rempart {}", board::RAMPARTS_FR[r as usize]),
                format!("facing the {} rampart", board::RAMPARTS_EN[r as usize]),
            ),
            Spot::On(c) => {
                let (fr, en) = cards::card_name(c);
                text(format!("sur {fr}"), format!("on {en}"))
            }
        }
    }

    pub(crate) fn label(&self, mv: &Move) -> Text {
        match *mv {
            Move::Draw => text("Piocher", "Draw"),
            Move::Pass => text(
                "Passer (aucune action possible)",
                "Pass (no action possible)",
            ),
            Move::AcceptDraw => text("Accepter la partie nulle", "Accept the draw"),
            Move::PlayOn => text("Continuer la partie", "Play on"),
            Move::Exchange { hand, exchange } => {
                let (hf, he) = cards::card_name(hand);
                let (xf, xe) = cards::card_name(exchange);
                text(
                    format!("Échanger {hf} contre {xf}"),
                    format!("Exchange {he} for {xe}"),
                )
            }
            Move::Place { card, spot } => {
                let (f, e) = cards::card_name(card);
                let at = Self::spot_text(spot);
                text(
                    format!("Placer {f} : {}", at.fr),
                    format!("Place {e}: {}", at.en),
                )
            }
        }
    }

    /// The stable id of a move.
    pub(crate) fn move_id_of(mv: &Move) -> String {
        match *mv {
            Move::Draw => "draw".into(),
            Move::Pass => "pass".into(),
            Move::AcceptDraw => "accept-draw".into(),
            Move::PlayOn => "play-on".into(),
            Move::Exchange { hand, exchange } => format!(
                "exchange-{}-{}",
                cards::card_id(hand),
                cards::card_id(exchange)
            ),
            Move::Place { card, spot } => {
                format!("place-{}-{}", cards::card_id(card), Self::spot_id(spot))
            }
        }
    }
}
