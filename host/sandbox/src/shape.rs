//! The size of a plugin, checked on the file before anything compiles it.
//!
//! Compiling costs memory and time roughly in proportion to the number of functions and the
//! size of their code, and nothing in a wasm file bounds either: 3.6 MB of trivial functions
//! (300,000 of them) take the compiler past 12 GB. So the file's sections are counted first
//! with `wasmparser` (a read of the section headers and of each function body's length, no
//! compiling), and a file past [`CompileLimits`] is refused with what it exceeds.
//!
//! The same read refuses at once what could never load anyway — an import, a missing ABI
//! export — so that such a file costs no compiling at all, at every start.

use veillee_sdk::abi::{MANIFEST_SECTION, REQUIRED_EXPORTS};
use wasmparser::{ImportSectionReader, Imports, Parser, Payload};

use super::limits::CompileLimits;
use super::validate::ALLOWED_IMPORTS;
use super::PluginError;

/// Refuses a module whose size, function count or code size is past `limits`. Returns the
/// payload of its `veillee-manifest` custom section (ABI 1.9), if it has one.
pub(crate) fn check<'a>(
    plugin: &str,
    bytes: &'a [u8],
    limits: &CompileLimits,
) -> Result<Option<&'a [u8]>, PluginError> {
    let too_large = |detail: String| PluginError::TooLarge {
        plugin: plugin.to_string(),
        detail,
    };
    if bytes.len() as u64 > limits.module_bytes {
        return Err(too_large(format!(
            "the file is {}, more than the {} a plugin may be",
            size(bytes.len() as u64),
            size(limits.module_bytes)
        )));
    }
    let mut function = 0u32;
    let mut exports: Vec<String> = Vec::new();
    let mut manifest = None;
    for payload in Parser::new(0).parse_all(bytes) {
        let payload = payload.map_err(|e| PluginError::Invalid {
            plugin: plugin.to_string(),
            detail: e.to_string(),
        })?;
        if let Some((section, count)) = section_entries(&payload) {
            if count > limits.section_entries {
                return Err(too_large(format!(
                    "its {section} section has {count} entries, more than the {} a plugin may have",
                    limits.section_entries
                )));
            }
        }
        match payload {
            Payload::ImportSection(reader) => {
                if let Some((module, name)) = first_forbidden_import(reader) {
                    return Err(PluginError::ForbiddenImport {
                        plugin: plugin.to_string(),
                        module,
                        name,
                    });
                }
            }
            Payload::ExportSection(reader) => {
                for export in reader.into_iter().flatten() {
                    exports.push(export.name.to_string());
                }
            }
            Payload::FunctionSection(reader) => {
                functions(reader.count(), limits).map_err(too_large)?
            }
            Payload::CodeSectionStart {
                count, size: code, ..
            } => {
                functions(count, limits).map_err(too_large)?;
                if u64::from(code) > limits.code_bytes {
                    return Err(too_large(format!(
                        "its code is {}, more than the {} a plugin may have",
                        size(u64::from(code)),
                        size(limits.code_bytes)
                    )));
                }
            }
            Payload::CodeSectionEntry(body) => {
                let length = body.range().len() as u64;
                if length > limits.function_bytes {
                    return Err(too_large(format!(
                        "its function number {function} is {} of code, more than the {} one function may have",
                        size(length),
                        size(limits.function_bytes)
                    )));
                }
                function += 1;
            }
            Payload::CustomSection(section) if section.name() == MANIFEST_SECTION => {
                let earlier = manifest.replace(section.data());
                if earlier.is_some() {
                    return Err(PluginError::Invalid {
                        plugin: plugin.to_string(),
                        detail: format!(
                            "it has two `{MANIFEST_SECTION}` sections: which one is the game?"
                        ),
                    });
                }
            }
            _ => {}
        }
    }
    // Types are checked on the compiled module (`validate`); names can be checked now.
    let missing = std::iter::once("memory")
        .chain(REQUIRED_EXPORTS.iter().copied())
        .find(|name| !exports.iter().any(|e| e == name));
    match missing {
        Some(export) => Err(PluginError::MissingExport {
            plugin: plugin.to_string(),
            export: export.to_string(),
            detail: "not exported".into(),
        }),
        None => Ok(manifest),
    }
}

/// The first import of the section that is not allowed, as (module, name). An unreadable
/// entry is left to the compiler, which refuses it as invalid.
fn first_forbidden_import(reader: ImportSectionReader<'_>) -> Option<(String, String)> {
    let allowed = |module: &str, name: &str| ALLOWED_IMPORTS.contains(&(module, name));
    for group in reader.into_iter().map_while(Result::ok) {
        let names: Vec<(&str, &str)> = match group {
            Imports::Single(_, import) => vec![(import.module, import.name)],
            Imports::Compact1 { module, items } => items
                .into_iter()
                .map_while(Result::ok)
                .map(|item| (module, item.name))
                .collect(),
            Imports::Compact2 { module, names, .. } => names
                .into_iter()
                .map_while(Result::ok)
                .map(|name| (module, name))
                .collect(),
        };
        if let Some((module, name)) = names.into_iter().find(|(m, n)| !allowed(m, n)) {
            return Some((module.to_string(), name.to_string()));
        }
    }
    None
}

