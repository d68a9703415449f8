//! What a viewer sees. By construction nothing hidden goes in: the trapdoors appear only
//! once revealed (and, in memory mode, only during the turn they were revealed in,
//! RN-P4); the piles are face-down cards counted, never named. Every viewer — each seat and
//! a spectator — therefore gets the same scene: the rails are public (« de façon visible
//! pour tout le monde »).

use veillee_sdk::{
    text, Board, Card, Cell, Colour, DieFace, Highlight, HighlightKind, Piece, Scene, ScoreLine,
    Seat, Shape, Target, Zone,
};

use crate::board::{self, Node, NO, ROOM, TILES, TREASURE};
use crate::{
    back, helmet_colour, number, portrait_name, seat_colour, Ending, Phase, Portrait, RocNoir,
    Standoff, BOARD_ID, ENTRANCE, HELMETS, HELMETS_FR, RING_FACE, SEAT_EN, SEAT_FR, SEAT_IDS,
};

/// A knight's piece id: `red-black`.
pub fn knight_id(seat: Seat, helmet: u8) -> String {
    format!("{}-{}", SEAT_IDS[seat as usize], HELMETS[helmet as usize])
}

/// A rail card's id: `rail-red-black-7a` (portrait 7, copy a, beside the black knight).
pub fn rail_card_id(seat: Seat, helmet: u8, p: Portrait) -> String {
    format!(
        "rail-{}-{}-{}",
        SEAT_IDS[seat as usize],
        HELMETS[helmet as usize],
        portrait_name(p)
    )
}

/// The knight die's six faces: two of each helmet's colour, the ring on [`RING_FACE`].
fn die_faces() -> Vec<DieFace> {
    (0..6u8)
        .map(|f| {
            let h = usize::from(f / 2);
            let colour = helmet_colour(f / 2);
            let (fr, en) = (capital(HELMETS_FR[h]), capital(HELMETS[h]));
            if f == RING_FACE {
                DieFace::plain(colour, text(format!("{fr}, anneau"), format!("{en}, ring")))
                    .marked("◯")
            } else {
                DieFace::plain(colour, text(fr, en))
            }
        })
        .collect()
}

