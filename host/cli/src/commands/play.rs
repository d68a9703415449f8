//! `veillee play` and `veillee resume`: a game in the terminal, hot-seat between humans and
//! random bots, saved move by move as a session.

use anyhow::{bail, Context as _};
use veillee_sdk::search::Proven;
use veillee_sdk::{Manifest, Outcome, Seat, Status, Text};

use super::game_flags::{GameOptions, HouseRules};
use super::Context;
use crate::board_text::render;
use crate::inputs::{Input, Inputs};
use crate::room::{Listen, Phones, RoomArgs};
use crate::term::{self, errln, line, outln};
use veillee_runtime::bot::{self, BotTurn};
use veillee_runtime::launch::{engine_for_new_game, engine_for_session};
use veillee_runtime::options::setup_with_options;
use veillee_runtime::session::{repeats_label, SessionError};
use veillee_runtime::store::limits;
use veillee_runtime::store::model::{BotLevel, SeatPlayer};
use veillee_runtime::table::{Consent, Played, Table, TableError, Turn, Undo};

/// `veillee play GAME`.
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// Game id.
    game: String,
    /// One entry per seat: `human` (this terminal), `phone` (a player's phone, joining
    /// by a link or QR code printed here) or a bot: `easy`, `normal` (or `bot`),
    /// `strong`, `random` (e.g. `human,strong`).
    #[arg(long, value_delimiter = ',', default_value = "human,normal")]
    seats: Vec<String>,
    #[command(flatten)]
    room: RoomArgs,
    /// Seed of the game (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
    #[command(flatten)]
    options: GameOptions,
    #[command(flatten)]
    house_rules: HouseRules,
}

impl PlayArgs {
    /// A new session, played in the terminal (and on phones) move by move.
    pub fn run(&self, ctx: &Context) -> anyhow::Result<()> {
        let catalog = ctx.catalog()?;
        let (game, variants, lang) = (&self.game, &self.house_rules.wanted, &ctx.lang);
        term::print_scripts_to_terminal();
        let levels = parse_seats(&self.seats)?;
        let seed = self.seed.unwrap_or_else(clock_seed);
        let manifest =
            veillee_runtime::engine::GameEngine::manifest(&catalog.engine(game)?).clone();
        let setup = setup_with_options(&manifest, levels.len() as u8, seed, &self.options.written)?;
        let (engine, recorded) =
            engine_for_new_game(&catalog, game, variants, &setup, &mut super::say_leak_check)?;
        // The game's own scripts come first (Castel's cards), then the chosen house rules.
        let own = super::variants::new_game_own_scripts(game, variants, &ctx.user_variants(), lang);
        for own_line in &own.lines {
            outln!("{own_line}");
        }
        for script in recorded.iter().skip(own.count) {
            outln!("House rule: {} ({})", line(&script.id), line(&script.file));
        }
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
        let sessions = ctx.sessions()?;
        let phones = phone_seats(&self.seats);
        let table = Table::start(sessions, engine, players, setup, recorded, phones)?;
        warn_switched_off(&table);
        let id = table.meta().id;
        outln!(
            "{} — session {id} (resume it with `veillee resume {id}`), seed {seed}",
            line(manifest.name.get(lang)),
        );
        play_opened(table, &self.room.listen(), lang).with_context(|| kept(id))
    }
}

/// Opens the room when seats are held by phones and the game is not over (a finished game
/// only shows its result: no phone has anything to do, nor needs a network), then plays.
fn play_opened(table: Table, listen: &Listen, lang: &str) -> anyhow::Result<()> {
    let mut inputs = Inputs::from_terminal();
    let over = matches!(table.meta().status, Status::Finished { .. });
    let phones = match table.meta().phones.is_empty() || over {
        true => None,
        false => Some(Phones::open(
            table.live(),
            table.meta().phones.clone(),
            listen,
            &mut inputs,
        )?),
    };
    play_loop(table, lang, phones, &mut inputs)
}

/// Says which scripts of the game are switched off (after an error, at set-up or earlier in
/// a resumed game): the game goes on under the plain rules for those.
fn warn_switched_off(table: &Table) {
    for failure in table.failed_scripts() {
        errln!("Warning: a script was switched off, the game goes on without it: {failure}");
    }
}

