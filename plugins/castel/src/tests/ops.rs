//! The operations offered to scripts (`ctx.game.query` / `ctx.game.command`).

use super::*;

#[test]
fn op_card_and_cards_in_play_and_find() {
    let mut g = game(3);
    put(&mut g, "roi", Spot::Square(sq("c4")), Some(1));
    put(&mut g, "chevalier-2", Spot::On(c("roi")), Some(0));
    put(&mut g, "soldat-3", Spot::Square(sq("f3")), Some(0));
    let card = q(&g, "card", json!({"card": "roi"}));
    assert_eq!(card["at"], json!({"in": "courtyard", "square": "c4"}));
    assert_eq!(card["pawn"], json!(1));
    assert_eq!(card["protected"], json!(true));
    assert_eq!(card["above"], json!(["chevalier-2"]));
    assert_eq!(
        q(&g, "card", json!({"card": "chevalier-2"}))["at"],
        json!({"in": "on_card", "on": "roi"})
    );
    assert_eq!(
        q(&g, "card", json!({"card": "soldat-3"}))["at"]["rampart"],
        json!("e")
    );
    assert_eq!(
        q(&g, "cards_in_play", json!({"zone": "rampart"})),
        json!(["soldat-3"])
    );
    assert_eq!(
        q(&g, "cards_in_play", json!({"zone": "castle"}))
            .as_array()
            .unwrap()
            .len(),
        3
    );
    assert_eq!(
        q(&g, "find", json!({"kind": "chevalier"})),
        json!(["chevalier-2"])
    );
    assert!(g.query("card", &json!({"card": "joker"})).is_err());
}

#[test]
fn op_hand_exchange_counts_turn_free_squares_spots_definitions() {
    let g = game(3);
    assert_eq!(
        q(&g, "hand", json!({"seat": 0})).as_array().unwrap().len(),
        7
    );
    assert_eq!(q(&g, "exchange", json!(null)).as_array().unwrap().len(), 11);
    assert_eq!(
        q(&g, "counts", json!(null))[2],
        json!({"seat": 2, "hand": 7, "pile": 8})
    );
    assert_eq!(q(&g, "turn", json!(null))["actions_left"], json!(2));
    assert_eq!(
        q(&g, "free_squares", json!({"zone": "tower"})),
        json!(["a6", "f6", "a1", "f1"])
    );
    assert_eq!(
        q(&g, "spots", json!({"card": "engin-1"})),
        json!(["engine-n", "engine-e", "engine-s", "engine-w"])
    );
    let defs = q(&g, "definitions", json!(null));
    assert_eq!(defs.as_array().unwrap().len(), 37);
    assert_eq!(
        defs[5]["condition"],
        json!({"type": "next_to", "kinds": ["roi"]})
    );
    assert!(g.query("hand", &json!({"seat": 7})).is_err());
}

#[test]
fn op_remove_swap_cards_swap_pawns() {
    let mut g = game(3);
    put(&mut g, "courtisan", Spot::Square(sq("c3")), Some(0));
    put(&mut g, "espion", Spot::Square(sq("d3")), Some(1));
    cmd(
        &mut g,
        "swap_cards",
        json!({"a": "courtisan", "b": "espion"}),
    );
    assert_eq!(g.square_of(c("courtisan")), Some(sq("d3")));
    cmd(
        &mut g,
        "swap_pawns",
        json!({"a": "courtisan", "b": "espion"}),
    );
    assert_eq!(g.pawn(c("courtisan")), Some(1));
    cmd(&mut g, "set_pawn", json!({"card": "espion", "seat": null}));
    assert_eq!(g.pawn(c("espion")), None);
    cmd(&mut g, "remove_card", json!({"card": "espion"}));
    assert_eq!(g.locate(c("espion")), Loc::Removed);
    assert!(g
        .command("swap_cards", &json!({"a": "courtisan", "b": "espion"}))
        .is_err());
}

