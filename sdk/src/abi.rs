//! The plugin ABI: how a game compiled to WebAssembly talks to the Veillée host.
//!
//! You never use this module directly: [`crate::export_game!`] writes the exports for you.
//! It is documented for the host and for authors of plugins in other languages.
//!
//! # Version
//!
//! [`ABI_MAJOR`].[`ABI_MINOR`]. The host refuses a plugin of another major version. A minor
//! version adds exports or optional JSON fields and stays compatible.
//!
//! # Shape
//!
//! A plugin is a core WebAssembly module for `wasm32-unknown-unknown` that imports nothing
//! and exports its `memory` and the functions below. Structured data crosses as UTF-8 JSON
//! (the serde form of this crate's types). The host writes inputs into a guest buffer
//! obtained from `veillee_input`, and reads outputs from `veillee_output_ptr()`.
//!
//! Fallible calls return an `i64` *result*: `r >= 0` is success — a length of JSON now in the
//! output buffer, a handle or a count, depending on the call; `r < 0` is a [`crate::GameError`]
//! whose JSON (of length `-r - 1`) is in the output buffer.
//!
//! | export | signature | meaning |
//! |---|---|---|
//! | `veillee_abi_version` | `() -> i32` | `ABI_MAJOR << 16 \| ABI_MINOR` |
//! | `veillee_input` | `(len: i32) -> i32` | pointer to an input buffer of `len` bytes |
//! | `veillee_output_ptr` | `() -> i32` | pointer to the output buffer |
//! | `veillee_manifest` | `() -> i64` | JSON [`crate::Manifest`] |
//! | `veillee_new` | `(setup_len: i32) -> i64` | input: JSON [`crate::Setup`]; handle |
//! | `veillee_load` | `(state_len: i32) -> i64` | input: a saved state; handle |
//! | `veillee_save` | `(h: i32) -> i64` | the state's bytes |
//! | `veillee_clone` | `(h: i32) -> i64` | handle of a copy |
//! | `veillee_drop` | `(h: i32)` | forget a game |
//! | `veillee_status` | `(h: i32) -> i64` | JSON [`crate::Status`] |
//! | `veillee_legal_actions` | `(h: i32, seat: i32) -> i64` | JSON list of [`crate::Action`] |
//! | `veillee_apply` | `(h: i32, seat: i32, id_len: i32) -> i64` | input: action id; JSON list of [`crate::Event`] |
//! | `veillee_action_count` | `(h: i32, seat: i32) -> i64` | number of legal actions |
//! | `veillee_apply_index` | `(h: i32, seat: i32, index: i32) -> i64` | `0` |
//! | `veillee_view` | `(h: i32, viewer: i32) -> i64` | JSON [`crate::Scene`]; viewer `-1` is a spectator |
//! | `veillee_playout` | `(h: i32, seed: i64, max_moves: i32) -> i64` | JSON [`crate::PlayoutResult`] |
//! | `veillee_redraw_hidden` | `(h: i32, viewer: i32, seed: i64) -> i64` | handle of a re-drawn copy |
//! | `veillee_panic_message` | `() -> i64` | after a trap: `ptr << 32 \| len` of the panic text |
//! | `veillee_operation` | `(h: i32, call_len: i32) -> i64` | since 1.1, optional: input: JSON [`crate::OperationCall`]; the operation's JSON answer |
//! | `veillee_playout_until` | `(h: i32, seed: i64, max_moves: i32, watch_len: i32) -> i64` | since 1.7, optional: input: JSON [`crate::PlayoutWatch`]; JSON [`crate::PlayoutStop`] |
//! | `veillee_search` | `(h: i32, seat: i32, request_len: i32) -> i64` | since 1.8, optional: input: JSON [`crate::search::SearchRequest`]; JSON [`crate::search::SearchAnswer`] |
//! | `veillee_evaluate` | `(h: i32, players: i32) -> i64` | since 1.8, optional: JSON list of [`crate::Game::evaluate`] per seat, each in `[0, 1]` |
//! | `veillee_playout_packed` | `(h: i32, seed: i64, max_moves: i32) -> i64` | since 1.13, optional: `veillee_playout`'s game, its [`crate::PlayoutResult`] packed ([`packed`]) |
//!
//! [`OPTIONAL_EXPORTS`] lists the exports added by minor versions: a plugin of an older minor
//! version may lack them, and the host then treats the feature as absent (a 1.0 plugin
//! offers no operations).
//!
//! # Versions
//!
//! Every minor version of major 1, in order. The host reads a plugin's minor version only to
//! name it in messages: it finds an optional export by its presence and reads a missing JSON
//! field as its serde default, and the SDK's types do not refuse unknown fields. So the last two
//! columns are what an older plugin gets from this host, and what an older host does with a
//! newer plugin.
//!
//! | Version | What it added | What an older plugin gets | What an older host does |
//! |---|---|---|---|
//! | 1.0 | The exports of the table above without a "since" — games by handle, JSON across, `veillee_action_count` / `veillee_apply_index` and `veillee_playout` as the integer hot path, `veillee_redraw_hidden`, `veillee_panic_message`. | — (the first version) | — |
//! | 1.1 | The optional export `veillee_operation`: a game's declared queries and commands, for house rules ([`crate::OperationCall`]). | No operations: it simply offers none. | Never calls it. |
//! | 1.2 | The optional manifest field `rules` ([`crate::Rules`]: the game's full rules in French and English, in the Markdown subset of [`crate::rules::parse`]). | Its description on the Rules screen instead. | Ignores the field. |
//! | 1.3 | The optional scene field `Piece::name` (what a piece is, in both languages, when its short label does not say it). | No names: a piece is known by its label alone. | Ignores the field. |
//! | 1.4 | The optional fields `Action::private` and `Event::private` ([`crate::Private`]: what the acting seat, or the seats named, read instead of the public `label` / `text`). | All its texts public, as they always were. | Shows everyone the public text. |
//! | 1.5 | Nothing: there is no version 1.5. Three lines of work begun from 1.3 at the same time numbered their additions 1.4, 1.6 and 1.7, and no commit ever set [`ABI_MINOR`] to 5; why 1.5 was left out is not recorded. No SDK, host or plugin declares it. | — | — |
//! | 1.6 | The optional scene fields `Board::layout` (squares, points joined by lines, hexagons, a track: [`crate::Layout`]) and `Board::lines`; places stay cells `(col, row)` in every layout. | Squares and no lines, which is what it drew. | Draws squares, where the same clicks still name the same cells. |
//! | 1.7 | The optional export `veillee_playout_until`: a random playout that stops before the actions a [`crate::PlayoutWatch`] names (`listed`, `played`) and answers a [`crate::PlayoutStop`], so that a game with house rules is played inside the plugin between the moves they watch. | Its games with house rules played move by move through the host. | Never calls it. |
//! | 1.8 | The optional exports `veillee_search` (a bot's information-set search inside the plugin, [`crate::search`]) and `veillee_evaluate` (the game's own value per seat, for the host's search when scripts change the rules). | A bot that searches through the engine, valuing a game by its status alone (an unfinished game is worth ½), so its playouts run to the end. | Never calls them. |
//! | 1.9 | The optional custom section [`MANIFEST_SECTION`] (below). | Compiled before it is listed. | Ignores custom sections. |
//! | 1.10 | The optional field `PlayoutWatch::rules` ([`crate::WatchRule`]: the seats a watch is about, drawn added actions up to a bound, a stop only when a move changes what a query answers) and `PlayoutStop::extra`. | It follows `listed` and `played`, which the host fills with a coarser watch: it stops more often and plays the same rules. | Sends no rules. |
//! | 1.11 | The optional scene field `Card::die` ([`crate::Die`]: a card drawn as a die, its faces and the one on top, with a roll number) and the optional manifest field `play_time` ([`crate::PlayTime`]: how long a game takes at the table). | No dice; no length on its library card. | Draws a die as the card whose title and colour name its face. |
//! | 1.12 | The optional field `Action::bots_avoid` ([`crate::Game::bot_may_choose`]: a legal action a bot's search leaves out, so that the host's search through the engine prunes what the plugin's own search prunes). | No action marked: its bots search as before. | Ignores the field. |
//! | 1.13 | The optional export `veillee_playout_packed`: `veillee_playout`'s game, its result as little-endian integers and two texts ([`packed`]), read by the host in place in the plugin's memory — no JSON per random game. | `veillee_playout` and its JSON, playing exactly as before. | Calls `veillee_playout`. |
//! | 1.14 | The optional field `SearchRequest::tactics` ([`crate::search::Tactics`]: an exact win/loss check of the root's moves, a few plies deep, before the tree search) and the answer's optional `proven` and `checked`. | Its bots search as before, without the check: they may still miss a short forced line. | Sends no `tactics`; ignores the answer's new fields. |
//!
//! A packed result that does not add up (cut short, bytes after its end, unknown flags, a
//! count beyond the bytes sent, reasons that are not UTF-8) is a protocol violation of that
//! export, found before anything is allocated; its outcome is then checked like any other.
//!
//! # The manifest section (1.9)
//!
//! A plugin file may carry its manifest — the very JSON `veillee_manifest` answers — in a
//! custom section named [`MANIFEST_SECTION`], so that a launcher can list the game without
//! compiling it (compiling a game takes seconds; reading a section, microseconds). The host
//! treats the section as a claim: it lists the game from it, and refuses the plugin when,
//! once compiled, its `veillee_manifest` answers anything else. A plugin without the section
//! is compiled before it is listed, as before 1.9. [`with_manifest_section`] writes it.

