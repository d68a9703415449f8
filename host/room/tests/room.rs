//! The room with a real server, real WebSocket clients and a real game: Castel (wasm plugin
//! and Lua cards) saved in a real sled store.

mod common;

use std::io::{Read, Write};
use std::sync::mpsc::channel;

use common::{Phone, Table};
use serde_json::{json, Value};
use veillee_room::protocol::{MAX_FRAME, MAX_MESSAGE};
use veillee_room::{Room, RoomConfig, RoomError};
use veillee_sdk::GameRng;

/// Plays a phone's seat to the end of the game with random legal moves; returns the final
/// state.
async fn play_to_the_end(phone: &mut Phone, seed: u64) -> Value {
    let mut rng = GameRng::new(seed);
    let mut latest: Option<Value> = None;
    loop {
        let message = phone
            .next()
            .await
            .unwrap_or_else(|| panic!("the room closed mid-game: {:?}", phone.received.last()));
        match message["type"].as_str() {
            Some("state") => latest = Some(message),
            // A refused move (a house rule said no): choose again in the same state.
            Some("error") => {}
            _ => continue,
        }
        let Some(state) = &latest else { continue };
        if state["status"]["state"] == "finished" {
            return state.clone();
        }
        let actions = state["actions"].as_array().unwrap();
        if actions.is_empty() {
            continue;
        }
        let action = &actions[rng.below(actions.len())]["id"];
        let version = state["version"].clone();
        phone
            .send(json!({"type": "act", "action": action, "version": version}))
            .await;
    }
}

#[tokio::test]
async fn two_phones_and_a_bot_play_castel_to_the_end_and_seat_0_never_sees_seat_1s_cards() {
    let table = Table::open(11, 3, &[0, 1]);
    let mut ana = Phone::join(&table.base, &table.link(0).token, None).await;
    let mut bo = Phone::join(&table.base, &table.link(1).token, None).await;
    assert_eq!(ana.next_of("welcome").await["seat"], 0);
    assert_eq!(bo.next_of("welcome").await["seat"], 1);
    let (end_ana, end_bo) = tokio::join!(play_to_the_end(&mut ana, 1), play_to_the_end(&mut bo, 2));
    assert_eq!(end_ana["moves"], end_bo["moves"]);
    let moves = end_ana["moves"].as_u64().unwrap();
    assert!(moves > 20, "a whole game was played ({moves} moves)");

    // What was shown was saved: the store holds every move and the outcome.
    let saved = table.sessions.get(table.session).unwrap();
    assert_eq!(u64::from(saved.moves), moves);
    assert_eq!(
        serde_json::to_value(&saved.status).unwrap(),
        end_ana["status"]
    );

    // Every message seat 0's phone received, read whole: none names a card of seat 1's
    // hand at that moment (ids name the cards: `dragon`, `soldat-3`).
    let record = table.record.lock().unwrap();
    let mut checked = 0;
    let states = |phone: &Phone| -> Vec<(u32, String)> {
        phone
            .received
            .iter()
            .filter_map(|text| {
                let value: Value = serde_json::from_str(text).ok()?;
                (value["type"] == "state")
                    .then(|| (value["moves"].as_u64().unwrap() as u32, text.clone()))
            })
            .collect()
    };
    for (moves, text) in states(&ana) {
        for card in &record.hands_of_seat_1[&moves] {
            assert!(
                !text.contains(&format!("\"{card}\"")),
                "seat 0 received seat 1's card {card} at move {moves}: {text}"
            );
            checked += 1;
        }
    }
    // The check is not empty: seat 1's own messages do carry those very ids.
    assert!(checked > 50, "{checked} cards checked");
    for (moves, text) in states(&bo) {
        for card in &record.hands_of_seat_1[&moves] {
            assert!(text.contains(&format!("\"{card}\"")), "{card} at {moves}");
        }
    }
    // ...and at every publication, seat 0's whole message was the same when everything
    // seat 0 cannot see was drawn again.
    assert!(record.redraw_checks as u64 > moves / 2);
    drop(record);
    table.close();
}

