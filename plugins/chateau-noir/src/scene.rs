//! What the launcher shows: the manifest and the scene.
//!
//! The scene's board is 10×10 with row `1` at the top (scene row 0) and column `a` at the
//! left, exactly as the spec's map: a square `s` is the scene cell `(col(s), row(s))`.

use veillee_sdk::{
    text, Board, Cell, Choice, Colour, Highlight, HighlightKind, Manifest, OptionKind, OptionSpec,
    Piece, Scene, ScoreLine, SeatInfo, Shape, Target, Text,
};

use crate::board::{self, army_of, is_captain, Kind, Pc, Sq, ARMY_NAMES, CELLS, NONE, PIECES};
use crate::{ChateauNoir, Phase, BOARD_ID};

/// The armies' colours: Green, Red, Blue, Yellow.
pub const ARMY_COLOURS: [Colour; 4] = [
    Colour::rgb(0x2e, 0x8b, 0x3a),
    Colour::rgb(0xc0, 0x39, 0x2b),
    Colour::rgb(0x2c, 0x5f, 0xb8),
    Colour::rgb(0xe0, 0xb0, 0x20),
];
/// The territories' (paler) colours.
const TERRITORY_COLOURS: [Colour; 4] = [
    Colour::rgb(0xb9, 0xdc, 0xb0),
    Colour::rgb(0xea, 0xb3, 0xad),
    Colour::rgb(0xb3, 0xc8, 0xea),
    Colour::rgb(0xf0, 0xe2, 0xa0),
];
const WHITE: Colour = Colour::rgb(0xf4, 0xf0, 0xe6);
const COURTYARD: Colour = Colour::rgb(0xe6, 0xdc, 0xc4);
const WALL: Colour = Colour::rgb(0x4a, 0x46, 0x42);
const TOWER: Colour = Colour::rgb(0x1e, 0x1c, 0x1a);

/// The manifest.
pub fn manifest() -> Manifest {
    let seat = |fr: &str, en: &str, army: usize| SeatInfo {
        name: text(fr, en),
        colour: ARMY_COLOURS[army],
    };
    Manifest {
        id: "chateau-noir".into(),
        name: Text::same("Château Noir"),
        description: text(
            "Jeu de stratégie québécois de 1983, pour deux à quatre joueurs, seuls ou en \
             équipes. Quatre armées d'un capitaine et de huit soldats se disputent un damier de \
             cent cases au milieu duquel se dresse un château : on saute ses murs et ses tours, \
             on encadre les pièces ennemies pour les capturer, on occupe les territoires de \
             couleur dans l'ordre de son tableau. Cinq façons de marquer, dont le « château » \
             qui capture une armée bloquée ; le premier à 27 points gagne, à moins de réussir \
             un « château noir ».",
            "A 1983 strategy game from Quebec for two to four players, alone or in teams. Four \
             armies of a captain and eight soldiers fight over a board of a hundred squares \
             with a castle in its middle: pieces jump its walls and towers, flank enemy pieces \
             to capture them and occupy the coloured territories in the order of their colour \
             table. There are five ways to score, among them the \"château\" that captures a \
             blocked army; the first side to 27 points wins, unless someone brings off a \
             \"château noir\".",
        ),
        version: "1.0.0".into(),
        min_players: 2,
        max_players: 4,
        seats: vec![
            // IV: in the order of play, partners diagonal (see `ChateauNoir::controller`). A
            // seat is named after its first army: the name is the player's default name and
            // the winner line, so it says nothing of the armies a seat adds with 2 or 3
            // players (the scores say who plays which army).
            seat("Vert", "Green", 0),
            seat("Rouge", "Red", 1),
            seat("Bleu", "Blue", 2),
            seat("Jaune", "Yellow", 3),
        ],
        options: vec![OptionSpec {
            id: "mode".into(),
            label: text("À quatre joueurs", "With four players"),
            kind: OptionKind::Choice {
                choices: vec![
                    Choice {
                        id: "teams".into(),
                        label: text(
                            "En équipes (Vert-Bleu contre Rouge-Jaune)",
                            "In teams (Green-Blue against Red-Yellow)",
                        ),
                    },
                    Choice {
                        id: "individual".into(),
                        label: text("Chacun pour soi", "Each for themselves"),
                    },
                ],
                default: "teams".into(),
            },
        }],
        hidden_information: false,
        operations: crate::ops::specs(),
        rules: Some(veillee_sdk::Rules::new(
            include_str!("../rules/fr.md"),
            include_str!("../rules/en.md"),
        )),
        // The author's estimate for people who know the rules (no box to quote).
        play_time: Some(veillee_sdk::PlayTime::minutes(45, 90)),
    }
}

