//! The compiled-code cache: machine code of plugins already compiled, on disk, so that the
//! launcher starts a known game in milliseconds instead of recompiling it.
//!
//! **Trust boundary.** Deserialising compiled code runs whatever machine code the bytes
//! hold (wasmtime's `Module::deserialize` is `unsafe` for that reason: "only designed to
//! receive the previous input from `Module::serialize`"). The cache directory is not trusted
//! to hold only what Veillée wrote: it may be shared (`VEILLEE_CACHE_DIR`), synced, restored
//! from a backup or shipped in a "portable" folder. So:
//! - every entry carries an HMAC-SHA256, under the installation's [`Key`] (kept outside the
//!   cache), of the plugin's SHA-256, the engine tag and the compiled bytes: an entry
//!   planted, altered, or copied from another plugin or another installation does not
//!   verify and is never deserialised;
//! - the bytes verified are the bytes deserialised (read once into memory, never mapped
//!   from a file that could change after the check);
//! - a cache directory, entry or key that another user can write is not used;
//! - entries are written to a new private file (`O_EXCL`) and renamed into place;
//! - on any doubt the plugin is compiled afresh, and the entry rewritten.
//!
//! One file per (plugin content, wasmtime version, engine configuration): the file name is
//! `<sha256 of the wasm>-<tag>.cwasm`, where the tag hashes the wasmtime version and the
//! engine's `precompile_compatibility_hash` (target CPU, compiler flags, wasm features).
//!
//! The key (`key`) is 32 random bytes, created once with `O_EXCL` and owner-only (`private`),
//! kept in the user's configuration directory: outside the cache and outside the data
//! directory, so that a data directory copied with its cache brings no trust along. A cache
//! directory writable by others, an entry writable by others, a key readable by others or a
//! key inside the cache: the cache is not used, and the runtime reports why with the
//! catalog's problems (`Runtime::cache_problem`). The price of the check: a cached load reads
//! and hashes the whole entry, still far faster than compiling (BENCHMARKS.md has the
//! figures).

mod key;
mod private;

use std::fs;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};
use wasmtime::{Engine, Module};

pub(crate) use key::Key;

/// The wasmtime version the host is built against (the `=` pin in `host/Cargo.toml`).
/// Part of the key for clarity only: the compatibility hash already covers the version,
/// and wasmtime checks it again when deserialising.
const WASMTIME_VERSION: &str = "48.0.8";

/// First bytes of every entry: the format of this file (MAC, then the compiled module).
const MAGIC: &[u8; 16] = b"veillee-cwasm-1\n";

/// Largest entry read: far above any compiled plugin within `CompileLimits`.
const MAX_ENTRY_BYTES: u64 = 512 << 20;

/// Where compiled code is kept, and the key that proves an entry was written here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CacheConfig {
    /// The directory of compiled plugins (created private to the user if needed).
    pub dir: PathBuf,
    /// The installation's key (created on first use, readable by the user only). It must
    /// not be inside `dir`: whoever can write the cache must not be able to sign entries.
    pub key_file: PathBuf,
}

