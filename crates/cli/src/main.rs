//! `racewit`: find race conditions in Erlang code and prove each one.
//!
//! One file per command; `report/` renders results (human, JSON, SARIF, HTML).
//! Exit codes follow Dialyzer: 0 no confirmed race, 1 error, 2 confirmed race(s).

/// jemalloc: loading, the static pass and the VM allocate and free many
/// small objects from two threads. Measured side by side on the OTP tree
/// and the VM benches: faster than the system allocator on the front end
/// (1.7 -> 1.4 s) and the static pass (15.3 -> 9.8 s); mimalloc was faster
/// on the VM's lists bench but 1.7x slower on the front end.
#[global_allocator]
static GLOBAL: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// jemalloc's settings, read when it starts: memory a finished search
/// freed is given back to the system within a second and its address space
/// unmapped (by default jemalloc keeps both for reuse, so under `ulimit
/// -v` the high-water mark of one search would stay charged to every later
/// one). Measured on the OTP kernel directory: see caps.rs.
#[allow(unsafe_code)] // the symbol jemalloc reads its configuration from
#[unsafe(export_name = "_rjem_malloc_conf")]
pub static MALLOC_CONF: &[u8; 50] = b"retain:false,dirty_decay_ms:1000,muzzy_decay_ms:0\0";

mod accept;
mod caps;
mod check;
mod config;
mod corpus;
mod erl_text;
mod explore;
mod libraries;
mod outdir;
mod parse_cmd;
mod picture;
mod progress;
mod project;
mod replay;
mod report;
mod run_cmd;
mod static_cmd;
mod triage;

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(
    name = "racewit",
    version,
    about = "Find race conditions in Erlang code and prove each one",
    long_about = "racewit finds read→write races on shared state (registered names, ETS \
                  tables, mnesia tables) in Erlang source, then runs the code under a \
                  bounded systematic scheduler to confirm each one with a witness \
                  interleaving that replays deterministically.\n\n\
                  Exit codes: 0 no confirmed race, 1 error, 2 confirmed race(s) found."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Find races and confirm each one: the static pass, then a bounded
    /// systematic search per suspect. Exit 2 when a race is confirmed.
    Check(check::Args),
    /// The static pass alone: suspect read→write pairs, unconfirmed.
    Static(static_cmd::Args),
    /// Explore the interleavings of a test entry (mod:fun/0) for crashes and deadlocks.
    Explore(explore::Args),
    /// Replay a witness deterministically and print its interleaving.
    Replay(replay::Args),
    /// Rank the warnings of a check report, worst first.
    Triage(triage::Args),
    /// Run the whole pipeline over a corpus and compare with its manifest.
    Corpus(corpus::Args),
    /// Load Erlang files and report syntax and preprocessor diagnostics.
    Parse(parse_cmd::Args),
    /// Run mod:fun/0 once on racewit's VM and print its output and result.
    Run(run_cmd::Args),
}

/// What a command ended with, mapped to the process exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// 0: nothing confirmed (or nothing wrong).
    Clean,
    /// 1: an error (bad input, failed load).
    Error,
    /// 2: at least one confirmed race.
    RacesFound,
}

impl From<Outcome> for ExitCode {
    fn from(o: Outcome) -> ExitCode {
        match o {
            Outcome::Clean => ExitCode::from(0),
            Outcome::Error => ExitCode::from(1),
            Outcome::RacesFound => ExitCode::from(2),
        }
    }
}

fn main() -> ExitCode {
    use clap::{CommandFactory, FromArgMatches};
    let parsed = Cli::command()
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m).map(|cli| (cli, m)));
    let (cli, matches) = match parsed {
        Ok(both) => both,
        Err(e) => {
            let code = if e.use_stderr() { 1 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let result = match cli.command {
        Command::Check(args) => {
            report::color::init(args.color.color);
            let given = |id: &str| {
                matches.subcommand_matches("check").is_some_and(|m| {
                    m.value_source(id) == Some(clap::parser::ValueSource::CommandLine)
                })
            };
            check::run(args, &given)
        }
        Command::Static(args) => {
            report::color::init(args.color.color);
            static_cmd::run(args)
        }
        Command::Explore(args) => explore::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Triage(args) => triage::run(args),
        Command::Corpus(args) => corpus::run(args),
        Command::Parse(args) => parse_cmd::run(args),
        Command::Run(args) => run_cmd::run(args),
    };
    match result {
        Ok(outcome) => outcome.into(),
        Err(err) => {
            if is_broken_pipe(&err) {
                return ExitCode::from(0);
            }
            let mut stderr = std::io::stderr().lock();
            let _ = writeln!(stderr, "racewit: error: {err:#}");
            ExitCode::from(1)
        }
    }
}

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
