//! A table in play: one saved session, the engine running it, who holds each seat, whose
//! turn it is, the time every turn took, undo and the consent it needs.
//!
//! Every front end — the window, the terminal, and through them the phones' room — drives a
//! [`Table`] and only draws it: the rules of a game night live here once. A move is checked
//! by the engine, saved and flushed by [`Sessions`] before [`Table::play`] returns, with the
//! seat's turn time ([`TURN_TIME_KEY`]) measured by the table's own clock, so a house rule's
//! `on_turn_end` sees the same times whoever drew the board.
//!
//! **Invariant: a front end never applies a move to a session itself; it asks the table,
//! which records the turn's time the same way for every seat, human, phone or bot.**
//!
//! * Who holds each seat (`Holder`): a person at the screen, a phone, a bot's level — from the
//!   session's seats and phones.
//! * Whose turn it is (`Table::turn` → `Turn`): people at the screen first, then a bot, then
//!   the phones. When several seats may act at once, a person at the screen is picked among
//!   them (the window hands over between humans), then the bots answer for their own seats.
//! * `play` takes any seat's chosen move, saved with the seat's turn time; `play_bot` is the
//!   terminal's bot turn, here and now (the window's thinker thinks on its thread and calls
//!   `play`).
//! * `undo` and its consent rule: `Undo::AskOwner` when the move is not the asker's (at the big
//!   screen, when it was a phone's) and `Undo::AskTable` for a reveal, answered by calling
//!   again with `Consent`; then `redo`.
//! * `answer` is a phone's move: when seats at this computer were asked at the same time, it
//!   is held and `play_held` plays it after them, so simultaneous answers are saved in one
//!   order whatever front end drives the table.
//! * `TableError`, whose `text()` the front ends show in either language.
//! * `clock`: a seat's turn starts when it becomes one of the seats to act and lasts while it
//!   stays one; an undo or a redo starts every turn again.

mod clock;

use veillee_sdk::{Action, Event, Outcome, Seat, Setup, Status, Text};

use crate::bot::{self, BotTurn};
use crate::engine::{EngineError, GameEngine};
use crate::session::{LiveSession, SessionError, Sessions, TURN_TIME_KEY};
use crate::store::model::{BotLevel, PlayerKind, SeatPlayer, SessionMeta, VariantScript};
use veillee_sdk::GameError;

use clock::{millis, TurnClock};

/// Who holds a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Holder {
    /// A person at this computer (hot-seat: the screen is handed over between them).
    Screen,
    /// A person on their phone, through the room.
    Phone,
    /// A bot of this level, played on this computer.
    Bot(BotLevel),
}

/// Whose turn it is, as a front end acts on it.
#[derive(Clone, Debug, PartialEq)]
pub enum Turn {
    /// The game is over.
    Over(Outcome),
    /// A person at this computer is to act (the first of them, when several seats are).
    Screen(Seat),
    /// A bot is to act, and no person at this computer is.
    Bot(Seat, BotLevel),
    /// Only seats held by phones are to act: the screen waits for them.
    Phones(Vec<Seat>),
}

/// A move the table played and saved.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    /// Its number in the session's log, from 0.
    pub index: u32,
    /// Who played it.
    pub seat: Seat,
    /// The action as the seat was offered it (its public and private labels).
    pub action: Action,
    /// What it caused.
    pub events: Vec<Event>,
}

/// How far the people at the table have agreed to an undo.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Consent {
    /// Nobody was asked yet.
    NotAsked,
    /// The player whose move it takes back agreed.
    OwnerAgreed,
    /// Everyone agreed, to taking back what was revealed too.
    Given,
}

/// What an undo came to.
#[derive(Clone, Debug, PartialEq)]
pub enum Undo {
    /// Done: this many moves were taken back.
    Done {
        /// Moves removed from the log (the last human move and the bots' after it).
        moves: u32,
    },
    /// It would take back this seat's move, and that player is not the one asking: ask
    /// them, then undo again with [`Consent::OwnerAgreed`].
    AskOwner(Seat),
    /// It would take back what was revealed: ask the whole table, then undo again with
    /// [`Consent::Given`].
    AskTable(Vec<Text>),
}

/// What became of a phone's move ([`Table::answer`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Answered {
    /// Played and saved.
    Played(Box<Played>),
    /// Held: seats at this computer (people, bots) were asked at the same time and answer
    /// first; [`Table::play_held`] plays it once only phones are left to act.
    Held,
}

