//! Operations offered to variant scripts (`ctx.game.query` / `ctx.game.command`, see
//! `variants/README.md`). They never change the rules by themselves: a house rule decides when
//! to call them.
//!
//! | name | kind | arguments | answer |
//! |---|---|---|---|
//! | `central_tower_required` | query | — | whether a castle needs its tower in the centre (« Tour maîtresse ») |
//! | `castle` | query | `seat` | `nil` when that player's five pieces do not fill a 3 × 3 square, else `{corner, centre, tower_in_centre, counts}` (squares by name) |
//! | `require_central_tower` | command | — | from now on a castle counts for BT-E1 only with its tower in the centre |
//! | `pass_turn` | command | — | the player to move passes, as the BT-E3 `pass` does (after Black, the round ends: BT-E1 castles, BT-E3 repetition); refused while the draw is offered and after the end |

use serde_json::{json, Value};
use veillee_sdk::{text, Game, GameError, OperationKind, OperationSpec};

use crate::board;
use crate::Batisseurs;

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
            "central_tower_required",
            OperationKind::Query,
            &[],
            "Si un château ne compte qu'avec sa tour au centre (« Tour maîtresse »)",
            "Whether a castle only counts with its tower in the centre (« Tour maîtresse »)",
        ),
        spec(
            "castle",
            OperationKind::Query,
            &["seat"],
            "Le château d'un joueur s'il est assemblé : {corner, centre, tower_in_centre, counts}",
            "A player's castle if assembled: {corner, centre, tower_in_centre, counts}",
        ),
        spec(
            "require_central_tower",
            OperationKind::Command,
            &[],
            "Désormais un château ne compte (BT-E1) qu'avec sa tour au centre",
            "From now on a castle only counts (BT-E1) with its tower in the centre",
        ),
        spec(
            "pass_turn",
            OperationKind::Command,
            &[],
            "Le joueur qui a le trait passe, comme « Passer » (BT-E3)",
            "The player to move passes, as with `pass` (BT-E3)",
        ),
    ]
}

fn refuse(name: &str, reason: impl Into<String>) -> GameError {
    GameError::Operation {
        name: name.into(),
        reason: reason.into(),
    }
}

pub(crate) fn query(game: &Batisseurs, name: &str, args: &Value) -> Result<Value, GameError> {
    match name {
        "central_tower_required" => Ok(json!(game.central_tower)),
        "castle" => {
            let seat = args
                .get("seat")
                .and_then(Value::as_u64)
                .filter(|&s| s < 2)
                .ok_or_else(|| refuse(name, "give the seat, 0 (White) or 1 (Black): {seat = 0}"))?
                as u8;
            Ok(match game.castle(seat) {
                None => Value::Null,
                Some(corner) => json!({
                    "corner": board::name(corner),
                    "centre": board::name(corner + board::SIZE + 1),
                    "tower_in_centre": game.tower_in_centre(seat),
                    "counts": game.counting_castle(seat).is_some(),
                }),
            })
        }
        _ => Err(veillee_sdk::unknown_operation(name)),
    }
}

pub(crate) fn command(
    game: &mut Batisseurs,
    name: &str,
    _args: &Value,
) -> Result<Value, GameError> {
    match name {
        "require_central_tower" => {
            game.central_tower = true;
            Ok(Value::Null)
        }
        "pass_turn" => pass_turn(game),
        _ => Err(veillee_sdk::unknown_operation(name)),
    }
}

