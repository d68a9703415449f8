//! The crate map of ARCHITECTURE.md, checked: each heavy dependency belongs to exactly one
//! crate of `host/`, dependencies between Veillée's crates point down only, the command line
//! builds without the window, and nothing in the build needs a system library's headers.
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
    ("axum", "veillee-room"),
    ("tokio", "veillee-room"),
    ("hyper", "veillee-room"),
];

/// What each of Veillée's crates may depend on among Veillée's crates (normal dependencies).
/// Everything points down: sdk ← engine ← {sandbox, variants, conformance, games} ← runtime
/// ← room ← app ← veillee; the store knows no engine.
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
    ("veillee-room", &["veillee-sdk", "veillee-runtime"]),
    (
        "veillee-app",
        &["veillee-sdk", "veillee-runtime", "veillee-room"],
    ),
    (
        "veillee",
        &[
            "veillee-sdk",
            "veillee-runtime",
            "veillee-room",
            "veillee-app",
        ],
    ),
];

/// The crates of this platform's build whose build script could look for a system library
/// (a `-sys` crate, a `links` key, or a build dependency on pkg-config, cmake or bindgen),
/// each with why it needs nothing but Rust and a C compiler here. The README promises a build
/// with Rust alone: a crate that is not in this list fails
/// `no_dependency_needs_a_system_library_to_build`, and CI builds the release binary with
/// pkg-config made unavailable.
const BUILDS_WITHOUT_SYSTEM_HEADERS: &[(&str, &str)] = &[
    (
        "mlua-sys",
        "Luau's sources are vendored (mlua's `vendored` feature) and compiled by `cc`",
    ),
    (
        "wayland-sys",
        "winit opens libwayland-client at run time (the `dlopen` feature): no headers",
    ),
    (
        "x11-dl",
        "opens the X11 libraries at run time; pkg-config only hints where they are, and \
         without it the loader's search path is used",
    ),
    (
        "rayon-core",
        "its `links` key only keeps one copy of the global thread pool; no native code",
    ),
];

/// Build dependencies that go looking for a system library or its headers.
const NATIVE_BUILD_TOOLS: &[&str] = &["pkg-config", "cmake", "bindgen", "system-deps"];

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

/// This machine's target triple, as rustc names it.
fn host_triple() -> String {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    let output = Command::new(rustc).arg("-vV").output().expect("rustc runs");
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .find_map(|line| line.strip_prefix("host: "))
        .expect("rustc -vV names the host")
        .to_string()
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

/// A crate of the resolved build whose build script may look for a system library, with the
/// crates that pull it in.
fn may_need_system_headers(metadata: &Value) -> BTreeMap<String, BTreeSet<String>> {
    let packages: BTreeMap<&str, &Value> = metadata["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .map(|package| (package["id"].as_str().expect("an id"), package))
        .collect();
    let name_of = |id: &str| packages[id]["name"].as_str().expect("a name").to_string();
    let nodes = metadata["resolve"]["nodes"]
        .as_array()
        .expect("a resolve graph");
    let mut users: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for node in nodes {
        for dep in node["deps"].as_array().expect("deps") {
            users
                .entry(name_of(dep["pkg"].as_str().expect("a package id")))
                .or_default()
                .insert(name_of(node["id"].as_str().expect("an id")));
        }
    }
    nodes
        .iter()
        .filter(|node| {
            let package = packages[node["id"].as_str().expect("an id")];
            let has_build_script = package["targets"]
                .as_array()
                .expect("targets")
                .iter()
                .any(|target| target["kind"].to_string().contains("custom-build"));
            let name = package["name"].as_str().expect("a name");
            let uses_native_tool = node["deps"].as_array().expect("deps").iter().any(|dep| {
                let is_build = dep["dep_kinds"].to_string().contains("\"build\"");
                is_build
                    && NATIVE_BUILD_TOOLS
                        .contains(&name_of(dep["pkg"].as_str().expect("an id")).as_str())
            });
            has_build_script
                && (name.ends_with("-sys") || !package["links"].is_null() || uses_native_tool)
        })
        .map(|node| {
            let name = name_of(node["id"].as_str().expect("an id"));
            let pulled_in_by = users.get(&name).cloned().unwrap_or_default();
            (name, pulled_in_by)
        })
        .collect()
}

#[test]
fn no_dependency_needs_a_system_library_to_build() {
    let triple = host_triple();
    let metadata: Value = serde_json::from_str(&cargo(&[
        "metadata",
        "--format-version",
        "1",
        "--filter-platform",
        &triple,
        "--offline",
        "--locked",
    ]))
    .expect("cargo metadata prints JSON");
    let allowed: BTreeSet<&str> = BUILDS_WITHOUT_SYSTEM_HEADERS
        .iter()
        .map(|(name, _)| *name)
        .collect();
    let found = may_need_system_headers(&metadata);
    let unexplained: Vec<String> = found
        .iter()
        .filter(|(name, _)| !allowed.contains(name.as_str()))
        .map(|(name, users)| format!("{name} (pulled in by {users:?})"))
        .collect();
    assert!(
        unexplained.is_empty(),
        "on {triple}, these crates' build scripts may need a system library's headers, which \
         a fresh machine with Rust alone lacks: {unexplained:?}. Load the library at run time \
         or pick a pure-Rust crate; if one really needs nothing, say why in \
         BUILDS_WITHOUT_SYSTEM_HEADERS."
    );
    // The list stays true: a crate that has left the build is taken out of it. (The list is
    // Linux's, where CI builds; other platforms pull in fewer of these crates.)
    if !cfg!(target_os = "linux") {
        return;
    }
    let gone: Vec<&&str> = allowed
        .iter()
        .filter(|name| !found.contains_key(**name))
        .collect();
    assert!(
        gone.is_empty(),
        "no longer in the build, drop them from the list: {gone:?}"
    );
}

/// The source files of the repository (Rust and Lua), outside build outputs.
fn source_files(dir: &Path, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') || name == "target" {
            continue;
        }
        if path.is_dir() {
            source_files(&path, found);
        } else if name.ends_with(".rs") || name.ends_with(".lua") {
            found.push(path);
        }
    }
}

