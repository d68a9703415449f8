//! `veillee play` and `veillee resume`: a game in the terminal, hot-seat between humans and
//! random bots, saved move by move as a session.

use anyhow::{bail, Context};
use veillee_sdk::{GameError, Manifest, Seat, Status, Text};

use super::board_text::render;
use super::open_sessions;
use crate::inputs::{Input, Inputs};
use crate::room::{Listen, Phones};
use crate::term::{self, errln, line, outln};
use veillee_runtime::bot::{self, BotTurn};
use veillee_runtime::catalog::Catalog;
use veillee_runtime::data_dir::DataDir;
use veillee_runtime::engine::{EngineError, GameEngine};
use veillee_runtime::launch::{engine_for_new_game, engine_for_session};
use veillee_runtime::options::setup_with_options;
use veillee_runtime::session::{repeats_label, LiveSession, SessionError, Sessions, TURN_TIME_KEY};
use veillee_runtime::store::limits;
use veillee_runtime::store::model::{BotLevel, SeatPlayer};

/// What `veillee play` starts.
pub struct NewGame<'a> {
    /// Game id.
    pub game: &'a str,
    /// One entry per seat: `human`, `phone`, or a bot's level (`easy`, `normal`, `strong`,
    /// `random`; `bot` is `normal`).
    pub seats: &'a [String],
    /// Seed (default: from the clock).
    pub seed: Option<u64>,
    /// The game's options, as `id=value`.
    pub options: &'a [String],
    /// House rules: ids or `.lua` files.
    pub variants: &'a [String],
    /// Where the room listens when seats are phones.
    pub listen: &'a Listen,
}

/// `veillee play`: a new session.
pub fn run(catalog: &Catalog, data: &DataDir, new: &NewGame, lang: &str) -> anyhow::Result<()> {
    let NewGame {
        game,
        seats,
        seed,
        options,
        variants,
        listen,
    } = *new;
    term::print_scripts_to_terminal();
    let (mut engine, recorded) = engine_for_new_game(catalog, game, variants, &data.variants())?;
    // The game's own scripts come first (Castel's cards), then the chosen house rules.
    let own = super::variants::new_game_own_scripts(game, variants, &data.variants(), lang);
    for own_line in &own.lines {
        outln!("{own_line}");
    }
    for script in recorded.iter().skip(own.count) {
        outln!("House rule: {} ({})", line(&script.id), line(&script.file));
    }
    let levels = parse_seats(seats)?;
    let seed = seed.unwrap_or_else(clock_seed);
    let manifest = engine.manifest().clone();
    let players = levels
        .iter()
        .enumerate()
        .map(|(seat, &level)| {
            let name = seat_name(&manifest, seat as Seat, lang);
            match level {
                None => SeatPlayer::human(name),
                Some(level) => SeatPlayer::bot(name, level),
            }
        })
        .collect();
    let sessions = open_sessions(data)?;
    let setup = setup_with_options(&manifest, levels.len() as u8, seed, options)?;
    let mut live = sessions.start_with_variants(&mut *engine, players, setup, recorded)?;
    warn_switched_off(&*engine, &live);
    outln!(
        "{} — session {} (resume it with `veillee resume {}`), seed {seed}",
        line(manifest.name.get(lang)),
        live.meta.id,
        live.meta.id
    );
    let id = live.meta.id;
    let mut inputs = Inputs::from_terminal();
    let phones = phone_seats(seats);
    let phones = match phones.is_empty() {
        true => None,
        false => {
            // Remembered, so that `veillee resume` opens the room for them again.
            sessions.set_phones(&mut live, phones.clone())?;
            Some(Phones::open(&live, phones, listen, &mut inputs)?)
        }
    };
    play_loop(&sessions, &mut *engine, live, lang, phones, &mut inputs).with_context(|| kept(id))
}

/// Says which scripts of the game are switched off (after an error, at set-up or earlier in
/// a resumed game): the game goes on under the plain rules for those.
fn warn_switched_off(engine: &dyn GameEngine, live: &LiveSession) {
    for failure in engine.failed_scripts(live.game) {
        errln!("Warning: a script was switched off, the game goes on without it: {failure}");
    }
}

/// What a failure in the middle of a game leaves: the session as saved.
fn kept(id: u64) -> String {
    format!("the game stopped; session {id} is saved up to its last move, `veillee resume {id}` goes on once the problem below is fixed")
}

