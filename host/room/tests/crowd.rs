//! The room stays open to its guests: one device on the Wi-Fi holding a thousand idle
//! connections and dribbling headers on a few dozen more does not lock a phone out, and an
//! idle connection is closed. Real sockets on loopback, the real server.
//!
//! The server runs in this process under the usual limit of 1,024 descriptors; the attacker
//! runs in a child process (this very test binary, told so by `ATTACKER`), so that its own
//! sockets do not count against the server's limit, as on a real network. Descriptor limits
//! are a Unix matter: on other systems these tests are not built.

#![cfg(unix)]

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

use common::Phone;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use veillee_room::{Room, RoomConfig};

/// Set in the child process: the room's address to attack.
const ATTACKER: &str = "VEILLEE_ROOM_ATTACKER";
/// Idle connections the attacker holds (they send nothing).
const IDLE: usize = 1000;
/// Connections that send a request's headers one byte every `DRIBBLE_EVERY`.
const DRIBBLING: usize = 40;
const DRIBBLE_EVERY: Duration = Duration::from_secs(2);
/// How long the attacker tries to open its connections.
const SETTING_UP: Duration = Duration::from_secs(20);
/// The usual soft limit of open files on Linux, which the server runs under.
const USUAL_LIMIT: u64 = 1024;
/// Generous: a phone joins in a second on a quiet machine; a server that is locked out never
/// answers at all.
const IN_TIME: Duration = Duration::from_secs(20);

fn open_room() -> (Room, std::sync::mpsc::Receiver<veillee_room::PhoneMove>) {
    let (moves_in, moves) = channel();
    let config = RoomConfig {
        session: 3,
        seats: vec![(0, "Ana".into()), (1, "Bo".into())],
        address: "127.0.0.1".parse().unwrap(),
        port: 0,
    };
    let room = Room::open(config, moves_in).expect("the room opens");
    room.publish(&[seat_0_may_draw()], None);
    (room, moves)
}

/// Seat 0's state with one move, `draw`.
fn seat_0_may_draw() -> veillee_room::SeatState {
    veillee_room::SeatState {
        seat: 0,
        game: veillee_sdk::Text::same("Test"),
        players: vec!["Ana".into(), "Bo".into()],
        moves: 0,
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

/// Sets this process's soft limit of open files (never above the hard one); returns it.
fn set_open_files(wanted: Option<u64>) -> u64 {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit only read and write the struct given.
    unsafe {
        assert_eq!(libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit), 0);
        limit.rlim_cur = wanted.map_or(limit.rlim_max, |w| w.min(limit.rlim_max));
        assert_eq!(libc::setrlimit(libc::RLIMIT_NOFILE, &limit), 0);
    }
    limit.rlim_cur
}

#[test]
fn a_phone_joins_while_one_device_holds_a_thousand_idle_connections_and_dribbles_headers() {
    if let Ok(address) = std::env::var(ATTACKER) {
        attack(&address);
        return;
    }
    let limit = set_open_files(Some(USUAL_LIMIT));
    let (room, _moves) = open_room();
    // The phone's side first: the phone's own sockets share the server's process.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let (mut attacker, held) = start_attacker(room.address());
    eprintln!("the server runs under {limit} descriptors; the attacker holds {held}");
    let base = room.base_url();
    let token = room.links()[0].token.clone();
    let joined =
        runtime.block_on(async { tokio::time::timeout(IN_TIME, phone_joins(&base, &token)).await });
    drop(attacker.stdin.take());
    let _ = attacker.wait();
    let state = joined.expect("the phone loads the page and gets its seat in time");
    assert_eq!(state["actions"][0]["id"], "draw");
    room.close();
}

/// What a phone does: loads its seat's page, connects, says hello, and reads its state.
async fn phone_joins(base: &str, token: &str) -> serde_json::Value {
    let page = get_async(base, &format!("/s/{token}")).await;
    assert!(page.starts_with("HTTP/1.1 200"), "{page:.200}");
    let mut phone = Phone::join(base, token, None).await;
    assert_eq!(phone.next_of("welcome").await["seat"], 0);
    phone.next_of("state").await
}

async fn get_async(base: &str, path: &str) -> String {
    let address = base.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(address)
        .await
        .expect("the phone connects (the server's process has descriptors left)");
    let request = format!("GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.unwrap();
    String::from_utf8_lossy(&response).into_owned()
}

/// Starts this test binary again as the attacker; returns once it holds its connections,
/// with how many it holds.
fn start_attacker(room: SocketAddr) -> (Child, String) {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "a_phone_joins_while_one_device_holds_a_thousand_idle_connections_and_dribbles_headers",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(ATTACKER, room.to_string())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the attacker starts");
    let stdout = child.stdout.take().unwrap();
    let held = BufReader::new(stdout)
        .lines()
        .map_while(Result::ok)
        // The test harness may have printed the test's name on the same line.
        .find_map(|line| Some(line.split_once("attacker holds ")?.1.to_string()))
        .expect("the attacker says what it holds");
    (child, held)
}

/// The child: opens the idle connections, then the dribbling ones, says how many it holds,
/// and dribbles until the test closes its standard input.
fn attack(address: &str) {
    let limit = set_open_files(None);
    let address: SocketAddr = address.parse().unwrap();
    let wanted = IDLE + DRIBBLING + 64;
    assert!(
        limit as usize >= wanted,
        "the attacker needs {wanted} descriptors and the hard limit is {limit}: raise it (ulimit -Hn)"
    );
    // A server that stops accepting fills its backlog, then connecting times out: the
    // attacker holds what it got by then.
    let deadline = Instant::now() + SETTING_UP;
    let idle = connections(address, IDLE, deadline);
    let mut dribbling = connections(address, DRIBBLING, deadline);
    let head = format!("GET / HTTP/1.1\r\nHost: {address}\r\nX-Slow: ");
    for stream in &mut dribbling {
        let _ = stream.write_all(head.as_bytes());
    }
    println!(
        "attacker holds {} idle and {} dribbling connections",
        idle.len(),
        dribbling.len()
    );
    std::thread::spawn(|| {
        let _ = std::io::stdin().read_to_end(&mut Vec::new());
        std::process::exit(0);
    });
    loop {
        std::thread::sleep(DRIBBLE_EVERY);
        for stream in &mut dribbling {
            let _ = stream.write_all(b"a");
        }
    }
}

/// Up to `count` connections, tried until `deadline`.
fn connections(address: SocketAddr, count: usize, deadline: Instant) -> Vec<TcpStream> {
    let mut open = Vec::with_capacity(count);
    while open.len() < count && Instant::now() < deadline {
        if let Ok(stream) = TcpStream::connect_timeout(&address, Duration::from_secs(1)) {
            open.push(stream);
        }
    }
    open
}

#[test]
fn an_idle_connection_is_closed_after_a_while() {
    let (room, _moves) = open_room();
    let mut idle = TcpStream::connect(room.address()).unwrap();
    idle.set_read_timeout(Some(IN_TIME * 2)).unwrap();
    let started = Instant::now();
    let mut byte = [0u8; 1];
    let read = idle.read(&mut byte);
    assert!(
        matches!(read, Ok(0))
            || read
                .as_ref()
                .is_err_and(|e| e.kind() == std::io::ErrorKind::ConnectionReset),
        "the room closes a connection that never sends a request ({read:?} after {:?})",
        started.elapsed()
    );
    room.close();
}
