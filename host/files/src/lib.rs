//! `veillee-files`: reading the files of the data directory (installed plugins, house rules)
//! and the files a user names (a plugin to install, a session to import) as untrusted input.
//!
//! A name in `plugins/` or `variants/` may be anything: a link to `/dev/zero` (a read that
//! never ends), a FIFO (an open that never returns), a link back to its own folder (the same
//! script found thousands of times), a file of gigabytes. [`read_bounded`] reads only a
//! regular file, never more than a limit, and opens it without waiting; [`find_files`] walks
//! a folder visiting each folder and each file once (by canonical path), and says what it
//! left out and why.
//!
//! **Invariant: nothing here blocks on a FIFO, reads a device, reads past a limit, or visits a
//! folder twice; everything left out is reported as a [`FileError`] naming the path.**

use std::collections::HashMap;
use std::fs::{self, File, Metadata};
use std::io::Read;
use std::path::{Path, PathBuf};

/// Why a file was not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// Not a regular file: a FIFO, a device, a socket, a folder.
    NotRegular(&'static str),
    /// Larger than the caller's limit.
    TooLarge {
        /// Its size (at least this many bytes).
        size: u64,
        /// The limit.
        limit: u64,
    },
    /// A link that leads nowhere.
    Dangling,
    /// Links that lead back to each other.
    LinkLoop,
    /// The same file as one already read under another name.
    SameAs(PathBuf),
    /// A folder already visited (a link back to a parent folder).
    FolderLoop(PathBuf),
    /// Deeper than the walk goes.
    TooDeep(u32),
    /// There were more files than the walk reads.
    TooMany(usize),
    /// Not UTF-8 text.
    NotText,
    /// The system refused.
    Io(String),
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Problem::NotRegular(kind) => write!(f, "is {kind}, not a regular file"),
            Problem::TooLarge { size, limit } => write!(
                f,
                "is {}, more than the {} allowed",
                human_size(*size),
                human_size(*limit)
            ),
            Problem::Dangling => write!(f, "is a link to nothing"),
            Problem::LinkLoop => write!(f, "is a loop of links"),
            Problem::SameAs(first) => {
                write!(f, "is the same file as {}, already read", first.display())
            }
            Problem::FolderLoop(first) => write!(
                f,
                "leads back to {}, a folder already read",
                first.display()
            ),
            Problem::TooDeep(depth) => {
                write!(f, "is more than {depth} folders deep and was not read")
            }
            Problem::TooMany(limit) => {
                write!(f, "holds more than {limit} files; the others were not read")
            }
            Problem::NotText => write!(f, "is not UTF-8 text"),
            Problem::Io(detail) => write!(f, "cannot be read: {detail}"),
        }
    }
}

/// A file or folder that was left out, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{} {problem}", path.display())]
pub struct FileError {
    /// The path as it was found or given.
    pub path: PathBuf,
    /// What is wrong with it.
    pub problem: Problem,
}

impl FileError {
    fn new(path: &Path, problem: Problem) -> FileError {
        FileError {
            path: path.to_path_buf(),
            problem,
        }
    }

    fn io(path: &Path, error: &std::io::Error) -> FileError {
        // ELOOP: too many levels of symbolic links.
        let problem = if error.raw_os_error() == Some(LOOP_ERRNO) {
            Problem::LinkLoop
        } else if error.kind() == std::io::ErrorKind::NotFound && is_link(path) {
            Problem::Dangling
        } else {
            Problem::Io(error.to_string())
        };
        FileError::new(path, problem)
    }
}

#[cfg(target_os = "linux")]
const LOOP_ERRNO: i32 = 40;
#[cfg(all(unix, not(target_os = "linux")))]
const LOOP_ERRNO: i32 = 62;
#[cfg(not(unix))]
const LOOP_ERRNO: i32 = -1;

