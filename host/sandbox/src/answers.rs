//! What a plugin answers is checked against its manifest and its earlier answers before
//! anyone above the sandbox sees it.
//!
//! A plugin can pass the install self-check and still misbehave for one seed: say a seat is
//! to act that does not exist, or that no one is, list no move for the seat to act, or list
//! other ids at every call (a front end then asks again forever). Every such answer becomes
//! a [`super::fault::Fault::Protocol`] naming the call and the problem, so front ends never
//! index an empty list or loop on ids that never hold.

use std::collections::{BTreeMap, HashSet};

use veillee_sdk::search::SearchAnswer;
use veillee_sdk::{Action, Handle, Outcome, PlayoutStop, Seat, Status};

/// Longest action id accepted: ids are logged with every move of a session.
pub(crate) const MAX_ID_BYTES: usize = 1024;

/// Checks a status for a game of `players` seats.
pub(crate) fn check_status(status: &Status, players: u8) -> Result<(), String> {
    match status {
        Status::ToAct { seats } if seats.is_empty() => {
            Err("answered that the game goes on with no seat to act: no one could ever move".into())
        }
        Status::ToAct { seats } => seat_list("to act", seats, players),
        Status::Finished { outcome } => check_outcome(outcome, players),
    }
}

/// Checks how a game of `players` seats ended.
pub(crate) fn check_outcome(outcome: &Outcome, players: u8) -> Result<(), String> {
    seat_list("among the winners", &outcome.winners, players)?;
    if outcome.scores.len() > usize::from(players) {
        return Err(format!(
            "gave {} final scores for a game of {players} players",
            outcome.scores.len()
        ));
    }
    Ok(())
}

/// Checks where a watched playout of a game of `players` seats stopped: an outcome as
/// [`check_outcome`], a seat that exists, no more moves than allowed, an action only with its
/// seat, and an id of sane length.
pub(crate) fn check_playout_stop(
    stop: &PlayoutStop,
    players: u8,
    max_moves: u32,
) -> Result<(), String> {
    if let Some(outcome) = &stop.outcome {
        check_outcome(outcome, players)?;
    }
    if stop.moves > max_moves {
        return Err(format!(
            "played {} moves where at most {max_moves} were allowed",
            stop.moves
        ));
    }
    if stop.extra.is_some() && (stop.seat.is_none() || stop.action.is_some()) {
        return Err("drew an added action without naming only its seat".into());
    }
    match (stop.seat, &stop.action) {
        (Some(seat), _) if seat >= players => Err(format!(
            "stopped for seat {seat}, but this game has {players} players"
        )),
        (None, Some(_)) => Err("stopped at an action without naming its seat".into()),
        (_, Some(id)) if id.is_empty() || id.len() > MAX_ID_BYTES => {
            Err(format!("stopped at an action id of {} bytes", id.len()))
        }
        _ => Ok(()),
    }
}

/// Checks a search's answer: an action among `legal` (the seat's listing now) and not among
/// those the request excluded, figures that are numbers.
pub(crate) fn check_search_answer(
    answer: &SearchAnswer,
    legal: &[Action],
    excluded: &[String],
) -> Result<(), String> {
    if !legal.iter().any(|a| a.id == answer.action) {
        return Err(format!(
            "chose `{}`, which is not among the seat's {} legal actions",
            answer
                .action
                .chars()
                .take(64)
                .collect::<String>()
                .escape_debug(),
            legal.len()
        ));
    }
    if excluded.contains(&answer.action) {
        return Err(format!(
            "chose `{}`, which the request excluded",
            answer.action.escape_debug()
        ));
    }
    if !answer.value.is_finite() {
        return Err("answered a value that is not a number".into());
    }
    check_root_moves(answer, legal, excluded)
}

