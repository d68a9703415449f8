//! Texts shown to players, always in both of the launcher's languages.

use serde::{Deserialize, Serialize};

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

    /// The version for a language code (`"fr"` or anything else for English).
    pub fn get(&self, lang: &str) -> &str {
        if lang.starts_with("fr") {
            &self.fr
        } else {
            &self.en
        }
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
