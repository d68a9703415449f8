//! Checks on a plugin file before any of its code runs: the header, what it imports and
//! what it exports.

use veillee_sdk::abi::REQUIRED_EXPORTS;
use wasmtime::{ExternType, Module, ValType};

use super::PluginError;

/// Imports a plugin may have, as (module, name). Empty on purpose: a game gets no
/// capability at all — no files, network, clock, environment or entropy. Everything it
/// needs comes through the ABI's arguments (set-up, seeds).
pub(crate) const ALLOWED_IMPORTS: &[(&str, &str)] = &[];

/// A value type of the ABI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ty {
    I32,
    I64,
}

use Ty::{I32, I64};

/// The function type of every ABI export, as documented in `veillee_sdk::abi`.
const SIGNATURES: &[(&str, &[Ty], &[Ty])] = &[
    ("veillee_abi_version", &[], &[I32]),
    ("veillee_input", &[I32], &[I32]),
    ("veillee_output_ptr", &[], &[I32]),
    ("veillee_manifest", &[], &[I64]),
    ("veillee_new", &[I32], &[I64]),
    ("veillee_load", &[I32], &[I64]),
    ("veillee_save", &[I32], &[I64]),
    ("veillee_clone", &[I32], &[I64]),
    ("veillee_drop", &[I32], &[]),
    ("veillee_status", &[I32], &[I64]),
    ("veillee_legal_actions", &[I32, I32], &[I64]),
    ("veillee_apply", &[I32, I32, I32], &[I64]),
    ("veillee_action_count", &[I32, I32], &[I64]),
    ("veillee_apply_index", &[I32, I32, I32], &[I64]),
    ("veillee_view", &[I32, I32], &[I64]),
    ("veillee_playout", &[I32, I64, I32], &[I64]),
    ("veillee_redraw_hidden", &[I32, I32, I64], &[I64]),
    ("veillee_panic_message", &[], &[I64]),
];

/// The function type of the optional exports added by minor versions (see
/// `veillee_sdk::abi::OPTIONAL_EXPORTS`): checked only when present.
const OPTIONAL_SIGNATURES: &[(&str, &[Ty], &[Ty])] = &[
    ("veillee_operation", &[I32, I32], &[I64]),
    ("veillee_playout_until", &[I32, I64, I32, I32], &[I64]),
    ("veillee_search", &[I32, I32, I32], &[I64]),
    ("veillee_evaluate", &[I32, I32], &[I64]),
    ("veillee_playout_packed", &[I32, I64, I32], &[I64]),
];

const MAGIC: &[u8; 4] = b"\0asm";
const CORE_VERSION: [u8; 4] = [1, 0, 0, 0];
const COMPONENT_VERSION: [u8; 4] = [0x0d, 0, 1, 0];

/// Checks the 8-byte header: `\0asm` and the core-module version. Done before compiling so
/// that a wrong file (an image, a text file, a half-downloaded plugin) gets a plain answer.
pub(crate) fn check_header(plugin: &str, bytes: &[u8]) -> Result<(), PluginError> {
    let not_wasm = |detail: String| PluginError::NotWasm {
        plugin: plugin.to_string(),
        detail,
    };
    if bytes.is_empty() {
        return Err(not_wasm("the file is empty".into()));
    }
    if !bytes.starts_with(&MAGIC[..bytes.len().min(4)]) {
        let start = &bytes[..bytes.len().min(8)];
        return Err(not_wasm(format!(
            "a WebAssembly module starts with `\\0asm`, this file starts with \"{}\"",
            start.escape_ascii()
        )));
    }
    let Some(version) = bytes.get(4..8) else {
        return Err(not_wasm(format!(
            "the file is only {} bytes long, too short for a WebAssembly header: is it truncated?",
            bytes.len()
        )));
    };
    if version == COMPONENT_VERSION {
        return Err(PluginError::Invalid {
            plugin: plugin.to_string(),
            detail: "this is a WebAssembly component; a Veillée plugin is a core module built for \
                     wasm32-unknown-unknown"
                .into(),
        });
    }
    if version != CORE_VERSION {
        return Err(PluginError::Invalid {
            plugin: plugin.to_string(),
            detail: format!("unsupported WebAssembly binary version {:02x?}", version),
        });
    }
    Ok(())
}

/// Refuses any import outside [`ALLOWED_IMPORTS`], naming the first one.
pub(crate) fn check_imports(plugin: &str, module: &Module) -> Result<(), PluginError> {
    match module
        .imports()
        .find(|import| !ALLOWED_IMPORTS.contains(&(import.module(), import.name())))
    {
        Some(import) => Err(PluginError::ForbiddenImport {
            plugin: plugin.to_string(),
            module: import.module().to_string(),
            name: import.name().to_string(),
        }),
        None => Ok(()),
    }
}