#[test]
fn op_give_exchange_random_pass_and_draw_from_neighbours() {
    let mut g = game(3);
    let x = g.exchange()[0];
    cmd(
        &mut g,
        "give_card",
        json!({"card": cards::card_id(x), "seat": 2}),
    );
    assert_eq!(g.locate(x), Loc::Hand(2));
    let h = g.hand(0)[0];
    let x = g.exchange()[3];
    cmd(
        &mut g,
        "exchange_card",
        json!({"seat": 0, "hand_card": cards::card_id(h), "exchange_card": cards::card_id(x)}),
    );
    assert_eq!(g.exchange()[3], h);
    let pick = cmd(&mut g, "random_hand_card", json!({"seat": 1}));
    assert_eq!(g.locate(c(pick.as_str().unwrap())), Loc::Hand(1));
    let sizes: Vec<usize> = (0..3).map(|s| g.hand(s).len()).collect();
    let gifts: Vec<u8> = (0..3).map(|s| g.hand(s)[0]).collect();
    let map: serde_json::Map<String, Value> = (0..3)
        .map(|s| (s.to_string(), json!(cards::card_id(gifts[s]))))
        .collect();
    cmd(
        &mut g,
        "pass_cards",
        json!({"cards": map, "direction": "left"}),
    );
    for s in 0..3 {
        assert_eq!(g.locate(gifts[s]), Loc::Hand(((s + 1) % 3) as u8));
        assert_eq!(g.hand(s as u8).len(), sizes[s]);
    }
    assert_eq!(
        cmd(
            &mut g,
            "draw_from_neighbours",
            json!({"direction": "right"})
        ),
        json!(3)
    );
    for (s, &size) in sizes.iter().enumerate() {
        assert_eq!(g.hand(s as u8).len(), size);
    }
    let before = g.clone();
    assert!(g
        .command(
            "pass_cards",
            &json!({"cards": {"0": "roi"}, "direction": "up"})
        )
        .is_err());
    assert_eq!(g, before);
}

#[test]
fn op_put_into_play_without_pawn_for_the_conseiller() {
    let mut g = game(3);
    put(&mut g, "roi", Spot::Square(sq("c3")), Some(0));
    let x = *g
        .exchange()
        .iter()
        .find(|&&x| g.def(x).zone == Zone::Outside)
        .unwrap_or(&c("barbare"));
    if g.locate(x) != Loc::Exchange {
        g.take(x);
        g.exchange.push(x);
    }
    cmd(
        &mut g,
        "put_into_play",
        json!({"card": cards::card_id(x), "to": "outside"}),
    );
    assert_eq!(g.pawn(x), None);
    assert_eq!(g.last_placed, Some(x));
    assert!(g
        .command("put_into_play", &json!({"card": "roi", "to": "d4"}))
        .is_err());
    // Returned without a pawn: to the exchange.
    cmd(&mut g, "return_card", json!({"card": cards::card_id(x)}));
    assert_eq!(g.locate(x), Loc::Exchange);
}

#[test]
fn op_grant_action_reopens_the_turn_of_a_pending_placement() {
    let mut g = game(3);
    cmd(&mut g, "enable_scripted_effects", json!(null));
    let seat = g.turn;
    hand_of(&mut g, seat, &["marchand"]);
    play(&mut g, seat, "draw");
    play(&mut g, seat, "place-marchand-c3");
    assert_eq!(g.turn().0, (seat + 1) % 3);
    cmd(&mut g, "grant_action", json!({"seat": seat}));
    assert_eq!(g.turn(), (seat, 1));
    cmd(&mut g, "end_effect", json!(null));
    play(&mut g, seat, "draw");
    assert_eq!(g.turn(), ((seat + 1) % 3, 2));
    assert!(g.command("grant_action", &json!({"seat": seat})).is_err());
}

#[test]
fn op_grant_action_withdraws_a_draw_offered_as_the_turn_ended() {
    let mut g = game(3);
    cmd(&mut g, "enable_scripted_effects", json!(null));
    g.turns = DRAW_OFFER_AFTER - 1;
    let seat = g.turn;
    hand_of(&mut g, seat, &["marchand"]);
    play(&mut g, seat, "draw");
    play(&mut g, seat, "place-marchand-c3");
    assert_eq!(
        q(&g, "turn", json!(null))["draw_offered_to"],
        json!([0, 1, 2])
    );
    cmd(&mut g, "grant_action", json!({"seat": seat}));
    assert_eq!(g.status(), Status::to_act(seat));
    assert_eq!(q(&g, "turn", json!(null))["draw_offered_to"], json!([]));
    cmd(&mut g, "end_effect", json!(null));
    play(&mut g, seat, "draw");
    // The turn really ends now: the offer comes.
    assert_eq!(
        g.status(),
        Status::ToAct {
            seats: vec![0, 1, 2]
        }
    );
}

