//! Operations offered to variant scripts (`ctx.game.query` / `ctx.game.command`, see
//! `variants/README.md`). They never change the rules by themselves: a house rule decides when
//! to call them.
//!
//! | name | kind | arguments | answer |
//! |---|---|---|---|
//! | `pass_turn` | command | — | the side to move passes: the other side is to move (RP-S2), a quiet move for RP-E4; refused after the end |

use serde_json::Value;
use veillee_sdk::{text, GameError, OperationKind, OperationSpec};

use crate::Renard;

/// The operations, as declared in the manifest.
pub(crate) fn specs() -> Vec<OperationSpec> {
    vec![OperationSpec {
        name: "pass_turn".into(),
        kind: OperationKind::Command,
        args: Vec::new(),
        description: text(
            "Le camp qui a le trait passe ; à l'autre de jouer",
            "The side to move passes; the other one moves",
        ),
    }]
}

pub(crate) fn command(game: &mut Renard, name: &str, _args: &Value) -> Result<Value, GameError> {
    match name {
        "pass_turn" => pass_turn(game),
        _ => Err(veillee_sdk::unknown_operation(name)),
    }
}

/// `pass_turn`: the side to move passes and the two sides go on taking turns (RP-S2). A pass
/// neither eats nor moves a hen forward, so it counts towards RP-E4's quiet moves: passing
/// cannot make a game endless. A fox handed the move while shut in loses (RP-E1), hens that
/// cannot move lose (RP-E3), as after any move.
fn pass_turn(game: &mut Renard) -> Result<Value, GameError> {
    if game.outcome().is_some() {
        return Err(GameError::Operation {
            name: "pass_turn".into(),
            reason: "the game is over".into(),
        });
    }
    game.to_move = 1 - game.to_move;
    game.quiet += 1;
    game.last.clear();
    game.eaten.clear();
    Ok(Value::Null)
}

#[cfg(test)]
mod tests {
    use serde_json::Value;
    use veillee_sdk::{Game, GameError, Log, Setup, Status};

    use crate::{Renard, FOX, HENS, QUIET_LIMIT};

    fn play(game: &mut Renard, id: &str) {
        let seat = game.status().seats()[0];
        let mv = game
            .moves(seat)
            .into_iter()
            .find(|m| game.describe(seat, m).id == id)
            .unwrap_or_else(|| panic!("{id} is not legal for seat {seat}"));
        game.play(seat, &mv, &mut Log::off());
    }

    #[test]
    fn pass_turn_hands_the_move_to_the_other_side_rp_s2_as_a_quiet_move_rp_e4() {
        let mut game = Renard::new(&Setup::new(2, 0)).unwrap();
        assert!(Renard::manifest()
            .operations
            .iter()
            .any(|op| op.name == "pass_turn"));
        game.command("pass_turn", &Value::Null).unwrap();
        assert_eq!(game.status(), Status::to_act(FOX));
        play(&mut game, "d4-d5");
        assert_eq!(game.status(), Status::to_act(HENS));
        game.command("pass_turn", &Value::Null).unwrap();
        assert_eq!(game.status(), Status::to_act(FOX));
        assert!(game.view(None).highlights.is_empty());
        // Passes alone end the game in a draw after RP-E4's quiet moves.
        for _ in 0..QUIET_LIMIT {
            if game.status().outcome().is_some() {
                break;
            }
            game.command("pass_turn", &Value::Null).unwrap();
        }
        let status = game.status();
        assert!(status.outcome().is_some_and(|o| o.is_draw()), "{status:?}");
        let err = game.command("pass_turn", &Value::Null).unwrap_err();
        assert!(
            matches!(&err, GameError::Operation { reason, .. } if reason.contains("over")),
            "{err:?}"
        );
    }
}
