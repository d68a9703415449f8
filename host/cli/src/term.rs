//! Everything the command line prints goes through here, with control characters quoted.
//!
//! Names, labels, texts and error messages come from plugins and scripts, which are not
//! trusted: printed raw, an escape sequence in a seat name clears the screen, retitles the
//! window or writes the clipboard (OSC 52). So, as git and ls do, control characters are
//! quoted before they reach the terminal: `ESC` prints as `\e`, a C1 control as `\u{9b}`.
//! Line breaks and tabs stay in running text ([`outln!`], [`errln!`]), and are quoted too
//! inside one-line fields ([`line`]). JSON output escapes them the JSON way ([`json`]).
//!
//! The rest of this crate never calls `println!` and friends (a test below checks): the only
//! raw control sequence the CLI writes on purpose is [`clear_screen`].

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::Write as _;

/// `text` with every control character but line breaks and tabs quoted.
pub fn quote(text: &str) -> Cow<'_, str> {
    quote_unless(text, |c| c == '\n' || c == '\t')
}

/// `text` for a one-line field (a name, a label, an id): every control character quoted,
/// line breaks and tabs included, so that a name cannot fake a line of output.
pub fn line(text: &str) -> Cow<'_, str> {
    quote_unless(text, |_| false)
}

/// Whether `c` changes how the terminal shows the rest of the line: a control character, or
/// one of Unicode's bidirectional controls (the right-to-left override U+202E and its kin),
/// which can make `evil.exe` of `exe.live` or reorder a score.
fn is_hazard(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{061c}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

fn quote_unless(text: &str, keep: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !text.chars().any(|c| is_hazard(c) && !keep(c)) {
        return Cow::Borrowed(text);
    }
    let mut quoted = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            c if !is_hazard(c) || keep(c) => quoted.push(c),
            '\n' => quoted.push_str("\\n"),
            '\t' => quoted.push_str("\\t"),
            '\r' => quoted.push_str("\\r"),
            '\u{1b}' => quoted.push_str("\\e"),
            c if (c as u32) < 0x80 => {
                let _ = write!(quoted, "\\x{:02x}", c as u32);
            }
            c => {
                let _ = write!(quoted, "\\u{{{:x}}}", c as u32);
            }
        }
    }
    Cow::Owned(quoted)
}

/// JSON text with the control characters `serde_json` leaves raw (DEL and the C1 controls,
/// which only occur inside strings) escaped as `\u00XX`: still valid JSON, safe to print.
pub fn json(text: &str) -> Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    let mut escaped = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        // Outside strings JSON has only spaces, tabs and line breaks: keep those.
        if c.is_control() && !matches!(c, '\n' | '\t' | '\r') {
            let _ = write!(escaped, "\\u{:04x}", c as u32);
        } else {
            escaped.push(c);
        }
    }
    Cow::Owned(escaped)
}

/// Writes `text` quoted, then a line break, to stdout.
pub fn out(text: &str) {
    let mut stdout = std::io::stdout().lock();
    stopped_reading(writeln!(stdout, "{}", quote(text)));
}

/// Writes `text` quoted, without a line break (a prompt), to stdout and flushes it.
pub fn prompt(text: &str) {
    let mut stdout = std::io::stdout().lock();
    stopped_reading(write!(stdout, "{}", quote(text)));
    stopped_reading(stdout.flush());
}

/// Ends the program quietly when whoever reads its output stopped reading
/// (`veillee sessions | head`): there is no one left to tell anything, and going on would
/// only keep a simulation or a game running for nobody. As ripgrep does, this exits with
/// success. Other write errors are ignored, as `println!` would not be.
fn stopped_reading(written: std::io::Result<()>) {
    if let Err(e) = written {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
    }
}

/// Sends what house-rule scripts `print` to stderr, quoted like everything else (see
/// `veillee_runtime::variants::print_to`): `check-variant`, `play` and `inspect`.
pub fn print_scripts_to_terminal() {
    veillee_runtime::variants::print_to(Some(std::sync::Arc::new(|text: &str| err(text))));
}

/// Writes `text` quoted, then a line break, to stderr.
pub fn err(text: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{}", quote(text));
}

