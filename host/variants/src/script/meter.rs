//! What one hook call may spend: interpreter steps, work done inside the string library,
//! and wall-clock time.
//!
//! Luau's interrupt counts function calls and loop iterations, not the work a C function
//! does: one `string.find(big, needle, 1, true)` or `string.rep` costs one step however long
//! the string. So the string functions are wrapped to charge one step per
//! [`BYTES_PER_STEP`] bytes they read or write — deterministic, like the rest of the
//! budget. The wall-clock deadline is only a backstop for what the meter cannot see: a hook
//! that still runs after it is stopped like one out of budget.

use std::cell::Cell;
use std::time::{Duration, Instant};

use mlua::{Function, Lua, MultiValue, Table, Value};

/// Bytes a string function handles per budget step.
pub(super) const BYTES_PER_STEP: u64 = 256;

/// The interpreter interrupts between two looks at the clock (reading it is not free).
const STEPS_PER_CLOCK_CHECK: u64 = 1024;

/// One script's meter, reset at the start of every hook call.
pub(super) struct Meter {
    used: Cell<u64>,
    limit: u64,
    started: Cell<Instant>,
    deadline: Duration,
}

impl Meter {
    pub(super) fn new(limit: u64, deadline: Duration) -> Meter {
        Meter {
            used: Cell::new(0),
            limit,
            started: Cell::new(Instant::now()),
            deadline,
        }
    }

    /// Starts a new hook call with the whole budget.
    pub(super) fn reset(&self) {
        self.used.set(0);
        self.started.set(Instant::now());
    }

    /// Spends `steps`; fails when the budget or the deadline is exhausted.
    pub(super) fn charge(&self, steps: u64) -> Result<(), String> {
        let before = self.used.get();
        let used = before.saturating_add(steps);
        self.used.set(used);
        if used > self.limit {
            return Err(format!(
                "instruction budget of {} exhausted (an endless loop?)",
                self.limit
            ));
        }
        let crossed_a_clock_check =
            before / STEPS_PER_CLOCK_CHECK != used / STEPS_PER_CLOCK_CHECK || steps > 1;
        if crossed_a_clock_check && self.started.get().elapsed() > self.deadline {
            return Err(format!(
                "time limit of {} ms per hook call exceeded",
                self.deadline.as_millis()
            ));
        }
        Ok(())
    }
}

/// Wraps the string functions whose work grows with their strings' length so that they
/// charge the meter for it. Call before the globals are frozen.
pub(super) fn charge_string_work(
    lua: &Lua,
    meter: &std::rc::Rc<Meter>,
    string: &Table,
) -> mlua::Result<()> {
    for name in [
        "find", "match", "gmatch", "gsub", "sub", "rep", "format", "lower", "upper", "reverse",
        "byte", "char", "split", "pack", "unpack",
    ] {
        let Ok(Value::Function(original)) = string.raw_get::<Value>(name) else {
            continue;
        };
        string.raw_set(name, metered(lua, meter, original)?)?;
    }
    let table: Table = lua.globals().get("table")?;
    if let Ok(Value::Function(concat)) = table.raw_get::<Value>("concat") {
        table.raw_set("concat", metered(lua, meter, concat)?)?;
    }
    Ok(())
}

/// `original`, charging one step per [`BYTES_PER_STEP`] bytes of its string arguments and
/// of the strings it returns. (What a function builds — `string.rep` — is charged once
/// built: the memory cap bounds it.)
fn metered(lua: &Lua, meter: &std::rc::Rc<Meter>, original: Function) -> mlua::Result<Function> {
    let meter = std::rc::Rc::clone(meter);
    lua.create_function(move |_, args: MultiValue| {
        meter
            .charge(string_bytes(args.iter()) / BYTES_PER_STEP)
            .map_err(mlua::Error::runtime)?;
        let returned: MultiValue = original.call(args)?;
        meter
            .charge(string_bytes(returned.iter()) / BYTES_PER_STEP)
            .map_err(mlua::Error::runtime)?;
        Ok(returned)
    })
}

/// The total length of the strings among `values` (and in a list's first level, for
/// `table.concat`).
fn string_bytes<'a>(values: impl Iterator<Item = &'a Value>) -> u64 {
    values
        .map(|value| match value {
            Value::String(s) => s.as_bytes().len() as u64,
            Value::Table(t) => t
                .clone()
                .sequence_values::<Value>()
                .filter_map(Result::ok)
                .map(|v| match v {
                    Value::String(s) => s.as_bytes().len() as u64,
                    _ => 0,
                })
                .sum(),
            _ => 0,
        })
        .sum()
}
