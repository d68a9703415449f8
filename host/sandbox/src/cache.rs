//! The compiled-code cache: machine code of plugins already compiled, on disk, so that the
//! launcher starts a known game in milliseconds instead of recompiling it.
//!
//! One file per (plugin content, wasmtime version, engine configuration): the file name is
//! `<sha256 of the wasm>-<tag>.cwasm`, where the tag hashes the wasmtime version and the
//! engine's `precompile_compatibility_hash` (target CPU, compiler flags, wasm features).
//! Any change to those gives a new name, so stale code is never even opened.

use std::fs;
use std::hash::{Hash, Hasher};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use sha2::{Digest, Sha256};
use wasmtime::{Engine, Module};

use super::PluginError;

/// The wasmtime version the host is built against (the `=` pin in `host/Cargo.toml`).
/// Part of the key for clarity only: the compatibility hash already covers the version,
/// and wasmtime checks it again when deserialising.
const WASMTIME_VERSION: &str = "48.0.8";

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

/// A directory of compiled plugins.
#[derive(Debug)]
pub(crate) struct Cache {
    dir: PathBuf,
    /// Hex tag of the wasmtime version and engine configuration.
    engine_tag: String,
}

impl Cache {
    /// Opens (creating it if needed) the cache directory for `engine`.
    pub(crate) fn open(dir: PathBuf, engine: &Engine) -> Result<Cache, PluginError> {
        create_private_dir(&dir).map_err(|e| {
            PluginError::Runtime(format!(
                "cannot create the compiled-plugin cache {}: {e}; choose another directory or run without a cache",
                dir.display()
            ))
        })?;
        let mut hasher = ShaHasher(Sha256::new());
        WASMTIME_VERSION.hash(&mut hasher);
        engine.precompile_compatibility_hash().hash(&mut hasher);
        let digest = hasher.0.finalize();
        let engine_tag = format!(
            "w{}-{}",
            WASMTIME_VERSION.replace('.', "_"),
            &hex(&digest)[..16]
        );
        Ok(Cache { dir, engine_tag })
    }

    /// The directory.
    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    fn entry(&self, content_hash: &str) -> PathBuf {
        self.dir
            .join(format!("{content_hash}-{}.cwasm", self.engine_tag))
    }

    /// The cached module for this content, if there is a usable one. A damaged or
    /// incompatible entry is deleted (the caller then compiles and stores it afresh).
    pub(crate) fn load(&self, engine: &Engine, content_hash: &str) -> Option<Module> {
        let path = self.entry(content_hash);
        if !path.is_file() {
            return None;
        }
        // SAFETY: `deserialize_file` maps the file and runs its machine code without
        // verifying it, so it must be a file wasmtime wrote. It is: the cache directory is
        // ours (created by this runtime, private to the user on unix), entries are written
        // only by `store` below from `Module::serialize`, atomically (temporary file, then
        // rename: a crash never leaves a half-written entry under a real name), and the name
        // is keyed by the SHA-256 of the wasm bytes plus the engine's compatibility hash, so
        // an entry is never used for another plugin or another engine configuration.
        // Wasmtime still checks the header (version, target, flags) and refuses a mismatch.
        match unsafe { Module::deserialize_file(engine, &path) } {
            Ok(module) => Some(module),
            Err(_) => {
                // Unreadable: drop it, the caller recompiles and rewrites it.
                let _ = fs::remove_file(&path);
                None
            }
        }
    }

    /// Stores a freshly compiled module. Best effort: a full disk or a read-only directory
    /// only means compiling again next time, so errors are ignored.
    pub(crate) fn store(&self, content_hash: &str, module: &Module) {
        let Ok(bytes) = module.serialize() else {
            return;
        };
        let path = self.entry(content_hash);
        // Unique per process and per call, so concurrent writers never share a temporary.
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let temp = self.dir.join(format!(
            ".{content_hash}.{}.{}.tmp",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        let written = fs::File::create(&temp)
            .and_then(|mut file| file.write_all(&bytes).and_then(|()| file.sync_all()))
            .and_then(|()| fs::rename(&temp, &path));
        if written.is_err() {
            let _ = fs::remove_file(&temp);
        }
    }
}

/// Creates the directory (and parents); new directories are private to the user on unix,
/// since what is in them is executed.
fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt as _;
        builder.mode(0o700);
    }
    builder.create(dir)
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
}
