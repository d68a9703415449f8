//! Many games through a plugin, to find rule bugs, measure speed, and weigh a house rule's
//! balance with bots (the rules lab).
//!
//! Random games are played out inside the plugin in one call (`playout`), so a simulation pays
//! the sandbox boundary once per game. Games with bots at their seats ([`SimulationConfig::seats`])
//! are played move by move, each bot move chosen by [`crate::bot`]. Games are spread over
//! threads, each with its own instance.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use serde::Serialize;
use veillee_sdk::{GameRng, Handle, OptionValue, Outcome, PlayoutResult, Seat, Setup, Text};

use crate::bot::{self, BotMove, BotTurn, Searched};
use crate::engine::{EngineError, GameEngine};
use crate::plugin::Plugin;
use crate::session::{SessionError, Sessions};
use crate::store::model::{BotLevel, SeatPlayer, VariantScript};

/// What to simulate.
#[derive(Clone, Debug)]
pub struct SimulationConfig {
    /// Number of games.
    pub games: u32,
    /// Game `i` is set up with seed `seed + i`.
    pub seed: u64,
    /// Players per game.
    pub players: u8,
    /// A game still running after this many moves counts as an error.
    pub max_moves: u32,
    /// Worker threads.
    pub threads: usize,
    /// The game's options (checked against its manifest by `Setup::resolved` when a game is
    /// created); missing ones take their default.
    pub options: BTreeMap<String, OptionValue>,
    /// The bot at each seat. Empty: random moves at every seat, played inside the plugin.
    pub seats: Vec<BotLevel>,
}

impl SimulationConfig {
    /// The set-up of the game played with `seed`.
    fn setup(&self, seed: u64) -> Setup {
        let mut setup = Setup::new(self.players, seed);
        setup.options = self.options.clone();
        setup
    }
}

/// Figures of a simulation.
#[derive(Clone, Debug, Default, Serialize)]
pub struct SimulationReport {
    /// Game id.
    pub game: String,
    /// Players per game.
    pub players: u8,
    /// Games played.
    pub games: u32,
    /// Wins per seat.
    pub wins: Vec<u32>,
    /// Games drawn.
    pub draws: u32,
    /// Games still going after `max_moves` moves (counted apart from the errors when bots
    /// play: a game the bots cannot finish is a figure, not a failure).
    pub capped: u32,
    /// Games that failed: plugin errors, stuck games, random games that did not end.
    pub errors: u32,
    /// The first few errors, in words.
    pub error_samples: Vec<String>,
    /// Moves played in all.
    pub total_moves: u64,
    /// Mean moves per finished game.
    pub mean_length: f64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Moves per second over all threads.
    pub moves_per_second: f64,
    /// Per seat: its bot, wins with their confidence interval, think time (filled when bots
    /// play, see [`simulate_bots`]).
    pub seats: Vec<SeatFigures>,
    /// How the finished games ended: the outcome's reason (in English) and how often.
    pub endings: BTreeMap<String, u32>,
    /// Every game, by seed: how it ended, to find a game again (`--seed SEED --games 1
    /// --save`) and to tell which games make a figure (a draw at a safety net, a cap).
    pub each_game: Vec<GameRecord>,
    /// Moves of the games that finished (for `mean_length`).
    #[serde(skip)]
    finished_moves: u64,
}

/// One game of a simulation.
#[derive(Clone, Debug, Serialize)]
pub struct GameRecord {
    /// The game's seed (`seed + index`).
    pub seed: u64,
    /// Moves played.
    pub moves: u32,
    /// How it ended.
    pub ended: GameEnd,
    /// Winning seats (none for a draw, a cap or a failure).
    pub winners: Vec<Seat>,
    /// The outcome's reason in English, or why the game failed; empty for a cap.
    pub reason: String,
    /// The saved session's id, when the games were saved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<u64>,
}

/// How one game of a simulation ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GameEnd {
    /// By the rules, with at least one winner.
    Won,
    /// By the rules, without a winner (a safety net's draw is one: see `reason`).
    Drawn,
    /// Still going at the move cap (bots' games only).
    Capped,
    /// A plugin error, a stuck game, a random game that did not end.
    Failed,
}

