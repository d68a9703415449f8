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

use std::collections::BTreeMap;

use sha2::{Digest, Sha256};
use veillee_sdk::{
    Action, GameError, GameRng, Handle, OptionValue, Scene, Seat, Setup, Status, Target,
};

use veillee_engine::{EngineError, GameEngine};

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
    /// Each failure, in words, with the seed and move number to reproduce it.
    pub failures: Vec<String>,
}

impl CheckReport {
    /// Whether every check passed.
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }
}

/// The hash of a saved state, as shown in reports and compared in replays.
pub fn state_hash(state: &[u8]) -> String {
    let digest = Sha256::digest(state);
    digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
}

/// Runs the kit over every player count of the game.
pub fn check(
    engine: &mut dyn GameEngine,
    mut reference: Option<&mut (dyn GameEngine + '_)>,
    config: &CheckConfig,
) -> CheckReport {
    let manifest = engine.manifest().clone();
    let mut report = CheckReport {
        game: manifest.id.clone(),
        ..CheckReport::default()
    };
    if let Some(reference) = reference.as_deref_mut() {
        if reference.manifest() != &manifest {
            report
                .failures
                .push("the native and wasm builds have different manifests".into());
        }
    }
    let tables = match config.players {
        Some(players) => players..=players,
        None => manifest.min_players..=manifest.max_players,
    };
    for players in tables {
        for i in 0..config.games {
            let mut setup = Setup::new(players, config.seed.wrapping_add(i as u64));
            setup.options = config.options.clone();
            let mut game = GameCheck {
                engine: &mut *engine,
                reference: reference.as_deref_mut(),
                config,
                setup,
                failures: Vec::new(),
            };
            let moves = game.run();
            report.games += 1;
            report.moves += moves as u64;
            report.failures.append(&mut game.failures);
            if report.failures.len() > 20 {
                report.failures.push("…stopping after 20 failures".into());
                return report;
            }
        }
    }
    report
}

/// One random game under scrutiny.
struct GameCheck<'a, 'e, 'r> {
    engine: &'a mut (dyn GameEngine + 'e),
    reference: Option<&'a mut (dyn GameEngine + 'r)>,
    config: &'a CheckConfig,
    setup: Setup,
    failures: Vec<String>,
}

impl GameCheck<'_, '_, '_> {
    fn fail(&mut self, step: u32, what: impl std::fmt::Display) {
        self.failures.push(format!(
            "{} players, seed {}, move {step}: {what}",
            self.setup.players, self.setup.seed
        ));
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
            if deep {
                self.check_views(step, game, &status)?;
            }
            if let (Some(r), Some(h)) = (self.reference.as_deref_mut(), reference) {
                if let Some(diff) = compare_engines(self.engine, game, r, h, &status, deep)? {
                    self.fail(step, format!("native and wasm builds disagree: {diff}"));
                    return Ok(());
                }
            }
            let seats = match &status {
                Status::Finished { .. } => return Ok(()),
                Status::ToAct { seats } if seats.is_empty() => {
                    self.fail(step, "the game is not over but no seat is to act");
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
                return Ok(());
            }
            let seat = seats[rng.below(seats.len())];
            let actions = self.engine.legal_actions(game, seat)?;
            if actions.is_empty() {
                self.fail(
                    step,
                    format!("seat {seat} is to act but has no legal action"),
                );
                return Ok(());
            }
            if deep {
                self.check_actions(step, game, seat, &actions, rng)?;
                self.check_refusals(step, game, seat, &seats)?;
                self.check_round_trip(step, game)?;
            }
            let action = &actions[rng.below(actions.len())];
            self.engine.apply(game, seat, &action.id)?;
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
    /// its legal actions.
    fn check_views(
        &mut self,
        step: u32,
        game: Handle,
        _status: &Status,
    ) -> Result<(), EngineError> {
        let hidden = self.engine.manifest().hidden_information;
        let viewers = std::iter::once(None).chain((0..self.setup.players).map(Some));
        for viewer in viewers.collect::<Vec<_>>() {
            let scene = self.engine.view(game, viewer)?;
            if let Some(problem) = scene_problem(&scene) {
                self.fail(step, format!("view for {viewer:?}: {problem}"));
            }
            if hidden {
                let seed = self.setup.seed.wrapping_mul(31).wrapping_add(step as u64);
                let redrawn = self.engine.redraw_hidden(game, viewer, seed)?;
                let other = self.engine.view(redrawn, viewer)?;
                // What a seat may do is also what it sees (a house rule's private question
                // lists cards): it must not depend on what that seat cannot see either.
                let actions = match viewer {
                    Some(seat) => Some((
                        self.engine.legal_actions(game, seat)?,
                        self.engine.legal_actions(redrawn, seat)?,
                    )),
                    None => None,
                };
                self.engine.drop_game(redrawn);
                if other != scene {
                    self.fail(
                        step,
                        format!(
                            "leak: re-drawing what {viewer:?} cannot see changed that viewer's \
                             view ({})",
                            first_difference(&scene, &other)
                        ),
                    );
                }
                if actions.is_some_and(|(mine, redrawn)| mine != redrawn) {
                    self.fail(step, format!("leak: re-drawing what {viewer:?} cannot see changed that seat's legal actions"));
                }
            }
        }
        Ok(())
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

/// Where two values first differ, as a JSON path with both values (`scores[2].value: "3"
/// vs "4"`), so that a failure says what leaked.
fn first_difference(a: &Scene, b: &Scene) -> String {
    fn walk(a: &serde_json::Value, b: &serde_json::Value, path: &mut String) -> Option<String> {
        use serde_json::Value;
        match (a, b) {
            (Value::Object(x), Value::Object(y)) => {
                for key in x.keys().chain(y.keys()) {
                    let (u, v) = (x.get(key), y.get(key));
                    if u == v {
                        continue;
                    }
                    let len = path.len();
                    path.push_str(&format!(".{key}"));
                    let found = match (u, v) {
                        (Some(u), Some(v)) => walk(u, v, path),
                        _ => Some(format!("{path}: {u:?} vs {v:?}")),
                    };
                    path.truncate(len);
                    return found;
                }
                None
            }
            (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
                let i = x.iter().zip(y).position(|(u, v)| u != v)?;
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                let found = walk(&x[i], &y[i], path);
                path.truncate(len);
                found
            }
            _ if a == b => None,
            _ => Some(format!("{path}: {a} vs {b}")),
        }
    }
    let (Ok(a), Ok(b)) = (serde_json::to_value(a), serde_json::to_value(b)) else {
        return "the views cannot be compared as JSON".into();
    };
    walk(&a, &b, &mut String::new()).unwrap_or_else(|| "no difference as JSON".into())
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
