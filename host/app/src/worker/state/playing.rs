//! The game in play: a [`Table`] the worker starts or resumes, and the moves it plays from
//! the screen and from phones, undo and redo.

use veillee_sdk::{Seat, Setup, Text};

use veillee_room::PhoneMove;
use veillee_runtime::store::model::{SeatPlayer, VariantScript};
use veillee_runtime::table::{Answered, Consent, Played, Table, TableError, Undo};
use veillee_runtime::variants::library::ScriptSource;
use veillee_runtime::variants::{Script, VariantLimits};

use crate::room::PhoneSeats;
use crate::thinker::Thinker;
use crate::worker::log::{move_lines, LogLine};
use crate::worker::preferences::SEAT_NAMES;
use crate::worker::protocol::{GameView, Reply};

use super::bots::Thinking;
use super::{said, Res, State};

/// The game being played, inside the worker.
pub(super) struct Playing {
    pub(super) table: Table,
    pub(super) last_human: Option<Seat>,
    /// The names of the house rules in play (not the game's own scripts).
    pub(super) house_rules: Vec<Text>,
    /// The bots' search thread for this game, started by the first bot move.
    pub(super) thinker: Option<Thinker>,
    /// The decision being thought about, if any; a decision for another is stale.
    pub(super) thinking: Option<Thinking>,
    /// Decisions asked so far (their generations).
    pub(super) asked: u64,
    /// The seats held by phones, and their room.
    pub(super) phones: Option<PhoneSeats>,
}

impl Playing {
    /// A move the table played: noted in the phones' log, and the log lines it adds to the
    /// window's (each viewer reads its own version).
    pub(super) fn logged(&mut self, played: Played) -> Vec<LogLine> {
        let who = self.table.seat_name(played.seat);
        if let Some(phones) = &mut self.phones {
            let (seat, action) = (played.seat, &played.action);
            phones
                .log
                .note(played.index, &who, seat, action, &played.events);
        }
        let Played {
            seat,
            action,
            events,
            ..
        } = played;
        move_lines(who, seat, action.label, action.private, events)
    }
}

impl State {
    pub(super) fn start(
        &mut self,
        game: &str,
        seats: Vec<SeatPlayer>,
        setup: Setup,
        variants: &[ScriptSource],
        phones: Vec<Seat>,
    ) -> Res<GameView> {
        let scripts =
            veillee_runtime::launch::with_game_scripts(game, variants, &self.data.variants())
                .iter()
                .map(|s| s.load(VariantLimits::default()))
                .collect::<Result<Vec<_>, _>>()
                .map_err(said)?;
        let recorded: Vec<VariantScript> = scripts
            .iter()
            .map(veillee_runtime::launch::recorded)
            .collect();
        let names: Vec<String> = seats.iter().map(|s| s.name.clone()).collect();
        let mut engine = self.engine(game, scripts)?;
        let catalog = self.catalog()?;
        veillee_runtime::launch::vet(catalog, &mut *engine, &recorded, &setup, &mut |_| {})
            .map_err(|e| e.text())?;
        let sessions = self.sessions()?.clone();
        let _ = sessions.store().set_setting(SEAT_NAMES, &names);
        self.playing = None;
        let table =
            Table::start(sessions, engine, seats, setup, recorded, phones).map_err(|e| e.text())?;
        let seed = table.meta().setup.seed;
        self.replace_playing(table)?;
        let mut view = self.view(vec![LogLine::note(Text::new(
            format!("Nouvelle partie, graine {seed}"),
            format!("New game, seed {seed}"),
        ))])?;
        view.fresh = true;
        Ok(view)
    }

    /// The game to play from now on; a game with phone seats opens its room (the previous
    /// game's room closes).
    pub(super) fn replace_playing(&mut self, table: Table) -> Res<()> {
        self.playing = None;
        let house_rules = house_rule_names(&table.meta().variants);
        // A finished game only shows its result: no room (nor a network) is needed.
        let over = matches!(table.meta().status, veillee_sdk::Status::Finished { .. });
        let phones = match table.meta().phones.is_empty() || over {
            true => None,
            false => Some(
                PhoneSeats::open(
                    table.live(),
                    table.meta().phones.clone(),
                    self.to_self.clone(),
                )
                .map_err(Text::same)?,
            ),
        };
        self.playing = Some(Playing {
            table,
            last_human: None,
            house_rules,
            thinker: None,
            thinking: None,
            asked: 0,
            phones,
        });
        Ok(())
    }

    pub(super) fn resume(&mut self, id: u64) -> Res<GameView> {
        let sessions = self.sessions()?.clone();
        let meta = sessions.get(id).map_err(said)?;
        let engine = self.session_engine(&meta)?;
        self.playing = None;
        let mut table = Table::resume(sessions.clone(), engine, id).map_err(|e| e.text())?;
        let moves = table.meta().moves.to_string();
        // The log of the moves played before, as they were played (each viewer reads its own
        // version); a game that no longer replays move by move is resumed without it.
        let played = sessions.history(table.engine_mut(), id);
        let mut log: Vec<LogLine> = match played {
            Ok(played) => played
                .into_iter()
                .flat_map(|p| {
                    let who = table.seat_name(p.seat);
                    move_lines(who, p.seat, p.label, p.private, p.events)
                })
                .collect(),
            Err(_) => Vec::new(),
        };
        log.push(LogLine::note(Text::new(
            format!("Partie reprise au coup {moves}"),
            format!("Game resumed at move {moves}"),
        )));
        self.replace_playing(table)?;
        let mut view = self.view(log)?;
        view.fresh = true;
        Ok(view)
    }

