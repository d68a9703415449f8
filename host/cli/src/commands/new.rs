//! `veillee new GAME-ID`: writes a plugin crate and says how to build, check and install it.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use veillee_runtime::scaffold::{self, SdkSource, REPOSITORY};

use crate::term::outln;

/// `veillee new GAME-ID`.
#[derive(clap::Args, Debug)]
pub struct NewArgs {
    /// The game's id: lowercase letters, digits and hyphens (`nine-men`).
    id: String,
    /// Folder to write it in (default: ./ID); must not exist or be empty.
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
    /// Depend on the SDK in this folder (default: the SDK of the clone this veillee was
    /// built from, else the project's git repository).
    #[arg(long, value_name = "SDK_DIR", conflicts_with = "git")]
    sdk: Option<PathBuf>,
    /// Depend on the SDK through the project's git repository.
    #[arg(long)]
    git: bool,
}

impl NewArgs {
    /// Writes the plugin crate, then says how to build, check and install it.
    pub fn run(&self) -> anyhow::Result<()> {
        let id = self.id.as_str();
        if let Some(problem) = scaffold::id_problem(id) {
            bail!(problem);
        }
        let source = sdk_source(self.sdk.as_deref(), self.git)?;
        let dir = self.dir.clone().unwrap_or_else(|| PathBuf::from(id));
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
}

/// Where the new crate finds the SDK: `--sdk DIR`, `--git`, else this build's default.
fn sdk_source(sdk: Option<&Path>, git: bool) -> anyhow::Result<SdkSource> {
    Ok(match (sdk, git) {
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
    })
}
