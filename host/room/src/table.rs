//! What one seat's phone is sent: built for that seat only, from the engine's view for that
//! seat, that seat's legal moves and the log lines that seat may read.
//!
//! This is the room's one filter: nothing here ever asks the engine for another seat's view
//! or moves, so a phone can only receive what its seat may see (the game's `view(seat)` is
//! the authority, as on the host's screen).

use serde::Serialize;
use veillee_runtime::engine::{EngineError, GameEngine};
use veillee_runtime::session::repeats_label;
use veillee_sdk::{Action, Event, Handle, Private, Scene, Seat, Status, Target, Text};

/// How many log lines a phone is sent (the latest).
pub const LOG_LINES: usize = 80;

/// One line of the table's log, with what each seat reads of it.
#[derive(Clone, Debug)]
pub struct LogLine {
    /// Who did it (empty for the table's own notes).
    pub who: String,
    /// The seat whose move it is (or whose move caused it), if any.
    pub actor: Option<Seat>,
    /// What the table reads.
    pub text: Text,
    /// What the seats concerned read instead (ABI 1.4: a secret move, a card drawn, the
    /// answer to a house rule's question).
    pub private: Option<Private>,
}

impl LogLine {
    /// A line everyone reads alike (the table's own notes).
    pub fn public(who: impl Into<String>, text: Text) -> LogLine {
        LogLine {
            who: who.into(),
            actor: None,
            text,
            private: None,
        }
    }

    /// What `viewer` reads of it (`None`: the big screen, which everyone sees).
    pub fn text_for(&self, viewer: Option<Seat>) -> &Text {
        match &self.private {
            Some(p) if p.is_for(self.actor, viewer) => &p.text,
            _ => &self.text,
        }
    }
}

/// The log lines of one move of `seat`: who did what, then what it caused. Each keeps its
/// private text for the seats it names, so that every seat reads the move in its own words
/// (the answer to a `ctx.choose` reads "answers: the question" for everyone but the seat
/// asked, which reads what it chose).
pub fn move_lines(who: &str, seat: Seat, action: &Action, events: &[Event]) -> Vec<LogLine> {
    let mut lines = Vec::with_capacity(events.len() + 1);
    lines.push(LogLine {
        who: who.to_string(),
        actor: Some(seat),
        text: action.label.clone(),
        private: action.private.clone(),
    });
    // An event that only repeats the move's label is left out (as in the window).
    lines.extend(
        events
            .iter()
            .filter(|e| !repeats_label(&e.text, &action.label))
            .map(|e| LogLine {
                who: String::new(),
                actor: Some(seat),
                text: e.text.clone(),
                private: e.private.clone(),
            }),
    );
    lines
}

/// The table's log as the phones read it, move by move, so that an undo takes a move's
/// lines back with it.
#[derive(Clone, Debug, Default)]
pub struct TableLog {
    lines: Vec<LogLine>,
    /// Where each move's lines start in `lines`: (moves played before it, index).
    starts: Vec<(u32, usize)>,
}

impl TableLog {
    /// Every line, oldest first.
    pub fn lines(&self) -> &[LogLine] {
        &self.lines
    }

    /// Notes move number `index` (0 for the first) of `seat`; returns its lines.
    pub fn note(
        &mut self,
        index: u32,
        who: &str,
        seat: Seat,
        action: &Action,
        events: &[Event],
    ) -> &[LogLine] {
        let at = self.lines.len();
        self.starts.push((index, at));
        self.lines.extend(move_lines(who, seat, action, events));
        &self.lines[at..]
    }

    /// Moves were taken back at the big screen, down to `moves` played: their lines leave
    /// the log, which says so.
    pub fn taken_back(&mut self, moves: u32, count: u32) {
        if let Some(&(_, at)) = self.starts.iter().find(|(index, _)| *index >= moves) {
            self.lines.truncate(at);
        }
        self.starts.retain(|(index, _)| *index < moves);
        self.lines.push(LogLine::public(
            "",
            Text::new(
                format!("Coup(s) annulé(s) sur le grand écran : {count}"),
                format!("Move(s) taken back on the big screen: {count}"),
            ),
        ));
    }

    /// Moves taken back were played again at the big screen: their events, as the table
    /// reads them.
    pub fn played_again(&mut self, events: &[Event]) {
        self.lines.push(LogLine::public(
            "",
            Text::new(
                "Coup(s) rejoué(s) sur le grand écran",
                "Move(s) played again on the big screen",
            ),
        ));
        self.lines
            .extend(events.iter().map(|e| LogLine::public("", e.text.clone())));
    }
}