/// One seat's figures in a simulation with bots.
#[derive(Clone, Debug, Default, Serialize)]
pub struct SeatFigures {
    /// The seat's bot (`normal`).
    pub level: String,
    /// Games won (a shared win counts for each winner).
    pub wins: u32,
    /// Wins over games played.
    pub win_rate: f64,
    /// The 95 % confidence interval of the win rate (Wilson score interval).
    pub interval: [f64; 2],
    /// Moves this seat played.
    pub moves: u64,
    /// Of those, moves searched inside the plugin (`veillee_search`).
    pub searched_in_plugin: u64,
    /// Of those, moves searched through the engine, scripts in force.
    pub searched_through_engine: u64,
    /// Mean think time of a move, in seconds (forced and random moves included).
    pub seconds_mean: f64,
    /// 95th percentile of the think time of a move, in seconds.
    pub seconds_p95: f64,
    /// Longest think time of a move, in seconds.
    pub seconds_max: f64,
    #[serde(skip)]
    times: Vec<f64>,
}

impl SeatFigures {
    /// The think time of each of this seat's moves, in seconds, shortest first (once the
    /// report is complete).
    pub fn times(&self) -> &[f64] {
        &self.times
    }
}

/// The Wilson score interval of `successes` out of `trials` at 95 % (z = 1.96): unlike the
/// normal approximation it stays inside [0, 1] and is sound near 0 % and 100 %.
pub fn wilson_interval(successes: u32, trials: u32) -> [f64; 2] {
    if trials == 0 {
        return [0.0, 1.0];
    }
    let z = 1.959_963_984_540_054_f64;
    let n = f64::from(trials);
    let p = f64::from(successes) / n;
    let denominator = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denominator;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denominator;
    [(centre - half).max(0.0), (centre + half).min(1.0)]
}

/// Plays `config.games` random games. `progress` is called after each game.
pub fn simulate(
    plugin: &Plugin,
    config: &SimulationConfig,
    progress: &(dyn Fn() + Sync),
) -> Result<SimulationReport, EngineError> {
    let manifest = plugin.manifest().clone();
    let next = AtomicU32::new(0);
    let results = Mutex::new(Vec::with_capacity(config.games as usize));
    let started = Instant::now();
    let threads = config.threads.clamp(1, config.games.max(1) as usize);
    let engines = (0..threads)
        .map(|_| plugin.duplicate())
        .collect::<Result<Vec<_>, _>>()?;
    std::thread::scope(|scope| {
        for mut engine in engines {
            let (next, results) = (&next, &results);
            scope.spawn(move || loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= config.games {
                    break;
                }
                let result = play_one(&mut engine, config, index);
                results
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push((index, result));
                progress();
            });
        }
    });
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.sort_by_key(|(index, _)| *index);
    let mut report = SimulationReport::new(manifest.id, config.players);
    for (index, result) in results {
        let seed = config.seed.wrapping_add(index as u64);
        match result {
            Ok(PlayoutResult {
                moves,
                outcome: Some(outcome),
                ..
            }) => report.record_finished(seed, moves, &outcome),
            Ok(PlayoutResult { moves, stuck, .. }) => {
                let why = if stuck {
                    "a seat to act had no legal move"
                } else {
                    "the game did not end"
                };
                let why = format!("seed {seed}: {why} after {moves} moves");
                report.record_failed(seed, moves, why);
            }
            Err(e) => report.record_failed(seed, 0, format!("seed {seed}: {e}")),
        }
    }
    report.close(started);
    Ok(report)
}

impl SimulationReport {
    fn new(game: String, players: u8) -> Self {
        SimulationReport {
            game,
            players,
            wins: vec![0; players as usize],
            ..SimulationReport::default()
        }
    }

    /// A report with a figure line per seat, for games played by `seats`.
    fn with_seats(game: String, players: u8, seats: &[BotLevel]) -> Self {
        let mut report = SimulationReport::new(game, players);
        report.seats = seats
            .iter()
            .map(|level| SeatFigures {
                level: level.as_str().to_string(),
                ..SeatFigures::default()
            })
            .collect();
        report
    }

    /// Counts a game that ended with `outcome` after `moves` moves.
    fn record_finished(&mut self, seed: u64, moves: u32, outcome: &Outcome) {
        self.each_game.push(GameRecord {
            seed,
            moves,
            ended: match outcome.is_draw() {
                true => GameEnd::Drawn,
                false => GameEnd::Won,
            },
            winners: outcome.winners.clone(),
            reason: bounded(&outcome.reason.en),
            session: None,
        });
        self.games += 1;
        self.total_moves += moves as u64;
        self.finished_moves += moves as u64;
        if outcome.is_draw() {
            self.draws += 1;
        }
        *self.endings.entry(bounded(&outcome.reason.en)).or_default() += 1;
        for &winner in &outcome.winners {
            if let Some(w) = self.wins.get_mut(winner as usize) {
                *w += 1;
            }
        }
    }

