//! The sandboxed Luau state: safe libraries only, read-only globals, an instruction budget,
//! a memory cap, and the seeded generator behind `math.random` and `ctx.random`.

use std::rc::Rc;

use mlua::chunk::ChunkMode;
use mlua::{Function, Lua, LuaOptions, MultiValue, StdLib, Table, Value};
use serde::{Deserialize, Serialize};

use super::meter::{charge_string_work, Meter};
use crate::VariantLimits;

/// The error a script raises inside `ctx.choose` when the answer is not known yet. Scripts
/// that catch it with `pcall` gain nothing: the host notices the pending choice anyway.
pub(super) const CHOICE_PENDING: &str = "veillee: waiting for a player's choice";

/// Builds the sandboxed Luau state: safe libraries only, seeded `math.random`, read-only
/// globals and libraries, an instruction budget and a memory cap.
pub(super) fn sandbox(file: &str, limits: &VariantLimits, meter: Rc<Meter>) -> mlua::Result<Lua> {
    let libs = StdLib::STRING | StdLib::TABLE | StdLib::MATH | StdLib::UTF8 | StdLib::COROUTINE;
    let lua = Lua::new_with(libs, LuaOptions::default())?;
    let globals = lua.globals();
    stub_unsafe_functions(&lua, &globals)?;
    stub_unsafe_libraries(&lua, &globals)?;
    let string: Table = globals.get("string")?;
    stub_string_dump(&lua, &string)?;
    globals.raw_set("load", text_only_load(&lua)?)?;
    seed_math_random(&lua, &globals)?;
    globals.raw_set("print", print_function(&lua, file, Rc::clone(&meter))?)?;
    charge_string_work(&lua, &meter, &string)?;
    hide_addresses(&lua)?;
    lua.load(ORDERED_PAIRS)
        .set_name("=pairs")
        .set_mode(ChunkMode::Text)
        .exec()?;
    lua.sandbox(true)?;
    charge_interrupts(&lua, meter);
    lua.set_memory_limit(limits.memory_bytes)?;
    Ok(lua)
}

/// Base without file access, code loading, the garbage collector's view or printing: each
/// is replaced by a stub whose error says so (a plain `nil` would only say "attempt to call
/// a nil value").
fn stub_unsafe_functions(lua: &Lua, globals: &Table) -> mlua::Result<()> {
    for name in [
        "require",
        "dofile",
        "loadfile",
        "loadstring",
        "collectgarbage",
        "gcinfo",
        "getfenv",
        "setfenv",
        "newproxy",
    ] {
        let message = format!("`{name}` is not available to house rules");
        globals.raw_set(
            name,
            lua.create_function(move |_, _: MultiValue| -> mlua::Result<()> {
                Err(mlua::Error::runtime(message.clone()))
            })?,
        )?;
    }
    Ok(())
}

/// The libraries that reach files, processes, the clock or the host: each is a table whose
/// every field is an error saying so.
fn stub_unsafe_libraries(lua: &Lua, globals: &Table) -> mlua::Result<()> {
    for name in ["io", "os", "package", "debug", "buffer", "bit32", "vector"] {
        let stub = lua.create_table()?;
        let meta = lua.create_table()?;
        meta.raw_set(
            "__index",
            lua.create_function(move |_, (_, key): (Value, Value)| -> mlua::Result<()> {
                let key = match key {
                    Value::String(s) => s.to_string_lossy(),
                    _ => "?".into(),
                };
                Err(mlua::Error::runtime(format!(
                    "`{name}.{key}` is not available to house rules: no files, processes, \
                     clock or host access"
                )))
            })?,
        )?;
        stub.set_metatable(Some(meta))?;
        globals.raw_set(name, stub)?;
    }
    Ok(())
}

/// `string.dump` would hand out bytecode: a stub whose error says so.
fn stub_string_dump(lua: &Lua, string: &Table) -> mlua::Result<()> {
    string.raw_set(
        "dump",
        lua.create_function(|_, _: MultiValue| -> mlua::Result<()> {
            Err(mlua::Error::runtime(
                "`string.dump` is not available to house rules",
            ))
        })?,
    )
}

