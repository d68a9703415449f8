//! Why the catalog could not give, install or remove a game: one typed error a front end can
//! tell apart ("not installed" from "does not compile") and put in the player's language.

use std::path::PathBuf;

use veillee_sdk::Text;

use crate::engine::PluginError;

/// What the catalog could not do.
#[derive(Debug, thiserror::Error)]
pub enum CatalogError {
    /// No game of that id is listed.
    #[error("no game `{id}` is installed; the games are: {}{}", .known.join(", "), if *.left_out { "; some plugins could not be loaded, `veillee plugins` says why" } else { "" })]
    NotInstalled {
        /// The id asked for.
        id: String,
        /// The ids there are.
        known: Vec<String>,
        /// Whether some plugins were left out at start (a game the user expects may be one).
        left_out: bool,
    },
    /// Nothing to uninstall under that id.
    #[error("no game `{0}` is installed")]
    NothingToRemove(String),
    /// A built-in game cannot be removed.
    #[error("`{0}` is a built-in game and cannot be uninstalled")]
    BuiltinStays(String),
    /// The game's plugin did not compile or start when it was first asked for; this is
    /// what was said then (every later ask gets the same answer).
    #[error("{0}")]
    Unavailable(String),
    /// A built-in game's plugin failed to load.
    #[error("built-in game {name} could not be loaded")]
    BuiltinUnloadable {
        /// The game.
        name: String,
        /// Why.
        #[source]
        source: PluginError,
    },
    /// A built-in game's plugin is not the game its native build lists.
    #[error("built-in game {0}: its plugin's manifest is not its native build's; rebuild Veillée")]
    BuiltinMismatch(String),
    /// A plugin failed (to load, validate or start).
    #[error(transparent)]
    Plugin(#[from] PluginError),
    /// A plugin file failed its self-check game.
    #[error("{} failed its self-check game and was not installed", .file.display())]
    SelfCheckAtInstall {
        /// The file.
        file: PathBuf,
        /// What the conformance kit found.
        #[source]
        failures: SelfCheckFailed,
    },
    /// An installed file failed its self-check game when first compiled.
    #[error("{} failed its self-check game and is left out; install a working version", .file.display())]
    SelfCheckInstalled {
        /// The file.
        file: PathBuf,
        /// What the conformance kit found.
        #[source]
        failures: SelfCheckFailed,
    },
    /// A file to install takes a built-in game's id.
    #[error("cannot install {}: `{id}` is the id of a built-in game", .file.display())]
    BuiltinIdAtInstall {
        /// The file.
        file: PathBuf,
        /// Its game id.
        id: String,
    },
    /// An installed file takes a built-in game's id: it is left out.
    #[error("{} is ignored: its game id `{id}` is a built-in game's", .file.display())]
    BuiltinIdInstalled {
        /// The file.
        file: PathBuf,
        /// Its game id.
        id: String,
    },
    /// The file to install could not be read (missing, not a regular file, too large).
    #[error("cannot install this plugin")]
    Unreadable(#[source] veillee_files::FileError),
    /// The data directory refused a write.
    #[error("cannot {doing} {}", .path.display())]
    Disk {
        /// What was being done ("write", "remove"…).
        doing: &'static str,
        /// Where.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
}

/// The conformance kit's findings in the self-check game, each problem once.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct SelfCheckFailed(pub String);

impl CatalogError {
    /// What to tell the player, in both languages: the whole chain of causes, the first link
    /// translated where the catalog wrote it.
    pub fn text(&self) -> Text {
        let fr = match self {
            CatalogError::NotInstalled { id, known, .. } => Some(format!(
                "aucun jeu « {id} » n'est installé ; les jeux sont : {}",
                known.join(", ")
            )),
            CatalogError::NothingToRemove(id) => Some(format!("aucun jeu « {id} » n'est installé")),
            CatalogError::BuiltinStays(id) => Some(format!(
                "« {id} » est un jeu fourni avec Veillée : il ne se désinstalle pas"
            )),
            CatalogError::BuiltinIdAtInstall { file, id } => Some(format!(
                "impossible d'installer {} : « {id} » est l'identifiant d'un jeu fourni avec Veillée",
                file.display()
            )),
            CatalogError::SelfCheckAtInstall { file, .. } => Some(format!(
                "{} a échoué à sa partie d'essai et n'a pas été installé",
                file.display()
            )),
            CatalogError::Unreadable(_) => Some("impossible d'installer ce module".to_string()),
            _ => None,
        };
        match fr {
            Some(fr) => Text::new(self.followed_by_causes(fr), self.whole()),
            None => Text::same(self.whole()),
        }
    }

    /// The error and its causes in one line, in English, as the catalog keeps and reports
    /// it (what anyhow's `{:#}` prints).
    pub(crate) fn whole(&self) -> String {
        self.followed_by_causes(self.to_string())
    }

    /// `first`, then each cause below this error.
    fn followed_by_causes(&self, first: String) -> String {
        let mut said = first;
        let mut next = std::error::Error::source(self);
        while let Some(cause) = next {
            said.push_str(": ");
            said.push_str(&cause.to_string());
            next = cause.source();
        }
        said
    }
}
