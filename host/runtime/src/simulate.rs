//! Many random games through a plugin, to find rule bugs and measure speed.
//!
//! Each game is played out inside the plugin in one call (`playout`), so a simulation pays the
//! sandbox boundary once per game. Games are spread over threads, each with its own instance.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use serde::Serialize;
use veillee_sdk::{GameRng, OptionValue, Outcome, PlayoutResult, Setup};

use crate::engine::{EngineError, GameEngine};
use crate::plugin::Plugin;
use crate::session::{SessionError, Sessions};
use crate::store::model::{PlayerKind, SeatPlayer, VariantScript};

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
    /// Games that failed: plugin errors, stuck games, games that did not end.
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
    /// Moves of the games that finished (for `mean_length`).
    #[serde(skip)]
    finished_moves: u64,
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
            }) => report.record_finished(moves, &outcome),
            Ok(PlayoutResult { moves, stuck, .. }) => {
                let why = if stuck {
                    "a seat to act had no legal move"
                } else {
                    "the game did not end"
                };
                report.record_failed(moves, format!("seed {seed}: {why} after {moves} moves"));
            }
            Err(e) => report.record_failed(0, format!("seed {seed}: {e}")),
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

    /// Counts a game that ended with `outcome` after `moves` moves.
    fn record_finished(&mut self, moves: u32, outcome: &Outcome) {
        self.games += 1;
        self.total_moves += moves as u64;
        self.finished_moves += moves as u64;
        if outcome.is_draw() {
            self.draws += 1;
        }
        for &winner in &outcome.winners {
            if let Some(w) = self.wins.get_mut(winner as usize) {
                *w += 1;
            }
        }
    }

    /// Counts a game that failed after `moves` moves, keeping the first few reasons.
    fn record_failed(&mut self, moves: u32, error: String) {
        self.games += 1;
        self.total_moves += moves as u64;
        self.errors += 1;
        if self.error_samples.len() < 10 {
            self.error_samples.push(error);
        }
    }

    /// Fills in the averages once every game is counted.
    fn close(&mut self, started: Instant) {
        let finished = self.games - self.errors;
        self.mean_length = if finished > 0 {
            self.finished_moves as f64 / finished as f64
        } else {
            0.0
        };
        self.seconds = started.elapsed().as_secs_f64();
        self.moves_per_second = self.total_moves as f64 / self.seconds.max(1e-9);
    }
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
    let mut report = SimulationReport::new(engine.manifest().id.clone(), config.players);
    for index in 0..config.games {
        let (moves, ended) = play_stepwise(engine, config, index, sessions)?;
        ended.record(&mut report, moves);
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
                        let result =
                            play_out(&mut *engine, config, index).map_err(|e| e.to_string());
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
    let mut report = SimulationReport::new(game_id.unwrap_or_default(), config.players);
    for (index, result) in results {
        match result {
            Ok((moves, ended)) => ended.record(&mut report, moves),
            Err(why) => {
                let seed = config.seed.wrapping_add(index as u64);
                report.record_failed(0, format!("seed {seed}: {why}"));
            }
        }
    }
    report.close(started);
    Ok(report)
}

/// Plays game `index` of `config` out with the engine's `playout` (house rules play most
/// moves inside the plugin, see `VariantEngine`), then counts a game whose script was switched
/// off as failed.
fn play_out(
    engine: &mut dyn GameEngine,
    config: &SimulationConfig,
    index: u32,
) -> Result<(u32, Ended), EngineError> {
    let seed = config.seed.wrapping_add(index as u64);
    let game = engine.create(&config.setup(seed))?;
    let result = engine.playout(game, chooser_seed(seed), config.max_moves);
    let failed = engine.failed_scripts(game);
    engine.drop_game(game);
    let result = result?;
    let ended = match result.outcome {
        _ if !failed.is_empty() => Ended::Failed(format!(
            "seed {seed}: script switched off: {}",
            failed.join("; ")
        )),
        Some(outcome) => Ended::Finished(outcome),
        None if result.stuck => Ended::Failed(format!(
            "seed {seed}: after {} moves a seat to act had no legal move",
            result.moves
        )),
        None => Ended::Failed(format!(
            "seed {seed}: the game did not end after {} moves",
            result.moves
        )),
    };
    Ok((result.moves, ended))
}

/// How a game played move by move ended.
enum Ended {
    Finished(Outcome),
    Failed(String),
}

impl Ended {
    fn record(self, report: &mut SimulationReport, moves: u32) {
        match self {
            Ended::Finished(outcome) => report.record_finished(moves, &outcome),
            Ended::Failed(why) => report.record_failed(moves, why),
        }
    }
}

/// Plays game `index` of `config` move by move (saved as a session when `sessions` is
/// given); returns its length and how it ended.
fn play_stepwise(
    engine: &mut dyn GameEngine,
    config: &SimulationConfig,
    index: u32,
    sessions: Option<(&Sessions, &[VariantScript])>,
) -> Result<(u32, Ended), SessionError> {
    let seed = config.seed.wrapping_add(index as u64);
    let setup = config.setup(seed);
    let mut chooser = GameRng::new(chooser_seed(seed));
    let mut live = match sessions {
        Some((sessions, variants)) => {
            let seats: Vec<SeatPlayer> = (0..config.players)
                .map(|s| SeatPlayer {
                    name: format!("Bot {}", s + 1),
                    kind: PlayerKind::Bot,
                })
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
    let stopped = loop {
        let status = engine.status(game)?;
        if let Some(outcome) = status.outcome() {
            break Ended::Finished(outcome.clone());
        }
        if moves >= config.max_moves {
            break Ended::Failed(format!(
                "seed {seed}: the game did not end after {moves} moves"
            ));
        }
        // Engines that are not sandboxed plugins (native builds, house rules) are checked
        // here too: a game that goes on with no one to act, or a seat with no move, stops.
        let Some(&seat) = chooser.pick(status.seats()) else {
            break Ended::Failed(format!(
                "seed {seed}: after {moves} moves the game goes on but no seat is to act"
            ));
        };
        let actions = engine.legal_actions(game, seat)?;
        let Some(action) = chooser.pick(&actions) else {
            break Ended::Failed(format!(
                "seed {seed}: after {moves} moves seat {seat} is to act but has no legal move"
            ));
        };
        let id = action.id.clone();
        match (&mut live, sessions) {
            (Some(live), Some((sessions, _))) => {
                sessions.apply(engine, live, seat, &id, serde_json::Value::Null)?;
            }
            _ => {
                engine.apply(game, seat, &id)?;
            }
        }
        moves += 1;
    };
    let failed = engine.failed_scripts(game);
    engine.drop_game(game);
    let ended = match stopped {
        // A script that failed was switched off: the game went on without it, but the
        // simulation is about the game as written.
        Ended::Finished(_) if !failed.is_empty() => Ended::Failed(format!(
            "seed {seed}: script switched off: {}",
            failed.join("; ")
        )),
        other => other,
    };
    Ok((moves, ended))
}
