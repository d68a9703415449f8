//! Operations offered to scripts (`ctx.game.query` / `ctx.game.command`), chiefly to
//! `variants/castel/cards.lua`, which resolves the card effects. Cards are named by their
//! ids (`roi`, `soldat-7`), squares by name (`c4`), seats by number from 0. The full table
//! is in README.md. Every refusal leaves the game unchanged.

use serde_json::{json, Value};
use veillee_sdk::{text, GameError, OperationKind, OperationSpec, Seat};

use crate::cards::{self, kind, Condition, Sex, Zone, KINDS, NO_KIND};
use crate::{board, Castel, Loc, Spot, Stack};

type Q = OperationKind;

const SPECS: &[(&str, Q, &[&str], &str)] = &[
    ("card", Q::Query, &["card"], "A card: kind, name, zone, sex, soldier, where it is, pawn, protection"),
    ("cards_in_play", Q::Query, &["zone"], "Ids of the cards in play, optionally in one zone (courtyard, rampart, tower, outside, engine, on_card, castle)"),
    ("neighbours", Q::Query, &["card", "square"], "Ids of the cards on the squares neighbouring a card or a square (CA-B2)"),
    ("hand", Q::Query, &["seat"], "Ids of the cards in a seat's hand"),
    ("exchange", Q::Query, &[], "Ids of the cards in the exchange, in order"),
    ("counts", Q::Query, &[], "Per seat: cards in hand and in the pile"),
    ("turn", Q::Query, &[], "The seat to act, its actions left, the dealer, the players, the last card placed, the pending effect, the seats asked about the safety limit's draw"),
    ("free_squares", Q::Query, &["zone"], "Free squares of a castle zone (courtyard, rampart, tower)"),
    ("spots", Q::Query, &["card"], "Where a card could be placed now (CA-T2), as spot names"),
    ("can_return", Q::Query, &["card"], "Whether a card is in play and not protected (CA-T6)"),
    ("can_move", Q::Query, &["card"], "Whether a card in play is unprotected and has a free spot in its zone (CA-T4)"),
    ("find", Q::Query, &["kind"], "Ids of the cards of a kind in play"),
    ("definitions", Q::Query, &[], "Every kind's definition: id, name, count, zone, sex, condition, soldier, effect"),
    ("return_card", Q::Command, &["card"], "Returns a card to its pawn owner's hand, or the exchange without a pawn (CA-T5)"),
    ("remove_card", Q::Command, &["card"], "Removes a card in play from the game (Assassin)"),
    ("move_card", Q::Command, &["card", "to", "any_zone", "soldier_rule"], "Moves a card in play to a free spot of its zone (CA-T4)"),
    ("swap_cards", Q::Command, &["a", "b"], "Swaps two unprotected cards standing on squares of the same zone (Baladin)"),
    ("set_pawn", Q::Command, &["card", "seat"], "Puts this seat's pawn on a card in play (seat null: removes the pawn)"),
    ("swap_pawns", Q::Command, &["a", "b"], "Swaps the pawns of two cards in play"),
    ("give_card", Q::Command, &["card", "seat"], "Moves a card from a hand, a pile or the exchange to a seat's hand"),
    ("draw_card", Q::Command, &["seat"], "Moves the top card of a seat's pile to its hand, as a draw (CA-T1); answers its id, null if the pile is empty"),
    ("exchange_card", Q::Command, &["seat", "hand_card", "exchange_card"], "Swaps a card of a seat's hand with one of the exchange"),
    ("random_hand_card", Q::Command, &["seat"], "A card drawn at random (seeded) from a seat's hand, without moving it; null if empty"),
    ("pass_cards", Q::Command, &["cards", "direction"], "Every listed seat passes its card to its left or right neighbour, all at once (Bouffon)"),
    ("draw_from_neighbours", Q::Command, &["direction"], "Every seat takes a random card from its left or right neighbour's hand, all at once (Fou)"),
    ("put_into_play", Q::Command, &["card", "to", "seat", "check"], "Puts a card into play at a spot, with the core arrival rules, with this seat's pawn or none (Conseiller)"),
    ("grant_action", Q::Command, &["seat"], "Gives a seat one more action this turn (Marchand)"),
    ("end_effect", Q::Command, &[], "Ends the pending arrival effect: the placer wins if hand and pile are empty (CA-E1)"),
    ("enable_scripted_effects", Q::Command, &[], "Arrival effects are resolved by a script: CA-E1 waits for end_effect"),
    ("define_card", Q::Command, &["kind", "count", "zone", "sex", "condition", "soldier", "effect"], "Overrides a kind's definition for this game (count: before the first action, then deal)"),
    ("deal", Q::Command, &[], "Deals again (CA-S) from the current definitions and counts, before the first action only"),
    ("pass_turn", Q::Command, &[], "The seat to act ends its turn now, its actions left unplayed, as `pass` does (CA-T1); the next seat has two actions"),
];

