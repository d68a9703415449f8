//! Operations offered to variant scripts (`ctx.game.query`, see `variants/README.md`). They
//! only read public things — the die is rolled in front of everyone — and change nothing:
//! a house rule decides what to do with them (« le château fort enchanté » turns the castle
//! on the ring).
//!
//! | name | kind | arguments | answer |
//! |---|---|---|---|
//! | `last_die_face` | query | — | the die's last face: `"ring"` (face 0, a black helmet with the ring), `"black"`, `"grey"` or `"white"`; `null` before the first roll |
//! | `rolls` | query | — | how many times the die has been rolled in this game (0 and up) |
//! | `last_fall` | query | — | the fall of this turn: `{seat, helmet, square}` of the knight that fell (public: a fall reveals its trapdoor), `null` when none since the last roll |
//! | `ropes` | query | `seat` | the ropes that seat has left (0–3) |
//! | `take_rope` | command | `seat` | that seat hands back a rope; answers the ropes left. Refused when it has none |
//! | `give_rope` | command | `seat` | that seat gets a rope back, up to 3; answers its ropes |
//! | `enchanted_castle` | command | — | house rule « le château fort enchanté » for the rest of the game: on every ring the castle's picture turns a quarter turn |
//! | `costly_trapdoor` | command | — | house rule « trappe coûteuse » for the rest of the game: the first fall of a turn costs the fallen knight's player a rope |
//! | `pass_turn` | command | — | the player whose turn it is ends it at once (what is left of it: the roll, the moves); the next player clockwise is to roll. Refused while a draw is offered and after the end |

use serde_json::{json, Value};
use veillee_sdk::{text, GameError, OperationKind, OperationSpec};

use crate::{RocNoir, HELMETS, RING_FACE};

/// The operations, as declared in the manifest.
pub(crate) fn specs() -> Vec<OperationSpec> {
    let spec = |name: &str, fr: &str, en: &str| OperationSpec {
        name: name.into(),
        kind: OperationKind::Query,
        args: Vec::new(),
        description: text(fr, en),
    };
    let with_seat = |name: &str, kind, fr: &str, en: &str| OperationSpec {
        name: name.into(),
        kind,
        args: vec!["seat".into()],
        description: text(fr, en),
    };
    vec![
        spec(
            "last_die_face",
            "La dernière face du dé : \"ring\" (l'anneau, sur un casque noir), \"black\", \
             \"grey\" ou \"white\" ; nil avant le premier lancer",
            "The die's last face: \"ring\" (the ring, on a black helmet), \"black\", \"grey\" \
             or \"white\"; nil before the first roll",
        ),
        spec(
            "rolls",
            "Le nombre de lancers du dé depuis le début de la partie",
            "How many times the die has been rolled in this game",
        ),
        spec(
            "last_fall",
            "La chute de ce tour : {seat, helmet, square} du chevalier tombé, nil sans chute \
             depuis le dernier lancer",
            "This turn's fall: {seat, helmet, square} of the knight that fell, nil without a \
             fall since the last roll",
        ),
        with_seat(
            "ropes",
            OperationKind::Query,
            "Les cordes qui restent à ce siège (0 à 3)",
            "The ropes that seat has left (0 to 3)",
        ),
        with_seat(
            "take_rope",
            OperationKind::Command,
            "Ce siège rend une corde ; répond les cordes qui lui restent",
            "That seat hands back a rope; answers the ropes it has left",
        ),
        with_seat(
            "give_rope",
            OperationKind::Command,
            "Ce siège reçoit une corde (3 au plus) ; répond ses cordes",
            "That seat gets a rope (3 at most); answers its ropes",
        ),
        OperationSpec {
            name: "enchanted_castle".into(),
            kind: OperationKind::Command,
            args: Vec::new(),
            description: text(
                "Règle maison « le château fort enchanté » jusqu'à la fin de la partie : à \
                 chaque anneau, le château (son dessin) tourne d'un quart de tour",
                "House rule « le château fort enchanté » for the rest of the game: on every \
                 ring, the castle (its picture) turns a quarter turn",
            ),
        },
        OperationSpec {
            name: "costly_trapdoor".into(),
            kind: OperationKind::Command,
            args: Vec::new(),
            description: text(
                "Règle maison « trappe coûteuse » jusqu'à la fin de la partie : un chevalier \
                 qui tombe dans une trappe fait rendre une corde à son joueur",
                "House rule « trappe coûteuse » for the rest of the game: a knight that falls \
                 through a trapdoor costs its player a rope",
            ),
        },
        OperationSpec {
            name: "pass_turn".into(),
            kind: OperationKind::Command,
            args: Vec::new(),
            description: text(
                "Le joueur dont c'est le tour le termine aussitôt ; au suivant de lancer le dé",
                "The player whose turn it is ends it at once; the next one rolls",
            ),
        },
    ]
}

