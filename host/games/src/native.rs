//! Native builds of the built-in games: the conformance kit's reference and the benchmark
//! baseline. The launcher itself only ever plays the wasm plugins.

use veillee_engine::{GameEngine, NativeEngine};

/// The native build of a built-in game, by game id.
pub fn native_engine(game_id: &str) -> Option<Box<dyn GameEngine + Send>> {
    match game_id {
        "siege" => Some(Box::new(NativeEngine::<veillee_siege::Siege>::default())),
        "batisseurs" => Some(Box::new(
            NativeEngine::<veillee_batisseurs::Batisseurs>::default(),
        )),
        "chateau-noir" => Some(Box::new(
            NativeEngine::<veillee_chateau_noir::ChateauNoir>::default(),
        )),
        "roc-noir" => Some(Box::new(
            NativeEngine::<veillee_roc_noir::RocNoir>::default(),
        )),
        "castel" => Some(Box::new(NativeEngine::<veillee_castel::Castel>::default())),
        "renard" => Some(Box::new(NativeEngine::<veillee_renard::Renard>::default())),
        _ => None,
    }
}