/// Why the table did not do what it was asked.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// The game or a house rule refused the move; the game is unchanged.
    #[error("{}", .0.en)]
    Refused(Text),
    /// The game says it goes on, but names no seat to act.
    #[error("the game says it goes on, but no seat is to act")]
    NoSeatToAct,
    /// The session (its database, its engine) failed.
    #[error(transparent)]
    Session(#[from] SessionError),
}

impl From<EngineError> for TableError {
    fn from(error: EngineError) -> TableError {
        refused_or(SessionError::Engine(error))
    }
}

impl TableError {
    /// What to tell the players, in both languages.
    pub fn text(&self) -> Text {
        match self {
            TableError::Refused(reason) => reason.clone(),
            TableError::Session(SessionError::NothingToUndo) => {
                Text::new("Il n'y a rien à annuler.", "There is nothing to undo.")
            }
            TableError::Session(SessionError::NothingToRedo) => {
                Text::new("Il n'y a rien à rétablir.", "There is nothing to redo.")
            }
            TableError::NoSeatToAct => Text::new(
                "La partie dit qu'elle continue, mais personne n'a à jouer.",
                "The game says it goes on, but no seat is to act.",
            ),
            other => Text::same(other.to_string()),
        }
    }
}

/// A refusal by the game becomes [`TableError::Refused`] (the game is unchanged); anything
/// else stays a failure.
fn refused_or(error: SessionError) -> TableError {
    match error {
        SessionError::Engine(EngineError::Game(refused)) => TableError::Refused(why(refused)),
        other => TableError::Session(other),
    }
}

/// What the players are told when the game refuses a move.
fn why(refused: GameError) -> Text {
    match refused {
        GameError::Refused { reason, .. } => reason,
        GameError::IllegalAction { action, .. } => Text::new(
            format!("« {action} » n'est pas un coup permis maintenant."),
            format!("`{action}` is not a legal move now."),
        ),
        GameError::NotYourTurn { .. } => {
            Text::new("Ce n'est pas à vous de jouer.", "It is not your turn.")
        }
        GameError::GameOver => Text::new("La partie est finie.", "The game is over."),
        other => Text::same(other.to_string()),
    }
}

/// One game in play at this computer.
pub struct Table {
    sessions: Sessions,
    engine: Box<dyn GameEngine>,
    live: LiveSession,
    clock: TurnClock,
    /// Phones' answers given while seats at this computer were asked at the same time, in
    /// the order they came (one per seat: a later answer replaces an earlier one).
    held: Vec<(Seat, String)>,
}

impl Table {
    /// A new session of the engine's game: `players` in seat order, the house rules
    /// `scripts` recorded with it, `phones` the seats people will hold on their phones.
    pub fn start(
        sessions: Sessions,
        mut engine: Box<dyn GameEngine>,
        players: Vec<SeatPlayer>,
        setup: Setup,
        scripts: Vec<VariantScript>,
        phones: Vec<Seat>,
    ) -> Result<Table, TableError> {
        let mut live = sessions.start_with_variants(&mut *engine, players, setup, scripts)?;
        if !phones.is_empty() {
            // Remembered, so that resuming opens the room for them again.
            sessions.set_phones(&mut live, phones)?;
        }
        Table::over(sessions, engine, live)
    }

    /// Saved session `id`, played on from where it stopped.
    pub fn resume(
        sessions: Sessions,
        mut engine: Box<dyn GameEngine>,
        id: u64,
    ) -> Result<Table, TableError> {
        let live = sessions.resume(&mut *engine, id)?;
        Table::over(sessions, engine, live)
    }

    /// The table over a session already live in `engine`.
    fn over(
        sessions: Sessions,
        engine: Box<dyn GameEngine>,
        live: LiveSession,
    ) -> Result<Table, TableError> {
        let mut table = Table {
            sessions,
            engine,
            live,
            clock: TurnClock::default(),
            held: Vec::new(),
        };
        let status = table.status()?;
        table.clock.restart(status.seats());
        Ok(table)
    }

    /// The session's metadata as saved after the last change.
    pub fn meta(&self) -> &SessionMeta {
        &self.live.meta
    }

    /// The session and its live game.
    pub fn live(&self) -> &LiveSession {
        &self.live
    }

    /// The engine, for what a front end draws (views, listings).
    pub fn engine_mut(&mut self) -> &mut dyn GameEngine {
        &mut *self.engine
    }

