//! Random games played entirely inside the plugin.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{Game, GameRng, Log, Outcome, Seat, Status};

/// The result of [`random_playout`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayoutResult {
    /// Moves played.
    pub moves: u32,
    /// How the game ended; `None` when `max_moves` was reached first or the game got stuck.
    pub outcome: Option<Outcome>,
    /// A seat was to act but had no legal move: a bug in the game's rules.
    #[serde(default)]
    pub stuck: bool,
}

/// The actions a random playout must not play on its own (ABI 1.7): the host runs house
/// rules whose hooks concern these actions only, so the playout stops and hands the move to
/// the host whenever one of them comes up. Patterns are action ids where `*` stands for any
/// text (`take-*`, `end-turn`, `*-d6`); see [`id_matches`].
///
/// Since ABI 1.10 the host also sends [`PlayoutWatch::rules`], the same watch told finer (per
/// seat, a bounded number of added actions, a condition on the move's effect). A plugin of
/// 1.10 or later follows `rules` when there are some and ignores `listed` and `played`; an
/// older one reads only those two, which the host fills with a coarser watch that stops at
/// least as often (every stop is handled correctly by the host, only more slowly).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayoutWatch {
    /// Stop before a seat picks when one of its legal actions matches (a hook that changes
    /// the list of actions).
    #[serde(default)]
    pub listed: Vec<String>,
    /// Stop before playing a picked action that matches (a hook that runs around a move).
    #[serde(default)]
    pub played: Vec<String>,
    /// Since ABI 1.10: the watch as rules; see [`WatchRule`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<WatchRule>,
}

impl PlayoutWatch {
    /// Whether nothing is watched (the playout is a plain [`random_playout`]).
    pub fn is_empty(&self) -> bool {
        self.listed.is_empty() && self.played.is_empty() && self.rules.is_empty()
    }
}

/// One thing a playout watches for (ABI 1.10): the actions of some seats, and what to do
/// when one of them comes up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WatchRule {
    /// The seats whose actions it is about; empty: every seat.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seats: Vec<Seat>,
    /// Action-id patterns (`*` for any text, see [`id_matches`]).
    pub actions: Vec<String>,
    /// What the playout does about them.
    pub on: WatchOn,
}

impl WatchRule {
    /// Whether the rule is about `seat`'s actions.
    pub fn about(&self, seat: Seat) -> bool {
        self.seats.is_empty() || self.seats.contains(&seat)
    }

    /// Whether its patterns match every id (no id needs to be built to know).
    fn matches_all(&self) -> bool {
        self.actions.iter().any(|p| p == "*")
    }

    fn matches(&self, id: &str) -> bool {
        self.actions.iter().any(|p| id_matches(p, id))
    }
}

/// What a playout does when a [`WatchRule`]'s actions come up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum WatchOn {
    /// Stop before the seat picks when one of its legal actions matches: the host lists,
    /// lets its hooks change the list, and picks.
    Listed,
    /// The host adds at most `max` actions to the seat's list when one of its legal actions
    /// matches. The playout draws among the listed actions and `max` more: a draw among the
    /// listed ones is played as usual, a draw among the others stops with
    /// [`PlayoutStop::extra`] (which one, from 0). The host then plays that added action if
    /// there is one, else picks again among all of them — so every action, listed or added,
    /// is played with the same chance, while the host is asked only for a share `max /
    /// (listed + max)` of those turns.
    Added {
        /// Most actions the host adds.
        max: u32,
    },
    /// Stop before playing a matching action that was picked; with `when`, only if playing
    /// it meets the condition (the playout plays it on a copy to know).
    Played {
        /// The condition, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        when: Option<MoveCondition>,
    },
}

/// A condition on what a move does, read through one of the game's queries
/// ([`Game::query`], asked with no arguments) before and after the move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveCondition {
    /// The query's name.
    pub query: String,
    /// Met when the answer after the move equals this; absent: when the move changes the
    /// answer. A query that fails meets the condition (the host then decides).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub equals: Option<Value>,
}

impl MoveCondition {
    /// Whether the condition is met, from the query's answers before the move (asked only
    /// when `equals` is absent) and after it; `None` for a query that failed, which meets it.
    pub fn met(&self, before: Option<&Value>, after: Option<&Value>) -> bool {
        match (after, &self.equals) {
            (None, _) => true,
            (Some(after), Some(wanted)) => after == wanted,
            (Some(after), None) => before.is_none_or(|before| before != after),
        }
    }
}

