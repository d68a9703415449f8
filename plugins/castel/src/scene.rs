//! What a viewer sees: the castle (an 8×8 board: the 6×6 castle with a ring of
//! "outside the walls" around it, the four engine positions in the middle of each side),
//! the exchange face up, the viewer's own hand face up, the other hands face down, hand and
//! pile counts, actions left and the last card placed. Nothing hidden goes in: a face-down
//! card's id is its slot (`hand-2-0`), never the card.

use veillee_sdk::{
    text, Board, Card, Cell, Colour, Highlight, HighlightKind, Manifest, Piece, Scene, ScoreLine,
    Seat, SeatInfo, Shape, Target, Text, Zone as SceneZone,
};

use crate::cards::{self, kind, Sex, Zone, KINDS};
use crate::{board, Castel, Spot, Stack, BOARD_ID, PAWNS_EN, PAWNS_FR};

/// Pawn colours.
pub fn pawn_colour(seat: Seat) -> Colour {
    match seat {
        0 => Colour::rgb(40, 40, 40),
        1 => Colour::rgb(225, 205, 160),
        2 => Colour::rgb(200, 50, 50),
        3 => Colour::rgb(50, 150, 70),
        _ => Colour::rgb(130, 60, 160),
    }
}

/// The manifest.
pub fn manifest() -> Manifest {
    Manifest {
        id: "castel".into(),
        name: text("Castel", "Castel"),
        description: text(
            "Placez toutes vos cartes dans et autour du castel avant les autres ; la plupart \
             des cartes renvoient d'autres cartes dans les mains.",
            "Place all your cards in and around the little castle before the others; most \
             cards send other cards back to the players' hands.",
        ),
        version: "1.0.0".into(),
        min_players: 2,
        max_players: 5,
        seats: (0..5)
            .map(|s| SeatInfo {
                name: text(
                    format!("Pions {}", PAWNS_FR[s as usize]),
                    format!("{} pawns", crate::capitalised(PAWNS_EN[s as usize])),
                ),
                colour: pawn_colour(s),
            })
            .collect(),
        options: vec![],
        hidden_information: true,
        operations: crate::ops::specs(),
        rules: Some(veillee_sdk::Rules::new(
            include_str!("../rules/fr.md"),
            include_str!("../rules/en.md"),
        )),
        // The author's estimate for people who know the rules (no box to quote).
        play_time: Some(veillee_sdk::PlayTime::minutes(20, 45)),
    }
}

/// The board cell of an engine position.
pub fn engine_cell(r: u8) -> (u16, u16) {
    [(3, 0), (7, 3), (4, 7), (0, 4)][r as usize]
}

/// The ring cells outside the walls for other cards, clockwise from the north-west.
fn ring() -> Vec<(u16, u16)> {
    let mut out = Vec::new();
    for x in 0..8 {
        out.push((x, 0));
    }
    for y in 1..8 {
        out.push((7, y));
    }
    for x in (0..7).rev() {
        out.push((x, 7));
    }
    for y in (1..7).rev() {
        out.push((0, y));
    }
    out.retain(|c| !(0..4).any(|r| engine_cell(r) == *c));
    out
}

fn outside_cell(i: usize) -> (u16, u16) {
    let r = ring();
    r[i % r.len()]
}

/// The click target of a placement spot.
pub fn spot_target(game: &Castel, spot: Spot) -> Target {
    match spot {
        Spot::Square(q) => {
            let (x, y) = board::xy(q);
            Target::cell(BOARD_ID, x as u16 + 1, y as u16 + 1)
        }
        Spot::Engine(r) => {
            let (x, y) = engine_cell(r);
            Target::cell(BOARD_ID, x, y)
        }
        Spot::Outside => {
            let (x, y) = outside_cell(game.outside.len());
            Target::cell(BOARD_ID, x, y)
        }
        Spot::On(c) => Target::piece(cards::card_id(c)),
    }
}

