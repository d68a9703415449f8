//! Builds every game in `plugins/` for `wasm32-unknown-unknown` and embeds the modules in
//! `veillee-games`, so that a fresh clone shows the built-in games with no extra step.
//!
//! The plugins are built by a nested `cargo build` in their own target directory (sharing it
//! between dev and release host builds), with the workspace's `plugin` profile.

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

const WASM_TARGET: &str = "wasm32-unknown-unknown";

/// Code-generation flags of the plugins, on top of the target's defaults (bulk-memory,
/// multivalue, sign-ext, nontrapping-fptoint, reference-types in rustc 1.95). Every feature
/// here must be switched on in the host's engine (`host/sandbox/src/config.rs`), or the
/// built-in games would not load. `wide-arithmetic`: a 64×64→128-bit multiply in one
/// instruction (`i64.mul_wide_u`) instead of a call to `__multi3`, for the games' random
/// generator (PCG, a 128-bit multiply per draw). BENCHMARKS.md has the figures.
const PLUGIN_RUSTFLAGS: &[&str] = &["-Ctarget-feature=+wide-arithmetic"];

fn main() {
    let crate_dir =
        PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    // This crate is `host/games/` of the workspace.
    let root = crate_dir
        .ancestors()
        .nth(2)
        .expect("host/games/ sits in the workspace")
        .to_path_buf();
    let out_dir = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    // Every file, not the folders: a folder given to `rerun-if-changed` did not make cargo
    // notice an edit deep inside it, and the launcher kept an old build of a game.
    for watched in ["plugins", "sdk", "Cargo.lock", "Cargo.toml"] {
        watch(&root.join(watched));
    }
    println!("cargo:rerun-if-env-changed=CARGO_TARGET_DIR");

    let plugins = plugin_dirs(&root);
    ensure_wasm_target();
    let target_dir = env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .map(|dir| {
            if dir.is_absolute() {
                dir
            } else {
                root.join(dir)
            }
        })
        .unwrap_or_else(|| root.join("target"))
        .join("plugin-wasm")
        // One folder per source tree: two clones sharing a CARGO_TARGET_DIR would otherwise
        // overwrite each other's final `.wasm` files and embed the other clone's games.
        .join(format!("{:016x}", fnv1a(root.to_string_lossy().as_bytes())));
    build_plugins(&root, &target_dir, &plugins);

    let mut generated = String::from(
        "/// Built-in plugins: (game directory name, wasm module bytes).\n\
         pub const BUILTIN_PLUGINS: &[(&str, &[u8])] = &[\n",
    );
    for name in &plugins {
        let file = format!("veillee_{}.wasm", name.replace('-', "_"));
        let built = target_dir.join(WASM_TARGET).join("plugin").join(&file);
        let copy = out_dir.join(&file);
        fs::copy(&built, &copy).unwrap_or_else(|e| panic!("copying {}: {e}", built.display()));
        writeln!(
            generated,
            "    ({name:?}, include_bytes!({:?})),",
            copy.display().to_string()
        )
        .unwrap();
    }
    generated.push_str("];\n");
    fs::write(out_dir.join("builtin_plugins.rs"), generated).expect("writing builtin_plugins.rs");
}

/// FNV-1a: a stable short name for a path (std's hasher may change between releases).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Asks cargo to re-run this script when `path` or any file below it changes (build outputs
/// and hidden folders left out).
fn watch(path: &Path) {
    let Ok(entries) = fs::read_dir(path) else {
        println!("cargo:rerun-if-changed={}", path.display());
        return;
    };
    // A file added or removed changes the folder itself.
    println!("cargo:rerun-if-changed={}", path.display());
    for entry in entries.flatten() {
        let name = entry.file_name();
        let skip = name
            .to_str()
            .is_some_and(|n| n.starts_with('.') || n == "target");
        if !skip {
            watch(&entry.path());
        }
    }
}

/// The workspace members under `plugins/`: each is `plugins/<name>/`, crate `veillee-<name>`.
/// A crate under `plugins/` that is not a member (one being developed on its own) is skipped.
fn plugin_dirs(root: &Path) -> Vec<String> {
    let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(cargo)
        .current_dir(root)
        .args([
            "metadata",
            "--no-deps",
            "--format-version",
            "1",
            "--offline",
        ])
        .output()
        .unwrap_or_else(|e| panic!("could not run cargo metadata: {e}"));
    if !output.status.success() {
        panic!(
            "cargo metadata failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let metadata: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("cargo metadata prints JSON");
    let plugins = root.join("plugins");
    let mut names: Vec<String> = metadata["packages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|package| package["manifest_path"].as_str())
        .map(PathBuf::from)
        .filter(|manifest| manifest.parent().and_then(Path::parent) == Some(plugins.as_path()))
        .filter_map(|manifest| Some(manifest.parent()?.file_name()?.to_str()?.to_string()))
        .collect();
    names.sort();
    names
}

/// Makes sure the standard library for wasm32 is installed, adding it through rustup when it
/// is missing, or stops with the exact command to run.
fn ensure_wasm_target() {
    let rustc = env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let sysroot = Command::new(&rustc)
        .args(["--print", "sysroot"])
        .output()
        .ok()
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .map(|s| PathBuf::from(s.trim()));
    let installed = |sysroot: &Option<PathBuf>| {
        sysroot.as_ref().is_some_and(|root| {
            root.join("lib/rustlib")
                .join(WASM_TARGET)
                .join("lib")
                .is_dir()
        })
    };
    if installed(&sysroot) {
        return;
    }
    let toolchain = env::var("RUSTUP_TOOLCHAIN").ok();
    let mut rustup = Command::new("rustup");
    rustup.args(["target", "add", WASM_TARGET]);
    if let Some(toolchain) = &toolchain {
        rustup.args(["--toolchain", toolchain]);
    }
    let added = rustup.status().is_ok_and(|status| status.success());
    if !added || !installed(&sysroot) {
        let command = match &toolchain {
            Some(t) => format!("rustup target add {WASM_TARGET} --toolchain {t}"),
            None => format!("rustup target add {WASM_TARGET}"),
        };
        panic!(
            "\n\nVeillée builds its games as WebAssembly plugins, and the Rust standard library \
             for {WASM_TARGET} is not installed (adding it automatically failed).\n\
             Run this once, then build again:\n\n    {command}\n\n"
        );
    }
}

fn build_plugins(root: &Path, target_dir: &Path, plugins: &[String]) {
    let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .current_dir(root)
        .args([
            "build",
            "--locked",
            "--profile",
            "plugin",
            "--target",
            WASM_TARGET,
        ])
        .arg("--target-dir")
        .arg(target_dir);
    for name in plugins {
        command.args(["-p", &format!("veillee-{name}")]);
    }
    // The outer build's flags and wrappers (clippy, coverage, host-only RUSTFLAGS) are not
    // meant for the plugins.
    for var in [
        "RUSTFLAGS",
        "CARGO_ENCODED_RUSTFLAGS",
        "CARGO_BUILD_RUSTFLAGS",
        "CARGO_TARGET_DIR",
        "CARGO_BUILD_TARGET",
        "RUSTC_WORKSPACE_WRAPPER",
        "CARGO_PRIMARY_PACKAGE",
    ] {
        command.env_remove(var);
    }
    command.env("CARGO_ENCODED_RUSTFLAGS", PLUGIN_RUSTFLAGS.join("\x1f"));
    let status = command
        .status()
        .unwrap_or_else(|e| panic!("could not run cargo to build the game plugins: {e}"));
    if !status.success() {
        panic!("building the game plugins for {WASM_TARGET} failed (see the errors above)");
    }
}