/// The root statistics and the moves proven lost name legal, distinct actions, and the
/// visits add up to no more than the iterations run: the host sums them over searches.
fn check_root_moves(
    answer: &SearchAnswer,
    legal: &[Action],
    excluded: &[String],
) -> Result<(), String> {
    let is_legal = |id: &str| legal.iter().any(|a| a.id == id);
    if answer.root.len() > legal.len() || answer.lost.len() > legal.len() {
        return Err("listed more root moves than the seat has legal actions".into());
    }
    let mut seen = std::collections::BTreeSet::new();
    let mut visits = 0u64;
    for stat in &answer.root {
        if !is_legal(&stat.action) || excluded.contains(&stat.action) {
            return Err(format!(
                "listed `{}` among the root moves, which is not a legal action it may choose",
                stat.action
                    .chars()
                    .take(64)
                    .collect::<String>()
                    .escape_debug()
            ));
        }
        if !seen.insert(stat.action.as_str()) {
            return Err(format!(
                "listed `{}` twice among the root moves",
                stat.action.escape_debug()
            ));
        }
        if !(0.0..=1.0).contains(&stat.value) {
            return Err("gave a root move a value outside 0–1".into());
        }
        visits += u64::from(stat.visits);
    }
    if visits > u64::from(answer.iterations) {
        return Err(format!(
            "counted {visits} visits of root moves in {} iterations",
            answer.iterations
        ));
    }
    if let Some(id) = answer.lost.iter().find(|id| !is_legal(id)) {
        return Err(format!(
            "said `{}` was proven lost, which is not a legal action",
            id.chars().take(64).collect::<String>().escape_debug()
        ));
    }
    Ok(())
}

/// Checks an evaluation of a game of `players` seats: one value per seat, each in `[0, 1]`.
pub(crate) fn check_values(values: &[f32], players: u8) -> Result<(), String> {
    if values.len() != usize::from(players) {
        return Err(format!(
            "gave {} values for a game of {players} players",
            values.len()
        ));
    }
    match values.iter().position(|v| !(0.0..=1.0).contains(v)) {
        Some(seat) => Err(format!(
            "valued seat {seat} at {}, outside 0 to 1",
            values[seat]
        )),
        None => Ok(()),
    }
}

/// Every seat exists, none twice.
fn seat_list(role: &str, seats: &[Seat], players: u8) -> Result<(), String> {
    let mut seen = HashSet::new();
    for &seat in seats {
        if seat >= players {
            return Err(format!(
                "named seat {seat} {role}, but this game has {players} players (seats 0 to {})",
                players.saturating_sub(1)
            ));
        }
        if !seen.insert(seat) {
            return Err(format!("named seat {seat} {role} twice"));
        }
    }
    Ok(())
}

/// Checks a list of actions: ids present, of bounded length, unique.
pub(crate) fn check_actions(seat: Seat, actions: &[Action]) -> Result<(), String> {
    let mut seen = HashSet::with_capacity(actions.len());
    for action in actions {
        if action.id.is_empty() {
            return Err(format!("listed an action of seat {seat} with an empty id"));
        }
        if action.id.len() > MAX_ID_BYTES {
            return Err(format!(
                "listed an action id of {} bytes for seat {seat}, more than the {MAX_ID_BYTES} an id may have",
                action.id.len()
            ));
        }
        if !seen.insert(action.id.as_str()) {
            return Err(format!(
                "listed the action `{}` twice for seat {seat}; ids must be unique",
                action.id.escape_debug()
            ));
        }
    }
    Ok(())
}

/// The last listing of each seat of each game, and whether the game changed since: ids must
/// be the same when nothing happened in between, and a listed id must be accepted.
#[derive(Debug, Default)]
pub(crate) struct Listings {
    games: BTreeMap<Handle, Game>,
}

#[derive(Debug, Default)]
struct Game {
    /// Ids last listed per seat, since the game last changed.
    seats: BTreeMap<Seat, Vec<String>>,
}

impl Listings {
    /// Records a listing; refuses one that differs from the previous listing of the same
    /// seat with no change to the game in between.
    pub(crate) fn listed(
        &mut self,
        game: Handle,
        seat: Seat,
        actions: &[Action],
    ) -> Result<(), String> {
        let ids: Vec<String> = actions.iter().map(|a| a.id.clone()).collect();
        let seats = &mut self.games.entry(game).or_default().seats;
        if let Some(before) = seats.get(&seat) {
            if *before != ids {
                return Err(format!(
                    "listed other actions for seat {seat} ({}) than a moment before ({}) with no move in between; action ids must stay the same until the game changes",
                    sample(&ids),
                    sample(before)
                ));
            }
        }
        seats.insert(seat, ids);
        Ok(())
    }