fn card_face(game: &Castel, c: u8) -> Card {
    let (fr, en) = cards::card_name(c);
    let def = game.def(c);
    let (zf, ze) = match def.zone {
        Zone::Courtyard => ("Cour", "Courtyard"),
        Zone::Rampart => ("Rempart", "Rampart"),
        Zone::Tower => ("Tour", "Tower"),
        Zone::Outside => ("Hors les murs", "Outside the walls"),
        Zone::Engine => ("Face à un rempart", "Facing a rampart"),
        Zone::OnCard => ("Sur une carte", "On a card"),
    };
    // Where it goes, then what it does, in the words of the rules.
    let (ef, ee) = crate::effects::effect(kind(c));
    Card {
        id: cards::card_id(c),
        face_up: true,
        title: text(fr, en),
        text: text(format!("{zf} — {ef}"), format!("{ze} — {ee}")),
        colour: zone_colour(def.zone),
        die: None,
    }
}

fn zone_colour(zone: Zone) -> Colour {
    match zone {
        Zone::Courtyard => Colour::rgb(190, 60, 60),
        Zone::Outside | Zone::Engine => Colour::rgb(70, 150, 80),
        Zone::Rampart => Colour::rgb(230, 140, 40),
        Zone::Tower => Colour::rgb(60, 100, 190),
        Zone::OnCard => Colour::rgb(140, 70, 160),
    }
}

fn piece(game: &Castel, c: u8, col: u16, row: u16, depth: usize) -> Piece {
    let k = kind(c);
    let def = game.def(c);
    let shape = if def.zone == Zone::OnCard {
        Shape::Knight
    } else if def.soldier {
        Shape::Soldier
    } else if matches!(k, cards::ROI | cards::REINE | cards::PRINCE) {
        Shape::Lord
    } else if def.sex == Sex::None {
        Shape::Token
    } else {
        Shape::Square
    };
    let mut label = KINDS[k as usize].short.to_string();
    if depth > 0 {
        label = format!("{label}+{depth}");
    }
    Piece {
        id: cards::card_id(c),
        col,
        row,
        shape,
        colour: game.pawns[c as usize]
            .map(pawn_colour)
            .unwrap_or(Colour::rgb(150, 150, 150)),
        label,
        owner: game.pawns[c as usize],
        // The label is a French abbreviation: the card's name says it in each language.
        name: Some(text(KINDS[k as usize].fr, KINDS[k as usize].en)),
    }
}

