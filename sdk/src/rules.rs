//! A game's full rules, shipped in its [`crate::Manifest`], and the small Markdown subset they
//! are written in.
//!
//! The launcher shows them on its Rules screen, in the player's language, with a table of
//! contents of the `##` sections. [`parse`] is the one reading of the format: the host renders
//! its [`Block`]s, and a game's own tests can use it to check their text.

use serde::{Deserialize, Serialize};

/// A game's full rules in French and English, for players at a table.
///
/// Each text is written in a **small Markdown subset**, read by [`parse`]:
///
/// | write | for |
/// |---|---|
/// | `# Title` | the title (one, at the top) |
/// | `## Section` | a section; the launcher lists these as a table of contents |
/// | `### Subsection` | a subsection |
/// | lines separated by a blank line | paragraphs (consecutive lines are joined) |
/// | `- item` | a bullet list item; indented lines continue it |
/// | `1. item` | a numbered list item |
/// | `**words**` | bold, inside any paragraph, item or table cell |
/// | `` `d4xd6` `` | inline code: an action id, a command, a name to type (nothing inside is bold) |
/// | `\| a \| b \|` lines | a small table; a `\|---\|---\|` line after the first row makes it a header |
///
/// Nothing else is special: no links, images, italics, nested lists or HTML; such text shows
/// as written. Keep a table to a few short columns: a screen across the room is narrow.
///
/// ```
/// use veillee_sdk::{rules, Rules};
///
/// let rules = Rules::new(
///     "# Nim\n\n## But du jeu\n\nPrendre la **dernière** pierre.\n",
///     "# Nim\n\n## Goal\n\nTake the **last** stone.\n",
/// );
/// assert_eq!(rules.section_titles("en"), ["Goal"]);
/// assert_eq!(
///     rules::parse(rules.get("fr"))[2],
///     rules::Block::Paragraph(vec![
///         rules::Span::plain("Prendre la "),
///         rules::Span::bold("dernière"),
///         rules::Span::plain(" pierre."),
///     ])
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    /// The rules in French.
    pub fr: String,
    /// The rules in English.
    pub en: String,
}

impl Rules {
    /// The rules from their French and English texts (typically `include_str!` of two files).
    pub fn new(fr: impl Into<String>, en: impl Into<String>) -> Self {
        Rules {
            fr: fr.into(),
            en: en.into(),
        }
    }

    /// The text for a language code (`"fr"`, or anything else for English).
    pub fn get(&self, lang: &str) -> &str {
        if lang.starts_with("fr") {
            &self.fr
        } else {
            &self.en
        }
    }

    /// The titles of the `##` sections in one language, in order.
    pub fn section_titles(&self, lang: &str) -> Vec<String> {
        parse(self.get(lang))
            .into_iter()
            .filter_map(|block| match block {
                Block::Heading { level: 2, text } => Some(text),
                _ => None,
            })
            .collect()
    }
}

/// A run of text: plain, bold or inline code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    /// The text.
    pub text: String,
    /// Whether it was written `**like this**`.
    pub bold: bool,
    /// Whether it was written between backticks: an action id, a command, a name to type,
    /// shown in a fixed-width font.
    pub code: bool,
}

impl Span {
    /// Plain text.
    pub fn plain(text: impl Into<String>) -> Self {
        Span {
            text: text.into(),
            bold: false,
            code: false,
        }
    }

    /// Bold text.
    pub fn bold(text: impl Into<String>) -> Self {
        Span {
            bold: true,
            ..Span::plain(text)
        }
    }

    /// Inline code.
    pub fn code(text: impl Into<String>) -> Self {
        Span {
            code: true,
            ..Span::plain(text)
        }
    }
}

/// One block of a rules text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Block {
    /// `#`, `##` or `###` (level 1–3); its text without the `**` markers.
    Heading {
        /// 1 for the title, 2 for a section, 3 for a subsection.
        level: u8,
        /// The heading's words.
        text: String,
    },
    /// A paragraph.
    Paragraph(Vec<Span>),
    /// A list item: `number` is `None` for `- `, `Some(n)` for `n. `.
    Item {
        /// The number written before a numbered item.
        number: Option<u32>,
        /// Its text.
        spans: Vec<Span>,
    },
    /// A table: rows of cells.
    Table {
        /// Whether the first row is a header (a `|---|` line followed it).
        header: bool,
        /// The rows, each a list of cells.
        rows: Vec<Vec<Vec<Span>>>,
    },
}