    /// Counts a game that bots played to the move cap.
    fn record_capped(&mut self, seed: u64, moves: u32) {
        self.each_game.push(GameRecord {
            seed,
            moves,
            ended: GameEnd::Capped,
            winners: Vec::new(),
            reason: String::new(),
            session: None,
        });
        self.games += 1;
        self.total_moves += moves as u64;
        self.capped += 1;
    }

    /// Adds one game's bot moves, seat by seat.
    fn record_thoughts(&mut self, thoughts: &[(usize, BotMove)]) {
        for (seat, thought) in thoughts {
            let Some(figures) = self.seats.get_mut(*seat) else {
                continue;
            };
            figures.moves += 1;
            match thought.searched {
                Searched::Plugin => figures.searched_in_plugin += 1,
                Searched::Engine => figures.searched_through_engine += 1,
                Searched::Random | Searched::Forced => {}
            }
            figures.times.push(thought.seconds);
        }
    }

    /// Counts a game that failed after `moves` moves, keeping the first few reasons.
    fn record_failed(&mut self, seed: u64, moves: u32, error: String) {
        self.each_game.push(GameRecord {
            seed,
            moves,
            ended: GameEnd::Failed,
            winners: Vec::new(),
            reason: bounded(&error),
            session: None,
        });
        self.games += 1;
        self.total_moves += moves as u64;
        self.errors += 1;
        if self.error_samples.len() < 10 {
            self.error_samples.push(error);
        }
    }

    /// Fills in the averages once every game is counted.
    fn close(&mut self, started: Instant) {
        let finished = self.games - self.errors - self.capped;
        self.mean_length = if finished > 0 {
            self.finished_moves as f64 / finished as f64
        } else {
            0.0
        };
        self.seconds = started.elapsed().as_secs_f64();
        self.moves_per_second = self.total_moves as f64 / self.seconds.max(1e-9);
        let games = self.games;
        for (seat, figures) in self.seats.iter_mut().enumerate() {
            figures.wins = self.wins.get(seat).copied().unwrap_or(0);
            figures.win_rate = f64::from(figures.wins) / f64::from(games.max(1));
            figures.interval = wilson_interval(figures.wins, games);
            let times = &mut figures.times;
            times.sort_by(f64::total_cmp);
            if let Some(&max) = times.last() {
                figures.seconds_max = max;
                figures.seconds_mean = times.iter().sum::<f64>() / times.len() as f64;
                figures.seconds_p95 = percentile(times, 0.95);
            }
        }
    }
}

/// Most characters of a reason a report keeps per game: a plugin's outcome text may be as
/// long as an answer (megabytes), and a report keeps one per game and per ending.
const REASON_CHARS: usize = 240;

/// `reason`, cut to [`REASON_CHARS`] characters (marked with « … » when cut).
fn bounded(reason: &str) -> String {
    match reason.char_indices().nth(REASON_CHARS) {
        None => reason.to_string(),
        Some((at, _)) => format!("{}…", &reason[..at]),
    }
}

/// The `p` percentile (0–1) of sorted, non-empty `times`: the smallest value at least that
/// share of them do not exceed.
pub fn percentile(times: &[f64], p: f64) -> f64 {
    let at = ((times.len() as f64 * p).ceil() as usize).clamp(1, times.len());
    times[at - 1]
}

/// The seed of a simulated game's random choices: derived from, not equal to, the game's
/// seed, so that they are independent of the game's own chance draws.
fn chooser_seed(game_seed: u64) -> u64 {
    game_seed.rotate_left(17) ^ 0x9e37_79b9_7f4a_7c15
}

fn play_one(
    engine: &mut Plugin,
    config: &SimulationConfig,
    index: u32,
) -> Result<PlayoutResult, EngineError> {
    let seed = config.seed.wrapping_add(index as u64);
    let game = engine.create(&config.setup(seed))?;
    let result = engine.playout(game, chooser_seed(seed), config.max_moves);
    engine.drop_game(game);
    result
}

