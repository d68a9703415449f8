//! Random games played entirely inside the plugin.

use serde::{Deserialize, Serialize};

use crate::{Game, GameRng, Log, Outcome, Status};

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

/// Plays random moves until the game ends or `max_moves` moves were played. When several
/// seats may act, one of them is picked at random. The game is left in its final state.
pub fn random_playout<G: Game>(game: &mut G, seed: u64, max_moves: u32) -> PlayoutResult {
    let mut rng = GameRng::new(seed);
    let mut log = Log::off();
    let mut moves = 0;
    loop {
        let seat = match game.status() {
            Status::Finished { outcome } => {
                return PlayoutResult {
                    moves,
                    outcome: Some(outcome),
                    stuck: false,
                }
            }
            Status::ToAct { seats } => match rng.pick(&seats) {
                Some(&seat) => seat,
                None => {
                    return PlayoutResult {
                        moves,
                        outcome: None,
                        stuck: true,
                    }
                }
            },
        };
        if moves >= max_moves {
            return PlayoutResult {
                moves,
                outcome: None,
                stuck: false,
            };
        }
        let legal = game.moves(seat);
        let Some(mv) = rng.pick(&legal) else {
            return PlayoutResult {
                moves,
                outcome: None,
                stuck: true,
            };
        };
        let mv = mv.clone();
        game.play(seat, &mv, &mut log);
        moves += 1;
    }
}