    pub(super) fn playing(&mut self) -> Res<&mut Playing> {
        self.playing
            .as_mut()
            .ok_or_else(|| Text::new("Aucune partie n'est en cours.", "No game is being played."))
    }

    /// A move chosen at the screen, on a phone or by the thinker, played by the table: the
    /// lines it adds to the log.
    pub(super) fn play(&mut self, seat: Seat, action: &str) -> Result<Vec<LogLine>, TableError> {
        let playing = self.playing.as_mut().ok_or(TableError::NoSeatToAct)?;
        let played = playing.table.play(seat, action)?;
        Ok(playing.logged(played))
    }

    /// [`State::play`], then the game as it stands.
    pub(super) fn act(&mut self, seat: Seat, action: &str) -> Res<GameView> {
        let log = self.play(seat, action).map_err(|e| e.text())?;
        self.view(log)
    }

    /// A phone's move: played like a click when its seat is to act and it was chosen in the
    /// game as it stands, else refused on that phone with the reason.
    pub(super) fn phone(&mut self, mv: PhoneMove) -> Option<Reply> {
        let playing = self.playing.as_mut()?;
        let status = playing.table.status().ok()?;
        let phones = playing.phones.as_mut()?;
        if let Err(why) = phones.playable(&mv, status.seats()) {
            phones.refuse(&mv, why);
            return None;
        }
        match playing.table.answer(mv.seat, &mv.action) {
            Ok(Answered::Played(played)) => {
                phones.answered(mv.seat);
                let log = playing.logged(*played);
                Some(self.reply_game(|s| s.view(log)))
            }
            Ok(Answered::Held) => None,
            Err(error) => {
                phones.refuse(&mv, error.text());
                None
            }
        }
    }

    /// The phones' answers the table held, played now that only phones are left to act.
    pub(super) fn play_held(&mut self) -> Vec<Reply> {
        let mut replies = Vec::new();
        while let Some(playing) = self.playing.as_mut() {
            let played = match playing.table.play_held() {
                Ok(Some(played)) => played,
                Ok(None) => break,
                Err(error) => {
                    replies.push(Reply::GameFailed(error.text()));
                    break;
                }
            };
            if let Some(phones) = playing.phones.as_mut() {
                phones.answered(played.seat);
            }
            let log = playing.logged(played);
            replies.push(self.reply_game(|s| s.view(log)));
        }
        replies
    }

    /// Takes back one decision, asked by the person whose view the screen shows; the reply
    /// asks for the owner's or the table's consent when the table needs it.
    pub(super) fn undo(&mut self, consent: Consent) -> Reply {
        let Some(playing) = self.playing.as_mut() else {
            return Reply::Finished;
        };
        let asking = playing.last_human;
        let undone = match playing.table.undo(asking, consent) {
            Ok(Undo::Done { moves }) => moves,
            Ok(Undo::AskOwner(owner)) => return Reply::UndoAsksOwner(owner),
            Ok(Undo::AskTable(reveals)) => return Reply::RevealInTheWay(reveals),
            Err(error) => {
                let note = LogLine::note(error.text());
                return self.reply_game(|s| s.view(vec![note]));
            }
        };
        if let Some(phones) = &mut playing.phones {
            phones.taken_back(playing.table.meta().moves, undone);
        }
        let n = undone.to_string();
        self.reply_game(|s| {
            s.view(vec![LogLine::note(Text::new(
                format!("Coup(s) annulé(s) : {n}"),
                format!("Move(s) taken back: {n}"),
            ))])
        })
    }

    pub(super) fn redo(&mut self) -> Res<GameView> {
        let playing = self.playing()?;
        let events = match playing.table.redo() {
            Ok(events) => events,
            Err(error) => {
                let note = LogLine::note(error.text());
                return self.view(vec![note]);
            }
        };
        if let Some(phones) = &mut playing.phones {
            phones.played_again(&events);
        }
        let log = events.into_iter().map(|e| LogLine::note(e.text)).collect();
        self.view(log)
    }
}

/// The names of the house rules a session recorded, leaving out the game's own scripts.
fn house_rule_names(recorded: &[VariantScript]) -> Vec<Text> {
    recorded
        .iter()
        .filter_map(|v| {
            match Script::load(&v.file, &v.text, VariantLimits::default()) {
                Ok(script) if script.info().part_of_game => None,
                Ok(script) => Some(script.info().name.clone()),
                // Unreadable now: its id is all there is to show.
                Err(_) => Some(Text::same(v.id.clone())),
            }
        })
        .collect()
}