/// Major version of the plugin ABI. A host and a plugin must agree on it.
pub const ABI_MAJOR: u16 = 1;
/// Minor version of the plugin ABI: additions only.
pub const ABI_MINOR: u16 = 14;

pub mod packed;

/// The name of the optional custom section holding the plugin's manifest as JSON (ABI 1.9).
pub const MANIFEST_SECTION: &str = "veillee-manifest";

/// `module` with `manifest` written into its [`MANIFEST_SECTION`] custom section, as the
/// JSON `veillee_manifest` answers; a section of that name already there is replaced (so a
/// file holds one at most). Fails when `module` is not a core WebAssembly module or its
/// sections do not add up.
pub fn with_manifest_section(module: &[u8], manifest: &crate::Manifest) -> Result<Vec<u8>, String> {
    let json = serde_json::to_vec(manifest).map_err(|e| e.to_string())?;
    let header = module
        .get(..8)
        .filter(|h| h.starts_with(b"\0asm") && h[4..] == [1, 0, 0, 0])
        .ok_or("not a core WebAssembly module (no `\\0asm` version 1 header)")?;
    let mut out = header.to_vec();
    let mut at = 8;
    while at < module.len() {
        let start = at;
        let id = module[at];
        let (size, size_len) = read_leb(&module[at + 1..])
            .ok_or_else(|| format!("the section at byte {start} has no readable size"))?;
        let body = at + 1 + size_len;
        let end = body
            .checked_add(size as usize)
            .filter(|&end| end <= module.len())
            .ok_or_else(|| format!("the section at byte {start} runs past the end of the file"))?;
        let ours = id == 0
            && read_leb(&module[body..end]).is_some_and(|(len, len_len)| {
                module[body + len_len..end].starts_with(MANIFEST_SECTION.as_bytes())
                    && len as usize == MANIFEST_SECTION.len()
            });
        if !ours {
            out.extend_from_slice(&module[start..end]);
        }
        at = end;
    }
    let mut name = Vec::new();
    write_leb(&mut name, MANIFEST_SECTION.len() as u32);
    name.extend_from_slice(MANIFEST_SECTION.as_bytes());
    let size = u32::try_from(name.len() + json.len()).map_err(|_| "the manifest is too large")?;
    out.push(0);
    write_leb(&mut out, size);
    out.extend_from_slice(&name);
    out.extend_from_slice(&json);
    Ok(out)
}

