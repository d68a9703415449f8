//! What it takes to run a game: its installed plugin plus the house rules chosen for it, for
//! a new game or for a saved session (which runs the exact script texts it recorded).

use std::path::Path;

use veillee_sdk::{Setup, Text};

use crate::catalog::{Catalog, CatalogError};
use crate::engine::GameEngine;
use crate::store::model::{SessionMeta, VariantScript};
use crate::variants::library::{self, ScriptSource};
use crate::variants::{Script, VariantEngine, VariantError, VariantLimits};
use crate::vetting::{self, LeakFound};

/// Why a game could not be launched.
#[derive(Debug, thiserror::Error)]
pub enum LaunchError {
    /// The game is not there, or its plugin does not start.
    #[error(transparent)]
    Catalog(#[from] CatalogError),
    /// A script does not load, is for another game, or clashes with another.
    #[error(transparent)]
    Script(#[from] VariantError),
    /// A script a saved session recorded no longer loads.
    #[error("the house rule `{id}` recorded in session {session}")]
    Recorded {
        /// The script's id.
        id: String,
        /// The session.
        session: u64,
        /// Why it does not load.
        #[source]
        source: VariantError,
    },
    /// The scripts failed the leak check they pass before they first play.
    #[error(transparent)]
    Leak(#[from] LeakFound),
}

impl LaunchError {
    /// What to tell the player, in both languages where the words are ours.
    pub fn text(&self) -> Text {
        match self {
            LaunchError::Catalog(catalog) => catalog.text(),
            LaunchError::Script(script) => Text::same(script.to_string()),
            LaunchError::Recorded {
                id,
                session,
                source,
            } => Text::new(
                format!("la règle maison « {id} » enregistrée avec la partie {session} : {source}"),
                format!("{self}: {source}"),
            ),
            LaunchError::Leak(leak) => leak.text(),
        }
    }
}

/// An engine for `game` with its own scripts (`part_of_game`, e.g. Castel's cards) and the
/// house rules `wanted` (ids or `.lua` paths), in that order, and the scripts as a session
/// records them. Without any script the engine is the plain plugin.
pub fn engine_with_variants(
    catalog: &Catalog,
    game: &str,
    wanted: &[String],
    user_dir: &Path,
) -> Result<(Box<dyn GameEngine>, Vec<VariantScript>), LaunchError> {
    let own = library::game_scripts(game, Some(user_dir));
    engine_with(catalog, game, own, wanted, user_dir)
}

/// [`engine_with_variants`] for a new game: the game's own scripts as shipped, unless the
/// players pick the user's copy of one by its id in `wanted` ("modified rules", see
/// [`library::modified_game_scripts`]). Scripts not shipped with this build pass the leak
/// check first, for `setup` ([`vetting::vet`]; `checking` is told when one runs).
pub fn engine_for_new_game(
    catalog: &Catalog,
    game: &str,
    wanted: &[String],
    setup: &Setup,
    checking: &mut dyn FnMut(&vetting::Checking),
) -> Result<(Box<dyn GameEngine>, Vec<VariantScript>), LaunchError> {
    let user_dir = &catalog.data_dir().variants();
    let picked: Vec<ScriptSource> = library::modified_game_scripts(game, Some(user_dir))
        .into_iter()
        .filter(|m| m.info.as_ref().is_ok_and(|i| wanted.contains(&i.id)))
        .map(|m| m.source)
        .collect();
    let own = library::new_game_scripts(game, &picked, Some(user_dir));
    let (mut engine, recorded) = engine_with(catalog, game, own, wanted, user_dir)?;
    vet(catalog, &mut *engine, &recorded, setup, checking)?;
    Ok((engine, recorded))
}

/// [`vetting::vet`] with the catalog's data directory.
pub fn vet(
    catalog: &Catalog,
    engine: &mut dyn GameEngine,
    scripts: &[VariantScript],
    setup: &Setup,
    checking: &mut dyn FnMut(&vetting::Checking),
) -> Result<vetting::Vetted, LeakFound> {
    vetting::vet(engine, scripts, setup, catalog.data_dir().root(), checking)
}

fn engine_with(
    catalog: &Catalog,
    game: &str,
    own: Vec<ScriptSource>,
    wanted: &[String],
    user_dir: &Path,
) -> Result<(Box<dyn GameEngine>, Vec<VariantScript>), LaunchError> {
    let plugin = catalog.engine(game)?;
    let mut scripts = load_all(&own)?;
    let own = scripts.len();
    for wanted in wanted {
        // The game's own scripts are always there: naming one as a house rule adds nothing
        // (or, for a new game, picks the user's copy of it, already in place).
        if scripts[..own].iter().any(|s| s.info().id == *wanted) {
            continue;
        }
        let source = library::resolve(wanted, game, Some(user_dir))?;
        scripts.push(source.load(VariantLimits::default())?);
    }
    if scripts.is_empty() {
        return Ok((Box::new(plugin), Vec::new()));
    }
    let recorded = scripts.iter().map(recorded).collect();
    Ok((
        Box::new(VariantEngine::new(Box::new(plugin), scripts)?),
        recorded,
    ))
}

/// Loads each script into its own sandbox.
fn load_all(sources: &[ScriptSource]) -> Result<Vec<Script>, crate::variants::VariantError> {
    sources
        .iter()
        .map(|s| s.load(VariantLimits::default()))
        .collect()
}

/// The scripts of a new game of `game`: its own scripts first — as shipped, or the user's
/// copy where the players picked it as modified rules — then the chosen house rules.
pub fn with_game_scripts(
    game: &str,
    chosen: &[ScriptSource],
    user_dir: &Path,
) -> Vec<ScriptSource> {
    library::new_game_scripts(game, chosen, Some(user_dir))
}

/// `engine` (a plugin or a native build) with its game's own scripts, if it has some: the
/// game as it is played, for checks and simulations without house rules.
pub fn with_own_scripts(
    engine: Box<dyn GameEngine>,
    user_dir: Option<&Path>,
) -> Result<Box<dyn GameEngine>, LaunchError> {
    let sources = library::game_scripts(&engine.manifest().id, user_dir);
    if sources.is_empty() {
        return Ok(engine);
    }
    Ok(Box::new(VariantEngine::new(engine, load_all(&sources)?)?))
}

/// The engine a saved session was played with: its game's installed plugin and the exact
/// script texts the session recorded (even if the files changed since), which pass the leak
/// check before they run ([`vetting::vet`]; `checking` is told when one runs).
pub fn engine_for_session(
    catalog: &Catalog,
    meta: &SessionMeta,
    checking: &mut dyn FnMut(&vetting::Checking),
) -> Result<Box<dyn GameEngine>, LaunchError> {
    let plugin = catalog.engine(&meta.game)?;
    if meta.variants.is_empty() {
        return Ok(Box::new(plugin));
    }
    let scripts = meta
        .variants
        .iter()
        .map(|v| {
            let file = if v.file.is_empty() {
                format!("{}.lua", v.id)
            } else {
                v.file.clone()
            };
            Script::load(&file, &v.text, VariantLimits::default()).map_err(|source| {
                LaunchError::Recorded {
                    id: v.id.clone(),
                    session: meta.id,
                    source,
                }
            })
        })
        .collect::<Result<Vec<Script>, LaunchError>>()?;
    let mut engine: Box<dyn GameEngine> = Box::new(VariantEngine::new(Box::new(plugin), scripts)?);
    vet(catalog, &mut *engine, &meta.variants, &meta.setup, checking)?;
    Ok(engine)
}

/// A loaded script as a session records it.
pub fn recorded(script: &Script) -> VariantScript {
    VariantScript {
        id: script.info().id.clone(),
        file: script.file().to_string(),
        hash: script.hash().to_string(),
        text: script.text().to_string(),
    }
}
