//! The phone page in a real browser: headless Chromium holds two seats of a Castel game
//! played with `veillee play castel --seats phone,phone,random`, each phone a page of its own
//! at 360×640 with touch, tapping its legal moves on the drawn scene as a player would.
//!
//! Without Chromium these tests say loudly that they did not run (and pass); with
//! `VEILLEE_BROWSER_TESTS=required` (CI) a missing Chromium fails them. `VEILLEE_CHROMIUM`
//! names the browser. `VEILLEE_SCREENSHOTS=DIR` saves the README's pictures of a phone and
//! of the big screen there.

#[path = "phones/cdp.rs"]
mod cdp;
mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use cdp::{find_chromium, Browser, Page};
use common::WithPhones;
use serde_json::Value;
use veillee_sdk::GameRng;

/// One browser test at a time: each runs Chromium and a game, and the machine may be small.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Chromium, or `None` after saying loudly (past the test harness's capture) that the test
/// did not run; with `VEILLEE_BROWSER_TESTS=required`, a missing Chromium fails the test.
fn chromium_or_say_why(test: &str) -> Option<PathBuf> {
    if let Some(found) = find_chromium() {
        return Some(found);
    }
    let required = std::env::var("VEILLEE_BROWSER_TESTS").is_ok_and(|v| v == "required");
    assert!(
        !required,
        "VEILLEE_BROWSER_TESTS=required but no Chromium was found (install Debian's `chromium`, or name it with VEILLEE_CHROMIUM)"
    );
    let _ = writeln!(
        std::io::stderr(),
        "\n!!!! {test}: NOT RUN — no Chromium on this machine (install Debian's `chromium` or set VEILLEE_CHROMIUM). CI runs it with VEILLEE_BROWSER_TESTS=required. !!!!\n"
    );
    None
}

/// `veillee play castel --seats SEATS --seed SEED` on a fresh data directory, the room on
/// loopback.
fn castel(seats: &str, seed: u64) -> (tempfile::TempDir, WithPhones) {
    let data = tempfile::tempdir().expect("a data directory");
    let seed = seed.to_string();
    let args = [
        "play", "castel", "--seats", seats, "--seed", &seed, "--lang", "en",
    ];
    let game = WithPhones::start(data.path(), &args);
    (data, game)
}

/// What a phone's page shows, read from its DOM as a player reads the screen.
const LOOK: &str = r#"(() => {
  const shown = (id) => { const e = document.getElementById(id); return e && !e.hidden ? e.textContent : ''; };
  const status = document.getElementById('status');
  const cards = (sel) => [...document.querySelectorAll(sel)].map((c) => c.dataset.card);
  return {
    seat: document.getElementById('seat-name').textContent,
    status: status.textContent,
    turn: status.classList.contains('turn'),
    sending: document.body.classList.contains('sending'),
    banner: shown('banner'),
    refused: shown('refused'),
    toast: shown('toast'),
    hand: cards('.zone.mine .card'),
    options: [...document.querySelectorAll('#choices .choice[data-action^="choose:"]')].map((b) => b.textContent),
    log: document.getElementById('log').children.length,
  };
})()"#;

/// Picks what a player would tap next (`r` in [0, 1) chooses): a button offered among
/// moves sharing a path, else the next step of the path begun, else a first step or a
/// move's button. Scrolls it into view; answers where it is on the screen, or null.
const PICK: &str = r#"((r) => {
  const visible = (e) => e.getClientRects().length > 0;
  const all = (sel) => [...document.querySelectorAll(sel)].filter(visible);
  const among = all('#choices .choice[data-among]');
  const next = all('[data-next]');
  let options = among.length ? among : next.length ? next : all('[data-tappable], #choices .choice[data-action]');
  if (!options.length) return null;
  const target = options[Math.floor(r * options.length)];
  target.scrollIntoView({ block: 'center', inline: 'center' });
  const box = target.getBoundingClientRect();
  const x = box.left + box.width / 2;
  const y = box.top + box.height / 2;
  const hit = document.elementFromPoint(x, y);
  return {
    x, y,
    what: target.dataset.action || target.dataset.card || target.dataset.cell || target.textContent,
    reachable: !!hit && (hit === target || target.contains(hit)),
  };
})"#;

/// A phone held by the test: its page and what it last showed.
struct Phone {
    page: Page,
    rng: GameRng,
    taps: u32,
}