    /// The engine and the session at once (to read a seat's view while naming the game).
    pub fn parts_mut(&mut self) -> (&mut dyn GameEngine, &LiveSession) {
        (&mut *self.engine, &self.live)
    }

    /// The game's manifest.
    pub fn manifest(&self) -> &veillee_sdk::Manifest {
        self.engine.manifest()
    }

    /// The scripts switched off in this game after an error (the game goes on without them).
    pub fn failed_scripts(&self) -> Vec<String> {
        self.engine.failed_scripts(self.live.game)
    }

    /// Who holds `seat`.
    pub fn holder(&self, seat: Seat) -> Holder {
        holder_of(&self.live.meta, seat)
    }

    /// The name of the player at `seat`.
    pub fn seat_name(&self, seat: Seat) -> String {
        seat_name(&self.live.meta, seat)
    }

    /// The game's status.
    pub fn status(&mut self) -> Result<Status, TableError> {
        Ok(self.engine.status(self.live.game)?)
    }

    /// Whose turn it is: a person at this computer first, then a bot, then the phones.
    pub fn turn(&mut self) -> Result<Turn, TableError> {
        let status = self.status()?;
        self.turn_in(status)
    }

    /// Whose turn it is in `status`.
    fn turn_in(&self, status: Status) -> Result<Turn, TableError> {
        match status {
            Status::Finished { outcome } => Ok(Turn::Over(outcome)),
            Status::ToAct { seats } => next_turn(&seats, |s| self.holder(s)),
        }
    }

    /// What `seat` may do now.
    pub fn legal_actions(&mut self, seat: Seat) -> Result<Vec<Action>, TableError> {
        Ok(self.engine.legal_actions(self.live.game, seat)?)
    }

    /// Plays `seat`'s action `id` — chosen at the screen, on a phone or by a bot's thinker —
    /// and saves it with the time the seat's turn took.
    pub fn play(&mut self, seat: Seat, id: &str) -> Result<Played, TableError> {
        let action = self.offered(seat, id)?;
        let extra = turn_time(self.clock.elapsed_ms(seat));
        let events = self
            .sessions
            .apply(&mut *self.engine, &mut self.live, seat, id, extra)
            .map_err(refused_or)?;
        self.follow_turns();
        Ok(self.played(seat, action, events))
    }

    /// A phone's move. Seats asked at once (a house rule asking everyone) answer in the
    /// table's order — people at this computer, then bots, then phones — whatever order the
    /// answers arrive in, so that a game plays the same from every front end: a phone that
    /// answers while a seat at this computer still has to is held ([`Answered::Held`]),
    /// then played by [`Table::play_held`].
    pub fn answer(&mut self, seat: Seat, id: &str) -> Result<Answered, TableError> {
        let status = self.status()?;
        let asked = status.seats().contains(&seat);
        match self.turn_in(status)? {
            Turn::Phones(seats) if seats.contains(&seat) => {
                Ok(Answered::Played(Box::new(self.play(seat, id)?)))
            }
            Turn::Screen(_) | Turn::Bot(..) if asked => {
                // Refused now, as it would be when played, if it is no move of the seat's.
                self.offered_legal(seat, id)?;
                self.held.retain(|(s, _)| *s != seat);
                self.held.push((seat, id.to_string()));
                Ok(Answered::Held)
            }
            _ => Err(TableError::Refused(why(GameError::NotYourTurn { seat }))),
        }
    }

    /// Plays the first held answer, once only phones are left to act (`None`: there is none
    /// to play now). An answer no longer legal is dropped and the next one tried.
    pub fn play_held(&mut self) -> Result<Option<Played>, TableError> {
        while let Turn::Phones(seats) = self.turn()? {
            let Some(at) = self.held.iter().position(|(s, _)| seats.contains(s)) else {
                return Ok(None);
            };
            let (seat, id) = self.held.remove(at);
            match self.play(seat, &id) {
                Ok(played) => return Ok(Some(played)),
                Err(TableError::Refused(_)) => continue,
                Err(failure) => return Err(failure),
            }
        }
        Ok(None)
    }

