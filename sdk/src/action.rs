//! Legal actions, the click paths that reach them, and the events they cause.

use serde::{Deserialize, Serialize};

use crate::{Seat, Text};

/// One thing a seat may do now.
///
/// **What is public.** The id is logged and saved in session files, so anyone holding the
/// file can read it: never put a secret in an id. The `label` is what *everyone* reads once
/// the action is played (the terminal, the window's log, the other players after a hand-off).
/// A secret move keeps its secret in `private`: the acting seat (or the seats it names) reads
/// that text instead, in its list of choices and in its own log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Action {
    /// Stable id, logged and replayed as is (`"c0-d2"`). Unique among the seat's actions.
    /// Public: it is in every session file.
    pub id: String,
    /// The scene targets a click walks through, in order (a piece, then a square).
    /// Empty for actions without a place on the board: they are shown as buttons.
    #[serde(default)]
    pub path: Vec<Target>,
    /// What it does, in words, as everyone reads it.
    pub label: Text,
    /// What the acting seat (or the seats named) reads instead of `label` (since ABI 1.4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub private: Option<Private>,
    /// A bot's search leaves this action out ([`crate::Game::bot_may_choose`], since ABI
    /// 1.12): legal, and people may play it, but a bot does not choose it here unless every
    /// action of the seat is marked so. An older plugin marks none.
    #[serde(default, skip_serializing_if = "is_false")]
    pub bots_avoid: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// A text that some seats read instead of the public one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Private {
    /// Who reads it. Empty: the seat whose action it is (for an event, the seat whose
    /// action caused it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seats: Vec<Seat>,
    /// What they read.
    pub text: Text,
}

impl Private {
    /// Whether `viewer` reads this text, for an action or event of `actor`.
    pub fn is_for(&self, actor: Option<Seat>, viewer: Option<Seat>) -> bool {
        match viewer {
            None => false,
            Some(v) if self.seats.is_empty() => actor == Some(v),
            Some(v) => self.seats.contains(&v),
        }
    }
}

/// The text `viewer` reads: the private one if it is for them, else the public one.
fn seen<'a>(
    public: &'a Text,
    private: Option<&'a Private>,
    actor: Option<Seat>,
    viewer: Option<Seat>,
) -> &'a Text {
    match private {
        Some(p) if p.is_for(actor, viewer) => &p.text,
        _ => public,
    }
}

impl Action {
    /// This action with its label and private text cut to [`crate::MAX_TEXT_CHARS`]
    /// ([`Text::clipped`]).
    pub fn clipped(mut self) -> Self {
        self.label = std::mem::take(&mut self.label).clipped();
        if let Some(private) = &mut self.private {
            private.text = std::mem::take(&mut private.text).clipped();
        }
        self
    }

    /// An action reached by clicking `path` in order (a piece, then a cell; see
    /// [`crate::move_path`]), whose label everyone may read.
    pub fn new(id: impl Into<String>, label: Text, path: Vec<Target>) -> Self {
        Action {
            id: id.into(),
            path,
            label,
            private: None,
            bots_avoid: false,
        }
    }

    /// An action without a place on the board, shown as a button (`pass`).
    pub fn button(id: impl Into<String>, label: Text) -> Self {
        Action::new(id, label, Vec::new())
    }

    /// The same action, with `label` kept as what everyone reads and `secret` as what the
    /// acting seat reads ("Burrow on d1" for the fox, "The fox digs" for the hens).
    pub fn with_private(mut self, secret: Text) -> Self {
        self.private = Some(Private {
            seats: Vec::new(),
            text: secret,
        });
        self
    }

    /// What `viewer` reads of this action of `actor` (`None`: a spectator).
    pub fn label_for(&self, actor: Seat, viewer: Option<Seat>) -> &Text {
        seen(&self.label, self.private.as_ref(), Some(actor), viewer)
    }
}

/// Something in the scene a player can click.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Target {
    /// A cell of a board.
    Cell {
        /// The board's id.
        board: String,
        /// Column, from 0 at the left.
        col: u16,
        /// Row, from 0 at the top.
        row: u16,
    },
    /// A piece, by id.
    Piece {
        /// The piece's id.
        id: String,
    },
    /// A card, by id.
    Card {
        /// The card's id.
        id: String,
    },
}

impl Target {
    /// A cell target.
    pub fn cell(board: impl Into<String>, col: u16, row: u16) -> Self {
        Target::Cell {
            board: board.into(),
            col,
            row,
        }
    }

    /// A piece target.
    pub fn piece(id: impl Into<String>) -> Self {
        Target::Piece { id: id.into() }
    }
}

/// Something an action caused, for the game's log ("the knight takes the soldier on d5").
/// `text` is what everyone reads; `private`, what the seats concerned read instead ("you
/// draw the King" for the one who drew, "Black draws a card" for the others).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    /// What happened, in words, as everyone reads it.
    pub text: Text,
    /// Whether it revealed something that was hidden or drew chance (undo never crosses a
    /// reveal).
    #[serde(default)]
    pub reveal: bool,
    /// What some seats read instead of `text` (since ABI 1.4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub private: Option<Private>,
}

impl Event {
    /// This event with its texts cut to [`crate::MAX_TEXT_CHARS`] ([`Text::clipped`]).
    pub fn clipped(mut self) -> Self {
        self.text = std::mem::take(&mut self.text).clipped();
        if let Some(private) = &mut self.private {
            private.text = std::mem::take(&mut private.text).clipped();
        }
        self
    }

    /// An ordinary event.
    pub fn new(text: Text) -> Self {
        Event {
            text,
            reveal: false,
            private: None,
        }
    }

    /// An event that revealed hidden information or drew chance.
    pub fn reveal(text: Text) -> Self {
        Event {
            reveal: true,
            ..Event::new(text)
        }
    }

    /// The same event, read as `secret` by `seats` (empty: the seat whose action caused it).
    pub fn with_private(mut self, seats: Vec<Seat>, secret: Text) -> Self {
        self.private = Some(Private {
            seats,
            text: secret,
        });
        self
    }

    /// What `viewer` reads of this event, caused by an action of `actor`.
    pub fn text_for(&self, actor: Option<Seat>, viewer: Option<Seat>) -> &Text {
        seen(&self.text, self.private.as_ref(), actor, viewer)
    }
}