/// The operations, as declared in the manifest.
pub(crate) fn specs() -> Vec<OperationSpec> {
    SPECS
        .iter()
        .map(|(name, kind, args, en)| OperationSpec {
            name: name.to_string(),
            kind: *kind,
            args: args.iter().map(|a| a.to_string()).collect(),
            description: text(*en, *en),
        })
        .collect()
}

fn refuse(name: &str, reason: impl Into<String>) -> GameError {
    GameError::Operation {
        name: name.into(),
        reason: reason.into(),
    }
}

fn arg_card(name: &str, args: &Value, key: &str) -> Result<u8, GameError> {
    let id = args
        .get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| refuse(name, format!("give `{key}`, a card id such as \"roi\"")))?;
    cards::parse_card(id).ok_or_else(|| refuse(name, format!("`{id}` is not a card")))
}

fn arg_seat(game: &Castel, name: &str, args: &Value, key: &str) -> Result<Seat, GameError> {
    args.get(key)
        .and_then(Value::as_u64)
        .filter(|&s| s < game.players as u64)
        .map(|s| s as Seat)
        .ok_or_else(|| {
            refuse(
                name,
                format!("give `{key}`, a seat from 0 to {}", game.players - 1),
            )
        })
}

fn zone_name(zone: Zone) -> &'static str {
    match zone {
        Zone::Courtyard => "courtyard",
        Zone::Rampart => "rampart",
        Zone::Tower => "tower",
        Zone::Outside => "outside",
        Zone::Engine => "engine",
        Zone::OnCard => "on_card",
    }
}

fn parse_zone(s: &str) -> Option<Zone> {
    Some(match s {
        "courtyard" => Zone::Courtyard,
        "rampart" => Zone::Rampart,
        "tower" => Zone::Tower,
        "outside" => Zone::Outside,
        "engine" => Zone::Engine,
        "on_card" => Zone::OnCard,
        _ => return None,
    })
}

fn sex_name(sex: Sex) -> &'static str {
    match sex {
        Sex::Male => "male",
        Sex::Female => "female",
        Sex::None => "none",
    }
}

fn kind_slug(k: u8) -> Value {
    if k == NO_KIND {
        Value::Null
    } else {
        json!(KINDS[k as usize].slug)
    }
}

fn condition_json(c: Condition) -> Value {
    match c {
        Condition::None => json!({"type": "none"}),
        Condition::LastFree => json!({"type": "last_free"}),
        Condition::NextTo { kinds } => json!({"type": "next_to", "kinds":
            kinds.iter().filter(|&&k| k != NO_KIND).map(|&k| kind_slug(k)).collect::<Vec<_>>()}),
        Condition::NextToIfInCourtyard { kind } => {
            json!({"type": "next_to_if_in_courtyard", "kind": kind_slug(kind)})
        }
        Condition::NotWhileInCourtyard { kind } => {
            json!({"type": "not_while_in_courtyard", "kind": kind_slug(kind)})
        }
        Condition::OccupiedTower => json!({"type": "occupied_tower"}),
        Condition::MinPlayers { players } => json!({"type": "min_players", "players": players}),
    }
}

