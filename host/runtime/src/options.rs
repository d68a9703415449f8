//! Game options written as text (`mode=individual`, from the command line's `--option`),
//! checked against the game's manifest before a game is set up.
//!
//! A game's options are declared in its manifest ([`OptionSpec`]); the window offers them as
//! controls, the command line as `--option id=value`. Every problem names the option and the
//! values it takes, so that the user can correct the command at once.

use std::collections::BTreeMap;

use veillee_sdk::{Manifest, OptionKind, OptionSpec, OptionValue, Setup};

/// An option written wrong: the message names the option and the values it takes.
#[derive(Debug, thiserror::Error)]
pub enum OptionError {
    /// Not `id=value`.
    #[error("`--option {written}` is not of the form id=value; {available}")]
    NotIdEqualsValue {
        /// What was written.
        written: String,
        /// The game's options, in words.
        available: String,
    },
    /// The game has no such option.
    #[error("{game} has no option `{id}`; {available}")]
    Unknown {
        /// The game.
        game: String,
        /// The option written.
        id: String,
        /// The game's options, in words.
        available: String,
    },
    /// The option does not take that value.
    #[error("option `{id}` of {game} cannot be `{value}`: it takes {allowed}")]
    BadValue {
        /// The option.
        id: String,
        /// The game.
        game: String,
        /// The value written.
        value: String,
        /// The values it takes, in words.
        allowed: String,
    },
    /// The same option twice.
    #[error("option `{0}` is given twice")]
    Twice(String),
}

/// A set-up of `manifest`'s game for `players` and `seed` with the options written as
/// `id=value` (see [`parse_options`]).
pub fn setup_with_options(
    manifest: &Manifest,
    players: u8,
    seed: u64,
    written: &[String],
) -> Result<Setup, OptionError> {
    let mut setup = Setup::new(players, seed);
    setup.options = parse_options(manifest, written)?;
    Ok(setup)
}

/// Reads options written as `id=value` (each id at most once) against the manifest: the id
/// must be one of the game's options and the value one it takes — `true`/`false` (also
/// `yes`/`no`, `on`/`off`) for a switch, a whole number in range, or a choice's id.
pub fn parse_options(
    manifest: &Manifest,
    written: &[String],
) -> Result<BTreeMap<String, OptionValue>, OptionError> {
    let mut options = BTreeMap::new();
    for item in written {
        let (id, value) = item
            .split_once('=')
            .ok_or_else(|| OptionError::NotIdEqualsValue {
                written: item.clone(),
                available: available(manifest),
            })?;
        let (id, value) = (id.trim(), value.trim());
        let spec = manifest
            .options
            .iter()
            .find(|o| o.id == id)
            .ok_or_else(|| OptionError::Unknown {
                game: manifest.id.clone(),
                id: id.to_string(),
                available: available(manifest),
            })?;
        let parsed = parse_value(spec, value).ok_or_else(|| OptionError::BadValue {
            id: id.to_string(),
            game: manifest.id.clone(),
            value: value.to_string(),
            allowed: allowed_values(spec),
        })?;
        if options.insert(spec.id.clone(), parsed).is_some() {
            return Err(OptionError::Twice(id.to_string()));
        }
    }
    Ok(options)
}

/// The value `text` for the option, if it is one the option takes.
fn parse_value(spec: &OptionSpec, text: &str) -> Option<OptionValue> {
    match &spec.kind {
        OptionKind::Bool { .. } => match text.to_ascii_lowercase().as_str() {
            "true" | "yes" | "on" => Some(OptionValue::Bool(true)),
            "false" | "no" | "off" => Some(OptionValue::Bool(false)),
            _ => None,
        },
        OptionKind::Integer { min, max, .. } => text
            .parse::<i64>()
            .ok()
            .filter(|v| (min..=max).contains(&v))
            .map(OptionValue::Integer),
        OptionKind::Choice { choices, .. } => choices
            .iter()
            .find(|c| c.id == text)
            .map(|c| OptionValue::Choice(c.id.clone())),
    }
}