/// Reads a rules text in the subset described on [`Rules`].
pub fn parse(text: &str) -> Vec<Block> {
    let mut parser = Parser::default();
    for line in text.lines() {
        parser.line(line);
    }
    parser.flush();
    parser.blocks
}

/// Splits a line of text into plain, bold and code runs. Code (between backticks) is taken
/// as written and may be bold (`` **`pass`** ``); an unmatched `` ` `` or `**` stays as
/// written.
pub fn spans(text: &str) -> Vec<Span> {
    let mut out: Vec<Span> = Vec::new();
    let mut run = String::new();
    let mut bold = false;
    let mut i = 0;
    while let Some(rest) = text.get(i..).filter(|r| !r.is_empty()) {
        if let Some(code) = rest
            .strip_prefix('`')
            .and_then(|r| Some(&r[..r.find('`').filter(|&end| end > 0)?]))
        {
            flush(&mut out, &mut run, bold);
            out.push(Span {
                bold,
                ..Span::code(code)
            });
            i += code.len() + 2;
            continue;
        }
        if let Some(after) = rest.strip_prefix("**") {
            if bold || after.find("**").is_some_and(|end| end > 0) {
                flush(&mut out, &mut run, bold);
                bold = !bold;
                i += 2;
                continue;
            }
        }
        let c = rest.chars().next().unwrap_or(' ');
        run.push(c);
        i += c.len_utf8();
    }
    flush(&mut out, &mut run, bold);
    out
}

/// Ends the run of plain or bold text gathered so far.
fn flush(out: &mut Vec<Span>, run: &mut String, bold: bool) {
    if run.is_empty() {
        return;
    }
    match out.last_mut() {
        Some(last) if last.bold == bold && !last.code => last.text.push_str(run),
        _ => out.push(Span {
            bold,
            ..Span::plain(run.as_str())
        }),
    }
    run.clear();
}

/// What is being gathered, line by line.
#[derive(Default)]
enum Open {
    #[default]
    Nothing,
    Paragraph(String),
    Item(Option<u32>, String),
    Table(bool, Vec<Vec<String>>),
}

#[derive(Default)]
struct Parser {
    blocks: Vec<Block>,
    open: Open,
}

impl Parser {
    fn flush(&mut self) {
        let block = match std::mem::take(&mut self.open) {
            Open::Nothing => return,
            Open::Paragraph(text) => Block::Paragraph(spans(&text)),
            Open::Item(number, text) => Block::Item {
                number,
                spans: spans(&text),
            },
            Open::Table(header, rows) => Block::Table {
                header,
                rows: rows
                    .iter()
                    .map(|row| row.iter().map(|cell| spans(cell)).collect())
                    .collect(),
            },
        };
        self.blocks.push(block);
    }

    fn line(&mut self, line: &str) {
        let trimmed = line.trim();
        if trimmed.is_empty() {
            return self.flush();
        }
        let indented = line.starts_with([' ', '\t']);
        if let Some((level, text)) = heading(line) {
            self.flush();
            let text = spans(text).into_iter().map(|s| s.text).collect();
            self.blocks.push(Block::Heading { level, text });
        } else if let Some(rest) = trimmed.strip_prefix("- ").filter(|_| !indented) {
            self.flush();
            self.open = Open::Item(None, rest.trim().into());
        } else if let Some((number, rest)) = numbered(trimmed).filter(|_| !indented) {
            self.flush();
            self.open = Open::Item(Some(number), rest.trim().into());
        } else if trimmed.starts_with('|') {
            let cells = cells(trimmed);
            let separator = cells
                .iter()
                .all(|c| !c.is_empty() && c.chars().all(|ch| matches!(ch, '-' | ':' | ' ')));
            match &mut self.open {
                Open::Table(header, rows) => {
                    if separator && rows.len() == 1 {
                        *header = true;
                    } else if !separator {
                        rows.push(cells);
                    }
                }
                _ => {
                    self.flush();
                    self.open = Open::Table(false, vec![cells]);
                }
            }
        } else {
            match &mut self.open {
                Open::Paragraph(text) | Open::Item(_, text) => {
                    text.push(' ');
                    text.push_str(trimmed);
                }
                _ => {
                    self.flush();
                    self.open = Open::Paragraph(trimmed.into());
                }
            }
        }
    }
}

