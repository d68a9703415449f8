//! Where scripts come from: the built-in ones (`variants/<game>/*.lua` at the repository's
//! root, embedded in the binary) and the user's (`<data dir>/variants/`, any `*.lua` file,
//! subfolders included).

use std::path::Path;

use veillee_files::{FileError, WalkLimits};

use super::{Script, ScriptInfo, VariantError, VariantLimits};

/// A script's source: where it comes from and its exact text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptSource {
    /// `builtin:siege/renforts.lua` or the file's path.
    pub origin: String,
    /// The name used in messages (`renforts.lua`).
    pub file: String,
    /// The text.
    pub text: String,
}

impl ScriptSource {
    /// Loads it into a sandbox.
    pub fn load(&self, limits: VariantLimits) -> Result<Script, VariantError> {
        Script::load(&self.file, &self.text, limits)
    }
}

/// The built-in scripts, as (game, file name, text). A test checks that every file of
/// `variants/<game>/` is listed. `variants/examples/` (the guide's worked examples) is not a
/// game's folder: its scripts are not built in.
pub const BUILTIN: &[(&str, &str, &str)] = &[
    (
        "siege",
        "sans-regle-speciale.lua",
        include_str!("../../../variants/siege/sans-regle-speciale.lua"),
    ),
    (
        "siege",
        "renforts.lua",
        include_str!("../../../variants/siege/renforts.lua"),
    ),
    (
        "siege",
        "seigneur-agile.lua",
        include_str!("../../../variants/siege/seigneur-agile.lua"),
    ),
    (
        "chateau-noir",
        "prise-obligatoire.lua",
        include_str!("../../../variants/chateau-noir/prise-obligatoire.lua"),
    ),
    (
        "roc-noir",
        "chateau-fort-enchante.lua",
        include_str!("../../../variants/roc-noir/chateau-fort-enchante.lua"),
    ),
    (
        "roc-noir",
        "trappe-couteuse.lua",
        include_str!("../../../variants/roc-noir/trappe-couteuse.lua"),
    ),
    (
        "batisseurs",
        "tour-maitresse.lua",
        include_str!("../../../variants/batisseurs/tour-maitresse.lua"),
    ),
    (
        "chateau-noir",
        "prise-en-diagonale.lua",
        include_str!("../../../variants/chateau-noir/prise-en-diagonale.lua"),
    ),
    (
        "chateau-noir",
        "partie-chronometree.lua",
        include_str!("../../../variants/chateau-noir/partie-chronometree.lua"),
    ),
    (
        "castel",
        "cards.lua",
        include_str!("../../../variants/castel/cards.lua"),
    ),
    (
        "castel",
        "dragon-apprivoise.lua",
        include_str!("../../../variants/castel/dragon-apprivoise.lua"),
    ),
    (
        "castel",
        "pioche-double.lua",
        include_str!("../../../variants/castel/pioche-double.lua"),
    ),
];

/// The built-in scripts of a game (all games when `None`).
pub fn builtin(game: Option<&str>) -> Vec<ScriptSource> {
    BUILTIN
        .iter()
        .filter(|(g, _, _)| game.is_none_or(|game| game == *g))
        .map(|(g, file, text)| ScriptSource {
            origin: format!("builtin:{g}/{file}"),
            file: file.to_string(),
            text: text.to_string(),
        })
        .collect()
}

/// The largest script file read, and the largest script text a session records: a house
/// rule is a few kilobytes (Castel's whole card table is 46 KiB).
pub const MAX_SCRIPT_BYTES: u64 = 256 * 1024;

/// How far the user's folder is searched: four levels of subfolders, a thousand scripts.
const USER_WALK: WalkLimits = WalkLimits {
    depth: 4,
    files: 1000,
};