    /// `seat`'s bot turn played here and now at `level` (the terminal's way; the window
    /// thinks on another thread and then calls [`Table::play`]). Its turn time includes the
    /// bot's thinking, as it does in the window.
    pub fn play_bot(&mut self, seat: Seat, level: BotLevel) -> Result<BotTurn<Played>, TableError> {
        let started = self.clock.started(seat);
        let extra = || turn_time(millis(started.elapsed()));
        let turn = bot::play_turn(
            &self.sessions,
            &mut *self.engine,
            &mut self.live,
            seat,
            level,
            &extra,
        )?;
        self.follow_turns();
        Ok(match turn {
            BotTurn::Played {
                played,
                thought,
                refused,
            } => BotTurn::Played {
                played: self.played(seat, thought.action.clone(), played),
                thought,
                refused,
            },
            BotTurn::Stuck { refused } => BotTurn::Stuck { refused },
        })
    }

    /// What a `normal` bot would play for `seat` here: a hint for the person at that seat,
    /// never saved as a move. The search sees only what `seat` may see (it starts from a
    /// copy re-drawn for that seat, as every bot does), so a hint tells nothing of the
    /// others' secrets; its seed differs from the bots' own decisions at this move.
    /// `Ok(None)`: the seat has no legal move.
    pub fn hint(&mut self, seat: Seat) -> Result<Option<bot::BotMove>, TableError> {
        let meta = &self.live.meta;
        let seed = bot::decision_seed(meta.setup.seed, meta.moves, seat) ^ HINT_SALT;
        let players = meta.setup.players;
        let game = self.live.game;
        Ok(bot::choose(
            &mut *self.engine,
            game,
            seat,
            players,
            BotLevel::Normal,
            seed,
            &[],
        )?)
    }

    /// Takes back the last decision of a person (and the bots' moves after it), asked by
    /// the person at `asking` — `None`: the big screen, for nobody in particular. The
    /// owner of the move must agree when it is not the one asking (at the big screen: when
    /// the move was a phone's), and the whole table when it takes back a reveal.
    pub fn undo(&mut self, asking: Option<Seat>, consent: Consent) -> Result<Undo, TableError> {
        if consent < Consent::OwnerAgreed {
            if let Some(owner) = self.undo_would_take()? {
                let theirs = match asking {
                    Some(seat) => seat != owner,
                    None => self.holder(owner) == Holder::Phone,
                };
                if theirs {
                    return Ok(Undo::AskOwner(owner));
                }
            }
        }
        let agreed = consent == Consent::Given;
        match self
            .sessions
            .undo(&mut *self.engine, &mut self.live, 1, agreed)
        {
            Ok(undone) => {
                // What the phones answered ahead was for the game as it stood.
                self.held.clear();
                self.restart_turns();
                Ok(Undo::Done {
                    moves: undone.moves,
                })
            }
            Err(SessionError::RevealInTheWay(reveals)) => Ok(Undo::AskTable(reveals)),
            Err(other) => Err(other.into()),
        }
    }

    /// Plays again what the last undo took back; returns what those moves caused.
    pub fn redo(&mut self) -> Result<Vec<Event>, TableError> {
        let events = self.sessions.redo(&mut *self.engine, &mut self.live)?;
        self.held.clear();
        self.restart_turns();
        Ok(events)
    }

    /// Whose move an undo would take back now (the last person's move), if any.
    pub fn undo_would_take(&self) -> Result<Option<Seat>, TableError> {
        let meta = &self.live.meta;
        let has_human = meta.seats.iter().any(|p| p.kind == PlayerKind::Human);
        if meta.moves == 0 || !has_human {
            return Ok(None);
        }
        Ok(self.sessions.undo_would_take(meta)?)
    }

    /// Whether a redo would play something again.
    pub fn can_redo(&self) -> bool {
        self.sessions
            .store()
            .redo_stack(self.live.meta.id)
            .is_ok_and(|r| !r.is_empty())
    }

    /// The action `id` as `seat` is offered it, with its labels; an id the listing does not
    /// show (a move only a house rule knows) is named by its id.
    fn offered(&mut self, seat: Seat, id: &str) -> Result<Action, TableError> {
        let actions = self.legal_actions(seat)?;
        Ok(actions
            .into_iter()
            .find(|a| a.id == id)
            .unwrap_or_else(|| Action::button(id, Text::same(id))))
    }

    /// Refuses `id` unless it is one of `seat`'s legal actions now.
    fn offered_legal(&mut self, seat: Seat, id: &str) -> Result<(), TableError> {
        let legal = self.legal_actions(seat)?;
        if legal.iter().any(|a| a.id == id) {
            return Ok(());
        }
        let illegal = GameError::IllegalAction {
            seat,
            action: id.to_string(),
        };
        Err(TableError::Refused(why(illegal)))
    }