/// What a failure in the middle of a game leaves: the session as saved.
fn kept(id: u64) -> String {
    format!("the game stopped; session {id} is saved up to its last move, `veillee resume {id}` goes on once the problem below is fixed")
}

/// `veillee resume ID`.
#[derive(clap::Args, Debug)]
pub struct ResumeArgs {
    /// Session id (see `veillee sessions`).
    id: u64,
    #[command(flatten)]
    room: RoomArgs,
}

impl ResumeArgs {
    /// Goes on with a saved session (a game played with phones opens the room again, with
    /// new links: those of the last run no longer open a seat).
    pub fn run(&self, ctx: &Context) -> anyhow::Result<()> {
        let (id, lang) = (self.id, &ctx.lang);
        let catalog = ctx.catalog()?;
        let sessions = ctx.sessions()?;
        let meta = sessions.get(id)?;
        term::print_scripts_to_terminal();
        let engine = engine_for_session(&catalog, &meta, &mut super::say_leak_check)?;
        let table = Table::resume(sessions, engine, id)?;
        outln!(
            "{} — session {id}, move {}",
            line(table.manifest().name.get(lang)),
            table.meta().moves
        );
        warn_switched_off(&table);
        play_opened(table, &self.room.listen(), lang).with_context(|| kept(id))
    }
}

enum Answer {
    Action(usize),
    Undo,
    Redo,
    /// The big screen hands this seat (from 0) to another phone.
    HandOver(Seat),
    /// The person to move asks what a bot would play (`h`).
    Hint,
    Quit,
}

/// The big screen's commands while phones play (a line typed at the terminal): `h N` hands
/// seat N (from 1, as the links list them) to another phone.
fn screen_command(line: &str) -> Option<Answer> {
    match line.trim() {
        "u" => Some(Answer::Undo),
        "r" => Some(Answer::Redo),
        "q" => Some(Answer::Quit),
        other => {
            let seat = other.strip_prefix('h')?.trim().parse::<Seat>().ok()?;
            Some(Answer::HandOver(seat.checked_sub(1)?))
        }
    }
}

/// What the terminal remembers between two turns of the loop.
#[derive(Default)]
struct Screen {
    /// The last human who played at this terminal (the screen shows their view).
    last_human: Option<Seat>,
    /// What was played, and how far each human has read it.
    told: Told,
    /// The move count the phones were last sent, and the one the big screen last showed.
    published: Option<u32>,
    shown: Option<u32>,
    /// Whether moves were taken back or played again since the phones were last sent a state.
    moved_back: bool,
}

fn play_loop(
    mut table: Table,
    lang: &str,
    mut phones: Option<Phones>,
    inputs: &mut Inputs,
) -> anyhow::Result<()> {
    let mut screen = Screen::default();
    loop {
        if let Some(phones) = &phones {
            screen.send_to_phones(phones, &mut table)?;
        }
        let left = match table.turn()? {
            Turn::Over(outcome) => {
                show_outcome(&mut table, &outcome, lang)?;
                return Ok(());
            }
            Turn::Bot(seat, level) => {
                bot_turn(&mut table, seat, level, phones.as_mut(), &mut screen, lang)?;
                false
            }
            Turn::Phones(waiting) => {
                let phones = phones
                    .as_mut()
                    .context("seats held by phones are to act, but no room is open")?;
                phones_turn(&mut table, phones, &waiting, inputs, &mut screen, lang)?
            }
            Turn::Screen(seat) => {
                screen_turn(&mut table, seat, phones.as_mut(), inputs, &mut screen, lang)?
            }
        };
        if left {
            return Ok(());
        }
    }
}

impl Screen {
    /// Sends the phones their seats' states when the game changed since they last had them.
    fn send_to_phones(&mut self, phones: &Phones, table: &mut Table) -> anyhow::Result<()> {
        let moves = table.meta().moves;
        let (engine, live) = table.parts_mut();
        if self.moved_back {
            phones.publish_moved_back(engine, live)?;
        } else if self.published != Some(moves) {
            phones.publish(engine, live, None)?;
        }
        self.published = Some(moves);
        self.moved_back = false;
        Ok(())
    }

