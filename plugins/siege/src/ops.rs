//! Operations offered to variant scripts (`ctx.game.query` / `ctx.game.command`, see
//! `variants/README.md`). They never change the rules by themselves: a house rule decides when
//! to call them.
//!
//! | name | kind | arguments | answer |
//! |---|---|---|---|
//! | `empty_dotted_squares` | query | — | the soldiers' dotted squares (`c6 d5 e5 f6`) that are empty, in square order |
//! | `soldiers_lost` | query | — | how many soldiers the defender has lost (0–4) |
//! | `special_rule_applies` | query | — | whether SG-R binds the defender's next move |
//! | `add_soldier` | command | `square` | puts a lost soldier back on that empty dotted square; answers its piece id |
//! | `end_special_rule` | command | — | ends SG-R now, as if the defender had made its four opening moves |

use serde_json::{json, Value};
use veillee_sdk::{text, GameError, OperationKind, OperationSpec};

use crate::board::{self, Sq, DOT, EMPTY, SOLDIER_HOMES};
use crate::{Siege, SPECIAL_RULE_MOVES};

/// The operations, as declared in the manifest.
pub(crate) fn specs() -> Vec<OperationSpec> {
    let spec = |name: &str, kind, args: &[&str], fr: &str, en: &str| OperationSpec {
        name: name.into(),
        kind,
        args: args.iter().map(|a| a.to_string()).collect(),
        description: text(fr, en),
    };
    vec![
        spec(
            "empty_dotted_squares",
            OperationKind::Query,
            &[],
            "Les cases à point des soldats (c6 d5 e5 f6) qui sont vides",
            "The soldiers' dotted squares (c6 d5 e5 f6) that are empty",
        ),
        spec(
            "soldiers_lost",
            OperationKind::Query,
            &[],
            "Le nombre de soldats perdus par le défenseur (0 à 4)",
            "How many soldiers the defender has lost (0 to 4)",
        ),
        spec(
            "special_rule_applies",
            OperationKind::Query,
            &[],
            "Si la règle spéciale (SG-R) s'impose au prochain coup du défenseur",
            "Whether the special rule (SG-R) binds the defender's next move",
        ),
        spec(
            "add_soldier",
            OperationKind::Command,
            &["square"],
            "Remet un soldat perdu sur une case à point vide ; répond son identifiant",
            "Puts a lost soldier back on an empty dotted square; answers its piece id",
        ),
        spec(
            "end_special_rule",
            OperationKind::Command,
            &[],
            "Lève la règle spéciale (SG-R) dès maintenant",
            "Ends the special rule (SG-R) now",
        ),
    ]
}

fn refuse(name: &str, reason: impl Into<String>) -> GameError {
    GameError::Operation {
        name: name.into(),
        reason: reason.into(),
    }
}

fn empty_dots(game: &Siege) -> Vec<Sq> {
    let mut squares: Vec<Sq> = SOLDIER_HOMES
        .iter()
        .copied()
        .filter(|&s| game.board[s as usize] == EMPTY)
        .collect();
    squares.sort_unstable();
    squares
}

pub(crate) fn query(game: &Siege, name: &str, _args: &Value) -> Result<Value, GameError> {
    match name {
        "empty_dotted_squares" => Ok(json!(empty_dots(game)
            .into_iter()
            .map(board::name)
            .collect::<Vec<_>>())),
        "soldiers_lost" => Ok(json!(4 - game.soldiers)),
        "special_rule_applies" => Ok(json!(game.special_rule_applies())),
        _ => Err(veillee_sdk::unknown_operation(name)),
    }
}

pub(crate) fn command(game: &mut Siege, name: &str, args: &Value) -> Result<Value, GameError> {
    match name {
        "add_soldier" => add_soldier(game, args),
        "end_special_rule" => {
            game.defender_moves = SPECIAL_RULE_MOVES;
            Ok(Value::Null)
        }
        _ => Err(veillee_sdk::unknown_operation(name)),
    }
}

