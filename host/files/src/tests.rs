//! Hostile data directories, built with real links, FIFOs and devices.

use std::path::Path;

use super::*;

const WALK: WalkLimits = WalkLimits {
    depth: 4,
    files: 100,
};

fn write(path: &Path, text: &str) {
    fs::write(path, text).expect("a temporary file");
}

#[cfg(unix)]
fn link(target: impl AsRef<Path>, at: &Path) {
    std::os::unix::fs::symlink(target, at).expect("a symbolic link");
}

#[cfg(unix)]
fn fifo(at: &Path) {
    use std::os::unix::ffi::OsStrExt;
    let name = std::ffi::CString::new(at.as_os_str().as_bytes()).expect("a path");
    // SAFETY: `name` is a valid NUL-terminated path that outlives the call.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o644) }, 0, "mkfifo");
}

#[test]
fn a_regular_file_within_the_limit_is_read_and_one_byte_over_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("x.lua");
    write(&file, "return 1");
    assert_eq!(read_bounded_text(&file, 8).unwrap(), "return 1");
    let error = read_bounded(&file, 7).unwrap_err();
    assert_eq!(error.problem, Problem::TooLarge { size: 8, limit: 7 });
    assert!(
        error
            .to_string()
            .contains("is 8 bytes, more than the 7 bytes allowed"),
        "{error}"
    );
}

#[cfg(unix)]
#[test]
fn a_link_to_dev_zero_is_refused_without_reading_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("x.wasm");
    link("/dev/zero", &file);
    let error = read_bounded(&file, 1 << 30).unwrap_err();
    assert_eq!(error.problem, Problem::NotRegular("a character device"));
    let found = find_files(dir.path(), "wasm", WALK);
    assert!(found.files.is_empty());
    assert!(
        found.skipped[0]
            .to_string()
            .ends_with("x.wasm is a character device, not a regular file"),
        "{:?}",
        found.skipped
    );
}

#[cfg(unix)]
#[test]
fn a_fifo_is_refused_without_waiting_for_a_writer() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("x.lua");
    fifo(&file);
    // Opening a FIFO for reading blocks until a writer comes, unless it is non-blocking:
    // this call returning at all is the test.
    let error = read_bounded(&file, 1024).unwrap_err();
    assert_eq!(error.problem, Problem::NotRegular("a FIFO (named pipe)"));
    let found = find_files(dir.path(), "lua", WALK);
    assert!(found.files.is_empty());
    assert_eq!(found.skipped.len(), 1);
}

#[cfg(unix)]
#[test]
fn a_link_back_to_its_own_folder_is_visited_once_and_reported() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("a.lua"), "return 1");
    let sub = dir.path().join("sub");
    fs::create_dir(&sub).unwrap();
    write(&sub.join("b.lua"), "return 2");
    link(".", &dir.path().join("self"));
    link("..", &sub.join("up"));
    link(&sub, &dir.path().join("again"));
    let found = find_files(dir.path(), "lua", WALK);
    assert_eq!(
        found.files,
        vec![dir.path().join("a.lua"), sub.join("b.lua")],
        "each script once"
    );
    let messages: Vec<String> = found.skipped.iter().map(ToString::to_string).collect();
    assert_eq!(messages.len(), 3, "{messages:?}");
    assert!(
        messages.iter().all(|m| m.contains("a folder already read")),
        "{messages:?}"
    );
}

#[cfg(unix)]
#[test]
fn looping_and_dangling_links_and_a_second_name_for_a_file_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("real.lua"), "return 1");
    link("real.lua", &dir.path().join("twin.lua"));
    link("b.lua", &dir.path().join("a.lua"));
    link("a.lua", &dir.path().join("b.lua"));
    link("nowhere.lua", &dir.path().join("gone.lua"));
    link("me.lua", &dir.path().join("me.lua"));
    let found = find_files(dir.path(), "lua", WALK);
    assert_eq!(found.files, vec![dir.path().join("real.lua")]);
    let problems: Vec<(String, Problem)> = found
        .skipped
        .iter()
        .map(|e| {
            let name = e.path.file_name().unwrap().to_string_lossy().into_owned();
            (name, e.problem.clone())
        })
        .collect();
    assert_eq!(
        problems,
        vec![
            ("a.lua".into(), Problem::LinkLoop),
            ("b.lua".into(), Problem::LinkLoop),
            ("gone.lua".into(), Problem::Dangling),
            ("me.lua".into(), Problem::LinkLoop),
            (
                "twin.lua".into(),
                Problem::SameAs(dir.path().join("real.lua"))
            ),
        ]
    );
}

#[test]
fn a_walk_stops_at_its_depth_and_file_count_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let mut deep = dir.path().to_path_buf();
    for level in 0..6 {
        deep = deep.join(format!("d{level}"));
        fs::create_dir(&deep).unwrap();
        write(&deep.join("x.lua"), "return 1");
    }
    let found = find_files(dir.path(), "lua", WALK);
    assert_eq!(found.files.len(), 4, "{:?}", found.files);
    assert!(matches!(
        found.skipped[..],
        [FileError {
            problem: Problem::TooDeep(4),
            ..
        }]
    ));
    for i in 0..5 {
        write(&dir.path().join(format!("f{i}.lua")), "return 1");
    }
    let found = find_files(dir.path(), "lua", WalkLimits { depth: 0, files: 3 });
    assert_eq!(found.files.len(), 3);
    assert_eq!(found.skipped.len(), 1);
    assert!(found.skipped[0]
        .to_string()
        .contains("holds more than 3 files"));
}

#[test]
fn a_missing_folder_is_empty_and_other_extensions_are_not_touched() {
    let dir = tempfile::tempdir().unwrap();
    let found = find_files(&dir.path().join("none"), "lua", WALK);
    assert!(found.files.is_empty() && found.skipped.is_empty());
    write(&dir.path().join("notes.txt"), "hello");
    let found = find_files(dir.path(), "lua", WALK);
    assert!(found.files.is_empty() && found.skipped.is_empty());
}

#[test]
fn sizes_read_as_people_write_them() {
    assert_eq!(human_size(812), "812 bytes");
    assert_eq!(human_size(64 * 1024), "64 KiB");
    assert_eq!(human_size(1536 * 1024), "1.5 MiB");
    assert_eq!(human_size(400 * 1024 * 1024), "400 MiB");
}
