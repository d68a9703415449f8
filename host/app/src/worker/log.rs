//! The game log as the window shows it: one line per move and per thing it caused, each with
//! what every viewer may read of it.

use veillee_runtime::session::repeats_label;
use veillee_sdk::{Seat, Text};

/// One line of the game log.
#[derive(Clone, Debug, PartialEq)]
pub struct LogLine {
    /// Who did it (empty for the launcher's own notes).
    pub who: String,
    /// The seat whose move it is (or whose move caused it), if any.
    pub actor: Option<Seat>,
    /// What the seats concerned read instead of `text` (a secret move, a card drawn).
    pub private: Option<veillee_sdk::Private>,
    /// What happened.
    pub text: Text,
}

impl LogLine {
    /// What `viewer` reads of this line (the window shows the log of the seat it shows).
    pub fn text_for(&self, viewer: Option<Seat>) -> &Text {
        match &self.private {
            Some(p) if p.is_for(self.actor, viewer) => &p.text,
            _ => &self.text,
        }
    }

    /// Whether `viewer` reads something of this line the rest of the table does not.
    pub fn private_to(&self, viewer: Option<Seat>) -> bool {
        self.private
            .as_ref()
            .is_some_and(|p| p.is_for(self.actor, viewer))
    }

    /// A note of the launcher's own (a new game, an undo), read by everyone.
    pub fn note(text: Text) -> LogLine {
        LogLine {
            who: String::new(),
            actor: None,
            private: None,
            text,
        }
    }
}

/// The log lines of one move: the move as its player named it, then what it caused —
/// leaving out an event that only repeats the move's label (Castel's "Black pawns: Draw"
/// after "Ana: Draw").
pub fn move_lines(
    who: String,
    seat: Seat,
    label: Text,
    private: Option<veillee_sdk::Private>,
    events: Vec<veillee_sdk::Event>,
) -> Vec<LogLine> {
    let mut lines = Vec::with_capacity(events.len() + 1);
    for event in events {
        if repeats_label(&event.text, &label) {
            continue;
        }
        lines.push(LogLine {
            who: String::new(),
            actor: Some(seat),
            private: event.private,
            text: event.text,
        });
    }
    lines.insert(
        0,
        LogLine {
            who,
            actor: Some(seat),
            private,
            text: label,
        },
    );
    lines
}
