//! Errors a game reports to the host.

use serde::{Deserialize, Serialize};

use crate::Seat;

/// Why a game refused a request. Crosses the plugin boundary as data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "error", content = "detail", rename_all = "snake_case")]
pub enum GameError {
    /// The action is not among the seat's legal actions now.
    IllegalAction {
        /// Seat that tried.
        seat: Seat,
        /// The refused action id.
        action: String,
    },
    /// The seat has no decision to make now.
    NotYourTurn {
        /// Seat that tried.
        seat: Seat,
    },
    /// The game is over.
    GameOver,
    /// The set-up does not fit the game (player count, options).
    InvalidSetup(String),
    /// A saved state could not be read.
    InvalidState(String),
    /// The host asked for something the plugin protocol does not allow.
    Protocol(String),
}

impl std::fmt::Display for GameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GameError::IllegalAction { seat, action } => {
                write!(f, "`{action}` is not a legal action for seat {seat} now")
            }
            GameError::NotYourTurn { seat } => write!(f, "seat {seat} has nothing to do now"),
            GameError::GameOver => write!(f, "the game is over"),
            GameError::InvalidSetup(why) => write!(f, "invalid set-up: {why}"),
            GameError::InvalidState(why) => write!(f, "invalid saved state: {why}"),
            GameError::Protocol(why) => write!(f, "plugin protocol error: {why}"),
        }
    }
}

impl std::error::Error for GameError {}
