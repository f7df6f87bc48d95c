use std::process::ExitCode;

use clap::{Parser, Subcommand};

use catena::board::attacks;
use catena::tools::chain::{self, ChainArgs};
use catena::tools::perft::{self, PerftArgs};

/// Catena, an engine for Switch-Side Chain-Chess.
#[derive(Parser, Debug)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the leaves of the move tree (chess or SSCC).
    Perft(PerftArgs),
    Chain(ChainArgs),
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) if !error.use_stderr() => {
            // --help and --version: print as clap does.
            let _ = error.print();
            return ExitCode::SUCCESS;
        }
        Err(error) => {
            // One line, not clap's usage block, so that scripts can log it.
            let rendered = error.render().to_string();
            let message: Vec<&str> = rendered
                .lines()
                .map(str::trim)
                .take_while(|line| !line.is_empty())
                .collect();
            eprintln!("{} (see 'catena --help')", message.join(" "));
            return ExitCode::from(2);
        }
    };
    attacks::init();
    let outcome = match &cli.command {
        Command::Perft(args) => perft::run(args),
        Command::Chain(args) => chain::run(args),
    };
    match outcome {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}
