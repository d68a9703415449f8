//! The leak check a set of scripts passes before it first plays: the one `veillee
//! check-variant` runs, so that a script that shows one seat's secret to another never reaches
//! a table, whichever way it came (a new game, a resume, an imported session, the window).
//!
//! A house rule cannot leak by construction (it reads a spectator's re-drawn world, see the
//! `veillee-variants` crate); what this catches is a script that is part of the game — a
//! modified copy of Castel's cards, or one a session file brought — and a plugin whose own
//! texts leak with these scripts on top. Scripts exactly as shipped with this build are
//! trusted without a check (the test suite and CI check them), as is a game without hidden
//! information (nothing to leak).
//!
//! The check plays one random game at the table's player count ([`CheckConfig`]: every seat's
//! and the spectator's view re-drawn at every step). Its verdict is remembered in the data
//! directory (`cache/vetted/`, one file per plugin build, scripts and player count) when it
//! passes, so each combination is checked once. Whoever can write the data directory can
//! already change its sessions and scripts: the remembered verdict gives them nothing more.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};
use veillee_sdk::{Setup, Text};

use crate::conformance::{check, CheckConfig};
use crate::engine::GameEngine;
use crate::store::model::VariantScript;
use crate::variants::library::{self, ScriptSource};
use crate::variants::text_hash;

/// Where the verdicts are kept, below the data directory.
pub const VETTED_DIR: &str = "cache/vetted";

/// The most moves the check's game plays.
const VET_MOVES: u32 = 1_000;

/// How a check's problems are told apart: the conformance kit starts every leak with it.
const LEAK_PREFIX: &str = "leak:";

/// The scripts showed some seat what it may not see: they do not play.
#[derive(Debug, thiserror::Error)]
#[error(
    "the leak check failed with the scripts {}: they would show a seat what it may not see, so \
     they do not play ({}); `veillee check-variant FILE` gives the details",
    .scripts.join(", "),
    .problems.first().map(String::as_str).unwrap_or("")
)]
pub struct LeakFound {
    /// The ids of the scripts checked (the ones not shipped with this build).
    pub scripts: Vec<String>,
    /// The leaks found, in the conformance kit's words.
    pub problems: Vec<String>,
}

impl LeakFound {
    /// What to tell the player.
    pub fn text(&self) -> Text {
        let first = self.problems.first().map(String::as_str).unwrap_or("");
        Text::new(
            format!(
                "la vérification des fuites a échoué avec les scripts {} : ils montreraient à un \
                 joueur ce qu'il ne doit pas voir, ils ne sont donc pas joués ({first}) ; \
                 `veillee check-variant FICHIER` donne le détail",
                self.scripts.join(", ")
            ),
            self.to_string(),
        )
    }
}

/// What [`vet`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vetted {
    /// Nothing needed checking: no script, only scripts as shipped, or no hidden information.
    NotNeeded,
    /// These scripts passed before, with this plugin and player count.
    Remembered,
    /// They were checked now, and passed.
    Checked,
}

/// What [`vet`] is about to check, told before it starts (it takes a few seconds, longer
/// with a slow plugin): the scripts and the one game it plays.
#[derive(Clone, Copy, Debug)]
pub struct Checking<'a> {
    /// The ids of the scripts checked (the ones not shipped with this build).
    pub scripts: &'a [String],
    /// The player count of the random game played.
    pub players: u8,
}

/// Checks `scripts` (as a session records them) on `engine` — the game with those very
/// scripts — at `setup`'s player count and options, unless they are trusted or passed
/// before. `checking` is told before a check starts, with what it checks.
pub fn vet(
    engine: &mut dyn GameEngine,
    scripts: &[VariantScript],
    setup: &Setup,
    data_root: &Path,
    checking: &mut dyn FnMut(&Checking),
) -> Result<Vetted, LeakFound> {
    let manifest = engine.manifest();
    if !manifest.hidden_information {
        return Ok(Vetted::NotNeeded);
    }
    let unknown = not_shipped(&manifest.id, scripts);
    if unknown.is_empty() {
        return Ok(Vetted::NotNeeded);
    }
    let verdict = verdict_file(data_root, &engine.content_hash(), setup);
    if verdict.is_file() {
        return Ok(Vetted::Remembered);
    }
    checking(&Checking {
        scripts: &unknown,
        players: setup.players,
    });
    let problems = leaks(engine, setup);
    if !problems.is_empty() {
        return Err(LeakFound {
            scripts: unknown,
            problems,
        });
    }
    remember(&verdict);
    Ok(Vetted::Checked)
}

