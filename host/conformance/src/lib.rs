//! `veillee-conformance`: the conformance kit, the checks every plugin must pass, whatever its
//! game.
//!
//! **Invariant: it sees a game only through [`GameEngine`], so it checks a wasm plugin, a
//! native build or a game wrapped with scripts alike.**
//!
//! It plays random games with fixed seeds through a [`GameEngine`] (normally the wasm
//! plugin) and checks, at every step, the invariants the launcher relies on. When a
//! reference engine is given (the native build of the same crate), both are driven with the
//! same actions and must agree move by move.
//!
//! # The checks
//!
//! `check(engine, reference, config)` plays random games with fixed seeds, for every player
//! count (or `config.players`), and checks at every step: some seat acts unless the game is
//! over and every such seat has a legal action; ids are unique; `action_count` and
//! `apply_index` agree with the listed actions; sampled listed actions apply; an unlisted
//! action and a seat out of turn are refused and leave the state unchanged; save → load → save
//! is identical; every seat's and a spectator's view is well formed and every click path
//! points at something in the actor's scene; seed + actions replay to the same state hash;
//! playouts are deterministic; and with the native build as reference, both agree move by
//! move (status, state bytes, legal actions, views) and on playouts. Games run as they are
//! played (with their own scripts, on both builds, so script-made texts are checked too), and
//! a script switched off by an error fails the check.
//!
//! **Leak checks** (hidden-information games), for every seat and a spectator: re-drawing
//! what the viewer cannot see never changes that viewer's view, nor what a seat reads of its
//! own legal actions (ids, click paths, the labels it reads), nor what the viewer reads of the
//! move played next, replayed on the re-drawn copy: its label always, and its events that are
//! not reveals where the viewer sees the same scene after the move in both games (a move may
//! name what it brings into view, like the Alchimiste laying a hand card in the exchange; an
//! unmarked reveal of what stays hidden is caught); two moves of the actor that leave the
//! viewer the same scene but not the same game read the same to that viewer (a secret choice
//! shown in a label or an event; two names for the very same move tell nothing); and over the
//! whole run the re-draws must change the game at least once (a `redraw_hidden` left at its
//! do-nothing default proves nothing and fails, saying to write it). With scripts, a copy
//! re-drawn while a choice is pending re-asks the questions of the re-drawn game and is kept
//! only if the viewer would see the same questions (the same seats and prompts, its own
//! options); otherwise another re-draw is tried, and after 16 the copy keeps the questions as
//! asked, the game untouched by any hook. A script that copies a hand's card into another
//! seat's question or a public event changes what that seat reads when the hand is re-drawn,
//! and is reported with the seat and the text.
//!
//! **Bots**: at the first move and every 64 (`CheckConfig::search_every`), a re-draw for the
//! seat to act must depend only on what that seat knows (the game and a re-drawn copy,
//! re-drawn again with one seed, are the same game), and the bots' search must give the very
//! same answer on the game and on the copy.
//!
//! # The report
//!
//! Each distinct problem once, with how often it happened, its first player count, seed and
//! move (`veillee check GAME --players N --seed S --games 1` reproduces it), viewers named
//! `seat 1, Red` or `the spectator`, and for a leak the first part of the two views (or texts)
//! that differs. `veillee check` runs the kit from the command line; the catalog runs a short
//! version (two games per player count, leak checks included) as the install self-check;
//! both say which game is playing, told by [`check_reporting`] (a [`Progress`] as each game
//! starts: a slow plugin can take minutes);
//! `veillee_sdk::testing::random_games` runs the same leak checks natively, in a game crate's
//! own `cargo test`. Both compare the same readings — what a seat reads of its own actions,
//! what a viewer reads of a move's events, how a viewer is named — from one place,
//! `veillee_sdk::leaks`.

use std::collections::BTreeMap;

use sha2::{Digest, Sha256};
use veillee_sdk::{
    Action, Event, GameError, GameRng, Handle, Manifest, OptionValue, Scene, Seat, Setup, Status,
    Target, Text,
};

use veillee_engine::search::search_through;
use veillee_engine::{EngineError, GameEngine};
use veillee_sdk::leaks::read_by;
use veillee_sdk::search::{SearchAnswer, SearchRequest};

/// Iterations of the search the no-peek check runs (small: it runs twice per check).
const SEARCH_ITERATIONS: u32 = 48;

/// The engine's own search (in the plugin) when it has one, else the search through it.
fn search_any(
    engine: &mut dyn GameEngine,
    game: Handle,
    seat: Seat,
    request: &SearchRequest,
) -> Result<SearchAnswer, EngineError> {
    match engine.search(game, seat, request)? {
        Some(answer) => Ok(answer),
        None => search_through(engine, game, seat, request),
    }
}

