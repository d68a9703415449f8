//! The thinker: a bot's search runs on its own thread, with its own engine, so that the worker
//! stays free to answer the window (undo, back, quit) while a bot thinks.
//!
//! The worker hands it a copy of the game (its saved bytes, scripts' state included) and gets
//! the decision back as a [`Request::Thought`] in its own inbox. A decision that arrives for a
//! game that changed meanwhile (an undo, a new game) is dropped by the worker: that is how a
//! search is cancelled. The thinker finishes the search it is in (a second or so at `normal`)
//! and ends when the worker drops it.

use std::sync::mpsc::{channel, Sender};

use veillee_sdk::Seat;

use super::worker::Request;
use veillee_runtime::bot::{self, BotMove};
use veillee_runtime::engine::GameEngine;
use veillee_runtime::plugin::Plugin;
use veillee_runtime::store::model::{BotLevel, VariantScript};
use veillee_runtime::variants::{Script, VariantEngine, VariantLimits};

/// What a bot is asked to think about.
#[derive(Debug)]
pub struct Job {
    /// Which decision this is (the worker's count).
    pub generation: u64,
    /// The game as saved by the worker's engine.
    pub state: Vec<u8>,
    /// The bot's seat.
    pub seat: Seat,
    /// Players in the game.
    pub players: u8,
    /// The bot's level.
    pub level: BotLevel,
    /// The decision's seed (`bot::decision_seed`, plus the refusals so far).
    pub seed: u64,
    /// Moves a house rule refused just now.
    pub exclude: Vec<String>,
}

/// A bot's decision, back in the worker's inbox.
#[derive(Debug)]
pub struct Thought {
    /// The job's generation.
    pub generation: u64,
    /// The chosen move; `Ok(None)` when every legal move was excluded.
    pub result: Result<Option<BotMove>, String>,
}

/// The worker's end of a thinker thread.
pub struct Thinker {
    jobs: Sender<Job>,
}

impl Thinker {
    /// Starts a thinker for one session: its own instance of the plugin and the session's
    /// scripts (loaded on the thinker's thread). Decisions are sent to `inbox`.
    pub fn spawn(plugin: Plugin, scripts: Vec<VariantScript>, inbox: Sender<Request>) -> Thinker {
        let (jobs, mine) = channel::<Job>();
        let spawned = std::thread::Builder::new()
            .name("veillee-thinker".into())
            .spawn(move || {
                let mut engine = engine(plugin, &scripts);
                while let Ok(job) = mine.recv() {
                    let generation = job.generation;
                    let result = match &mut engine {
                        Ok(engine) => think(&mut **engine, job),
                        Err(e) => Err(e.clone()),
                    };
                    if inbox
                        .send(Request::Thought(Thought { generation, result }))
                        .is_err()
                    {
                        return;
                    }
                }
            });
        // Without a thread the job channel is closed: `ask` says so, and the worker reports it.
        drop(spawned);
        Thinker { jobs }
    }

    /// Asks for a decision; `false` when the thinker is gone.
    pub fn ask(&self, job: Job) -> bool {
        self.jobs.send(job).is_ok()
    }
}

/// The thinker's engine: the plugin, wrapped with the session's scripts when it has some.
fn engine(plugin: Plugin, scripts: &[VariantScript]) -> Result<Box<dyn GameEngine>, String> {
    if scripts.is_empty() {
        return Ok(Box::new(plugin));
    }
    let loaded = scripts
        .iter()
        .map(|v| Script::load(&v.file, &v.text, VariantLimits::default()))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    let engine = VariantEngine::new(Box::new(plugin), loaded).map_err(|e| e.to_string())?;
    Ok(Box::new(engine))
}

fn think(engine: &mut dyn GameEngine, job: Job) -> Result<Option<BotMove>, String> {
    let game = engine.load(&job.state).map_err(|e| e.to_string())?;
    let chosen = bot::choose(
        engine,
        game,
        job.seat,
        job.players,
        job.level,
        job.seed,
        &job.exclude,
    );
    engine.drop_game(game);
    chosen.map_err(|e| e.to_string())
}
