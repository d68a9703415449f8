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
//! | `piece_at` | query | `square` | the id of the piece on that square, or `nil` |
//! | `where_is` | query | `piece` | the square of that piece, or `nil` once it is captured |
//! | `move_piece` | command | `from`, `to` | plays that step for the side to move, as a move (captures, counts, passes the turn) |
//! | `remove_piece` | command | `square` | takes the piece on that square off the board, as a capture; not a move |
//! | `pass_turn` | command | — | the side to move passes, as a move (SG-E3's pass) |
//! | `reinforcements` | command | — | house rule « renforts » for the rest of the game: once, after losing a soldier, the defender may bring one back onto an empty dotted square |
//! | `nimble_lord` | command | — | house rule « seigneur agile » for the rest of the game: the lord may also step one square diagonally inside the castle |

use serde_json::{json, Value};
use veillee_sdk::{text, Game, GameError, Log, OperationKind, OperationSpec};

use crate::board::{self, Sq, DOT, EMPTY, SOLDIER_HOMES};
use crate::{Move, Siege, SPECIAL_RULE_MOVES};

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
        spec(
            "piece_at",
            OperationKind::Query,
            &["square"],
            "L'identifiant de la pièce sur cette case, ou rien",
            "The id of the piece on that square, or nil",
        ),
        spec(
            "where_is",
            OperationKind::Query,
            &["piece"],
            "La case de cette pièce, ou rien si elle a été prise",
            "The square of that piece, or nil once it is captured",
        ),
        spec(
            "move_piece",
            OperationKind::Command,
            &["from", "to"],
            "Joue ce déplacement pour le camp qui a le trait, comme un coup (prise, décomptes, \
             le trait passe)",
            "Plays that step for the side to move, as a move (captures, counts, passes the turn)",
        ),
        spec(
            "remove_piece",
            OperationKind::Command,
            &["square"],
            "Retire la pièce de cette case, comme une prise ; ce n'est pas un coup",
            "Takes the piece on that square off the board, as a capture; not a move",
        ),
        spec(
            "pass_turn",
            OperationKind::Command,
            &[],
            "Le camp qui a le trait passe, comme un coup (SG-E3)",
            "The side to move passes, as a move (SG-E3)",
        ),
        spec(
            "reinforcements",
            OperationKind::Command,
            &[],
            "Règle maison « renforts » jusqu'à la fin de la partie : une fois, après la perte \
             d'un soldat, le défenseur peut en faire revenir un sur une case à point vide",
            "House rule « renforts » for the rest of the game: once, after losing a soldier, \
             the defender may bring one back onto an empty dotted square",
        ),
        spec(
            "nimble_lord",
            OperationKind::Command,
            &[],
            "Règle maison « seigneur agile » jusqu'à la fin de la partie : le seigneur peut \
             aussi faire un pas d'une case en diagonale dans le château",
            "House rule « seigneur agile » for the rest of the game: the lord may also step \
             one square diagonally inside the castle",
        ),
    ]
}

fn refuse(name: &str, reason: impl Into<String>) -> GameError {
    GameError::Operation {
        name: name.into(),
        reason: reason.into(),
    }
}

pub(crate) fn empty_dots(game: &Siege) -> Vec<Sq> {
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
        "piece_at" => {
            let s = square_arg(name, _args, "square")?;
            let code = game.board[s as usize];
            Ok(if code == EMPTY {
                Value::Null
            } else {
                json!(board::piece_id(code))
            })
        }
        "where_is" => {
            let id = _args
                .get("piece")
                .and_then(Value::as_str)
                .ok_or_else(|| refuse(name, "give the piece, e.g. {piece = \"lord\"}"))?;
            let code = board::parse_piece(id)
                .ok_or_else(|| refuse(name, format!("`{id}` is not a piece id of Siège")))?;
            Ok(match game.board.iter().position(|&c| c == code) {
                Some(s) => json!(board::name(s as Sq)),
                None => Value::Null,
            })
        }
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
        // SG-L1, SG-L3 (house rule « seigneur agile »): see `rules.rs`, `nimble_steps`.
        "nimble_lord" => {
            game.nimble_lord = true;
            Ok(Value::Null)
        }
        // House rule « renforts »: see `lib.rs`, `Move::Reinforce`.
        "reinforcements" => {
            if game.reinforcements == crate::Reinforcements::Off {
                game.reinforcements = crate::Reinforcements::Ready;
            }
            Ok(Value::Null)
        }
        "move_piece" => move_piece(game, args),
        "remove_piece" => remove_piece(game, args),
        "pass_turn" => {
            if game.outcome().is_some() || !game.lord_placed {
                return Err(refuse(
                    name,
                    "only once the lord is placed, and not after the end",
                ));
            }
            let seat = game.to_move;
            game.play(seat, &Move::Pass, &mut Log::off());
            Ok(Value::Null)
        }
        _ => Err(veillee_sdk::unknown_operation(name)),
    }
}

