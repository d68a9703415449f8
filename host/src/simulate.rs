//! Many random games through a plugin, to find rule bugs and measure speed.
//!
//! Each game is played out inside the plugin in one call (`playout`), so a simulation pays the
//! sandbox boundary once per game. Games are spread over threads, each with its own instance.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use serde::Serialize;
use veillee_sdk::{PlayoutResult, Setup};

use crate::engine::{EngineError, GameEngine};
use crate::plugin::Plugin;
use crate::session::{SessionError, Sessions};
use crate::store::model::{PlayerKind, SeatPlayer, VariantScript};
use veillee_sdk::GameRng;

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
    let mut report = SimulationReport {
        game: manifest.id,
        players: config.players,
        wins: vec![0; config.players as usize],
        ..SimulationReport::default()
    };
    let mut finished_moves = 0u64;
    for (index, result) in results {
        report.games += 1;
        let seed = config.seed.wrapping_add(index as u64);
        match result {
            Ok(PlayoutResult {
                moves,
                outcome: Some(outcome),
                ..
            }) => {
                report.total_moves += moves as u64;
                finished_moves += moves as u64;
                if outcome.is_draw() {
                    report.draws += 1;
                }
                for winner in outcome.winners {
                    if let Some(w) = report.wins.get_mut(winner as usize) {
                        *w += 1;
                    }
                }
            }
            Ok(PlayoutResult { moves, stuck, .. }) => {
                report.total_moves += moves as u64;
                let why = if stuck {
                    "a seat to act had no legal move"
                } else {
                    "the game did not end"
                };
                report.record_error(format!("seed {seed}: {why} after {moves} moves"));
            }
            Err(e) => report.record_error(format!("seed {seed}: {e}")),
        }
    }
    let finished = report.games - report.errors;
    report.mean_length = if finished > 0 {
        finished_moves as f64 / finished as f64
    } else {
        0.0
    };
    report.seconds = started.elapsed().as_secs_f64();
    report.moves_per_second = report.total_moves as f64 / report.seconds.max(1e-9);
    Ok(report)
}

impl SimulationReport {
    fn record_error(&mut self, error: String) {
        self.errors += 1;
        if self.error_samples.len() < 10 {
            self.error_samples.push(error);
        }
    }
}

fn play_one(
    engine: &mut Plugin,
    config: &SimulationConfig,
    index: u32,
) -> Result<PlayoutResult, EngineError> {
    let seed = config.seed.wrapping_add(index as u64);
    let game = engine.create(&Setup::new(config.players, seed))?;
    // The playout's own random choices come from a seed derived from, not equal to, the
    // game's seed, so that they are independent of the game's chance draws.
    let result = engine.playout(
        game,
        seed.rotate_left(17) ^ 0x9e37_79b9_7f4a_7c15,
        config.max_moves,
    );
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
    let mut report = SimulationReport {
        game: engine.manifest().id.clone(),
        players: config.players,
        wins: vec![0; config.players as usize],
        ..SimulationReport::default()
    };
    let seats: Vec<SeatPlayer> = (0..config.players)
        .map(|s| SeatPlayer {
            name: format!("Bot {}", s + 1),
            kind: PlayerKind::Bot,
        })
        .collect();
    let mut finished_moves = 0;
    for index in 0..config.games {
        let seed = config.seed.wrapping_add(index as u64);
        let setup = Setup::new(config.players, seed);
        let mut chooser = GameRng::new(seed.rotate_left(17) ^ 0x9e37_79b9_7f4a_7c15);
        let mut live = match sessions {
            Some((sessions, variants)) => Some(sessions.start_with_variants(
                engine,
                seats.clone(),
                setup.clone(),
                variants.to_vec(),
            )?),
            None => None,
        };
        let game = match &live {
            Some(live) => live.game,
            None => engine.create(&setup)?,
        };
        let mut moves = 0u32;
        let outcome = loop {
            let status = engine.status(game)?;
            if let Some(outcome) = status.outcome() {
                break Some(outcome.clone());
            }
            if moves >= config.max_moves {
                break None;
            }
            let seat = status.seats()[chooser.below(status.seats().len())];
            let actions = engine.legal_actions(game, seat)?;
            let Some(action) = chooser.pick(&actions) else {
                break None;
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
        engine.drop_game(game);
        report.games += 1;
        report.total_moves += moves as u64;
        match outcome {
            Some(outcome) => {
                finished_moves += moves as u64;
                if outcome.is_draw() {
                    report.draws += 1;
                }
                for winner in outcome.winners {
                    if let Some(w) = report.wins.get_mut(winner as usize) {
                        *w += 1;
                    }
                }
            }
            None => report.record_error(format!(
                "seed {seed}: the game did not end after {moves} moves"
            )),
        }
        progress();
    }
    let finished = report.games - report.errors;
    report.mean_length = if finished > 0 {
        finished_moves as f64 / finished as f64
    } else {
        0.0
    };
    report.seconds = started.elapsed().as_secs_f64();
    report.moves_per_second = report.total_moves as f64 / report.seconds.max(1e-9);
    Ok(report)
}
