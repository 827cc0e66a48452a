//! The `pagelevel` binary: parses arguments, calls the library, maps outcomes to exit codes.
//!
//! Exit codes: 0 success, 1 a quality check failed or some pages of a batch failed, 2 an error
//! (bad input, bad arguments, unusable environment), 128 + N stopped by signal N (SIGINT 130,
//! SIGTERM 143, SIGHUP 129). Nothing else lives here.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    cli::signals::stop_browsers_on_termination();
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(cli::Outcome::Success) => ExitCode::SUCCESS,
        Ok(cli::Outcome::SomeFailed) => ExitCode::from(1),
        // A reader that stopped reading (`pagelevel score … | head`) is not an error.
        Err(error) if is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("pagelevel: error: {error:#}");
            ExitCode::from(2)
        }
    }
}

fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
