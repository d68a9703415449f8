//! `veillee-games`: the games of this repository — compiled to wasm by `build.rs` and embedded
//! in the binary ([`builtin`]), and linked natively ([`native`]) as the conformance kit's
//! reference and the benchmark baseline.
//!
//! **Invariant: the launcher only ever plays the embedded wasm builds; the native builds serve
//! the listing of the built-in games before their plugins are compiled (their manifests),
//! checks and benchmarks.**
//!
//! `build.rs` runs a nested `cargo build --profile plugin --target wasm32-unknown-unknown` in
//! `target/plugin-wasm/<hash of the source folder>/`, so that clones sharing a target
//! directory never embed each other's games; every file under `plugins/` and `sdk/` is
//! watched. The target features in `PLUGIN_RUSTFLAGS` (`+wide-arithmetic`) must be on in the
//! sandbox's engine, or the built-in plugins would not load. The wasm files are embedded with
//! `include_bytes!`.

pub mod builtin;
pub mod native;
