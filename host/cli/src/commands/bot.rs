//! `veillee bot` and `veillee engine`: the bots for programs — an outside engine, a test, a
//! tournament script. Positions and answers are action ids, never translated labels, and the
//! bot's move is the one a session's bot of that level would play there (the same seed of
//! decision), so an outside program faces exactly the bot a player faces.
//!
//! `bot` answers one position and exits; `engine` loads the game once and answers a line
//! protocol on standard input (documented in `sdk/README.md`, "Facing the bots"):
//!
//! ```text
//! position [seed S] [moves ID ID …]   a new game (seed S, default 1), these moves played
//! play ID                             one more move (SEAT:ID picks the seat)
//! level easy|normal|strong|random     the level of the next answers (default normal)
//! go                                  the bot's move for the seat to act: "bestmove ID",
//!                                     after an "info …" line
//! legal                               "legal SEAT ID ID …" for each seat to act
//! status                              "status to-act SEAT …" or "status over WINNER …|draw"
//! quit                                ends (so does the end of the input)
//! ```
//!
//! A line that cannot be carried out gets `error …` naming the problem, and the position is
//! left as it was: the engine keeps going.

use std::io::BufRead;

use anyhow::{bail, Context as _};
use serde_json::json;
use veillee_runtime::bot::{self, BotMove};
use veillee_runtime::engine::GameEngine;
use veillee_runtime::launch::engine_for_new_game;
use veillee_runtime::options::setup_with_options;
use veillee_runtime::store::model::BotLevel;
use veillee_sdk::{Handle, Manifest, Seat, Setup, Status};

use super::game_flags::{ensure_players, GameOptions, HouseRules, Players};
use super::inspect::resolve;
use super::Context;
use crate::term::outln;

/// `veillee bot GAME`.
#[derive(clap::Args, Debug)]
pub struct BotArgs {
    /// Game id.
    game: String,
    /// The bot's level: easy, normal (or bot), strong, random.
    #[arg(long, default_value = "normal", value_parser = parse_level)]
    level: BotLevel,
    /// The game's seed (the bot's decision depends on it, as in a session).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Action ids played from the start, in order; `SEAT:ID` picks the seat when several
    /// may act.
    #[arg(long, value_delimiter = ',')]
    actions: Vec<String>,
    #[command(flatten)]
    table: TableFlags,
    /// Print JSON: the move's id, the seat, the seconds, the iterations, what the exact check
    /// proved. Without it, the move's id alone.
    #[arg(long)]
    json: bool,
}

/// `veillee engine GAME`.
#[derive(clap::Args, Debug)]
pub struct EngineArgs {
    /// Game id.
    game: String,
    #[command(flatten)]
    table: TableFlags,
}

/// How the bots' game is set up: players, options, house rules.
#[derive(clap::Args, Debug)]
struct TableFlags {
    #[command(flatten)]
    players: Players,
    #[command(flatten)]
    options: GameOptions,
    #[command(flatten)]
    house_rules: HouseRules,
}

fn parse_level(name: &str) -> Result<BotLevel, String> {
    BotLevel::parse(name).ok_or_else(|| {
        format!("`{name}` is not a level; the levels are easy, normal (or bot), strong, random")
    })
}

/// A game loaded for the bots: its engine (with its own scripts and the house rules asked
/// for) and how a new position of it is set up.
struct Bench {
    engine: Box<dyn GameEngine>,
    manifest: Manifest,
    players: u8,
    options: Vec<String>,
    /// The position: its handle, its seed and the moves played from the start.
    game: Option<(Handle, u64, u32)>,
}

impl Bench {
    fn load(ctx: &Context, game: &str, table: &TableFlags, seed: u64) -> anyhow::Result<Self> {
        let TableFlags {
            players,
            options,
            house_rules,
        } = table;
        let catalog = ctx.catalog()?;
        let manifest = GameEngine::manifest(&catalog.engine(game)?).clone();
        let count = players.count.unwrap_or(manifest.min_players);
        ensure_players(&manifest, count)?;
        let setup = setup_with_options(&manifest, count, seed, &options.written)?;
        let (engine, _) = engine_for_new_game(
            &catalog,
            game,
            &house_rules.wanted,
            &setup,
            &mut super::say_leak_check,
        )?;
        Ok(Bench {
            engine,
            manifest,
            players: count,
            options: options.written.clone(),
            game: None,
        })
    }