/// `veillee resume ID`: goes on with a saved session (a game played with phones opens the
/// room again, with new links: those of the last run no longer open a seat).
pub fn resume(
    catalog: &Catalog,
    data: &DataDir,
    id: u64,
    listen: &Listen,
    lang: &str,
) -> anyhow::Result<()> {
    let sessions = open_sessions(data)?;
    let meta = sessions.get(id)?;
    term::print_scripts_to_terminal();
    let mut engine = engine_for_session(catalog, &meta)?;
    let live = sessions.resume(&mut *engine, id)?;
    outln!(
        "{} — session {id}, move {}",
        line(engine.manifest().name.get(lang)),
        live.meta.moves
    );
    warn_switched_off(&*engine, &live);
    let mut inputs = Inputs::from_terminal();
    let phones = match live.meta.phones.is_empty() {
        true => None,
        false => Some(Phones::open(
            &live,
            live.meta.phones.clone(),
            listen,
            &mut inputs,
        )?),
    };
    play_loop(&sessions, &mut *engine, live, lang, phones, &mut inputs).with_context(|| kept(id))
}

enum Answer {
    Action(usize),
    Undo,
    Redo,
    Quit,
}

/// The big screen's commands while phones play (a line typed at the terminal).
fn screen_command(line: &str) -> Option<Answer> {
    match line.trim() {
        "u" => Some(Answer::Undo),
        "r" => Some(Answer::Redo),
        "q" => Some(Answer::Quit),
        _ => None,
    }
}