/// The user's scripts, and the files left out.
#[derive(Debug, Default)]
pub struct UserScripts {
    /// The scripts, sorted by path, each file once.
    pub sources: Vec<ScriptSource>,
    /// What was not read, and why (not a regular file, too large, a second name for a file
    /// already read, a link back to a folder already searched, unreadable).
    pub skipped: Vec<FileError>,
}

/// The user's scripts under `dir` (every `*.lua`, subfolders included, sorted by path). A
/// missing folder is empty. Only regular files of at most [`MAX_SCRIPT_BYTES`] are read,
/// each once; the rest is listed in [`UserScripts::skipped`].
pub fn user_scripts(dir: &Path) -> UserScripts {
    let found = veillee_files::find_files(dir, "lua", USER_WALK);
    let mut scripts = UserScripts {
        sources: Vec::new(),
        skipped: found.skipped,
    };
    for path in &found.files {
        match read_bounded(path) {
            Ok(source) => scripts.sources.push(source),
            Err(error) => scripts.skipped.push(error),
        }
    }
    scripts
}

fn read_bounded(path: &Path) -> Result<ScriptSource, FileError> {
    let text = veillee_files::read_bounded_text(path, MAX_SCRIPT_BYTES)?;
    Ok(ScriptSource {
        origin: path.display().to_string(),
        file: file_name(path),
        text,
    })
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

/// Reads a script file (a regular file of at most [`MAX_SCRIPT_BYTES`]).
pub fn read(path: &Path) -> Result<ScriptSource, VariantError> {
    read_bounded(path).map_err(|e| VariantError::Io {
        path: path.display().to_string(),
        detail: e.problem.to_string(),
    })
}

/// One available script with its metadata (or why it does not load).
#[derive(Debug)]
pub struct Available {
    /// Where it is.
    pub source: ScriptSource,
    /// Its metadata, or the load error.
    pub info: Result<ScriptInfo, String>,
}

/// Every script for `game` (all games when `None`): built-in ones first, then the user's.
/// User scripts that fail to load are listed with their error. A user script with the id of
/// a built-in one for the same game takes its place: that is how a game's own script
/// (Castel's cards) or a shipped house rule is edited without rebuilding anything.
pub fn available(game: Option<&str>, user_dir: Option<&Path>) -> Vec<Available> {
    let load = |source: ScriptSource| {
        let info = source
            .load(VariantLimits::default())
            .map(|s| s.info().clone())
            .map_err(|e| e.to_string());
        Available { source, info }
    };
    let mut all: Vec<Available> = builtin(game).into_iter().map(load).collect();
    if let Some(dir) = user_dir {
        let found = user_scripts(dir);
        for mut user in found.sources.into_iter().map(load) {
            let replaced = user.info.as_ref().ok().and_then(|u| {
                all.iter().position(|b| {
                    b.info
                        .as_ref()
                        .is_ok_and(|i| i.id == u.id && i.game == u.game)
                })
            });
            // Only a game's own script, shipped with it, is loaded with every game: a user's
            // script may be one only as an edited copy of it (same id).
            let game_script = |a: &Available| a.info.as_ref().is_ok_and(|i| i.part_of_game);
            if game_script(&user) && !replaced.is_some_and(|i| game_script(&all[i])) {
                let id = user.info.as_ref().map(|i| i.id.clone()).unwrap_or_default();
                user.info = Err(format!(
                    "`part_of_game = true` is only for a game's own scripts (`{id}` is not one): \
                     remove it to offer this script as a house rule"
                ));
            }
            match replaced {
                Some(index) => all[index] = user,
                None => all.push(user),
            }
        }
        all.extend(found.skipped.into_iter().map(skipped));
    }
    all.into_iter()
        .filter(|a| match (&a.info, game) {
            (Ok(info), Some(game)) => info.game == game,
            _ => true,
        })
        .collect()
}

/// A file of the user's folder that was not read, as a script that does not load.
fn skipped(error: FileError) -> Available {
    Available {
        source: ScriptSource {
            origin: error.path.display().to_string(),
            file: file_name(&error.path),
            text: String::new(),
        },
        info: Err(format!("{}; skipped", error.problem)),
    }
}

/// The scripts that are part of `game` itself (`part_of_game = true`), in file order: loaded
/// with every game of it, before any house rule. A user copy with the same id replaces the
/// built-in one (see [`available`]): what the tools run (`check`, `simulate`, `inspect`).
/// A new game runs the shipped ones unless its players pick the copy (see
/// [`modified_game_scripts`]).
pub fn game_scripts(game: &str, user_dir: Option<&Path>) -> Vec<ScriptSource> {
    available(Some(game), user_dir)
        .into_iter()
        .filter(|a| a.info.as_ref().is_ok_and(|i| i.part_of_game))
        .map(|a| a.source)
        .collect()
}

/// Whether a script is the user's copy of a game's own script (`part_of_game`, an id of a
/// shipped one): "modified rules", which a new game runs only when its players pick them.
pub fn is_modified_game_script(available: &Available) -> bool {
    !available.source.origin.starts_with("builtin:")
        && available.info.as_ref().is_ok_and(|i| i.part_of_game)
}

/// The user's copies of `game`'s own scripts (see [`is_modified_game_script`]).
pub fn modified_game_scripts(game: &str, user_dir: Option<&Path>) -> Vec<Available> {
    available(Some(game), user_dir)
        .into_iter()
        .filter(is_modified_game_script)
        .collect()
}

/// The scripts of a new game of `game`: the game's own scripts as shipped, each replaced by
/// the user's copy only when `chosen` holds it (picked as modified rules), then the other
/// chosen scripts, in order.
pub fn new_game_scripts(
    game: &str,
    chosen: &[ScriptSource],
    user_dir: Option<&Path>,
) -> Vec<ScriptSource> {
    let copies = modified_game_scripts(game, user_dir);
    let id = |a: &Available| a.info.as_ref().map(|i| i.id.clone()).ok();
    let mut scripts: Vec<ScriptSource> = available(Some(game), None)
        .into_iter()
        .filter(|a| a.info.as_ref().is_ok_and(|i| i.part_of_game))
        .map(|shipped| {
            copies
                .iter()
                .find(|c| id(c) == id(&shipped) && chosen.contains(&c.source))
                .map_or(shipped.source, |c| c.source.clone())
        })
        .collect();
    scripts.extend(
        chosen
            .iter()
            .filter(|c| !copies.iter().any(|m| m.source == **c))
            .cloned(),
    );
    scripts
}

/// The house rules a player may choose for `game`: every available script but the game's
/// own ones, whose user copies are offered as modified rules.
pub fn house_rules(game: Option<&str>, user_dir: Option<&Path>) -> Vec<Available> {
    available(game, user_dir)
        .into_iter()
        .filter(|a| !a.info.as_ref().is_ok_and(|i| i.part_of_game) || is_modified_game_script(a))
        .collect()
}

/// Finds a script by id (built-in or user script for `game`) or by file path.
pub fn resolve(
    wanted: &str,
    game: &str,
    user_dir: Option<&Path>,
) -> Result<ScriptSource, VariantError> {
    let path = Path::new(wanted);
    if wanted.ends_with(".lua") && path.exists() {
        return read(path);
    }
    let all = house_rules(Some(game), user_dir);
    if let Some(found) = all
        .iter()
        .find(|a| a.info.as_ref().is_ok_and(|i| i.id == wanted))
    {
        return Ok(found.source.clone());
    }
    let ids: Vec<String> = all
        .iter()
        .filter_map(|a| a.info.as_ref().ok().map(|i| i.id.clone()))
        .collect();
    Err(VariantError::NotFound {
        wanted: wanted.to_string(),
        game: game.to_string(),
        hint: if ids.is_empty() {
            "it has no house rules; give the path of a .lua file".into()
        } else {
            format!(
                "its house rules are {} (or give a .lua file)",
                ids.join(", ")
            )
        },
    })
}
