//! The per-installation key that signs compiled code: every cache entry carries an
//! HMAC-SHA256 of its contents under this key, and an entry whose MAC does not verify is
//! never deserialised.
//!
//! The key is 32 random bytes in a file of its own, outside the cache directory (by default
//! in the user's configuration directory, not the data directory either, so a data
//! directory copied, synced or shipped with a `cache/` does not bring a key along), created
//! once with `O_EXCL` and owner-only permissions. A key file that another user can read or
//! write, or that is not exactly a key, is refused: the cache is then not used.

use std::fs;
use std::io;
use std::path::Path;

use hmac::{Hmac, Mac as _};
use sha2::Sha256;

use super::private;

/// Length of the key, and of a MAC.
pub(crate) const LEN: usize = 32;

type HmacSha256 = Hmac<Sha256>;

/// The installation's key.
pub(crate) struct Key([u8; LEN]);

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Key(..)")
    }
}

impl Key {
    /// Reads the key at `path`, creating it (and its directory) on first use.
    pub(crate) fn open_or_create(path: &Path) -> Result<Key, String> {
        let dir = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        private::create_dir(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        private::check_dir_keeps_my_files(dir)?;
        if let Some(key) = Key::read(path)? {
            return Ok(key);
        }
        Key::create(dir, path)?;
        Key::read(path)?
            .ok_or_else(|| format!("{} vanished right after it was made", path.display()))
    }

    fn read(path: &Path) -> Result<Option<Key>, String> {
        let Some(bytes) = private::read_file(path, LEN as u64, private::ANY_ACCESS_BY_OTHERS)?
        else {
            return Ok(None);
        };
        let key: [u8; LEN] = bytes.try_into().map_err(|bytes: Vec<u8>| {
            format!(
                "{} is {} bytes long, not a {LEN}-byte key; delete it and Veillée makes a new one",
                path.display(),
                bytes.len()
            )
        })?;
        Ok(Some(Key(key)))
    }

    /// Writes a fresh key next to `path`, then links it into place: `hard_link` never
    /// replaces an existing file, so two processes starting together agree on one key.
    fn create(dir: &Path, path: &Path) -> Result<(), String> {
        let mut key = [0u8; LEN];
        getrandom::fill(&mut key)
            .map_err(|e| format!("the system gave no random bytes for a key: {e}"))?;
        let temp = private::write_new_file(dir, "key", &key)
            .map_err(|e| format!("cannot write a key in {}: {e}", dir.display()))?;
        let linked = fs::hard_link(&temp, path);
        let _ = fs::remove_file(&temp);
        match linked {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(()),
            Err(e) => Err(format!("cannot create the key {}: {e}", path.display())),
        }
    }

    /// A key for tests of this crate.
    #[cfg(test)]
    pub(crate) fn fixed(byte: u8) -> Key {
        Key([byte; LEN])
    }

    fn hmac(&self, parts: &[&[u8]]) -> HmacSha256 {
        // HMAC takes keys of any length: `new_from_slice` cannot fail for it.
        let mut mac = <HmacSha256 as hmac::Mac>::new_from_slice(&self.0)
            .expect("HMAC accepts any key length");
        for part in parts {
            // Each part's length first, so that no two lists of parts feed the same bytes.
            mac.update(&(part.len() as u64).to_le_bytes());
            mac.update(part);
        }
        mac
    }

    /// The MAC of `parts`.
    pub(crate) fn sign(&self, parts: &[&[u8]]) -> [u8; LEN] {
        self.hmac(parts).finalize().into_bytes().into()
    }

    /// Whether `tag` is the MAC of `parts` (compared in constant time).
    pub(crate) fn verify(&self, parts: &[&[u8]], tag: &[u8]) -> bool {
        self.hmac(parts).verify_slice(tag).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_made_once_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config").join("compiled-code.key");
        let first = Key::open_or_create(&path).unwrap();
        let again = Key::open_or_create(&path).unwrap();
        assert_eq!(first.sign(&[b"x"]), again.sign(&[b"x"]));
        assert_eq!(fs::read(&path).unwrap().len(), LEN);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600);
            fs::set_permissions(&path, fs::Permissions::from_mode(0o644)).unwrap();
            let why = Key::open_or_create(&path).unwrap_err();
            assert!(why.contains("readable or writable by other users"), "{why}");
        }
    }

    #[test]
    fn a_damaged_key_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("k");
        let temp = private::write_new_file(dir.path(), "k", b"short").unwrap();
        fs::rename(temp, &path).unwrap();
        let why = Key::open_or_create(&path).unwrap_err();
        assert!(why.contains("not a 32-byte key"), "{why}");
    }

    #[test]
    fn macs_bind_every_part() {
        let key = Key::fixed(7);
        let tag = key.sign(&[b"ab", b"c"]);
        assert!(key.verify(&[b"ab", b"c"], &tag));
        assert!(!key.verify(&[b"a", b"bc"], &tag));
        assert!(!Key::fixed(8).verify(&[b"ab", b"c"], &tag));
        assert!(!key.verify(&[b"ab", b"c"], &tag[..31]));
    }
}