fn play_loop(
    sessions: &Sessions,
    engine: &mut dyn GameEngine,
    mut live: LiveSession,
    lang: &str,
    mut phones: Option<Phones>,
    inputs: &mut Inputs,
) -> anyhow::Result<()> {
    let manifest = engine.manifest().clone();
    let names = |s: Seat| shown_seat(&manifest, s, lang);
    let mut last_human: Option<Seat> = None;
    // What was played, and how far each human has read it: a line is printed as the human
    // at the terminal reads it (their own secrets, the public text of the others').
    let mut told = Told::default();
    // The host's turn timer: when the seat now to act started its turn.
    let mut turn: Option<(Seat, std::time::Instant)> = None;
    // The move count the phones were last sent, and the one the big screen last showed;
    // whether moves were taken back or played again since the phones were last sent a state.
    let mut published: Option<u32> = None;
    let mut shown: Option<u32> = None;
    let mut moved_back = false;
    loop {
        if let Some(phones) = &phones {
            if moved_back {
                phones.publish_moved_back(engine, &live)?;
            } else if published != Some(live.meta.moves) {
                phones.publish(engine, &live, None)?;
            }
            published = Some(live.meta.moves);
            moved_back = false;
        }
        let status = engine.status(live.game)?;
        let seat = match &status {
            Status::Finished { outcome } => {
                outln!("{}", render(&engine.view(live.game, None)?, lang, &names));
                let winners: Vec<String> = outcome
                    .winners
                    .iter()
                    .map(|&w| shown_seat(&manifest, w, lang))
                    .collect();
                match winners.is_empty() {
                    true => outln!("Draw — {}", outcome.reason.get(lang)),
                    false => outln!(
                        "Winner: {} — {}",
                        winners.join(", "),
                        outcome.reason.get(lang)
                    ),
                }
                return Ok(());
            }
            // Seats on this computer first (terminal humans, bots); phones answer meanwhile.
            Status::ToAct { seats } => {
                let first = *seats
                    .first()
                    .context("the game says it goes on, but no seat is to act")?;
                let here = |s: &Seat| phones.as_ref().is_none_or(|p| !p.holds(*s));
                seats.iter().copied().find(here).unwrap_or(first)
            }
        };
        if turn.is_none_or(|(s, _)| s != seat) {
            turn = Some((seat, std::time::Instant::now()));
        }
        if let Some(phones) = phones.as_mut().filter(|p| p.holds(seat)) {
            if shown != Some(live.meta.moves) {
                shown = Some(live.meta.moves);
                outln!("\n{}", render(&engine.view(live.game, None)?, lang, &names));
                let waiting: Vec<String> = status
                    .seats()
                    .iter()
                    .map(|&s| shown_seat(&manifest, s, lang))
                    .collect();
                outln!(
                    "Waiting for {} (on their phones)… (type u undo, r redo, q save and quit)",
                    waiting.join(", ")
                );
            }
            let since = turn.map_or_else(std::time::Instant::now, |(_, started)| started);
            let typed = phone_turn(
                phones,
                sessions,
                engine,
                &mut live,
                inputs,
                status.seats(),
                since,
                lang,
            )?;
            match typed {
                None => published = Some(live.meta.moves),
                Some(answer) => {
                    if at_the_screen(
                        answer,
                        sessions,
                        engine,
                        &mut live,
                        inputs,
                        Some(phones),
                        &mut told,
                        lang,
                    )? {
                        return Ok(());
                    }
                    moved_back = true;
                }
            }
            continue;
        }
        let bot = live
            .meta
            .seats
            .get(seat as usize)
            .and_then(|s| s.bot_level());
        if let Some(level) = bot {
            let turn_ms = turn.map_or(0, |(_, started)| started.elapsed().as_millis() as u64);
            let extra = || serde_json::json!({ TURN_TIME_KEY: turn_ms });
            match bot::play_turn(sessions, engine, &mut live, seat, level, &extra)? {
                BotTurn::Played {
                    played: events,
                    thought,
                    refused,
                } => {
                    for (_, why) in &refused {
                        outln!("Refused: {}", line(why.get(lang)));
                    }
                    let action = thought.action;
                    if let Some(phones) = phones.as_mut() {
                        let who = seat_name(&manifest, seat, lang);
                        phones.note(live.meta.moves - 1, &who, seat, &action, &events);
                    }
                    told.played
                        .push((live.meta.moves - 1, seat, action, events));
                    told.show(last_human, &manifest, lang);
                }
                BotTurn::Stuck { refused } => {
                    let who = shown_seat(&manifest, seat, lang);
                    bail!(
                        "{}: {}",
                        manifest.id,
                        bot::stuck_message(&who, &refused, lang)
                    );
                }
            }
            continue;
        }
        let actions = engine.legal_actions(live.game, seat)?;
        if actions.is_empty() {
            bail!(
                "{}: {} is to act but has no legal move, so the game cannot go on (a bug in the game or a house rule)",
                manifest.id,
                shown_seat(&manifest, seat, lang)
            );
        }
        let chosen = {
            if manifest.hidden_information && last_human.is_some_and(|s| s != seat) {
                // Nothing of the last player's secrets stays on the screen.
                term::clear_screen();
                outln!(
                    "==== Pass to {} — press Enter when ready ====",
                    shown_seat(&manifest, seat, lang)
                );
                inputs.line();
                term::clear_screen();
                told.catch_up(seat, &manifest, lang);
            }
            last_human = Some(seat);
            outln!(
                "\n{}",
                render(&engine.view(live.game, Some(seat))?, lang, &names)
            );
            for (i, action) in actions.iter().enumerate() {
                outln!(
                    "  {:>3}. {}  [{}]",
                    i + 1,
                    line(action.label_for(seat, Some(seat)).get(lang)),
                    line(&action.id)
                );
            }
            let ids: Vec<&str> = actions.iter().map(|a| a.id.as_str()).collect();
            match ask(inputs, &ids, &shown_seat(&manifest, seat, lang)) {
                Answer::Action(i) => i,
                other => {
                    let phones = phones.as_mut();
                    let told = &mut told;
                    if at_the_screen(
                        other, sessions, engine, &mut live, inputs, phones, told, lang,
                    )? {
                        return Ok(());
                    }
                    moved_back = true;
                    continue;
                }
            }
        };
        let action = &actions[chosen];
        let turn_ms = turn.map_or(0, |(_, started)| started.elapsed().as_millis() as u64);
        let extra = serde_json::json!({ TURN_TIME_KEY: turn_ms });
        let events = match sessions.apply(engine, &mut live, seat, &action.id, extra) {
            Ok(events) => events,
            // A house rule refused the move (or the game did): say why and ask again.
            Err(SessionError::Engine(EngineError::Game(refused))) => {
                let why = match refused {
                    GameError::Refused { reason, .. } => reason.get(lang).to_string(),
                    other => other.to_string(),
                };
                outln!("Refused: {}", line(&why));
                continue;
            }
            Err(other) => return Err(other.into()),
        };
        if let Some(phones) = phones.as_mut() {
            let who = seat_name(&manifest, seat, lang);
            phones.note(live.meta.moves - 1, &who, seat, action, &events);
        }
        told.played
            .push((live.meta.moves - 1, seat, action.clone(), events));
        // Printed as the human at the terminal reads it (a spectator's text before any).
        told.show(last_human, &manifest, lang);
    }
}

/// The moves played in this run of the terminal: how far the screen shows them, and how
/// far each human has read them (after a hidden-information hand-off the screen is
/// cleared, and the next human catches up on what they missed, as they may read it).
#[derive(Default)]
struct Told {
    /// (the move's number, from 0; who; what; what it caused).
    played: Vec<(u32, Seat, veillee_sdk::Action, Vec<veillee_sdk::Event>)>,
    shown: usize,
    read: std::collections::BTreeMap<Seat, usize>,
}