/// The name of a die face (0–5): the ring face, else its helmet colour (RN-T1).
pub(crate) fn face_name(face: u8) -> &'static str {
    if face == RING_FACE {
        "ring"
    } else {
        HELMETS[(face / 2) as usize % 3]
    }
}

pub(crate) fn query(game: &RocNoir, name: &str, _args: &Value) -> Result<Value, GameError> {
    match name {
        "last_die_face" => Ok(game.die.map_or(Value::Null, |f| json!(face_name(f)))),
        "rolls" => Ok(json!(game.rolls)),
        "last_fall" => Ok(match game.fell {
            None => Value::Null,
            Some((knight, square)) => json!({
                "seat": knight / 3,
                "helmet": HELMETS[(knight % 3) as usize],
                "square": crate::board::square_name(square),
            }),
        }),
        "ropes" => Ok(json!(game.ropes[seat_arg(game, name, _args)?])),
        _ => Err(veillee_sdk::unknown_operation(name)),
    }
}

fn refuse(name: &str, reason: impl Into<String>) -> GameError {
    GameError::Operation {
        name: name.into(),
        reason: reason.into(),
    }
}

/// The `seat` argument: a seat of this game.
fn seat_arg(game: &RocNoir, name: &str, args: &Value) -> Result<usize, GameError> {
    args.get("seat")
        .and_then(Value::as_u64)
        .filter(|&s| s < u64::from(game.players))
        .map(|s| s as usize)
        .ok_or_else(|| {
            refuse(
                name,
                format!("give `seat`, from 0 to {}", game.players.saturating_sub(1)),
            )
        })
}

/// `pass_turn`: the player whose turn it is ends it (RN-T1's turn, cut short); the next
/// player clockwise is to roll, as after a move.
fn pass_turn(game: &mut RocNoir) -> Result<Value, GameError> {
    const NAME: &str = "pass_turn";
    if game.ending.is_some() {
        return Err(refuse(NAME, "the game is over"));
    }
    if game.phase == crate::Phase::DrawOffer {
        return Err(refuse(
            NAME,
            "a draw is offered: every player answers it first",
        ));
    }
    game.next_turn();
    Ok(Value::Null)
}