/// SHA-256 of `bytes`, in lowercase hex.
pub(crate) fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes
        .iter()
        .fold(String::with_capacity(bytes.len() * 2), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

/// Feeds a [`Hash`] value into SHA-256, which (unlike `DefaultHasher`) is specified to stay
/// the same across Rust versions, so keys survive a toolchain update.
struct ShaHasher(Sha256);

impl Hasher for ShaHasher {
    fn write(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }
    fn finish(&self) -> u64 {
        // Unused: the full digest is taken with `finalize`.
        0
    }
}

/// The hex tag of the wasmtime version and `engine`'s configuration.
fn engine_tag(engine: &Engine) -> String {
    let mut hasher = ShaHasher(Sha256::new());
    WASMTIME_VERSION.hash(&mut hasher);
    engine.precompile_compatibility_hash().hash(&mut hasher);
    let digest = hasher.0.finalize();
    format!(
        "w{}-{}",
        WASMTIME_VERSION.replace('.', "_"),
        &hex(&digest)[..16]
    )
}

/// A directory of compiled plugins.
#[derive(Debug)]
pub(crate) struct Cache {
    dir: PathBuf,
    /// Hex tag of the wasmtime version and engine configuration.
    engine_tag: String,
    key: Key,
}

impl Cache {
    /// Opens (creating it if needed) the cache directory for `engine`, or says why it must
    /// not be used.
    pub(crate) fn open(config: &CacheConfig, engine: &Engine) -> Result<Cache, String> {
        let dir = &config.dir;
        private::create_dir(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        private::check_dir(dir)?;
        if inside(&config.key_file, dir) {
            return Err(format!(
                "its key {} is inside it: whoever can write the cache could sign code",
                config.key_file.display()
            ));
        }
        let key = Key::open_or_create(&config.key_file)?;
        Ok(Cache {
            dir: dir.clone(),
            engine_tag: engine_tag(engine),
            key,
        })
    }

    /// A cache over `dir` signed with `key` (tests of this crate).
    #[cfg(test)]
    pub(crate) fn with_key(dir: &Path, engine: &Engine, key: Key) -> Cache {
        Cache {
            dir: dir.to_path_buf(),
            engine_tag: engine_tag(engine),
            key,
        }
    }

    /// The directory.
    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    fn entry(&self, content_hash: &str) -> PathBuf {
        self.dir
            .join(format!("{content_hash}-{}.cwasm", self.engine_tag))
    }

    /// What the MAC of an entry covers: the entry's format, which plugin, which engine,
    /// and the compiled bytes.
    fn signed<'a>(&'a self, content_hash: &'a str, artifact: &'a [u8]) -> [&'a [u8]; 4] {
        [
            MAGIC,
            content_hash.as_bytes(),
            self.engine_tag.as_bytes(),
            artifact,
        ]
    }

    /// The cached module for this content, if there is one that verifies. An entry that
    /// does not (planted, altered, copied from another plugin or installation, damaged,
    /// incompatible) is deleted and `None` returned: the caller compiles afresh.
    pub(crate) fn load(&self, engine: &Engine, content_hash: &str) -> Option<Module> {
        let path = self.entry(content_hash);
        let bytes = match private::read_file(&path, MAX_ENTRY_BYTES, private::WRITABLE_BY_OTHERS) {
            Ok(Some(bytes)) => bytes,
            Ok(None) => return None,
            Err(_) => {
                discard(&path);
                return None;
            }
        };
        let Some(artifact) = self.verified(content_hash, &bytes) else {
            discard(&path);
            return None;
        };
        // SAFETY: `deserialize` runs the machine code in `artifact` without checking it, so
        // it must be bytes that `Module::serialize` or `Engine::precompile_module` produced
        // for this engine. They are: the MAC just verified was made with this installation's
        // key, which only `store` below uses, over exactly these in-memory bytes, for this
        // plugin's hash and this engine's tag. Wasmtime still checks the header (version,
        // target, flags) and refuses a mismatch.
        match unsafe { Module::deserialize(engine, artifact) } {
            Ok(module) => Some(module),
            Err(_) => {
                discard(&path);
                None
            }
        }
    }

    /// The compiled bytes of an entry whose MAC verifies.
    fn verified<'a>(&self, content_hash: &str, entry: &'a [u8]) -> Option<&'a [u8]> {
        let rest = entry.strip_prefix(MAGIC)?;
        let (tag, artifact) = rest.split_at_checked(key::LEN)?;
        self.key
            .verify(&self.signed(content_hash, artifact), tag)
            .then_some(artifact)
    }

    /// Stores compiled bytes (from `Module::serialize` or `Engine::precompile_module`) with
    /// their MAC. Best effort: a full disk or a read-only directory only means compiling
    /// again next time, so errors are ignored.
    pub(crate) fn store(&self, content_hash: &str, artifact: &[u8]) {
        let tag = self.key.sign(&self.signed(content_hash, artifact));
        let mut bytes = Vec::with_capacity(MAGIC.len() + tag.len() + artifact.len());
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&tag);
        bytes.extend_from_slice(artifact);
        let Ok(temp) = private::write_new_file(&self.dir, content_hash, &bytes) else {
            return;
        };
        // `rename` replaces whatever has the entry's name (even a planted link) atomically:
        // a reader sees the old entry or the new one, never half of one.
        if fs::rename(&temp, self.entry(content_hash)).is_err() {
            let _ = fs::remove_file(&temp);
        }
    }
}

