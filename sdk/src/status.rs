//! Whose turn it is, or how the game ended.

use serde::{Deserialize, Serialize};

use crate::{Seat, Text};

/// Where a game stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum Status {
    /// These seats have a decision to make (usually one; several when they choose at once).
    ToAct {
        /// Seats that may act now.
        seats: Vec<Seat>,
    },
    /// The game is over.
    Finished {
        /// How it ended.
        outcome: Outcome,
    },
}

impl Status {
    /// One seat to act.
    pub fn to_act(seat: Seat) -> Self {
        Status::ToAct { seats: vec![seat] }
    }

    /// The seats to act (empty when finished).
    pub fn seats(&self) -> &[Seat] {
        match self {
            Status::ToAct { seats } => seats,
            Status::Finished { .. } => &[],
        }
    }

    /// The outcome, when finished.
    pub fn outcome(&self) -> Option<&Outcome> {
        match self {
            Status::Finished { outcome } => Some(outcome),
            Status::ToAct { .. } => None,
        }
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// Seats that won; empty for a draw.
    pub winners: Vec<Seat>,
    /// Final score per seat, when the game keeps scores.
    #[serde(default)]
    pub scores: Vec<i64>,
    /// Why it ended, in words ("the lord is captured").
    pub reason: Text,
}

impl Outcome {
    /// One winner.
    pub fn win(seat: Seat, reason: Text) -> Self {
        Outcome {
            winners: vec![seat],
            scores: Vec::new(),
            reason,
        }
    }

    /// Nobody won.
    pub fn draw(reason: Text) -> Self {
        Outcome {
            winners: Vec::new(),
            scores: Vec::new(),
            reason,
        }
    }

    /// Whether nobody won.
    pub fn is_draw(&self) -> bool {
        self.winners.is_empty()
    }

    /// The scene's message once the game is over: `Partie terminée. <reason>` /
    /// `Game over. <reason>`.
    pub fn message(&self) -> Text {
        Text::new(
            format!("Partie terminée. {}", self.reason.fr),
            format!("Game over. {}", self.reason.en),
        )
    }
}
