//! How a game is set up: players, options and the seed.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::{GameError, Manifest, OptionKind};

/// A seat number, `0..players`.
pub type Seat = u8;

/// Everything a new game is created from. The same set-up and the same actions always
/// give the same game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Setup {
    /// Number of players.
    pub players: u8,
    /// Option values by option id; missing ones take their default.
    #[serde(default)]
    pub options: BTreeMap<String, OptionValue>,
    /// Seed of the game's random number generator.
    pub seed: u64,
}

/// The value of one option.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum OptionValue {
    /// For [`OptionKind::Bool`].
    Bool(bool),
    /// For [`OptionKind::Integer`].
    Integer(i64),
    /// For [`OptionKind::Choice`]: the choice's id.
    Choice(String),
}

impl Setup {
    /// A set-up with default options.
    pub fn new(players: u8, seed: u64) -> Self {
        Setup { players, options: BTreeMap::new(), seed }
    }

    /// Checks the player count and every option against the manifest, and fills in defaults.
    pub fn resolved(&self, manifest: &Manifest) -> Result<Setup, GameError> {
        if !(manifest.min_players..=manifest.max_players).contains(&self.players) {
            return Err(GameError::InvalidSetup(format!(
                "{} plays with {}–{} players, not {}",
                manifest.name.en, manifest.min_players, manifest.max_players, self.players
            )));
        }
        if let Some(unknown) = self.options.keys().find(|k| !manifest.options.iter().any(|o| &o.id == *k)) {
            return Err(GameError::InvalidSetup(format!("unknown option `{unknown}`")));
        }
        let mut resolved = self.clone();
        for spec in &manifest.options {
            let value = match (self.options.get(&spec.id), &spec.kind) {
                (None, OptionKind::Bool { default }) => OptionValue::Bool(*default),
                (None, OptionKind::Integer { default, .. }) => OptionValue::Integer(*default),
                (None, OptionKind::Choice { default, .. }) => OptionValue::Choice(default.clone()),
                (Some(v @ OptionValue::Bool(_)), OptionKind::Bool { .. }) => v.clone(),
                (Some(OptionValue::Integer(v)), OptionKind::Integer { min, max, .. }) if (min..=max).contains(&v) => {
                    OptionValue::Integer(*v)
                }
                (Some(OptionValue::Choice(v)), OptionKind::Choice { choices, .. }) if choices.iter().any(|c| &c.id == v) => {
                    OptionValue::Choice(v.clone())
                }
                (Some(v), _) => {
                    return Err(GameError::InvalidSetup(format!("option `{}` cannot be {v:?}", spec.id)))
                }
            };
            resolved.options.insert(spec.id.clone(), value);
        }
        Ok(resolved)
    }

    /// A boolean option (false when absent or of another type).
    pub fn flag(&self, id: &str) -> bool {
        matches!(self.options.get(id), Some(OptionValue::Bool(true)))
    }

    /// An integer option.
    pub fn integer(&self, id: &str) -> Option<i64> {
        match self.options.get(id) {
            Some(OptionValue::Integer(v)) => Some(*v),
            _ => None,
        }
    }

    /// A choice option's id.
    pub fn choice(&self, id: &str) -> Option<&str> {
        match self.options.get(id) {
            Some(OptionValue::Choice(v)) => Some(v),
            _ => None,
        }
    }
}
