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
//!
//! [`OPTIONAL_EXPORTS`] lists the exports added by minor versions: a plugin of an older minor
//! version may lack them, and the host then treats the feature as absent (a 1.0 plugin
//! offers no operations).
//!
//! Minor versions so far: 1.1 added the optional export `veillee_operation`; 1.2 added the
//! optional manifest field `rules` ([`crate::Rules`], the game's full rules in French and
//! English), read with a serde default so that a plugin without it loads and simply ships
//! no rules, and ignored by older hosts (they do not refuse unknown manifest fields); 1.3
//! added the optional scene field `Piece::name` (what a piece is, in both languages), read
//! and ignored the same way; 1.4 added the optional fields `Action::private` and
//! `Event::private` ([`crate::Private`]: what the acting seat, or the seats named, read
//! instead of the public text), with the same serde default: an older plugin's texts are
//! all public, as they always were; 1.6 added the optional scene fields `Board::layout` (points
//! joined by lines, hexagons, a track — [`crate::Layout`]) and `Board::lines`, whose
//! defaults (squares, no lines) are what older plugins drew; an older host ignores them and
//! draws such a board as squares, where clicks still name the same cells; 1.7 added the optional
//! export `veillee_playout_until`: a random playout that stops before the actions house rules
//! watch, so that games with house rules are played inside the plugin between those moves
//! (without it, the host plays them move by move); 1.8 added the optional exports
//! `veillee_search` (a bot's information-set search inside the plugin, [`crate::search`]) and
//! `veillee_evaluate` (the game's own evaluation, for the host's search when scripts change
//! the rules); without them the host searches through the other calls and values an
//! unfinished game at ½; 1.11 added the optional scene field `Card::die` ([`crate::Die`]: a
//! card drawn as a die, its faces and the one on top; its title, text and colour still name
//! that face, which is what an older host draws) and the optional manifest field
//! `play_time` ([`crate::PlayTime`]: how long a game takes at the table, shown in the
//! library), both with serde defaults.

/// Major version of the plugin ABI. A host and a plugin must agree on it.
pub const ABI_MAJOR: u16 = 1;
/// Minor version of the plugin ABI: additions only.
pub const ABI_MINOR: u16 = 11;

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
];

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
