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
        Setup {
            players,
            options: BTreeMap::new(),
            seed,
        }
    }

    /// Checks the player count and every option against the manifest, and fills in defaults.
    pub fn resolved(&self, manifest: &Manifest) -> Result<Setup, GameError> {
        if !(manifest.min_players..=manifest.max_players).contains(&self.players) {
            return Err(GameError::InvalidSetup(format!(
                "{} plays with {}–{} players, not {}",
                manifest.name.en, manifest.min_players, manifest.max_players, self.players
            )));
        }
        if let Some(unknown) = self
            .options
            .keys()
            .find(|k| !manifest.options.iter().any(|o| &o.id == *k))
        {
            return Err(GameError::InvalidSetup(format!(
                "unknown option `{unknown}`"
            )));
        }
        let mut resolved = self.clone();
        for spec in &manifest.options {
            let value = match (self.options.get(&spec.id), &spec.kind) {
                (None, OptionKind::Bool { default }) => OptionValue::Bool(*default),
                (None, OptionKind::Integer { default, .. }) => OptionValue::Integer(*default),
                (None, OptionKind::Choice { default, .. }) => OptionValue::Choice(default.clone()),
                (Some(v @ OptionValue::Bool(_)), OptionKind::Bool { .. }) => v.clone(),
                (Some(OptionValue::Integer(v)), OptionKind::Integer { min, max, .. })
                    if (min..=max).contains(&v) =>
                {
                    OptionValue::Integer(*v)
                }
                (Some(OptionValue::Choice(v)), OptionKind::Choice { choices, .. })
                    if choices.iter().any(|c| &c.id == v) =>
                {
                    OptionValue::Choice(v.clone())
                }
                (Some(v), _) => {
                    return Err(GameError::InvalidSetup(format!(
                        "option `{}` cannot be {v:?}",
                        spec.id
                    )))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{text, Choice, Colour, OptionSpec, SeatInfo};

    fn manifest() -> Manifest {
        let seat = SeatInfo {
            name: text("A", "A"),
            colour: Colour::rgb(1, 2, 3),
        };
        Manifest {
            id: "demo".into(),
            name: text("Démo", "Demo"),
            description: text("", ""),
            version: "1.0.0".into(),
            min_players: 2,
            max_players: 3,
            seats: vec![seat.clone(), seat.clone(), seat],
            options: vec![
                OptionSpec {
                    id: "fast".into(),
                    label: text("Rapide", "Fast"),
                    kind: OptionKind::Bool { default: true },
                },
                OptionSpec {
                    id: "rounds".into(),
                    label: text("Manches", "Rounds"),
                    kind: OptionKind::Integer {
                        min: 1,
                        max: 5,
                        default: 3,
                    },
                },
                OptionSpec {
                    id: "mode".into(),
                    label: text("Mode", "Mode"),
                    kind: OptionKind::Choice {
                        choices: vec![Choice {
                            id: "memory".into(),
                            label: text("Mémoire", "Memory"),
                        }],
                        default: "memory".into(),
                    },
                },
            ],
            hidden_information: false,
            operations: vec![],
            rules: None,
            play_time: None,
        }
    }

    #[test]
    fn defaults_fill_missing_options() {
        let resolved = Setup::new(2, 9).resolved(&manifest()).unwrap();
        assert!(resolved.flag("fast"));
        assert_eq!(resolved.integer("rounds"), Some(3));
        assert_eq!(resolved.choice("mode"), Some("memory"));
    }

    #[test]
    fn bad_setups_are_refused_with_the_reason() {
        let m = manifest();
        let too_many = Setup::new(4, 1).resolved(&m).unwrap_err();
        assert!(
            too_many.to_string().contains("2–3 players, not 4"),
            "{too_many}"
        );
        let mut out_of_range = Setup::new(2, 1);
        out_of_range
            .options
            .insert("rounds".into(), OptionValue::Integer(9));
        assert!(out_of_range
            .resolved(&m)
            .unwrap_err()
            .to_string()
            .contains("rounds"));
        let mut unknown = Setup::new(2, 1);
        unknown
            .options
            .insert("speed".into(), OptionValue::Bool(true));
        assert!(unknown
            .resolved(&m)
            .unwrap_err()
            .to_string()
            .contains("unknown option `speed`"));
    }

    #[test]
    fn manifest_problems_are_named() {
        assert!(manifest().problems().is_empty());
        let mut bad = manifest();
        bad.id = "Bad Id".into();
        bad.max_players = 4;
        let problems = bad.problems().join("\n");
        assert!(problems.contains("game id `Bad Id`"), "{problems}");
        assert!(
            problems.contains("3 seats are described but up to 4"),
            "{problems}"
        );
    }

    #[test]
    fn manifests_without_rules_still_load_and_rules_need_both_languages() {
        // A manifest as a 1.1 plugin writes it: no `rules` key at all.
        let json = serde_json::to_value(manifest()).unwrap();
        assert!(json.get("rules").is_none(), "None is not written: {json}");
        let old: Manifest = serde_json::from_value(json).unwrap();
        assert_eq!(old.rules, None);

        let mut with = manifest();
        with.rules = Some(crate::Rules::new("# Démo\n", "# Demo\n"));
        let json = serde_json::to_string(&with).unwrap();
        assert_eq!(serde_json::from_str::<Manifest>(&json).unwrap(), with);
        assert!(with.problems().is_empty());
        with.rules = Some(crate::Rules::new("# Démo\n", " \n"));
        let problems = with.problems().join("\n");
        assert!(problems.contains("French and English"), "{problems}");
    }

    #[test]
    fn a_play_time_is_optional_and_must_be_a_range_of_minutes() {
        // A 1.8 plugin's manifest has no `play_time`: it loads, with none.
        let json = serde_json::to_value(manifest()).unwrap();
        assert!(
            json.get("play_time").is_none(),
            "None is not written: {json}"
        );
        assert_eq!(
            serde_json::from_value::<Manifest>(json).unwrap().play_time,
            None
        );
        let mut timed = manifest();
        timed.play_time = Some(crate::PlayTime::minutes(20, 40));
        let json = serde_json::to_string(&timed).unwrap();
        assert!(
            json.contains(r#""play_time":{"min":20,"max":40}"#),
            "{json}"
        );
        assert!(timed.problems().is_empty());
        for (min, max) in [(0, 10), (40, 20), (30, 2000)] {
            timed.play_time = Some(crate::PlayTime::minutes(min, max));
            let problems = timed.problems().join("\n");
            assert!(
                problems.contains(&format!("play time {min}–{max} minutes")),
                "{problems}"
            );
        }
    }

    #[test]
    fn setup_json_round_trips_with_typed_options() {
        let resolved = Setup::new(3, u64::MAX).resolved(&manifest()).unwrap();
        let json = serde_json::to_string(&resolved).unwrap();
        assert_eq!(serde_json::from_str::<Setup>(&json).unwrap(), resolved);
    }
}