/// An unsigned LEB128 `u32` at the start of `bytes`: (value, bytes it took).
fn read_leb(bytes: &[u8]) -> Option<(u32, usize)> {
    let mut value = 0u32;
    for (i, &byte) in bytes.iter().enumerate().take(5) {
        value |= u32::from(byte & 0x7f).checked_shl(7 * i as u32)?;
        if byte & 0x80 == 0 {
            return Some((value, i + 1));
        }
    }
    None
}

fn write_leb(out: &mut Vec<u8>, mut value: u32) {
    loop {
        let byte = (value & 0x7f) as u8;
        value >>= 7;
        if value == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// The ABI version as `veillee_abi_version` returns it.
pub const fn encoded_version() -> i32 {
    ((ABI_MAJOR as i32) << 16) | ABI_MINOR as i32
}

/// Splits an encoded ABI version into (major, minor).
pub const fn decode_version(encoded: i32) -> (u16, u16) {
    ((encoded >> 16) as u16, (encoded & 0xffff) as u16)
}

/// Every function a plugin must export, with its parameter and result counts
/// (`i32`/`i64` as in the table above).
pub const REQUIRED_EXPORTS: &[&str] = &[
    "veillee_abi_version",
    "veillee_input",
    "veillee_output_ptr",
    "veillee_manifest",
    "veillee_new",
    "veillee_load",
    "veillee_save",
    "veillee_clone",
    "veillee_drop",
    "veillee_status",
    "veillee_legal_actions",
    "veillee_apply",
    "veillee_action_count",
    "veillee_apply_index",
    "veillee_view",
    "veillee_playout",
    "veillee_redraw_hidden",
    "veillee_panic_message",
];

/// Exports added by minor versions, as (name, minor version that added it). The host
/// accepts a plugin without them; when present they must have the documented type.
pub const OPTIONAL_EXPORTS: &[(&str, u16)] = &[
    ("veillee_operation", 1),
    ("veillee_playout_until", 7),
    ("veillee_search", 8),
    ("veillee_evaluate", 8),
    ("veillee_playout_packed", 13),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{text, Colour, Manifest, SeatInfo};

    fn manifest(id: &str) -> Manifest {
        Manifest {
            id: id.into(),
            name: text("Démo", "Demo"),
            description: text("", ""),
            version: "1.0.0".into(),
            min_players: 1,
            max_players: 1,
            seats: vec![SeatInfo {
                name: text("A", "A"),
                colour: Colour::rgb(1, 2, 3),
            }],
            options: Vec::new(),
            hidden_information: false,
            operations: Vec::new(),
            rules: None,
            play_time: None,
        }
    }

    /// The custom sections of a module, as (name, payload).
    fn custom_sections(module: &[u8]) -> Vec<(String, Vec<u8>)> {
        let mut found = Vec::new();
        let mut at = 8;
        while at < module.len() {
            let (size, len) = read_leb(&module[at + 1..]).unwrap();
            let body = at + 1 + len;
            let end = body + size as usize;
            if module[at] == 0 {
                let (name_len, len) = read_leb(&module[body..]).unwrap();
                let name = &module[body + len..body + len + name_len as usize];
                let payload = &module[body + len + name_len as usize..end];
                found.push((String::from_utf8(name.to_vec()).unwrap(), payload.to_vec()));
            }
            at = end;
        }
        found
    }

    /// An empty module with a type section and another custom section.
    const MODULE: &[u8] = b"\0asm\x01\0\0\0\x01\x01\x00\x00\x05\x04name";

    #[test]
    fn the_manifest_section_holds_the_manifest_json_once_and_keeps_the_other_sections() {
        let once = with_manifest_section(MODULE, &manifest("one")).unwrap();
        let twice = with_manifest_section(&once, &manifest("two")).unwrap();
        assert!(
            twice.starts_with(&MODULE[..11]),
            "the type section is kept first"
        );
        let sections = custom_sections(&twice);
        let names: Vec<&str> = sections.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["name", MANIFEST_SECTION]);
        let read: Manifest = serde_json::from_slice(&sections[1].1).unwrap();
        assert_eq!(read, manifest("two"));
    }

    #[test]
    fn a_file_that_is_not_a_module_or_whose_sections_overrun_gets_no_section() {
        let error = with_manifest_section(b"GIF89a..", &manifest("x")).unwrap_err();
        assert!(error.contains("not a core WebAssembly module"), "{error}");
        let cut = &MODULE[..MODULE.len() - 2];
        let error = with_manifest_section(cut, &manifest("x")).unwrap_err();
        assert!(error.contains("runs past the end"), "{error}");
    }

    #[test]
    fn leb128_round_trips() {
        for value in [0, 1, 127, 128, 300, 16_384, u32::MAX] {
            let mut bytes = Vec::new();
            write_leb(&mut bytes, value);
            assert_eq!(read_leb(&bytes), Some((value, bytes.len())));
        }
        assert_eq!(read_leb(&[0x80, 0x80]), None);
    }
}

/// The guest side of the ABI, used by [`crate::export_game!`].
#[doc(hidden)]
pub mod guest {
    use std::any::Any;
    use std::cell::RefCell;

    use serde::Serialize;

    use crate::search::SearchRequest;
    use crate::{Game, GameError, GameTable, OperationCall, PlayoutWatch, Seat, Setup};

    thread_local! {
        static TABLE: RefCell<Option<Box<dyn Any>>> = const { RefCell::new(None) };
        static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
        static OUTPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
        static PANIC: RefCell<String> = const { RefCell::new(String::new()) };
    }

    /// Installs the hook that keeps a panic's message for `veillee_panic_message`.
    fn install_panic_hook() {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            std::panic::set_hook(Box::new(|info| {
                let message = info.to_string();
                // `try_with`/`try_borrow_mut`: a panic while the hook runs must not recurse.
                let _ = PANIC.try_with(|p| {
                    if let Ok(mut p) = p.try_borrow_mut() {
                        *p = message;
                    }
                });
            }));
        });
    }

    fn with_table<G: Game, R>(f: impl FnOnce(&mut GameTable<G>) -> R) -> R {
        install_panic_hook();
        TABLE.with(|cell| {
            let mut slot = cell.borrow_mut();
            let table = slot.get_or_insert_with(|| Box::new(GameTable::<G>::default()));
            let table = table
                .downcast_mut::<GameTable<G>>()
                .expect("one game type per plugin");
            f(table)
        })
    }

    fn input(len: i32) -> Vec<u8> {
        INPUT.with(|buf| {
            let buf = buf.borrow();
            buf[..(len.max(0) as usize).min(buf.len())].to_vec()
        })
    }

    fn output(bytes: Vec<u8>) -> i64 {
        let len = bytes.len() as i64;
        OUTPUT.with(|buf| *buf.borrow_mut() = bytes);
        len
    }

    fn fail(error: GameError) -> i64 {
        let json = serde_json::to_vec(&error).unwrap_or_default();
        -output(json) - 1
    }

    fn json<T: Serialize>(result: Result<T, GameError>) -> i64 {
        match result
            .and_then(|v| serde_json::to_vec(&v).map_err(|e| GameError::Protocol(e.to_string())))
        {
            Ok(bytes) => output(bytes),
            Err(e) => fail(e),
        }
    }

    fn number(result: Result<u32, GameError>) -> i64 {
        match result {
            Ok(n) => n as i64,
            Err(e) => fail(e),
        }
    }

    fn seat(seat: i32) -> Result<Seat, GameError> {
        Seat::try_from(seat)
            .map_err(|_| GameError::Protocol(format!("seat {seat} is out of range")))
    }

    fn viewer(viewer: i32) -> Result<Option<Seat>, GameError> {
        if viewer < 0 {
            Ok(None)
        } else {
            seat(viewer).map(Some)
        }
    }

    pub fn abi_version() -> i32 {
        super::encoded_version()
    }

    pub fn input_buffer(len: i32) -> i32 {
        INPUT.with(|buf| {
            let mut buf = buf.borrow_mut();
            buf.clear();
            buf.resize(len.max(0) as usize, 0);
            buf.as_mut_ptr() as i32
        })
    }

    pub fn output_ptr() -> i32 {
        OUTPUT.with(|buf| buf.borrow().as_ptr() as i32)
    }

    pub fn manifest<G: Game>() -> i64 {
        install_panic_hook();
        json(Ok(G::manifest()))
    }

    pub fn new<G: Game>(setup_len: i32) -> i64 {
        let setup = serde_json::from_slice::<Setup>(&input(setup_len))
            .map_err(|e| GameError::InvalidSetup(e.to_string()));
        number(setup.and_then(|s| with_table::<G, _>(|t| t.create(&s))))
    }

    pub fn load<G: Game>(state_len: i32) -> i64 {
        let bytes = input(state_len);
        number(with_table::<G, _>(|t| t.load(&bytes)))
    }

    pub fn save<G: Game>(h: i32) -> i64 {
        match with_table::<G, _>(|t| t.save(h as u32)) {
            Ok(bytes) => output(bytes),
            Err(e) => fail(e),
        }
    }

    pub fn clone_game<G: Game>(h: i32) -> i64 {
        number(with_table::<G, _>(|t| t.clone_game(h as u32)))
    }

    pub fn drop_game<G: Game>(h: i32) {
        with_table::<G, _>(|t| t.drop_game(h as u32))
    }

    pub fn status<G: Game>(h: i32) -> i64 {
        json(with_table::<G, _>(|t| t.status(h as u32)))
    }

    pub fn legal_actions<G: Game>(h: i32, s: i32) -> i64 {
        json(seat(s).and_then(|s| with_table::<G, _>(|t| t.legal_actions(h as u32, s))))
    }

    pub fn apply<G: Game>(h: i32, s: i32, id_len: i32) -> i64 {
        let id = String::from_utf8(input(id_len))
            .map_err(|_| GameError::Protocol("action id is not UTF-8".into()));
        json(
            seat(s)
                .and_then(|s| id.and_then(|id| with_table::<G, _>(|t| t.apply(h as u32, s, &id)))),
        )
    }

    pub fn action_count<G: Game>(h: i32, s: i32) -> i64 {
        number(seat(s).and_then(|s| with_table::<G, _>(|t| t.action_count(h as u32, s))))
    }

    pub fn apply_index<G: Game>(h: i32, s: i32, index: i32) -> i64 {
        number(seat(s).and_then(|s| {
            with_table::<G, _>(|t| t.apply_index(h as u32, s, index as u32).map(|()| 0))
        }))
    }

    pub fn view<G: Game>(h: i32, v: i32) -> i64 {
        json(viewer(v).and_then(|v| with_table::<G, _>(|t| t.view(h as u32, v))))
    }

    pub fn playout<G: Game>(h: i32, seed: i64, max_moves: i32) -> i64 {
        json(with_table::<G, _>(|t| {
            t.playout(h as u32, seed as u64, max_moves.max(0) as u32)
        }))
    }

    /// `playout`, its result packed into the kept output buffer (no allocation once it has
    /// grown; ABI 1.13).
    pub fn playout_packed<G: Game>(h: i32, seed: i64, max_moves: i32) -> i64 {
        let result =
            with_table::<G, _>(|t| t.playout(h as u32, seed as u64, max_moves.max(0) as u32));
        let packed = result.and_then(|result| {
            OUTPUT.with(|buf| {
                let mut buf = buf.borrow_mut();
                buf.clear();
                super::packed::write(&result, &mut buf)
                    .map(|()| buf.len() as i64)
                    .map_err(GameError::Protocol)
            })
        });
        packed.unwrap_or_else(fail)
    }

    pub fn redraw_hidden<G: Game>(h: i32, v: i32, seed: i64) -> i64 {
        number(
            viewer(v)
                .and_then(|v| with_table::<G, _>(|t| t.redraw_hidden(h as u32, v, seed as u64))),
        )
    }

    pub fn operation<G: Game>(h: i32, call_len: i32) -> i64 {
        let call = serde_json::from_slice::<OperationCall>(&input(call_len))
            .map_err(|e| GameError::Protocol(format!("bad operation call: {e}")));
        json(call.and_then(|call| with_table::<G, _>(|t| t.operation(h as u32, &call))))
    }

    pub fn playout_until<G: Game>(h: i32, seed: i64, max_moves: i32, watch_len: i32) -> i64 {
        let watch = serde_json::from_slice::<PlayoutWatch>(&input(watch_len))
            .map_err(|e| GameError::Protocol(format!("bad playout watch: {e}")));
        json(watch.and_then(|watch| {
            with_table::<G, _>(|t| {
                t.playout_until(h as u32, seed as u64, max_moves.max(0) as u32, &watch)
            })
        }))
    }

    pub fn search<G: Game>(h: i32, s: i32, request_len: i32) -> i64 {
        let request = serde_json::from_slice::<SearchRequest>(&input(request_len))
            .map_err(|e| GameError::Protocol(format!("bad search request: {e}")));
        json(
            seat(s).and_then(|s| {
                request.and_then(|r| with_table::<G, _>(|t| t.search(h as u32, s, &r)))
            }),
        )
    }

    pub fn evaluate<G: Game>(h: i32, players: i32) -> i64 {
        let players = u8::try_from(players)
            .map_err(|_| GameError::Protocol(format!("{players} players is out of range")));
        json(players.and_then(|p| with_table::<G, _>(|t| t.evaluate(h as u32, p))))
    }

    pub fn panic_message() -> i64 {
        thread_local! {
            static MESSAGE: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
        }
        let text = PANIC.with(|p| p.try_borrow().map(|p| p.clone()).unwrap_or_default());
        MESSAGE.with(|m| {
            let mut m = m.borrow_mut();
            *m = text.into_bytes();
            ((m.as_ptr() as i64) << 32) | m.len() as i64
        })
    }
}

