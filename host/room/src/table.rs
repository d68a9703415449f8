//! What one seat's phone is sent: built for that seat only, from the engine's view for that
//! seat, that seat's legal moves and the log lines that seat may read.
//!
//! This is the room's one filter: nothing here ever asks the engine for another seat's view
//! or moves, so a phone can only receive what its seat may see (the game's `view(seat)` is
//! the authority, as on the host's screen).

use serde::Serialize;
use veillee_runtime::engine::{EngineError, GameEngine};
use veillee_sdk::{Action, Handle, Scene, Seat, Status, Text};

/// How many log lines a phone is sent (the latest).
pub const LOG_LINES: usize = 80;

/// Who may read a log line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    /// Everyone at the table.
    Everyone,
    /// Only this seat (what it drew, what it chose in private).
    Only(Seat),
}

/// One line of the table's log.
#[derive(Clone, Debug)]
pub struct LogLine {
    /// Who did it (empty for the table's own notes).
    pub who: String,
    /// What happened.
    pub text: Text,
    /// Who may read it.
    pub audience: Audience,
}

impl LogLine {
    /// A line everyone may read.
    pub fn public(who: impl Into<String>, text: Text) -> LogLine {
        LogLine {
            who: who.into(),
            text,
            audience: Audience::Everyone,
        }
    }

    /// Whether `seat` may read it.
    pub fn readable_by(&self, seat: Seat) -> bool {
        match self.audience {
            Audience::Everyone => true,
            Audience::Only(only) => only == seat,
        }
    }
}

/// The log lines of one move: who did what, then what it caused. In a game with hidden
/// information, the answer to a house rule's question (`choose:N`) may be about a hand: the
/// table reads "made a choice" and only the seat that chose reads what it was.
pub fn move_lines(
    who: &str,
    seat: Seat,
    action: &str,
    label: &Text,
    events: &[veillee_sdk::Event],
    hidden_information: bool,
) -> Vec<LogLine> {
    let private_choice =
        hidden_information && action.starts_with(veillee_runtime::variants::CHOOSE_PREFIX);
    let mut lines = Vec::with_capacity(events.len() + 2);
    if private_choice {
        lines.push(LogLine::public(
            who,
            Text::new("a fait son choix", "made a choice"),
        ));
        lines.push(LogLine {
            who: who.to_string(),
            text: label.clone(),
            audience: Audience::Only(seat),
        });
    } else {
        lines.push(LogLine::public(who, label.clone()));
    }
    lines.extend(
        events
            .iter()
            .filter(|e| e.text != *label)
            .map(|e| LogLine::public("", e.text.clone())),
    );
    lines
}

/// A log line as a phone receives it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ShownLine {
    /// Who did it.
    pub who: String,
    /// What happened.
    pub text: Text,
}

/// What the table is, for every seat alike: the game's name and the players.
#[derive(Clone, Debug, Default)]
pub struct TableInfo {
    /// The game's name.
    pub game: Text,
    /// The players' names, by seat.
    pub players: Vec<String>,
    /// Moves played so far.
    pub moves: u32,
}

/// Everything one seat's phone is sent about the game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeatState {
    /// The seat.
    pub seat: Seat,
    /// The game's name.
    pub game: Text,
    /// The players' names, by seat.
    pub players: Vec<String>,
    /// Moves played so far.
    pub moves: u32,
    /// Where the game stands.
    pub status: Status,
    /// What this seat sees.
    pub scene: Scene,
    /// This seat's legal moves (empty when it is not to act).
    pub actions: Vec<Action>,
    /// The latest log lines this seat may read.
    pub log: Vec<ShownLine>,
}

/// The state of `seat`, asking the engine for that seat's view and moves only.
pub fn seat_state(
    engine: &mut dyn GameEngine,
    game: Handle,
    seat: Seat,
    info: &TableInfo,
    log: &[LogLine],
) -> Result<SeatState, EngineError> {
    let status = engine.status(game)?;
    let scene = engine.view(game, Some(seat))?;
    let actions = if status.seats().contains(&seat) {
        engine.legal_actions(game, seat)?
    } else {
        Vec::new()
    };
    Ok(SeatState {
        seat,
        game: info.game.clone(),
        players: info.players.clone(),
        moves: info.moves,
        status,
        scene,
        actions,
        log: log_for(log, seat),
    })
}

/// The states of several seats (the phones of a room).
pub fn seat_states(
    engine: &mut dyn GameEngine,
    game: Handle,
    seats: &[Seat],
    info: &TableInfo,
    log: &[LogLine],
) -> Result<Vec<SeatState>, EngineError> {
    seats
        .iter()
        .map(|&seat| seat_state(engine, game, seat, info, log))
        .collect()
}

/// The latest [`LOG_LINES`] lines `seat` may read.
fn log_for(log: &[LogLine], seat: Seat) -> Vec<ShownLine> {
    let mut readable: Vec<ShownLine> = log
        .iter()
        .rev()
        .filter(|line| line.readable_by(seat))
        .take(LOG_LINES)
        .map(|line| ShownLine {
            who: line.who.clone(),
            text: line.text.clone(),
        })
        .collect();
    readable.reverse();
    readable
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_reads_public_lines_and_its_own_private_ones_only() {
        let log = vec![
            LogLine::public("Ana", Text::same("plays")),
            LogLine {
                who: String::new(),
                text: Text::same("you drew the Dragon"),
                audience: Audience::Only(1),
            },
            LogLine::public("Bo", Text::same("passes")),
        ];
        let seat0: Vec<String> = log_for(&log, 0).into_iter().map(|l| l.text.en).collect();
        let seat1: Vec<String> = log_for(&log, 1).into_iter().map(|l| l.text.en).collect();
        assert_eq!(seat0, ["plays", "passes"]);
        assert_eq!(seat1, ["plays", "you drew the Dragon", "passes"]);
    }

    #[test]
    fn a_phone_gets_the_latest_lines_only() {
        let log: Vec<LogLine> = (0..LOG_LINES + 5)
            .map(|i| LogLine::public("", Text::same(i.to_string())))
            .collect();
        let shown = log_for(&log, 0);
        assert_eq!(shown.len(), LOG_LINES);
        assert_eq!(shown[0].text.en, "5");
    }
}