/// `take_rope` / `give_rope`: a seat's ropes down or up by one (RN-R1), within 0–3.
pub(crate) fn command(game: &mut RocNoir, name: &str, args: &Value) -> Result<Value, GameError> {
    let seat = match name {
        "take_rope" | "give_rope" => seat_arg(game, name, args)?,
        "pass_turn" => return pass_turn(game),
        // RN-P1, RN-R1 (house rule « trappe coûteuse »): see `rules.rs`, `charge_fall`.
        "costly_trapdoor" => {
            game.costly_trapdoor = true;
            return Ok(Value::Null);
        }
        // House rule « le château fort enchanté »: see `rules.rs`, `turn_the_castle`.
        "enchanted_castle" => {
            game.castle_turns.get_or_insert(0);
            return Ok(Value::Null);
        }
        _ => return Err(veillee_sdk::unknown_operation(name)),
    };
    if game.ending.is_some() {
        return Err(refuse(name, "the game is over"));
    }
    let ropes = &mut game.ropes[seat];
    match name {
        "take_rope" if *ropes == 0 => Err(refuse(name, format!("seat {seat} has no rope left"))),
        "take_rope" => {
            *ropes -= 1;
            Ok(json!(*ropes))
        }
        _ if *ropes >= crate::ROPES => Err(refuse(
            name,
            format!("seat {seat} already has {} ropes", crate::ROPES),
        )),
        _ => {
            *ropes += 1;
            Ok(json!(*ropes))
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};
    use veillee_sdk::{Game, GameError, GameTable, OperationCall, OperationKind, Setup};

    use crate::{RocNoir, RING_FACE};

    fn call(name: &str) -> OperationCall {
        OperationCall {
            name: name.into(),
            args: json!(null),
        }
    }

    #[test]
    fn the_manifest_declares_its_queries_and_rope_commands() {
        let m = RocNoir::manifest();
        let names: Vec<&str> = m.operations.iter().map(|o| o.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "last_die_face",
                "rolls",
                "last_fall",
                "ropes",
                "take_rope",
                "give_rope",
                "enchanted_castle",
                "costly_trapdoor",
                "pass_turn"
            ]
        );
        assert!(m.operations[..3]
            .iter()
            .all(|o| o.kind == OperationKind::Query && o.args.is_empty()));
        assert!(m.operations[4..]
            .iter()
            .all(|o| o.kind == OperationKind::Command));
        assert!(m.problems().is_empty(), "{:?}", m.problems());
    }

    #[test]
    fn pass_turn_hands_the_turn_to_the_next_player_to_roll() {
        let mut table = GameTable::<RocNoir>::default();
        let h = table.create(&Setup::new(3, 4)).unwrap();
        let pass = call("pass_turn");
        let first = table.status(h).unwrap().seats()[0];
        // Before the roll, and after it, in the middle of the turn.
        table.operation(h, &pass).unwrap();
        let second = table.status(h).unwrap().seats()[0];
        assert_eq!(second, (first + 1) % 3);
        table.apply(h, second, "roll").unwrap();
        table.operation(h, &pass).unwrap();
        assert_eq!(table.status(h).unwrap().seats(), vec![(first + 2) % 3]);
        let ids: Vec<String> = table
            .legal_actions(h, (first + 2) % 3)
            .unwrap()
            .into_iter()
            .map(|a| a.id)
            .collect();
        assert!(ids.contains(&"roll".to_string()), "{ids:?}");
    }

    #[test]
    fn before_the_first_roll_there_is_no_face_and_no_roll() {
        let mut table = GameTable::<RocNoir>::default();
        let h = table.create(&Setup::new(2, 3)).unwrap();
        assert_eq!(
            table.operation(h, &call("last_die_face")).unwrap(),
            Value::Null
        );
        assert_eq!(table.operation(h, &call("rolls")).unwrap(), json!(0));
    }

    #[test]
    fn last_die_face_names_the_face_rolled_and_rolls_counts() {
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..80 {
            let mut table = GameTable::<RocNoir>::default();
            let h = table.create(&Setup::new(3, seed)).unwrap();
            table.apply(h, 0, "roll").unwrap();
            let game: RocNoir = serde_json::from_slice(&table.save(h).unwrap()).unwrap();
            let face = game.die.unwrap();
            let expected = if face == RING_FACE {
                "ring"
            } else {
                ["black", "black", "grey", "grey", "white", "white"][face as usize]
            };
            let answer = table.operation(h, &call("last_die_face")).unwrap();
            assert_eq!(answer, json!(expected), "seed {seed}, face {face}");
            // The face agrees with the knight named in the event and the scene's die.
            let scene = table.view(h, None).unwrap();
            let card = &scene.zones.iter().find(|z| z.id == "die").unwrap().cards[0];
            let up = card.die.as_ref().and_then(|d| d.face()).expect("a die");
            assert_eq!(up.mark == "◯", expected == "ring");
            let named = if expected == "ring" {
                "black, ring"
            } else {
                expected
            };
            assert_eq!(card.title.en.to_lowercase(), named, "seed {seed}");
            assert_eq!(table.operation(h, &call("rolls")).unwrap(), json!(1));
            seen.insert(expected);
        }
        assert_eq!(seen.len(), 4, "every face name comes up: {seen:?}");
    }

    #[test]
    fn queries_follow_a_whole_game_and_change_nothing() {
        let mut table = GameTable::<RocNoir>::default();
        let h = table.create(&Setup::new(2, 11)).unwrap();
        let mut rng = veillee_sdk::GameRng::new(11);
        let mut rolls = 0;
        for _ in 0..3000 {
            let Some(seat) = table.status(h).unwrap().seats().first().copied() else {
                break;
            };
            let actions = table.legal_actions(h, seat).unwrap();
            let id = actions[rng.below(actions.len())].id.clone();
            let before = table.save(h).unwrap();
            let face = table.operation(h, &call("last_die_face")).unwrap();
            assert_eq!(table.operation(h, &call("rolls")).unwrap(), json!(rolls));
            assert_eq!(table.save(h).unwrap(), before, "a query changed the game");
            table.apply(h, seat, &id).unwrap();
            if id == "roll" {
                rolls += 1;
            } else {
                // Only a roll changes the die.
                assert_eq!(table.operation(h, &call("last_die_face")).unwrap(), face);
            }
        }
        assert!(rolls > 100);
    }

    #[test]
    fn unknown_operations_are_refused() {
        let mut table = GameTable::<RocNoir>::default();
        let h = table.create(&Setup::new(2, 0)).unwrap();
        for name in ["turn_castle", "traps"] {
            let err = table.operation(h, &call(name)).unwrap_err();
            assert!(matches!(err, GameError::Operation { .. }), "{err:?}");
        }
        let game = RocNoir::new(&Setup::new(2, 0)).unwrap();
        assert!(matches!(
            game.query("traps", &json!(null)),
            Err(GameError::Operation { .. })
        ));
    }
}
