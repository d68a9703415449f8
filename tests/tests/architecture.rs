//! The crate map of ARCHITECTURE.md, checked: each heavy dependency belongs to exactly one
//! crate of `host/`, dependencies between Veillée's crates point down only, and the
//! command line builds without the window.
//!
//! The compiler already refuses code that reaches a crate its `Cargo.toml` does not name;
//! these tests keep the `Cargo.toml` files themselves from drifting.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// Each heavy dependency and the one crate of `host/` allowed to name it.
const HEAVY: &[(&str, &str)] = &[
    ("wasmtime", "veillee-sandbox"),
    ("mlua", "veillee-variants"),
    ("sled", "veillee-store"),
    ("eframe", "veillee-app"),
    ("egui", "veillee-app"),
    ("rfd", "veillee-app"),
];

/// What each of Veillée's crates may depend on among Veillée's crates (normal dependencies).
/// Everything points down: sdk ← engine ← {sandbox, variants, conformance, games} ← runtime
/// ← app ← veillee; the store knows no engine.
const ALLOWED: &[(&str, &[&str])] = &[
    ("veillee-files", &[]),
    ("veillee-engine", &["veillee-sdk"]),
    ("veillee-sandbox", &["veillee-sdk", "veillee-engine"]),
    (
        "veillee-variants",
        &["veillee-sdk", "veillee-engine", "veillee-files"],
    ),
    ("veillee-conformance", &["veillee-sdk", "veillee-engine"]),
    ("veillee-store", &["veillee-sdk"]),
    (
        "veillee-games",
        &[
            "veillee-engine",
            "veillee-siege",
            "veillee-batisseurs",
            "veillee-chateau-noir",
            "veillee-roc-noir",
            "veillee-castel",
            "veillee-renard",
        ],
    ),
    (
        "veillee-runtime",
        &[
            "veillee-sdk",
            "veillee-engine",
            "veillee-sandbox",
            "veillee-variants",
            "veillee-store",
            "veillee-conformance",
            "veillee-games",
            "veillee-files",
        ],
    ),
    ("veillee-app", &["veillee-sdk", "veillee-runtime"]),
    (
        "veillee",
        &["veillee-sdk", "veillee-runtime", "veillee-app"],
    ),
];

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ sits in the workspace")
        .to_path_buf()
}

fn cargo(args: &[&str]) -> String {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let output = Command::new(cargo)
        .current_dir(workspace_root())
        .args(args)
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "cargo {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("cargo prints UTF-8")
}

/// Every workspace package: name → (manifest path, normal dependencies by name).
fn packages() -> BTreeMap<String, (PathBuf, BTreeSet<String>)> {
    let metadata: Value = serde_json::from_str(&cargo(&[
        "metadata",
        "--format-version",
        "1",
        "--no-deps",
        "--offline",
        "--locked",
    ]))
    .expect("cargo metadata prints JSON");
    metadata["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .map(|package| {
            let name = package["name"].as_str().expect("a name").to_string();
            let manifest = PathBuf::from(package["manifest_path"].as_str().expect("a path"));
            let normal = package["dependencies"]
                .as_array()
                .expect("dependencies")
                .iter()
                .filter(|dep| dep["kind"].is_null())
                .map(|dep| dep["name"].as_str().expect("a name").to_string())
                .collect();
            (name, (manifest, normal))
        })
        .collect()
}

#[test]
fn each_heavy_dependency_is_named_by_exactly_one_host_crate() {
    let host = workspace_root().join("host");
    let packages = packages();
    for (heavy, owner) in HEAVY {
        let users: Vec<&str> = packages
            .iter()
            .filter(|(_, (manifest, deps))| manifest.starts_with(&host) && deps.contains(*heavy))
            .map(|(name, _)| name.as_str())
            .collect();
        assert_eq!(
            users,
            vec![*owner],
            "`{heavy}` must be a normal dependency of {owner} only"
        );
    }
}

#[test]
fn dependencies_between_veillee_crates_point_down_only() {
    let packages = packages();
    let allowed: BTreeMap<&str, &[&str]> = ALLOWED.iter().copied().collect();
    let host = workspace_root().join("host");
    for (name, (manifest, deps)) in &packages {
        if !manifest.starts_with(&host) {
            continue;
        }
        let Some(may) = allowed.get(name.as_str()) else {
            panic!("{name} is a crate of host/ missing from ARCHITECTURE.md's map (and ALLOWED)");
        };
        for dep in deps.iter().filter(|d| packages.contains_key(*d)) {
            assert!(
                may.contains(&dep.as_str()),
                "{name} depends on {dep}, which is not below it in the crate map"
            );
        }
    }
}

#[test]
fn the_command_line_builds_without_the_window() {
    let tree = cargo(&[
        "tree",
        "-p",
        "veillee",
        "--no-default-features",
        "-e",
        "normal",
        "--prefix",
        "none",
        "--offline",
        "--locked",
    ]);
    let window_crates: Vec<&str> = tree
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| {
            ["eframe", "egui", "winit", "rfd", "veillee-app", "glow"].contains(name)
                || name.starts_with("egui")
        })
        .collect();
    assert!(
        window_crates.is_empty(),
        "`veillee --no-default-features` still pulls in {window_crates:?}"
    );
    // ...and the tree is real: the runtime and the sandbox are there.
    assert!(tree.lines().any(|l| l.starts_with("wasmtime ")), "{tree}");
}