/// The click target of a square.
pub fn cell_target(s: Sq) -> Target {
    Target::cell(BOARD_ID, u16::from(board::col(s)), u16::from(board::row(s)))
}

/// Whether a white square is one of a gate's two squares (CN-M5).
fn is_gate_square(s: Sq) -> bool {
    board::DIAGONAL
        .iter()
        .any(|&(dc, dr)| board::offset(s, dc, dr).is_some_and(|n| board::is_gate(s, n)))
}

/// The scene cell of a square: kind, colour and a short label.
pub fn cell(s: Sq) -> Cell {
    let (kind, colour, label) = match board::kind(s) {
        Kind::White if board::in_castle(s) => ("courtyard", COURTYARD, ""),
        Kind::White if is_gate_square(s) => ("gate", WHITE, "◇"),
        Kind::White => ("white", WHITE, ""),
        Kind::Wall => ("wall", WALL, "B"),
        Kind::Tower if board::is_twin(s) => ("twin-tower", TOWER, "XX"),
        Kind::Tower => ("tower", TOWER, "X"),
        Kind::Territory(a) => (
            [
                "territory-green",
                "territory-red",
                "territory-blue",
                "territory-yellow",
            ][a as usize],
            TERRITORY_COLOURS[a as usize],
            "",
        ),
    };
    Cell {
        kind: kind.into(),
        colour,
        label: label.into(),
    }
}

/// The scene (perfect information: every viewer sees the same).
pub fn view(game: &ChateauNoir, _viewer: Option<veillee_sdk::Seat>) -> Scene {
    let cells = (0..CELLS as Sq).map(cell).collect();
    let mut pieces = Vec::with_capacity(PIECES);
    for p in 0..PIECES as Pc {
        let s = game.pos[p as usize];
        if s == NONE {
            continue;
        }
        let army = army_of(p);
        pieces.push(Piece {
            id: board::piece_id(p),
            col: u16::from(board::col(s)),
            row: u16::from(board::row(s)),
            shape: if is_captain(p) {
                Shape::Lord
            } else {
                Shape::Soldier
            },
            colour: ARMY_COLOURS[army as usize],
            label: if is_captain(p) {
                "C".into()
            } else {
                (p % 9).to_string()
            },
            owner: Some(game.controller(army)),
            name: None,
        });
    }
    let board = Board {
        id: BOARD_ID.into(),
        title: Text::default(),
        cols: 10,
        rows: 10,
        col_labels: (b'a'..=b'j').map(|c| (c as char).to_string()).collect(),
        row_labels: (1..=10).map(|r: u8| r.to_string()).collect(),
        cells,
        pieces,
        ..Board::default()
    };

    let mut highlights = Vec::new();
    let coups = if game.this_turn.is_empty() {
        &game.prev_turn
    } else {
        &game.this_turn
    };
    for &(from, to) in coups {
        for s in [from, to] {
            let h = Highlight {
                target: cell_target(s),
                kind: HighlightKind::LastMove,
            };
            if !highlights.contains(&h) {
                highlights.push(h);
            }
        }
    }
    if let Some(p) = game.current {
        highlights.push(Highlight {
            target: Target::piece(board::piece_id(p)),
            kind: HighlightKind::Selected,
        });
    }
    for p in 0..PIECES as Pc {
        if game.pos[p as usize] == NONE {
            continue;
        }
        if game.phase == Phase::Captures && game.capturable & (1 << p) != 0 {
            highlights.push(Highlight {
                target: Target::piece(board::piece_id(p)),
                kind: HighlightKind::Danger,
            });
        } else if game.siege[p as usize] > 0 {
            highlights.push(Highlight {
                target: Target::piece(board::piece_id(p)),
                kind: HighlightKind::Info,
            });
        }
    }

    Scene {
        boards: vec![board],
        zones: Vec::new(),
        scores: scores(game),
        message: message(game),
        rotation: 0,
        highlights,
    }
}