/// Like [`simulate`], but every game is played move by move through the host: needed when
/// house rules run (their hooks live in the host) and when every game is to be saved as a
/// session (`sessions`: bots at every seat, each move written durably, so slower).
pub fn simulate_stepwise(
    engine: &mut dyn GameEngine,
    config: &SimulationConfig,
    sessions: Option<(&Sessions, &[VariantScript])>,
    progress: &(dyn Fn() + Sync),
) -> Result<SimulationReport, SessionError> {
    let started = Instant::now();
    let game = engine.manifest().id.clone();
    let mut report = SimulationReport::with_seats(game, config.players, &config.seats);
    for index in 0..config.games {
        let ((moves, ended, thoughts), session) = play_stepwise(engine, config, index, sessions)?;
        report.record_thoughts(&thoughts);
        ended.record(&mut report, config.seed.wrapping_add(index as u64), moves);
        if let Some(game) = report.each_game.last_mut() {
            game.session = session;
        }
        progress();
    }
    report.close(started);
    Ok(report)
}

/// Games without sessions through any engine (house rules included), spread over
/// `config.threads` threads, each with its own engine from `make_engine` (an engine lives on
/// the thread that made it). Each game is one `playout`: a `VariantEngine` plays inside the
/// plugin between the moves its scripts watch. A game whose engine fails counts as an error;
/// an engine that cannot be made stops the run.
pub fn simulate_stepwise_threads(
    make_engine: &(dyn Fn() -> Result<Box<dyn GameEngine>, String> + Sync),
    config: &SimulationConfig,
    progress: &(dyn Fn() + Sync),
) -> Result<SimulationReport, String> {
    on_threads(make_engine, config, progress, &play_out)
}

/// The rules lab: games with a bot at every seat ([`SimulationConfig::seats`]), played move by
/// move (each bot move chosen by [`bot::choose`], a move a house rule refuses dropped), spread
/// over threads with an engine each as [`simulate_stepwise_threads`]. The report has a figure
/// line per seat: wins with their 95 % interval, think time per move.
pub fn simulate_bots(
    make_engine: &(dyn Fn() -> Result<Box<dyn GameEngine>, String> + Sync),
    config: &SimulationConfig,
    progress: &(dyn Fn() + Sync),
) -> Result<SimulationReport, String> {
    on_threads(make_engine, config, progress, &play_bots)
}

/// One game played: its length, how it ended, and the bots' moves (seat, decision).
type Played = (u32, Ended, Vec<(usize, BotMove)>);

/// How one game of a simulation is played: by an engine, of a configuration, by its index.
type PlayOne =
    dyn Fn(&mut dyn GameEngine, &SimulationConfig, u32) -> Result<Played, EngineError> + Sync;

/// Runs `play` for every game of `config` on `config.threads` threads, an engine each.
fn on_threads(
    make_engine: &(dyn Fn() -> Result<Box<dyn GameEngine>, String> + Sync),
    config: &SimulationConfig,
    progress: &(dyn Fn() + Sync),
    play: &PlayOne,
) -> Result<SimulationReport, String> {
    let started = Instant::now();
    let next = AtomicU32::new(0);
    let results = Mutex::new(Vec::with_capacity(config.games as usize));
    let unmade = Mutex::new(None::<String>);
    let mut game_id = None;
    let threads = config.threads.clamp(1, config.games.max(1) as usize);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                let (next, results, unmade) = (&next, &results, &unmade);
                scope.spawn(move || {
                    let mut engine = match make_engine() {
                        Ok(engine) => engine,
                        Err(why) => {
                            *unmade.lock().unwrap_or_else(|e| e.into_inner()) = Some(why);
                            return None;
                        }
                    };
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        if index >= config.games {
                            break;
                        }
                        let result = play(&mut *engine, config, index).map_err(|e| e.to_string());
                        results
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .push((index, result));
                        progress();
                    }
                    Some(engine.manifest().id.clone())
                })
            })
            .collect();
        for handle in handles {
            if let Ok(Some(id)) = handle.join() {
                game_id = Some(id);
            }
        }
    });
    if let Some(why) = unmade.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(why);
    }
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.sort_by_key(|(index, _)| *index);
    let game = game_id.unwrap_or_default();
    let mut report = SimulationReport::with_seats(game, config.players, &config.seats);
    for (index, result) in results {
        let seed = config.seed.wrapping_add(index as u64);
        match result {
            Ok((moves, ended, thoughts)) => {
                report.record_thoughts(&thoughts);
                ended.record(&mut report, seed, moves);
            }
            Err(why) => report.record_failed(seed, 0, format!("seed {seed}: {why}")),
        }
    }
    report.close(started);
    Ok(report)
}