fn parse_condition(v: &Value) -> Option<Condition> {
    let kind_of = |key: &str| {
        v.get(key)
            .and_then(Value::as_str)
            .and_then(cards::parse_kind)
    };
    Some(match v.get("type")?.as_str()? {
        "none" => Condition::None,
        "last_free" => Condition::LastFree,
        "next_to" => {
            let list = v.get("kinds")?.as_array()?;
            if list.is_empty() || list.len() > 2 {
                return None;
            }
            let mut kinds = [NO_KIND; 2];
            for (i, k) in list.iter().enumerate() {
                kinds[i] = cards::parse_kind(k.as_str()?)?;
            }
            Condition::NextTo { kinds }
        }
        "next_to_if_in_courtyard" => Condition::NextToIfInCourtyard {
            kind: kind_of("kind")?,
        },
        "not_while_in_courtyard" => Condition::NotWhileInCourtyard {
            kind: kind_of("kind")?,
        },
        "occupied_tower" => Condition::OccupiedTower,
        "min_players" => Condition::MinPlayers {
            players: v.get("players")?.as_u64()?.min(5) as u8,
        },
        _ => return None,
    })
}

/// A spot's name: `c4`, `outside`, `engine-n`, `on-roi`.
pub(crate) fn spot_name(spot: Spot) -> String {
    Castel::spot_id(spot)
}

fn parse_spot(s: &str) -> Option<Spot> {
    if s == "outside" {
        return Some(Spot::Outside);
    }
    if let Some(r) = s.strip_prefix("engine-") {
        return board::RAMPARTS
            .iter()
            .position(|&x| x == r)
            .map(|r| Spot::Engine(r as u8));
    }
    if let Some(c) = s.strip_prefix("on-") {
        return cards::parse_card(c).map(Spot::On);
    }
    board::parse(s).map(Spot::Square)
}

fn where_json(game: &Castel, card: u8) -> Value {
    match game.locate(card) {
        Loc::Hand(s) => json!({"in": "hand", "seat": s}),
        Loc::Pile(s) => json!({"in": "pile", "seat": s}),
        Loc::Exchange => json!({"in": "exchange"}),
        Loc::Removed => json!({"in": "removed"}),
        Loc::InPlay(stack, i) => {
            let v = game.stack(stack);
            if i > 0 {
                return json!({"in": "on_card", "on": cards::card_id(v[i as usize - 1])});
            }
            match stack {
                Stack::Square(q) => {
                    let mut w = json!({"in": zone_name(board::zone(q)), "square": board::name(q)});
                    if let Some(r) = board::rampart(q) {
                        w["rampart"] = json!(board::RAMPARTS[r as usize]);
                    }
                    w
                }
                Stack::Engine(r) => json!({"in": "engine", "rampart": board::RAMPARTS[r as usize]}),
                Stack::Outside(_) => json!({"in": "outside"}),
            }
        }
    }
}

fn ids(list: impl IntoIterator<Item = u8>) -> Value {
    json!(list.into_iter().map(cards::card_id).collect::<Vec<_>>())
}

fn in_play(game: &Castel) -> Vec<u8> {
    let mut out: Vec<u8> = game.stacks().flat_map(|(_, v)| v.iter().copied()).collect();
    out.sort_unstable();
    out
}

fn can_move(game: &Castel, card: u8) -> bool {
    let Some(zone) = game.zone_of(card) else {
        return false;
    };
    if game.protected(card) {
        return false;
    }
    match zone {
        Zone::Courtyard | Zone::Rampart | Zone::Tower => !game.free_squares(zone).is_empty(),
        Zone::Outside => false,
        Zone::Engine => game.engines.iter().any(Vec::is_empty),
        Zone::OnCard => in_play(game).len() > 1,
    }
}

