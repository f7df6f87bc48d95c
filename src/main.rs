use std::process::ExitCode;

use clap::{Parser, Subcommand};

use catena::arena::{self, MatchArgs};
use catena::cli::{Failure, FailureKind};
use catena::gui::{self, GuiArgs};
use catena::play::{self, PlayArgs};
use catena::tools::book::{self, BookArgs};
use catena::tools::chain::{self, ChainArgs};
use catena::tools::datagen::{self, DatagenArgs};
use catena::tools::perft::{self, PerftArgs};
use catena::tools::puzzles::{self, PuzzlesArgs};
use catena::tools::solve::{self, SolveArgs};
use catena::tools::sscc_bench::{self, SsccBenchArgs};
use catena::tools::train::{self, TrainArgs};
use catena_engine::bench;

/// Catena, an engine for Switch-Side Chain-Chess.
#[derive(Parser, Debug)]
#[command(version, about)]
struct Cli {
    /// Without a command Catena runs as a UCI engine on stdin and stdout.
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the leaves of the move tree (chess or SSCC).
    Perft(PerftArgs),
    Chain(ChainArgs),
    /// Play a match between two engines (SSCC or chess), refereed by Catena.
    Match(Box<MatchArgs>),
    Play(PlayArgs),
    Gui(GuiArgs),
    /// Fit the evaluation network to labelled positions.
    Train(TrainArgs),
    /// Write training positions from Catena's own SSCC self-play.
    Datagen(DatagenArgs),
    Solve(SolveArgs),
    Puzzles(PuzzlesArgs),
    Book(BookArgs),
    /// Search the built-in positions to a fixed depth; the last line is `<nodes> nodes <nps> nps`.
    #[command(args_conflicts_with_subcommands = true)]
    Bench {
        #[command(subcommand)]
        suite: Option<BenchSuite>,
        /// Search depth.
        #[arg(default_value_t = bench::DEFAULT_DEPTH, value_parser = clap::value_parser!(i32).range(1..=100))]
        depth: i32,
        /// Search threads (Lazy SMP); the node count is deterministic with one.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: u16,
        /// Transposition table size in MB.
        #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=65536))]
        hash: u32,
    },
}

#[derive(Subcommand, Debug)]
enum BenchSuite {
    /// SSCC positions in chess and sscc mode: nodes to a fixed depth, depth
    /// and speed at a fixed time, and the sscc/chess ratios.
    Sscc(SsccBenchArgs),
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    // A command line written for fastchess: `catena match -engine cmd=… -each tc=…`.
    let argv = match arena::fastchess::rewrite_command_line(std::env::args_os().collect()) {
        Ok(argv) => argv,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(2);
        }
    };
    let cli = match Cli::try_parse_from(argv) {
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
    let outcome: Result<bool, Failure> = match &cli.command {
        None => {
            catena_engine::uci::Uci::new().run(std::io::stdin().lock());
            Ok(true)
        }
        Some(Command::Perft(args)) => perft::run(args),
        Some(Command::Chain(args)) => chain::run(args),
        Some(Command::Match(args)) => arena::run(args),
        Some(Command::Play(args)) => play::run(args),
        Some(Command::Gui(args)) => gui::run(args),
        Some(Command::Train(args)) => train::run(args),
        Some(Command::Datagen(args)) => datagen::run(args),
        Some(Command::Puzzles(args)) => puzzles::run(args).map(|()| true),
        Some(Command::Solve(args)) => solve::run(args).map(|()| true),
        Some(Command::Book(args)) => book::run(args),
        Some(Command::Bench {
            suite: Some(BenchSuite::Sscc(args)),
            ..
        }) => sscc_bench::run(args, &mut |line| println!("{line}"))
            .map(|()| true)
            .or_runtime(),
        Some(Command::Bench {
            suite: None,
            depth,
            threads,
            hash,
        }) => {
            let control = catena_engine::thread::Control::default();
            bench::run(
                *depth,
                *hash as usize,
                (*threads).into(),
                &control,
                &mut |line| println!("{line}"),
            );
            Ok(true)
        }
    };
    // Bad input exits with status 2, as clap's own errors; a failure while
    // running with 1, as does `Ok(false)`, whose command said what failed.
    match outcome {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(failure) => {
            eprintln!("error: {}", failure.message());
            ExitCode::from(failure.status())
        }
    }
}