/// `## Words` → (2, "Words"), for levels 1–3.
fn heading(line: &str) -> Option<(u8, &str)> {
    let hashes = line.bytes().take_while(|&b| b == b'#').count();
    let rest = line[hashes..].strip_prefix(' ')?;
    (1..=3)
        .contains(&hashes)
        .then(|| (hashes as u8, rest.trim()))
}

/// `12. Words` → (12, "Words").
fn numbered(line: &str) -> Option<(u32, &str)> {
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 3 {
        return None;
    }
    let rest = line[digits..].strip_prefix(". ")?;
    Some((line[..digits].parse().ok()?, rest))
}

/// `| a | b |` → ["a", "b"].
fn cells(line: &str) -> Vec<String> {
    let inner = line.strip_prefix('|').unwrap_or(line);
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    inner.split('|').map(|c| c.trim().to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(text: &str) -> Block {
        Block::Item {
            number: None,
            spans: vec![Span::plain(text)],
        }
    }

    #[test]
    fn headings_paragraphs_lists_and_bold_are_read() {
        let text = "# Siège\n\
                    \n\
                    ## But du jeu\n\
                    Prendre le **seigneur**,\n\
                    ou tous les chevaliers.\n\
                    \n\
                    ### Détail\n\
                    - un\n\
                    - deux,\n  \
                      suite\n\
                    1. premier\n\
                    12. douzième\n\
                    \n\
                    Fin **non fermée\n";
        assert_eq!(
            parse(text),
            vec![
                Block::Heading {
                    level: 1,
                    text: "Siège".into()
                },
                Block::Heading {
                    level: 2,
                    text: "But du jeu".into()
                },
                Block::Paragraph(vec![
                    Span::plain("Prendre le "),
                    Span::bold("seigneur"),
                    Span::plain(", ou tous les chevaliers."),
                ]),
                Block::Heading {
                    level: 3,
                    text: "Détail".into()
                },
                item("un"),
                item("deux, suite"),
                Block::Item {
                    number: Some(1),
                    spans: vec![Span::plain("premier")]
                },
                Block::Item {
                    number: Some(12),
                    spans: vec![Span::plain("douzième")]
                },
                Block::Paragraph(vec![Span::plain("Fin **non fermée")]),
            ]
        );
    }

    #[test]
    fn tables_with_and_without_a_header() {
        let text = "| joueurs | main |\n|---|:---:|\n| 2 | **9** |\n\n| a | b |\n| c | d |\n";
        assert_eq!(
            parse(text),
            vec![
                Block::Table {
                    header: true,
                    rows: vec![
                        vec![vec![Span::plain("joueurs")], vec![Span::plain("main")]],
                        vec![vec![Span::plain("2")], vec![Span::bold("9")]],
                    ],
                },
                Block::Table {
                    header: false,
                    rows: vec![
                        vec![vec![Span::plain("a")], vec![Span::plain("b")]],
                        vec![vec![Span::plain("c")], vec![Span::plain("d")]],
                    ],
                },
            ]
        );
    }

    #[test]
    fn what_is_not_in_the_subset_shows_as_written() {
        assert_eq!(
            parse("#### four\n#nospace\n- \n3.no space\n****\n"),
            vec![Block::Paragraph(vec![Span::plain(
                "#### four #nospace - 3.no space ****"
            )])]
        );
        assert_eq!(spans("a **b** c **d**"), {
            vec![
                Span::plain("a "),
                Span::bold("b"),
                Span::plain(" c "),
                Span::bold("d"),
            ]
        });
    }

    #[test]
    fn inline_code_is_taken_as_written() {
        assert_eq!(
            spans("jouez `d4xd6` ou **`pass`**, pas `**ici**` ni `"),
            vec![
                Span::plain("jouez "),
                Span::code("d4xd6"),
                Span::plain(" ou "),
                Span {
                    bold: true,
                    ..Span::code("pass")
                },
                Span::plain(", pas "),
                Span::code("**ici**"),
                Span::plain(" ni `"),
            ]
        );
        assert_eq!(spans("``"), vec![Span::plain("``")]);
    }

    #[test]
    fn section_titles_and_languages() {
        let rules = Rules::new(
            "# T\n## Un **gras**\ntexte\n## Deux\n",
            "# T\n## One\n### Sub\n",
        );
        assert_eq!(rules.section_titles("fr"), ["Un gras", "Deux"]);
        assert_eq!(rules.section_titles("en"), ["One"]);
        assert_eq!(rules.get("fr-CA"), rules.fr);
        assert_eq!(rules.get("de"), rules.en);
    }
}