#[test]
fn comments_say_why_and_never_cite_a_tracker_number() {
    let root = workspace_root();
    let mut files = Vec::new();
    source_files(&root, &mut files);
    assert!(files.len() > 100, "the sources are found: {}", files.len());
    let cites = |line: &str| {
        let lower = line.to_lowercase();
        lower.match_indices("issue ").any(|(at, _)| {
            let rest = lower[at + 6..].trim_start_matches('#');
            rest.starts_with(|c: char| c.is_ascii_digit())
        })
    };
    let mut citing = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        for (n, line) in text.lines().enumerate() {
            if cites(line) {
                let shown = file.strip_prefix(&root).unwrap_or(file);
                citing.push(format!("{}:{}: {}", shown.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(citing.is_empty(), "{}", citing.join("\n"));
}

/// Names ARCHITECTURE.md gives in backquotes that are not files of the repository: folders
/// of a data directory and a route of the room.
const NOT_IN_THE_REPOSITORY: &[&str] = &[
    "cache/compiled/",
    "sessions.sled/",
    "sessions.salvaging/",
    "/ws",
];

/// Crates whose paths ARCHITECTURE.md names (`std::sync::mpsc`, `clap::Args`).
const OTHER_CRATES: &[&str] = &[
    "std",
    "core",
    "alloc",
    "clap",
    "egui",
    "eframe",
    "wasmtime",
    "mlua",
    "sled",
    "serde",
    "serde_json",
    "axum",
    "tokio",
    "hyper",
    "tungstenite",
    "async_nats",
    "rfd",
    "winit",
];

/// Endings of the files ARCHITECTURE.md names.
const FILE_ENDINGS: &[&str] = &[
    ".rs", ".md", ".toml", ".lua", ".wat", ".wasm", ".sh", ".json", ".html", ".js", ".css",
];

/// Every file of the repository, relative to its root, outside build outputs.
fn repository_files(root: &Path) -> Vec<String> {
    fn walk(dir: &Path, root: &Path, found: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') || name == "target" {
                continue;
            }
            if path.is_dir() {
                walk(&path, root, found);
            } else if let Ok(relative) = path.strip_prefix(root) {
                found.push(relative.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    let mut found = Vec::new();
    walk(root, root, &mut found);
    found
}

/// The backquoted spans of a Markdown text, outside fenced blocks.
fn backquoted(markdown: &str) -> BTreeSet<String> {
    let mut outside = String::new();
    let mut fenced = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            outside.push_str(line);
            outside.push('\n');
        }
    }
    outside
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|span| !span.contains('\n') && !span.is_empty())
        .map(str::to_string)
        .collect()
}

fn looks_like_a_path(span: &str) -> bool {
    let plain = span
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "./_-*".contains(c));
    let named = span.contains('/') || FILE_ENDINGS.iter().any(|e| span.ends_with(e));
    plain && named && !span.starts_with(['-', '.', '~'])
}

/// Whether a repository file is `span` (a path from the root, or the end of one — the map
/// names files inside the crate it describes); a `*` in the file's name stands for any part.
fn names_a_file(span: &str, files: &[String]) -> bool {
    let wanted = span.trim_end_matches('/');
    let (folder, name) = wanted.rsplit_once('/').unwrap_or(("", wanted));
    let in_folder = |parent: &str| {
        folder.is_empty() || parent == folder || parent.ends_with(&format!("/{folder}"))
    };
    files.iter().any(|file| {
        let (parent, file_name) = file.rsplit_once('/').unwrap_or(("", file));
        let as_file = match name.split_once('*') {
            Some((start, end)) => file_name.starts_with(start) && file_name.ends_with(end),
            None => file_name == name,
        };
        let as_folder = !name.contains('*') && format!("/{file}").contains(&format!("/{wanted}/"));
        (as_file && in_folder(parent)) || as_folder
    })
}

/// The names the Rust sources define (types, modules, functions, constants) and the enum
/// variants they list, read from the text.
fn defined_names(root: &Path, files: &[String]) -> BTreeSet<String> {
    const KEYWORDS: &[&str] = &[
        "struct", "enum", "trait", "type", "union", "mod", "const", "static", "fn",
    ];
    let mut names = BTreeSet::new();
    for file in files.iter().filter(|f| f.ends_with(".rs")) {
        let text = std::fs::read_to_string(root.join(file)).unwrap_or_default();
        for line in text.lines() {
            let words: Vec<&str> = line
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .filter(|w| !w.is_empty())
                .collect();
            for pair in words.windows(2) {
                // `as` names a re-export (`pub use veillee_sandbox as plugin`).
                if KEYWORDS.contains(&pair[0]) || pair[0] == "as" {
                    names.insert(pair[1].to_string());
                }
            }
            // A field stands at the start of its line: `pub level: Option<BotLevel>,`.
            let field = line.trim_start().trim_start_matches("pub ");
            if let Some((name, _)) = field.split_once(':') {
                let lower = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_';
                if !name.is_empty() && name.chars().all(lower) {
                    names.insert(name.to_string());
                }
            }
            // An enum variant stands at the start of its line: `Quit,`, `Over(Outcome),`.
            let trimmed = line.trim_start();
            let variant: String = trimmed
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let after = trimmed[variant.len()..].trim_start();
            if variant.starts_with(|c: char| c.is_ascii_uppercase())
                && (after.is_empty() || after.starts_with(['(', '{', ',', '=']))
            {
                names.insert(variant);
            }
        }
    }
    names
}

/// A span that names Rust items: `Table::play`, `GameEngine`, `bot::choose()`.
fn rust_names(span: &str) -> Option<Vec<&str>> {
    let path = span.strip_suffix("()").unwrap_or(span);
    let segments: Vec<&str> = path.split("::").collect();
    let identifiers = segments.iter().all(|s| {
        s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    });
    let camel = |s: &str| {
        s.starts_with(|c: char| c.is_ascii_uppercase())
            && s.chars().skip(1).any(|c| c.is_ascii_lowercase())
            && s.chars().skip(1).any(|c| c.is_ascii_uppercase())
    };
    (identifiers && (segments.len() > 1 || camel(path))).then_some(segments)
}

#[test]
fn every_file_and_rust_name_architecture_md_gives_exists() {
    let root = workspace_root();
    let files = repository_files(&root);
    let map = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let defined = defined_names(&root, &files);
    let mut missing = Vec::new();
    for span in backquoted(&map) {
        if NOT_IN_THE_REPOSITORY.contains(&span.as_str()) {
            continue;
        }
        if looks_like_a_path(&span) {
            if !names_a_file(&span, &files) {
                missing.push(format!("file `{span}`"));
            }
        } else if let Some(names) = rust_names(&span) {
            // Paths into another crate (the standard library, clap…) are not ours to define;
            // our crates' names (`veillee_sdk::…`) are checked from their next segment on.
            if OTHER_CRATES.contains(&names[0]) {
                continue;
            }
            let ours = names
                .iter()
                .filter(|n| !n.starts_with("veillee_") && !["crate", "self", "super"].contains(n));
            for name in ours.filter(|n| !defined.contains(**n)) {
                missing.push(format!("`{name}` in `{span}`"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md names what the repository does not have:\n{}",
        missing.join("\n")
    );
}
