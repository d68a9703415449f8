//! Random games played entirely inside the plugin.

use serde::{Deserialize, Serialize};

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
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayoutWatch {
    /// Stop before a seat picks when one of its legal actions matches (a hook that changes
    /// the list of actions).
    #[serde(default)]
    pub listed: Vec<String>,
    /// Stop before playing a picked action that matches (a hook that runs around a move).
    #[serde(default)]
    pub played: Vec<String>,
}

impl PlayoutWatch {
    /// Whether nothing is watched (the playout is a plain [`random_playout`]).
    pub fn is_empty(&self) -> bool {
        self.listed.is_empty() && self.played.is_empty()
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
    let stop = random_playout_until(game, seed, max_moves, &PlayoutWatch::default());
    PlayoutResult {
        moves: stop.moves,
        outcome: stop.outcome,
        stuck: stop.stuck,
    }
}

/// [`random_playout`] that stops before a watched move (see [`PlayoutWatch`]). With an empty
/// watch it plays exactly the same game as [`random_playout`] with the same seed. Ids are
/// built only for what is watched: the listed actions of every turn when `listed` is not
/// empty, the picked one when `played` is not.
pub fn random_playout_until<G: Game>(
    game: &mut G,
    seed: u64,
    max_moves: u32,
    watch: &PlayoutWatch,
) -> PlayoutStop {
    // One buffer each for the whole game: no allocation per move (issue 19).
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
    let mut rng = GameRng::new(seed);
    let mut log = Log::off();
    let mut moves = 0;
    let end = |moves, outcome, stuck| PlayoutStop {
        moves,
        outcome,
        stuck,
        seat: None,
        action: None,
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