/// `load(text [, name])`: source text only, never a binary chunk.
fn text_only_load(lua: &Lua) -> mlua::Result<Function> {
    lua.create_function(|lua, (chunk, name): (mlua::LuaString, Option<String>)| {
        let bytes = chunk.as_bytes();
        if bytes.first().is_some_and(|b| *b < b'\t' || *b == 0x1b) {
            return Ok((
                Value::Nil,
                Value::String(lua.create_string("load: binary chunks are not allowed")?),
            ));
        }
        let name = name.unwrap_or_else(|| "=(load)".into());
        match lua
            .load(&bytes[..])
            .set_name(name)
            .set_mode(ChunkMode::Text)
            .into_function()
        {
            Ok(f) => Ok((Value::Function(f), Value::Nil)),
            Err(e) => Ok((Value::Nil, Value::String(lua.create_string(e.to_string())?))),
        }
    })
}

/// math.random draws from the game's seeded generator (see `ctx.random`); the game alone
/// seeds it.
fn seed_math_random(lua: &Lua, globals: &Table) -> mlua::Result<()> {
    let math: Table = globals.get("math")?;
    math.raw_set(
        "random",
        lua.create_function(|lua, (m, n): (Option<i64>, Option<i64>)| {
            let draw = |lua: &Lua| -> mlua::Result<u64> { with_rng(lua, |rng| rng.next()) };
            match (m, n) {
                (None, _) => Ok(Value::Number(
                    (draw(lua)? >> 11) as f64 / (1u64 << 53) as f64,
                )),
                (Some(m), None) => Ok(Value::Integer(random_in(lua, 1, m)?)),
                (Some(m), Some(n)) => Ok(Value::Integer(random_in(lua, m, n)?)),
            }
        })?,
    )?;
    math.raw_set(
        "randomseed",
        lua.create_function(|_, ()| -> mlua::Result<()> {
            Err(mlua::Error::runtime(
                "math.randomseed is not available: the generator is seeded by the game",
            ))
        })?,
    )
}

/// The instruction budget: each of Luau's interrupts (at its safepoints: calls, loop
/// back-edges) charges one step to `meter`; past the budget or the deadline the script stops
/// with an error naming where it was.
fn charge_interrupts(lua: &Lua, meter: Rc<Meter>) {
    lua.set_interrupt(move |lua| {
        if let Err(reason) = meter.charge(1) {
            let at = lua
                .inspect_stack(0, |d| {
                    let src = d.source().short_src.map(|s| s.into_owned());
                    (src, d.current_line())
                })
                .and_then(|(src, line)| Some(format!("{}:{}: ", src?, line?)))
                .unwrap_or_default();
            return Err(mlua::Error::runtime(format!("{at}{reason}")));
        }
        Ok(mlua::VmState::Continue)
    });
}

/// `print(...)`: its arguments as `tostring` shows them, tab-separated, to the process's
/// print sink (see [`crate::print_to`]), prefixed with the script's file name; nothing when
/// there is no sink. Charged to the budget by the byte, like the string library.
fn print_function(lua: &Lua, file: &str, meter: Rc<Meter>) -> mlua::Result<Function> {
    let file = file.to_string();
    lua.create_function(move |lua, args: MultiValue| {
        let Some(sink) = crate::print::sink() else {
            return Ok(());
        };
        let tostring: Function = lua.globals().get("tostring")?;
        let mut parts = Vec::with_capacity(args.len());
        for value in args {
            let text: mlua::LuaString = tostring.call(value)?;
            parts.push(text.to_string_lossy());
        }
        let text = parts.join("\t");
        meter
            .charge(text.len() as u64 / super::meter::BYTES_PER_STEP)
            .map_err(mlua::Error::runtime)?;
        let mut shown: String = text.chars().take(crate::MAX_PRINT_CHARS).collect();
        if shown.len() < text.len() {
            shown.push_str(" […]");
        }
        let shown = super::printable(veillee_sdk::Text::same(shown)).en;
        sink(&format!("[{file}] {shown}"));
        Ok(())
    })
}

/// `pairs(t)` and `next(t)` refuse a table with a key that is not a string, a number or a
/// boolean. Luau places such a key (a table, a function) by its memory address, which
/// differs from one run to the next: walking over it would give a replayed game another
/// order, so another game. Strings, numbers and booleans are placed by their value (Luau's
/// string hash has no random seed), so the order of a table with only those keys follows from
/// what was put in it and taken out, the same in every run. The whole table is checked before
/// the first step (an answer that does not depend on the order), and `pairs` then hands
/// Luau's own `next` on, which keeps its fast loop. Luau's `for k, v in t do` and `for k, v
/// in next, t do` walk the table inside the interpreter (the second is compiled to Luau's
/// built-in loop, whatever `next` holds): they cannot be checked (`variants/README.md`).
const ORDERED_PAIRS: &str = r#"
local rawnext, rawpairs, type, error = next, pairs, type, error
local function check(t)
  if type(t) ~= "table" then
    return -- Luau's own functions say what is wrong
  end
  for k in rawnext, t do
    local kind = type(k)
    if kind ~= "string" and kind ~= "number" and kind ~= "boolean" then
      error("pairs/next over a table with a " .. kind .. " as a key: its order follows memory "
        .. "addresses and changes from run to run; keep such keys in a list and use ipairs", 3)
    end
  end