    /// A new game from `seed` with `actions` played; the old position stays if one fails.
    fn position(&mut self, seed: u64, actions: &[String]) -> anyhow::Result<()> {
        let setup: Setup = setup_with_options(&self.manifest, self.players, seed, &self.options)?;
        let handle = self.engine.create(&setup)?;
        let played = self.play_all(handle, actions);
        match played {
            Ok(moves) => {
                if let Some((old, _, _)) = self.game.replace((handle, seed, moves)) {
                    self.engine.drop_game(old);
                }
                Ok(())
            }
            Err(e) => {
                self.engine.drop_game(handle);
                Err(e)
            }
        }
    }

    fn play_all(&mut self, handle: Handle, actions: &[String]) -> anyhow::Result<u32> {
        for (index, spec) in actions.iter().enumerate() {
            let (seat, id) = resolve(&mut *self.engine, handle, spec)
                .with_context(|| format!("move {} (`{spec}`)", index + 1))?;
            self.engine
                .apply(handle, seat, &id)
                .with_context(|| format!("move {} (`{spec}`)", index + 1))?;
        }
        Ok(actions.len() as u32)
    }

    /// One more move on the position.
    fn play(&mut self, spec: &str) -> anyhow::Result<()> {
        let (handle, _, moves) = self.current()?;
        let (seat, id) = resolve(&mut *self.engine, handle, spec)?;
        self.engine.apply(handle, seat, &id)?;
        if let Some((_, _, m)) = &mut self.game {
            *m = moves + 1;
        }
        Ok(())
    }

    fn current(&self) -> anyhow::Result<(Handle, u64, u32)> {
        self.game
            .context("no position yet: send `position [seed S] [moves …]` first")
    }

    /// The first seat to act, or the outcome's reason when the game is over.
    fn seat_to_act(&mut self) -> anyhow::Result<Seat> {
        let (handle, _, _) = self.current()?;
        match self.engine.status(handle)? {
            Status::ToAct { seats } => seats.first().copied().context("nobody is to act"),
            Status::Finished { outcome } => {
                bail!("the game is over: {}", outcome.reason.get("en"))
            }
        }
    }

    /// The move of a `level` bot for the seat to act, as a session's bot would play it.
    fn go(&mut self, level: BotLevel) -> anyhow::Result<(Seat, BotMove)> {
        let seat = self.seat_to_act()?;
        let (handle, seed, moves) = self.current()?;
        let decision = bot::decision_seed(seed, moves, seat);
        let chosen = bot::choose(
            &mut *self.engine,
            handle,
            seat,
            self.players,
            level,
            decision,
            &[],
        )?
        .context("the seat to act has no legal move")?;
        Ok((seat, chosen))
    }

    fn legal(&mut self) -> anyhow::Result<Vec<String>> {
        let (handle, _, _) = self.current()?;
        let status = self.engine.status(handle)?;
        let mut lines = Vec::new();
        for &seat in status.seats() {
            let ids: Vec<String> = self
                .engine
                .legal_actions(handle, seat)?
                .into_iter()
                .map(|a| a.id)
                .collect();
            lines.push(format!("legal {seat} {}", ids.join(" ")));
        }
        Ok(lines)
    }

    fn status(&mut self) -> anyhow::Result<String> {
        let (handle, _, _) = self.current()?;
        Ok(match self.engine.status(handle)? {
            Status::ToAct { seats } => format!("status to-act {}", spaced(&seats)),
            Status::Finished { outcome } if outcome.is_draw() => "status over draw".into(),
            Status::Finished { outcome } => format!("status over {}", spaced(&outcome.winners)),
        })
    }
}