/// How thoroughly to check.
#[derive(Clone, Debug)]
pub struct CheckConfig {
    /// Random games per player count.
    pub games: u32,
    /// First seed; game `i` uses `seed + i`.
    pub seed: u64,
    /// A game longer than this fails the check ("does not end").
    pub max_moves: u32,
    /// Actions re-applied on copies at each deep step ("every listed action applies").
    pub actions_tried_per_step: usize,
    /// Every step of a game's first `deep_steps` gets every check; after that one step in
    /// `deep_stride` does, and the others only the essential ones (legal actions exist,
    /// the action applies, both builds agree on the state). Keeps long games affordable.
    pub deep_steps: u32,
    /// See `deep_steps`.
    pub deep_stride: u32,
    /// The game's options for every game played (missing ones take their default).
    pub options: BTreeMap<String, OptionValue>,
    /// Only this player count (`None`: every count the manifest allows).
    pub players: Option<u8>,
    /// Hidden information: every this many moves (and at the first), the bots' search must
    /// choose the same move for the seat to act on the game and on a copy where everything
    /// that seat cannot see was re-drawn (0: never).
    pub search_every: u32,
}

impl Default for CheckConfig {
    fn default() -> Self {
        CheckConfig {
            games: 20,
            seed: 1,
            max_moves: 20_000,
            actions_tried_per_step: 6,
            deep_steps: 200,
            deep_stride: 16,
            options: BTreeMap::new(),
            players: None,
            search_every: 64,
        }
    }
}

/// What the kit found.
#[derive(Clone, Debug, Default)]
pub struct CheckReport {
    /// The game's id.
    pub game: String,
    /// Games played.
    pub games: u32,
    /// Moves played in all.
    pub moves: u64,
    /// Each distinct problem once, in words: how often it happened, where first (the seed
    /// and move number to reproduce it) and, for a leak, the first thing that differed.
    pub failures: Vec<String>,
    /// The same problems, as data.
    pub problems: Vec<Problem>,
}

impl CheckReport {
    /// Whether every check passed.
    pub fn passed(&self) -> bool {
        self.problems.is_empty()
    }

    fn add(&mut self, players: u8, seed: u64, found: Found) {
        match self.problems.iter_mut().find(|p| p.what == found.what) {
            Some(known) => known.count += 1,
            None => self.problems.push(Problem {
                what: found.what,
                count: 1,
                players,
                seed,
                step: found.step,
                detail: found.detail,
            }),
        }
    }

    fn write_failures(&mut self) {
        self.failures = self.problems.iter().map(Problem::to_string).collect();
    }
}

/// One distinct problem and where it first happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// What is wrong, in words (the same words each time it happens).
    pub what: String,
    /// How many times it happened.
    pub count: u32,
    /// The player count of its first occurrence.
    pub players: u8,
    /// The seed of its first occurrence (`veillee check GAME --seed N --games 1`).
    pub seed: u64,
    /// The move of its first occurrence.
    pub step: u32,
    /// What differed the first time (for leaks), else empty.
    pub detail: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let times = match self.count {
            1 => "once".to_string(),
            n => format!("{n} times"),
        };
        write!(
            f,
            "{} ({times}; first: {} players, seed {}, move {})",
            self.what, self.players, self.seed, self.step
        )?;
        if !self.detail.is_empty() {
            write!(f, "\n      first difference: {}", self.detail)?;
        }
        Ok(())
    }
}

/// A problem seen in one game.
struct Found {
    step: u32,
    what: String,
    detail: String,
}

/// Distinct problems after which the kit stops playing.
const MAX_PROBLEMS: usize = 20;

pub use veillee_sdk::leaks::viewer_name;

/// The hash of a saved state, as shown in reports and compared in replays.
pub fn state_hash(state: &[u8]) -> String {
    let digest = Sha256::digest(state);
    digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
}

/// Where a run of the kit is, told as each game starts ([`check_reporting`]): a run can
/// take minutes (a slow plugin, many player counts), and whoever waits should see it move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The player count of the game starting.
    pub players: u8,
    /// Its number among this player count's games, from 1.
    pub game: u32,
    /// Games per player count.
    pub games: u32,
    /// Its number among all the games of the run, from 1.
    pub started: u32,
    /// All the games of the run.
    pub total: u32,
}

