//! `veillee new GAME-ID`: writes a plugin crate and says how to build, check and install it.

use std::path::PathBuf;

use anyhow::{bail, Context};
use veillee_runtime::scaffold::{self, SdkSource, REPOSITORY};

use crate::term::outln;

pub fn run(id: &str, dir: Option<PathBuf>, sdk: Option<PathBuf>, git: bool) -> anyhow::Result<()> {
    if let Some(problem) = scaffold::id_problem(id) {
        bail!(problem);
    }
    let source = match (sdk, git) {
        (Some(dir), _) => {
            let dir = dir
                .canonicalize()
                .with_context(|| format!("--sdk {}", dir.display()))?;
            if !dir.join("Cargo.toml").is_file() {
                bail!(
                    "--sdk {}: no Cargo.toml there; give the `sdk` folder of a Veillée clone",
                    dir.display()
                );
            }
            SdkSource::Path(dir)
        }
        (None, true) => SdkSource::Git(REPOSITORY.to_string()),
        (None, false) => SdkSource::default_for_this_build(),
    };
    let dir = dir.unwrap_or_else(|| PathBuf::from(id));
    let written = scaffold::create(&dir, id, &source)?;
    outln!("Wrote {} files in {}:", written.len(), dir.display());
    for file in &written {
        outln!("  {}", file.strip_prefix(&dir).unwrap_or(file).display());
    }
    match &source {
        SdkSource::Path(sdk) => outln!("The SDK: {} (a path dependency).", sdk.display()),
        SdkSource::Git(url) => outln!("The SDK: {url} (a git dependency)."),
    }
    let wasm = format!(
        "target/wasm32-unknown-unknown/release/{}.wasm",
        id.replace('-', "_")
    );
    outln!(
        "\nNext:\n  cd {}\n  cargo test\n  rustup target add wasm32-unknown-unknown\n  \
         cargo build --release --target wasm32-unknown-unknown\n  veillee check {wasm}\n  \
         veillee install {wasm}\n  veillee play {id} --seats human,random",
        dir.display()
    );
    Ok(())
}