/// A square argument of the board.
fn square_arg(name: &str, args: &Value, key: &str) -> Result<Sq, GameError> {
    let square = args
        .get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| refuse(name, format!("give `{key}`, a square such as \"d5\"")))?;
    board::parse(square)
        .filter(|&s| board::has(board::VALID, s))
        .ok_or_else(|| refuse(name, format!("`{square}` is not a square of the board")))
}

/// `move_piece {from, to}`: the side to move's piece on `from` goes to `to`, capturing an
/// enemy piece there, with every count of a real move; the turn passes. The script decides
/// whether the step is allowed: only the board's own limits are checked.
fn move_piece(game: &mut Siege, args: &Value) -> Result<Value, GameError> {
    const NAME: &str = "move_piece";
    let from = square_arg(NAME, args, "from")?;
    let to = square_arg(NAME, args, "to")?;
    if game.outcome().is_some() || !game.lord_placed {
        return Err(refuse(
            NAME,
            "only once the lord is placed, and not after the end",
        ));
    }
    let piece = game.board[from as usize];
    let mover = game.to_move;
    let own = |code| code != EMPTY && board::is_knight(code) == (mover == crate::ATTACKER);
    if !own(piece) {
        return Err(refuse(
            NAME,
            format!("no piece of the side to move on {}", board::name(from)),
        ));
    }
    if from == to || own(game.board[to as usize]) {
        return Err(refuse(
            NAME,
            format!("{} is not free for it", board::name(to)),
        ));
    }
    game.play(mover, &Move::Step { from, to }, &mut Log::off());
    Ok(Value::Null)
}