    /// A move was played at this terminal (a human's or a bot's): the phones' log notes it,
    /// and the screen prints it as the human at the terminal reads it.
    fn note(&mut self, table: &Table, played: Played, phones: Option<&mut Phones>, lang: &str) {
        if let Some(phones) = phones {
            let who = seat_name(table.manifest(), played.seat, lang);
            phones.note(
                played.index,
                &who,
                played.seat,
                &played.action,
                &played.events,
            );
        }
        self.told.played.push(played);
        self.told.show(self.last_human, table.manifest(), lang);
    }
}

/// The end of the game: the board as everyone sees it, and who won.
fn show_outcome(table: &mut Table, outcome: &Outcome, lang: &str) -> anyhow::Result<()> {
    let manifest = table.manifest().clone();
    let names = |s: Seat| shown_seat(&manifest, s, lang);
    let id = table.meta().id;
    let (engine, live) = table.parts_mut();
    outln!("{}", render(&engine.view(live.game, None)?, lang, &names));
    if let Some(why) = engine.stopped(live.game) {
        // Not a draw: the scripts' bounds stopped it (see `variants::bounds`).
        outln!("Stopped — {}", why.get(lang));
        outln!("Session {id} is saved as it stopped (`veillee sessions` lists it).");
        return Ok(());
    }
    let winners: Vec<String> = outcome.winners.iter().map(|&w| names(w)).collect();
    match winners.is_empty() {
        true => outln!("Draw — {}", outcome.reason.get(lang)),
        false => outln!(
            "Winner: {} — {}",
            winners.join(", "),
            outcome.reason.get(lang)
        ),
    }
    Ok(())
}

/// A bot's turn, played here and now.
fn bot_turn(
    table: &mut Table,
    seat: Seat,
    level: BotLevel,
    phones: Option<&mut Phones>,
    screen: &mut Screen,
    lang: &str,
) -> anyhow::Result<()> {
    match table.play_bot(seat, level)? {
        BotTurn::Played {
            played, refused, ..
        } => {
            for (_, why) in &refused {
                outln!("Refused: {}", line(why.get(lang)));
            }
            screen.note(table, played, phones, lang);
            Ok(())
        }
        BotTurn::Stuck { refused } => {
            let manifest = table.manifest();
            let who = shown_seat(manifest, seat, lang);
            bail!(
                "{}: {}",
                manifest.id,
                bot::stuck_message(&who, &refused, lang)
            )
        }
    }
}

/// Only phones are to act: the big screen shows the board everyone may see and waits for
/// them, or for a command typed at the terminal. `true` when the game is left.
fn phones_turn(
    table: &mut Table,
    phones: &mut Phones,
    waiting: &[Seat],
    inputs: &mut Inputs,
    screen: &mut Screen,
    lang: &str,
) -> anyhow::Result<bool> {
    if screen.shown != Some(table.meta().moves) {
        screen.shown = Some(table.meta().moves);
        let manifest = table.manifest().clone();
        let names = |s: Seat| shown_seat(&manifest, s, lang);
        let (engine, live) = table.parts_mut();
        outln!("\n{}", render(&engine.view(live.game, None)?, lang, &names));
        let waiting: Vec<String> = waiting.iter().map(|&s| names(s)).collect();
        outln!(
            "Waiting for {} (on their phones)… (type u undo, r redo, h N hand seat N to another phone, q save and quit)",
            waiting.join(", ")
        );
    }
    match phone_turn(phones, table, inputs, waiting, lang)? {
        None => {
            screen.published = Some(table.meta().moves);
            Ok(false)
        }
        Some(answer) => at_the_screen(answer, None, table, inputs, Some(phones), screen, lang),
    }
}

