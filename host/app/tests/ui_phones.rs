//! "Players join with their phones" in the window: two seats of a Castel game set to
//! "Phone" in the new-game screen, a bot at the third; the play screen shows each phone
//! seat's QR code and link, phones (WebSocket clients on loopback) play their seats while
//! the window plays the bot, and the big screen never hands over to a phone's seat.

use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use serde_json::{json, Value};
use veillee_app::App;
use veillee_sdk::GameRng;

mod common;
use common::{harness, wait};

/// A phone: plays random legal moves of its seat until the game ends; the moves it saw.
fn phone_plays_to_the_end(link: String, seed: u64) -> u64 {
    let (base, token) = link.split_once("/s/").expect("a seat link");
    let url = format!("{}/ws", base.replacen("http://", "ws://", 1));
    let (mut socket, _) = tungstenite::connect(url).expect("the room accepts the phone");
    let hello = json!({"type": "hello", "token": token}).to_string();
    socket.send(tungstenite::Message::text(hello)).unwrap();
    let mut rng = GameRng::new(seed);
    let mut version = None;
    loop {
        let text = match socket.read().expect("the room keeps the phone connected") {
            tungstenite::Message::Text(text) => text,
            _ => continue,
        };
        let state: Value = serde_json::from_str(&text).unwrap();
        assert!(state["type"] != "refused", "the phone was refused: {state}");
        assert!(
            state["type"] != "error",
            "a legal move was refused: {state}"
        );
        if state["type"] != "state" {
            continue;
        }
        if state["status"]["state"] == "finished" {
            return state["moves"].as_u64().unwrap();
        }
        let actions = state["actions"].as_array().unwrap();
        if actions.is_empty() || version == Some(state["version"].clone()) {
            continue;
        }
        version = Some(state["version"].clone());
        let action = &actions[rng.below(actions.len())]["id"];
        let act = json!({"type": "act", "action": action, "version": state["version"]});
        socket
            .send(tungstenite::Message::text(act.to_string()))
            .unwrap();
    }
}

fn finished(h: &Harness<'static, App>) -> bool {
    h.state()
        .play()
        .view
        .as_ref()
        .is_some_and(|v| v.status.outcome().is_some())
}

#[test]
fn two_phones_and_a_bot_play_castel_from_the_window_which_shows_only_the_table() {
    std::env::set_var(veillee_app::room::ADDRESS_ENV, "127.0.0.1");
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(dir.path(), "en");
    h.get_by_label("New game — Castel").click_accesskit();
    wait(&mut h, "the new-game screen", |h| {
        h.query_by_label_contains("Start the game").is_some()
    });
    h.get_by_label("3").click();
    h.step();
    let phones = h.get_all_by_label("Phone").take(2).collect::<Vec<_>>();
    assert_eq!(phones.len(), 2);
    for phone in phones {
        phone.click();
    }
    h.step();
    h.get_all_by_label("Bot").nth(2).expect("seat 3").click();
    h.step();
    // A random bot: the test is about the phones, not the bot's play.
    h.get_by_label("Bot level of seat 3").click();
    h.step();
    h.step();
    h.get_by_label("random").click();
    h.step();
    h.get_by_label_contains("Start the game").click();
    wait(&mut h, "the room to open", |h| {
        h.state()
            .play()
            .view
            .as_ref()
            .is_some_and(|v| v.room.is_some())
    });
    assert!(h.query_by_label("Players join with their phones").is_some());
    assert_eq!(h.query_all_by_label_contains("QR code — ").count(), 2);
    let view = h.state().play().view.clone().unwrap();
    assert_eq!(
        view.meta.phones,
        [0, 1],
        "the session remembers its phone seats"
    );
    let links: Vec<String> = view
        .room
        .unwrap()
        .seats
        .iter()
        .map(|s| s.url.clone())
        .collect();
    for link in &links {
        assert!(
            h.query_by_label(link).is_some(),
            "the link is shown: {link}"
        );
    }

    let players: Vec<_> = links
        .into_iter()
        .enumerate()
        .map(|(i, link)| std::thread::spawn(move || phone_plays_to_the_end(link, i as u64)))
        .collect();
    // The window plays the bot, and only ever shows what everyone may see: no hand-off to a
    // phone's seat, no seat's view.
    let start = std::time::Instant::now();
    while !finished(&h) {
        h.step();
        let view = h.state().play().view.clone().unwrap();
        assert_eq!(view.viewer, None, "the big screen shows a seat's view");
        assert_eq!(
            view.actor, None,
            "the big screen asks a phone's seat to play"
        );
        assert!(h.state().play().handoff().is_none());
        assert!(
            start.elapsed() < std::time::Duration::from_secs(600),
            "the game did not end"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let moves: Vec<u64> = players.into_iter().map(|p| p.join().unwrap()).collect();
    let view = h.state().play().view.clone().unwrap();
    assert_eq!(moves, [u64::from(view.meta.moves); 2]);
    wait(&mut h, "the end on the big screen", |h| {
        h.query_by_label("Game over").is_some()
    });
}