/// `noir` → `Noir`.
fn capital(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

/// Helmet labels on the knights.
const HELMET_LABELS: [&str; 3] = ["N", "G", "B"];

impl RocNoir {
    /// Whether a tile's trapdoor is drawn now (RN-P4).
    fn trap_shown(&self, t: usize) -> bool {
        let mask = if self.assisted {
            self.revealed
        } else {
            self.shown
        };
        mask & (1 << t) != 0
    }

    /// The scene (the same for every viewer: see the module comment).
    pub(crate) fn scene(&self, _viewer: Option<Seat>) -> Scene {
        let mut board = Board {
            id: BOARD_ID.into(),
            cols: 10,
            rows: 10,
            col_labels: (0..10).map(|c| ((b'a' + c) as char).to_string()).collect(),
            row_labels: (1..=10).map(|r| r.to_string()).collect(),
            ..Board::default()
        };
        let mut highlights = Vec::new();
        for y in 0..10i8 {
            for x in 0..10i8 {
                let n = board::node_at(x, y).unwrap_or(NO);
                board.cells.push(self.cell(n, x, y));
            }
        }
        // Knights: rooms spread theirs over the block's four cells.
        let mut in_room = [0u16; 5];
        for s in 0..self.players {
            for h in 0..3u8 {
                let n = self.pos[s as usize][h as usize];
                let (col, row) = if n >= ROOM {
                    let (x0, y0) = board::room_origin(n - ROOM);
                    let k = in_room[(n - ROOM) as usize];
                    in_room[(n - ROOM) as usize] += 1;
                    (x0 as u16 + k % 2, y0 as u16 + (k / 2) % 2)
                } else {
                    ((n % 10) as u16, (n / 10) as u16)
                };
                board.pieces.push(Piece {
                    id: knight_id(s, h),
                    col,
                    row,
                    shape: Shape::Knight,
                    colour: seat_colour(s),
                    label: HELMET_LABELS[h as usize].into(),
                    owner: Some(s),
                    name: None,
                });
            }
        }
        if self.active != NO && self.ending.is_none() {
            highlights.push(Highlight {
                target: Target::piece(knight_id(self.turn, self.active)),
                kind: HighlightKind::Selected,
            });
        }
        // "Fell!": the knight and, while it is shown, the trapdoor.
        if let Some((k, trap)) = self.fell {
            highlights.push(Highlight {
                target: Target::piece(knight_id(k / 3, k % 3)),
                kind: HighlightKind::Danger,
            });
            if let Some((t, _)) = board::tile_of(trap) {
                if self.trap_shown(t) {
                    highlights.push(Highlight {
                        target: Target::cell(BOARD_ID, (trap % 10) as u16, (trap / 10) as u16),
                        kind: HighlightKind::Danger,
                    });
                }
            }
        }

        let mut zones = Vec::new();
        // The die's last face, drawn as a die (a variant turns the castle on the ring).
        zones.push(Zone {
            id: "die".into(),
            title: text("Dé", "Die"),
            owner: None,
            cards: self
                .die
                .map(|up| vec![Card::die("die", die_faces(), up).rolled(self.rolls)])
                .unwrap_or_default(),
        });
        // Each rail, face up (public), grouped by helmet.
        for s in 0..self.players {
            let mut cards = Vec::new();
            for h in 0..3u8 {
                for &p in &self.rail[s as usize][h as usize] {
                    if p == NO {
                        continue;
                    }
                    cards.push(Card {
                        id: rail_card_id(s, h, p),
                        face_up: true,
                        title: text(number(p).to_string(), number(p).to_string()),
                        // The back names the gallery the portrait comes from (RN-G3 needs it).
                        text: text(
                            format!(
                                "chevalier {}, dos : galerie {}",
                                HELMETS_FR[h as usize],
                                crate::gallery_fr(back(p))
                            ),
                            format!(
                                "{} knight, back: {} gallery",
                                HELMETS[h as usize],
                                HELMETS[back(p) as usize]
                            ),
                        ),
                        colour: helmet_colour(h),
                        die: None,
                    });
                }
            }
            zones.push(Zone {
                id: format!("rail-{}", SEAT_IDS[s as usize]),
                title: text(
                    format!("Portraits de {}", SEAT_FR[s as usize]),
                    format!("{}'s portraits", SEAT_EN[s as usize]),
                ),
                owner: Some(s),
                cards,
            });
        }
        // The piles: face down, only their size.
        for g in 0..3u8 {
            zones.push(Zone {
                id: format!("pile-{}", HELMETS[g as usize]),
                title: text(
                    format!("Galerie {}", crate::gallery_fr(g)),
                    format!("{} gallery", HELMETS[g as usize]),
                ),
                owner: None,
                cards: (0..self.piles[g as usize].len())
                    .map(|i| Card {
                        id: format!("pile-{}-{i}", HELMETS[g as usize]),
                        face_up: false,
                        title: text("", ""),
                        text: text("", ""),
                        colour: helmet_colour(g),
                        die: None,
                    })
                    .collect(),
            });
        }

        let mut scores = Vec::new();
        for s in 0..self.players {
            let home = (0..3)
                .filter(|&h| self.pos[s as usize][h] == TREASURE)
                .count();
            // The seat is the line's column (or its name, in the terminal): the label
            // says only what is counted.
            scores.push(ScoreLine::seat(
                s,
                text("Chevaliers au trésor", "Knights in the treasure room"),
                format!("{home}/3"),
            ));
            scores.push(ScoreLine::seat(
                s,
                text("Cordes", "Ropes"),
                self.ropes[s as usize],
            ));
        }
        scores.push(ScoreLine {
            label: text("Lancers", "Rolls"),
            // The roll count at which the safety net next offers a draw.
            value: format!("{}/{}", self.rolls, self.draw_offer_at),
            seat: None,
        });

        Scene {
            boards: vec![board],
            zones,
            scores,
            message: self.message(),
            // House rule « le château fort enchanté »: the picture turns, nothing else.
            rotation: self.castle_turns.unwrap_or(0),
            highlights,
        }
    }

    /// One grid cell.
    fn cell(&self, n: Node, x: i8, y: i8) -> Cell {
        if n == TREASURE {
            return Cell {
                kind: "treasure".into(),
                colour: Colour::rgb(220, 180, 60),
                label: "♛".into(),
            };
        }
        if n >= ROOM {
            return match self.corners[(n - ROOM) as usize] {
                ENTRANCE => Cell {
                    kind: "entrance".into(),
                    colour: Colour::rgb(150, 110, 70),
                    label: "⌂".into(),
                },
                g => Cell {
                    kind: format!("gallery-{}", HELMETS[g as usize]),
                    colour: helmet_colour(g),
                    label: "▣".into(),
                },
            };
        }
        let (t, p) = board::tile_of(n).unwrap_or((0, 0));
        if self.trap_shown(t) && self.traps[t] == p {
            return Cell {
                kind: "trapdoor".into(),
                colour: Colour::rgb(60, 20, 20),
                label: "✕".into(),
            };
        }
        // Tiles alternate in shade so that their 2×2 outline can be seen.
        let dark = ((x / 2) + (y / 2)) % 2 == 0;
        Cell {
            kind: "flagstone".into(),
            colour: if dark {
                Colour::rgb(120, 120, 110)
            } else {
                Colour::rgb(165, 160, 145)
            },
            label: String::new(),
        }
    }

    /// The status message.
    fn message(&self) -> veillee_sdk::Text {
        let s = self.turn as usize;
        match self.ending {
            Some(Ending::Won(w)) => {
                return text(
                    format!("{} a gagné !", SEAT_FR[w as usize]),
                    format!("{} won!", SEAT_EN[w as usize]),
                )
            }
            Some(Ending::DrawAgreed) => {
                return text(
                    "Partie nulle, acceptée par tous (limite de sécurité)",
                    "Draw, accepted by everyone (safety limit)",
                )
            }
            Some(Ending::StandoffAgreed) => {
                return text(
                    "Partie nulle, acceptée par tous (impasse)",
                    "Draw, accepted by everyone (stand-off)",
                )
            }
            Some(Ending::RollLimit) => {
                return text("Partie nulle (limite de lancers)", "Draw (roll limit)")
            }
            None => {}
        }
        let (fr, en) = match self.phase {
            Phase::Roll => ("lance le dé".to_string(), "rolls the die".to_string()),
            Phase::Choose => (
                "choisit un autre chevalier".to_string(),
                "picks another knight".to_string(),
            ),
            Phase::Move => (
                format!(
                    "déplace le chevalier {}",
                    HELMETS_FR[self.active as usize % 3]
                ),
                format!("moves the {} knight", HELMETS[self.active as usize % 3]),
            ),
            Phase::Exchange => (
                "peut échanger des portraits".to_string(),
                "may exchange portraits".to_string(),
            ),
            Phase::Brigand => (
                "peut jouer au brigand".to_string(),
                "may play the brigand".to_string(),
            ),
            Phase::DrawOffer if self.standoff == Standoff::Offered => {
                // RN-E3: the offer says why.
                let asked = self.to_act() as usize;
                return text(
                    format!(
                        "Impasse : plus personne ne peut compléter de paire sans compléter aussi \
                         celle de sa victime. {}, acceptez-vous la partie nulle ?",
                        SEAT_FR[asked]
                    ),
                    format!(
                        "Stand-off: nobody can complete a pair any more without completing their \
                         victim's too. {}, do you accept a draw?",
                        SEAT_EN[asked]
                    ),
                );
            }
            Phase::DrawOffer => {
                let asked = self.to_act() as usize;
                return text(
                    format!(
                        "{} lancers (limite de sécurité) : {}, acceptez-vous la partie nulle ?",
                        self.rolls, SEAT_FR[asked]
                    ),
                    format!(
                        "{} rolls (safety limit): {}, do you accept a draw?",
                        self.rolls, SEAT_EN[asked]
                    ),
                );
            }
        };
        let _ = TILES;
        text(
            format!("{} {fr}", SEAT_FR[s]),
            format!("{} {en}", SEAT_EN[s]),
        )
    }
}