fn spaced(seats: &[Seat]) -> String {
    seats
        .iter()
        .map(Seat::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// What the exact check proved, as words of the protocol (`win 3`, `loss 2`).
fn proven_words(chosen: &BotMove) -> Option<String> {
    chosen.proven.map(|p| match p {
        veillee_sdk::search::Proven::Win(plies) => format!("win {plies}"),
        veillee_sdk::search::Proven::Loss(plies) => format!("loss {plies}"),
    })
}

impl BotArgs {
    /// Sets the position up, asks the bot, prints its move.
    pub fn run(&self, ctx: &Context) -> anyhow::Result<()> {
        let mut bench = Bench::load(ctx, &self.game, &self.table, self.seed)?;
        // `--actions ""` is the start: no move.
        let actions: Vec<String> = self
            .actions
            .iter()
            .filter(|a| !a.trim().is_empty())
            .cloned()
            .collect();
        bench.position(self.seed, &actions)?;
        let (seat, chosen) = bench.go(self.level)?;
        if !self.json {
            outln!("{}", chosen.action.id);
            return Ok(());
        }
        let output = json!({
            "game": bench.manifest.id,
            "seed": self.seed,
            "moves": actions.len(),
            "seat": seat,
            "level": self.level.as_str(),
            "action": chosen.action.id,
            "seconds": chosen.seconds,
            "iterations": chosen.iterations,
            "searched": chosen.searched,
            "proven": proven_words(&chosen),
            "checked": chosen.checked,
        });
        outln!("{}", serde_json::to_string(&output)?);
        Ok(())
    }
}

impl EngineArgs {
    /// Loads the game once, then answers the protocol line by line until `quit` or the end
    /// of the input.
    pub fn run(&self, ctx: &Context) -> anyhow::Result<()> {
        let mut bench = Bench::load(ctx, &self.game, &self.table, 1)?;
        let mut level = BotLevel::Normal;
        outln!("veillee-engine 1 {}", bench.manifest.id);
        outln!("ready");
        crate::term::prompt("");
        let stdin = std::io::stdin();
        for line in stdin.lock().lines() {
            let line = line.context("reading the engine's input")?;
            let words: Vec<&str> = line.split_whitespace().collect();
            if words.first() == Some(&"quit") {
                break;
            }
            for answer in answer(&mut bench, &mut level, &words) {
                outln!("{answer}");
            }
            // The program on the other side waits for the answer: it goes out now.
            crate::term::prompt("");
        }
        Ok(())
    }
}

/// The answer lines to one line of the protocol; a failure is one `error …` line.
fn answer(bench: &mut Bench, level: &mut BotLevel, words: &[&str]) -> Vec<String> {
    let said = match words {
        [] => Ok(Vec::new()),
        ["position", rest @ ..] => position_words(rest)
            .and_then(|(seed, moves)| bench.position(seed, &moves))
            .map(|()| Vec::new()),
        ["play", spec] => bench.play(spec).map(|()| Vec::new()),
        ["level", name] => parse_level(name)
            .map(|l| {
                *level = l;
                Vec::new()
            })
            .map_err(anyhow::Error::msg),
        ["go"] => bench.go(*level).map(|(seat, chosen)| {
            let mut info = format!(
                "info seat {seat} iterations {} seconds {:.3} checked {}",
                chosen.iterations, chosen.seconds, chosen.checked
            );
            if let Some(proven) = proven_words(&chosen) {
                info.push_str(&format!(" proven {proven}"));
            }
            vec![info, format!("bestmove {}", chosen.action.id)]
        }),
        ["legal"] => bench.legal(),
        ["status"] => bench.status().map(|s| vec![s]),
        [other, ..] => Err(anyhow::anyhow!(
            "unknown command `{other}`; the commands are position, play, level, go, legal, status, quit"
        )),
    };
    said.unwrap_or_else(|e| vec![format!("error {}", format!("{e:#}").replace('\n', " "))])
}

/// `[seed S] [moves ID …]`.
fn position_words(words: &[&str]) -> anyhow::Result<(u64, Vec<String>)> {
    let (seed, rest) = match words {
        ["seed", seed, rest @ ..] => (
            seed.parse::<u64>()
                .with_context(|| format!("`{seed}` is not a seed (a whole number)"))?,
            rest,
        ),
        rest => (1, rest),
    };
    let moves = match rest {
        [] => Vec::new(),
        ["moves", ids @ ..] => ids.iter().map(|s| s.to_string()).collect(),
        [other, ..] => bail!("`{other}` after position: expected `seed S` then `moves ID …`"),
    };
    Ok((seed, moves))
}
