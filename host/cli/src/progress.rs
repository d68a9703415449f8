//! Saying, on stderr, where long work is: the install self-check and `veillee check` play
//! games through a plugin, and a plugin whose calls are slow keeps them busy for minutes.
//! Silence for that long looks like a hang.
//!
//! On a terminal one line is rewritten in place (indicatif, with the time spent); anywhere
//! else (a log, a pipe, a test) nothing is rewritten: each step is one plain line, and a step
//! is a game, so the lines stay few. Texts go through `term` quoting either way: a game's id
//! comes from its plugin.

use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use veillee_runtime::conformance;
use veillee_sdk::Text;

use crate::term::{self, errln};

/// How often the line on a terminal is redrawn (its clock moves while a game plays).
const TICK: Duration = Duration::from_millis(250);

/// The progress of one piece of work, shown until it is dropped.
pub struct Progress {
    /// The line rewritten in place, on a terminal only.
    bar: Option<ProgressBar>,
}

impl Progress {
    /// Starts showing progress: a line rewritten in place when stderr is a terminal, plain
    /// lines otherwise.
    pub fn start() -> Progress {
        if !term::stderr_is_terminal() {
            return Progress { bar: None };
        }
        let bar = ProgressBar::new_spinner();
        bar.set_style(
            ProgressStyle::with_template("{spinner} {msg} ({elapsed})")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        bar.enable_steady_tick(TICK);
        Progress { bar: Some(bar) }
    }

    /// Shows `text` as where the work is now, on one line (a plugin's id may hold a line
    /// break).
    pub fn say(&self, text: &str) {
        match &self.bar {
            Some(bar) => bar.set_message(term::line(text).into_owned()),
            None => errln!("{}", term::line(text)),
        }
    }
}

impl Drop for Progress {
    /// The line on a terminal goes away with the work: what follows is the result.
    fn drop(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// "self-check: game 2 of 6, 3 players…", in `lang`.
pub fn self_check_game(at: conformance::Progress, lang: &str) -> String {
    let (fr, en) = players(at.players);
    Text::new(
        format!(
            "auto-vérification : partie {} sur {}, {fr}…",
            at.started, at.total
        ),
        format!("self-check: game {} of {}, {en}…", at.started, at.total),
    )
    .get(lang)
    .to_string()
}

/// "castel, 4 players: game 7 of 20…", in `lang`.
pub fn check_game(game: &str, at: conformance::Progress, lang: &str) -> String {
    let (fr, en) = players(at.players);
    Text::new(
        format!("{game}, {fr} : partie {} sur {}…", at.game, at.games),
        format!("{game}, {en}: game {} of {}…", at.game, at.games),
    )
    .get(lang)
    .to_string()
}

/// "3 joueurs" and "3 players", singular for one.
fn players(n: u8) -> (String, String) {
    match n {
        1 => ("1 joueur".into(), "1 player".into()),
        n => (format!("{n} joueurs"), format!("{n} players")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(players: u8, game: u32, started: u32) -> conformance::Progress {
        conformance::Progress {
            players,
            game,
            games: 2,
            started,
            total: 6,
        }
    }

    #[test]
    fn each_step_names_the_game_and_the_table_in_the_players_language() {
        assert_eq!(
            self_check_game(at(3, 2, 4), "en"),
            "self-check: game 4 of 6, 3 players…"
        );
        assert_eq!(
            self_check_game(at(1, 1, 1), "fr"),
            "auto-vérification : partie 1 sur 6, 1 joueur…"
        );
        assert_eq!(
            check_game("castel", at(4, 2, 6), "en"),
            "castel, 4 players: game 2 of 2…"
        );
        assert_eq!(
            check_game("castel", at(4, 2, 6), "fr"),
            "castel, 4 joueurs : partie 2 sur 2…"
        );
    }
}
