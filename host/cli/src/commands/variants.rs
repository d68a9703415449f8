//! `veillee variants [GAME]`: the house rules (Lua scripts) per game; and what the other
//! commands say of a game's own scripts.

use std::path::Path;

use super::Context;
use crate::term::{line, outln};
use veillee_runtime::variants::library;

/// The game's own scripts (`part_of_game`, Castel's cards) as `id (origin)`: what `play`,
/// `check`, `simulate` and `inspect` run with every game of it, a user's copy in place of
/// the built-in one.
pub fn own_scripts(game: &str, user_dir: &Path) -> Vec<String> {
    library::available(Some(game), Some(user_dir))
        .into_iter()
        .filter_map(|a| {
            let info = a.info.ok().filter(|i| i.part_of_game)?;
            Some(format!("{} ({})", info.id, a.source.origin))
        })
        .collect()
}

/// One line naming the game's own scripts (from [`own_scripts`]), when it has some.
pub fn own_scripts_line(own: &[String]) -> Option<String> {
    let quoted: Vec<_> = own.iter().map(|script| line(script)).collect();
    (!own.is_empty()).then(|| format!("Part of the game: {}", quoted.join(", ")))
}

/// What a new game says of its game's own scripts: how many run, and the lines to print.
pub struct OwnScripts {
    /// How many of the game's own scripts run (they come first).
    pub count: usize,
    /// `Part of the game: …`, then per user copy of one of them ("modified rules") either
    /// its rules diff, when the players picked it, or how to pick it.
    pub lines: Vec<String>,
}

/// The game's own scripts of a new game of `game` with the house rules `wanted`: shipped
/// ones, or the user's copy of one where `wanted` names its id.
pub fn new_game_own_scripts(
    game: &str,
    wanted: &[String],
    user_dir: &Path,
    lang: &str,
) -> OwnScripts {
    let copies = library::modified_game_scripts(game, Some(user_dir));
    let picked: Vec<_> = copies
        .iter()
        .filter(|c| c.info.as_ref().is_ok_and(|i| wanted.contains(&i.id)))
        .map(|c| c.source.clone())
        .collect();
    // Only picked copies are passed: the list is exactly the game's own scripts.
    let sources = library::new_game_scripts(game, &picked, Some(user_dir));
    let shipped = library::available(Some(game), None);
    let own: Vec<String> = sources
        .iter()
        .filter_map(|source| {
            let known = shipped
                .iter()
                .chain(&copies)
                .find(|a| a.source == *source)?;
            let id = &known.info.as_ref().ok()?.id;
            Some(format!("{id} ({})", source.origin))
        })
        .collect();
    let mut lines: Vec<String> = own_scripts_line(&own).into_iter().collect();
    for copy in &copies {
        let Ok(info) = &copy.info else { continue };
        let origin = line(&copy.source.origin);
        if picked.contains(&copy.source) {
            lines.push(format!(
                "Modified rules: {} ({}, {origin})",
                line(info.name.get(lang)),
                line(&info.id)
            ));
            for change in &info.changes {
                lines.push(format!("  - {}", change.get(lang)));
            }
        } else {
            lines.push(format!(
                "Modified rules not used: your copy of {} ({origin}); play with it with \
                 --variant {}",
                line(&info.id),
                line(&info.id)
            ));
        }
    }
    OwnScripts {
        count: own.len(),
        lines,
    }
}

/// `veillee variants [GAME] [--dir]`.
#[derive(clap::Args, Debug)]
pub struct VariantsArgs {
    /// Only this game's.
    game: Option<String>,
    /// Print the folder for your own scripts instead.
    #[arg(long)]
    dir: bool,
}

impl VariantsArgs {
    /// The house rules per game, built-in ones and the user's, or the user's folder.
    pub fn run(&self, ctx: &Context) -> anyhow::Result<()> {
        list(
            &ctx.user_variants(),
            self.game.as_deref(),
            self.dir,
            &ctx.lang,
        )
    }
}

fn list(folder: &Path, game: Option<&str>, dir: bool, lang: &str) -> anyhow::Result<()> {
    if dir {
        outln!("{}", folder.display());
        return Ok(());
    }
    let available = library::available(game, Some(folder));
    if available.is_empty() {
        match game {
            Some(game) => outln!("No house rules for {game}."),
            None => outln!("No house rules."),
        }
        outln!("Your own scripts go in {}", folder.display());
        return Ok(());
    }
    let mut current_game = String::new();
    for entry in &available {
        match &entry.info {
            Ok(info) => {
                if info.game != current_game {
                    outln!("{}:", info.game);
                    current_game = info.game.clone();
                }
                let modified = library::is_modified_game_script(entry);
                let tag = match (info.part_of_game, info.exclusive) {
                    (true, _) if modified => {
                        " [modified rules: a new game runs them when picked with --variant]"
                    }
                    (true, _) => " [part of the game: always loaded]",
                    (false, true) => " [exclusive]",
                    (false, false) => "",
                };
                outln!(
                    "  {:<24} {}{tag}  ({})",
                    line(&info.id),
                    line(info.name.get(lang)),
                    line(&entry.source.origin)
                );
                for change in &info.changes {
                    outln!("      - {}", change.get(lang));
                }
            }
            Err(error) => outln!("  (broken) {}: {error}", entry.source.origin),
        }
    }
    outln!("Your own scripts go in {}", folder.display());
    Ok(())
}
