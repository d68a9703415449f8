//! "Test this rule": a few games of `normal` bots against each other, the plain game beside
//! the game with one house rule, on a thread of their own (the rules lab of `veillee simulate
//! --seats`, in the window). Progress and the result come back through the worker's inbox.

use std::sync::mpsc::Sender;
use std::sync::Mutex;

use veillee_sdk::Setup;

use super::worker::Request;
use veillee_runtime::engine::GameEngine;
use veillee_runtime::plugin::Plugin;
use veillee_runtime::simulate::{simulate_bots, SimulationConfig, SimulationReport};
use veillee_runtime::store::model::BotLevel;
use veillee_runtime::variants::library::ScriptSource;
use veillee_runtime::variants::{VariantEngine, VariantLimits};

/// Games per side of the comparison.
pub const LAB_GAMES: u32 = 12;
/// A bots' game still going after this many moves is counted apart.
const LAB_MAX_MOVES: u32 = 20_000;

/// One side of a comparison: wins per seat, draws and capped games, over `games`.
#[derive(Clone, Debug, PartialEq)]
pub struct Balance {
    /// Games played.
    pub games: u32,
    /// Wins per seat.
    pub wins: Vec<u32>,
    /// Draws.
    pub draws: u32,
    /// Games that failed (a script error, a bot that could not move).
    pub failed: u32,
}

/// Where a test of a house rule stands.
#[derive(Clone, Debug, PartialEq)]
pub enum LabState {
    /// Games played so far, of the total.
    Running(u32, u32),
    /// The plain game, then the game with the rule.
    Done(Balance, Balance),
    /// It could not run, in words.
    Failed(veillee_sdk::Text),
}

/// A test's news, for the house rule whose file is named.
#[derive(Clone, Debug)]
pub struct LabNote {
    /// The rule's file name (`renforts.lua`).
    pub rule: String,
    /// Where the test stands.
    pub state: LabState,
}

/// Starts the test of `rule` on its own thread: `plain` are the game's own scripts (Castel's
/// cards), then the same with `rule` after them. Notes go to `inbox`.
pub fn spawn(
    plugin: Plugin,
    plain: Vec<ScriptSource>,
    rule: ScriptSource,
    setup: Setup,
    inbox: Sender<Request>,
) {
    let name = rule.file.clone();
    let note = move |state| LabNote {
        rule: name.clone(),
        state,
    };
    std::thread::spawn(move || {
        let plugin = Mutex::new(plugin);
        let mut with_rule = plain.clone();
        with_rule.push(rule);
        let total = 2 * LAB_GAMES;
        let done = std::sync::atomic::AtomicU32::new(0);
        let progress = || {
            let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            let _ = inbox.send(Request::Lab(note(LabState::Running(n, total))));
        };
        let mut balances = Vec::new();
        for sources in [&plain, &with_rule] {
            let make = || engine(&plugin, sources);
            match simulate_bots(&make, &config(&setup), &progress) {
                Ok(report) => balances.push(balance(&report)),
                Err(why) => {
                    let why = veillee_sdk::Text::same(why);
                    let _ = inbox.send(Request::Lab(note(LabState::Failed(why))));
                    return;
                }
            }
        }
        if let [plain, ruled] = &balances[..] {
            let state = LabState::Done(plain.clone(), ruled.clone());
            let _ = inbox.send(Request::Lab(note(state)));
        }
    });
}

fn config(setup: &Setup) -> SimulationConfig {
    SimulationConfig {
        games: LAB_GAMES,
        seed: setup.seed,
        players: setup.players,
        max_moves: LAB_MAX_MOVES,
        threads: 1,
        options: setup.options.clone(),
        seats: vec![BotLevel::Normal; usize::from(setup.players)],
    }
}

/// A fresh instance of the plugin with `sources` loaded over it.
fn engine(plugin: &Mutex<Plugin>, sources: &[ScriptSource]) -> Result<Box<dyn GameEngine>, String> {
    let plugin = plugin
        .lock()
        .map_err(|_| "the plugin is unavailable".to_string())?
        .duplicate()
        .map_err(|e| e.to_string())?;
    if sources.is_empty() {
        return Ok(Box::new(plugin));
    }
    let scripts = sources
        .iter()
        .map(|s| s.load(VariantLimits::default()))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    let engine = VariantEngine::new(Box::new(plugin), scripts).map_err(|e| e.to_string())?;
    Ok(Box::new(engine))
}

fn balance(report: &SimulationReport) -> Balance {
    Balance {
        games: report.games,
        wins: report.wins.clone(),
        draws: report.draws,
        failed: report.errors + report.capped,
    }
}
