//! `racewit run mod:fun/0 PATH...`: run an entry once on racewit's VM under a
//! plain round-robin schedule and print what it printed, then its result as
//! `io:format("~p~n", [mod:fun()])` would.

use std::io::Write;
use std::sync::Arc;

use anyhow::{Result, bail};
use racewit_vm::run::{RunConfig, RunResult, run_entry};

use crate::Outcome;
use crate::project::LoadArgs;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The entry, `module:function/0`.
    #[arg(value_name = "MOD:FUN/0")]
    pub entry: String,
    #[command(flatten)]
    pub load: LoadArgs,
}

pub fn run(args: Args) -> Result<Outcome> {
    let (module, function) = crate::explore::parse_entry(&args.entry)?;
    let opts = args.load.load_options()?;
    let program = crate::progress::load(&args.load.paths, &opts, crate::report::Format::Human)?;
    if program.function(&module, &function, 0).is_none() {
        bail!("{}: no such function in the loaded code", args.entry);
    }
    let errors: Vec<_> = program
        .diagnostics
        .iter()
        .filter(|d| d.severity == racewit_syntax::Severity::Error)
        .collect();
    for d in &errors {
        eprintln!(
            "{}: {} {}",
            program.sources.location(d.span),
            d.code.as_str(),
            d.message
        );
    }
    let config = RunConfig {
        libraries: crate::libraries::load(&args.load.paths, &args.load.dep_dirs()),
        ..RunConfig::default()
    };
    let outcome = run_entry(Arc::new(program), &module, &function, &config);
    // As `erl -noshell` writes standard_io: latin1 (OTP 25, whatever the
    // locale), code points above 255 in UTF-8.
    std::io::stdout()
        .lock()
        .write_all(&outcome.stdout_bytes())?;
    // What `logger` captured, on stderr: stdout stays what
    // `erl -noshell -kernel logger_level none` prints.
    let mut err = std::io::stderr().lock();
    for (proc, e) in &outcome.log {
        let at = e
            .location
            .as_deref()
            .map(|l| format!(" {l}"))
            .unwrap_or_default();
        writeln!(
            err,
            "=LOG {} {proc}{at}\n{}",
            e.level.to_uppercase(),
            e.text
        )?;
    }
    match &outcome.result {
        RunResult::Value(_) => Ok(Outcome::Clean),
        RunResult::Crashed { .. } => Ok(Outcome::Error),
        RunResult::Parked {
            call,
            location,
            reason,
        } => {
            bail!(
                "{}: stopped at {} ({location})",
                args.entry,
                reason.describe(call)
            )
        }
        RunResult::Deadlock => bail!("{}: no process can run (deadlock)", args.entry),
        RunResult::BudgetExhausted => bail!(
            "{}: the reduction budget ran out (livelock or very long run)",
            args.entry
        ),
    }
}