pub(crate) fn query(game: &Castel, name: &str, args: &Value) -> Result<Value, GameError> {
    match name {
        "card" => {
            let c = arg_card(name, args, "card")?;
            let def = game.def(c);
            let (fr, en) = cards::card_name(c);
            let above: Vec<u8> = match game.locate(c) {
                Loc::InPlay(s, i) => game.stack(s)[i as usize + 1..].to_vec(),
                _ => vec![],
            };
            Ok(json!({
                "id": cards::card_id(c),
                "kind": KINDS[kind(c) as usize].slug,
                "name": {"fr": fr, "en": en},
                "zone": zone_name(def.zone),
                "sex": sex_name(def.sex),
                "character": def.sex != Sex::None,
                "soldier": def.soldier,
                "at": where_json(game, c),
                "pawn": game.pawns[c as usize],
                "protected": game.zone_of(c).is_some() && game.protected(c),
                "effect": def.effect,
                "above": ids(above),
            }))
        }
        "cards_in_play" => {
            let all = in_play(game);
            let Some(z) = args.get("zone").and_then(Value::as_str) else {
                return Ok(ids(all));
            };
            let keep: Vec<u8> = if z == "castle" {
                all.into_iter().filter(|&c| game.square_of(c).is_some()).collect()
            } else {
                let zone = parse_zone(z).ok_or_else(|| refuse(name, format!("`{z}` is not a zone")))?;
                all.into_iter().filter(|&c| game.zone_of(c) == Some(zone)).collect()
            };
            Ok(ids(keep))
        }
        "neighbours" => {
            let sq = if let Some(s) = args.get("square").and_then(Value::as_str) {
                board::parse(s).ok_or_else(|| refuse(name, format!("`{s}` is not a square")))?
            } else {
                let c = arg_card(name, args, "card")?;
                match game.square_of(c) {
                    Some(q) => q,
                    None => return Ok(json!([])), // outside the walls: no neighbours
                }
            };
            Ok(ids(game.neighbour_cards(sq)))
        }
        "hand" => Ok(ids(game.hands[arg_seat(game, name, args, "seat")? as usize].clone())),
        "exchange" => Ok(ids(game.exchange.clone())),
        "counts" => Ok(json!((0..game.players)
            .map(|s| json!({"seat": s, "hand": game.hands[s as usize].len(), "pile": game.piles[s as usize].len()}))
            .collect::<Vec<_>>())),
        "turn" => Ok(json!({
            "seat": game.turn,
            "actions_left": game.actions_left,
            "dealer": game.dealer,
            "players": game.players,
            "last_placed": game.last_placed.map(cards::card_id),
            "placed_before": game.placed_before.map(cards::card_id),
            "pending": game.pending.map(|p| json!({"card": cards::card_id(p.card), "seat": p.seat})),
            "draw_offered_to": game.draw_offered_to(),
        })),
        "free_squares" => {
            let z = args.get("zone").and_then(Value::as_str).unwrap_or("");
            let zone = parse_zone(z)
                .filter(|z| matches!(z, Zone::Courtyard | Zone::Rampart | Zone::Tower))
                .ok_or_else(|| refuse(name, "give `zone`: courtyard, rampart or tower"))?;
            Ok(json!(game.free_squares(zone).into_iter().map(board::name).collect::<Vec<_>>()))
        }
        "spots" => {
            let c = arg_card(name, args, "card")?;
            Ok(json!(game.spots(c).into_iter().map(spot_name).collect::<Vec<_>>()))
        }
        "can_return" => {
            let c = arg_card(name, args, "card")?;
            Ok(json!(game.zone_of(c).is_some() && !game.protected(c)))
        }
        "can_move" => Ok(json!(can_move(game, arg_card(name, args, "card")?))),
        "find" => {
            let slug = args.get("kind").and_then(Value::as_str).unwrap_or("");
            let k = cards::parse_kind(slug).ok_or_else(|| refuse(name, format!("`{slug}` is not a kind")))?;
            Ok(ids(in_play(game).into_iter().filter(|&c| kind(c) == k)))
        }
        "definitions" => Ok(json!(KINDS
            .iter()
            .zip(&game.defs)
            .enumerate()
            .map(|(i, (k, d))| json!({
                "kind": k.slug, "name": {"fr": k.fr, "en": k.en}, "count": game.count(i as u8),
                "zone": zone_name(d.zone), "sex": sex_name(d.sex),
                "condition": condition_json(d.condition), "soldier": d.soldier, "effect": d.effect,
            }))
            .collect::<Vec<_>>())),
        _ => Err(veillee_sdk::unknown_operation(name)),
    }
}

