//! `veillee new`: a new plugin crate that builds to wasm and passes `veillee check` as it is —
//! a manifest, rules in French and English, a scene, and a test using `sdk::testing`.
//!
//! The SDK is not published on crates.io, so the crate depends on it by path — the `sdk/`
//! folder of the Veillée clone this program was built from, when it is still there — or else
//! by git, on the project's repository.

use std::fs;
use std::path::{Path, PathBuf};

/// The project's repository, from the workspace's `repository` field.
pub const REPOSITORY: &str = env!("CARGO_PKG_REPOSITORY");

/// The files of a new plugin, with `{{id}}`, `{{crate}}`, `{{sdk_line}}`, `{{sdk_comment}}`
/// and `{{repository}}` to fill in.
const TEMPLATE: &[(&str, &str)] = &[
    (
        "Cargo.toml",
        include_str!("../templates/plugin/Cargo.toml.in"),
    ),
    (
        ".gitignore",
        include_str!("../templates/plugin/gitignore.in"),
    ),
    (
        "README.md",
        include_str!("../templates/plugin/README.md.in"),
    ),
    ("src/lib.rs", include_str!("../templates/plugin/lib.rs.in")),
    ("rules/fr.md", include_str!("../templates/plugin/fr.md.in")),
    ("rules/en.md", include_str!("../templates/plugin/en.md.in")),
    (
        "tests/protocol.rs",
        include_str!("../templates/plugin/protocol.rs.in"),
    ),
];

/// Where the new crate finds the SDK.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SdkSource {
    /// A folder holding the SDK's `Cargo.toml`.
    Path(PathBuf),
    /// The project's git repository.
    Git(String),
}

impl SdkSource {
    /// The SDK of the clone this program was built from, if its folder is still there; else
    /// the repository.
    pub fn default_for_this_build() -> SdkSource {
        let sdk = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../sdk");
        match sdk.canonicalize() {
            Ok(dir) if is_sdk(&dir) => SdkSource::Path(dir),
            _ => SdkSource::Git(REPOSITORY.to_string()),
        }
    }

    /// The dependency line of `Cargo.toml`, and the comment above it.
    fn dependency(&self) -> (String, String) {
        match self {
            SdkSource::Path(dir) => (
                format!(
                    "veillee-sdk = {{ path = {} }}",
                    toml_string(&dir.to_string_lossy())
                ),
                format!(
                    "the copy in your Veillée clone. Without a clone, use\n\
                     # veillee-sdk = {{ git = {} }}",
                    toml_string(REPOSITORY)
                ),
            ),
            SdkSource::Git(url) => (
                format!("veillee-sdk = {{ git = {} }}", toml_string(url)),
                "Veillée's repository (or `path = \"…/sdk\"` in a clone).".to_string(),
            ),
        }
    }
}

/// Whether `dir` holds the SDK crate.
fn is_sdk(dir: &Path) -> bool {
    fs::read_to_string(dir.join("Cargo.toml"))
        .is_ok_and(|toml| toml.contains("name = \"veillee-sdk\""))
}