/// Creates game `index` of `config`, plays it with `play` and drops it; a game whose script
/// was switched off counts as failed (the simulation is about the game as written).
fn one_game(
    engine: &mut dyn GameEngine,
    config: &SimulationConfig,
    index: u32,
    play: impl FnOnce(&mut dyn GameEngine, Handle, u64) -> Result<Played, EngineError>,
) -> Result<Played, EngineError> {
    let seed = config.seed.wrapping_add(index as u64);
    let game = engine.create(&config.setup(seed))?;
    let played = play(engine, game, seed);
    let failed = engine.failed_scripts(game);
    let stopped = engine.stopped(game);
    engine.drop_game(game);
    let (moves, ended, thoughts) = played?;
    Ok((moves, ended.unless_failed(seed, &failed, stopped), thoughts))
}

/// Plays game `index` of `config` out with the engine's `playout` (house rules play most
/// moves inside the plugin, see `VariantEngine`).
fn play_out(
    engine: &mut dyn GameEngine,
    config: &SimulationConfig,
    index: u32,
) -> Result<Played, EngineError> {
    one_game(engine, config, index, |engine, game, seed| {
        let result = engine.playout(game, chooser_seed(seed), config.max_moves)?;
        let moves = result.moves;
        let ended = match result.outcome {
            Some(outcome) => Ended::Finished(outcome),
            None if result.stuck => Ended::Failed(format!(
                "seed {seed}: after {moves} moves a seat to act had no legal move"
            )),
            None => Ended::Failed(format!(
                "seed {seed}: the game did not end after {moves} moves"
            )),
        };
        Ok((moves, ended, Vec::new()))
    })
}

/// Plays game `index` of `config` with its bots, move by move.
fn play_bots(
    engine: &mut dyn GameEngine,
    config: &SimulationConfig,
    index: u32,
) -> Result<Played, EngineError> {
    one_game(engine, config, index, |engine, game, seed| {
        let mut thoughts = Vec::new();
        let (moves, ended) = bot_game(engine, game, config, seed, &mut thoughts)?;
        Ok((moves, ended, thoughts))
    })
}

/// The moves of one game played by `config`'s bots.
fn bot_game(
    engine: &mut dyn GameEngine,
    game: Handle,
    config: &SimulationConfig,
    seed: u64,
    thoughts: &mut Vec<(usize, BotMove)>,
) -> Result<(u32, Ended), EngineError> {
    let mut chooser = GameRng::new(chooser_seed(seed));
    let mut moves = 0u32;
    loop {
        let status = engine.status(game)?;
        if let Some(outcome) = status.outcome() {
            return Ok((moves, Ended::Finished(outcome.clone())));
        }
        if moves >= config.max_moves {
            return Ok((moves, Ended::Capped));
        }
        let Some(&seat) = chooser.pick(status.seats()) else {
            return Ok((moves, no_one_to_act(seed, moves)));
        };
        let level = config.level(seat);
        let decision = bot::decision_seed(seed, moves, seat);
        match bot::play_move(engine, game, seat, config.players, level, decision)? {
            BotTurn::Played { thought, .. } => thoughts.push((usize::from(seat), thought)),
            BotTurn::Stuck { refused } => {
                return Ok((moves, stuck(seed, moves, seat, refused.len())));
            }
        }
        moves += 1;
    }
}

fn no_one_to_act(seed: u64, moves: u32) -> Ended {
    Ended::Failed(format!(
        "seed {seed}: after {moves} moves the game goes on but no seat is to act"
    ))
}

fn stuck(seed: u64, moves: u32, seat: Seat, refused: usize) -> Ended {
    Ended::Failed(if refused == 0 {
        format!("seed {seed}: after {moves} moves seat {seat} is to act but has no legal move")
    } else {
        format!(
            "seed {seed}: after {moves} moves the house rules refused all {refused} moves of seat {seat}"
        )
    })
}

/// How a game played move by move ended.
enum Ended {
    Finished(Outcome),
    /// Still going at the move cap.
    Capped,
    Failed(String),
}

impl Ended {
    fn record(self, report: &mut SimulationReport, seed: u64, moves: u32) {
        match self {
            Ended::Finished(outcome) => report.record_finished(seed, moves, &outcome),
            Ended::Capped => report.record_capped(seed, moves),
            Ended::Failed(why) => report.record_failed(seed, moves, why),
        }
    }

