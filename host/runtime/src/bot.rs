//! Bots: what a bot seat plays, for every front end (the terminal's `play`, the window's
//! thinker, `simulate`).
//!
//! A level above `random` is a number of iterations of the information-set search
//! ([`veillee_sdk::search`]). The search runs **inside the plugin** (`veillee_search`, ABI
//! 1.8) when no script concerns the game's actions — the plugin alone then plays the game as
//! it is played — and **through the engine** otherwise ([`veillee_engine::search`]), so that
//! Castel's cards and the chosen house rules are in force in every move the search tries. A
//! plugin older than 1.8 is searched through the engine too, valued by its status alone.
//! Either way the search starts from a copy re-drawn for the bot's seat: it never reads what
//! that seat cannot see.
//!
//! Moves are deterministic: the seed of a decision comes from the session's seed, the move
//! number and the seat, and the levels count iterations, not seconds. Think time is measured
//! ([`BotMove::seconds`]), never a budget.

use std::time::Instant;

use veillee_engine::search::search_through;
use veillee_sdk::search::{Proven, SearchAnswer, SearchRequest, Tactics};
use veillee_sdk::{Action, Event, GameError, GameRng, Handle, Seat, Text};

use crate::engine::{EngineError, GameEngine};
use crate::session::{LiveSession, SessionError, Sessions};
use crate::store::model::BotLevel;

/// How much a level searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Effort {
    /// Iterations of the search.
    pub iterations: u32,
    /// Random moves per playout before the position is evaluated.
    pub playout_moves: u32,
    /// Searches run side by side, each of `iterations` with its own seed, their root
    /// statistics added up ([`search_on_every_core`]). A fixed number, whatever the machine's
    /// cores, so that a move depends on the seed alone; more cores only make it sooner.
    pub lanes: u8,
}

/// Where a bot's move was decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Searched {
    /// Picked at random (the `random` level).
    Random,
    /// Only one move was left: no search.
    Forced,
    /// Searched inside the plugin (`veillee_search`).
    Plugin,
    /// Searched through the engine, scripts in force.
    Engine,
}

/// A bot's decision.
#[derive(Clone, Debug, PartialEq)]
pub struct BotMove {
    /// The chosen action.
    pub action: Action,
    /// Where it was decided.
    pub searched: Searched,
    /// Iterations the search ran.
    pub iterations: u32,
    /// What the exact check proved of the chosen action (a forced win, or, when every move
    /// loses by force, the loss it puts off longest).
    pub proven: Option<Proven>,
    /// Positions the exact check played.
    pub checked: u32,
    /// Think time, measured.
    pub seconds: f64,
}

impl Effort {
    /// What `level` does with the search inside the plugin (`in_plugin`), or through the
    /// engine, where every move of an iteration is a host call and often a script's hook:
    /// fewer iterations there, and the position is evaluated where the tree ends (no
    /// playout) — unless the plugin has no evaluation (`evaluates`, ABI 1.8): then each
    /// iteration plays the game out, inside the plugin when no script watches its moves.
    /// `None` for `random`.
    pub fn of(level: BotLevel, in_plugin: bool, evaluates: bool) -> Option<Effort> {
        let effort = |iterations, playout_moves| {
            Some(Effort {
                iterations,
                playout_moves,
                lanes: 1,
            })
        };
        match (level, in_plugin) {
            (BotLevel::Random, _) => None,
            (BotLevel::Easy, true) => effort(EASY, PLAYOUT),
            (BotLevel::Normal, true) => effort(NORMAL, PLAYOUT),
            (BotLevel::Strong, true) => Some(Effort {
                lanes: STRONG_LANES,
                ..effort(STRONG, PLAYOUT)?
            }),
            (level, false) => {
                let playout = if evaluates { 0 } else { FULL_PLAYOUT };
                let iterations = match level {
                    BotLevel::Easy => EASY,
                    BotLevel::Strong => STRONG_THROUGH_ENGINE,
                    _ => NORMAL,
                };
                effort(iterations / ENGINE_DIVISOR, playout)
            }
        }
    }
}

/// Iterations of each level inside the plugin (BENCHMARKS.md, "Bots", measures them).
const EASY: u32 = 100;
const NORMAL: u32 = 600;
const STRONG: u32 = 6000;
/// `strong` searches this many times [`STRONG`] iterations inside the plugin, side by side:
/// one per core of a two-core laptop.
const STRONG_LANES: u8 = 2;
/// `strong` through the engine counts as this many (then divided by [`ENGINE_DIVISOR`]):
/// fewer than inside the plugin, so that Castel's think time stays near its measured p95.
const STRONG_THROUGH_ENGINE: u32 = 3000;
/// Random moves per playout inside the plugin, before the game's evaluation.
const PLAYOUT: u32 = 16;
/// Through the engine, a level runs this many times fewer iterations.
const ENGINE_DIVISOR: u32 = 6;
/// Through the engine without the plugin's evaluation: games played out to their end (or
/// this many moves).
const FULL_PLAYOUT: u32 = 1000;

