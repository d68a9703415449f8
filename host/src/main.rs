//! The `veillee` binary: the launcher window when run without a subcommand, else the
//! command line.

use clap::Parser;

fn main() -> std::process::ExitCode {
    let cli = veillee::cli::Cli::parse();
    let result = if cli.command.is_none() {
        veillee::data_dir::DataDir::resolve(cli.data_dir)
            .and_then(|data| veillee::ui::run(data, cli.lang))
    } else {
        veillee::cli::run(cli)
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
