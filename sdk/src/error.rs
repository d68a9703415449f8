//! Errors a game reports to the host.

use serde::{Deserialize, Serialize};

use crate::{Seat, Text};

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
    /// An operation offered to variant scripts (`query`/`command`) refused its arguments or
    /// does not apply now. The game is unchanged.
    Operation {
        /// The operation's name.
        name: String,
        /// Why, in words.
        reason: String,
    },
    /// A house rule (a variant script's `before_action`) refused the action, with its reason
    /// for the player. The game is unchanged.
    Refused {
        /// Seat that tried.
        seat: Seat,
        /// The refused action id.
        action: String,
        /// What the house rule says.
        reason: Text,
    },
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
            GameError::Operation { name, reason } => {
                write!(f, "operation `{name}` refused: {reason}")
            }
            GameError::Refused {
                seat,
                action,
                reason,
            } => write!(
                f,
                "`{action}` is refused by a house rule for seat {seat}: {}",
                reason.en
            ),
        }
    }
}

impl std::error::Error for GameError {}