/// Checks that `memory` and every ABI function are exported with the right types.
pub(crate) fn check_exports(plugin: &str, module: &Module) -> Result<(), PluginError> {
    let missing = |export: &str, detail: String| PluginError::MissingExport {
        plugin: plugin.to_string(),
        export: export.to_string(),
        detail,
    };
    match module.get_export("memory") {
        Some(ExternType::Memory(memory)) if !memory.is_64() && !memory.is_shared() => {}
        Some(ExternType::Memory(_)) => {
            return Err(missing(
                "memory",
                "it must be an unshared 32-bit memory".into(),
            ));
        }
        Some(other) => {
            return Err(missing(
                "memory",
                format!("it is a {}, not a memory", kind(&other)),
            ))
        }
        None => return Err(missing("memory", "not exported".into())),
    }
    // An export the SDK requires but this host has no signature for is still required.
    for name in REQUIRED_EXPORTS {
        if !SIGNATURES.iter().any(|(known, _, _)| known == name)
            && module.get_export(name).is_none()
        {
            return Err(missing(name, "not exported".into()));
        }
    }
    let optional = OPTIONAL_SIGNATURES
        .iter()
        .filter(|(name, _, _)| module.get_export(name).is_some());
    for (name, params, results) in SIGNATURES.iter().chain(optional) {
        let params: Vec<Option<Ty>> = params.iter().copied().map(Some).collect();
        let results: Vec<Option<Ty>> = results.iter().copied().map(Some).collect();
        let expected = || signature(&params, &results);
        match module.get_export(name) {
            None => return Err(missing(name, "not exported".into())),
            Some(ExternType::Func(func)) => {
                let found_params: Vec<Option<Ty>> = func.params().map(|t| ty(&t)).collect();
                let found_results: Vec<Option<Ty>> = func.results().map(|t| ty(&t)).collect();
                if found_params != params || found_results != results {
                    let found = signature(&found_params, &found_results);
                    return Err(missing(
                        name,
                        format!("its type is {found}, expected {}", expected()),
                    ));
                }
            }
            Some(other) => {
                return Err(missing(
                    name,
                    format!(
                        "it is a {}, expected a function {}",
                        kind(&other),
                        expected()
                    ),
                ));
            }
        }
    }
    Ok(())
}

fn ty(t: &ValType) -> Option<Ty> {
    match t {
        ValType::I32 => Some(I32),
        ValType::I64 => Some(I64),
        _ => None,
    }
}

/// `(i32, i32) -> i64`, for messages; `?` stands for any non-integer type.
fn signature(params: &[Option<Ty>], results: &[Option<Ty>]) -> String {
    let list = |types: &[Option<Ty>]| {
        let names: Vec<&str> = types
            .iter()
            .map(|t| match t {
                Some(I32) => "i32",
                Some(I64) => "i64",
                None => "?",
            })
            .collect();
        names.join(", ")
    };
    match results {
        [] => format!("({})", list(params)),
        [_] => format!("({}) -> {}", list(params), list(results)),
        _ => format!("({}) -> ({})", list(params), list(results)),
    }
}

fn kind(extern_type: &ExternType) -> &'static str {
    match extern_type {
        ExternType::Func(_) => "function",
        ExternType::Global(_) => "global",
        ExternType::Table(_) => "table",
        ExternType::Memory(_) => "memory",
        ExternType::Tag(_) => "tag",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use veillee_sdk::abi::OPTIONAL_EXPORTS;

    #[test]
    fn signatures_cover_exactly_the_required_exports() {
        let known: Vec<&str> = SIGNATURES.iter().map(|(name, _, _)| *name).collect();
        assert_eq!(
            known, REQUIRED_EXPORTS,
            "update SIGNATURES to follow veillee_sdk::abi"
        );
    }

    #[test]
    fn optional_signatures_cover_exactly_the_optional_exports() {
        let known: Vec<&str> = OPTIONAL_SIGNATURES
            .iter()
            .map(|(name, _, _)| *name)
            .collect();
        let listed: Vec<&str> = OPTIONAL_EXPORTS.iter().map(|(name, _)| *name).collect();
        assert_eq!(known, listed);
    }

    #[test]
    fn headers() {
        assert!(matches!(
            check_header("p", b""),
            Err(PluginError::NotWasm { .. })
        ));
        assert!(matches!(
            check_header("p", b"\x89PNG\r\n\x1a\n"),
            Err(PluginError::NotWasm { .. })
        ));
        assert!(matches!(
            check_header("p", b"\0as"),
            Err(PluginError::NotWasm { .. })
        ));
        assert!(matches!(
            check_header("p", b"\0asm\x01"),
            Err(PluginError::NotWasm { .. })
        ));
        assert!(matches!(
            check_header("p", b"\0asm\x0d\0\x01\0"),
            Err(PluginError::Invalid { .. })
        ));
        assert!(check_header("p", b"\0asm\x01\0\0\0").is_ok());
    }

    #[test]
    fn signature_text() {
        assert_eq!(
            signature(&[Some(I32), Some(I64)], &[Some(I64)]),
            "(i32, i64) -> i64"
        );
        assert_eq!(signature(&[], &[]), "()");
        assert_eq!(
            signature(&[None], &[Some(I32), Some(I32)]),
            "(?) -> (i32, i32)"
        );
    }
}