    /// Whether `id` was in the last listing of `seat` for this game (since it changed).
    pub(crate) fn was_listed(&self, game: Handle, seat: Seat, id: &str) -> bool {
        self.games
            .get(&game)
            .and_then(|g| g.seats.get(&seat))
            .is_some_and(|ids| ids.iter().any(|listed| listed == id))
    }

    /// The game may have changed (a move, an operation, a playout): listings start afresh.
    pub(crate) fn changed(&mut self, game: Handle) {
        self.games.remove(&game);
    }

    /// Every game changed or was lost (a restart).
    pub(crate) fn clear(&mut self) {
        self.games.clear();
    }
}

/// The first few ids, for messages.
fn sample(ids: &[String]) -> String {
    let shown: Vec<String> = ids
        .iter()
        .take(3)
        .map(|id| format!("`{}`", id.escape_debug()))
        .collect();
    match ids.len() {
        0 => "none".into(),
        n if n > 3 => format!("{}, … {n} in all", shown.join(", ")),
        _ => shown.join(", "),
    }
}

/// Counts the JSON objects and arrays in `bytes` (outside strings) and refuses more than
/// `max`: the memory that parsing takes grows with them far faster than with the bytes
/// (`[{},{},…]` is three bytes per value, each value a struct of a hundred).
pub(crate) fn check_json_size(bytes: &[u8], max: usize) -> Result<(), String> {
    let (mut containers, mut in_string, mut escaped) = (0usize, false, false);
    for &b in bytes {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' | b'[' => {
                containers += 1;
                if containers > max {
                    return Err(format!(
                        "answered with more than {max} JSON objects and lists, more than any game needs"
                    ));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use veillee_sdk::Text;

    fn action(id: &str) -> Action {
        Action::button(id, Text::same(id))
    }

    #[test]
    fn statuses_name_real_seats() {
        assert!(check_status(&Status::to_act(1), 2).is_ok());
        assert!(check_status(&Status::ToAct { seats: vec![] }, 2)
            .unwrap_err()
            .contains("no seat to act"));
        assert!(check_status(&Status::to_act(2), 2)
            .unwrap_err()
            .contains("seat 2 to act"));
        assert!(check_status(&Status::ToAct { seats: vec![0, 0] }, 2)
            .unwrap_err()
            .contains("twice"));
        let won = |winners: Vec<Seat>| Status::Finished {
            outcome: Outcome {
                winners,
                scores: vec![],
                reason: Text::same("end"),
            },
        };
        assert!(check_status(&won(vec![]), 2).is_ok());
        assert!(check_status(&won(vec![5]), 2)
            .unwrap_err()
            .contains("among the winners"));
    }

    #[test]
    fn action_ids_are_unique_and_present() {
        assert!(check_actions(0, &[action("a"), action("b")]).is_ok());
        assert!(check_actions(0, &[action("a"), action("a")])
            .unwrap_err()
            .contains("twice"));
        assert!(check_actions(0, &[action("")])
            .unwrap_err()
            .contains("empty id"));
        let long = "x".repeat(MAX_ID_BYTES + 1);
        assert!(check_actions(0, &[action(&long)]).is_err());
    }

    #[test]
    fn listings_must_hold_until_the_game_changes() {
        let mut listings = Listings::default();
        listings.listed(3, 0, &[action("a")]).unwrap();
        listings.listed(3, 0, &[action("a")]).unwrap();
        assert!(listings.was_listed(3, 0, "a"));
        assert!(!listings.was_listed(3, 1, "a"));
        let why = listings.listed(3, 0, &[action("b")]).unwrap_err();
        assert!(why.contains("`b`") && why.contains("`a`"), "{why}");
        listings.changed(3);
        listings.listed(3, 0, &[action("b")]).unwrap();
        assert!(!listings.was_listed(3, 0, "a"));
    }

    #[test]
    fn json_containers_are_counted_outside_strings() {
        assert!(check_json_size(br#"[{},{},{}]"#, 4).is_ok());
        assert!(check_json_size(br#"[{},{},{},{}]"#, 4).is_err());
        assert!(check_json_size(br#"["[[[[[", "\"[[[["]"#, 1).is_ok());
    }
}
