//! Files only this user can write: what the cache and its key are kept in.
//!
//! The cache holds machine code that the host runs, so a directory or a file that another
//! user could write is not trusted, whatever it contains. On unix that means owned by the
//! user running Veillée and not writable by group or others; files are opened without
//! following symbolic links and without blocking (a FIFO planted under an entry's name is
//! refused, not waited on), and only regular files of bounded size are read. Elsewhere the
//! checks are the file type and size only: the MAC of every entry is what protects it.

use std::fs;
use std::io::{self, Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Mode bits that let someone else change a file or directory: group and others' write.
pub(crate) const WRITABLE_BY_OTHERS: u32 = 0o022;
/// Mode bits that let someone else read or change a file.
pub(crate) const ANY_ACCESS_BY_OTHERS: u32 = 0o077;

/// Creates the directory (and parents); new directories are private to the user on unix.
pub(crate) fn create_dir(dir: &Path) -> io::Result<()> {
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt as _;
        builder.mode(0o700);
    }
    builder.create(dir)
}

/// Checks that `dir` is a directory that only this user can write.
pub(crate) fn check_dir(dir: &Path) -> Result<(), String> {
    let metadata =
        fs::metadata(dir).map_err(|e| format!("{} cannot be read: {e}", dir.display()))?;
    if !metadata.is_dir() {
        return Err(format!("{} is not a directory", dir.display()));
    }
    check_owner(dir, &metadata, WRITABLE_BY_OTHERS)
}

/// Checks that no one else can replace or remove the files this user has in `dir`: the
/// directory is this user's and private, or a shared one with the sticky bit (`/tmp`),
/// where others may add files but not touch this user's (whose owner is checked on read).
pub(crate) fn check_dir_keeps_my_files(dir: &Path) -> Result<(), String> {
    let metadata =
        fs::metadata(dir).map_err(|e| format!("{} cannot be read: {e}", dir.display()))?;
    if !metadata.is_dir() {
        return Err(format!("{} is not a directory", dir.display()));
    }
    if sticky(&metadata) {
        return Ok(());
    }
    check_owner(dir, &metadata, WRITABLE_BY_OTHERS)
}

#[cfg(unix)]
fn sticky(metadata: &fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt as _;
    metadata.mode() & 0o1000 != 0
}

#[cfg(not(unix))]
fn sticky(_metadata: &fs::Metadata) -> bool {
    false
}

/// Refuses `path` unless it belongs to this user and no one else has the `forbidden` mode
/// bits on it.
#[cfg(unix)]
fn check_owner(path: &Path, metadata: &fs::Metadata, forbidden: u32) -> Result<(), String> {
    use std::os::unix::fs::MetadataExt as _;
    // SAFETY: geteuid has no preconditions and cannot fail.
    let me = unsafe { libc::geteuid() };
    if metadata.uid() != me {
        return Err(format!(
            "{} belongs to another user (uid {}, Veillée runs as uid {me})",
            path.display(),
            metadata.uid()
        ));
    }
    let mode = metadata.mode() & 0o777;
    if mode & forbidden != 0 {
        let what = if forbidden == WRITABLE_BY_OTHERS {
            "writable"
        } else {
            "readable or writable"
        };
        return Err(format!(
            "{} is {what} by other users (mode {mode:03o}); `chmod go-rwx {}` makes it private",
            path.display(),
            path.display()
        ));
    }
    Ok(())
}

#[cfg(not(unix))]
fn check_owner(_path: &Path, _metadata: &fs::Metadata, _forbidden: u32) -> Result<(), String> {
    Ok(())
}

/// Reads a private regular file of at most `max_bytes`. `Ok(None)`: there is no such file.
/// Anything else that is not a private regular file of that size is an error saying why.
pub(crate) fn read_file(
    path: &Path,
    max_bytes: u64,
    forbidden: u32,
) -> Result<Option<Vec<u8>>, String> {
    let file = match open_no_follow(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("{} cannot be opened: {e}", path.display())),
    };
    let metadata = file
        .metadata()
        .map_err(|e| format!("{} cannot be read: {e}", path.display()))?;
    if !metadata.is_file() {
        return Err(format!("{} is not a regular file", path.display()));
    }
    check_owner(path, &metadata, forbidden)?;
    if metadata.len() > max_bytes {
        return Err(format!(
            "{} is {} bytes, more than the {max_bytes} expected",
            path.display(),
            metadata.len()
        ));
    }
    let mut bytes = Vec::with_capacity(metadata.len() as usize);
    file.take(max_bytes + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{} cannot be read: {e}", path.display()))?;
    if bytes.len() as u64 > max_bytes {
        return Err(format!("{} grew while being read", path.display()));
    }
    Ok(Some(bytes))
}

/// Opens for reading without following a symbolic link at the last component, and without
/// waiting for a writer if it is a FIFO.
fn open_no_follow(path: &Path) -> io::Result<fs::File> {
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    options.open(path)
}

/// Writes `bytes` to a new private file in `dir` (created with `O_EXCL`: never through a
/// file or link someone planted under its name) and returns its path. The name is unique
/// per process and call; the caller renames or links it into place.
pub(crate) fn write_new_file(dir: &Path, stem: &str, bytes: &[u8]) -> io::Result<PathBuf> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let temp = dir.join(format!(
        ".{stem}.{}.{}.tmp",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let mut options = fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.mode(0o600);
    }
    let written = options
        .open(&temp)
        .and_then(|mut file| file.write_all(bytes).and_then(|()| file.sync_all()));
    match written {
        Ok(()) => Ok(temp),
        Err(e) => {
            let _ = fs::remove_file(&temp);
            Err(e)
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt as _;

    #[test]
    fn a_directory_writable_by_others_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        assert!(check_dir(dir.path()).is_ok());
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o777)).unwrap();
        let why = check_dir(dir.path()).unwrap_err();
        assert!(why.contains("writable by other users (mode 777)"), "{why}");
    }

    #[test]
    fn only_private_regular_files_of_bounded_size_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = write_new_file(dir.path(), "x", b"hello").unwrap();
        assert_eq!(
            read_file(&path, 5, ANY_ACCESS_BY_OTHERS).unwrap().unwrap(),
            b"hello"
        );
        assert!(read_file(&path, 4, ANY_ACCESS_BY_OTHERS)
            .unwrap_err()
            .contains("more than"));
        assert_eq!(read_file(&dir.path().join("none"), 5, 0).unwrap(), None);
        fs::set_permissions(&path, fs::Permissions::from_mode(0o644)).unwrap();
        assert!(read_file(&path, 5, WRITABLE_BY_OTHERS).is_ok());
        assert!(read_file(&path, 5, ANY_ACCESS_BY_OTHERS).is_err());
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&path, &link).unwrap();
        assert!(
            read_file(&link, 5, WRITABLE_BY_OTHERS).is_err(),
            "symbolic links are not followed"
        );
        let fifo = dir.path().join("fifo");
        let c_path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
        let why = read_file(&fifo, 5, WRITABLE_BY_OTHERS).unwrap_err();
        assert!(why.contains("not a regular file"), "{why}");
    }
}
