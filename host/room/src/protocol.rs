//! What a phone and the room say to each other over the WebSocket: JSON text messages with
//! a `type` field. Every message from a phone is bounded and parsed strictly before anything
//! looks at it; what does not parse is refused with a message saying why, and changes nothing.

use serde::{Deserialize, Serialize};
use veillee_sdk::{Seat, Text};

pub use crate::limits::{MAX_FRAME, MAX_MESSAGE};

/// How often the room tells a phone it is still there.
pub const ALIVE_EVERY: std::time::Duration = std::time::Duration::from_secs(5);

/// A message from a phone.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum FromPhone {
    /// The first message: the seat's token, and the claim this phone was given when it took
    /// the seat before (to come back after a drop).
    Hello {
        /// The token of the seat's link.
        token: String,
        /// The claim the room gave this phone, if it had one.
        #[serde(default)]
        claim: Option<String>,
    },
    /// A move: one of the seat's legal action ids, as listed in the state of `version`.
    Act {
        /// The action id.
        action: String,
        /// The version of the state the move was chosen in.
        version: u64,
    },
}

/// Why a message from a phone was not read.
#[derive(Debug, PartialEq, Eq)]
pub enum BadMessage {
    /// Longer than [`MAX_MESSAGE`].
    TooLong(usize),
    /// Not a message of this protocol.
    NotUnderstood(String),
}

impl BadMessage {
    /// The error in both languages, for the phone.
    pub fn text(&self) -> Text {
        match self {
            BadMessage::TooLong(n) => Text::new(
                format!("Message refusé : {n} octets, au plus {MAX_MESSAGE}."),
                format!("Message refused: {n} bytes, at most {MAX_MESSAGE}."),
            ),
            BadMessage::NotUnderstood(why) => Text::new(
                format!("Message refusé : ce n'est pas un message de Veillée ({why})."),
                format!("Message refused: not a Veillée message ({why})."),
            ),
        }
    }
}

/// Reads one text message from a phone: bounded first, then parsed.
pub fn read(text: &str) -> Result<FromPhone, BadMessage> {
    if text.len() > MAX_MESSAGE {
        return Err(BadMessage::TooLong(text.len()));
    }
    serde_json::from_str(text).map_err(|e| BadMessage::NotUnderstood(e.to_string()))
}

/// A message to a phone (the state itself is [`crate::SeatState`], sent with
/// `"type": "state"`).
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToPhone<'a> {
    /// The phone holds the seat.
    Welcome {
        /// The seat.
        seat: Seat,
        /// The player's name at that seat.
        name: &'a str,
        /// What lets this phone come back to the seat after a drop (keep it private).
        claim: &'a str,
    },
    /// Something the phone asked was refused; the game did not change.
    Error {
        /// What kind of problem (stable, for scripts and tests).
        code: &'a str,
        /// What happened and what to do, in French and English.
        message: &'a Text,
    },
    /// Sent every [`ALIVE_EVERY`]: a phone that hears nothing for much longer knows its connection died without closing (Wi-Fi lost, screen locked) and
    /// connects again.
    Alive,
    /// The phone is not (or no longer) at the seat: the connection closes after this.
    Refused {
        /// What kind of problem.
        code: &'a str,
        /// What happened and what to do, in French and English.
        message: &'a Text,
    },
}

impl ToPhone<'_> {
    /// As sent.
    pub fn json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_and_hellos_parse_and_nothing_else_does() {
        assert_eq!(
            read(r#"{"type":"act","action":"c0-d2","version":3}"#),
            Ok(FromPhone::Act {
                action: "c0-d2".into(),
                version: 3
            })
        );
        assert_eq!(
            read(r#"{"type":"hello","token":"1-ab"}"#),
            Ok(FromPhone::Hello {
                token: "1-ab".into(),
                claim: None
            })
        );
        for bad in [
            "",
            "null",
            "[]",
            r#"{"type":"act","action":"x"}"#,
            r#"{"type":"act","action":"x","version":-1}"#,
            r#"{"type":"act","action":"x","version":1,"seat":0}"#,
            r#"{"type":"undo"}"#,
        ] {
            assert!(
                matches!(read(bad), Err(BadMessage::NotUnderstood(_))),
                "{bad}"
            );
        }
        let long = format!(
            r#"{{"type":"act","action":"{}","version":1}}"#,
            "x".repeat(MAX_MESSAGE)
        );
        assert_eq!(read(&long), Err(BadMessage::TooLong(long.len())));
    }
}