/// Runs the kit over every player count of the game.
pub fn check(
    engine: &mut dyn GameEngine,
    reference: Option<&mut (dyn GameEngine + '_)>,
    config: &CheckConfig,
) -> CheckReport {
    check_reporting(engine, reference, config, &mut |_| {})
}

/// [`check`], telling `progress` before each game starts. The kit stays front-end free:
/// what to show, and how often, is the caller's choice.
pub fn check_reporting(
    engine: &mut dyn GameEngine,
    mut reference: Option<&mut (dyn GameEngine + '_)>,
    config: &CheckConfig,
    progress: &mut dyn FnMut(Progress),
) -> CheckReport {
    let manifest = engine.manifest().clone();
    let mut redraws = Redraws::default();
    let mut report = CheckReport {
        game: manifest.id.clone(),
        ..CheckReport::default()
    };
    if let Some(reference) = reference.as_deref_mut() {
        if reference.manifest() != &manifest {
            report.add(
                manifest.min_players,
                config.seed,
                Found {
                    step: 0,
                    what: "the native and wasm builds have different manifests".into(),
                    detail: String::new(),
                },
            );
        }
    }
    let tables = match config.players {
        Some(players) => players..=players,
        None => manifest.min_players..=manifest.max_players,
    };
    let total = config.games.saturating_mul(tables.clone().count() as u32);
    let mut started = 0;
    for players in tables {
        for i in 0..config.games {
            started += 1;
            progress(Progress {
                players,
                game: i + 1,
                games: config.games,
                started,
                total,
            });
            let mut setup = Setup::new(players, config.seed.wrapping_add(i as u64));
            setup.options = config.options.clone();
            let mut game = GameCheck {
                engine: &mut *engine,
                reference: reference.as_deref_mut(),
                config,
                manifest: &manifest,
                setup,
                found: Vec::new(),
                redraws: &mut redraws,
            };
            let moves = game.run();
            report.games += 1;
            report.moves += moves as u64;
            for found in std::mem::take(&mut game.found) {
                report.add(players, config.seed.wrapping_add(i as u64), found);
            }
            if report.problems.len() >= MAX_PROBLEMS {
                report.write_failures();
                report
                    .failures
                    .push(format!("…stopped after {MAX_PROBLEMS} distinct problems"));
                return report;
            }
        }
    }
    if manifest.hidden_information && redraws.made > 0 && redraws.changed == 0 {
        report.problems.push(Problem {
            what: format!(
                "the game declares hidden information, but its redraw_hidden never changed \
                 anything ({} re-draws in {} games): the leak checks prove nothing. Write \
                 `Game::redraw_hidden` so that it re-deals at random everything the viewer \
                 cannot see (other hands, piles, secret choices), or set \
                 `hidden_information: false` if the game has none",
                redraws.made, report.games
            ),
            count: 1,
            players: manifest.min_players,
            seed: config.seed,
            step: 0,
            detail: String::new(),
        });
    }
    report.write_failures();
    report
}

/// How many re-draws the leak checks made, and how many changed the game.
#[derive(Default)]
struct Redraws {
    made: u64,
    changed: u64,
}

/// One random game under scrutiny.
struct GameCheck<'a, 'e, 'r> {
    engine: &'a mut (dyn GameEngine + 'e),
    reference: Option<&'a mut (dyn GameEngine + 'r)>,
    config: &'a CheckConfig,
    manifest: &'a Manifest,
    setup: Setup,
    found: Vec<Found>,
    redraws: &'a mut Redraws,
}

/// A copy of the game re-drawn for one viewer, kept to replay the next action on it.
struct Redrawn {
    viewer: Option<Seat>,
    copy: Handle,
}