/// The scene for one viewer.
pub fn view(game: &Castel, viewer: Option<Seat>) -> Scene {
    let mut b = Board {
        id: BOARD_ID.into(),
        title: text("Le castel", "The castle"),
        cols: 8,
        rows: 8,
        // The castle's squares are named like a chess board (a–f, 6 at the north); the ring
        // outside the walls has no names.
        col_labels: std::iter::once(String::new())
            .chain(('a'..='f').map(String::from))
            .chain(std::iter::once(String::new()))
            .collect(),
        row_labels: std::iter::once(String::new())
            .chain((1..=6).rev().map(|r: u8| r.to_string()))
            .chain(std::iter::once(String::new()))
            .collect(),
        ..Board::default()
    };
    for y in 0..8u16 {
        for x in 0..8u16 {
            let (kind, colour, label) = if (1..=6).contains(&x) && (1..=6).contains(&y) {
                let q = (y as u8 - 1) * 6 + (x as u8 - 1);
                match board::zone(q) {
                    Zone::Tower => ("tower", Colour::rgb(120, 130, 170), ""),
                    Zone::Rampart => ("rampart", Colour::rgb(190, 160, 110), ""),
                    _ => ("courtyard", Colour::rgb(215, 200, 170), ""),
                }
            } else if (0..4).any(|r| engine_cell(r) == (x, y)) {
                ("engine", Colour::rgb(110, 150, 90), "⚙")
            } else {
                ("outside", Colour::rgb(130, 170, 110), "")
            };
            b.cells.push(Cell {
                kind: kind.into(),
                colour,
                label: label.into(),
            });
        }
    }
    for (s, v) in game.stacks() {
        let (col, row) = match s {
            Stack::Square(q) => {
                let (x, y) = board::xy(q);
                (x as u16 + 1, y as u16 + 1)
            }
            Stack::Engine(r) => engine_cell(r),
            Stack::Outside(i) => outside_cell(i as usize),
        };
        for (depth, &c) in v.iter().enumerate() {
            b.pieces.push(piece(game, c, col, row, depth));
        }
    }
    let mut zones = vec![SceneZone {
        id: "exchange".into(),
        title: text("L'échange", "The exchange"),
        owner: None,
        cards: game.exchange.iter().map(|&c| card_face(game, c)).collect(),
    }];
    let mut scores = Vec::new();
    for s in 0..game.players {
        let hand = &game.hands[s as usize];
        let cards_shown = if Some(s) == viewer {
            hand.iter().map(|&c| card_face(game, c)).collect()
        } else {
            (0..hand.len())
                .map(|i| Card {
                    id: format!("hand-{s}-{i}"),
                    face_up: false,
                    colour: pawn_colour(s),
                    ..Card::default()
                })
                .collect()
        };
        zones.push(SceneZone {
            id: format!("hand-{s}"),
            title: text(
                format!("Main ({})", PAWNS_FR[s as usize]),
                format!("Hand ({})", PAWNS_EN[s as usize]),
            ),
            owner: Some(s),
            cards: cards_shown,
        });
        scores.push(ScoreLine {
            label: text("Cartes en main", "Cards in hand"),
            value: hand.len().to_string(),
            seat: Some(s),
        });
        scores.push(ScoreLine {
            label: text("Pioche", "Draw pile"),
            value: game.piles[s as usize].len().to_string(),
            seat: Some(s),
        });
    }
    let mut highlights = Vec::new();
    if let Some(c) = game.last_placed {
        if game.zone_of(c).is_some() {
            highlights.push(Highlight {
                target: Target::piece(cards::card_id(c)),
                kind: HighlightKind::LastMove,
            });
        }
    }
    let last = game.last_placed.map(cards::card_name);
    let last_text = match &last {
        Some((fr, en)) => text(
            format!(" Dernière carte placée : {fr}."),
            format!(" Last card placed: {en}."),
        ),
        None => Text::default(),
    };
    let message = match game.ending() {
        Some(_) => {
            let mut t = text("Partie terminée.", "Game over.");
            t.fr.push_str(&last_text.fr);
            t.en.push_str(&last_text.en);
            t
        }
        None if !game.draw_offered_to().is_empty() => {
            let fr: Vec<&str> = game
                .draw_offered_to()
                .iter()
                .map(|&s| PAWNS_FR[s as usize])
                .collect();
            let en: Vec<String> = game
                .draw_offered_to()
                .iter()
                .map(|&s| crate::capitalised(PAWNS_EN[s as usize]))
                .collect();
            text(
                format!(
                    "Limite de sécurité ({} tours) : partie nulle proposée. À répondre : pions {}.",
                    game.turns,
                    fr.join(", ")
                ),
                format!(
                    "Safety limit ({} turns): a draw is offered. To answer: {} pawns.",
                    game.turns,
                    en.join(", ")
                ),
            )
        }
        None => {
            let (seat, left) = game.turn();
            text(
                format!(
                    "Au tour des pions {} : {left} action(s) restante(s).{}",
                    PAWNS_FR[seat as usize], last_text.fr
                ),
                format!(
                    "{} pawns to play: {left} action(s) left.{}",
                    crate::capitalised(PAWNS_EN[seat as usize]),
                    last_text.en
                ),
            )
        }
    };
    Scene {
        boards: vec![b],
        zones,
        scores,
        message,
        rotation: 0,
        highlights,
    }
}
