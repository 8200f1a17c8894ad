//! `racewit parse [PATH...]`: load the code and print each error as
//! `file:line:col: CODE message` (the build configuration's first, then
//! the sources'), then `files: N, lines: L, errors: E, seconds: S`. When a
//! project's root was loaded, a first line names it.

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
    let opts = args.load.options()?;
    let started = Instant::now();
    let program = load_paths(&args.load.paths, &opts);
    let seconds = started.elapsed().as_secs_f64();

    let mut out = std::io::stdout().lock();
    for project in args.load.projects.iter().filter(|p| p.whole) {
        writeln!(out, "{}", project.summary())?;
    }
    let mut errors = 0usize;
    for d in args.load.config_diagnostics() {
        if d.severity == Severity::Error {
            errors += 1;
        } else if !args.warnings {
            continue;
        }
        writeln!(out, "{d}")?;
    }
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
