//! What a saved session is made of. These types are the database's values and the export
//! file's content: changing them means a new schema version (see `store::schema`).

use serde::{Deserialize, Serialize};
use veillee_sdk::{Seat, Setup, Status, Text};

/// Everything about a session but its log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SessionMeta {
    /// Unique id in this database.
    pub id: u64,
    /// The game's id.
    pub game: String,
    /// SHA-256 of the plugin the session was last played with.
    pub plugin_hash: String,
    /// That plugin's game version.
    pub plugin_version: String,
    /// The exact variant scripts in use (filled by the variants issue).
    #[serde(default)]
    pub variants: Vec<VariantScript>,
    /// Who sits where.
    pub seats: Vec<SeatPlayer>,
    /// Player count, options and seed.
    pub setup: Setup,
    /// When it was started (seconds since 1970).
    pub created: u64,
    /// When a move was last played or undone.
    pub last_played: u64,
    /// Moves in the log.
    pub moves: u32,
    /// Where the game stands (the outcome once finished).
    pub status: Status,
    /// The seats held by players' phones (human seats played from a phone's browser, see
    /// `veillee-room`): resuming opens the room for them again. Older Veillées ignore it and
    /// play those seats on the screen.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub phones: Vec<Seat>,
}

/// A variant script as it was when the session used it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VariantScript {
    /// The script's id.
    pub id: String,
    /// Its file name, for messages (`renforts.lua`).
    #[serde(default)]
    pub file: String,
    /// SHA-256 of its text.
    pub hash: String,
    /// Its full text, so that the session replays even if the file changes.
    pub text: String,
}

/// A player at a seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatPlayer {
    /// The name shown.
    pub name: String,
    /// Human or bot.
    pub kind: PlayerKind,
    /// A bot's level. `None` for a human, and for a bot saved before bots had levels (it
    /// plays [`BotLevel::Normal`]). Older Veillées ignore the field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<BotLevel>,
}

impl SeatPlayer {
    /// A person at the table.
    pub fn human(name: impl Into<String>) -> Self {
        SeatPlayer {
            name: name.into(),
            kind: PlayerKind::Human,
            level: None,
        }
    }

    /// A bot of `level`.
    pub fn bot(name: impl Into<String>, level: BotLevel) -> Self {
        SeatPlayer {
            name: name.into(),
            kind: PlayerKind::Bot,
            level: Some(level),
        }
    }

    /// The level this seat plays at when it is a bot (`None`: a human).
    pub fn bot_level(&self) -> Option<BotLevel> {
        match self.kind {
            PlayerKind::Human => None,
            PlayerKind::Bot => Some(self.level.unwrap_or_default()),
        }
    }
}

/// How well a bot plays: `random` picks any legal move; the others search (a number of
/// search iterations each, so that the same seed always gives the same move).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BotLevel {
    /// Any legal move, uniformly (for tests and simulations of the rules).
    Random,
    /// A short search.
    Easy,
    /// The default.
    #[default]
    Normal,
    /// A long search.
    Strong,
}

impl BotLevel {
    /// Every level, weakest first.
    pub const ALL: [BotLevel; 4] = [
        BotLevel::Random,
        BotLevel::Easy,
        BotLevel::Normal,
        BotLevel::Strong,
    ];

    /// Its name on the command line and in saved files (`normal`).
    pub fn as_str(self) -> &'static str {
        match self {
            BotLevel::Random => "random",
            BotLevel::Easy => "easy",
            BotLevel::Normal => "normal",
            BotLevel::Strong => "strong",
        }
    }

    /// The level of a name; `bot` is `normal`.
    pub fn parse(name: &str) -> Option<BotLevel> {
        match name {
            "bot" => Some(BotLevel::Normal),
            _ => BotLevel::ALL.into_iter().find(|l| l.as_str() == name),
        }
    }
}

/// Who decides for a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlayerKind {
    /// A person at the table.
    Human,
    /// A bot.
    Bot,
}

/// One applied action: the source of truth, replayed from the seed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LogEntry {
    /// Who acted.
    pub seat: Seat,
    /// The action's id.
    pub action: String,
    /// Anything else the replay needs (a turn timer's value, a script's choices).
    #[serde(default, skip_serializing_if = "serde_json::Value::is_null")]
    pub extra: serde_json::Value,
    /// What this action revealed (die rolls, tiles, cards), in words; empty when nothing.
    /// Undo does not cross such an action without everyone's agreement.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reveals: Vec<Text>,
}

/// The export file: one readable JSON document.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SessionFile {
    /// Always `"veillee-session"`.
    pub format: String,
    /// The file format's version.
    pub format_version: u32,
    /// The session.
    pub session: SessionMeta,
    /// Its whole log.
    pub log: Vec<LogEntry>,
}

/// The export file's format name.
pub const FILE_FORMAT: &str = "veillee-session";
/// The export file's format version.
pub const FILE_FORMAT_VERSION: u32 = 1;