/// The exact check of the root's moves at `level` (see [`veillee_sdk::search::Tactics`]):
/// `easy` has none, so that a player can still set it a trap; `normal` sees a forced win or
/// loss within four plies (a mate in two), `strong` within six. Through the engine every
/// position is a host call and often a script's hook: the budget is smaller there.
pub fn tactics(level: BotLevel, in_plugin: bool) -> Option<Tactics> {
    let (plies, nodes) = match level {
        BotLevel::Random | BotLevel::Easy => return None,
        BotLevel::Normal => (4, NORMAL_CHECK),
        BotLevel::Strong => (6, STRONG_CHECK),
    };
    let nodes = if in_plugin {
        nodes
    } else {
        nodes / ENGINE_CHECK_DIVISOR
    };
    Some(Tactics { plies, nodes })
}

/// Positions the exact check of `normal` and `strong` may play inside the plugin.
const NORMAL_CHECK: u32 = 40_000;
const STRONG_CHECK: u32 = 300_000;
/// Through the engine, the check plays this many times fewer positions.
const ENGINE_CHECK_DIVISOR: u32 = 20;

/// The seed of the decision of `seat` at move `moves` of a session set up with
/// `session_seed`: the same game always gets the same bot moves, whatever the machine.
pub fn decision_seed(session_seed: u64, moves: u32, seat: Seat) -> u64 {
    let mut rng = GameRng::new(session_seed ^ 0xb07_5eed);
    let salt = rng.next_u64();
    salt ^ (u64::from(moves) << 8 | u64::from(seat)).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// The action `seat` plays in `game` at `level`, leaving out the ids in `exclude` (moves a
/// house rule just refused). `Ok(None)`: no legal action is left.
pub fn choose(
    engine: &mut dyn GameEngine,
    game: Handle,
    seat: Seat,
    players: u8,
    level: BotLevel,
    seed: u64,
    exclude: &[String],
) -> Result<Option<BotMove>, EngineError> {
    let started = Instant::now();
    let legal: Vec<Action> = engine
        .legal_actions(game, seat)?
        .into_iter()
        .filter(|a| !exclude.contains(&a.id))
        .collect();
    let done = |action: &Action, searched, answer: Option<&SearchAnswer>| {
        Some(BotMove {
            action: action.clone(),
            searched,
            iterations: answer.map_or(0, |a| a.iterations),
            proven: answer.and_then(|a| a.proven),
            checked: answer.map_or(0, |a| a.checked),
            seconds: started.elapsed().as_secs_f64(),
        })
    };
    let only = match legal.as_slice() {
        [] => return Ok(None),
        [only] => Some(only),
        _ => None,
    };
    if level == BotLevel::Random {
        let mut rng = GameRng::new(seed);
        let pick = rng.pick(&legal).unwrap_or(&legal[0]);
        return Ok(done(pick, Searched::Random, None));
    }
    if let Some(only) = only {
        return Ok(done(only, Searched::Forced, None));
    }
    // The exact check is exact only where the state hides nothing from the bot's seat.
    let open_game = !engine.manifest().hidden_information;
    let request_for = |in_plugin, evaluates| {
        Effort::of(level, in_plugin, evaluates).map(|effort| {
            let request = SearchRequest {
                exclude: exclude.to_vec(),
                tactics: open_game.then(|| tactics(level, in_plugin)).flatten(),
                ..SearchRequest::new(effort.iterations, effort.playout_moves, seed, players)
            };
            (request, effort.lanes)
        })
    };
    let Some((request, lanes)) = request_for(true, true) else {
        return Ok(None);
    };
    let in_plugin = search_on_every_core(engine, game, seat, &request, lanes)?;
    let (answer, searched): (SearchAnswer, Searched) = match in_plugin {
        Some(answer) => (answer, Searched::Plugin),
        None => {
            // Whether the plugin evaluates (ABI 1.8) decides the playouts.
            let evaluates = engine.evaluate(game, players)?.is_some();
            let Some((request, _)) = request_for(false, evaluates) else {
                return Ok(None);
            };
            let answer = search_through(engine, game, seat, &request)?;
            (answer, Searched::Engine)
        }
    };
    // The search ran on re-drawn copies: its choice is one of this seat's own moves, which
    // every copy lists the same; check it anyway before playing it on the real game.
    let action = legal
        .iter()
        .find(|a| a.id == answer.action)
        .unwrap_or(&legal[0]);
    Ok(done(action, searched, Some(&answer)))
}

/// The search inside the plugin in `lanes` searches side by side (root parallelism): the
/// exact check once, on this instance — a forced win or loss needs no tree — then one tree
/// per lane, each with its own seed and the moves proven lost left out, and the root moves'
/// visits added up. Lane 0 has the request's own seed, so one lane is the plain search.
/// `Ok(None)`: the plugin has no search inside.
pub fn search_on_every_core(
    engine: &mut dyn GameEngine,
    game: Handle,
    seat: Seat,
    request: &SearchRequest,
    lanes: u8,
) -> Result<Option<SearchAnswer>, EngineError> {
    if lanes <= 1 {
        return engine.search(game, seat, request);
    }
    let mut exclude = request.exclude.clone();
    let (mut checked, mut lost) = (0, Vec::new());
    if request.tactics.is_some() {
        let check_only = SearchRequest {
            iterations: 0,
            ..request.clone()
        };
        let Some(check) = engine.search(game, seat, &check_only)? else {
            return Ok(None);
        };
        if check.proven.is_some() {
            return Ok(Some(check));
        }
        checked = check.checked;
        exclude.extend(check.lost.iter().cloned());
        lost = check.lost;
    }
    let requests: Vec<SearchRequest> = (0..lanes)
        .map(|lane| SearchRequest {
            seed: lane_seed(request.seed, lane),
            exclude: exclude.clone(),
            tactics: None,
            ..request.clone()
        })
        .collect();
    let Some(answers) = engine.search_lanes(game, seat, &requests)? else {
        return Ok(None);
    };
    Ok(merge_lanes(answers).map(|merged| SearchAnswer {
        checked,
        lost,
        ..merged
    }))
}

/// The seed of lane `lane` of a search seeded `seed` (lane 0: `seed` itself).
fn lane_seed(seed: u64, lane: u8) -> u64 {
    if lane == 0 {
        return seed;
    }
    GameRng::new(seed ^ u64::from(lane).wrapping_mul(0x9e37_79b9_7f4a_7c15)).next_u64()
}

/// The lanes' answers as one: each root move's visits and values added up, the most visited
/// chosen (ties: the higher mean, then the first listed). An answer without root statistics
/// (a plugin older than ABI 1.14, or one move to choose) leaves lane 0's answer as it is.
fn merge_lanes(answers: Vec<SearchAnswer>) -> Option<SearchAnswer> {
    let mut answers = answers.into_iter();
    let first = answers.next()?;
    let rest: Vec<SearchAnswer> = answers.collect();
    if first.root.is_empty() || rest.iter().any(|a| a.root.is_empty()) {
        return Some(first);
    }
    // (action, visits, sum of values × visits), in lane 0's order then new ones.
    let mut merged: Vec<(String, u64, f64)> = Vec::new();
    let mut iterations = 0u32;
    for answer in std::iter::once(&first).chain(&rest) {
        iterations = iterations.saturating_add(answer.iterations);
        for stat in &answer.root {
            let weight = f64::from(stat.visits);
            match merged.iter_mut().find(|(id, _, _)| *id == stat.action) {
                Some((_, visits, total)) => {
                    *visits += u64::from(stat.visits);
                    *total += f64::from(stat.value) * weight;
                }
                None => merged.push((
                    stat.action.clone(),
                    u64::from(stat.visits),
                    f64::from(stat.value) * weight,
                )),
            }
        }
    }
    let mean = |(_, visits, total): &(String, u64, f64)| total / (*visits).max(1) as f64;
    let best = merged.iter().enumerate().max_by(|(ia, a), (ib, b)| {
        a.1.cmp(&b.1)
            .then(mean(a).total_cmp(&mean(b)))
            .then(ib.cmp(ia))
    })?;
    let (action, visits, _) = best.1.clone();
    Some(SearchAnswer {
        value: mean(best.1) as f32,
        action,
        iterations,
        visits: u32::try_from(visits).unwrap_or(u32::MAX),
        proven: None,
        checked: 0,
        root: merged
            .iter()
            .map(|m| veillee_sdk::search::RootMove {
                action: m.0.clone(),
                visits: u32::try_from(m.1).unwrap_or(u32::MAX),
                value: mean(m) as f32,
            })
            .collect(),
        lost: Vec::new(),
    })
}

/// What a bot's turn came to.
#[derive(Debug)]
pub enum BotTurn<T> {
    /// The bot played.
    Played {
        /// What playing gave (a session's events).
        played: T,
        /// The action played, and how it was chosen.
        thought: BotMove,
        /// The moves refused before it (ids and reasons).
        refused: Vec<(String, Text)>,
    },
    /// Every legal action of the seat was refused by the house rules: the game cannot go on
    /// with this bot (it stays as it is).
    Stuck {
        /// The refused ids, with each refusal's reason.
        refused: Vec<(String, Text)>,
    },
}

/// How [`play_bot`] plays a chosen move: `Ok(Err(reason))` when the rules refuse it.
pub type ApplyMove<'a, T, E> =
    dyn FnMut(&mut dyn GameEngine, &str) -> Result<Result<T, Text>, E> + 'a;

/// Plays `seat`'s bot turn: the bot's choice, played by `apply` (which answers `Err(reason)`
/// when a house rule refuses it). A refused move is dropped and the bot chooses again among
/// the others — never the same move twice — until one is accepted or none is left
/// ([`BotTurn::Stuck`]). `seed` is the decision's ([`decision_seed`]).
#[allow(clippy::too_many_arguments)]
pub fn play_bot<T, E: From<EngineError>>(
    engine: &mut dyn GameEngine,
    game: Handle,
    seat: Seat,
    players: u8,
    level: BotLevel,
    seed: u64,
    apply: &mut ApplyMove<'_, T, E>,
) -> Result<BotTurn<T>, E> {
    let mut refused: Vec<(String, Text)> = Vec::new();
    loop {
        let exclude: Vec<String> = refused.iter().map(|(id, _)| id.clone()).collect();
        let attempt = seed.wrapping_add(exclude.len() as u64);
        let Some(thought) = choose(engine, game, seat, players, level, attempt, &exclude)? else {
            return Ok(BotTurn::Stuck { refused });
        };
        match apply(engine, &thought.action.id)? {
            Ok(played) => {
                return Ok(BotTurn::Played {
                    played,
                    thought,
                    refused,
                })
            }
            Err(reason) => refused.push((thought.action.id, reason)),
        }
    }
}

/// [`play_bot`] in a session: each move saved by `Sessions::apply` with `extra` in its log
/// entry.
pub fn play_turn(
    sessions: &Sessions,
    engine: &mut dyn GameEngine,
    live: &mut LiveSession,
    seat: Seat,
    level: BotLevel,
    extra: &dyn Fn() -> serde_json::Value,
) -> Result<BotTurn<Vec<Event>>, SessionError> {
    let (game, players) = (live.game, live.meta.setup.players);
    let seed = decision_seed(live.meta.setup.seed, live.meta.moves, seat);
    play_bot(
        engine,
        game,
        seat,
        players,
        level,
        seed,
        &mut |engine, id| match sessions.apply(engine, live, seat, id, extra()) {
            Ok(events) => Ok(Ok(events)),
            Err(SessionError::Engine(e)) => refusal(e).map(Err).map_err(SessionError::from),
            Err(other) => Err(other),
        },
    )
}

/// [`play_bot`] on a bare engine (simulations): `engine.apply`.
pub fn play_move(
    engine: &mut dyn GameEngine,
    game: Handle,
    seat: Seat,
    players: u8,
    level: BotLevel,
    seed: u64,
) -> Result<BotTurn<Vec<Event>>, EngineError> {
    play_bot(
        engine,
        game,
        seat,
        players,
        level,
        seed,
        &mut |engine, id| {
            engine
                .apply(game, seat, id)
                .map(Ok)
                .or_else(|e| refusal(e).map(Err))
        },
    )
}

/// A house rule's refusal: its reason; any other failure stays an error.
fn refusal(error: EngineError) -> Result<Text, EngineError> {
    match error {
        EngineError::Game(GameError::Refused { reason, .. }) => Ok(reason),
        other => Err(other),
    }
}

/// The message of a bot that cannot move, in English (front ends translate the frame).
pub fn stuck_message(seat_name: &str, refused: &[(String, Text)], lang: &str) -> String {
    let reasons: Vec<String> = refused
        .iter()
        .take(3)
        .map(|(id, why)| format!("`{id}`: {}", why.get(lang)))
        .collect();
    let more = refused.len().saturating_sub(3);
    format!(
        "{seat_name} cannot move: the house rules refused every one of its {} moves ({}{}), so the game stops here",
        refused.len(),
        reasons.join("; "),
        if more > 0 {
            format!("; {more} more")
        } else {
            String::new()
        }
    )
}