end
pairs = function(t)
  check(t)
  return rawpairs(t)
end
next = function(t, k)
  if k == nil then
    check(t)
  end
  return rawnext(t, k)
end
"#;

/// `tostring` and `string.format("%s")` of a table or a function show its memory address,
/// which differs from one run to the next: a script that kept or compared such a text would
/// make a replayed game differ. They show the type alone (`table`, `function`), unless the
/// value has its own `__tostring`.
fn hide_addresses(lua: &Lua) -> mlua::Result<()> {
    let globals = lua.globals();
    let tostring: Function = globals.get("tostring")?;
    let plain = tostring.clone();
    globals.raw_set(
        "tostring",
        lua.create_function(
            move |lua, value: Value| match without_address(lua, &value)? {
                Some(name) => Ok(Value::String(name)),
                None => plain.call::<Value>(value),
            },
        )?,
    )?;
    let string: Table = globals.get("string")?;
    let format: Function = string.get("format")?;
    string.raw_set(
        "format",
        lua.create_function(move |lua, args: MultiValue| {
            let mut shown = MultiValue::new();
            for value in args {
                match without_address(lua, &value)? {
                    Some(name) => shown.push_back(Value::String(name)),
                    None => shown.push_back(value),
                }
            }
            format.call::<MultiValue>(shown)
        })?,
    )?;
    Ok(())
}

/// The type name to show for a value whose plain text would hold an address.
fn without_address(lua: &Lua, value: &Value) -> mlua::Result<Option<mlua::LuaString>> {
    let has_own_text = |meta: Option<Table>| {
        meta.is_some_and(|m| !matches!(m.raw_get::<Value>("__tostring"), Ok(Value::Nil) | Err(_)))
    };
    let addressed = match value {
        Value::Table(t) => !has_own_text(t.metatable()),
        // Scripts cannot make userdata (`newproxy` is absent): any is the host's.
        Value::Function(_) | Value::Thread(_) | Value::LightUserData(_) | Value::UserData(_) => {
            true
        }
        _ => false,
    };
    if addressed {
        Ok(Some(lua.create_string(value.type_name())?))
    } else {
        Ok(None)
    }
}

/// The random generator of the current hook call (see [`Rng`]), or an error outside one.
pub(super) fn with_rng<R>(lua: &Lua, f: impl FnOnce(&mut Rng) -> R) -> mlua::Result<R> {
    let mut call = lua
        .app_data_mut::<CallRng>()
        .ok_or_else(|| mlua::Error::runtime("random numbers are only available in hooks"))?;
    match call.0.as_mut() {
        Some(rng) => Ok(f(rng)),
        None => Err(mlua::Error::runtime(
            "random numbers are not available in this hook (filter_actions and view must not \
             draw)",
        )),
    }
}

pub(super) fn random_in(lua: &Lua, m: i64, n: i64) -> mlua::Result<i64> {
    if m > n {
        return Err(mlua::Error::runtime(format!(
            "random: interval is empty ({m}..{n})"
        )));
    }
    let span = (n as i128 - m as i128 + 1) as u128;
    let draw = with_rng(lua, |rng| rng.next())? as u128;
    Ok((m as i128 + ((draw * span) >> 64) as i128) as i64)
}

/// The hook call's generator, in the Lua state's app data (`None` when drawing is not allowed).
pub(super) struct CallRng(pub(super) Option<Rng>);

/// SplitMix64: tiny, seedable, and its whole state is one number saved with the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rng(pub u64);

impl Rng {
    /// A generator for a session seed and a salt (the variant layer's own stream).
    pub fn seeded(seed: u64) -> Rng {
        let mut rng = Rng(seed ^ 0x5641_5249_414e_5453); // "VARIANTS"
        rng.next();
        rng
    }

    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}