/// The states a phone received, parsed.
fn states_of(phone: &Phone) -> Vec<Value> {
    phone
        .received
        .iter()
        .filter_map(|text| serde_json::from_str::<Value>(text).ok())
        .filter(|v| v["type"] == "state")
        .collect()
}

#[tokio::test]
async fn each_phone_reads_its_own_questions_options_and_answers_and_the_others_only_that_it_answered(
) {
    // Castel's cards ask players privately (the Witch, the Schemer, the Alchemist…): each
    // answer is a `choose:N` move whose public label is "answers: the question" and whose
    // private text, for the seat asked, is the option.
    let table = Table::open(21, 3, &[0, 1]);
    let mut ana = Phone::join(&table.base, &table.link(0).token, None).await;
    let mut bo = Phone::join(&table.base, &table.link(1).token, None).await;
    ana.next_of("welcome").await;
    bo.next_of("welcome").await;
    tokio::join!(play_to_the_end(&mut ana, 3), play_to_the_end(&mut bo, 4));
    table.close();

    let public = |text: &Value| {
        text["en"]
            .as_str()
            .is_some_and(|t| t.starts_with("answers: "))
    };
    for (me, other, phone) in [("Ana", "Bo", &ana), ("Bo", "Ana", &bo)] {
        let states = states_of(phone);
        // The questions put to this seat read as their options, each its own.
        let mut asked = 0;
        for state in &states {
            let options: Vec<&Value> = state["actions"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|a| a["id"].as_str().unwrap().starts_with("choose:"))
                .collect();
            if options.is_empty() {
                continue;
            }
            asked += 1;
            assert!(
                options.iter().all(|a| !public(&a["label"])),
                "{me} is shown the public text instead of the options: {options:?}"
            );
            assert!(
                options.iter().all(|a| a.get("private").is_none()),
                "a phone is sent labels, not the texts meant for others"
            );
        }
        assert!(asked > 0, "{me} was asked no question (pick another seed)");
        let lines: Vec<&Value> = states
            .iter()
            .flat_map(|s| s["log"].as_array().unwrap())
            .collect();
        // Its own answers read as what it chose; the other's as "answers: the question".
        assert!(
            !lines.iter().any(|l| l["who"] == me && public(&l["text"])),
            "{me} reads its own answer as the table does"
        );
        assert!(
            lines
                .iter()
                .any(|l| l["who"] == other && public(&l["text"])),
            "{me} never read that {other} answered a question"
        );
    }
    // What Bo was offered never reaches Ana as Bo's move.
    let offered_to_bo: std::collections::BTreeSet<String> = states_of(&bo)
        .iter()
        .flat_map(|s| s["actions"].as_array().unwrap().clone())
        .filter(|a| a["id"].as_str().unwrap().starts_with("choose:"))
        .map(|a| a["label"]["en"].as_str().unwrap().to_string())
        .collect();
    for state in states_of(&ana) {
        for line in state["log"].as_array().unwrap() {
            if line["who"] == "Bo" {
                let text = line["text"]["en"].as_str().unwrap();
                assert!(
                    !offered_to_bo.contains(text),
                    "Ana read Bo's private answer: {text}"
                );
            }
        }
    }
}

