//! The built-in games as wasm modules, built by `build.rs` and embedded with `include_bytes!`.

include!(concat!(env!("OUT_DIR"), "/builtin_plugins.rs"));

/// The wasm bytes of a built-in game, by its folder name under `plugins/` (its game id).
pub fn plugin_bytes(name: &str) -> Option<&'static [u8]> {
    BUILTIN_PLUGINS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, bytes)| *bytes)
}
