//! What a game says about itself before any game is created.

use serde::{Deserialize, Serialize};

use crate::{Colour, Rules, Text};

/// Everything the launcher shows about a game, and what it offers to variant scripts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// Stable identifier: lowercase ASCII letters, digits and `-` (`"siege"`, `"roc-noir"`).
    pub id: String,
    /// The game's name.
    pub name: Text,
    /// One paragraph saying what the game is.
    pub description: Text,
    /// The game's own version (semver, e.g. `"1.0.0"`).
    pub version: String,
    /// Fewest players.
    pub min_players: u8,
    /// Most players.
    pub max_players: u8,
    /// One entry per seat, for the largest table (`max_players` entries).
    pub seats: Vec<SeatInfo>,
    /// Set-up options with their defaults.
    #[serde(default)]
    pub options: Vec<OptionSpec>,
    /// Whether some players may not see everything (hands, hidden tiles).
    pub hidden_information: bool,
    /// Operations the game offers to variant scripts.
    #[serde(default)]
    pub operations: Vec<OperationSpec>,
    /// The game's full rules in French and English (a small Markdown subset, see [`Rules`]),
    /// shown on the launcher's Rules screen. `None`: the launcher shows the description, seats
    /// and options instead. Since ABI 1.2; older plugins simply have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<Rules>,
    /// How long a game takes at the table, as its box would say ("30–45 min"): the launcher's
    /// library shows it on the game's card. Since ABI 1.11; older plugins have none and the
    /// library says nothing about their length.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub play_time: Option<PlayTime>,
}

/// How long a game takes at the table, in minutes: from `min` (a quick game, players who know
/// it) to `max` (a long one, or a first game). See [`Manifest::play_time`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayTime {
    /// The shortest usual game, in minutes (at least 1).
    pub min: u16,
    /// The longest usual game, in minutes (at least `min`, at most a day).
    pub max: u16,
}

impl PlayTime {
    /// From `min` to `max` minutes.
    pub fn minutes(min: u16, max: u16) -> Self {
        PlayTime { min, max }
    }
}

/// A seat at the table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatInfo {
    /// Its name ("Assaillant" / "Attacker").
    pub name: Text,
    /// Its colour, used for its pieces and its name.
    pub colour: Colour,
}

/// One set-up option.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OptionSpec {
    /// Identifier used in [`crate::Setup::options`].
    pub id: String,
    /// What the option is called.
    pub label: Text,
    /// Its type and default.
    pub kind: OptionKind,
}

/// The type of an option, with its default value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum OptionKind {
    /// On or off.
    Bool {
        /// Value when not set.
        default: bool,
    },
    /// One of a list.
    Choice {
        /// The possible values.
        choices: Vec<Choice>,
        /// The id of the default choice.
        default: String,
    },
    /// A whole number in `min..=max`.
    Integer {
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
        /// Value when not set.
        default: i64,
    },
}

/// One value of a [`OptionKind::Choice`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Choice {
    /// Identifier stored in the set-up.
    pub id: String,
    /// What it is called.
    pub label: Text,
}

/// An operation a game offers to variant scripts (`ctx.game.query` / `ctx.game.command`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OperationSpec {
    /// Name scripts call it by.
    pub name: String,
    /// Whether it reads ([`OperationKind::Query`]) or changes the game.
    pub kind: OperationKind,
    /// Names of its arguments, in order.
    #[serde(default)]
    pub args: Vec<String>,
    /// What it does.
    pub description: Text,
}

/// Whether an operation reads or changes the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OperationKind {
    /// Reads the state.
    Query,
    /// Changes the state.
    Command,
}

impl Manifest {
    /// Problems that make this manifest unusable, in words; empty when it is sane.
    pub fn problems(&self) -> Vec<String> {
        let mut problems = Vec::new();
        let id_ok = !self.id.is_empty()
            && self.id.len() <= 40
            && self
                .id
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if !id_ok {
            problems.push(format!(
                "game id `{}` must be 1–40 characters of a–z, 0–9 and `-`",
                self.id
            ));
        }
        if self.name.fr.trim().is_empty() || self.name.en.trim().is_empty() {
            problems.push("the game's name must be given in French and English".into());
        }
        if self.min_players == 0 || self.min_players > self.max_players {
            problems.push(format!(
                "players {}–{} is not a valid range",
                self.min_players, self.max_players
            ));
        }
        if self.seats.len() < self.max_players as usize {
            problems.push(format!(
                "{} seats are described but up to {} players can play",
                self.seats.len(),
                self.max_players
            ));
        }
        let mut names: Vec<&str> = Vec::new();
        for op in &self.operations {
            if op.name.is_empty() || names.contains(&op.name.as_str()) {
                problems.push(format!(
                    "operation name `{}` is empty or declared twice",
                    op.name
                ));
            }
            names.push(&op.name);
        }
        for option in &self.options {
            if let Some(problem) = option.problem() {
                problems.push(problem);
            }
        }
        if let Some(time) = self.play_time {
            if time.min == 0 || time.min > time.max || time.max > 24 * 60 {
                problems.push(format!(
                    "play time {}–{} minutes is not a valid range (1 to 1440 minutes, the \
                     shortest first)",
                    time.min, time.max
                ));
            }
        }
        if let Some(rules) = &self.rules {
            if rules.fr.trim().is_empty() || rules.en.trim().is_empty() {
                problems
                    .push("the rules, when shipped, must be given in French and English".into());
            }
        }
        problems
    }
}

impl OptionSpec {
    fn problem(&self) -> Option<String> {
        match &self.kind {
            OptionKind::Bool { .. } => None,
            OptionKind::Choice { choices, default } => (!choices.iter().any(|c| &c.id == default))
                .then(|| {
                    format!(
                        "option `{}`: default `{default}` is not one of its choices",
                        self.id
                    )
                }),
            OptionKind::Integer { min, max, default } => {
                (!(min..=max).contains(&default)).then(|| {
                    format!(
                        "option `{}`: default {default} is outside {min}–{max}",
                        self.id
                    )
                })
            }
        }
    }
}
