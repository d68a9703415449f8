//! Texts shown to players, always in both of the launcher's languages.

use serde::{Deserialize, Serialize};

/// The longest text a player is shown for one label, event, question, option or message, in
/// characters per language: a few lines on a phone. The one limit for every text a plugin or a
/// script makes; the launcher cuts longer ones ([`Text::clipped`]) where they enter it, so
/// that no label can fill a terminal, a phone's message or the host's memory.
pub const MAX_TEXT_CHARS: usize = 500;

/// The most events one move may tell (a plugin's move, or one hook call of a script): with
/// [`MAX_TEXT_CHARS`], at most a page or two of log per move however a rule is written.
pub const MAX_EVENTS_PER_MOVE: usize = 256;

/// A text in French and English. Games are French; the launcher speaks both.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Text {
    /// French.
    pub fr: String,
    /// English.
    pub en: String,
}

impl Text {
    /// A text from its French and English versions.
    pub fn new(fr: impl Into<String>, en: impl Into<String>) -> Self {
        Text {
            fr: fr.into(),
            en: en.into(),
        }
    }

    /// The same text in both languages (a square name, a number).
    pub fn same(both: impl Into<String>) -> Self {
        let both = both.into();
        Text {
            fr: both.clone(),
            en: both,
        }
    }

    /// This text with each language cut to at most [`MAX_TEXT_CHARS`] characters, an
    /// ellipsis (`…`) marking where it was cut.
    pub fn clipped(mut self) -> Text {
        clip(&mut self.fr);
        clip(&mut self.en);
        self
    }

    /// The version for a language code (`"fr"` or anything else for English).
    pub fn get(&self, lang: &str) -> &str {
        if lang.starts_with("fr") {
            &self.fr
        } else {
            &self.en
        }
    }
}

fn clip(text: &mut String) {
    if let Some((cut, _)) = text.char_indices().nth(MAX_TEXT_CHARS) {
        text.truncate(cut);
        text.push('…');
    }
}

/// Shorthand for [`Text::new`].
pub fn text(fr: impl Into<String>, en: impl Into<String>) -> Text {
    Text::new(fr, en)
}

/// A [`Text`] from a French and an English format string with the same arguments, as
/// `format!` takes them (captured names included):
///
/// ```
/// use veillee_sdk::{text, Text};
///
/// let (take, left) = (3, 12);
/// assert_eq!(
///     text!("Prendre {take} ({left} restantes)", "Take {take} ({left} left)"),
///     Text::new("Prendre 3 (12 restantes)", "Take 3 (12 left)")
/// );
/// assert_eq!(text!("{} → {}", "{} to {}", "c0", "d2").en, "c0 to d2");
/// ```
///
/// It lives beside the function [`text()`], which takes two finished strings.
#[macro_export]
macro_rules! text {
    ($fr:literal, $en:literal $(,)?) => {
        $crate::Text::new(format!($fr), format!($en))
    };
    ($fr:literal, $en:literal, $($arg:expr),+ $(,)?) => {
        $crate::Text::new(format!($fr, $($arg),+), format!($en, $($arg),+))
    };
}