pub(crate) fn command(game: &mut Castel, name: &str, args: &Value) -> Result<Value, GameError> {
    let r = |e: &str| refuse(name, e);
    match name {
        "return_card" => {
            let c = arg_card(name, args, "card")?;
            match game.return_card(c).map_err(r)? {
                Some(seat) => Ok(json!({"to": "hand", "seat": seat})),
                None => Ok(json!({"to": "exchange"})),
            }
        }
        "remove_card" => {
            let c = arg_card(name, args, "card")?;
            game.remove_card(c).map_err(r)?;
            Ok(Value::Null)
        }
        "move_card" => {
            let c = arg_card(name, args, "card")?;
            let to = args
                .get("to")
                .and_then(Value::as_str)
                .and_then(parse_spot)
                .ok_or_else(|| {
                    r("give `to`: a square (c4), outside, engine-n/e/s/w or on-<card>")
                })?;
            let any = args
                .get("any_zone")
                .and_then(Value::as_bool)
                .unwrap_or(false);
            let soldier = args
                .get("soldier_rule")
                .and_then(Value::as_bool)
                .unwrap_or(false);
            game.move_card(c, to, any, soldier).map_err(r)?;
            Ok(Value::Null)
        }
        "swap_cards" => {
            let a = arg_card(name, args, "a")?;
            let b = arg_card(name, args, "b")?;
            let (Some(qa), Some(qb)) = (game.square_of(a), game.square_of(b)) else {
                return Err(r("both cards must stand on castle squares"));
            };
            if a == b || board::zone(qa) != board::zone(qb) {
                return Err(r("two different cards of the same zone"));
            }
            if game.protected(a) || game.protected(b) {
                return Err(r("a protected card cannot be moved"));
            }
            game.squares.swap(qa as usize, qb as usize);
            game.occupancy.forget();
            Ok(Value::Null)
        }
        "set_pawn" => {
            let c = arg_card(name, args, "card")?;
            if game.zone_of(c).is_none() {
                return Err(r("the card is not in play"));
            }
            let seat = match args.get("seat") {
                None | Some(Value::Null) => None,
                Some(_) => Some(arg_seat(game, name, args, "seat")?),
            };
            game.pawns[c as usize] = seat;
            Ok(Value::Null)
        }
        "swap_pawns" => {
            let a = arg_card(name, args, "a")?;
            let b = arg_card(name, args, "b")?;
            if game.zone_of(a).is_none() || game.zone_of(b).is_none() {
                return Err(r("both cards must be in play"));
            }
            game.pawns.swap(a as usize, b as usize);
            Ok(Value::Null)
        }
        "give_card" => {
            let c = arg_card(name, args, "card")?;
            let seat = arg_seat(game, name, args, "seat")?;
            let loc = game.locate(c);
            if !matches!(loc, Loc::Hand(_) | Loc::Pile(_) | Loc::Exchange) {
                return Err(r(
                    "only a card in a hand, a pile or the exchange can be given",
                ));
            }
            game.take(c);
            game.put_hand(seat, c, loc == Loc::Exchange);
            Ok(Value::Null)
        }
        "draw_card" => {
            // CA-T1's draw, for a house rule that draws more (« pioche double »): the card
            // stays private, like a drawn card.
            let seat = arg_seat(game, name, args, "seat")?;
            match game.piles[seat as usize].pop() {
                Some(c) => {
                    game.put_hand(seat, c, false);
                    Ok(json!(cards::card_id(c)))
                }
                None => Ok(Value::Null),
            }
        }
        "exchange_card" => {
            let seat = arg_seat(game, name, args, "seat")?;
            let h = arg_card(name, args, "hand_card")?;
            let x = arg_card(name, args, "exchange_card")?;
            if game.locate(h) != Loc::Hand(seat) || game.locate(x) != Loc::Exchange {
                return Err(r(
                    "hand_card must be in the seat's hand and exchange_card in the exchange",
                ));
            }
            let i = game.exchange.iter().position(|&c| c == x).expect("located");
            game.take(h);
            game.exchange[i] = h;
            game.put_hand(seat, x, true);
            Ok(Value::Null)
        }
        "random_hand_card" => {
            let seat = arg_seat(game, name, args, "seat")?;
            let hand = &game.hands[seat as usize];
            if hand.is_empty() {
                return Ok(Value::Null);
            }
            let i = game.rng.below(hand.len());
            Ok(json!(cards::card_id(game.hands[seat as usize][i])))
        }
        "pass_cards" => {
            let step = direction(game, name, args)?;
            let map = args
                .get("cards")
                .and_then(Value::as_object)
                .ok_or_else(|| r("give `cards`: {seat = card id}"))?;
            let mut moves: Vec<(u8, Seat)> = Vec::new();
            for (k, v) in map {
                let from: Seat = k
                    .parse()
                    .ok()
                    .filter(|&s: &Seat| s < game.players)
                    .ok_or_else(|| r("keys are seats"))?;
                let c = v
                    .as_str()
                    .and_then(cards::parse_card)
                    .ok_or_else(|| r("values are card ids"))?;
                if game.locate(c) != Loc::Hand(from) {
                    return Err(r("each card must be in its seat's hand"));
                }
                moves.push((c, (from + step) % game.players));
            }
            for (c, to) in moves {
                game.take(c);
                game.put_hand(to, c, false);
            }
            Ok(Value::Null)
        }
        "draw_from_neighbours" => {
            let step = direction(game, name, args)?;
            let n = game.players;
            let mut picks: Vec<(u8, Seat)> = Vec::new();
            for s in 0..n {
                let from = (s + step) % n;
                let hand = &game.hands[from as usize];
                if !hand.is_empty() {
                    let i = game.rng.below(hand.len());
                    picks.push((game.hands[from as usize][i], s));
                }
            }
            for &(c, to) in &picks {
                game.take(c);
                game.put_hand(to, c, false);
            }
            Ok(json!(picks.len()))
        }
        "put_into_play" => {
            let c = arg_card(name, args, "card")?;
            let to = args
                .get("to")
                .and_then(Value::as_str)
                .and_then(parse_spot)
                .ok_or_else(|| r("give `to`: a spot name"))?;
            if game.zone_of(c).is_some() || game.locate(c) == Loc::Removed {
                return Err(r("the card must be in a hand, a pile or the exchange"));
            }
            let check = args.get("check").and_then(Value::as_bool).unwrap_or(true);
            if check && !game.spots(c).contains(&to) {
                return Err(r("the card cannot be placed there (CA-T2)"));
            }
            let pawn = match args.get("seat") {
                None | Some(Value::Null) => None,
                Some(_) => Some(arg_seat(game, name, args, "seat")?),
            };
            game.arrive(c, to, pawn);
            Ok(Value::Null)
        }
        "grant_action" => {
            let seat = arg_seat(game, name, args, "seat")?;
            if game.ending.is_some() {
                return Err(r("the game is over"));
            }
            if game.turn == seat && game.pending.is_none_or(|p| p.seat == seat) {
                game.actions_left += 1;
            } else if game.pending.is_some_and(|p| p.seat == seat) {
                // The placement ended the turn: it opens again for one action.
                game.turn = seat;
                game.actions_left = 1;
                game.turns = game.turns.saturating_sub(1);
                game.placed_this_turn = true;
                game.stuck_turns = 0;
                // A draw offered as the turn ended waits for the turn's real end.
                game.draw_offer = None;
            } else {
                return Err(r(
                    "only during that seat's turn or its last placement's effect",
                ));
            }
            Ok(Value::Null)
        }
        "end_effect" => {
            let had = game.pending.is_some();
            game.settle();
            Ok(json!({"ended": had, "finished": game.ending.is_some()}))
        }
        "enable_scripted_effects" => {
            game.scripted = true;
            Ok(Value::Null)
        }
        "define_card" => {
            let slug = args.get("kind").and_then(Value::as_str).unwrap_or("");
            let k = cards::parse_kind(slug)
                .ok_or_else(|| r("give `kind`, a kind id such as \"soldat\""))?;
            let mut def = game.defs[k as usize];
            let mut count = game.count(k);
            if let Some(n) = args.get("count") {
                let printed = KINDS[k as usize].count;
                count = n
                    .as_u64()
                    .filter(|&n| n <= printed as u64)
                    .ok_or_else(|| {
                        refuse(
                            name,
                            format!("`count` is a whole number from 0 to {printed} (the copies the game has)"),
                        )
                    })? as u8;
                if count != game.count(k) && game.started() {
                    return Err(r("counts can change only before the first action"));
                }
            }
            if let Some(z) = args.get("zone") {
                def.zone = z
                    .as_str()
                    .and_then(parse_zone)
                    .ok_or_else(|| r("bad `zone`"))?;
            }
            if let Some(s) = args.get("sex") {
                def.sex = match s.as_str() {
                    Some("male") => Sex::Male,
                    Some("female") => Sex::Female,
                    Some("none") => Sex::None,
                    _ => return Err(r("`sex` is male, female or none")),
                };
            }
            if let Some(c) = args.get("condition") {
                def.condition = parse_condition(c).ok_or_else(|| r("bad `condition`"))?;
            }
            if let Some(b) = args.get("soldier") {
                def.soldier = b.as_bool().ok_or_else(|| r("`soldier` is a boolean"))?;
            }
            if let Some(b) = args.get("effect") {
                def.effect = b.as_bool().ok_or_else(|| r("`effect` is a boolean"))?;
            }
            game.defs[k as usize] = def;
            if count != game.count(k) {
                if game.counts.len() != KINDS.len() {
                    game.counts = KINDS.iter().map(|k| k.count).collect();
                }
                game.counts[k as usize] = count;
            }
            Ok(Value::Null)
        }
        "deal" => {
            if game.started() {
                return Err(r("only before the first action"));
            }
            game.redeal();
            Ok(Value::Null)
        }
        // CA-T1's turn cut short, as `pass` ends it: the next seat in play order gets two
        // actions, and a turn without a placement counts for CA-E2's blocking rule. An arrival
        // effect still pending stays for its script (`end_effect`, CA-E1).
        "pass_turn" => {
            if game.ending.is_some() {
                return Err(r("the game is over"));
            }
            if game.draw_offer.is_some() {
                return Err(r(
                    "the safety limit's draw is offered: the players answer it first",
                ));
            }
            game.end_turn();
            Ok(Value::Null)
        }
        _ => Err(veillee_sdk::unknown_operation(name)),
    }
}

/// `left` (the next seat in play order) or `right` (the previous one), as a seat step.
fn direction(game: &Castel, name: &str, args: &Value) -> Result<Seat, GameError> {
    match args.get("direction").and_then(Value::as_str) {
        Some("left") => Ok(1),
        Some("right") => Ok(game.players - 1),
        _ => Err(refuse(name, "give `direction`: left or right")),
    }
}