    /// A game a script stopped at a bound, or whose script was switched off, failed: the
    /// simulation is about the game as written.
    fn unless_failed(self, seed: u64, failed: &[String], stopped: Option<Text>) -> Ended {
        if let Some(why) = stopped {
            return Ended::Failed(format!("seed {seed}: {}", why.en));
        }
        match self {
            Ended::Finished(_) | Ended::Capped if !failed.is_empty() => Ended::Failed(format!(
                "seed {seed}: script switched off: {}",
                failed.join("; ")
            )),
            other => other,
        }
    }
}

impl SimulationConfig {
    /// The bot at `seat` (random where none is named).
    fn level(&self, seat: Seat) -> BotLevel {
        self.seats
            .get(usize::from(seat))
            .copied()
            .unwrap_or(BotLevel::Random)
    }
}

/// Plays game `index` of `config` move by move (saved as a session when `sessions` is
/// given), each move chosen by the seat's bot (random where the config names none); returns
/// its length, how it ended and the bots' moves, and the saved session's id.
fn play_stepwise(
    engine: &mut dyn GameEngine,
    config: &SimulationConfig,
    index: u32,
    sessions: Option<(&Sessions, &[VariantScript])>,
) -> Result<(Played, Option<u64>), SessionError> {
    let seed = config.seed.wrapping_add(index as u64);
    let setup = config.setup(seed);
    let mut chooser = GameRng::new(chooser_seed(seed));
    let mut live = match sessions {
        Some((sessions, variants)) => {
            let seats: Vec<SeatPlayer> = (0..config.players)
                .map(|s| SeatPlayer::bot(format!("Bot {}", s + 1), config.level(s)))
                .collect();
            Some(sessions.start_with_variants(engine, seats, setup.clone(), variants.to_vec())?)
        }
        None => None,
    };
    let game = match &live {
        Some(live) => live.game,
        None => engine.create(&setup)?,
    };
    let mut moves = 0u32;
    let mut thoughts = Vec::new();
    let stopped = loop {
        let status = engine.status(game)?;
        if let Some(outcome) = status.outcome() {
            break Ended::Finished(outcome.clone());
        }
        if moves >= config.max_moves {
            break match config.seats.is_empty() {
                true => Ended::Failed(format!(
                    "seed {seed}: the game did not end after {moves} moves"
                )),
                false => Ended::Capped,
            };
        }
        // Engines that are not sandboxed plugins (native builds, house rules) are checked
        // here too: a game that goes on with no one to act, or a seat with no move, stops.
        let Some(&seat) = chooser.pick(status.seats()) else {
            break no_one_to_act(seed, moves);
        };
        let level = config.level(seat);
        let turn = match (&mut live, sessions) {
            (Some(live), Some((sessions, _))) => {
                bot::play_turn(sessions, engine, live, seat, level, &|| {
                    serde_json::Value::Null
                })?
            }
            _ => {
                let decision = bot::decision_seed(seed, moves, seat);
                bot::play_move(engine, game, seat, config.players, level, decision)?
            }
        };
        match turn {
            BotTurn::Played { thought, .. } => thoughts.push((usize::from(seat), thought)),
            BotTurn::Stuck { refused } => break stuck(seed, moves, seat, refused.len()),
        }
        moves += 1;
    };
    let failed = engine.failed_scripts(game);
    let by_rules = engine.stopped(game);
    engine.drop_game(game);
    let played = (
        moves,
        stopped.unless_failed(seed, &failed, by_rules),
        thoughts,
    );
    Ok((played, live.map(|live| live.meta.id)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use veillee_sdk::Text;

    /// A plugin may end every game with a reason as long as an answer may be (megabytes): a
    /// report of many games must not keep it whole for each.
    #[test]
    fn a_plugins_overlong_reason_is_kept_cut_per_game_and_per_ending() {
        let endless = "é".repeat(1 << 20);
        let mut report = SimulationReport::new("hostile".into(), 2);
        for seed in 0..3 {
            report.record_finished(seed, 10, &Outcome::win(0, Text::new("", endless.clone())));
        }
        report.record_failed(3, 0, format!("seed 3: {endless}"));
        for game in &report.each_game {
            assert_eq!(
                game.reason.chars().count(),
                REASON_CHARS + 1,
                "cut, then « … »"
            );
            assert!(game.reason.ends_with('…'));
        }
        assert_eq!(report.endings.len(), 1);
        assert_eq!(report.endings.values().sum::<u32>(), 3);
        // A reason of an ordinary length is kept as it is.
        report.record_finished(4, 10, &Outcome::draw(Text::new("", "nobody can move")));
        assert_eq!(report.each_game[4].reason, "nobody can move");
        assert_eq!(report.endings["nobody can move"], 1);
    }
}