/// The ids of the scripts whose text is not one shipped with this build for `game` (the
/// hash is computed here: the one a session file records is only a claim).
fn not_shipped(game: &str, scripts: &[VariantScript]) -> Vec<String> {
    let shipped = sorted_hashes(library::builtin(Some(game)));
    not_among(scripts, &shipped)
        .map(|(script, _)| script.id.clone())
        .collect()
}

/// The hashes of `sources`' texts, sorted.
fn sorted_hashes(sources: impl IntoIterator<Item = ScriptSource>) -> Vec<String> {
    let mut hashes: Vec<String> = sources
        .into_iter()
        .map(|source| text_hash(&source.text))
        .collect();
    hashes.sort();
    hashes
}

/// The scripts whose text's hash is not in `known` (sorted), each with that hash.
fn not_among<'a>(
    scripts: &'a [VariantScript],
    known: &'a [String],
) -> impl Iterator<Item = (&'a VariantScript, String)> + 'a {
    scripts
        .iter()
        .map(|script| (script, text_hash(&script.text)))
        .filter(|(_, hash)| known.binary_search(hash).is_err())
}

/// The leaks one random game at `setup`'s player count and options finds.
fn leaks(engine: &mut dyn GameEngine, setup: &Setup) -> Vec<String> {
    let config = CheckConfig {
        games: 1,
        players: Some(setup.players),
        options: setup.options.clone(),
        // A leak shows in the first moves that reveal or hide something; a long game would
        // only keep the players waiting (a game cut here is no leak).
        max_moves: VET_MOVES,
        // The bots' no-peek check is about the plugin's search, which scripts do not change.
        search_every: 0,
        ..CheckConfig::default()
    };
    let report = check(engine, None, &config);
    report
        .problems
        .iter()
        .filter(|problem| problem.what.starts_with(LEAK_PREFIX))
        .map(ToString::to_string)
        .collect()
}

/// The file that says the engine `content_hash` (plugin and scripts) passed with `setup`'s
/// player count and options (the seed plays no part: the check draws its own).
fn verdict_file(data_root: &Path, content_hash: &str, setup: &Setup) -> PathBuf {
    let options = serde_json::to_vec(&setup.options).unwrap_or_default();
    let key = Sha256::new()
        .chain_update(content_hash.as_bytes())
        .chain_update([0, setup.players, 0])
        .chain_update(options)
        .finalize();
    let name: String = key.iter().map(|b| format!("{b:02x}")).collect();
    data_root.join(VETTED_DIR).join(name)
}

/// Writes a passed verdict. A data directory that cannot be written only means the check
/// runs again next time.
fn remember(verdict: &Path) {
    if let Some(dir) = verdict.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let _ = std::fs::write(verdict, b"passed\n");
}

/// A script a session file brings that is not installed here, as the player is shown it
/// before it runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unfamiliar {
    /// Its id.
    pub id: String,
    /// Its file name.
    pub file: String,
    /// The length of its text, in bytes.
    pub bytes: usize,
    /// The SHA-256 of its text, computed here.
    pub hash: String,
}

/// The scripts of `scripts` (those a session file brings) whose text is neither shipped with
/// this build for `game` nor one of the user's own files under `user_dir`: the ones a player
/// must see and accept before they run.
pub fn unfamiliar(game: &str, scripts: &[VariantScript], user_dir: &Path) -> Vec<Unfamiliar> {
    let known = sorted_hashes(
        library::builtin(Some(game))
            .into_iter()
            .chain(library::user_scripts(user_dir).sources),
    );
    not_among(scripts, &known)
        .map(|(script, hash)| Unfamiliar {
            id: script.id.clone(),
            file: script.file.clone(),
            bytes: script.text.len(),
            hash,
        })
        .collect()
}
