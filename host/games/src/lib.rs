//! `veillee-games`: the games of this repository — compiled to wasm by `build.rs` and embedded
//! in the binary ([`builtin`]), and linked natively ([`native`]) as the conformance kit's
//! reference and the benchmark baseline.
//!
//! **Invariant: the launcher only ever plays the embedded wasm builds; the native builds serve
//! the listing of the built-in games before their plugins are compiled (their manifests),
//! checks and benchmarks.**

pub mod builtin;
pub mod native;
