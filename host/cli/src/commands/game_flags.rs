//! The flags that set up a game, shared by the commands that start games: each is declared
//! once here and flattened into every command that takes it (as cargo composes its
//! commands from shared flags). They come as three sets because the commands take
//! different ones: `play` counts its players by `--seats`, `check` plays no house rules.
//! `--seed` is no shared flag: each command gives it its own meaning and default (one game's
//! seed, from the clock for `play`; the first of a series for `simulate` and `check`).

use veillee_sdk::Manifest;

/// `--players`: how many play (`simulate`, `inspect`, `check`, `check-variant`).
#[derive(clap::Args, Debug)]
pub struct Players {
    /// Players (default: the game's minimum).
    #[arg(long = "players", value_name = "PLAYERS")]
    pub count: Option<u8>,
}

/// `--option id=value`: the game's options (`play`, `simulate`, `inspect`, `check`).
#[derive(clap::Args, Debug)]
pub struct GameOptions {
    /// A game option as `id=value` (repeatable; `veillee games --options` lists them).
    #[arg(long = "option", value_name = "ID=VALUE")]
    pub written: Vec<String>,
}

/// `--variant`: the house rules to play with (`play`, `simulate`, `inspect`).
#[derive(clap::Args, Debug)]
pub struct HouseRules {
    /// A house rule to play with: its id or a .lua file (repeatable, applied in order).
    #[arg(long = "variant", value_name = "ID_OR_FILE")]
    pub wanted: Vec<String>,
}

/// Refuses a player count the game does not allow, naming the counts it does.
pub fn ensure_players(manifest: &Manifest, players: u8) -> anyhow::Result<()> {
    let (min, max) = (manifest.min_players, manifest.max_players);
    let allowed = if min == max {
        min.to_string()
    } else {
        format!("{min}–{max}")
    };
    anyhow::ensure!(
        (min..=max).contains(&players),
        "{} plays with {allowed} players, not {players}",
        manifest.id
    );
    Ok(())
}