#[tokio::test]
async fn wrong_links_and_a_second_phone_are_refused_and_the_host_can_hand_a_seat_over() {
    let table = Table::open(3, 3, &[0, 1]);
    let token = table.link(0).token.clone();

    // A made-up token, a token of another game, no hello: refused, each saying why.
    let mut stranger = Phone::join(
        &table.base,
        &format!("{}-{}", table.session, "0".repeat(32)),
        None,
    )
    .await;
    assert_eq!(stranger.next_of("refused").await["code"], "bad_token");
    assert!(stranger.next().await.is_none(), "the connection ends");
    let (_, secret) = token.split_once('-').unwrap();
    let mut old = Phone::join(
        &table.base,
        &format!("{}-{secret}", table.session + 1),
        None,
    )
    .await;
    let refused = old.next_of("refused").await;
    assert_eq!(refused["code"], "other_session");
    assert!(refused["message"]["en"]
        .as_str()
        .unwrap()
        .contains("another game"));
    let mut rude = Phone::connect(&table.base).await;
    rude.send(json!({"type": "act", "action": "x", "version": 1}))
        .await;
    assert_eq!(rude.next_of("refused").await["code"], "no_hello");

    // Ana's phone takes seat 0; another phone with the same link is refused.
    let mut ana = Phone::join(&table.base, &token, None).await;
    let welcome = ana.next_of("welcome").await;
    let claim = welcome["claim"].as_str().unwrap().to_string();
    assert_eq!(claim.len(), 32);
    let mut intruder = Phone::join(&table.base, &token, None).await;
    assert_eq!(intruder.next_of("refused").await["code"], "seat_taken");
    let mut guesser = Phone::join(&table.base, &token, Some(&"f".repeat(32))).await;
    assert_eq!(guesser.next_of("refused").await["code"], "seat_taken");

    // The same phone (its claim) comes back: the newer connection holds the seat.
    let mut again = Phone::join(&table.base, &token, Some(&claim)).await;
    assert_eq!(again.next_of("welcome").await["seat"], 0);
    assert_eq!(ana.next_of("refused").await["code"], "replaced");

    table.close();
}

/// A room without a game, to test what needs no game.
fn open_room_on_loopback(
    session: u64,
) -> (Room, std::sync::mpsc::Receiver<veillee_room::PhoneMove>) {
    let (moves_in, moves) = channel();
    let config = RoomConfig {
        session,
        seats: vec![(0, "Ana".into()), (1, "Bo".into())],
        address: "127.0.0.1".parse().unwrap(),
        port: 0,
    };
    (Room::open(config, moves_in).unwrap(), moves)
}