fn functions(count: u32, limits: &CompileLimits) -> Result<(), String> {
    if count > limits.functions {
        return Err(format!(
            "it defines {count} functions, more than the {} a plugin may have",
            limits.functions
        ));
    }
    Ok(())
}

/// The sections whose entries are counted against [`CompileLimits::section_entries`].
fn section_entries(payload: &Payload<'_>) -> Option<(&'static str, u32)> {
    Some(match payload {
        Payload::TypeSection(r) => ("type", r.count()),
        Payload::ImportSection(r) => ("import", r.count()),
        Payload::TableSection(r) => ("table", r.count()),
        Payload::MemorySection(r) => ("memory", r.count()),
        Payload::TagSection(r) => ("tag", r.count()),
        Payload::GlobalSection(r) => ("global", r.count()),
        Payload::ExportSection(r) => ("export", r.count()),
        Payload::ElementSection(r) => ("element", r.count()),
        Payload::DataSection(r) => ("data", r.count()),
        _ => return None,
    })
}

/// `3.6 MB`, `512 KB`, `90 bytes`.
fn size(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 20 => format!("{:.1} MiB", b as f64 / (1 << 20) as f64),
        b if b >= 1 << 10 => format!("{:.0} KiB", b as f64 / (1 << 10) as f64),
        b => format!("{b} bytes"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A module with `n` functions `() -> ()` whose bodies are `body` (without the locals
    /// count and `end`), written by hand: the sandbox crate has no wasm encoder.
    fn module(n: u32, body: &[u8]) -> Vec<u8> {
        fn leb(mut v: u64, out: &mut Vec<u8>) {
            loop {
                let byte = (v & 0x7f) as u8;
                v >>= 7;
                if v == 0 {
                    out.push(byte);
                    return;
                }
                out.push(byte | 0x80);
            }
        }
        fn section(id: u8, content: Vec<u8>, out: &mut Vec<u8>) {
            out.push(id);
            leb(content.len() as u64, out);
            out.extend(content);
        }
        let mut wasm = b"\0asm\x01\0\0\0".to_vec();
        section(1, vec![1, 0x60, 0, 0], &mut wasm);
        let mut functions = Vec::new();
        leb(u64::from(n), &mut functions);
        functions.extend(std::iter::repeat_n(0u8, n as usize));
        section(3, functions, &mut wasm);
        let mut one = vec![0u8]; // no locals
        one.extend_from_slice(body);
        one.push(0x0b);
        let mut code = Vec::new();
        leb(u64::from(n), &mut code);
        for _ in 0..n {
            leb(one.len() as u64, &mut code);
            code.extend_from_slice(&one);
        }
        section(10, code, &mut wasm);
        wasm
    }

    #[test]
    fn a_small_module_without_the_abi_is_refused_for_what_it_lacks() {
        let error = check("p", &module(10, &[0x01]), &CompileLimits::default()).unwrap_err();
        assert!(
            matches!(error, PluginError::MissingExport { ref export, .. } if export == "memory"),
            "{error}"
        );
    }

    #[test]
    fn too_many_functions_are_refused_before_compiling() {
        let error = check("bomb", &module(300_000, &[]), &CompileLimits::default()).unwrap_err();
        assert!(matches!(error, PluginError::TooLarge { .. }), "{error}");
        let text = error.to_string();
        assert!(
            text.contains("300000 functions") && text.contains("bomb"),
            "{text}"
        );
    }

    #[test]
    fn a_huge_function_and_a_huge_file_are_refused() {
        let limits = CompileLimits {
            function_bytes: 1000,
            ..CompileLimits::default()
        };
        let error = check("long", &module(2, &[0x01; 2000]), &limits).unwrap_err();
        assert!(error.to_string().contains("function number 0"), "{error}");
        let limits = CompileLimits {
            module_bytes: 100,
            ..CompileLimits::default()
        };
        let error = check("big", &module(50, &[0x01]), &limits).unwrap_err();
        assert!(
            error.to_string().contains("more than the 100 bytes"),
            "{error}"
        );
    }

    #[test]
    fn a_truncated_module_is_invalid() {
        let bytes = module(10, &[0x01]);
        let error = check("cut", &bytes[..bytes.len() - 3], &CompileLimits::default());
        assert!(
            matches!(error, Err(PluginError::Invalid { .. })),
            "{error:?}"
        );
    }
}