impl Phone {
    /// A new phone (a page in a browser context of its own); `seed` chooses its taps.
    fn new(browser: &mut Browser, seed: u64) -> Phone {
        Phone {
            page: browser.phone(),
            rng: GameRng::new(seed),
            taps: 0,
        }
    }

    fn look(&self, browser: &mut Browser) -> Value {
        browser.eval(&self.page, LOOK)
    }

    /// Taps what a player would tap next, if the page offers something; returns what.
    fn tap_something(&mut self, browser: &mut Browser) -> Option<String> {
        let r = self.rng.below(1 << 20) as f64 / f64::from(1 << 20);
        let spot = browser.eval(&self.page, &format!("{PICK}({r})"));
        if spot.is_null() {
            return None;
        }
        assert!(
            spot["reachable"] == true,
            "a finger cannot reach {spot} (something covers it)"
        );
        let (x, y) = (spot["x"].as_f64().unwrap(), spot["y"].as_f64().unwrap());
        browser.tap(&self.page, x, y);
        self.taps += 1;
        Some(spot["what"].to_string())
    }
}

/// Waits until `until` holds of the phone's page (polling as a player glances at it).
fn wait_for(
    browser: &mut Browser,
    phone: &Phone,
    what: &str,
    until: impl Fn(&Value) -> bool,
) -> Value {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let look = phone.look(browser);
        if until(&look) {
            return look;
        }
        assert!(
            look["refused"] == "",
            "the phone was refused while waiting for {what}: {look}"
        );
        assert!(
            Instant::now() < deadline,
            "the phone never showed {what}: {look}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The WebSocket messages a page received, parsed, in order.
fn frames_of(events: &[Value], page: &Page) -> Vec<(String, Value)> {
    events
        .iter()
        .filter(|e| {
            e["method"] == "Network.webSocketFrameReceived"
                && e["sessionId"] == page.session.as_str()
        })
        .filter_map(|e| {
            let text = e["params"]["response"]["payloadData"].as_str()?.to_string();
            let value = serde_json::from_str(&text).ok()?;
            Some((text, value))
        })
        .collect()
}

/// JavaScript errors the pages threw.
fn page_errors(events: &[Value]) -> Vec<String> {
    events
        .iter()
        .filter(|e| e["method"] == "Runtime.exceptionThrown")
        .map(|e| e["params"]["exceptionDetails"].to_string())
        .collect()
}

/// Where to save the README's pictures, if asked.
fn screenshots_dir() -> Option<PathBuf> {
    std::env::var_os("VEILLEE_SCREENSHOTS").map(PathBuf::from)
}

fn save(dir: &Path, name: &str, png: &[u8]) {
    std::fs::create_dir_all(dir).expect("the screenshots folder");
    std::fs::write(dir.join(name), png).expect("the screenshot is written");
}

#[test]
fn two_browser_phones_and_a_bot_play_castel_to_the_end_and_seat_0_never_receives_seat_1s_cards() {
    let Some(chromium) = chromium_or_say_why("two browser phones play Castel") else {
        return;
    };
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let (_data, game) = castel("phone,phone,random", 4);
    let mut browser = Browser::start(&chromium);
    let mut phones: Vec<Phone> = (1..=2).map(|seed| Phone::new(&mut browser, seed)).collect();
    for (phone, link) in phones.iter().zip(&game.links) {
        browser.go(&phone.page, link);
    }
    let shots = screenshots_dir();
    let mut shot_taken = false;
    let mut events = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(1200);
    let mut last_change = (Instant::now(), Value::Null);
    let mut questions = 0;
    let ends = loop {
        let looks: Vec<Value> = phones.iter().map(|p| p.look(&mut browser)).collect();
        if looks.iter().all(|l| {
            l["status"]
                .as_str()
                .is_some_and(|s| s.starts_with("Game over"))
        }) {
            break looks;
        }
        for (phone, look) in phones.iter_mut().zip(&looks) {
            assert!(look["refused"] == "", "a phone was refused: {look}");
            assert!(look["toast"] == "", "a phone was shown an error: {look}");
            // A question a card asks this seat shows its options, not the table's text.
            let options = look["options"].as_array().expect("the options");
            assert!(
                options
                    .iter()
                    .all(|o| !o.as_str().unwrap().starts_with("answers: ")),
                "{look}"
            );
            questions += usize::from(!options.is_empty());
            if look["turn"] == true && look["sending"] == false {
                phone.tap_something(&mut browser);
                if let (Some(dir), false) = (&shots, shot_taken) {
                    // A few turns in, a card picked up and where it may go lit: the top
                    // of the phone's screen.
                    let begun = "document.querySelector('[data-next]') !== null && document.querySelector('[data-among]') === null";
                    if phone.taps >= 12 && browser.eval(&phone.page, begun) == true {
                        browser.eval(&phone.page, "window.scrollTo(0, 0)");
                        save(dir, "phone.png", &browser.screenshot(&phone.page, false));
                        shot_taken = true;
                    }
                }
            }
        }
        let seen = Value::Array(looks);
        if seen != last_change.1 {
            last_change = (Instant::now(), seen);
        }
        assert!(
            last_change.0.elapsed() < Duration::from_secs(120),
            "nothing changed on the phones for two minutes: {}",
            last_change.1
        );
        assert!(Instant::now() < deadline, "the game did not end in time");
        events.extend(browser.events());
        std::thread::sleep(Duration::from_millis(80));
    };
    events.extend(browser.events());
    assert!(
        page_errors(&events).is_empty(),
        "the page threw: {:?}",
        page_errors(&events)
    );

    // Both phones show the end, and the big screen printed it.
    assert_eq!(ends[0]["status"], ends[1]["status"]);
    let (success, printed) = game.finish();
    assert!(success, "{printed}");
    assert!(
        printed.contains("Winner: ") || printed.contains("Draw — "),
        "the big screen shows the end:\n{printed}"
    );
    assert!(
        phones.iter().all(|p| p.taps > 10),
        "both phones played by tapping"
    );
    assert!(questions > 0, "the cards asked the phones no question");
    // The launcher closed the room when the game ended: the phones keep showing the end.
    for phone in &phones {
        let look = wait_for(&mut browser, phone, "that the room closed", |l| {
            l["banner"]
                .as_str()
                .is_some_and(|b| b.contains("The host closed the room"))
        });
        assert_eq!(look["status"], ends[0]["status"]);
    }

    // Every message seat 0's page received: none names a card of seat 1's hand at that
    // moment (ids name the cards: `dragon`, `soldat-3`), while seat 1's own messages do.
    let ana = frames_of(&events, &phones[0].page);
    let bo = frames_of(&events, &phones[1].page);
    let hand_of = |state: &Value, seat: u64| -> Vec<String> {
        state["scene"]["zones"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|z| z["owner"] == seat)
            .flat_map(|z| z["cards"].as_array().into_iter().flatten())
            .filter_map(|c| c["id"].as_str().map(str::to_string))
            .collect()
    };
    let hands_of_bo: std::collections::BTreeMap<u64, Vec<String>> = bo
        .iter()
        .filter(|(_, v)| v["type"] == "state")
        .map(|(_, v)| (v["moves"].as_u64().unwrap(), hand_of(v, 1)))
        .collect();
    let mut checked = 0;
    for (text, value) in &ana {
        let Some(hand) = value["moves"].as_u64().and_then(|m| hands_of_bo.get(&m)) else {
            continue;
        };
        for card in hand {
            assert!(
                !text.contains(&format!("\"{card}\"")),
                "seat 0's page received seat 1's card {card}: {text}"
            );
            checked += 1;
        }
    }
    eprintln!(
        "DEBUG checked {checked}, taps {:?}, frames {} {}, ends {ends:?}",
        phones.iter().map(|p| p.taps).collect::<Vec<_>>(),
        ana.len(),
        bo.len()
    );
    assert!(checked > 50, "only {checked} cards checked");
    assert!(
        ana.iter().all(|(_, v)| v["type"] != "error"),
        "a legal tap was refused"
    );

    if let Some(dir) = shots {
        assert!(shot_taken, "the phone's picture was taken");
        save(
            dir.as_path(),
            "big-screen.png",
            &terminal_picture(&mut browser, &printed),
        );
    }
}

/// The seat's latest state among a page's messages.
fn latest_state(events: &[Value], page: &Page) -> Value {
    frames_of(events, page)
        .into_iter()
        .rev()
        .find(|(_, v)| v["type"] == "state")
        .map(|(_, v)| v)
        .expect("the page received a state")
}

#[test]
fn a_phone_that_loses_its_network_or_reloads_gets_its_seat_back_and_the_game_as_it_stands() {
    let Some(chromium) = chromium_or_say_why("a dropped phone gets its seat back") else {
        return;
    };
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let (_data, game) = castel("phone,phone,random", 9);
    let mut browser = Browser::start(&chromium);
    let (mut ana, mut bo) = (Phone::new(&mut browser, 1), Phone::new(&mut browser, 2));
    browser.go(&ana.page, &game.links[0]);
    browser.go(&bo.page, &game.links[1]);
    let waiting = wait_for(&mut browser, &bo, "the game", |l| {
        l["status"]
            .as_str()
            .is_some_and(|s| s.starts_with("Waiting for"))
    });
    let bo_name = waiting["seat"]
        .as_str()
        .expect("the seat's name")
        .to_string();

    // Bo's Wi-Fi drops: the page says so.
    browser.offline(&bo.page, true);
    wait_for(&mut browser, &bo, "that the connection is lost", |l| {
        l["banner"]
            .as_str()
            .is_some_and(|b| b.contains("reconnecting"))
    });
    // Meanwhile Ana plays her turn, up to Bo's.
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let look = ana.look(&mut browser);
        if look["status"] == format!("Waiting for {bo_name}") {
            break;
        }
        if look["turn"] == true && look["sending"] == false {
            ana.tap_something(&mut browser);
        }
        assert!(Instant::now() < deadline, "Ana's turn did not end: {look}");
        std::thread::sleep(Duration::from_millis(100));
    }
    let mut events = browser.events();
    let now = latest_state(&events, &ana.page)["moves"].clone();

    // The network comes back: Bo's phone takes its seat again and sees the game as it
    // stands — its turn, the moves Ana played.
    browser.offline(&bo.page, false);
    let back = wait_for(&mut browser, &bo, "its seat again, its turn", |l| {
        l["turn"] == true && l["banner"] == ""
    });
    events.extend(browser.events());
    let state = latest_state(&events, &bo.page);
    assert_eq!(state["moves"], now, "Bo sees every move Ana played");
    assert_eq!(back["seat"], bo_name);

    // Bo reloads the page: the same seat, the same hand, still Bo's turn.
    browser.reload(&bo.page);
    let reloaded = wait_for(&mut browser, &bo, "its seat after a reload", |l| {
        l["turn"] == true && l["banner"] == ""
    });
    assert_eq!(reloaded["hand"], back["hand"]);
    assert_eq!(reloaded["seat"], bo_name);

    // Another phone opening Bo's link is refused, saying why.
    let stranger = Phone::new(&mut browser, 7);
    browser.go(&stranger.page, &game.links[1]);
    wait_for(&mut browser, &stranger, "a refusal", |l| {
        l["refused"]
            .as_str()
            .is_some_and(|r| r.contains("Another phone already holds this seat"))
    });

    // ...and Bo plays on from the reloaded page.
    events.extend(browser.events());
    let before = latest_state(&events, &bo.page);
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let look = bo.look(&mut browser);
        if look["turn"] == false {
            break;
        }
        if look["sending"] == false {
            bo.tap_something(&mut browser);
        }
        assert!(
            Instant::now() < deadline,
            "Bo's taps played nothing: {look}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    events.extend(browser.events());
    let after = latest_state(&events, &bo.page);
    assert!(
        after["moves"].as_u64() > before["moves"].as_u64(),
        "{after}"
    );
    assert!(
        page_errors(&events).is_empty(),
        "{:?}",
        page_errors(&events)
    );
}

/// The big screen as the terminal shows it when the game opens: the seats' links and QR
/// codes, the table everyone may see and whose turn it is — the command's very output,
/// drawn by the browser in a terminal's colours and font.
fn terminal_picture(browser: &mut Browser, printed: &str) -> Vec<u8> {
    let opening = printed.find("Waiting for").map_or(printed, |at| {
        let end = printed[at..].find('\n').map_or(printed.len(), |n| at + n);
        &printed[..end]
    });
    let text = format!("$ veillee play castel --seats phone,phone,random\n{opening}");
    let escaped = text
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    let html = format!(
        "<!doctype html><meta charset=utf-8><style>\
         body {{ margin: 0; background: #1e1e1e; }}\
         pre {{ margin: 0; padding: 14px 18px; color: #d4d4d4; font: 14px/1 'DejaVu Sans Mono', monospace; }}\
         </style><pre>{escaped}</pre>"
    );
    let screen = browser.screen(760, 600);
    browser.show_html(&screen, &html);
    browser.screenshot(&screen, true)
}
