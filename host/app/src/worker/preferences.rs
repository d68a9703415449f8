//! What the launcher remembers between runs: the settings' keys, and the assisted mode (how
//! much the play screen helps), whose defaults are one of those settings.

/// The setting that remembers the names typed at each seat.
pub const SEAT_NAMES: &str = "ui.seat_names";
/// The setting that remembers the language.
pub const LANGUAGE: &str = "ui.language";
/// The setting that remembers the interface scale.
pub const SCALE: &str = "ui.scale";
/// The setting that remembers the assisted-mode defaults.
pub const ASSIST: &str = "ui.assist";

/// Assisted mode: how much the play screen helps. Remembered with the other settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Assist {
    /// Light up the pieces that can move and, once one is picked, where it can go.
    pub show_targets: bool,
    /// Outline the last move (the game's "last move" highlights).
    pub show_last_move: bool,
    /// Ask "Play this move?" before a move is sent.
    pub confirm_moves: bool,
    /// How moves are shown: pieces slide, leave and arrive one stage after the other.
    pub animation: Animation,
    /// A short chime when a human's turn comes after a hand-off or a bot's move (off by
    /// default: not every table wants sound).
    pub sound: bool,
}

impl Default for Assist {
    fn default() -> Self {
        Assist {
            show_targets: true,
            show_last_move: true,
            confirm_moves: false,
            animation: Animation::Normal,
            sound: false,
        }
    }
}

/// How fast moves are shown, or not at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Animation {
    /// Pieces jump to their new place at once.
    Off,
    /// Slowly, for a table that follows from the sofa.
    Slow,
    /// The default.
    Normal,
    /// Quickly.
    Fast,
}

impl Assist {
    /// The scene drawer's pace for these settings.
    pub fn pace(&self) -> crate::scene::motion::Pace {
        let seconds = match self.animation {
            Animation::Off => 0.0,
            Animation::Slow => 0.8,
            Animation::Normal => 0.45,
            Animation::Fast => 0.22,
        };
        crate::scene::motion::Pace {
            on: self.animation != Animation::Off,
            seconds,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assisted_mode_reads_old_and_partial_settings() {
        let partial: Assist = serde_json::from_str(r#"{"confirm_moves":true}"#).unwrap();
        assert!(partial.confirm_moves && partial.show_targets && partial.show_last_move);
        assert_eq!(
            partial.animation,
            Animation::Normal,
            "older settings animate"
        );
        assert!(!partial.sound, "and stay silent");
        assert_eq!(
            serde_json::from_str::<Assist>("{}").unwrap(),
            Assist::default()
        );
    }
}
