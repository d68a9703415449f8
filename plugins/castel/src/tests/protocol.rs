//! What each seat sees, the leak check, random playouts and the SDK's protocol test.

use super::*;

#[test]
fn each_seat_sees_its_own_hand_only() {
    let g = game(4);
    for viewer in 0..4u8 {
        let scene = g.view(Some(viewer));
        for s in 0..4u8 {
            let zone = scene
                .zones
                .iter()
                .find(|z| z.id == format!("hand-{s}"))
                .unwrap();
            assert_eq!(zone.cards.len(), g.hand(s).len());
            for card in &zone.cards {
                assert_eq!(card.face_up, s == viewer);
                if s != viewer {
                    assert!(card.title.fr.is_empty() && parse_card(&card.id).is_none());
                }
            }
        }
        let exchange = scene.zones.iter().find(|z| z.id == "exchange").unwrap();
        assert!(exchange.cards.iter().all(|c| c.face_up));
    }
    let spectator = g.view(None);
    assert!(
        spectator
            .zones
            .iter()
            .flat_map(|z| &z.cards)
            .filter(|c| c.face_up)
            .count()
            == g.exchange().len()
    );
}

#[test]
fn redraw_hidden_never_changes_the_viewers_view() {
    for players in 2..=5u8 {
        for seed in 0..40u64 {
            let mut g = Castel::deal(players, seed);
            let mut rng = GameRng::new(seed);
            let steps = rng.below(60);
            for _ in 0..steps {
                let Status::ToAct { seats } = g.status() else {
                    break;
                };
                let moves = g.moves(seats[0]);
                let mv = moves[rng.below(moves.len())];
                g.play(seats[0], &mv, &mut Log::off());
            }
            for viewer in (0..players).map(Some).chain([None]) {
                let mut copy = g.clone();
                copy.redraw_hidden(viewer, &mut GameRng::new(seed ^ 99));
                assert_eq!(copy.view(viewer), g.view(viewer));
                // The same multiset of cards.
                let mut a: Vec<u8> = copy.hands.concat();
                a.extend(copy.piles.concat());
                a.sort_unstable();
                let mut b: Vec<u8> = g.hands.concat();
                b.extend(g.piles.concat());
                b.sort_unstable();
                assert_eq!(a, b);
            }
        }
    }
}

#[test]
fn three_hundred_random_playouts_per_player_count_end_with_an_outcome() {
    for players in 2..=5u8 {
        let mut kinds = [0u32; 3];
        for seed in 0..300u64 {
            let mut g = Castel::deal(players, seed);
            let result = random_playout(&mut g, seed, 20_000);
            assert!(!result.stuck, "{players}p seed {seed} stuck");
            let outcome = result
                .outcome
                .unwrap_or_else(|| panic!("{players}p seed {seed} did not end"));
            // Without the card scripts no game comes near the safety limit's draw offer.
            assert!(!outcome.winners.is_empty());
            match g.ending().unwrap().reason.as_str() {
                "empty" => kinds[0] += 1,
                "blocked" => kinds[1] += 1,
                _ => kinds[2] += 1,
            }
        }
        eprintln!("{players}p endings (empty, blocked, draw): {kinds:?}");
        assert!(kinds[0] > 0, "{players}p: {kinds:?}");
    }
}

#[test]
fn random_games_follow_the_protocol_and_replay_by_id() {
    let config = RandomGames::new(2..=5, 15);
    let tally = random_games::<Castel>(&config, |game, _| {
        // Every card is somewhere exactly once.
        let mut all: Vec<u8> = game.hands.concat();
        all.extend(game.piles.concat());
        all.extend(&game.exchange);
        all.extend(&game.removed);
        all.extend(game.stacks().flat_map(|(_, v)| v.clone()));
        all.sort_unstable();
        assert_eq!(all, (0..56).collect::<Vec<u8>>());
    });
    assert_eq!(tally.games, 60);
}

#[test]
fn the_manifest_is_sane() {
    let m = Castel::manifest();
    assert!(m.problems().is_empty(), "{:?}", m.problems());
    assert!(m.hidden_information);
}
