//! `veillee play` and `veillee resume`: a game in the terminal, hot-seat between humans and
//! random bots, saved move by move as a session.

use std::io::BufRead;

use anyhow::{bail, Context};
use veillee_sdk::{GameError, Manifest, Seat, Status, Text};

use super::board_text::render;
use super::open_sessions;
use crate::room::{Listen, Phones};
use crate::term::{self, errln, line, outln};
use veillee_runtime::bot::{self, BotTurn};
use veillee_runtime::catalog::Catalog;
use veillee_runtime::data_dir::DataDir;
use veillee_runtime::engine::{EngineError, GameEngine};
use veillee_runtime::launch::{engine_for_session, engine_with_variants};
use veillee_runtime::options::setup_with_options;
use veillee_runtime::session::{LiveSession, SessionError, Sessions, TURN_TIME_KEY};
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
    let (mut engine, recorded) = engine_with_variants(catalog, game, variants, &data.variants())?;
    // The game's own scripts come first (Castel's cards), then the chosen house rules.
    let own = super::variants::own_scripts(game, &data.variants());
    if let Some(scripts) = super::variants::own_scripts_line(&own) {
        outln!("{scripts}");
    }
    for script in recorded.iter().skip(own.len()) {
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
    let live = sessions.start_with_variants(&mut *engine, players, setup, recorded)?;
    for failure in engine.failed_scripts(live.game) {
        errln!("Warning: a script was switched off, the game goes on without it: {failure}");
    }
    outln!(
        "{} — session {} (resume it with `veillee resume {}`), seed {seed}",
        line(manifest.name.get(lang)),
        live.meta.id,
        live.meta.id
    );
    let id = live.meta.id;
    let phones = phone_seats(seats);
    let phones = match phones.is_empty() {
        true => None,
        false => Some(Phones::open(&live, phones, listen)?),
    };
    play_loop(&sessions, &mut *engine, live, lang, phones).with_context(|| kept(id))
}

/// What a failure in the middle of a game leaves: the session as saved.
fn kept(id: u64) -> String {
    format!("the game stopped; session {id} is saved up to its last move, `veillee resume {id}` goes on once the problem below is fixed")
}

/// `veillee resume ID`: goes on with a saved session.
pub fn resume(catalog: &Catalog, data: &DataDir, id: u64, lang: &str) -> anyhow::Result<()> {
    let sessions = open_sessions(data)?;
    let meta = sessions.get(id)?;
    let mut engine = engine_for_session(catalog, &meta)?;
    let live = sessions.resume(&mut *engine, id)?;
    outln!(
        "{} — session {id}, move {}",
        line(engine.manifest().name.get(lang)),
        live.meta.moves
    );
    play_loop(&sessions, &mut *engine, live, lang, None).with_context(|| kept(id))
}

enum Answer {
    Action(usize),
    Undo,
    Redo,
    Quit,
}

fn play_loop(
    sessions: &Sessions,
    engine: &mut dyn GameEngine,
    mut live: LiveSession,
    lang: &str,
    mut phones: Option<Phones>,
) -> anyhow::Result<()> {
    let manifest = engine.manifest().clone();
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut last_human: Option<Seat> = None;
    // What was played, and how far each human has read it: a line is printed as the human
    // at the terminal reads it (their own secrets, the public text of the others').
    let mut told = Told::default();
    // The host's turn timer: when the seat now to act started its turn.
    let mut turn: Option<(Seat, std::time::Instant)> = None;
    // The move count the phones were last sent, and the one the big screen last showed.
    let mut published: Option<u32> = None;
    let mut shown: Option<u32> = None;
    loop {
        if let Some(phones) = &phones {
            if published != Some(live.meta.moves) {
                phones.publish(engine, &live, None)?;
                published = Some(live.meta.moves);
            }
        }
        let status = engine.status(live.game)?;
        let seat = match &status {
            Status::Finished { outcome } => {
                outln!("{}", render(&engine.view(live.game, None)?, lang));
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
                outln!("\n{}", render(&engine.view(live.game, None)?, lang));
                let waiting: Vec<String> = status
                    .seats()
                    .iter()
                    .map(|&s| shown_seat(&manifest, s, lang))
                    .collect();
                outln!("Waiting for {} (on their phones)…", waiting.join(", "));
            }
            let since = turn.map_or_else(std::time::Instant::now, |(_, started)| started);
            phone_turn(
                phones,
                sessions,
                engine,
                &mut live,
                status.seats(),
                since,
                lang,
            )?;
            published = Some(live.meta.moves);
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
                        let hidden = manifest.hidden_information;
                        phones.note(&who, seat, &action.id, &action.label, &events, hidden);
                    }
                    told.played.push((seat, action, events));
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
                input.read_line(&mut String::new())?;
                term::clear_screen();
                told.catch_up(seat, &manifest, lang);
            }
            last_human = Some(seat);
            outln!("\n{}", render(&engine.view(live.game, Some(seat))?, lang));
            for (i, action) in actions.iter().enumerate() {
                outln!(
                    "  {:>3}. {}  [{}]",
                    i + 1,
                    line(action.label_for(seat, Some(seat)).get(lang)),
                    line(&action.id)
                );
            }
            let ids: Vec<&str> = actions.iter().map(|a| a.id.as_str()).collect();
            match ask(&mut input, &ids, &shown_seat(&manifest, seat, lang))? {
                Answer::Action(i) => i,
                Answer::Undo => {
                    undo(sessions, engine, &mut live, &mut input, lang)?;
                    continue;
                }
                Answer::Redo => {
                    match sessions.redo(engine, &mut live) {
                        Ok(_) => outln!("Redone."),
                        Err(e) => outln!("{e}"),
                    }
                    continue;
                }
                Answer::Quit => {
                    outln!("Saved. Resume with `veillee resume {}`.", live.meta.id);
                    return Ok(());
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
            let hidden = manifest.hidden_information;
            phones.note(&who, seat, &action.id, &action.label, &events, hidden);
        }
        told.played.push((seat, action.clone(), events));
        // Printed as the human at the terminal reads it (a spectator's text before any).
        told.show(last_human, &manifest, lang);
    }
}