    fn played(&self, seat: Seat, action: Action, events: Vec<Event>) -> Played {
        Played {
            index: self.live.meta.moves.saturating_sub(1),
            seat,
            action,
            events,
        }
    }

    /// After a move: the clock follows the seats to act, as the session just saved them
    /// (no second call to the game).
    fn follow_turns(&mut self) {
        self.clock.follow(self.live.meta.status.seats());
    }

    /// After an undo or a redo: every turn starts again.
    fn restart_turns(&mut self) {
        self.clock.restart(self.live.meta.status.seats());
    }
}

impl Drop for Table {
    fn drop(&mut self) {
        self.engine.drop_game(self.live.game);
    }
}

/// What a move's log entry carries besides the move: the time its seat's turn took.
fn turn_time(ms: u64) -> serde_json::Value {
    serde_json::json!({ TURN_TIME_KEY: ms })
}

/// Keeps a hint's search apart from a bot's decision at the same move.
const HINT_SALT: u64 = 0x004e_170f_a1d5;

/// Whose turn it is among `seats` to act: a person at this computer first (the screen is
/// handed over between them), else a bot, else the phones.
pub fn next_turn(seats: &[Seat], holder: impl Fn(Seat) -> Holder) -> Result<Turn, TableError> {
    if seats.is_empty() {
        return Err(TableError::NoSeatToAct);
    }
    if let Some(&seat) = seats.iter().find(|&&s| holder(s) == Holder::Screen) {
        return Ok(Turn::Screen(seat));
    }
    for &seat in seats {
        if let Holder::Bot(level) = holder(seat) {
            return Ok(Turn::Bot(seat, level));
        }
    }
    Ok(Turn::Phones(seats.to_vec()))
}

/// Who holds `seat` in a session (a seat the session does not know counts as a person at
/// the screen).
fn holder_of(meta: &SessionMeta, seat: Seat) -> Holder {
    match meta.seats.get(usize::from(seat)) {
        Some(player) if player.kind == PlayerKind::Bot => {
            Holder::Bot(player.bot_level().unwrap_or_default())
        }
        _ if meta.phones.contains(&seat) => Holder::Phone,
        _ => Holder::Screen,
    }
}

/// The name of the player at `seat`.
pub fn seat_name(meta: &SessionMeta, seat: Seat) -> String {
    meta.seats
        .get(usize::from(seat))
        .map(|p| p.name.clone())
        .unwrap_or_else(|| format!("{}", u16::from(seat) + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn holders(list: &'static [Holder]) -> impl Fn(Seat) -> Holder {
        move |s| list[s as usize]
    }

    #[test]
    fn a_person_at_the_screen_goes_first_then_a_bot_then_the_phones() {
        use Holder::*;
        let all = holders(&[Phone, Bot(BotLevel::Easy), Screen]);
        assert_eq!(next_turn(&[0, 1, 2], &all).unwrap(), Turn::Screen(2));
        assert_eq!(
            next_turn(&[0, 1], &all).unwrap(),
            Turn::Bot(1, BotLevel::Easy)
        );
        assert_eq!(next_turn(&[0], &all).unwrap(), Turn::Phones(vec![0]));
        assert!(matches!(next_turn(&[], &all), Err(TableError::NoSeatToAct)));
    }

    #[test]
    fn several_seats_at_once_ask_the_people_first_then_each_bot_for_its_seat() {
        use Holder::*;
        let table = holders(&[Bot(BotLevel::Normal), Screen, Screen, Bot(BotLevel::Strong)]);
        // Everyone chooses at once: the first person among them.
        assert_eq!(next_turn(&[0, 1, 2], &table).unwrap(), Turn::Screen(1));
        // Once the people have answered, the remaining bots play, one after the other.
        assert_eq!(
            next_turn(&[0, 3], &table).unwrap(),
            Turn::Bot(0, BotLevel::Normal)
        );
        assert_eq!(
            next_turn(&[3], &table).unwrap(),
            Turn::Bot(3, BotLevel::Strong)
        );
        // Only the other person is left: the screen hands over to them.
        assert_eq!(next_turn(&[2], &table).unwrap(), Turn::Screen(2));
    }

    #[test]
    fn nothing_to_undo_is_said_in_french_too() {
        let text = TableError::Session(SessionError::NothingToUndo).text();
        assert_eq!(text.fr, "Il n'y a rien à annuler.");
        assert_eq!(text.en, "There is nothing to undo.");
    }
}