/// `remove_piece {square}`: the piece there leaves the game as if captured (it may end the
/// game: the lord's or the fourth knight's capture); the turn does not change.
fn remove_piece(game: &mut Siege, args: &Value) -> Result<Value, GameError> {
    const NAME: &str = "remove_piece";
    let s = square_arg(NAME, args, "square")?;
    if game.outcome().is_some() {
        return Err(refuse(NAME, "the game is over"));
    }
    let code = std::mem::replace(&mut game.board[s as usize], EMPTY);
    if code == EMPTY {
        return Err(refuse(NAME, format!("{} is empty", board::name(s))));
    }
    game.capture_made = true;
    game.quiet_plies = 0;
    if board::is_knight(code) {
        game.knights -= 1;
    } else if board::is_soldier(code) {
        game.soldiers -= 1;
    } else {
        game.lord_taken = true;
    }
    Ok(json!(board::piece_id(code)))
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

    /// The lord on d5 with a knight on c4 and soldiers around: its one-square diagonals are
    /// c6 (a soldier), e6 (empty), c4 (a knight) and e4 (empty).
    const LORD_D5: &str = "
        6 ..S.....
        5 ...LS...
        4 ..K.....
        3 ........
        2 ........
        1 ......K.
        0 ........
    ";

    fn listed(game: &Siege, seat: u8) -> Vec<veillee_sdk::Action> {
        game.moves(seat)
            .iter()
            .map(|m| game.describe(seat, m))
            .collect()
    }

    #[test]
    fn sg_l1_nimble_lord_adds_the_lords_one_square_diagonal_steps() {
        let plain = pos(LORD_D5, DEFENDER);
        let mut game = plain.clone();
        game.command("nimble_lord", &json!(null)).unwrap();
        let before: Vec<String> = listed(&plain, DEFENDER).into_iter().map(|a| a.id).collect();
        let after = listed(&game, DEFENDER);
        let ids: Vec<&str> = after.iter().map(|a| a.id.as_str()).collect();
        // The plain moves first, in their order; then the new steps (not onto the soldier).
        assert_eq!(
            ids[..before.len()],
            before.iter().map(String::as_str).collect::<Vec<_>>()[..]
        );
        assert_eq!(ids[before.len()..], ["d5-e6", "d5-c4", "d5-e4"]);
        let take = &after[before.len() + 1];
        assert_eq!(
            take.label.fr,
            "Seigneur d5 → c4 prend le chevalier (pas agile)"
        );
        assert_eq!(take.label.en, "Lord d5 → c4 takes the knight (nimble step)");
        // Click path: the lord, then the square (c4 is scene cell col 2, row 6 - 4).
        assert_eq!(
            take.path,
            veillee_sdk::move_path(crate::BOARD_ID, "lord", &[(2, 2)])
        );
        // The attacker's moves do not change.
        let attacker = pos(LORD_D5, ATTACKER);
        let mut nimble_attacker = attacker.clone();
        nimble_attacker
            .command("nimble_lord", &json!(null))
            .unwrap();
        assert_eq!(attacker.moves(ATTACKER), nimble_attacker.moves(ATTACKER));
    }

    #[test]
    fn sg_l3_a_nimble_step_onto_a_knight_takes_it_as_a_move() {
        let mut table = GameTable::<Siege>::default();
        let mut game = pos(LORD_D5, DEFENDER);
        game.command("nimble_lord", &json!(null)).unwrap();
        let h = table.load(&serde_json::to_vec(&game).unwrap()).unwrap();
        table.apply(h, DEFENDER, "d5-c4").unwrap();
        let call = |name: &str, args| OperationCall {
            name: name.into(),
            args,
        };
        assert_eq!(
            table
                .operation(h, &call("where_is", json!({"piece": "lord"})))
                .unwrap(),
            json!("c4")
        );
        let after = table.get(h).unwrap();
        assert_eq!(after.knights, 1);
        assert_eq!(after.quiet_plies(), 0);
        assert_eq!(after.status(), veillee_sdk::Status::to_act(ATTACKER));
    }

    #[test]
    fn sg_r_binds_the_nimble_lord_too() {
        let mut game = pos(LORD_D5, DEFENDER).with_special_rule(1);
        game.command("nimble_lord", &json!(null)).unwrap();
        let ids: Vec<String> = listed(&game, DEFENDER).into_iter().map(|a| a.id).collect();
        assert!(ids.iter().all(|id| !id.starts_with("d5-")), "{ids:?}");
    }

    #[test]
    fn sg_e3_no_pass_while_a_nimble_step_is_left() {
        // The lord on c6, boxed in: d5 holds a knight, and nothing else of the defender's is
        // left. Plain, it can only pass; nimble, it takes the knight.
        const BOXED: &str = "
            6 ..L.....
            5 ...K....
            4 ........
            3 ........
            2 ........
            1 ......K.
            0 ........
        ";
        let plain = pos(BOXED, DEFENDER);
        assert_eq!(plain.moves(DEFENDER), vec![crate::Move::Pass]);
        let mut game = plain.clone();
        game.command("nimble_lord", &json!(null)).unwrap();
        let ids: Vec<String> = listed(&game, DEFENDER).into_iter().map(|a| a.id).collect();
        assert_eq!(ids, ["c6-d5"]);
    }

    #[test]
    fn nimble_lord_is_saved_with_the_game_and_absent_from_plain_saves() {
        let plain = pos(LORD_D5, DEFENDER);
        assert!(!serde_json::to_string(&plain)
            .unwrap()
            .contains("nimble_lord"));
        let mut game = plain.clone();
        game.command("nimble_lord", &json!(null)).unwrap();
        let saved = serde_json::to_string(&game).unwrap();
        assert!(saved.contains("\"nimble_lord\":true"), "{saved}");
        let back: Siege = serde_json::from_str(&saved).unwrap();
        assert_eq!(back, game);
        assert_eq!(back.moves(DEFENDER), game.moves(DEFENDER));
    }

    /// The knight on b4 can take the soldier on c6; d5 and f6 are empty dotted squares.
    const SOLDIER_IN_REACH: &str = "
        6 ..S.L...
        5 ....S...
        4 .K......
        3 ........
        2 ........
        1 ......K.
        0 ........
    ";

    /// [`SOLDIER_IN_REACH`] with « renforts » on, in a table, after the knight takes c6.
    fn reinforcements_asked() -> (GameTable<Siege>, veillee_sdk::Handle) {
        let mut game = pos(SOLDIER_IN_REACH, ATTACKER);
        game.command("reinforcements", &json!(null)).unwrap();
        let mut table = GameTable::<Siege>::default();
        let h = table.load(&serde_json::to_vec(&game).unwrap()).unwrap();
        table.apply(h, ATTACKER, "b4-c6").unwrap();
        (table, h)
    }

    #[test]
    fn renforts_a_soldier_lost_brings_the_defenders_question() {
        let (table, h) = reinforcements_asked();
        assert_eq!(
            table.status(h).unwrap(),
            veillee_sdk::Status::to_act(DEFENDER)
        );
        let asked = table.legal_actions(h, DEFENDER).unwrap();
        let ids: Vec<&str> = asked.iter().map(|a| a.id.as_str()).collect();
        assert_eq!(ids, ["reinforce-d5", "reinforce-f6", "keep-reinforcements"]);
        assert_eq!(asked[0].label.fr, "Faire revenir un soldat sur d5");
        assert_eq!(asked[1].label.en, "Bring a soldier back onto f6");
        assert_eq!(asked[2].label.en, "Keep the reinforcements for later");
        assert_eq!(
            asked[0].path,
            vec![crate::scene::cell_target(
                crate::board::parse("d5").unwrap()
            )]
        );
        assert!(asked[2].path.is_empty(), "a button");
        let scene = table.view(h, None).unwrap();
        assert_eq!(
            scene.message.en,
            "Reinforcements: a soldier has fallen. Bring one back now?"
        );
        // Plain, the same capture asks nothing: the defender moves.
        let mut plain = GameTable::<Siege>::default();
        let p = plain
            .load(&serde_json::to_vec(&pos(SOLDIER_IN_REACH, ATTACKER)).unwrap())
            .unwrap();
        plain.apply(p, ATTACKER, "b4-c6").unwrap();
        let moves = plain.legal_actions(p, DEFENDER).unwrap();
        assert!(moves.iter().all(|a| !a.id.contains("reinforce")));
    }

    #[test]
    fn renforts_the_soldier_comes_back_once_and_the_defender_then_moves() {
        let (mut table, h) = reinforcements_asked();
        let events = table.apply(h, DEFENDER, "reinforce-d5").unwrap();
        assert_eq!(events.len(), 1);
        assert_eq!(
            events[0].text.fr,
            "Renforts : un soldat (s1) revient sur d5"
        );
        assert_eq!(
            events[0].text.en,
            "Reinforcements: a soldier (s1) comes back onto d5"
        );
        let call = OperationCall {
            name: "piece_at".into(),
            args: json!({"square": "d5"}),
        };
        assert_eq!(table.operation(h, &call).unwrap(), json!("s1"));
        let game = table.get(h).unwrap();
        assert_eq!((game.soldiers, game.plies()), (2, 1), "not a move");
        assert_eq!(game.status(), veillee_sdk::Status::to_act(DEFENDER));
        let moves = table.legal_actions(h, DEFENDER).unwrap();
        assert!(
            moves.iter().any(|a| a.id.starts_with("d5-")),
            "s1 moves like any soldier"
        );
        // Spent: the next loss asks nothing.
        assert_eq!(
            table.get(h).unwrap().reinforcements,
            crate::Reinforcements::Used
        );
        let mut again_used = pos(SOLDIER_IN_REACH, ATTACKER);
        again_used.reinforcements = crate::Reinforcements::Used;
        let mut t = GameTable::<Siege>::default();
        let u = t.load(&serde_json::to_vec(&again_used).unwrap()).unwrap();
        t.apply(u, ATTACKER, "b4-c6").unwrap();
        assert!(t
            .legal_actions(u, DEFENDER)
            .unwrap()
            .iter()
            .all(|a| !a.id.contains("reinforce")));
    }

    #[test]
    fn renforts_kept_for_later_are_offered_again_at_the_next_loss() {
        let (mut table, h) = reinforcements_asked();
        assert!(table
            .apply(h, DEFENDER, "keep-reinforcements")
            .unwrap()
            .is_empty());
        let game = table.get(h).unwrap();
        assert_eq!(game.reinforcements, crate::Reinforcements::Ready);
        assert_eq!(game.soldiers, 1);
        assert!(table
            .legal_actions(h, DEFENDER)
            .unwrap()
            .iter()
            .all(|a| !a.id.contains("reinforce")));
    }

    #[test]
    fn renforts_is_saved_with_the_game_question_included() {
        let (table, h) = reinforcements_asked();
        let saved = String::from_utf8(table.save(h).unwrap()).unwrap();
        assert!(saved.contains("\"reinforcements\":\"asking\""), "{saved}");
        let back: Siege = serde_json::from_str(&saved).unwrap();
        assert_eq!(&back, table.get(h).unwrap());
        assert!(!serde_json::to_string(&pos(SOLDIER_IN_REACH, ATTACKER))
            .unwrap()
            .contains("reinforcements"));
    }

    #[test]
    fn renforts_a_save_asking_with_no_soldier_lost_is_refused() {
        const FOUR_SOLDIERS: &str = "
            6 ..S.L.S.
            5 ...S.S..
            4 .K......
            3 ........
            2 ........
            1 ......K.
            0 ........
        ";
        let saved = serde_json::to_string(&pos(FOUR_SOLDIERS, DEFENDER)).unwrap();
        let asking = saved.replacen('{', r#"{"reinforcements":"asking","#, 1);
        let err = serde_json::from_str::<Siege>(&asking)
            .unwrap_err()
            .to_string();
        assert!(err.contains("without a soldier lost"), "{err}");
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
