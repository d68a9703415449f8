//! Operations offered to variant scripts (`ctx.game.query` / `ctx.game.command`, see
//! `variants/README.md`). They never change the rules by themselves: a house rule decides when
//! to call them.
//!
//! | name | kind | arguments | answer |
//! |---|---|---|---|
//! | `diagonal_flanking` | query | — | whether diagonal flanks capture (« Prise en diagonale ») |
//! | `score` | query | `seat` or `army` | that side's `{points, shown, penalties}` (raw points, negative = debt) |
//! | `allow_diagonal_flanking` | command | — | from now on a diagonal flank captures too (CN-C1) and gives immunity (CN-C3) |
//! | `penalise` | command | `seat` or `army`, `points` | takes `points` (1–27) off that side (XI.2); answers its raw points |
//! | `pass_turn` | command | — | the army to move ends its turn now, as with `end-turn` (its coups or captures left undone); refused while a round's end or a draw offer is answered, and after the end |
//!
//! A side is the team in team games, else the army; `seat` names the side that seat plays
//! for, `army` is `0`–`3` or `green`, `red`, `blue`, `yellow`.

use serde_json::{json, Value};
use veillee_sdk::{text, GameError, OperationKind, OperationSpec};

use crate::board::ARMY_IDS;
use crate::{ChateauNoir, TARGET};

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
            "diagonal_flanking",
            OperationKind::Query,
            &[],
            "Si l'encadrement en diagonale capture (« Prise en diagonale »)",
            "Whether diagonal flanking captures (« Prise en diagonale »)",
        ),
        spec(
            "score",
            OperationKind::Query,
            &["seat", "army"],
            "Les points du camp d'un siège ou d'une armée : {points, shown, penalties}",
            "The points of a seat's or an army's side: {points, shown, penalties}",
        ),
        spec(
            "allow_diagonal_flanking",
            OperationKind::Command,
            &[],
            "Désormais une pièce encadrée en diagonale est prise aussi (CN-C1, CN-C3)",
            "From now on a piece flanked on a diagonal is taken too (CN-C1, CN-C3)",
        ),
        spec(
            "penalise",
            OperationKind::Command,
            &["seat", "army", "points"],
            "Retire des points au camp d'un siège ou d'une armée (XI.2) ; répond ses points",
            "Takes points off a seat's or an army's side (XI.2); answers its points",
        ),
        spec(
            "pass_turn",
            OperationKind::Command,
            &[],
            "L'armée qui joue finit son tour tout de suite, comme avec « fin du tour »",
            "The army to move ends its turn at once, as with `end-turn`",
        ),
    ]
}

fn refuse(name: &str, reason: impl Into<String>) -> GameError {
    GameError::Operation {
        name: name.into(),
        reason: reason.into(),
    }
}

/// The side named by `seat` or `army` (exactly one of them).
fn side_arg(game: &ChateauNoir, name: &str, args: &Value) -> Result<u8, GameError> {
    let seat = args.get("seat").filter(|v| !v.is_null());
    let army = args.get("army").filter(|v| !v.is_null());
    match (seat, army) {
        (Some(seat), None) => {
            let seat = seat
                .as_u64()
                .filter(|&s| s < u64::from(game.players))
                .ok_or_else(|| {
                    refuse(
                        name,
                        format!("`seat` is a seat number from 0 to {}", game.players - 1),
                    )
                })?;
            Ok(game.seat_side(seat as u8))
        }
        (None, Some(army)) => {
            let index = match army {
                Value::String(id) => ARMY_IDS.iter().position(|a| a == id),
                other => other.as_u64().filter(|&a| a < 4).map(|a| a as usize),
            }
            .ok_or_else(|| {
                refuse(
                    name,
                    "`army` is 0–3 or one of green, red, blue, yellow".to_string(),
                )
            })?;
            Ok(game.side(index as u8))
        }
        _ => Err(refuse(
            name,
            "give either the seat or the army, e.g. {seat = 0} or {army = \"red\"}",
        )),
    }
}