#[test]
fn op_define_card_overrides_a_kind() {
    let mut g = game(3);
    cmd(
        &mut g,
        "define_card",
        json!({"kind": "roi", "zone": "tower", "condition": {"type": "none"}}),
    );
    assert_eq!(
        q(&g, "spots", json!({"card": "roi"})),
        json!(["a6", "f6", "a1", "f1"])
    );
    cmd(
        &mut g,
        "define_card",
        json!({"kind": "archer", "condition": {"type": "next_to", "kinds": ["roi", "prince"]}}),
    );
    assert_eq!(
        q(&g, "definitions", json!(null))[31]["condition"]["kinds"],
        json!(["roi", "prince"])
    );
    let before = g.clone();
    assert!(g
        .command("define_card", &json!({"kind": "roi", "zone": "moat"}))
        .is_err());
    assert!(g
        .command("define_card", &json!({"kind": "nobody"}))
        .is_err());
    assert_eq!(g, before);
}

#[test]
fn undeclared_operations_are_refused() {
    let mut table = GameTable::<Castel>::default();
    let h = table.create(&Setup::new(3, 0)).unwrap();
    let call = veillee_sdk::OperationCall {
        name: "win_now".into(),
        args: json!(null),
    };
    assert!(table.operation(h, &call).is_err());
    let call = veillee_sdk::OperationCall {
        name: "counts".into(),
        args: json!(null),
    };
    assert!(table.operation(h, &call).is_ok());
}

#[test]
fn op_define_card_count_and_deal_redeal_from_the_table() {
    for players in 2..=5u8 {
        let mut g = game(players);
        // The printed table: the same deal sizes as CA-S.
        cmd(&mut g, "deal", json!(null));
        let (h, p, x) = crate::deal_sizes(players);
        for s in 0..players {
            assert_eq!((g.hand(s).len(), g.pile(s).len()), (h, p));
        }
        assert_eq!(g.exchange().len(), x);
        // Three soldiers fewer: hands and exchange keep their sizes, piles share the rest,
        // what cannot be shared joins the exchange; the missing copies are out of the game.
        cmd(
            &mut g,
            "define_card",
            json!({"kind": "soldat", "count": 10}),
        );
        assert_eq!(q(&g, "definitions", json!(null))[28]["count"], json!(10));
        cmd(&mut g, "deal", json!(null));
        let total = if players == 2 { 51 } else { 53 };
        let piles = (total - players as usize * h - x) / players as usize;
        for s in 0..players {
            assert_eq!((g.hand(s).len(), g.pile(s).len()), (h, piles));
        }
        assert_eq!(
            g.exchange().len(),
            total - players as usize * (h + piles),
            "{players}p"
        );
        for n in 11..=13 {
            assert_eq!(g.locate(c(&format!("soldat-{n}"))), Loc::Removed);
        }
        assert!(matches!(
            g.locate(c("soldat-10")),
            Loc::Hand(_) | Loc::Pile(_) | Loc::Exchange
        ));
    }
}