impl GameCheck<'_, '_, '_> {
    fn fail(&mut self, step: u32, what: impl std::fmt::Display) {
        self.fail_with(step, what, String::new());
    }

    fn fail_with(&mut self, step: u32, what: impl std::fmt::Display, detail: String) {
        self.found.push(Found {
            step,
            what: what.to_string(),
            detail,
        });
    }

    fn name(&self, viewer: Option<Seat>) -> String {
        viewer_name(self.manifest, viewer)
    }

    /// Plays the game; returns the number of moves played.
    fn run(&mut self) -> u32 {
        let game = match self.engine.create(&self.setup) {
            Ok(h) => h,
            Err(e) => {
                self.fail(0, format!("creating the game failed: {e}"));
                return 0;
            }
        };
        let reference = match self.reference.as_deref_mut().map(|r| r.create(&self.setup)) {
            Some(Ok(h)) => Some(h),
            Some(Err(e)) => {
                self.fail(
                    0,
                    format!("the native build could not create the game: {e}"),
                );
                None
            }
            None => None,
        };
        let mut rng = GameRng::new(self.setup.seed ^ 0x5eed_c0de);
        let mut played = Vec::new();
        let result = self.play(game, reference, &mut rng, &mut played);
        // A script switched off after a failure leaves a game that is not the one checked
        // (Castel without its cards): the check fails, naming the script's error.
        if let Some(why) = self.engine.stopped(game) {
            self.fail(
                played.len() as u32,
                format!("the scripts' bounds stopped the game: {}", why.en),
            );
        }
        let failed = self.engine.failed_scripts(game);
        if !failed.is_empty() {
            self.fail(
                played.len() as u32,
                format!("a script was switched off: {}", failed.join("; ")),
            );
        }
        if let Err(e) = result {
            self.fail(played.len() as u32, e);
        } else {
            self.check_replay(game, &played);
            self.check_playout(game);
        }
        self.engine.drop_game(game);
        if let (Some(r), Some(h)) = (self.reference.as_deref_mut(), reference) {
            r.drop_game(h);
        }
        played.len() as u32
    }

    fn play(
        &mut self,
        game: Handle,
        reference: Option<Handle>,
        rng: &mut GameRng,
        played: &mut Vec<(Seat, String)>,
    ) -> Result<(), EngineError> {
        loop {
            let step = played.len() as u32;
            let deep = step < self.config.deep_steps
                || step.is_multiple_of(self.config.deep_stride.max(1));
            let status = self.engine.status(game)?;
            let redrawn = if deep {
                self.check_views(step, game)?
            } else {
                Vec::new()
            };
            // Dropped whatever happens below; used after the move to compare its texts.
            let redrawn = DropOnExit::new(redrawn);
            if let (Some(r), Some(h)) = (self.reference.as_deref_mut(), reference) {
                if let Some(diff) = compare_engines(self.engine, game, r, h, &status, deep)? {
                    self.fail(step, format!("native and wasm builds disagree: {diff}"));
                    redrawn.drop_in(self.engine);
                    return Ok(());
                }
            }
            let seats = match &status {
                Status::Finished { .. } => {
                    redrawn.drop_in(self.engine);
                    return Ok(());
                }
                Status::ToAct { seats } if seats.is_empty() => {
                    self.fail(step, "the game is not over but no seat is to act");
                    redrawn.drop_in(self.engine);
                    return Ok(());
                }
                Status::ToAct { seats } => seats.clone(),
            };
            if step >= self.config.max_moves {
                self.fail(
                    step,
                    format!(
                        "the game did not end within {} moves",
                        self.config.max_moves
                    ),
                );
                redrawn.drop_in(self.engine);
                return Ok(());
            }
            let seat = seats[rng.below(seats.len())];
            let actions = self.engine.legal_actions(game, seat)?;
            if actions.is_empty() {
                let who = self.name(Some(seat));
                self.fail(step, format!("{who} is to act but has no legal action"));
                redrawn.drop_in(self.engine);
                return Ok(());
            }
            if deep {
                self.check_actions(step, game, seat, &actions, rng)?;
                self.check_refusals(step, game, seat, &seats)?;
                self.check_round_trip(step, game)?;
            }
            let every = self.config.search_every;
            if self.manifest.hidden_information && every > 0 && step % every == 1 % every {
                self.check_search(step, game, seat)?;
            }
            let chosen = rng.below(actions.len());
            if deep && self.manifest.hidden_information {
                self.check_secret_moves(step, game, seat, &actions, chosen, rng)?;
            }
            let action = &actions[chosen];
            let events = self.engine.apply(game, seat, &action.id)?;
            self.check_texts(step, game, redrawn.take(), seat, action, &events)?;
            if let (Some(r), Some(h)) = (self.reference.as_deref_mut(), reference) {
                if let Err(e) = r.apply(h, seat, &action.id) {
                    self.fail(
                        step,
                        format!("the native build refused `{}`: {e}", action.id),
                    );
                    return Ok(());
                }
            }
            played.push((seat, action.id.clone()));
        }
    }

    /// Every listed action applies (on copies), ids are unique, counts and indices agree, and
    /// click paths point at things in the actor's scene.
    fn check_actions(
        &mut self,
        step: u32,
        game: Handle,
        seat: Seat,
        actions: &[Action],
        rng: &mut GameRng,
    ) -> Result<(), EngineError> {
        let mut ids: Vec<&str> = actions.iter().map(|a| a.id.as_str()).collect();
        ids.sort_unstable();
        if let Some(pair) = ids.windows(2).find(|w| w[0] == w[1]) {
            self.fail(step, format!("action id `{}` is listed twice", pair[0]));
        }
        let count = self.engine.action_count(game, seat)?;
        if count as usize != actions.len() {
            self.fail(
                step,
                format!(
                    "action_count says {count} but {} actions are listed",
                    actions.len()
                ),
            );
        }
        let scene = self.engine.view(game, Some(seat))?;
        for action in actions {
            if let Some(problem) = path_problem(&scene, action) {
                self.fail(step, format!("action `{}`: {problem}", action.id));
            }
        }
        for _ in 0..self.config.actions_tried_per_step.min(actions.len()) {
            let index = rng.below(actions.len());
            let by_id = self.engine.clone_game(game)?;
            let by_index = self.engine.clone_game(game)?;
            let applied = self.engine.apply(by_id, seat, &actions[index].id);
            let indexed = self.engine.apply_index(by_index, seat, index as u32);
            match (applied, indexed) {
                (Ok(_), Ok(())) => {
                    if self.engine.save(by_id)? != self.engine.save(by_index)? {
                        self.fail(
                            step,
                            format!(
                                "applying `{}` by id and by index #{index} give different states",
                                actions[index].id
                            ),
                        );
                    }
                }
                (Err(e), _) | (_, Err(e)) => self.fail(
                    step,
                    format!("listed action `{}` does not apply: {e}", actions[index].id),
                ),
            }
            self.engine.drop_game(by_id);
            self.engine.drop_game(by_index);
        }
        Ok(())
    }

    /// An unlisted action and a seat out of turn are refused, and the game is unchanged.
    fn check_refusals(
        &mut self,
        step: u32,
        game: Handle,
        seat: Seat,
        seats: &[Seat],
    ) -> Result<(), EngineError> {
        let before = self.engine.save(game)?;
        match self.engine.apply(game, seat, "not-an-action") {
            Err(EngineError::Game(GameError::IllegalAction { .. })) => {}
            Err(e) => self.fail(
                step,
                format!("an unlisted action gave {e}, not an illegal-action error"),
            ),
            Ok(_) => self.fail(step, "an unlisted action `not-an-action` was accepted"),
        }
        let idle = (0..self.setup.players).find(|s| !seats.contains(s));
        if let Some(idle) = idle {
            let first = self
                .engine
                .legal_actions(game, seat)?
                .first()
                .map(|a| a.id.clone())
                .unwrap_or_default();
            if self.engine.apply(game, idle, &first).is_ok() {
                self.fail(step, format!("seat {idle} played `{first}` out of turn"));
            }
        }
        if self.engine.save(game)? != before {
            self.fail(step, "a refused action changed the game");
        }
        Ok(())
    }

    /// Saving and loading gives back an identical game.
    fn check_round_trip(&mut self, step: u32, game: Handle) -> Result<(), EngineError> {
        let saved = self.engine.save(game)?;
        let loaded = self.engine.load(&saved)?;
        let again = self.engine.save(loaded)?;
        let same_status = self.engine.status(loaded)? == self.engine.status(game)?;
        self.engine.drop_game(loaded);
        if saved != again || !same_status {
            self.fail(
                step,
                "saving and loading the state does not give the same game",
            );
        }
        Ok(())
    }

    /// Views are well formed for every seat and a spectator, and (hidden information)
    /// re-drawing what a viewer cannot see never changes that viewer's view nor, for a seat,
    /// its legal actions. Returns the re-drawn copies, to replay the next move on them.
    fn check_views(&mut self, step: u32, game: Handle) -> Result<Vec<Redrawn>, EngineError> {
        let hidden = self.manifest.hidden_information;
        let viewers: Vec<Option<Seat>> = std::iter::once(None)
            .chain((0..self.setup.players).map(Some))
            .collect();
        let saved = if hidden {
            self.engine.save(game)?
        } else {
            Vec::new()
        };
        let mut copies = Vec::new();
        for viewer in viewers {
            let scene = self.engine.view(game, viewer)?;
            if let Some(problem) = scene_problem(&scene) {
                let who = self.name(viewer);
                self.fail(step, format!("view for {who}: {problem}"));
            }
            if !hidden {
                continue;
            }
            let seed = self.setup.seed.wrapping_mul(31).wrapping_add(step as u64);
            let copy = self.engine.redraw_hidden(game, viewer, seed)?;
            copies.push(Redrawn { viewer, copy });
            self.redraws.made += 1;
            if self.engine.save(copy)? != saved {
                self.redraws.changed += 1;
            }
            let other = self.engine.view(copy, viewer)?;
            if other != scene {
                let who = self.name(viewer);
                self.fail_with(
                    step,
                    format!(
                        "leak: re-drawing what {who} cannot see changed what {who} sees (the view)"
                    ),
                    first_difference(&json_of(&scene), &json_of(&other)),
                );
            }
            // What a seat may do is also what it reads (its options, their labels): it must
            // not depend on what that seat cannot see either. (The public labels of its
            // actions are what the others read: checked with the move, for each of them.)
            if let Some(seat) = viewer {
                let mine = actions_read(&self.engine.legal_actions(game, seat)?, seat);
                let theirs = actions_read(&self.engine.legal_actions(copy, seat)?, seat);
                if mine != theirs {
                    let who = self.name(viewer);
                    self.fail_with(
                        step,
                        format!("leak: re-drawing what {who} cannot see changed the legal actions {who} reads"),
                        first_difference(&json_of(&mine), &json_of(&theirs)),
                    );
                }
            }
        }
        Ok(copies)
    }

    /// The bots never peek: the search chooses the same move for `seat` on the game and on a
    /// copy where everything `seat` cannot see was re-drawn (same request, same seed). The
    /// plugin's own search when it has one, else the search through the engine.
    fn check_search(&mut self, step: u32, game: Handle, seat: Seat) -> Result<(), EngineError> {
        let seed = self.setup.seed.rotate_left(11) ^ u64::from(step);
        let request = SearchRequest::new(SEARCH_ITERATIONS, 4, seed, self.setup.players);
        let copy = self.engine.redraw_hidden(game, Some(seat), seed ^ 0xc0b1)?;
        // What the search stands on: a re-draw depends only on what the seat knows and the
        // seed, so the game and its copy re-drawn with one seed give the very same world.
        let (a, b) = (
            self.engine.redraw_hidden(game, Some(seat), seed)?,
            self.engine.redraw_hidden(copy, Some(seat), seed)?,
        );
        let same = self.engine.save(a)? == self.engine.save(b)?;
        self.engine.drop_game(a);
        self.engine.drop_game(b);
        if !same {
            let who = self.name(Some(seat));
            self.fail(
                step,
                format!("leak: re-drawing what {who} cannot see depends on the hidden state it replaces (the game and a re-drawn copy of it, re-drawn again with one seed, differ): a bot's search from the true game would see other worlds than from a copy. Start `redraw_hidden` from the unseen items in a fixed order (sort them), then shuffle"),
            );
        }
        let on_game = search_any(self.engine, game, seat, &request);
        let on_copy = search_any(self.engine, copy, seat, &request);
        self.engine.drop_game(copy);
        let (on_game, on_copy) = (on_game?, on_copy?);
        // The very same answer (visits and value too): the search only ever sees worlds
        // re-drawn from what the seat knows.
        if on_game != on_copy {
            let who = self.name(Some(seat));
            self.fail_with(
                step,
                format!("leak: the bots' search for {who} chose differently once what {who} cannot see was re-drawn: it reads hidden information (a `redraw_hidden` that depends on the hidden state it replaces, or an evaluation that reads it unsampled)"),
                format!("{on_game:?} on the game, {on_copy:?} on the copy"),
            );
        }
        Ok(())
    }

    /// The move just played, replayed on each viewer's re-drawn copy: what that viewer reads
    /// of it must not depend on what the viewer cannot see. Its label, always; its events
    /// that are not reveals, when the viewer sees the same scene after the move on both
    /// games and nothing was revealed on the way (a move may tell what it brings into view:
    /// the Alchimiste names the hand card it lays in the exchange, which the scene then
    /// shows). A move the re-drawn game does not allow (the actor's re-dealt hand lacks the
    /// card) tells nothing and is skipped.
    fn check_texts(
        &mut self,
        step: u32,
        game: Handle,
        copies: Vec<Redrawn>,
        seat: Seat,
        action: &Action,
        events: &[Event],
    ) -> Result<(), EngineError> {
        for Redrawn { viewer, copy } in copies {
            let result = self.texts_on_copy(game, copy, seat, action, viewer);
            self.engine.drop_game(copy);
            let Some(there) = result? else {
                continue;
            };
            let who = self.name(viewer);
            let actor = self.name(Some(seat));
            let label = action.label_for(seat, viewer);
            if &there.label != label {
                self.fail_with(
                    step,
                    format!("leak: the label of {actor}'s action as {who} reads it depends on what {who} cannot see"),
                    first_difference(&json_of(label), &json_of(&there.label)),
                );
            }
            let Some(seen) = there.events else {
                continue;
            };
            let read = read_by(events, seat, viewer);
            if events.iter().all(|e| !e.reveal) && read != seen {
                self.fail_with(
                    step,
                    format!("leak: the events of {actor}'s action as {who} reads them depend on what {who} cannot see (mark an event that reveals chance or a hidden card with `Event::reveal`, give secrets to their seat with `Event::with_private`)"),
                    first_difference(&json_of(&read), &json_of(&seen)),
                );
            }
        }
        Ok(())
    }

    /// A move whose outcome a viewer cannot see must not be told to that viewer either:
    /// when two of the actor's moves leave the viewer the same scene (the fox's burrow is
    /// secret), the viewer must read the same of both (the label, the events that are not
    /// reveals). Two moves that give the very same game hide nothing, and may read apart
    /// (Roc noir: exchanging a portrait with an empty pile takes it back, as keeping does).
    /// Checked on copies for the chosen move and a few others.
    fn check_secret_moves(
        &mut self,
        step: u32,
        game: Handle,
        seat: Seat,
        actions: &[Action],
        chosen: usize,
        rng: &mut GameRng,
    ) -> Result<(), EngineError> {
        let viewers: Vec<Option<Seat>> = std::iter::once(None)
            .chain((0..self.setup.players).filter(|&s| s != seat).map(Some))
            .collect();
        let mut picks = vec![chosen];
        for _ in 0..self.config.actions_tried_per_step.min(actions.len()) {
            let other = rng.below(actions.len());
            if !picks.contains(&other) {
                picks.push(other);
            }
        }
        // For each pick: the game after it, and per viewer (scene, label read, events read).
        let mut outcomes = Vec::new();
        for &i in &picks {
            let copy = self.engine.clone_game(game)?;
            let events = match self.engine.apply(copy, seat, &actions[i].id) {
                Ok(events) => events,
                Err(EngineError::Game(_)) => {
                    // Reported by the action checks.
                    self.engine.drop_game(copy);
                    continue;
                }
                Err(e) => return Err(e),
            };
            let mut read = Vec::new();
            for &viewer in &viewers {
                read.push((
                    self.engine.view(copy, viewer)?,
                    actions[i].label_for(seat, viewer).clone(),
                    read_by(&events, seat, viewer),
                ));
            }
            let after = self.engine.save(copy)?;
            self.engine.drop_game(copy);
            outcomes.push((i, after, read));
        }
        let Some((first, after, mine)) = outcomes.first() else {
            return Ok(());
        };
        for (k, &viewer) in viewers.iter().enumerate() {
            let (scene, label, events) = &mine[k];
            let told = outcomes[1..].iter().find(|(_, after2, theirs)| {
                let (scene2, label2, events2) = &theirs[k];
                scene == scene2 && after != after2 && (label != label2 || events != events2)
            });
            let Some((other, _, theirs)) = told else {
                continue;
            };
            let (_, label2, events2) = &theirs[k];
            let who = self.name(viewer);
            let actor = self.name(Some(seat));
            let (a, b) = (&actions[*first].id, &actions[*other].id);
            let detail = if label != label2 {
                format!("`{a}` reads {:?}, `{b}` reads {:?}", label.en, label2.en)
            } else {
                first_difference(&json_of(events), &json_of(events2))
            };
            self.fail_with(
                step,
                format!("leak: {who} cannot see which move {actor} made, but reads it in the move's text (give the secret to its seat: `Action::with_private`, `Event::with_private`)"),
                detail,
            );
        }
        Ok(())
    }

    /// On a re-drawn copy: what `viewer` reads of the action played on `game` (already
    /// played there), or `None` when the copy does not allow the action.
    fn texts_on_copy(
        &mut self,
        game: Handle,
        copy: Handle,
        seat: Seat,
        action: &Action,
        viewer: Option<Seat>,
    ) -> Result<Option<ReadOnCopy>, EngineError> {
        let listed = self.engine.legal_actions(copy, seat)?;
        let Some(there) = listed.iter().find(|a| a.id == action.id) else {
            return Ok(None);
        };
        let label = there.label_for(seat, viewer).clone();
        let events = match self.engine.apply(copy, seat, &action.id) {
            Ok(events) => events,
            Err(EngineError::Game(_)) => return Ok(None),
            Err(e) => return Err(e),
        };
        let comparable = events.iter().all(|e| !e.reveal)
            && self.engine.view(copy, viewer)? == self.engine.view(game, viewer)?;
        Ok(Some(ReadOnCopy {
            label,
            events: comparable.then(|| read_by(&events, seat, viewer)),
        }))
    }

    /// Seed + actions replay to the same state.
    fn check_replay(&mut self, game: Handle, played: &[(Seat, String)]) {
        let result = (|| -> Result<bool, EngineError> {
            let replay = self.engine.create(&self.setup)?;
            for (seat, id) in played {
                self.engine.apply(replay, *seat, id)?;
            }
            let same =
                state_hash(&self.engine.save(replay)?) == state_hash(&self.engine.save(game)?);
            self.engine.drop_game(replay);
            Ok(same)
        })();
        match result {
            Ok(true) => {}
            Ok(false) => self.fail(
                played.len() as u32,
                "replaying seed + actions gives a different state",
            ),
            Err(e) => self.fail(played.len() as u32, format!("replay failed: {e}")),
        }
    }

    /// The in-plugin playout is deterministic and agrees with the native build.
    fn check_playout(&mut self, _game: Handle) {
        let seed = self.setup.seed;
        let max = self.config.max_moves;
        let result = (|| -> Result<Option<String>, EngineError> {
            let run = |engine: &mut dyn GameEngine| -> Result<_, EngineError> {
                let h = engine.create(&self.setup)?;
                let result = engine.playout(h, seed, max)?;
                let state = engine.save(h)?;
                engine.drop_game(h);
                Ok((result, state))
            };
            let first = run(self.engine)?;
            if first.0.stuck {
                return Ok(Some(
                    "a random playout got stuck: a seat to act had no legal move".into(),
                ));
            }
            if run(self.engine)? != first {
                return Ok(Some("two playouts with the same seed differ".into()));
            }
            if let Some(reference) = self.reference.as_deref_mut() {
                if run(reference)? != first {
                    return Ok(Some(
                        "the native and wasm playouts with the same seed differ".into(),
                    ));
                }
            }
            Ok(None)
        })();
        match result {
            Ok(None) => {}
            Ok(Some(problem)) => self.fail(0, problem),
            Err(e) => self.fail(0, format!("playout failed: {e}")),
        }
    }
}