/// `pass_turn`: the player to move passes (one move a turn, White then Black: BT-M; the
/// pass of BT-E3), so that after Black's pass the round ends and is checked (BT-E1, BT-E2,
/// BT-E3) as after any move.
fn pass_turn(game: &mut Batisseurs) -> Result<Value, GameError> {
    const NAME: &str = "pass_turn";
    if game.end.is_some() {
        return Err(refuse(NAME, "the game is over"));
    }
    if game.draw_offer.is_some() {
        return Err(refuse(
            NAME,
            "the draw is offered: both players answer it first",
        ));
    }
    let seat = game.to_move;
    game.play(seat, &crate::Move::Pass, &mut veillee_sdk::Log::off());
    Ok(Value::Null)
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};
    use veillee_sdk::{Game, GameError, GameTable, Log, OperationCall, Setup, Status};

    use crate::{Batisseurs, End, BLACK, WHITE};

    const NULL: Value = Value::Null;

    /// White's moves that build the castle d7–f9 with the tower on e9, not in the centre:
    /// walls d7–f7 and d8–f8, gates d9 and f9.
    pub(crate) const OFF_CENTRE: [&str; 7] = [
        "h9-h7", "h7-f7", "f7-e7", "d8-d9", "f8-f9", "b9-c8", "c8-e8",
    ];
    /// White's moves that build the castle d7–f9 with the tower on e8, in the centre:
    /// walls d7–f7 and d9–f9, gates d8 and f8.
    pub(crate) const CENTRED: [&str; 6] = ["e9-e8", "h9-h7", "h7-f7", "f7-e7", "b9-d9", "d9-e9"];

    fn play(game: &mut Batisseurs, id: &str) {
        let seat = game.status().seats()[0];
        let mv = game
            .moves(seat)
            .into_iter()
            .find(|m| game.move_id(seat, m) == id)
            .unwrap_or_else(|| panic!("{id} is not legal for seat {seat}"));
        game.play(seat, &mv, &mut Log::recording());
    }

    /// Plays White's `moves`, Black shuffling its tower e1↔e2 in between.
    fn build(game: &mut Batisseurs, moves: &[&str]) {
        for (i, id) in moves.iter().enumerate() {
            play(game, id);
            play(game, if i % 2 == 0 { "e1-e2" } else { "e2-e1" });
        }
    }

    fn house() -> Batisseurs {
        let mut game = Batisseurs::initial();
        assert_eq!(
            game.query("central_tower_required", &NULL).unwrap(),
            json!(false)
        );
        game.command("require_central_tower", &NULL).unwrap();
        assert_eq!(
            game.query("central_tower_required", &NULL).unwrap(),
            json!(true)
        );
        game
    }

    #[test]
    fn an_off_centre_castle_wins_only_under_the_plain_rules_bt_e1() {
        let mut plain = Batisseurs::initial();
        build(&mut plain, &OFF_CENTRE);
        assert_eq!(plain.end(), Some(End::Castle(WHITE)));

        let mut game = house();
        build(&mut game, &OFF_CENTRE);
        assert_eq!(game.end(), None, "the tower is not in the centre");
        assert_eq!(game.status(), Status::to_act(WHITE));
        assert_eq!(
            game.query("castle", &json!({"seat": 0})).unwrap(),
            json!({"corner": "d7", "centre": "e8", "tower_in_centre": false, "counts": false})
        );
        assert_eq!(game.query("castle", &json!({"seat": 1})).unwrap(), NULL);
    }

    #[test]
    fn a_castle_with_the_tower_in_the_centre_wins_under_both() {
        for mut game in [Batisseurs::initial(), house()] {
            build(&mut game, &CENTRED);
            assert_eq!(game.end(), Some(End::Castle(WHITE)));
            assert_eq!(
                game.query("castle", &json!({"seat": 0})).unwrap()["counts"],
                json!(true)
            );
        }
    }

    #[test]
    fn black_is_told_about_whites_castle_only_when_it_counts() {
        let message = |game: &Batisseurs| game.view(None).message.en;
        let mut plain = Batisseurs::initial();
        let mut game = house();
        for g in [&mut plain, &mut game] {
            build(g, &OFF_CENTRE[..6]);
            play(g, OFF_CENTRE[6]);
        }
        assert_eq!(plain.to_move, BLACK);
        assert!(message(&plain).starts_with("White's castle is complete"));
        assert!(!message(&game).contains("castle"), "{}", message(&game));
    }

    #[test]
    fn the_flag_is_saved_and_plain_saves_do_not_change() {
        let plain = Batisseurs::initial();
        let text = serde_json::to_string(&plain).unwrap();
        assert!(!text.contains("central_tower"), "{text}");
        let back: Batisseurs = serde_json::from_str(&text).unwrap();
        assert_eq!(back, plain);
        let game = house();
        let text = serde_json::to_string(&game).unwrap();
        assert!(text.contains("\"central_tower\":true"), "{text}");
        let back: Batisseurs = serde_json::from_str(&text).unwrap();
        assert_eq!(back, game);
        assert_eq!(
            back.query("central_tower_required", &NULL).unwrap(),
            json!(true)
        );
    }

    #[test]
    fn pass_turn_passes_for_the_player_to_move_and_black_s_pass_ends_the_round() {
        let mut game = Batisseurs::initial();
        game.command("pass_turn", &NULL).unwrap();
        assert_eq!(game.status(), Status::to_act(BLACK));
        assert_eq!((game.plies(), game.rounds()), (1, 0));
        game.command("pass_turn", &NULL).unwrap();
        assert_eq!(game.status(), Status::to_act(WHITE));
        assert_eq!((game.plies(), game.rounds()), (2, 1));
        // BT-E1: White's castle is checked when Black's pass ends the round.
        let mut game = Batisseurs::initial();
        build(&mut game, &CENTRED[..5]);
        play(&mut game, CENTRED[5]);
        assert_eq!(game.end(), None);
        game.command("pass_turn", &NULL).unwrap();
        assert_eq!(game.end(), Some(End::Castle(WHITE)));
        let err = game.command("pass_turn", &NULL).unwrap_err();
        assert!(format!("{err:?}").contains("the game is over"), "{err:?}");
    }

    #[test]
    fn bad_operations_are_refused() {
        let mut table = GameTable::<Batisseurs>::default();
        let h = table.create(&Setup::new(2, 0)).unwrap();
        for (name, args) in [
            ("castle", json!({})),
            ("castle", json!({"seat": 2})),
            ("win_now", NULL),
        ] {
            let err = table
                .operation(
                    h,
                    &OperationCall {
                        name: name.into(),
                        args,
                    },
                )
                .unwrap_err();
            assert!(matches!(err, GameError::Operation { .. }), "{err:?}");
        }
    }
}
