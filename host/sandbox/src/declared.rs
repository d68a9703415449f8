//! The manifest a plugin declares in its `veillee-manifest` custom section (ABI 1.9): read
//! from the file without compiling it, so that a launcher lists the game at once, and held
//! against what the compiled plugin's `veillee_manifest` answers.
//!
//! The section is a claim, not a fact: it is bounded and checked like an answer before it is
//! read, and a plugin whose code says otherwise is refused when it is compiled — a file
//! cannot show one game in the library and play another.

use veillee_sdk::abi::MANIFEST_SECTION;
use veillee_sdk::Manifest;

use super::answers::check_json_size;
use super::PluginError;

/// Largest section read: a manifest with both languages' full rules is tens of kilobytes.
const MAX_SECTION_BYTES: usize = 4 << 20;
/// Most JSON objects and lists in it (see `answers::check_json_size`).
const MAX_SECTION_CONTAINERS: usize = 100_000;

/// The manifest in a section's payload: bounded, parsed and sane.
pub(crate) fn parse(plugin: &str, section: &[u8]) -> Result<Manifest, PluginError> {
    let bad = |detail: String| PluginError::BadManifest {
        plugin: plugin.to_string(),
        detail: format!("its `{MANIFEST_SECTION}` section {detail}"),
    };
    if section.len() > MAX_SECTION_BYTES {
        return Err(bad(format!(
            "is {} bytes, more than the {MAX_SECTION_BYTES} a manifest may be",
            section.len()
        )));
    }
    check_json_size(section, MAX_SECTION_CONTAINERS)
        .map_err(|e| bad(format!("is too deep: {e}")))?;
    let manifest: Manifest = serde_json::from_slice(section)
        .map_err(|e| bad(format!("is not valid manifest JSON ({e})")))?;
    let problems = manifest.problems();
    if !problems.is_empty() {
        return Err(bad(format!(
            "is not a valid manifest: {}",
            problems.join("; ")
        )));
    }
    Ok(manifest)
}

/// Refuses a plugin whose compiled code answers another manifest than its section declared,
/// naming the first field that differs.
pub(crate) fn check_matches(
    plugin: &str,
    declared: &Manifest,
    answered: &Manifest,
) -> Result<(), PluginError> {
    if declared == answered {
        return Ok(());
    }
    let fields = |m: &Manifest| match serde_json::to_value(m) {
        Ok(serde_json::Value::Object(map)) => map,
        _ => serde_json::Map::new(),
    };
    let (declared, answered) = (fields(declared), fields(answered));
    let field = declared
        .iter()
        .find(|(key, value)| answered.get(*key) != Some(value))
        .map(|(key, _)| key.clone())
        .or_else(|| {
            answered
                .keys()
                .find(|k| !declared.contains_key(*k))
                .cloned()
        })
        .unwrap_or_else(|| "?".into());
    Err(PluginError::BadManifest {
        plugin: plugin.to_string(),
        detail: format!(
            "its `{MANIFEST_SECTION}` section does not match what its code answers \
             (`{field}` differs): the file was changed after it was built; rebuild the plugin"
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use veillee_sdk::text;

    fn manifest() -> Manifest {
        serde_json::from_str(
            r##"{"id":"demo","name":{"fr":"Démo","en":"Demo"},"description":{"fr":"","en":""},
                "version":"1.0.0","min_players":1,"max_players":1,
                "seats":[{"name":{"fr":"A","en":"A"},"colour":"#010203"}],
                "hidden_information":false}"##,
        )
        .unwrap()
    }

    #[test]
    fn a_section_that_is_not_a_sane_manifest_is_refused_in_words() {
        let json = serde_json::to_vec(&manifest()).unwrap();
        assert_eq!(parse("p", &json).unwrap(), manifest());
        let error = parse("p", b"{\"id\":").unwrap_err().to_string();
        assert!(error.contains("veillee-manifest") && error.contains("not valid manifest JSON"));
        let mut empty_name = manifest();
        empty_name.name = text("", "");
        let json = serde_json::to_vec(&empty_name).unwrap();
        let error = parse("p", &json).unwrap_err().to_string();
        assert!(error.contains("name must be given"), "{error}");
        let deep = "[".repeat(MAX_SECTION_CONTAINERS + 1);
        assert!(parse("p", deep.as_bytes()).is_err());
    }

    #[test]
    fn a_section_that_differs_from_the_code_names_the_field() {
        assert!(check_matches("p", &manifest(), &manifest()).is_ok());
        let mut other = manifest();
        other.max_players = 2;
        let error = check_matches("p", &manifest(), &other)
            .unwrap_err()
            .to_string();
        assert!(error.contains("`max_players` differs"), "{error}");
        assert!(error.contains("rebuild"), "{error}");
    }
}