/// Compares two engines playing the same game: status, legal actions, state and views.
fn compare_engines(
    a: &mut dyn GameEngine,
    ha: Handle,
    b: &mut dyn GameEngine,
    hb: Handle,
    status: &Status,
    deep: bool,
) -> Result<Option<String>, EngineError> {
    if &b.status(hb)? != status {
        return Ok(Some("status".into()));
    }
    if a.save(ha)? != b.save(hb)? {
        return Ok(Some("saved state".into()));
    }
    if !deep {
        return Ok(None);
    }
    for &seat in status.seats() {
        if a.legal_actions(ha, seat)? != b.legal_actions(hb, seat)? {
            return Ok(Some(format!("legal actions of seat {seat}")));
        }
        if a.view(ha, Some(seat))? != b.view(hb, Some(seat))? {
            return Ok(Some(format!("view of seat {seat}")));
        }
    }
    Ok(None)
}

/// Why a scene cannot be drawn, if it cannot (see [`Scene::problem`]).
pub fn scene_problem(scene: &Scene) -> Option<String> {
    scene.problem()
}

/// Why an action's click path points at nothing in the scene, if it does.
pub fn path_problem(scene: &Scene, action: &Action) -> Option<String> {
    action.path.iter().find_map(|target| match target {
        Target::Cell { board, col, row } => match scene.boards.iter().find(|b| &b.id == board) {
            None => Some(format!(
                "its path names board `{board}`, which the scene lacks"
            )),
            Some(b) if b.cell(*col, *row).is_none() => Some(format!(
                "its path names cell ({col}, {row}) outside board `{board}`"
            )),
            Some(_) => None,
        },
        Target::Piece { id } => (!scene
            .boards
            .iter()
            .any(|b| b.pieces.iter().any(|p| &p.id == id)))
        .then(|| format!("its path names piece `{id}`, which is not in the scene")),
        Target::Card { id } => (!scene
            .zones
            .iter()
            .any(|z| z.cards.iter().any(|c| &c.id == id)))
        .then(|| format!("its path names card `{id}`, which is not in the scene")),
    })
}