fn is_link(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

/// Reads a regular file of at most `limit` bytes. The file is opened without waiting (a FIFO
/// does not block), checked once open (a link swapped in between is caught), and never read
/// past `limit + 1` bytes (a file that grows is caught too).
pub fn read_bounded(path: &Path, limit: u64) -> Result<Vec<u8>, FileError> {
    let file = open_nonblocking(path).map_err(|e| FileError::io(path, &e))?;
    let meta = file.metadata().map_err(|e| FileError::io(path, &e))?;
    check_regular(path, &meta)?;
    if meta.len() > limit {
        return Err(FileError::new(
            path,
            Problem::TooLarge {
                size: meta.len(),
                limit,
            },
        ));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| FileError::io(path, &e))?;
    if bytes.len() as u64 > limit {
        return Err(FileError::new(
            path,
            Problem::TooLarge {
                size: bytes.len() as u64,
                limit,
            },
        ));
    }
    Ok(bytes)
}

/// [`read_bounded`], for UTF-8 text.
pub fn read_bounded_text(path: &Path, limit: u64) -> Result<String, FileError> {
    String::from_utf8(read_bounded(path, limit)?)
        .map_err(|_| FileError::new(path, Problem::NotText))
}

#[cfg(unix)]
fn open_nonblocking(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
}

#[cfg(not(unix))]
fn open_nonblocking(path: &Path) -> std::io::Result<File> {
    File::open(path)
}

fn check_regular(path: &Path, meta: &Metadata) -> Result<(), FileError> {
    if meta.is_file() {
        Ok(())
    } else {
        Err(FileError::new(path, Problem::NotRegular(kind(meta))))
    }
}

/// What a non-regular file is, in words.
fn kind(meta: &Metadata) -> &'static str {
    if meta.is_dir() {
        return "a folder";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    "a special file"
}

/// What a walk found.
#[derive(Debug, Default)]
pub struct Found {
    /// The regular files with the extension, sorted, each file once.
    pub files: Vec<PathBuf>,
    /// What was left out, and why.
    pub skipped: Vec<FileError>,
}

/// How far a walk goes.
#[derive(Clone, Copy, Debug)]
pub struct WalkLimits {
    /// Folders below the first one that are visited (0: the folder itself only).
    pub depth: u32,
    /// Files returned at most.
    pub files: usize,
}

/// The files named `*.<extension>` in `dir` and, up to `limits.depth`, its subfolders: only
/// regular files (links followed), each file and each folder once by canonical path, at most
/// `limits.files`. A missing `dir` is empty. Entries with another extension are ignored
/// without being opened.
pub fn find_files(dir: &Path, extension: &str, limits: WalkLimits) -> Found {
    let mut walk = Walk {
        extension,
        limits,
        dirs: HashMap::new(),
        files: HashMap::new(),
        found: Found::default(),
        full: false,
    };
    match fs::canonicalize(dir) {
        Ok(canonical) => {
            walk.dirs.insert(canonical, dir.to_path_buf());
            walk.visit(dir, 0);
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && !is_link(dir) => {}
        Err(e) => walk.found.skipped.push(FileError::io(dir, &e)),
    }
    walk.found.files.sort();
    walk.found
}

struct Walk<'a> {
    extension: &'a str,
    limits: WalkLimits,
    /// Canonical path → the path it was first visited under.
    dirs: HashMap<PathBuf, PathBuf>,
    /// Canonical path of each file found → the path it was first found under.
    files: HashMap<PathBuf, PathBuf>,
    found: Found,
    full: bool,
}

impl Walk<'_> {
    fn visit(&mut self, dir: &Path, depth: u32) {
        let entries = match fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(e) => return self.found.skipped.push(FileError::io(dir, &e)),
        };
        let mut paths: Vec<PathBuf> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
        // Real entries before links, so that a file or folder is known by its own name
        // and a link to it is the one reported.
        paths.sort_by_cached_key(|p| (is_link(p), p.clone()));
        for path in paths {
            if self.full {
                return;
            }
            self.entry(&path, depth);
        }
    }

    fn entry(&mut self, path: &Path, depth: u32) {
        let wanted = path.extension().is_some_and(|e| e == self.extension);
        let meta = match fs::metadata(path) {
            Ok(meta) => meta,
            // A broken link or a loop of links: reported only if it looks like ours.
            Err(e) => {
                if wanted || is_link(path) {
                    self.found.skipped.push(FileError::io(path, &e));
                }
                return;
            }
        };
        if meta.is_dir() {
            self.folder(path, depth);
        } else if wanted {
            self.file(path, &meta);
        }
    }

    fn folder(&mut self, path: &Path, depth: u32) {
        if depth >= self.limits.depth {
            if self.limits.depth > 0 {
                let problem = Problem::TooDeep(self.limits.depth);
                self.found.skipped.push(FileError::new(path, problem));
            }
            return;
        }
        let canonical = match fs::canonicalize(path) {
            Ok(canonical) => canonical,
            Err(e) => return self.found.skipped.push(FileError::io(path, &e)),
        };
        if let Some(first) = self.dirs.get(&canonical) {
            let problem = Problem::FolderLoop(first.clone());
            return self.found.skipped.push(FileError::new(path, problem));
        }
        self.dirs.insert(canonical, path.to_path_buf());
        self.visit(path, depth + 1);
    }

    fn file(&mut self, path: &Path, meta: &Metadata) {
        if let Err(e) = check_regular(path, meta) {
            return self.found.skipped.push(e);
        }
        let canonical = match fs::canonicalize(path) {
            Ok(canonical) => canonical,
            Err(e) => return self.found.skipped.push(FileError::io(path, &e)),
        };
        if let Some(first) = self.files.get(&canonical) {
            let problem = Problem::SameAs(first.clone());
            return self.found.skipped.push(FileError::new(path, problem));
        }
        if self.found.files.len() >= self.limits.files {
            self.full = true;
            let problem = Problem::TooMany(self.limits.files);
            return self.found.skipped.push(FileError::new(path, problem));
        }
        self.files.insert(canonical, path.to_path_buf());
        self.found.files.push(path.to_path_buf());
    }
}

/// A size in words: `812 bytes`, `64 KiB`, `1.5 MiB`, `3.2 GiB`.
pub fn human_size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} bytes");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit < UNITS.len() - 1 {
        value /= 1024.0;
        unit += 1;
    }
    if value.fract() < 0.05 || value >= 100.0 {
        format!("{value:.0} {}", UNITS[unit])
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

#[cfg(test)]
mod tests;
