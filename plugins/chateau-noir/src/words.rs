//! Words: action labels, the outcome, and the names of sides, armies and pieces in French
//! and English.

use veillee_sdk::{text, Outcome, Seat, Text};

use crate::board::{self, army_of, is_captain, Pc, ARMY_NAMES};
use crate::{ChateauNoir, Ending, Move, TARGET};

impl ChateauNoir {
    /// The action's label.
    pub(crate) fn label(&self, mv: &Move) -> Text {
        match *mv {
            Move::Coup { from, to } => {
                let p = self.board[from as usize].wrapping_sub(1);
                let (from, to) = (board::name(from), board::name(to));
                text(
                    format!("{} {from} → {to}", piece_title_fr(p)),
                    format!("{} {from} → {to}", piece_title_en(p)),
                )
            }
            Move::EndCoups => {
                let left = self.factor(self.active).saturating_sub(self.coups);
                text(
                    format!("Arrêter les coups ({left} restant(s))"),
                    format!("Stop moving ({left} move(s) left)"),
                )
            }
            Move::Take(s) => {
                let p = self.board[s as usize].wrapping_sub(1);
                text(
                    format!("Prendre {} en {}", piece_noun_fr(p), board::name(s)),
                    format!("Take the {} on {}", piece_noun_en(p), board::name(s)),
                )
            }
            Move::EndTurn => text(
                "Finir le tour sans rien prendre de plus",
                "End the turn, taking nothing more",
            ),
            Move::Alliance => text("Déclarer l'alliance d'équipes", "Declare a team alliance"),
            Move::AgreeDraw => text(
                "Proposer ou accepter la partie nulle",
                "Offer or accept a draw",
            ),
            Move::NewRound => text("Exiger une nouvelle manche", "Demand a new round"),
            Move::EndMatch => text("Finir le match aux points", "End the match on the points"),
            Move::AcceptDraw => text("Accepter la partie nulle", "Accept the draw"),
            Move::PlayOn => text("Continuer la partie", "Play on"),
        }
    }

    /// The outcome, once the match is over.
    pub fn outcome(&self) -> Option<Outcome> {
        let ending = self.ending?;
        let scores = (0..self.players)
            .map(|s| i64::from(self.shown_score(self.seat_side(s))))
            .collect();
        let winners_of = |side: u8| -> Vec<Seat> {
            (0..self.players)
                .filter(|&s| self.seat_side(s) == side)
                .collect()
        };
        let (winners, reason) = match ending {
            Ending::Points(side) => (
                winners_of(side),
                text(
                    format!("{} atteint {TARGET} points", self.side_name(side).0),
                    format!("{} reaches {TARGET} points", self.side_name(side).1),
                ),
            ),
            Ending::ChateauNoir(side) => (
                winners_of(side),
                text(
                    format!("Château noir : {} gagne", self.side_name(side).0),
                    format!("Château noir: {} wins", self.side_name(side).1),
                ),
            ),
            Ending::Agreed => (
                Vec::new(),
                text("Partie nulle d'un commun accord", "Draw by agreement"),
            ),
            Ending::OnPoints => {
                let leaders = self.leading_sides();
                let names: Vec<(String, String)> =
                    leaders.iter().map(|&side| self.side_name(side)).collect();
                let fr: Vec<&str> = names.iter().map(|n| n.0.as_str()).collect();
                let en: Vec<&str> = names.iter().map(|n| n.1.as_str()).collect();
                if leaders.len() == usize::from(self.sides()) {
                    (
                        Vec::new(),
                        text(
                            "Match fini aux points : égalité",
                            "Match ended on the points: a tie",
                        ),
                    )
                } else {
                    (
                        leaders.iter().flat_map(|&side| winners_of(side)).collect(),
                        text(
                            format!("Match fini aux points : {} en tête", fr.join(", ")),
                            format!("Match ended on the points: {} ahead", en.join(", ")),
                        ),
                    )
                }
            }
            Ending::TurnLimit => (
                Vec::new(),
                text(
                    format!(
                        "Partie nulle acceptée par tous après {} tours (limite de sécurité)",
                        self.turns_played()
                    ),
                    format!(
                        "Draw accepted by everyone after {} turns (safety limit)",
                        self.turns_played()
                    ),
                ),
            ),
        };
        Some(Outcome {
            winners,
            scores,
            reason,
        })
    }

    /// X.2: the sides with the most points (raw, a debt counting below zero) when the match
    /// ends on the points.
    fn leading_sides(&self) -> Vec<u8> {
        let best = (0..self.sides()).map(|side| self.score(side)).max();
        (0..self.sides())
            .filter(|&side| Some(self.score(side)) == best)
            .collect()
    }

    /// A side's name in French and English ("l'équipe Vert-Bleu", "Green").
    pub fn side_name(&self, side: u8) -> (String, String) {
        if self.teams {
            let (a, b) = (side as usize, side as usize + 2);
            (
                format!("l'équipe {}-{}", ARMY_NAMES[a].0, ARMY_NAMES[b].0),
                format!("team {}-{}", ARMY_NAMES[a].1, ARMY_NAMES[b].1),
            )
        } else {
            (
                format!("l'armée {}", army_name_fr(side)),
                ARMY_NAMES[side as usize].1.to_string(),
            )
        }
    }
}

/// An army's French colour word as used after "l'armée" / "le territoire".
pub(crate) fn army_name_fr(army: u8) -> &'static str {
    ["verte", "rouge", "bleue", "jaune"][army as usize]
}

fn piece_title_fr(p: Pc) -> String {
    let army = army_of(p) as usize;
    if is_captain(p) {
        format!("Capitaine {}", ["vert", "rouge", "bleu", "jaune"][army])
    } else {
        format!("Soldat {}", ["vert", "rouge", "bleu", "jaune"][army])
    }
}

fn piece_title_en(p: Pc) -> String {
    let army = ARMY_NAMES[army_of(p) as usize].1;
    if is_captain(p) {
        format!("{army} captain")
    } else {
        format!("{army} soldier")
    }
}

pub(crate) fn piece_noun_fr(p: Pc) -> String {
    let army = ["vert", "rouge", "bleu", "jaune"][army_of(p) as usize];
    if is_captain(p) {
        format!("le capitaine {army}")
    } else {
        format!("le soldat {army}")
    }
}

pub(crate) fn piece_noun_en(p: Pc) -> String {
    piece_title_en(p).to_lowercase()
}