fn add_soldier(game: &mut Siege, args: &Value) -> Result<Value, GameError> {
    const NAME: &str = "add_soldier";
    let square = args
        .get("square")
        .and_then(Value::as_str)
        .ok_or_else(|| refuse(NAME, "give the square, e.g. {square = \"d5\"}"))?;
    let s = board::parse(square)
        .filter(|&s| board::has(board::VALID, s))
        .ok_or_else(|| refuse(NAME, format!("`{square}` is not a square of the board")))?;
    if !board::has(DOT, s) {
        return Err(refuse(NAME, format!("{square} is not a dotted square")));
    }
    if game.board[s as usize] != EMPTY {
        return Err(refuse(NAME, format!("{square} is not empty")));
    }
    if game.outcome().is_some() {
        return Err(refuse(NAME, "the game is over"));
    }
    // The lowest soldier id not on the board.
    let code = (0..4u8)
        .map(board::soldier)
        .find(|&c| !game.board.contains(&c))
        .ok_or_else(|| refuse(NAME, "the defender has lost no soldier"))?;
    game.board[s as usize] = code;
    game.soldiers += 1;
    Ok(json!(board::piece_id(code)))
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use veillee_sdk::{Game, GameError, GameTable, OperationCall, Setup};

    use crate::{Siege, ATTACKER, DEFENDER};

    fn pos(diagram: &str, to_move: u8) -> Siege {
        Siege::from_diagram(diagram, to_move).unwrap()
    }

    /// Two soldiers lost; d5 and f6 empty.
    const TWO_LOST: &str = "
        6 ..S.L...
        5 ....S...
        4 ........
        3 ..K.....
        2 ........
        1 ......K.
        0 ........
    ";

    #[test]
    fn empty_dotted_squares_lists_empty_dots_in_square_order() {
        let game = pos(TWO_LOST, ATTACKER);
        assert_eq!(
            game.query("empty_dotted_squares", &json!(null)).unwrap(),
            json!(["d5", "f6"])
        );
        let start = Siege::new(&Setup::new(2, 0)).unwrap();
        assert_eq!(
            start.query("empty_dotted_squares", &json!(null)).unwrap(),
            json!([])
        );
    }

    #[test]
    fn soldiers_lost_counts_captured_soldiers() {
        assert_eq!(
            pos(TWO_LOST, ATTACKER)
                .query("soldiers_lost", &json!(null))
                .unwrap(),
            json!(2)
        );
        let start = Siege::new(&Setup::new(2, 0)).unwrap();
        assert_eq!(
            start.query("soldiers_lost", &json!(null)).unwrap(),
            json!(0)
        );
    }

    #[test]
    fn add_soldier_puts_the_lowest_free_soldier_on_an_empty_dot() {
        let mut game = pos(TWO_LOST, DEFENDER);
        let before = game.clone();
        let id = game
            .command("add_soldier", &json!({"square": "f6"}))
            .unwrap();
        assert_eq!(game.query("soldiers_lost", &json!(null)).unwrap(), json!(1));
        assert_eq!(
            game.query("empty_dotted_squares", &json!(null)).unwrap(),
            json!(["d5"])
        );
        assert!(id.as_str().unwrap().starts_with('s'));
        // Still the defender's turn: a command is not a move.
        assert_eq!(game.status(), before.status());
        // The saved form reloads (the new soldier is a normal piece).
        let bytes = serde_json::to_vec(&game).unwrap();
        let back: Siege = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(back, game);
        // The new soldier moves like any other (SG-D1).
        let ids: Vec<String> = game
            .moves(DEFENDER)
            .iter()
            .map(|m| game.move_id(DEFENDER, m))
            .collect();
        assert!(ids.iter().any(|id| id.starts_with("f6-")), "{ids:?}");
    }

    #[test]
    fn add_soldier_refuses_bad_squares_and_leaves_the_game_unchanged() {
        let mut game = pos(TWO_LOST, DEFENDER);
        let before = game.clone();
        for args in [
            json!({}),
            json!({"square": "z9"}),
            json!({"square": "d4"}),
            json!({"square": "c6"}),
        ] {
            let err = game.command("add_soldier", &args).unwrap_err();
            assert!(matches!(err, GameError::Operation { .. }), "{err:?}");
            assert_eq!(game, before);
        }
        let mut table = GameTable::<Siege>::default();
        let h = table.create(&Setup::new(2, 0)).unwrap();
        let err = table
            .operation(
                h,
                &OperationCall {
                    name: "add_soldier".into(),
                    args: json!({"square": "d5"}),
                },
            )
            .unwrap_err();
        assert!(matches!(err, GameError::Operation { .. }));
    }

    #[test]
    fn end_special_rule_frees_the_defender_sg_r() {
        let mut table = GameTable::<Siege>::default();
        let h = table.create(&Setup::new(2, 0)).unwrap();
        table.apply(h, DEFENDER, "lord-d6").unwrap();
        table.apply(h, ATTACKER, "c0-b2").unwrap();
        let restricted = table.legal_actions(h, DEFENDER).unwrap().len();
        let call = |name: &str| OperationCall {
            name: name.into(),
            args: json!(null),
        };
        assert_eq!(
            table.operation(h, &call("special_rule_applies")).unwrap(),
            json!(true)
        );
        table.operation(h, &call("end_special_rule")).unwrap();
        assert_eq!(
            table.operation(h, &call("special_rule_applies")).unwrap(),
            json!(false)
        );
        let free = table.legal_actions(h, DEFENDER).unwrap();
        assert!(free.len() > restricted);
        // The lord may move now (SG-R forbade it).
        assert!(free.iter().any(|a| a.id == "d6-e6"), "{free:?}");
    }

    #[test]
    fn undeclared_operations_are_refused() {
        let mut table = GameTable::<Siege>::default();
        let h = table.create(&Setup::new(2, 0)).unwrap();
        let err = table
            .operation(
                h,
                &OperationCall {
                    name: "win_now".into(),
                    args: json!(null),
                },
            )
            .unwrap_err();
        assert!(matches!(err, GameError::Operation { .. }));
    }
}