/// The values an option takes, in words: `teams or individual`, `a whole number from 1 to
/// 9`, `true or false`.
pub fn allowed_values(spec: &OptionSpec) -> String {
    match &spec.kind {
        OptionKind::Bool { .. } => "true or false".into(),
        OptionKind::Integer { min, max, .. } => format!("a whole number from {min} to {max}"),
        OptionKind::Choice { choices, .. } => {
            let ids: Vec<&str> = choices.iter().map(|c| c.id.as_str()).collect();
            match ids.split_last() {
                Some((last, rest)) if !rest.is_empty() => {
                    format!("{} or {last}", rest.join(", "))
                }
                _ => ids.join(""),
            }
        }
    }
}

/// An option's default value as it is written on the command line.
pub fn default_value(spec: &OptionSpec) -> String {
    match &spec.kind {
        OptionKind::Bool { default } => default.to_string(),
        OptionKind::Integer { default, .. } => default.to_string(),
        OptionKind::Choice { default, .. } => default.clone(),
    }
}

/// The options a game has, in words, for error messages.
fn available(manifest: &Manifest) -> String {
    if manifest.options.is_empty() {
        return format!("{} has no options", manifest.id);
    }
    let list: Vec<String> = manifest
        .options
        .iter()
        .map(|o| format!("{} ({})", o.id, allowed_values(o)))
        .collect();
    format!("its options: {}", list.join("; "))
}

#[cfg(test)]
mod tests {
    use veillee_sdk::{text, Choice, Colour, SeatInfo};

    use super::*;

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
            max_players: 2,
            seats: vec![seat.clone(), seat],
            options: vec![
                OptionSpec {
                    id: "mode".into(),
                    label: text("Mode", "Mode"),
                    kind: OptionKind::Choice {
                        choices: ["teams", "individual"]
                            .map(|id| Choice {
                                id: id.into(),
                                label: text(id, id),
                            })
                            .to_vec(),
                        default: "teams".into(),
                    },
                },
                OptionSpec {
                    id: "rounds".into(),
                    label: text("Manches", "Rounds"),
                    kind: OptionKind::Integer {
                        min: 1,
                        max: 9,
                        default: 3,
                    },
                },
                OptionSpec {
                    id: "fast".into(),
                    label: text("Rapide", "Fast"),
                    kind: OptionKind::Bool { default: false },
                },
            ],
            hidden_information: false,
            operations: Vec::new(),
            rules: None,
            play_time: None,
        }
    }

    fn parse(items: &[&str]) -> Result<BTreeMap<String, OptionValue>, OptionError> {
        let items: Vec<String> = items.iter().map(|s| s.to_string()).collect();
        parse_options(&manifest(), &items)
    }

    #[test]
    fn options_of_every_kind_are_read() {
        let options = parse(&["mode=individual", "rounds=9", "fast=yes"]).unwrap();
        assert_eq!(options["mode"], OptionValue::Choice("individual".into()));
        assert_eq!(options["rounds"], OptionValue::Integer(9));
        assert_eq!(options["fast"], OptionValue::Bool(true));
        let setup = setup_with_options(&manifest(), 2, 7, &["fast=off".into()]).unwrap();
        assert_eq!((setup.players, setup.seed), (2, 7));
        assert!(setup.resolved(&manifest()).is_ok());
        assert!(!setup.flag("fast"));
    }

    #[test]
    fn errors_name_the_option_and_its_values() {
        let error = |items: &[&str]| parse(items).unwrap_err().to_string();
        assert_eq!(
            error(&["mode=solo"]),
            "option `mode` of demo cannot be `solo`: it takes teams or individual"
        );
        assert_eq!(
            error(&["rounds=10"]),
            "option `rounds` of demo cannot be `10`: it takes a whole number from 1 to 9"
        );
        assert!(error(&["fast=maybe"]).ends_with("it takes true or false"));
        let unknown = error(&["colour=red"]);
        assert!(
            unknown.starts_with(
                "demo has no option `colour`; its options: mode (teams or individual); rounds"
            ),
            "{unknown}"
        );
        assert!(error(&["mode"]).contains("not of the form id=value"));
        assert_eq!(
            error(&["mode=teams", "mode=teams"]),
            "option `mode` is given twice"
        );
        let mut bare = manifest();
        bare.options.clear();
        let message = parse_options(&bare, &["x=1".into()])
            .unwrap_err()
            .to_string();
        assert_eq!(message, "demo has no option `x`; demo has no options");
    }
}
