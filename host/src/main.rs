//! The `veillee` binary: the command line now, the launcher window when run without a
//! subcommand (coming with the launcher issue; until then it prints help).

use clap::Parser;

fn main() -> std::process::ExitCode {
    let cli = veillee::cli::Cli::parse();
    match veillee::cli::run(cli) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