/// Where [`random_playout_until`] stopped.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayoutStop {
    /// Moves played before stopping.
    pub moves: u32,
    /// How the game ended, if it did.
    #[serde(default)]
    pub outcome: Option<Outcome>,
    /// A seat was to act but had no legal move.
    #[serde(default)]
    pub stuck: bool,
    /// The seat whose watched move the host must now play (`None`: the playout ended, ran
    /// out of moves, or got stuck).
    #[serde(default)]
    pub seat: Option<Seat>,
    /// The watched action picked for `seat`, by id; `None` when it is the seat's list that is
    /// watched (the host lists, filters and picks).
    #[serde(default)]
    pub action: Option<String>,
    /// Since ABI 1.10: the draw fell on one of the actions the host adds ([`WatchOn::Added`]):
    /// which one, from 0, counting the added actions of every rule in the host's order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extra: Option<u32>,
}

/// Whether an action id matches a watch pattern: `*` stands for any text (possibly empty),
/// every other character for itself.
pub fn id_matches(pattern: &str, id: &str) -> bool {
    let mut parts = pattern.split('*');
    let first = parts.next().unwrap_or_default();
    let Some(mut rest) = id.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    let Some((last, middle)) = parts.split_last() else {
        // No `*`: the whole id.
        return rest.is_empty();
    };
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

/// Plays random moves until the game ends or `max_moves` moves were played. When several
/// seats may act, one of them is picked at random. The game is left in its final state.
pub fn random_playout<G: Game>(game: &mut G, seed: u64, max_moves: u32) -> PlayoutResult {
    random_playout_until(game, seed, max_moves, &PlayoutWatch::default()).into()
}

impl From<PlayoutStop> for PlayoutResult {
    /// The result of a playout that watched nothing (its stop is the end or the limit).
    fn from(stop: PlayoutStop) -> Self {
        PlayoutResult {
            moves: stop.moves,
            outcome: stop.outcome,
            stuck: stop.stuck,
        }
    }
}

/// [`random_playout`] that stops before a watched move (see [`PlayoutWatch`]). With an empty
/// watch it plays exactly the same game as [`random_playout`] with the same seed. Ids are
/// built only for what is watched: the listed actions of every turn when `listed` is not
/// empty, the picked one when `played` is not. With [`PlayoutWatch::rules`], those are
/// followed instead (see [`WatchRule`]).
pub fn random_playout_until<G: Game>(
    game: &mut G,
    seed: u64,
    max_moves: u32,
    watch: &PlayoutWatch,
) -> PlayoutStop {
    // One buffer each for the whole game: no allocation per move.
    random_playout_in(
        game,
        seed,
        max_moves,
        watch,
        &mut Vec::new(),
        &mut Vec::new(),
    )
}

/// [`random_playout_until`] with the buffers of the seats to act and the legal moves supplied
/// by the caller, who keeps them across playouts (the search plays one per iteration).
pub(crate) fn random_playout_in<G: Game>(
    game: &mut G,
    seed: u64,
    max_moves: u32,
    watch: &PlayoutWatch,
    seats: &mut Vec<Seat>,
    legal: &mut Vec<G::Move>,
) -> PlayoutStop {
    if !watch.rules.is_empty() {
        return playout_by_rules(game, seed, max_moves, &watch.rules);
    }
    let mut rng = GameRng::new(seed);
    let mut log = Log::off();
    let mut moves = 0;
    let end = |moves, outcome, stuck| PlayoutStop {
        moves,
        outcome,
        stuck,
        seat: None,
        action: None,
        extra: None,
    };
    let watched = |patterns: &[String], id: &str| patterns.iter().any(|p| id_matches(p, id));
    loop {
        if !game.seats_to_act(seats) {
            let outcome = match game.status() {
                Status::Finished { outcome } => Some(outcome),
                Status::ToAct { .. } => None,
            };
            return end(moves, outcome, false);
        }
        let Some(&seat) = rng.pick(seats) else {
            return end(moves, None, true);
        };
        if moves >= max_moves {
            return end(moves, None, false);
        }
        game.moves_into(seat, legal);
        if !watch.listed.is_empty()
            && legal
                .iter()
                .any(|mv| watched(&watch.listed, &game.move_id(seat, mv)))
        {
            return PlayoutStop {
                seat: Some(seat),
                ..end(moves, None, false)
            };
        }
        let Some(mv) = rng.pick(legal) else {
            return end(moves, None, true);
        };
        if !watch.played.is_empty() {
            let id = game.move_id(seat, mv);
            if watched(&watch.played, &id) {
                return PlayoutStop {
                    seat: Some(seat),
                    action: Some(id),
                    ..end(moves, None, false)
                };
            }
        }
        game.play(seat, mv, &mut log);
        moves += 1;
    }
}

/// [`random_playout_until`] following [`WatchRule`]s (ABI 1.10).
fn playout_by_rules<G: Game>(
    game: &mut G,
    seed: u64,
    max_moves: u32,
    rules: &[WatchRule],
) -> PlayoutStop {
    let mut rng = GameRng::new(seed);
    let mut log = Log::off();
    let mut moves = 0;
    let stop = |moves, seat: Option<Seat>, outcome, stuck| PlayoutStop {
        moves,
        outcome,
        stuck,
        seat,
        action: None,
        extra: None,
    };
    // The game as it was before a move played to test a condition (reused).
    let mut before: Option<G> = None;
    loop {
        let seat = match game.status() {
            Status::Finished { outcome } => return stop(moves, None, Some(outcome), false),
            Status::ToAct { seats } => match rng.pick(&seats) {
                Some(&seat) => seat,
                None => return stop(moves, None, None, true),
            },
        };
        if moves >= max_moves {
            return stop(moves, None, None, false);
        }
        let legal = game.moves(seat);
        if legal.is_empty() {
            return stop(moves, None, None, true);
        }
        // This seat's rules about its list, and about the move picked.
        let lists = || {
            rules
                .iter()
                .filter(|r| r.about(seat) && !matches!(r.on, WatchOn::Played { .. }))
        };
        let played = || {
            rules
                .iter()
                .filter(|r| r.about(seat) && matches!(r.on, WatchOn::Played { .. }))
        };
        // The ids of the whole list only when a listing rule of this seat names some (`*`
        // needs none); a played rule needs the picked move's id only.
        let ids: Option<Vec<String>> = lists()
            .any(|r| !r.matches_all())
            .then(|| legal.iter().map(|mv| game.move_id(seat, mv)).collect());
        let listed = |rule: &WatchRule| {
            rule.matches_all() || ids.iter().flatten().any(|id| rule.matches(id))
        };
        if lists().any(|r| matches!(r.on, WatchOn::Listed) && listed(r)) {
            return stop(moves, Some(seat), None, false);
        }
        let added: u32 = lists()
            .filter(|r| listed(r))
            .map(|r| match r.on {
                WatchOn::Added { max } => max,
                _ => 0,
            })
            .fold(0, u32::saturating_add);
        let index = rng.below(legal.len() + added as usize);
        if index >= legal.len() {
            return PlayoutStop {
                extra: Some((index - legal.len()) as u32),
                ..stop(moves, Some(seat), None, false)
            };
        }
        let mv = &legal[index];
        // The picked move's id, built only when a played rule of this seat names some.
        let this: Option<String> = played().any(|r| !r.matches_all()).then(|| match &ids {
            Some(ids) => ids[index].clone(),
            None => game.move_id(seat, mv),
        });
        let mut conditions: Vec<&MoveCondition> = Vec::new();
        for rule in
            played().filter(|r| r.matches_all() || this.as_ref().is_some_and(|id| r.matches(id)))
        {
            match &rule.on {
                WatchOn::Played { when: Some(when) } => conditions.push(when),
                _ => {
                    return PlayoutStop {
                        action: Some(this.unwrap_or_else(|| game.move_id(seat, mv))),
                        ..stop(moves, Some(seat), None, false)
                    }
                }
            }
        }
        let mv = mv.clone();
        if conditions.is_empty() {
            game.play(seat, &mv, &mut log);
            moves += 1;
            continue;
        }
        // Play it on the game and read the conditions; if one is met, go back to the game as
        // it was and hand the move over.
        let answers_before: Vec<Option<serde_json::Value>> = conditions
            .iter()
            .map(|c| {
                c.equals
                    .is_none()
                    .then(|| game.query(&c.query, &Value::Null).ok())
                    .flatten()
            })
            .collect();
        match before.as_mut() {
            Some(copy) => copy.clone_from(game),
            None => before = Some(game.clone()),
        }
        game.play(seat, &mv, &mut log);
        let met = conditions.iter().zip(&answers_before).any(|(c, was)| {
            let now = game.query(&c.query, &Value::Null).ok();
            c.met(was.as_ref(), now.as_ref())
        });
        if met {
            if let Some(copy) = before.take() {
                *game = copy;
            }
            return PlayoutStop {
                action: Some(this.unwrap_or_else(|| game.move_id(seat, &mv))),
                ..stop(moves, Some(seat), None, false)
            };
        }
        moves += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::id_matches;

    #[test]
    fn watch_patterns_match_whole_ids_with_stars_for_any_text() {
        assert!(id_matches("end-turn", "end-turn"));
        assert!(!id_matches("end-turn", "end-turns"));
        assert!(!id_matches("end", "end-turn"));
        assert!(id_matches("take-*", "take-e5"));
        assert!(id_matches("take-*", "take-"));
        assert!(!id_matches("take-*", "retake-e5"));
        assert!(id_matches("*-d6", "lord-d6"));
        assert!(!id_matches("*-d6", "lord-d6x"));
        assert!(id_matches("d6-*", "d6-c5"));
        assert!(id_matches("*", "anything"));
        assert!(id_matches("a*b*c", "a-xb-yc"));
        assert!(!id_matches("a*b*c", "a-xc-yb"));
        assert!(!id_matches("ab*ba", "aba"));
    }
}