/// A TOML basic string.
fn toml_string(s: &str) -> String {
    let mut out = String::from('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Why a game id cannot name a plugin, if it cannot: ids are lowercase ASCII letters, digits
/// and single hyphens, starting with a letter (they become a crate name and a file name);
/// not `veillee…` (the package would clash with the SDK it depends on, or with the
/// launcher's own crates), and not a built-in game's (`install` refuses a plugin that would
/// shadow one).
pub fn id_problem(id: &str) -> Option<String> {
    if let Some(problem) = malformed(id) {
        return Some(problem);
    }
    if id.starts_with("veillee") {
        return Some(format!(
            "`{id}` cannot be a game id: ids starting with `veillee` are the launcher's and its \
             SDK's crates (cargo would refuse a package `{id}` that depends on `veillee-sdk`)"
        ));
    }
    crate::native::native_engine(id).is_some().then(|| {
        format!(
            "`{id}` is a built-in game: `veillee install` refuses a plugin that would take its \
             place; choose another id, e.g. `{id}-maison`"
        )
    })
}

/// [`id_problem`]'s shape rule.
fn malformed(id: &str) -> Option<String> {
    let well_formed = id.len() <= 40
        && id.starts_with(|c: char| c.is_ascii_lowercase())
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !id.ends_with('-')
        && !id.contains("--");
    (!well_formed).then(|| {
        format!(
            "`{id}` cannot be a game id: use lowercase letters, digits and single hyphens, \
             starting with a letter (at most 40 characters), e.g. `morpion` or `nine-men`"
        )
    })
}

/// Why a new plugin was not written.
#[derive(Debug, thiserror::Error)]
pub enum ScaffoldError {
    /// The id cannot name a plugin ([`id_problem`] says why).
    #[error("{0}")]
    BadId(String),
    /// The folder holds files already: nothing is written over them.
    #[error("{} already exists and is not empty: choose another folder with --dir", .0.display())]
    FolderInUse(PathBuf),
    /// The disk refused.
    #[error("{doing} {}", .path.display())]
    Disk {
        /// What was being done ("writing"…).
        doing: &'static str,
        /// Where.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
}

fn disk<'a>(
    doing: &'static str,
    path: &'a Path,
) -> impl FnOnce(std::io::Error) -> ScaffoldError + 'a {
    move |source| ScaffoldError::Disk {
        doing,
        path: path.to_path_buf(),
        source,
    }
}

/// The files of a new plugin `id` depending on the SDK through `sdk`: (path, contents).
pub fn files(id: &str, sdk: &SdkSource) -> Result<Vec<(&'static str, String)>, ScaffoldError> {
    if let Some(problem) = id_problem(id) {
        return Err(ScaffoldError::BadId(problem));
    }
    let (sdk_line, sdk_comment) = sdk.dependency();
    let crate_name = id.replace('-', "_");
    Ok(TEMPLATE
        .iter()
        .map(|(path, template)| {
            let text = template
                .replace("{{sdk_line}}", &sdk_line)
                .replace("{{sdk_comment}}", &sdk_comment)
                .replace("{{repository}}", REPOSITORY)
                .replace("{{crate}}", &crate_name)
                .replace("{{id}}", id);
            (*path, text)
        })
        .collect())
}

/// Writes a new plugin `id` into `dir`, which must not exist or be empty. Returns the paths
/// written.
pub fn create(dir: &Path, id: &str, sdk: &SdkSource) -> Result<Vec<PathBuf>, ScaffoldError> {
    let files = files(id, sdk)?;
    if dir.exists() {
        let empty = fs::read_dir(dir)
            .map_err(disk("reading", dir))?
            .next()
            .is_none();
        if !empty {
            return Err(ScaffoldError::FolderInUse(dir.to_path_buf()));
        }
    }
    let mut written = Vec::new();
    for (path, text) in files {
        let file = dir.join(path);
        if let Some(parent) = file.parent() {
            fs::create_dir_all(parent).map_err(disk("creating", parent))?;
        }
        fs::write(&file, text).map_err(disk("writing", &file))?;
        written.push(file);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_ids_must_make_a_crate_and_a_file_name() {
        for good in ["morpion", "nine-men", "go9", "a"] {
            assert_eq!(id_problem(good), None, "{good}");
        }
        for bad in [
            "",
            "Renard",
            "9men",
            "-x",
            "x-",
            "a--b",
            "a_b",
            "é",
            "a b",
            "../x",
            "veillee-sdk",
            "veillee",
            "siege",
            "castel",
            "roc-noir",
        ] {
            assert!(id_problem(bad).is_some(), "{bad}");
        }
    }

    #[test]
    fn every_placeholder_is_filled_and_the_sdk_line_is_valid_toml() {
        let sdk = SdkSource::Path(PathBuf::from("/tmp/a \"clone\"/sdk"));
        for (path, text) in files("nine-men", &sdk).unwrap() {
            assert!(!text.contains("{{"), "{path}: {text}");
        }
        let cargo = files("nine-men", &sdk).unwrap()[0].1.clone();
        assert!(
            cargo.contains(r#"veillee-sdk = { path = "/tmp/a \"clone\"/sdk" }"#),
            "{cargo}"
        );
        assert!(cargo.contains("name = \"nine-men\""));
        let git = files("x", &SdkSource::Git("https://example.org/v".into())).unwrap();
        assert!(git[0]
            .1
            .contains(r#"veillee-sdk = { git = "https://example.org/v" }"#));
    }

    #[test]
    fn a_folder_in_use_is_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("keep.txt"), "mine").unwrap();
        let sdk = SdkSource::Git(REPOSITORY.into());
        let err = create(dir.path(), "x", &sdk).unwrap_err().to_string();
        assert!(err.contains("not empty"), "{err}");
        assert_eq!(
            fs::read_to_string(dir.path().join("keep.txt")).unwrap(),
            "mine"
        );
        let written = create(&dir.path().join("new"), "x", &sdk).unwrap();
        assert_eq!(written.len(), TEMPLATE.len());
    }
}
