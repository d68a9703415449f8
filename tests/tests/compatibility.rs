//! Plugins built against an older SDK of the same ABI major version keep working: the Nim of
//! the guide, built against plugin ABI 1.3 (`tests/fixtures/abi-1.3/`), installs through the
//! full validation, passes the conformance kit, is played to its end as a saved session, and
//! its scene reads with today's defaults (a board of squares, no lines).

use std::path::Path;

use veillee_runtime::conformance::{check, CheckConfig};
use veillee_runtime::engine::GameEngine;
use veillee_runtime::session::Sessions;
use veillee_runtime::store::model::{PlayerKind, SeatPlayer};
use veillee_runtime::store::Store;
use veillee_sdk::abi::{ABI_MAJOR, ABI_MINOR};
use veillee_sdk::{Layout, Setup, Status};
use veillee_tests::temp_catalog;

fn fixture() -> &'static Path {
    Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/abi-1.3/nim.wasm"
    ))
}

#[test]
fn a_plugin_built_for_abi_1_3_installs_and_plays_with_this_host() {
    assert!(
        (ABI_MAJOR, ABI_MINOR) > (1, 3),
        "this host speaks a newer ABI than the fixture"
    );
    let (mut catalog, dir) = temp_catalog();
    let entry = catalog.install(fixture()).expect("the 1.3 plugin installs");
    assert_eq!(entry.manifest().id, "nim");
    let mut engine = catalog.engine("nim").unwrap();
    assert_eq!(
        engine.abi_version(),
        (1, 3),
        "the fixture is still the old build"
    );

    let report = check(&mut engine, None, &CheckConfig::default());
    assert!(report.passed(), "{}", report.failures.join("\n"));

    // A whole game as a saved session, the first legal action each time.
    let (store, _) = Store::open(dir.path()).unwrap();
    let sessions = Sessions::new(store);
    let seats = ["Ana", "Bruno"]
        .map(|name| SeatPlayer {
            name: name.into(),
            kind: PlayerKind::Human,
            level: None,
        })
        .to_vec();
    let mut live = sessions
        .start(&mut engine, seats, Setup::new(2, 3))
        .unwrap();
    let scene = engine.view(live.game, Some(0)).unwrap();
    assert_eq!(scene.boards[0].layout, Layout::Squares);
    assert!(scene.boards[0].lines.is_empty());
    assert_eq!(scene.problem(), None);
    while let Status::ToAct { seats } = engine.status(live.game).unwrap() {
        let seat = seats[0];
        let id = engine.legal_actions(live.game, seat).unwrap()[0].id.clone();
        sessions
            .apply(&mut engine, &mut live, seat, &id, serde_json::Value::Null)
            .unwrap();
    }
    assert_eq!(live.meta.moves, 15, "take-1 fifteen times");
    // …and it resumes from the store.
    let resumed = sessions.resume(&mut engine, live.meta.id).unwrap();
    assert!(matches!(
        engine.status(resumed.game).unwrap(),
        Status::Finished { .. }
    ));
}
