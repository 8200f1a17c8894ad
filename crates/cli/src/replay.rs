//! `racewit replay W.json`: run a witness again, deterministically, and print
//! the interleaving one event per line; `--recheck` searches again on the
//! current code instead (after a fix: UNCONFIRMED with the space exhausted).

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use racewit_confirm::confirmation::{ConfirmOptions, confirm_all};
use racewit_confirm::verdict::Status;
use racewit_confirm::witness::{Witness, WitnessEvent, WitnessKind};
use racewit_confirm::witness_replay::replay_witness;
use racewit_static::{StaticOptions, find_suspects};
use racewit_syntax::{LoadOptions, load_paths};

use crate::Outcome;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// A witness file written by `racewit check` or `racewit explore`.
    #[arg(value_name = "WITNESS.json")]
    pub witness: PathBuf,
    /// Search again on the current code within the witness's bound, instead of replaying.
    #[arg(long)]
    pub recheck: bool,
    /// Also write the witness as a sequence diagram in a self-contained HTML file.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Also write the witness as a sequence diagram in an SVG file.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
}

pub fn read_witness(path: &PathBuf) -> Result<Witness> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    serde_json::from_str(&text)
        .with_context(|| format!("{} is not a racewit witness", path.display()))
}

fn load_options(w: &Witness) -> LoadOptions {
    LoadOptions {
        include_dirs: w.load.include_dirs.iter().map(PathBuf::from).collect(),
        lib_dirs: w.load.lib_dirs.iter().map(PathBuf::from).collect(),
        defines: w.load.defines.clone(),
        // As `check` loaded them.
        epp_includes_only: false,
    }
}

/// The interleaving, one event per line.
pub fn render_events(events: &[WitnessEvent]) -> String {
    let width = events.iter().map(|e| e.process.len()).max().unwrap_or(2);
    let text_width = events
        .iter()
        .map(|e| e.text.chars().count())
        .max()
        .unwrap_or(0)
        .min(60);
    let mut out = String::new();
    for e in events {
        let loc = match (&e.file, e.line) {
            (Some(f), Some(l)) => format!("{}:{l}", short_path(f)),
            _ => String::new(),
        };
        let role = match e.role.as_deref() {
            Some("read") => "  <- (1) read",
            Some("interfering_write") => "  <- (2) another process writes",
            Some("stale_write") => "  <- (3) stale write",
            _ => "",
        };
        let pre = if e.preemption { "*" } else { " " };
        let line = format!(
            "{:>4}{pre} {:<width$}  {:<text_width$}   {loc}{role}",
            e.step, e.process, e.text
        );
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

fn short_path(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

pub fn run(args: Args) -> Result<Outcome> {
    let w = read_witness(&args.witness)?;
    let paths: Vec<PathBuf> = w.load.paths.iter().map(PathBuf::from).collect();
    for p in &paths {
        if !p.exists() {
            bail!(
                "{}: the witness loads {}, which does not exist (run replay from the directory `check` ran in)",
                args.witness.display(),
                p.display()
            );
        }
    }
    let program = load_paths(&paths, &load_options(&w));
    // The libraries the witness was found with, loaded from the same places.
    let libraries = crate::libraries::from_record(&w.load.libraries);
    if crate::libraries::digest(&w.load.libraries) != crate::libraries::digest(&libraries.record) {
        eprintln!(
            "racewit: warning: the library code differs from when {} was recorded ({})",
            args.witness.display(),
            if w.load.libraries.is_empty() {
                "it records none".to_string()
            } else {
                w.load.libraries.join("; ")
            }
        );
    }
    let mut out = std::io::stdout().lock();
    if args.recheck {
        return recheck(&w, program, libraries, &mut out);
    }
    let mut opts = ConfirmOptions::default();
    opts.vm.libraries = libraries;
    let replayed = replay_witness(program, &w, &opts)
        .with_context(|| format!("replaying {}", args.witness.display()))?;
    let header = match w.kind {
        WitnessKind::Suspect => format!("witness for {} (schedule replayed exactly)\n", w.subject),
        WitnessKind::Explore => format!("witness for {}: {:?}\n", w.subject, w.failure),
    };
    out.write_all(header.as_bytes())?;
    out.write_all(render_events(&replayed.events).as_bytes())?;
    if let Some(path) = &args.html {
        std::fs::write(path, crate::picture::html(&w))
            .with_context(|| format!("writing {}", path.display()))?;
    }
    if let Some(path) = &args.svg {
        std::fs::write(path, crate::picture::svg(&w))
            .with_context(|| format!("writing {}", path.display()))?;
    }
    // Reproduced as recorded: success.
    Ok(Outcome::Clean)
}

fn recheck(
    w: &Witness,
    program: racewit_syntax::ir::Program,
    libraries: std::sync::Arc<racewit_vm::Libraries>,
    out: &mut impl Write,
) -> Result<Outcome> {
    if w.kind != WitnessKind::Suspect {
        bail!(
            "--recheck applies to race witnesses; run `racewit explore {}` again instead",
            w.subject
        );
    }
    let analysis = find_suspects(&program, &StaticOptions::default());
    let Some(suspect) = analysis
        .suspects
        .iter()
        .find(|s| s.id == w.subject)
        .cloned()
    else {
        writeln!(
            out,
            "{}: the static pass no longer reports this suspect on the current code",
            w.subject
        )?;
        return Ok(Outcome::Clean);
    };
    let mut opts = ConfirmOptions {
        max_preemptions: w.verdict.bound,
        ..ConfirmOptions::default()
    };
    opts.vm.libraries = libraries;
    let (_, results) = confirm_all(program, std::slice::from_ref(&suspect), &w.load, &opts);
    let c = &results[0];
    writeln!(
        out,
        "{}: {}",
        suspect.id,
        crate::report::human::verdict_line(c)
    )?;
    Ok(if c.verdict.status == Status::Confirmed {
        Outcome::RacesFound
    } else {
        Outcome::Clean
    })
}
