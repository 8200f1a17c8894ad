//! `racewit parse PATH...`: load the code and print each error as
//! `file:line:col: message`, then `files: N, lines: L, errors: E, seconds: S`.

use std::io::Write;
use std::time::Instant;

use anyhow::Result;
use racewit_syntax::{Severity, load_paths};

use crate::Outcome;
use crate::project::LoadArgs;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub load: LoadArgs,
    /// Also print warnings (-warning directives).
    #[arg(long)]
    pub warnings: bool,
}

pub fn run(args: Args) -> Result<Outcome> {
    let opts = args.load.load_options()?;
    let started = Instant::now();
    let program = load_paths(&args.load.paths, &opts);
    let seconds = started.elapsed().as_secs_f64();

    let mut out = std::io::stdout().lock();
    let mut errors = 0usize;
    for d in &program.diagnostics {
        let is_error = d.severity == Severity::Error;
        if is_error {
            errors += 1;
        } else if !args.warnings {
            continue;
        }
        let loc = program.sources.location(d.span);
        writeln!(out, "{loc}: {} {}", d.code.as_str(), d.message)?;
    }
    let modules: Vec<_> = program.modules.values().map(|m| m.file).collect();
    let lines: usize = modules
        .iter()
        .map(|&f| program.sources.get(f).line_count())
        .sum();
    writeln!(
        out,
        "files: {}, lines: {}, errors: {}, seconds: {:.2}",
        modules.len(),
        lines,
        errors,
        seconds
    )?;
    Ok(if errors > 0 {
        Outcome::Error
    } else {
        Outcome::Clean
    })
}