#[test]
fn op_deal_uses_the_conditions_min_players_and_only_before_the_first_action() {
    // The Fou needs 3 players by its condition: with 2 it is left out of the deal; with
    // the condition lifted it is dealt.
    let mut g = game(2);
    cmd(
        &mut g,
        "define_card",
        json!({"kind": "fou", "condition": {"type": "none"}}),
    );
    cmd(&mut g, "deal", json!(null));
    assert_ne!(g.locate(c("fou")), Loc::Removed);
    assert_eq!(g.locate(c("bouffon")), Loc::Removed);
    // Deterministic: the same seed and table give the same deal.
    let mut again = game(2);
    cmd(
        &mut again,
        "define_card",
        json!({"kind": "fou", "condition": {"type": "none"}}),
    );
    cmd(&mut again, "deal", json!(null));
    assert_eq!(again, g);
    // More copies than the game has, or a change after the first action: refused.
    assert!(g
        .command("define_card", &json!({"kind": "roi", "count": 2}))
        .is_err());
    let seat = g.turn;
    play(&mut g, seat, "draw");
    let before = g.clone();
    assert!(g.command("deal", &json!(null)).is_err());
    assert!(g
        .command("define_card", &json!({"kind": "soldat", "count": 3}))
        .is_err());
    assert_eq!(g, before);
    // A definition that does not touch the count is still fine.
    cmd(
        &mut g,
        "define_card",
        json!({"kind": "soldat", "count": 13}),
    );
}

#[test]
fn op_turn_names_the_card_placed_before_the_last_one() {
    let mut g = game(3);
    let seat = g.turn;
    hand_of(&mut g, seat, &["courtisan", "barbare"]);
    play(&mut g, seat, "place-courtisan-c3");
    play(&mut g, seat, "place-barbare-outside");
    let t = q(&g, "turn", json!(null));
    assert_eq!(t["last_placed"], json!("barbare"));
    assert_eq!(t["placed_before"], json!("courtisan"));
    assert_eq!(
        q(&g, "card", json!({"card": "barbare"}))["effect"],
        json!(true)
    );
    assert_eq!(
        q(&g, "card", json!({"card": "pretre"}))["effect"],
        json!(false)
    );
}

#[test]
fn op_draw_card_takes_the_top_of_the_pile_as_a_draw_does_ca_t1() {
    let mut g = game(2);
    let top = *g.piles[1].last().unwrap();
    let (hand, pile) = (g.hand(1).len(), g.piles[1].len());
    let drawn = cmd(&mut g, "draw_card", json!({"seat": 1}));
    assert_eq!(drawn, json!(cards::card_id(top)));
    assert_eq!(g.locate(top), Loc::Hand(1));
    assert_eq!((g.hand(1).len(), g.piles[1].len()), (hand + 1, pile - 1));
    // A drawn card stays private, as with the `draw` action.
    assert_eq!(g.public & (1u64 << top), 0);
    while !g.piles[1].is_empty() {
        cmd(&mut g, "draw_card", json!({"seat": 1}));
    }
    assert_eq!(cmd(&mut g, "draw_card", json!({"seat": 1})), Value::Null);
    assert!(g.command("draw_card", &json!({"seat": 2})).is_err());
}

#[test]
fn op_pass_turn_ends_the_turn_as_pass_does_ca_t1() {
    let mut g = game(3);
    let seat = g.turn;
    cmd(&mut g, "pass_turn", json!(null));
    assert_eq!(g.turn(), ((seat + 1) % 3, 2));
    // After one action of two.
    let seat = g.turn;
    play(&mut g, seat, "draw");
    assert_eq!(g.turn(), (seat, 1));
    cmd(&mut g, "pass_turn", json!(null));
    assert_eq!(g.turn(), ((seat + 1) % 3, 2));
    assert_eq!(g.status(), Status::to_act((seat + 1) % 3));
    // A pending arrival effect stays for its script.
    cmd(&mut g, "enable_scripted_effects", json!(null));
    let seat = g.turn;
    hand_of(&mut g, seat, &["marchand"]);
    play(&mut g, seat, "place-marchand-c3");
    cmd(&mut g, "pass_turn", json!(null));
    assert_eq!(g.turn(), ((seat + 1) % 3, 2));
    let pending = &q(&g, "turn", json!(null))["pending"];
    assert_eq!(pending["seat"], json!(seat), "{pending}");
    cmd(&mut g, "end_effect", json!(null));
    // The turn that reaches the safety limit opens the draw offer; answering comes first.
    g.turns = DRAW_OFFER_AFTER - 1;
    cmd(&mut g, "pass_turn", json!(null));
    assert_eq!(
        g.status(),
        Status::ToAct {
            seats: vec![0, 1, 2]
        }
    );
    assert!(g.command("pass_turn", &json!(null)).is_err());
}