/// Whether stderr is a terminal: only then may a progress line be rewritten in place
/// (`crate::progress`); a log or a test reads plain lines.
pub fn stderr_is_terminal() -> bool {
    use std::io::IsTerminal as _;
    std::io::stderr().is_terminal()
}

/// Clears the terminal (hot-seat hand-over): the one control sequence the CLI means.
pub fn clear_screen() {
    let mut stdout = std::io::stdout().lock();
    stopped_reading(write!(stdout, "\x1b[2J\x1b[H"));
    stopped_reading(stdout.flush());
}

/// `println!` with control characters quoted.
macro_rules! outln {
    () => { $crate::term::out("") };
    ($($arg:tt)*) => { $crate::term::out(&format!($($arg)*)) };
}

/// `eprintln!` with control characters quoted.
macro_rules! errln {
    ($($arg:tt)*) => { $crate::term::err(&format!($($arg)*)) };
}

pub(crate) use {errln, outln};

#[cfg(test)]
mod tests {
    use super::*;

    const CLEAR: &str = "\x1b[2J\x1b[H";
    const TITLE: &str = "\x1b]0;pwned\x07";
    const OSC52: &str = "\x1b]52;c;cm0gLXJmIH4=\x1b\\";

    #[test]
    fn escape_sequences_are_quoted() {
        assert_eq!(quote(&format!("a{CLEAR}b")), "a\\e[2J\\e[Hb");
        assert_eq!(quote(TITLE), "\\e]0;pwned\\x07");
        assert_eq!(quote(OSC52), "\\e]52;c;cm0gLXJmIH4=\\e\\");
        assert_eq!(quote("\u{9b}31m\u{7f}"), "\\u{9b}31m\\x7f");
        for text in [CLEAR, TITLE, OSC52, "\u{9b}2J"] {
            assert!(!quote(text).chars().any(|c| c.is_control()), "{text:?}");
        }
    }

    #[test]
    fn bidirectional_overrides_are_quoted_so_a_name_cannot_reorder_the_line() {
        assert_eq!(line("Ch\u{202e}ton\u{202c}"), "Ch\\u{202e}ton\\u{202c}");
        assert_eq!(
            quote("a\u{2066}b\u{2069}\u{200f}"),
            "a\\u{2066}b\\u{2069}\\u{200f}"
        );
        assert!(matches!(quote("עברית et français"), Cow::Borrowed(_)));
    }

    #[test]
    fn running_text_keeps_its_lines_but_fields_do_not() {
        assert_eq!(quote("Siège\nfin\t!"), "Siège\nfin\t!");
        assert!(matches!(quote("plain Château"), Cow::Borrowed(_)));
        assert_eq!(line("Ana\nWinner: Bruno\r"), "Ana\\nWinner: Bruno\\r");
    }

    #[test]
    fn json_stays_json() {
        let value = serde_json::json!({ "name": format!("x{CLEAR}\u{9b}\u{7f}") });
        let text = serde_json::to_string_pretty(&value).unwrap();
        let safe = json(&text);
        assert!(!safe.chars().any(|c| c.is_control() && c != '\n'), "{safe}");
        let back: serde_json::Value = serde_json::from_str(&safe).unwrap();
        assert_eq!(back, value);
    }

    /// Every print of this crate goes through this module: no other file may print raw.
    #[test]
    fn nothing_else_prints_raw() {
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut offenders = Vec::new();
        // The commands live in a folder of their own: every folder under `src` is read.
        let mut folders = vec![src.clone()];
        let mut files = Vec::new();
        while let Some(folder) = folders.pop() {
            for entry in std::fs::read_dir(&folder).unwrap() {
                let path = entry.unwrap().path();
                match path.is_dir() {
                    true => folders.push(path),
                    false => files.push(path),
                }
            }
        }
        assert!(
            files.iter().any(|p| p.ends_with("commands/play.rs")),
            "{files:?}"
        );
        for path in files {
            if path == src.join("term.rs") {
                continue;
            }
            let source = std::fs::read_to_string(&path).unwrap();
            for raw in [
                "println!",
                "print!",
                "eprintln!",
                "eprint!",
                "stdout()",
                "stderr()",
            ] {
                if source.contains(raw) {
                    offenders.push(format!("{} uses {raw}", path.display()));
                }
            }
        }
        assert!(offenders.is_empty(), "print through term.rs: {offenders:?}");
    }
}