fn score(game: &ChateauNoir, side: u8) -> Value {
    json!({
        "points": game.score(side),
        "shown": game.shown_score(side),
        "penalties": game.penalties[side as usize],
    })
}

pub(crate) fn query(game: &ChateauNoir, name: &str, args: &Value) -> Result<Value, GameError> {
    match name {
        "diagonal_flanking" => Ok(json!(game.diagonal_flanking)),
        "score" => {
            let side = side_arg(game, name, args)?;
            Ok(score(game, side))
        }
        _ => Err(veillee_sdk::unknown_operation(name)),
    }
}

pub(crate) fn command(
    game: &mut ChateauNoir,
    name: &str,
    args: &Value,
) -> Result<Value, GameError> {
    match name {
        "allow_diagonal_flanking" => {
            game.diagonal_flanking = true;
            Ok(Value::Null)
        }
        "penalise" => {
            let side = side_arg(game, name, args)?;
            let points = args
                .get("points")
                .and_then(Value::as_u64)
                .filter(|p| (1..=TARGET as u64).contains(p))
                .ok_or_else(|| refuse(name, format!("`points` is a number from 1 to {TARGET}")))?
                as i32;
            if game.ending.is_some() {
                return Err(refuse(name, "the match is over"));
            }
            // XI.2: the point is lost like a captain's debt (CN-S1): below zero it is owed.
            game.scores[side as usize] -= points;
            game.penalties[side as usize] += points as u32;
            Ok(json!(game.score(side)))
        }
        "pass_turn" => {
            if game.ending.is_some() {
                return Err(refuse(name, "the match is over"));
            }
            match game.phase {
                crate::Phase::Coups | crate::Phase::Captures => {
                    game.end_turn(&mut veillee_sdk::Log::off());
                    Ok(Value::Null)
                }
                _ => Err(refuse(
                    name,
                    "a round's end or a draw offer is being answered: the players answer first",
                )),
            }
        }
        _ => Err(veillee_sdk::unknown_operation(name)),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};
    use veillee_sdk::{Game, GameError, GameTable, OperationCall, OptionValue, Setup};

    use crate::board;
    use crate::ChateauNoir;

    /// A position with `pieces` (`"c4:1 e5:G"`: square, piece letter) on the empty board,
    /// individual game for four, `active` to move.
    fn place(pieces: &str, active: u8) -> ChateauNoir {
        let mut rows: Vec<Vec<char>> = board::MAP.iter().map(|r| r.chars().collect()).collect();
        for item in pieces.split_whitespace() {
            let (at, letter) = item.split_once(':').unwrap();
            let s = board::parse(at).unwrap();
            rows[board::row(s) as usize][board::col(s) as usize] = letter.chars().next().unwrap();
        }
        let diagram: Vec<String> = rows.iter().map(|r| r.iter().collect()).collect();
        ChateauNoir::from_diagram(&diagram.join("\n"), 4, false, active).unwrap()
    }

    #[test]
    fn pass_turn_ends_the_armys_turn_even_before_its_coups_and_as_end_turn_does() {
        // At the start of a turn, before its coups (where `end-turn` is not offered yet).
        let mut game = ChateauNoir::new(&Setup::new(2, 5)).unwrap();
        let (army, turn) = (game.active, game.turn);
        game.command("pass_turn", &Value::Null).unwrap();
        assert_ne!(game.active, army);
        assert_eq!(game.turn, turn + 1);
        let seat = game.status().seats()[0];
        assert!(!game.moves(seat).is_empty());
        // Where `end-turn` is offered, the same game as playing it.
        let offered = |g: &ChateauNoir| {
            let seat = g.status().seats()[0];
            g.moves(seat)
                .iter()
                .any(|m| g.move_id(seat, m) == "end-turn")
        };
        for _ in 0..100 {
            if offered(&game) {
                break;
            }
            let seat = game.status().seats()[0];
            let first = game.moves(seat)[0];
            game.play(seat, &first, &mut veillee_sdk::Log::off());
        }
        assert!(offered(&game), "end-turn comes up");
        let mut ended = game.clone();
        game.command("pass_turn", &Value::Null).unwrap();
        play(&mut ended, "end-turn");
        assert_eq!(game.active, ended.active);
        assert_eq!(game.turn, ended.turn);
        assert_eq!(game.status(), ended.status());
    }

    fn play(game: &mut ChateauNoir, id: &str) {
        let seat = game.status().seats()[0];
        let mv = game
            .moves(seat)
            .into_iter()
            .find(|m| game.move_id(seat, m) == id)
            .unwrap_or_else(|| panic!("{id} is not legal"));
        game.play(seat, &mv, &mut veillee_sdk::Log::recording());
    }

    fn ids(game: &ChateauNoir) -> Vec<String> {
        let seat = game.status().seats()[0];
        let mut ids: Vec<String> = game
            .moves(seat)
            .iter()
            .map(|m| game.move_id(seat, m))
            .collect();
        ids.sort();
        ids
    }

    fn at(game: &ChateauNoir, square: &str) -> bool {
        game.board[board::parse(square).unwrap() as usize] != 0
    }

    const NULL: Value = Value::Null;

    #[test]
    fn diagonal_flanking_captures_only_under_the_house_rule_cn_c1() {
        // Green's a3 and c5 hold Red's b4 on a diagonal; Green's d9 moves elsewhere.
        let plain = place("a3:1 c5:1 b4:2 h8:2 d9:1", 0);
        let mut house = plain.clone();
        assert_eq!(
            house.query("diagonal_flanking", &NULL).unwrap(),
            json!(false)
        );
        house.command("allow_diagonal_flanking", &NULL).unwrap();
        assert_eq!(
            house.query("diagonal_flanking", &NULL).unwrap(),
            json!(true)
        );
        let mut plain = plain;
        for game in [&mut plain, &mut house] {
            play(game, "d9-d8");
            play(game, "end-coups");
        }
        // Plain rules: nothing to take, Red's turn.
        assert_eq!(plain.active, 1);
        // House rule: the capture phase, b4 can be taken, and the point scores (CN-S1).
        assert_eq!(ids(&house), ["end-turn", "take-b4"]);
        play(&mut house, "take-b4");
        assert!(!at(&house, "b4"));
        assert_eq!(house.score(0), 1);
        // The other diagonal (a5–c3) too.
        let mut game = place("a5:1 c3:1 b4:2 h8:2 d9:1", 0);
        game.command("allow_diagonal_flanking", &NULL).unwrap();
        play(&mut game, "end-coups");
        assert_eq!(ids(&game), ["end-turn", "take-b4"]);
    }

    #[test]
    fn a_piece_walking_into_a_diagonal_flank_is_immune_cn_c3() {
        // Red walks b5 → b4 between Green's a3 and c5 (a diagonal).
        let mut game = place("a3:1 c5:1 b5:2 h8:2", 1);
        game.command("allow_diagonal_flanking", &NULL).unwrap();
        play(&mut game, "b5-b4");
        play(&mut game, "end-coups");
        assert_eq!(game.active, 0);
        play(&mut game, "end-coups");
        assert_eq!(game.active, 1, "b4 is immune in Green's next turn");
    }

    #[test]
    fn the_house_rule_flag_is_saved_and_plain_saves_do_not_change() {
        let mut game = ChateauNoir::new(&Setup::new(2, 3)).unwrap();
        let plain = serde_json::to_string(&game).unwrap();
        assert!(!plain.contains("diagonal_flanking") && !plain.contains("penalties"));
        // An old save (without the new fields) still loads.
        let back: ChateauNoir = serde_json::from_str(&plain).unwrap();
        assert_eq!(back, game);
        game.command("allow_diagonal_flanking", &NULL).unwrap();
        game.command("penalise", &json!({"seat": 1, "points": 2}))
            .unwrap();
        let saved = serde_json::to_string(&game).unwrap();
        assert!(saved.contains("\"diagonal_flanking\":true"), "{saved}");
        let back: ChateauNoir = serde_json::from_str(&saved).unwrap();
        assert_eq!(back, game);
        assert!(back.diagonal_flanking);
    }

    #[test]
    fn penalise_takes_points_off_the_side_and_shows_them() {
        let mut table = GameTable::<ChateauNoir>::default();
        let mut setup = Setup::new(4, 1);
        setup
            .options
            .insert("mode".into(), OptionValue::Choice("individual".into()));
        let h = table.create(&setup).unwrap();
        let call = |name: &str, args: Value| OperationCall {
            name: name.into(),
            args,
        };
        // Seat 3 plays Yellow (army 3) with four players.
        let points = table
            .operation(h, &call("penalise", json!({"seat": 3, "points": 1})))
            .unwrap();
        assert_eq!(points, json!(-1));
        assert_eq!(
            table
                .operation(h, &call("score", json!({"army": "yellow"})))
                .unwrap(),
            json!({"points": -1, "shown": 0, "penalties": 1})
        );
        assert_eq!(
            table
                .operation(h, &call("score", json!({"army": 1})))
                .unwrap(),
            json!({"points": 0, "shown": 0, "penalties": 0})
        );
        // The scene shows the debt and the penalty line.
        let scene = table.view(h, None).unwrap();
        let line = scene
            .scores
            .iter()
            .find(|l| l.label.en == "Time penalties: Yellow")
            .expect("a penalty line");
        assert_eq!(line.value, "−1");
        assert_eq!(line.seat, Some(3));
        assert!(scene.scores.iter().any(|l| l.value == "0 (dette 1)"));
        // Before any penalty there is no such line.
        let fresh = table.create(&Setup::new(2, 1)).unwrap();
        assert!(!table
            .view(fresh, None)
            .unwrap()
            .scores
            .iter()
            .any(|l| l.label.en.starts_with("Time penalties")));
    }

    #[test]
    fn penalise_in_team_games_hits_the_team() {
        let mut game = ChateauNoir::new(&Setup::new(2, 5)).unwrap();
        // Two players: seat 1 commands Red and Yellow, team 1.
        game.command("penalise", &json!({"seat": 1, "points": 3}))
            .unwrap();
        assert_eq!(game.score(1), -3);
        assert_eq!(game.score(0), 0);
        game.command("penalise", &json!({"army": "green", "points": 1}))
            .unwrap();
        game.command("penalise", &json!({"army": "blue", "points": 1}))
            .unwrap();
        assert_eq!(game.score(0), -2);
        assert_eq!(game.penalties, [2, 3, 0, 0]);
    }

    #[test]
    fn bad_arguments_are_refused_and_change_nothing() {
        let mut game = ChateauNoir::new(&Setup::new(3, 5)).unwrap();
        let before = game.clone();
        for args in [
            json!(null),
            json!({}),
            json!({"seat": 3, "points": 1}),
            json!({"seat": 0, "army": 0, "points": 1}),
            json!({"army": "purple", "points": 1}),
            json!({"army": 4, "points": 1}),
            json!({"seat": 0}),
            json!({"seat": 0, "points": 0}),
            json!({"seat": 0, "points": 28}),
            json!({"seat": 0, "points": -1}),
        ] {
            let err = game.command("penalise", &args).unwrap_err();
            assert!(
                matches!(err, GameError::Operation { .. }),
                "{args}: {err:?}"
            );
            assert_eq!(game, before);
        }
        assert!(game.query("score", &json!({})).is_err());
        assert!(matches!(
            game.command("win_now", &NULL),
            Err(GameError::Operation { .. })
        ));
        assert!(matches!(
            game.query("nope", &NULL),
            Err(GameError::Operation { .. })
        ));
    }
}