/// A log line as a phone receives it: in its seat's words.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ShownLine {
    /// Who did it.
    pub who: String,
    /// What happened, as this seat reads it.
    pub text: Text,
}

/// A legal move as its seat's phone receives it: the label in that seat's words, and
/// nothing of the texts meant for other seats.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ShownAction {
    /// The action id, sent back to play it.
    pub id: String,
    /// The targets to tap, in order (empty: a button).
    pub path: Vec<Target>,
    /// What the seat reads of it (its private text when it has one: a question's option).
    pub label: Text,
}

impl ShownAction {
    fn of(action: &Action, seat: Seat) -> ShownAction {
        ShownAction {
            id: action.id.clone(),
            path: action.path.clone(),
            label: action.label_for(seat, Some(seat)).clone(),
        }
    }
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
    pub actions: Vec<ShownAction>,
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
        let listed = engine.legal_actions(game, seat)?;
        listed.iter().map(|a| ShownAction::of(a, seat)).collect()
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

/// The latest [`LOG_LINES`] lines, as `seat` reads them.
fn log_for(log: &[LogLine], seat: Seat) -> Vec<ShownLine> {
    let from = log.len().saturating_sub(LOG_LINES);
    log[from..]
        .iter()
        .map(|line| ShownLine {
            who: line.who.clone(),
            text: line.text_for(Some(seat)).clone(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(log: &[LogLine], seat: Seat) -> Vec<String> {
        log_for(log, seat).into_iter().map(|l| l.text.en).collect()
    }

    #[test]
    fn each_seat_reads_a_move_and_its_events_in_its_own_words() {
        // Seat 1 draws the Dragon: the table reads that a card was drawn.
        let draw = Action::button("draw", Text::same("draws a card"))
            .with_private(Text::same("draws the Dragon"));
        let events = [
            Event::new(Text::same("the pile shrinks")),
            Event::new(Text::same("Bo looks at a card of Ana's"))
                .with_private(vec![0, 1], Text::same("Bo sees Ana's Queen")),
            // Repeats the label: left out.
            Event::new(Text::same("draws a card")),
        ];
        let log = move_lines("Bo", 1, &draw, &events);
        assert_eq!(
            texts(&log, 1),
            [
                "draws the Dragon",
                "the pile shrinks",
                "Bo sees Ana's Queen"
            ]
        );
        assert_eq!(
            texts(&log, 0),
            ["draws a card", "the pile shrinks", "Bo sees Ana's Queen"]
        );
        assert_eq!(
            texts(&log, 2),
            [
                "draws a card",
                "the pile shrinks",
                "Bo looks at a card of Ana's"
            ]
        );
        assert_eq!(log[0].text_for(None).en, "draws a card", "the big screen");
    }

    #[test]
    fn a_seat_reads_its_own_moves_labels_never_the_texts_meant_for_others() {
        let option = Action::button("choose:0", Text::same("answers: which card?"))
            .with_private(Text::same("the Dragon"));
        let mut told_to_seat_2 = Action::button("spy", Text::same("spies"));
        told_to_seat_2.private = Some(Private {
            seats: vec![2],
            text: Text::same("spies on seat 2's Queen"),
        });
        let shown = |a: &Action| serde_json::to_string(&ShownAction::of(a, 1)).unwrap();
        assert!(shown(&option).contains("the Dragon"));
        assert!(!shown(&option).contains("answers"));
        assert!(shown(&told_to_seat_2).contains("spies"));
        assert!(!shown(&told_to_seat_2).contains("Queen"));
    }

    #[test]
    fn an_undo_takes_the_moves_lines_back_and_says_so() {
        let mut log = TableLog::default();
        let play = |id: &str| Action::button(id, Text::same(id));
        log.note(0, "Ana", 0, &play("first"), &[]);
        log.note(
            1,
            "Bo",
            1,
            &play("second"),
            &[Event::new(Text::same("a card drawn"))],
        );
        log.note(2, "Ana", 0, &play("third"), &[]);
        log.taken_back(1, 2);
        assert_eq!(
            texts(log.lines(), 0),
            ["first", "Move(s) taken back on the big screen: 2"]
        );
        log.note(1, "Bo", 1, &play("other"), &[]);
        log.taken_back(1, 1);
        assert_eq!(
            texts(log.lines(), 0),
            [
                "first",
                "Move(s) taken back on the big screen: 2",
                "Move(s) taken back on the big screen: 1"
            ]
        );
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