#[tokio::test]
async fn the_host_hands_a_seat_to_a_new_phone_and_the_old_link_stops_working() {
    let (room, _moves) = open_room_on_loopback(5);
    let base = room.base_url();
    let old_token = room.links()[0].token.clone();
    let mut first = Phone::join(&base, &old_token, None).await;
    let claim = first.next_of("welcome").await["claim"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(room.links()[0].connected && room.links()[0].taken);

    let new_url = room.hand_over(0).unwrap();
    assert_eq!(first.next_of("refused").await["code"], "handed_over");
    let new_token = room.links()[0].token.clone();
    assert_ne!(new_token, old_token);
    assert_eq!(new_url, room.url(&new_token));
    assert!(!room.links()[0].taken);

    let mut back = Phone::join(&base, &old_token, Some(&claim)).await;
    assert_eq!(back.next_of("refused").await["code"], "bad_token");
    let mut second = Phone::join(&base, &new_token, None).await;
    assert_eq!(second.next_of("welcome").await["seat"], 0);
    room.close();
}

/// Seat 0's state with one move, `draw`, for a room without a game.
fn seat_0_may_draw(moves: u32) -> veillee_room::SeatState {
    veillee_room::SeatState {
        seat: 0,
        game: veillee_sdk::Text::same("Test"),
        players: vec!["Ana".into(), "Bo".into()],
        moves,
        status: veillee_sdk::Status::to_act(0),
        scene: veillee_sdk::Scene::default(),
        actions: vec![veillee_room::ShownAction {
            id: "draw".into(),
            path: Vec::new(),
            label: veillee_sdk::Text::same("Draw"),
        }],
        log: Vec::new(),
    }
}

#[tokio::test]
async fn a_move_chosen_before_an_undo_at_the_big_screen_is_not_played_after_it() {
    let (room, moves) = open_room_on_loopback(6);
    let mut ana = Phone::join(&room.base_url(), &room.links()[0].token, None).await;
    ana.next_of("welcome").await;
    room.publish(&[seat_0_may_draw(4)], None);
    let state = ana.next_of("state").await;
    let act = json!({"type": "act", "action": "draw", "version": state["version"]});
    ana.send(act.clone()).await;
    let mv = tokio::task::spawn_blocking(move || {
        moves
            .recv_timeout(std::time::Duration::from_secs(20))
            .unwrap()
    })
    .await
    .unwrap();
    assert!(room.is_current(&mv), "nothing happened since Ana chose");

    // The host takes moves back before playing Ana's: the same moves are listed again,
    // but in another position; the move waiting on the channel is no longer current, and
    // one sent again from the old state is refused as stale.
    room.publish_moved_back(&[seat_0_may_draw(2)]);
    assert!(!room.is_current(&mv));
    let again = ana.next_of("state").await;
    assert_ne!(again["version"], state["version"]);
    ana.send(act).await;
    assert_eq!(ana.next_of("error").await["code"], "stale");
    room.close();
}

#[tokio::test]
async fn the_last_state_reaches_the_phones_before_the_room_closes() {
    // The game ends: its last state is published and the room closes at once. Each phone
    // must still see the end (both reach a phone's connection together; try a few times).
    for session in 0..10 {
        let (room, _moves) = open_room_on_loopback(session);
        let mut ana = Phone::join(&room.base_url(), &room.links()[0].token, None).await;
        ana.next_of("welcome").await;
        room.publish(&[seat_0_may_draw(1)], None);
        assert_eq!(ana.next_of("state").await["moves"], 1);
        let mut last = seat_0_may_draw(2);
        last.status = veillee_sdk::Status::Finished {
            outcome: veillee_sdk::Outcome::win(0, veillee_sdk::Text::same("the end")),
        };
        last.actions.clear();
        room.publish(&[last], None);
        room.close();
        let mut seen = Vec::new();
        while let Some(message) = ana.next().await {
            if message["type"] == "alive" {
                continue;
            }
            seen.push(message["type"].as_str().unwrap_or("").to_string());
            if message["type"] == "state" {
                assert_eq!(message["status"]["state"], "finished");
            }
        }
        assert_eq!(seen, ["state", "refused"], "try {session}");
    }
}

#[tokio::test]
async fn bad_and_oversized_messages_are_refused_with_a_reason_and_never_reach_the_game() {
    let table = Table::open(5, 3, &[0, 1]);
    let seat = table
        .links
        .iter()
        .find(|l| l.seat == 0)
        .unwrap()
        .token
        .clone();
    let mut ana = Phone::join(&table.base, &seat, None).await;
    ana.next_of("welcome").await;
    let state = ana.next_of("state").await;
    let version = state["version"].clone();
    let before = table.sessions.get(table.session).unwrap().moves;

    for (message, code) in [
        ("not json".to_string(), "bad_message"),
        (r#"{"type":"act"}"#.to_string(), "bad_message"),
        (r#"{"type":"undo"}"#.to_string(), "bad_message"),
        (
            json!({"type": "act", "action": "no-such-move", "version": version}).to_string(),
            if state["actions"].as_array().unwrap().is_empty() {
                "not_your_turn"
            } else {
                "illegal"
            },
        ),
        (
            json!({"type": "act", "action": "x", "version": 999}).to_string(),
            "stale",
        ),
        (
            json!({"type": "hello", "token": seat}).to_string(),
            "already_seated",
        ),
        (
            format!(
                r#"{{"type":"act","action":"{}","version":1}}"#,
                "x".repeat(MAX_MESSAGE)
            ),
            "bad_message",
        ),
    ] {
        ana.send_text(message.clone()).await;
        let error = ana.next_of("error").await;
        assert_eq!(error["code"], code, "{message:.80}");
        assert!(!error["message"]["fr"].as_str().unwrap().is_empty());
        assert!(!error["message"]["en"].as_str().unwrap().is_empty());
    }
    ana.send_binary(vec![1, 2, 3]).await;
    assert_eq!(ana.next_of("error").await["code"], "bad_message");
    // Past the WebSocket layer's limit the connection is closed, code 1009.
    ana.send_text("x".repeat(MAX_FRAME + 1)).await;
    while ana.next().await.is_some() {}
    assert!(
        ana.received.last().unwrap().starts_with("close 1009"),
        "{:?}",
        ana.received.last()
    );
    assert_eq!(table.sessions.get(table.session).unwrap().moves, before);
    table.close();
}

#[tokio::test]
async fn a_dropped_phone_comes_back_to_its_seat_and_sees_the_game_as_it_stands() {
    // Seat 1 is a phone; seat 0 a bot that plays first, and seat 2 a bot.
    let table = Table::open(8, 3, &[1]);
    let token = table.link(1).token.clone();
    let mut bo = Phone::join(&table.base, &token, None).await;
    let claim = bo.next_of("welcome").await["claim"]
        .as_str()
        .unwrap()
        .to_string();
    // The bots play up to Bo's turn.
    let state = loop {
        let state = bo.next_of("state").await;
        if !state["actions"].as_array().unwrap().is_empty() {
            break state;
        }
    };
    // The Wi-Fi drops.
    drop(bo);
    let mut back = Phone::join(&table.base, &token, Some(&claim)).await;
    assert_eq!(back.next_of("welcome").await["seat"], 1);
    let again = back.next_of("state").await;
    assert_eq!(again["moves"], state["moves"]);
    assert_eq!(again["scene"], state["scene"]);
    // ...and plays on: the move is saved before the phone sees its result.
    let action = again["actions"][0]["id"].clone();
    back.send(json!({"type": "act", "action": action, "version": again["version"]}))
        .await;
    let after = loop {
        let s = back.next_of("state").await;
        if s["moves"].as_u64() > again["moves"].as_u64() {
            break s;
        }
    };
    let saved = table.sessions.get(table.session).unwrap().moves;
    assert!(u64::from(saved) >= after["moves"].as_u64().unwrap());
    let log = table.sessions.log(table.session).unwrap();
    assert_eq!(
        log[again["moves"].as_u64().unwrap() as usize].action,
        action.as_str().unwrap()
    );
    table.close();
}

fn http_get(base: &str, path: &str) -> String {
    let address = base.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    response
}

#[test]
fn the_page_is_served_while_the_room_is_open_and_nothing_listens_after() {
    let (room, _moves) = open_room_on_loopback(9);
    let base = room.base_url();
    let token = room.links()[0].token.clone();
    let page = http_get(&base, &format!("/s/{token}"));
    assert!(page.starts_with("HTTP/1.1 200"), "{page:.200}");
    assert!(page.contains("/phone.js"));
    let lower = page.to_lowercase();
    assert!(lower.contains("content-security-policy: default-src 'self'"));
    assert!(lower.contains("referrer-policy: no-referrer"));
    assert!(http_get(&base, "/phone.js").contains("function tap("));
    assert!(http_get(&base, "/phone.css").contains("text/css"));
    assert!(http_get(&base, "/nothing").starts_with("HTTP/1.1 404"));
    let address = room.address();
    room.close();
    assert!(
        std::net::TcpStream::connect(address).is_err(),
        "nothing listens once the room is closed"
    );
}

#[test]
fn the_room_listens_on_the_local_network_only() {
    let (moves_in, _moves) = channel();
    let config = RoomConfig {
        session: 1,
        seats: vec![(0, "Ana".into())],
        address: "8.8.8.8".parse().unwrap(),
        port: 0,
    };
    assert!(matches!(
        Room::open(config, moves_in),
        Err(RoomError::NotLocal(_))
    ));
    if let Some(lan) = veillee_room::lan_address() {
        assert!(veillee_room::is_local(lan), "{lan}");
    }
}
