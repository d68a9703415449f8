//! What it takes to run a game: its installed plugin plus the house rules chosen for it, for
//! a new game or for a saved session (which runs the exact script texts it recorded).

use anyhow::Context;

use crate::catalog::Catalog;
use crate::engine::GameEngine;
use crate::store::model::{SessionMeta, VariantScript};
use crate::variants::library::{self, ScriptSource};
use crate::variants::{Script, VariantEngine, VariantLimits};

/// An engine for `game` with the house rules `wanted` (ids or `.lua` paths), in that order,
/// and the scripts as a session records them.
pub fn engine_with_variants(
    catalog: &Catalog,
    game: &str,
    wanted: &[String],
    user_dir: &std::path::Path,
) -> anyhow::Result<(Box<dyn GameEngine>, Vec<VariantScript>)> {
    let plugin = catalog.engine(game)?;
    if wanted.is_empty() {
        return Ok((Box::new(plugin), Vec::new()));
    }
    let sources = wanted
        .iter()
        .map(|w| library::resolve(w, game, Some(user_dir)))
        .collect::<Result<Vec<ScriptSource>, _>>()?;
    let scripts = sources
        .iter()
        .map(|s| s.load(VariantLimits::default()))
        .collect::<Result<Vec<Script>, _>>()?;
    let recorded = scripts.iter().map(recorded).collect();
    Ok((
        Box::new(VariantEngine::new(Box::new(plugin), scripts)?),
        recorded,
    ))
}

/// The engine a saved session was played with: its game's installed plugin and the exact
/// script texts the session recorded (even if the files changed since).
pub fn engine_for_session(
    catalog: &Catalog,
    meta: &SessionMeta,
) -> anyhow::Result<Box<dyn GameEngine>> {
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
            Script::load(&file, &v.text, VariantLimits::default()).with_context(|| {
                format!("the house rule `{}` recorded in session {}", v.id, meta.id)
            })
        })
        .collect::<anyhow::Result<Vec<Script>>>()?;
    Ok(Box::new(VariantEngine::new(Box::new(plugin), scripts)?))
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