/// What `seat` reads of its own legal actions, as JSON (the kit reports the first
/// difference between two readings).
fn actions_read(actions: &[Action], seat: Seat) -> Vec<serde_json::Value> {
    veillee_sdk::leaks::actions_read(actions, seat)
        .into_iter()
        .map(|(id, path, label)| serde_json::json!({"id": id, "path": path, "label": label}))
        .collect()
}

/// What a viewer reads of a move replayed on a re-drawn copy.
struct ReadOnCopy {
    /// The action's label.
    label: Text,
    /// Its events that are not reveals, when they are comparable with the real game's:
    /// nothing revealed, and the viewer sees the same scene after the move on both.
    events: Option<Vec<Text>>,
}

/// Re-drawn copies that must be dropped on every way out of a step.
struct DropOnExit(Vec<Redrawn>);

impl DropOnExit {
    fn new(copies: Vec<Redrawn>) -> Self {
        DropOnExit(copies)
    }

    fn take(self) -> Vec<Redrawn> {
        self.0
    }

    fn drop_in(self, engine: &mut dyn GameEngine) {
        for r in self.0 {
            engine.drop_game(r.copy);
        }
    }
}

fn json_of(value: &impl serde::Serialize) -> serde_json::Value {
    serde_json::to_value(value).unwrap_or(serde_json::Value::Null)
}