/// Exports a [`crate::Game`] as a Veillée plugin. Write it once, at the root of your crate:
///
/// ```ignore
/// veillee_sdk::export_game!(MyGame);
/// ```
///
/// It only does something when compiling for `wasm32`; native builds (tests, benchmarks)
/// are unaffected.
#[macro_export]
macro_rules! export_game {
    ($game:ty) => {
        #[cfg(target_arch = "wasm32")]
        const _: () = {
            use $crate::abi::guest;
            #[unsafe(no_mangle)]
            pub extern "C" fn veillee_abi_version() -> i32 {
                guest::abi_version()
            }
            #[unsafe(no_mangle)]
            pub extern "C" fn veillee_input(len: i32) -> i32 {
                guest::input_buffer(len)
            }
            #[unsafe(no_mangle)]
            pub extern "C" fn veillee_output_ptr() -> i32 {
                guest::output_ptr()
            }
            #[unsafe(no_mangle)]
            pub extern "C" fn veillee_manifest() -> i64 {
                guest::manifest::<$game>()
            }
            #[unsafe(no_mangle)]
            pub extern "C" fn veillee_new(len: i32) -> i64 {
                guest::new::<$game>(len)
            }
            #[unsafe(no_mangle)]
            pub extern "C" fn veillee_load(len: i32) -> i64 {
                guest::load::<$game>(len)
            }
            #[unsafe(no_mangle)]
            pub extern "C" fn veillee_save(h: i32) -> i64 {
                guest::save::<$game>(h)
            }
            #[unsafe(no_mangle)]
            pub extern "C" fn veillee_clone(h: i32) -> i64 {
                guest::clone_game::<$game>(h)
            }
            #[unsafe(no_mangle)]
            pub extern "C" fn veillee_drop(h: i32) {
                guest::drop_game::<$game>(h)
            }
            #[unsafe(no_mangle)]
            pub extern "C" fn veillee_status(h: i32) -> i64 {
                guest::status::<$game>(h)
            }
            #[unsafe(no_mangle)]
            pub extern "C" fn veillee_legal_actions(h: i32, s: i32) -> i64 {
                guest::legal_actions::<$game>(h, s)
            }
            #[unsafe(no_mangle)]
            pub extern "C" fn veillee_apply(h: i32, s: i32, len: i32) -> i64 {
                guest::apply::<$game>(h, s, len)
            }
            #[unsafe(no_mangle)]
            pub extern "C" fn veillee_action_count(h: i32, s: i32) -> i64 {
                guest::action_count::<$game>(h, s)
            }
            #[unsafe(no_mangle)]
            pub extern "C" fn veillee_apply_index(h: i32, s: i32, i: i32) -> i64 {
                guest::apply_index::<$game>(h, s, i)
            }
            #[unsafe(no_mangle)]
            pub extern "C" fn veillee_view(h: i32, v: i32) -> i64 {
                guest::view::<$game>(h, v)
            }
            #[unsafe(no_mangle)]
            pub extern "C" fn veillee_playout(h: i32, seed: i64, max: i32) -> i64 {
                guest::playout::<$game>(h, seed, max)
            }
            #[unsafe(no_mangle)]
            pub extern "C" fn veillee_playout_packed(h: i32, seed: i64, max: i32) -> i64 {
                guest::playout_packed::<$game>(h, seed, max)
            }
            #[unsafe(no_mangle)]
            pub extern "C" fn veillee_redraw_hidden(h: i32, v: i32, seed: i64) -> i64 {
                guest::redraw_hidden::<$game>(h, v, seed)
            }
            #[unsafe(no_mangle)]
            pub extern "C" fn veillee_operation(h: i32, len: i32) -> i64 {
                guest::operation::<$game>(h, len)
            }
            #[unsafe(no_mangle)]
            pub extern "C" fn veillee_playout_until(h: i32, seed: i64, max: i32, len: i32) -> i64 {
                guest::playout_until::<$game>(h, seed, max, len)
            }
            #[unsafe(no_mangle)]
            pub extern "C" fn veillee_search(h: i32, s: i32, len: i32) -> i64 {
                guest::search::<$game>(h, s, len)
            }
            #[unsafe(no_mangle)]
            pub extern "C" fn veillee_evaluate(h: i32, players: i32) -> i64 {
                guest::evaluate::<$game>(h, players)
            }
            #[unsafe(no_mangle)]
            pub extern "C" fn veillee_panic_message() -> i64 {
                guest::panic_message()
            }
        };
    };
}