impl Told {
    /// Prints the moves not on the screen yet, as `reader` reads them.
    fn show(&mut self, reader: Option<Seat>, manifest: &Manifest, lang: &str) {
        self.print(self.shown, reader, manifest, lang);
    }

    /// After a hand-off: what `viewer` has not read in this run, as `viewer` reads it.
    fn catch_up(&mut self, viewer: Seat, manifest: &Manifest, lang: &str) {
        let from = self.read.get(&viewer).copied().unwrap_or(0);
        self.print(from, Some(viewer), manifest, lang);
    }

    /// Moves were taken back, down to `moves` played: nobody is told them again.
    fn taken_back(&mut self, moves: u32) {
        self.played.retain(|(index, ..)| *index < moves);
        let left = self.played.len();
        self.shown = self.shown.min(left);
        for read in self.read.values_mut() {
            *read = (*read).min(left);
        }
    }

    fn print(&mut self, from: usize, reader: Option<Seat>, manifest: &Manifest, lang: &str) {
        for (_, seat, action, events) in self.played.iter().skip(from) {
            outln!(
                "{}: {}",
                shown_seat(manifest, *seat, lang),
                line(action.label_for(*seat, reader).get(lang))
            );
            // An event that only says the move again (Castel's "Black pawns: Draw") is
            // left out, as in the window.
            let label = &action.label;
            for event in events.iter().filter(|e| !repeats_label(&e.text, label)) {
                outln!(
                    "    {}",
                    line(event.text_for(Some(*seat), reader).get(lang))
                );
            }
        }
        self.shown = self.played.len();
        if let Some(reader) = reader {
            self.read.insert(reader, self.played.len());
        }
    }
}

/// Waits for a move from a phone whose seat is to act and plays it like a terminal move
/// (saved before shown); the phones then see the new state, or that phone why its move was
/// refused. A command typed at the big screen meanwhile is returned.
#[allow(clippy::too_many_arguments)]
fn phone_turn(
    phones: &mut Phones,
    sessions: &Sessions,
    engine: &mut dyn GameEngine,
    live: &mut LiveSession,
    inputs: &mut Inputs,
    to_act: &[Seat],
    since: std::time::Instant,
    lang: &str,
) -> anyhow::Result<Option<Answer>> {
    let mv = loop {
        match inputs
            .next()
            .context("the room stopped while waiting for a phone")?
        {
            Input::Line(typed) => match screen_command(&typed) {
                Some(answer) => return Ok(Some(answer)),
                None => outln!("Type u to undo, r to redo, q to save and quit."),
            },
            Input::Phone(mv) if !to_act.contains(&mv.seat) => phones.refuse(
                &mv,
                Text::new("Ce n'est pas à vous de jouer.", "It is not your turn."),
            ),
            // Chosen before an undo or a redo at the big screen: not in this position.
            Input::Phone(mv) if !phones.is_current(&mv) => phones.refuse(
                &mv,
                Text::new(
                    "La partie a changé sur le grand écran : regardez à nouveau et rejouez.",
                    "The game changed on the big screen: look again and play again.",
                ),
            ),
            Input::Phone(mv) => break mv,
        }
    };
    let actions = engine.legal_actions(live.game, mv.seat)?;
    let played = actions
        .into_iter()
        .find(|a| a.id == mv.action)
        .unwrap_or_else(|| veillee_sdk::Action::button(&mv.action, Text::same(&mv.action)));
    let extra = serde_json::json!({ TURN_TIME_KEY: since.elapsed().as_millis() as u64 });
    match sessions.apply(engine, live, mv.seat, &mv.action, extra) {
        Ok(events) => {
            let who = seat_name(engine.manifest(), mv.seat, lang);
            // The big screen reads what everyone may read ("answers: the question" for a
            // private answer, a card drawn without its name).
            let index = live.meta.moves - 1;
            for (who, text) in phones.note(index, &who, mv.seat, &played, &events) {
                match who.is_empty() {
                    true => outln!("    {}", line(text.get(lang))),
                    false => outln!("{}: {}", line(&who), line(text.get(lang))),
                }
            }
            phones.publish(engine, live, Some(&mv))?;
        }
        Err(SessionError::Engine(EngineError::Game(refused))) => {
            let why = match refused {
                GameError::Refused { reason, .. } => reason,
                other => Text::same(other.to_string()),
            };
            phones.refuse(&mv, why);
        }
        Err(other) => return Err(other.into()),
    }
    Ok(None)
}