/// The moves played in this run of the terminal: how far the screen shows them, and how
/// far each human has read them (after a hidden-information hand-off the screen is
/// cleared, and the next human catches up on what they missed, as they may read it).
#[derive(Default)]
struct Told {
    played: Vec<(Seat, veillee_sdk::Action, Vec<veillee_sdk::Event>)>,
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

    fn print(&mut self, from: usize, reader: Option<Seat>, manifest: &Manifest, lang: &str) {
        for (seat, action, events) in self.played.iter().skip(from) {
            outln!(
                "{}: {}",
                shown_seat(manifest, *seat, lang),
                line(action.label_for(*seat, reader).get(lang))
            );
            for event in events {
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
/// refused.
fn phone_turn(
    phones: &mut Phones,
    sessions: &Sessions,
    engine: &mut dyn GameEngine,
    live: &mut LiveSession,
    to_act: &[Seat],
    since: std::time::Instant,
    lang: &str,
) -> anyhow::Result<()> {
    let mv = phones.wait(to_act)?;
    let actions = engine.legal_actions(live.game, mv.seat)?;
    let label = actions
        .iter()
        .find(|a| a.id == mv.action)
        .map(|a| a.label.clone())
        .unwrap_or_else(|| Text::same(mv.action.clone()));
    let extra = serde_json::json!({ TURN_TIME_KEY: since.elapsed().as_millis() as u64 });
    match sessions.apply(engine, live, mv.seat, &mv.action, extra) {
        Ok(events) => {
            let manifest = engine.manifest();
            let who = seat_name(manifest, mv.seat, lang);
            let hidden = manifest.hidden_information;
            // The big screen reads what everyone may read (a private choice is "made a choice").
            for note in phones.note(&who, mv.seat, &mv.action, &label, &events, hidden) {
                match note.who.is_empty() {
                    true => outln!("    {}", line(note.text.get(lang))),
                    false => outln!("{}: {}", line(&note.who), line(note.text.get(lang))),
                }
            }
            phones.publish(engine, live, Some(&mv))
        }
        Err(SessionError::Engine(EngineError::Game(refused))) => {
            let why = match refused {
                GameError::Refused { reason, .. } => reason,
                other => Text::same(other.to_string()),
            };
            phones.refuse(&mv, why);
            Ok(())
        }
        Err(other) => Err(other.into()),
    }
}

/// Undoes one decision, asking the table when it would take back a reveal.
fn undo(
    sessions: &Sessions,
    engine: &mut dyn GameEngine,
    live: &mut LiveSession,
    input: &mut impl BufRead,
    lang: &str,
) -> anyhow::Result<()> {
    match sessions.undo(engine, live, 1, false) {
        Ok(undone) => outln!("Undone ({} moves).", undone.moves),
        Err(SessionError::RevealInTheWay(reveals)) => {
            let texts: Vec<&str> = reveals.iter().map(|t| t.get(lang)).collect();
            term::prompt(&format!(
                "This takes back what was revealed: {}. Does everyone agree? [y/N] ",
                texts.join("; ")
            ));
            let mut line = String::new();
            input.read_line(&mut line)?;
            if line.trim().eq_ignore_ascii_case("y") {
                let undone = sessions.undo(engine, live, 1, true)?;
                outln!("Undone ({} moves).", undone.moves);
            } else {
                outln!("Not undone.");
            }
        }
        Err(e) => outln!("{e}"),
    }
    Ok(())
}

/// Asks until the answer is an action number or id, `u`, `r` or `q` (or end of input).
fn ask(input: &mut impl BufRead, ids: &[&str], who: &str) -> anyhow::Result<Answer> {
    loop {
        term::prompt(&format!(
            "{who}, your move (number or id; u undo, r redo, q save and quit): "
        ));
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            return Ok(Answer::Quit);
        }
        let answer = line.trim();
        match answer {
            "q" => return Ok(Answer::Quit),
            "u" => return Ok(Answer::Undo),
            "r" => return Ok(Answer::Redo),
            _ => {}
        }
        if let Ok(n) = answer.parse::<usize>() {
            if (1..=ids.len()).contains(&n) {
                return Ok(Answer::Action(n - 1));
            }
        }
        if let Some(i) = ids.iter().position(|id| *id == answer) {
            return Ok(Answer::Action(i));
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