/// A human at the terminal is to act: the screen is handed over when the game hides
/// things, then the human picks a move. `true` when the game is left.
fn screen_turn(
    table: &mut Table,
    seat: Seat,
    mut phones: Option<&mut Phones>,
    inputs: &mut Inputs,
    screen: &mut Screen,
    lang: &str,
) -> anyhow::Result<bool> {
    let manifest = table.manifest().clone();
    let actions = table.legal_actions(seat)?;
    if actions.is_empty() {
        bail!(
            "{}: {} is to act but has no legal move, so the game cannot go on (a bug in the game or a house rule)",
            manifest.id,
            shown_seat(&manifest, seat, lang)
        );
    }
    if manifest.hidden_information && screen.last_human.is_some_and(|s| s != seat) {
        // Nothing of the last player's secrets stays on the screen.
        term::clear_screen();
        outln!(
            "==== Pass to {} — press Enter when ready ====",
            shown_seat(&manifest, seat, lang)
        );
        inputs.line();
        term::clear_screen();
        screen.told.catch_up(seat, &manifest, lang);
    }
    screen.last_human = Some(seat);
    let names = |s: Seat| shown_seat(&manifest, s, lang);
    let (engine, live) = table.parts_mut();
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
    let chosen = match ask(inputs, &ids, &shown_seat(&manifest, seat, lang)) {
        Answer::Action(i) => i,
        other => {
            let phones = phones.as_deref_mut();
            return at_the_screen(other, Some(seat), table, inputs, phones, screen, lang);
        }
    };
    match table.play(seat, &actions[chosen].id) {
        // Printed as the human at the terminal reads it (a spectator's text before any).
        Ok(played) => screen.note(table, played, phones, lang),
        // A house rule refused the move (or the game did): say why and ask again.
        Err(TableError::Refused(why)) => outln!("Refused: {}", line(why.get(lang))),
        Err(other) => return Err(other.into()),
    }
    Ok(false)
}