/// Score lines: sides, armies (colour table, occupation, pieces), coups, round, turn.
fn scores(game: &ChateauNoir) -> Vec<ScoreLine> {
    let mut lines = Vec::new();
    for side in 0..game.sides() {
        let (fr, en) = game.side_name(side);
        let raw = game.score(side);
        let value = if raw < 0 {
            format!("0 (dette {})", -raw)
        } else {
            raw.to_string()
        };
        let seat = (0..game.players).find(|&s| game.seat_side(s) == side);
        lines.push(ScoreLine {
            label: text(format!("Points : {fr}"), format!("Points: {en}")),
            value,
            seat,
        });
        // House rule « Partie chronométrée » (XI.2): the points lost to the clock, already
        // counted above. Shown only once a side has been penalised.
        let lost = game.penalties[side as usize];
        if lost > 0 {
            lines.push(ScoreLine {
                label: text(
                    format!("Pénalités de temps : {fr}"),
                    format!("Time penalties: {en}"),
                ),
                value: format!("−{lost}"),
                seat,
            });
        }
    }
    for army in 0..4u8 {
        let ai = army as usize;
        let left = (0..9u8)
            .filter(|&i| game.pos[(board::captain(army) + i) as usize] != NONE)
            .count();
        let target = game.next_target(army);
        let occupation = if game.ready[ai] & (1 << target) != 0 {
            ("occupé", "occupied")
        } else if game.present(army, target) {
            ("entré, à tenir un tour", "entered, hold one round")
        } else {
            ("à occuper", "to occupy")
        };
        let allied = if game.declared & (1 << army) != 0 {
            (" — alliance déclarée", " — alliance declared")
        } else {
            ("", "")
        };
        // CN-S2: the next territory of the army's colour table, in words a guest reads.
        lines.push(ScoreLine {
            label: text(
                format!(
                    "Armée {} : {left} pièce(s) sur 9 ; prochain territoire : {} ({}){}",
                    crate::words::army_name_fr(army),
                    crate::words::army_name_fr(target),
                    occupation.0,
                    allied.0
                ),
                format!(
                    "{} army: {left} of 9 pieces; next territory: {} ({}){}",
                    ARMY_NAMES[ai].1, ARMY_NAMES[target as usize].1, occupation.1, allied.1
                ),
            ),
            value: String::new(),
            seat: Some(game.controller(army)),
        });
    }
    let factor = game.factor(game.active);
    lines.push(ScoreLine {
        label: text("Coups joués", "Moves played"),
        value: format!("{}/{factor}", game.coups),
        seat: Some(game.controller(game.active)),
    });
    lines.push(ScoreLine {
        label: text("Manche", "Round"),
        value: game.round.to_string(),
        seat: None,
    });
    lines.push(ScoreLine {
        label: text("Tour", "Turn"),
        // The turn at which the safety net next offers a draw.
        value: format!(
            "{}/{}",
            game.turn.min(game.draw_offer_at),
            game.draw_offer_at
        ),
        seat: None,
    });
    lines
}

/// Who is to act and what, or how the match ended.
fn message(game: &ChateauNoir) -> Text {
    if let Some(outcome) = game.outcome() {
        return text(
            format!("Partie terminée. {}", outcome.reason.fr),
            format!("Game over. {}", outcome.reason.en),
        );
    }
    let army = game.active as usize;
    let (fr, en) = ARMY_NAMES[army];
    let mut message = match game.phase {
        Phase::RoundOver { asking } => {
            let (fr, en) = game.side_name(game.seat_side(asking));
            text(
                format!(
                    "Fin de la manche {} : {fr}, exigez-vous une nouvelle manche ? Sinon, le \
                     match finit aux points",
                    game.round()
                ),
                format!(
                    "Round {} is over: {en}, do you demand a new round? If not, the match \
                     ends on the points",
                    game.round()
                ),
            )
        }
        Phase::DrawOffer { asking } => {
            let (fr, en) = game.seat_label(asking);
            let turns = game.turns_played();
            text(
                format!(
                    "{turns} tours joués (limite de sécurité) : {fr}, acceptez-vous la partie \
                     nulle ? Elle n'est nulle que si tous l'acceptent"
                ),
                format!(
                    "{turns} turns played (safety limit): {en}, do you accept a draw? It is \
                     drawn only if everyone accepts"
                ),
            )
        }
        Phase::Captures => text(
            format!("{fr} : choisissez les pièces ennemies encadrées à prendre"),
            format!("{en}: choose which flanked enemy pieces to take"),
        ),
        Phase::Coups => {
            let factor = game.factor(game.active);
            let left = factor - game.coups;
            let moving = match game.current {
                Some(p) => (
                    format!(
                        ", la pièce en {} est en mouvement",
                        board::name(game.pos[p as usize])
                    ),
                    format!(
                        ", the piece on {} is moving",
                        board::name(game.pos[p as usize])
                    ),
                ),
                None => (String::new(), String::new()),
            };
            text(
                format!("{fr} : {left} coup(s) sur {factor} à jouer{}", moving.0),
                format!("{en}: {left} of {factor} moves to play{}", moving.1),
            )
        }
    };
    // CN-E3: the chain of draw agreements so far.
    if game.draw_votes != 0 {
        let seats: Vec<String> = (0..game.players)
            .filter(|&s| game.draw_votes & (1 << s) != 0)
            .map(|s| (s + 1).to_string())
            .collect();
        message.fr.push_str(&format!(
            " — partie nulle acceptée par le(s) joueur(s) {}",
            seats.join(", ")
        ));
        message
            .en
            .push_str(&format!(" — draw agreed by player(s) {}", seats.join(", ")));
    }
    message
}