/// Undo, redo or save and quit, typed at the terminal (by a human whose turn it is, or at
/// the big screen while phones play); `true` when the game is left.
#[allow(clippy::too_many_arguments)]
fn at_the_screen(
    answer: Answer,
    sessions: &Sessions,
    engine: &mut dyn GameEngine,
    live: &mut LiveSession,
    inputs: &mut Inputs,
    phones: Option<&mut Phones>,
    told: &mut Told,
    lang: &str,
) -> anyhow::Result<bool> {
    match answer {
        Answer::Undo => {
            let undone = undo(sessions, engine, live, inputs, lang)?;
            told.taken_back(live.meta.moves);
            if let (Some(phones), Some(count)) = (phones, undone) {
                phones.log().taken_back(live.meta.moves, count);
            }
        }
        Answer::Redo => match sessions.redo(engine, live) {
            Ok(events) => {
                outln!("Redone.");
                if let Some(phones) = phones {
                    phones.log().played_again(&events);
                }
            }
            Err(e) => outln!("{e}"),
        },
        Answer::Quit => {
            outln!("Saved. Resume with `veillee resume {}`.", live.meta.id);
            return Ok(true);
        }
        Answer::Action(_) => {}
    }
    Ok(false)
}

/// Undoes one decision, asking the table when it would take back a reveal; returns how
/// many moves were taken back.
fn undo(
    sessions: &Sessions,
    engine: &mut dyn GameEngine,
    live: &mut LiveSession,
    inputs: &mut Inputs,
    lang: &str,
) -> anyhow::Result<Option<u32>> {
    match sessions.undo(engine, live, 1, false) {
        Ok(undone) => {
            outln!("Undone ({} moves).", undone.moves);
            Ok(Some(undone.moves))
        }
        Err(SessionError::RevealInTheWay(reveals)) => {
            let texts: Vec<&str> = reveals.iter().map(|t| t.get(lang)).collect();
            term::prompt(&format!(
                "This takes back what was revealed: {}. Does everyone agree? [y/N] ",
                texts.join("; ")
            ));
            let agreed = inputs
                .line()
                .is_some_and(|l| l.trim().eq_ignore_ascii_case("y"));
            if agreed {
                let undone = sessions.undo(engine, live, 1, true)?;
                outln!("Undone ({} moves).", undone.moves);
                Ok(Some(undone.moves))
            } else {
                outln!("Not undone.");
                Ok(None)
            }
        }
        Err(e) => {
            outln!("{e}");
            Ok(None)
        }
    }
}

/// Asks until the answer is an action number or id, `u`, `r` or `q` (or end of input).
fn ask(inputs: &mut Inputs, ids: &[&str], who: &str) -> Answer {
    loop {
        term::prompt(&format!(
            "{who}, your move (number or id; u undo, r redo, q save and quit): "
        ));
        let Some(line) = inputs.line() else {
            return Answer::Quit;
        };
        let answer = line.trim();
        if let Some(command) = screen_command(answer) {
            return command;
        }
        if let Ok(n) = answer.parse::<usize>() {
            if (1..=ids.len()).contains(&n) {
                return Answer::Action(n - 1);
            }
        }
        if let Some(i) = ids.iter().position(|id| *id == answer) {
            return Answer::Action(i);
        }
        outln!(
            "`{answer}` is not one of the {} moves listed above.",
            ids.len()
        );
    }
}

/// Each seat's bot level (`None`: a human, at this terminal or on a phone).
fn parse_seats(seats: &[String]) -> anyhow::Result<Vec<Option<BotLevel>>> {
    seats
        .iter()
        .map(|s| match s.trim() {
            // A player on their phone is a human (undo takes their moves back as such).
            "human" | "phone" => Ok(None),
            other => match BotLevel::parse(other) {
                Some(level) => Ok(Some(level)),
                None => bail!(
                    "seat kind `{other}` is unknown: use human, phone, or a bot's level: easy, normal (or bot), strong, random"
                ),
            },
        })
        .collect()
}

/// The seats held by phones.
fn phone_seats(seats: &[String]) -> Vec<Seat> {
    (0..seats.len() as Seat)
        .filter(|&s| seats[s as usize].trim() == "phone")
        .collect()
}

/// A seat's name as the manifest gives it, fitted to the store's limits (printed through
/// [`line`]).
fn seat_name(manifest: &Manifest, seat: Seat, lang: &str) -> String {
    manifest
        .seats
        .get(seat as usize)
        .map(|s| limits::fit_name(s.name.get(lang)))
        .unwrap_or_else(|| format!("seat {seat}"))
}

/// A seat's name for the terminal: on one line, control characters quoted.
fn shown_seat(manifest: &Manifest, seat: Seat, lang: &str) -> String {
    line(&seat_name(manifest, seat, lang)).into_owned()
}

fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_secs())
}