/// The moves played in this run of the terminal: how far the screen shows them, and how
/// far each human has read them (after a hidden-information hand-off the screen is
/// cleared, and the next human catches up on what they missed, as they may read it).
#[derive(Default)]
struct Told {
    /// The moves, as the table played them.
    played: Vec<Played>,
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
        self.played.retain(|played| played.index < moves);
        let left = self.played.len();
        self.shown = self.shown.min(left);
        for read in self.read.values_mut() {
            *read = (*read).min(left);
        }
    }

    fn print(&mut self, from: usize, reader: Option<Seat>, manifest: &Manifest, lang: &str) {
        for Played {
            seat,
            action,
            events,
            ..
        } in self.played.iter().skip(from)
        {
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
fn phone_turn(
    phones: &mut Phones,
    table: &mut Table,
    inputs: &mut Inputs,
    to_act: &[Seat],
    lang: &str,
) -> anyhow::Result<Option<Answer>> {
    let mv = loop {
        match inputs
            .next()
            .context("the room stopped while waiting for a phone")?
        {
            Input::Line(typed) => match screen_command(&typed) {
                Some(answer) => return Ok(Some(answer)),
                None => outln!(
                    "Type u to undo, r to redo, h N to hand seat N to another phone, q to save and quit."
                ),
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
    match table.play(mv.seat, &mv.action) {
        Ok(played) => {
            let who = seat_name(table.manifest(), mv.seat, lang);
            // The big screen reads what everyone may read ("answers: the question" for a
            // private answer, a card drawn without its name).
            for (who, text) in
                phones.note(played.index, &who, mv.seat, &played.action, &played.events)
            {
                match who.is_empty() {
                    true => outln!("    {}", line(text.get(lang))),
                    false => outln!("{}: {}", line(&who), line(text.get(lang))),
                }
            }
            let (engine, live) = table.parts_mut();
            phones.publish(engine, live, Some(&mv))?;
        }
        Err(TableError::Refused(why)) => phones.refuse(&mv, why),
        Err(other) => return Err(other.into()),
    }
    Ok(None)
}

/// Undo, redo, a hand-over or save and quit, typed at the terminal (by the human at
/// `asking` whose turn it is, or at the big screen while phones play); `true` when the
/// game is left.
fn at_the_screen(
    answer: Answer,
    asking: Option<Seat>,
    table: &mut Table,
    inputs: &mut Inputs,
    phones: Option<&mut Phones>,
    screen: &mut Screen,
    lang: &str,
) -> anyhow::Result<bool> {
    match answer {
        Answer::Undo => {
            let undone = undo(table, asking, inputs, lang)?;
            screen.told.taken_back(table.meta().moves);
            if let (Some(phones), Some(count)) = (phones, undone) {
                phones.log().taken_back(table.meta().moves, count);
            }
            screen.moved_back = true;
        }
        Answer::Redo => match table.redo() {
            Ok(events) => {
                outln!("Redone.");
                if let Some(phones) = phones {
                    phones.log().played_again(&events);
                }
                screen.moved_back = true;
            }
            Err(e) => outln!("{}", line(e.text().get(lang))),
        },
        Answer::HandOver(seat) => match phones {
            Some(phones) => phones.hand_over(seat),
            None => outln!("No seat of this game is played on a phone."),
        },
        Answer::Hint => match asking {
            Some(seat) => say_hint(table, seat, lang)?,
            None => outln!("A hint is for the person whose turn it is, at their prompt."),
        },
        Answer::Quit => {
            outln!("Saved. Resume with `veillee resume {}`.", table.meta().id);
            return Ok(true);
        }
        Answer::Action(_) => {}
    }
    Ok(false)
}

/// What a bot would play for `seat`, and why when its exact check proved it.
fn say_hint(table: &mut Table, seat: Seat, lang: &str) -> anyhow::Result<()> {
    let Some(hint) = table.hint(seat)? else {
        outln!("No move to hint at.");
        return Ok(());
    };
    let label = line(hint.action.label_for(seat, Some(seat)).get(lang)).into_owned();
    let id = line(&hint.action.id).into_owned();
    let why = match hint.proven {
        Some(Proven::Win(plies)) => format!(" — it wins by force within {}", moves_of(plies)),
        Some(Proven::Loss(plies)) => format!(
            " — every move loses by force; this one holds out longest ({})",
            moves_of(plies)
        ),
        None => String::new(),
    };
    outln!("Hint: {label} [{id}]{why}");
    Ok(())
}

/// Plies as the moves of the seat that plays first in them (a ply each, in turn).
fn moves_of(plies: u8) -> String {
    match plies.div_ceil(2) {
        1 => "1 move".into(),
        n => format!("{n} moves"),
    }
}

/// Undoes one decision, asking the owner of the move when someone else asks, and the
/// table when it would take back a reveal; returns how many moves were taken back.
fn undo(
    table: &mut Table,
    asking: Option<Seat>,
    inputs: &mut Inputs,
    lang: &str,
) -> anyhow::Result<Option<u32>> {
    let mut consent = Consent::NotAsked;
    loop {
        let question = match table.undo(asking, consent) {
            Ok(Undo::Done { moves }) => {
                outln!("Undone ({moves} moves).");
                return Ok(Some(moves));
            }
            Ok(Undo::AskOwner(owner)) => {
                consent = Consent::OwnerAgreed;
                let who = shown_seat(table.manifest(), owner, lang);
                format!("Undo takes back {who}'s last move. Do they agree? [y/N] ")
            }
            Ok(Undo::AskTable(reveals)) => {
                consent = Consent::Given;
                let texts: Vec<&str> = reveals.iter().map(|t| t.get(lang)).collect();
                format!(
                    "This takes back what was revealed: {}. Does everyone agree? [y/N] ",
                    line(&texts.join("; "))
                )
            }
            Err(e @ TableError::Session(SessionError::Store(_))) => return Err(e.into()),
            Err(e) => {
                outln!("{}", line(e.text().get(lang)));
                return Ok(None);
            }
        };
        term::prompt(&question);
        let agreed = inputs
            .line()
            .is_some_and(|l| l.trim().eq_ignore_ascii_case("y"));
        if !agreed {
            outln!("Not undone.");
            return Ok(None);
        }
    }
}

/// Asks until the answer is an action number or id, `u`, `r` or `q` (or end of input).
fn ask(inputs: &mut Inputs, ids: &[&str], who: &str) -> Answer {
    loop {
        term::prompt(&format!(
            "{who}, your move (number or id; h hint, u undo, r redo, q save and quit): "
        ));
        let Some(line) = inputs.line() else {
            return Answer::Quit;
        };
        let answer = line.trim();
        if answer == "h" {
            return Answer::Hint;
        }
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