/// First bytes of a note: what follows is the MAC of the note.
const NOTE_MAGIC: &[u8; 16] = b"veillee-note-1\n\0";

impl Cache {
    fn note_path(&self, content_hash: &str, what: &str) -> PathBuf {
        let id = &sha256_hex(what.as_bytes())[..16];
        self.dir.join(format!("{content_hash}-{id}.note"))
    }

    /// Records, signed, that `what` holds for the plugin with this content (the catalog
    /// notes that it passed its self-check). Best effort, like [`Cache::store`].
    pub(crate) fn note(&self, content_hash: &str, what: &str) {
        let tag = self
            .key
            .sign(&[NOTE_MAGIC, content_hash.as_bytes(), what.as_bytes()]);
        let bytes = [NOTE_MAGIC.as_slice(), &tag].concat();
        let Ok(temp) = private::write_new_file(&self.dir, content_hash, &bytes) else {
            return;
        };
        if fs::rename(&temp, self.note_path(content_hash, what)).is_err() {
            let _ = fs::remove_file(&temp);
        }
    }

    /// Whether [`Cache::note`] recorded `what` for this content, with this key.
    pub(crate) fn noted(&self, content_hash: &str, what: &str) -> bool {
        let path = self.note_path(content_hash, what);
        let max = (NOTE_MAGIC.len() + key::LEN) as u64;
        let Ok(Some(bytes)) = private::read_file(&path, max, private::WRITABLE_BY_OTHERS) else {
            return false;
        };
        bytes.strip_prefix(NOTE_MAGIC).is_some_and(|tag| {
            self.key
                .verify(&[NOTE_MAGIC, content_hash.as_bytes(), what.as_bytes()], tag)
        })
    }
}

/// First bytes of a remembered refusal: the MAC, then the reason.
const REFUSAL_MAGIC: &[u8; 16] = b"veillee-refused1";
/// Longest reason kept.
const MAX_REASON_BYTES: usize = 4096;

impl Cache {
    fn refusal_path(&self, content_hash: &str) -> PathBuf {
        self.dir
            .join(format!("{content_hash}-{}.refused", self.engine_tag))
    }

    /// Remembers, signed, why compiling this content failed for good (past its budget), so
    /// that the next start refuses it at once instead of paying the budget again.
    pub(crate) fn note_refusal(&self, content_hash: &str, reason: &str) {
        let reason = &reason.as_bytes()[..reason.len().min(MAX_REASON_BYTES)];
        let signed = [
            REFUSAL_MAGIC.as_slice(),
            content_hash.as_bytes(),
            self.engine_tag.as_bytes(),
            reason,
        ];
        let tag = self.key.sign(&signed);
        let bytes = [REFUSAL_MAGIC.as_slice(), &tag, reason].concat();
        if let Ok(temp) = private::write_new_file(&self.dir, content_hash, &bytes) {
            if fs::rename(&temp, self.refusal_path(content_hash)).is_err() {
                let _ = fs::remove_file(&temp);
            }
        }
    }

    /// The reason remembered by [`Cache::note_refusal`], if one verifies.
    pub(crate) fn refusal(&self, content_hash: &str) -> Option<String> {
        let max = (REFUSAL_MAGIC.len() + key::LEN + MAX_REASON_BYTES) as u64;
        let path = self.refusal_path(content_hash);
        let bytes = private::read_file(&path, max, private::WRITABLE_BY_OTHERS).ok()??;
        let (tag, reason) = bytes
            .strip_prefix(REFUSAL_MAGIC)?
            .split_at_checked(key::LEN)?;
        let signed = [
            REFUSAL_MAGIC.as_slice(),
            content_hash.as_bytes(),
            self.engine_tag.as_bytes(),
            reason,
        ];
        if !self.key.verify(&signed, tag) {
            return None;
        }
        Some(String::from_utf8_lossy(reason).into_owned())
    }

    /// Forgets a remembered refusal (the user asks to try again).
    pub(crate) fn forget_refusal(&self, content_hash: &str) {
        let _ = fs::remove_file(self.refusal_path(content_hash));
    }
}