/// The first place where two JSON values differ, as `path: before → after`.
pub fn first_difference(a: &serde_json::Value, b: &serde_json::Value) -> String {
    use serde_json::Value;
    fn walk(a: &Value, b: &Value, path: &mut String) -> Option<String> {
        match (a, b) {
            (Value::Object(x), Value::Object(y)) => {
                for (key, va) in x {
                    let vb = y.get(key).unwrap_or(&Value::Null);
                    let len = path.len();
                    path.push('.');
                    path.push_str(key);
                    if let Some(found) = walk(va, vb, path) {
                        return Some(found);
                    }
                    path.truncate(len);
                }
                let extra = y.keys().find(|k| !x.contains_key(*k))?;
                Some(format!("{path}.{extra}: (absent) → {}", short(&y[extra])))
            }
            (Value::Array(x), Value::Array(y)) => {
                for (i, (va, vb)) in x.iter().zip(y).enumerate() {
                    let len = path.len();
                    path.push_str(&format!("[{i}]"));
                    if let Some(found) = walk(va, vb, path) {
                        return Some(found);
                    }
                    path.truncate(len);
                }
                (x.len() != y.len())
                    .then(|| format!("{path}: {} items → {} items", x.len(), y.len()))
            }
            _ => (a != b).then(|| format!("{path}: {} → {}", short(a), short(b))),
        }
    }
    let mut path = String::new();
    walk(a, b, &mut path).unwrap_or_else(|| "no difference".into())
}

/// A JSON value cut to a readable length.
fn short(value: &serde_json::Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(120) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}