/// Removes an entry that is not to be trusted (if it can be removed).
fn discard(path: &Path) {
    let _ = fs::remove_file(path);
}

/// Whether `path` would lie inside `dir` (both as given and with links resolved).
fn inside(path: &Path, dir: &Path) -> bool {
    let resolved = |p: &Path| {
        p.parent()
            .and_then(|parent| fs::canonicalize(parent).ok())
            .and_then(|parent| p.file_name().map(|name| parent.join(name)))
    };
    let dir_resolved = fs::canonicalize(dir).ok();
    path.starts_with(dir)
        || matches!((resolved(path), dir_resolved), (Some(p), Some(d)) if p.starts_with(&d))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_is_hex() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    fn engine() -> Engine {
        crate::config::shared_engine()
            .map_err(|e| e.to_string())
            .unwrap()
    }

    const MODULE: &str = "(module (func (export \"f\") (result i32) (i32.const 7)))";

    fn compiled(engine: &Engine) -> Vec<u8> {
        engine
            .precompile_module(&wat::parse_str(MODULE).unwrap())
            .unwrap()
    }

    #[test]
    fn an_entry_verifies_only_for_its_plugin_and_its_key() {
        let dir = tempfile::tempdir().unwrap();
        let engine = engine();
        let cache = Cache::with_key(dir.path(), &engine, Key::fixed(1));
        cache.store("aaaa", &compiled(&engine));
        assert!(cache.load(&engine, "aaaa").is_some());
        // Copied to another plugin's name: refused and deleted.
        fs::copy(cache.entry("aaaa"), cache.entry("bbbb")).unwrap();
        assert!(cache.load(&engine, "bbbb").is_none());
        assert!(!cache.entry("bbbb").exists());
        // Another installation's key: refused.
        let other = Cache::with_key(dir.path(), &engine, Key::fixed(2));
        assert!(other.load(&engine, "aaaa").is_none());
        assert!(!cache.entry("aaaa").exists());
    }

    #[test]
    fn a_raw_wasmtime_artifact_is_never_deserialised() {
        let dir = tempfile::tempdir().unwrap();
        let engine = engine();
        let cache = Cache::with_key(dir.path(), &engine, Key::fixed(1));
        // What the previous cache format (or an attacker) writes: a genuine wasmtime
        // artifact with no MAC.
        fs::write(cache.entry("cccc"), compiled(&engine)).unwrap();
        assert!(cache.load(&engine, "cccc").is_none());
    }

    #[test]
    fn notes_verify_only_with_their_key_and_content() {
        let dir = tempfile::tempdir().unwrap();
        let engine = engine();
        let cache = Cache::with_key(dir.path(), &engine, Key::fixed(1));
        assert!(!cache.noted("aaaa", "checked"));
        cache.note("aaaa", "checked");
        assert!(cache.noted("aaaa", "checked"));
        assert!(!cache.noted("aaaa", "other"));
        fs::copy(
            cache.note_path("aaaa", "checked"),
            cache.note_path("bbbb", "checked"),
        )
        .unwrap();
        assert!(!cache.noted("bbbb", "checked"));
        assert!(!Cache::with_key(dir.path(), &engine, Key::fixed(2)).noted("aaaa", "checked"));
    }

    #[test]
    fn refusals_are_remembered_signed() {
        let dir = tempfile::tempdir().unwrap();
        let engine = engine();
        let cache = Cache::with_key(dir.path(), &engine, Key::fixed(1));
        assert_eq!(cache.refusal("aaaa"), None);
        cache.note_refusal("aaaa", "took more than 60 s");
        assert_eq!(
            cache.refusal("aaaa").as_deref(),
            Some("took more than 60 s")
        );
        assert_eq!(
            Cache::with_key(dir.path(), &engine, Key::fixed(2)).refusal("aaaa"),
            None
        );
        cache.forget_refusal("aaaa");
        assert_eq!(cache.refusal("aaaa"), None);
    }

    #[test]
    fn a_key_inside_the_cache_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let config = CacheConfig {
            dir: dir.path().join("cache"),
            key_file: dir.path().join("cache").join("key"),
        };
        let why = Cache::open(&config, &engine()).unwrap_err();
        assert!(why.contains("inside it"), "{why}");
    }
}
