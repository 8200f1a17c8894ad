//! `racewit replay W.json`: run a witness again, deterministically, and print
//! the interleaving one event per line; `--recheck` searches again on the
//! current code instead (after a fix: UNCONFIRMED with the space exhausted).

use std::io::Write;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use racewit_confirm::confirmation::{ConfirmOptions, confirm_all, start};
use racewit_confirm::goal::FailureGoal;
use racewit_confirm::search::replay::replay;
use racewit_confirm::verdict::Status;
use racewit_confirm::witness::{Witness, WitnessEvent, WitnessKind};
use racewit_confirm::witness_replay::{add_harness, replay_witness};
use racewit_static::{StaticOptions, find_suspects};
use racewit_syntax::{LoadOptions, load_paths};

use crate::Outcome;
use crate::erl_text::PidNames;
use crate::report::visible;

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

/// The largest witness file read (a witness racewit writes is a few
/// hundred kilobytes at most; a bigger file was made by something else).
const MAX_WITNESS_BYTES: u64 = 256 << 20;
/// The most steps a witness's schedule may have (`check` and `explore`
/// cut runs far below this; a longer schedule was tampered with).
const MAX_WITNESS_STEPS: usize = racewit_confirm::schedule::MAX_SCHEDULE_STEPS;

pub fn read_witness(path: &PathBuf) -> Result<Witness> {
    let meta = std::fs::metadata(path).with_context(|| format!("reading {}", path.display()))?;
    if !meta.is_file() {
        bail!("{}: not a regular file", path.display());
    }
    if meta.len() > MAX_WITNESS_BYTES {
        bail!(
            "{}: {} bytes, more than any witness racewit writes ({} MB at most)",
            path.display(),
            meta.len(),
            MAX_WITNESS_BYTES >> 20
        );
    }
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let w: Witness = serde_json::from_str(&text)
        .with_context(|| format!("{} is not a racewit witness", path.display()))?;
    if w.schedule.steps.len() > MAX_WITNESS_STEPS {
        bail!(
            "{}: a schedule of {} steps, more than any run racewit explores ({MAX_WITNESS_STEPS})",
            path.display(),
            w.schedule.steps.len()
        );
    }
    Ok(w)
}

/// The files a witness's run loaded: its recorded module files (so a
/// witness names exactly what is read, and a tampered path list cannot
/// send replay walking a whole file system), or in an older witness the
/// module files of its sources; the command line's paths only for a
/// witness that records neither.
fn witness_paths(w: &Witness) -> Vec<PathBuf> {
    let modules: Vec<PathBuf> = if w.modules.is_empty() {
        w.sources
            .iter()
            .map(|s| PathBuf::from(&s.path))
            .filter(|p| p.extension().is_some_and(|x| x == "erl"))
            .collect()
    } else {
        w.modules.iter().map(PathBuf::from).collect()
    };
    if modules.is_empty() {
        w.load.paths.iter().map(PathBuf::from).collect()
    } else {
        modules
    }
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

/// The interleaving, one event per line, with no names for raw pids (see
/// [`render_named_events`]).
pub fn render_events(events: &[WitnessEvent]) -> String {
    render_named_events(events, None)
}

/// The interleaving, one event per line: terms as Erlang prints them
/// (binaries, and pids by their stable names when `names` are given), files
/// relative to the current directory.
pub fn render_named_events(events: &[WitnessEvent], names: Option<&PidNames>) -> String {
    let width = events.iter().map(|e| e.process.len()).max().unwrap_or(2);
    let texts: Vec<String> = events
        .iter()
        .map(|e| visible(&crate::erl_text::rewrite(&e.text, names)).into_owned())
        .collect();
    let text_width = texts
        .iter()
        .map(|t| t.chars().count())
        .max()
        .unwrap_or(0)
        .min(60);
    let mut out = String::new();
    for (e, text) in events.iter().zip(&texts) {
        let loc = match (&e.file, e.line) {
            (Some(f), Some(l)) => format!("{}:{l}", visible(&shown_path(f))),
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
            e.step, e.process, text
        );
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// A source file as the user can open it: relative to the current
/// directory when it is under it, else as recorded; a generated harness
/// keeps its `<racewit-harness>/` prefix.
pub fn shown_path(path: &str) -> String {
    let cwd = std::env::current_dir().ok();
    shown_path_from(path, cwd.as_deref())
}

fn shown_path_from(path: &str, cwd: Option<&Path>) -> String {
    let p = Path::new(path);
    let relative = if p.is_absolute() {
        match cwd.and_then(|c| p.strip_prefix(c).ok()) {
            Some(r) => r,
            None => return path.to_string(),
        }
    } else {
        p
    };
    let parts: Vec<String> = relative
        .components()
        .filter(|c| !matches!(c, Component::CurDir))
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.is_empty() {
        path.to_string()
    } else {
        parts.join("/")
    }
}

/// The stable names of the processes of the witness's run, by pid
/// number: the schedule is run once more on a fresh load, to the end.
/// `None` when that run cannot be made (the replay itself has succeeded by
/// then, so this only costs the names).
fn pid_names(w: &Witness, libraries: &Arc<racewit_vm::Libraries>) -> Option<PidNames> {
    let paths = witness_paths(w);
    let mut program = load_paths(&paths, &load_options(w));
    add_harness(&mut program, w).ok()?;
    let mut opts = ConfirmOptions {
        timeouts: w.timeouts,
        ..ConfirmOptions::default()
    };
    opts.vm.libraries = libraries.clone();
    let image = racewit_vm::Image::new(Arc::new(program), &opts.vm);
    let sys = start(&image, &w.harness.module, &w.harness.function, &opts);
    let run = replay(&sys, FailureGoal::default(), &w.schedule.steps).ok()?;
    let vm = &run.end.vm;
    Some(
        vm.processes()
            .into_iter()
            .map(|pid| (pid.number(), vm.process_name(pid).to_string()))
            .collect(),
    )
}

pub fn run(args: Args) -> Result<Outcome> {
    let w = read_witness(&args.witness)?;
    // A module file the run did not execute may be gone: it was loaded,
    // not run (one it executed is reported missing below).
    let executed = |p: &PathBuf| w.sources.iter().any(|s| Path::new(&s.path) == p);
    let paths: Vec<PathBuf> = witness_paths(&w)
        .into_iter()
        .filter(|p| p.exists() || executed(p))
        .collect();
    let cwd = std::env::current_dir()
        .and_then(|d| d.canonicalize())
        .context("reading the current directory")?;
    for p in &paths {
        if !p.exists() {
            bail!(
                "{}: the witness loads {}, which does not exist (run replay from the directory `check` ran in)",
                args.witness.display(),
                p.display()
            );
        }
        // A directory is walked: only within the directory replay runs in,
        // whatever a witness (perhaps tampered with) says.
        if p.is_dir() && !p.canonicalize().is_ok_and(|c| c.starts_with(&cwd)) {
            bail!(
                "{}: the witness loads {}, which is outside the directory replay runs in ({}); \
                 run replay from the directory `check` ran in",
                args.witness.display(),
                p.display(),
                cwd.display()
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
    opts.vm.libraries = libraries.clone();
    let replayed = replay_witness(program, &w, &opts)
        .with_context(|| format!("replaying {}", args.witness.display()))?;
    // Raw pids in the texts are named after a second run, only when some
    // text has one.
    let names = replayed
        .events
        .iter()
        .any(|e| crate::erl_text::mentions_pid(&e.text))
        .then(|| pid_names(&w, &libraries))
        .flatten();
    let header = match w.kind {
        WitnessKind::Suspect => format!(
            "witness for {} (schedule replayed exactly)\n",
            visible(&w.subject)
        ),
        WitnessKind::Explore => format!(
            "witness for {}: {}\n",
            visible(&w.subject),
            visible(&format!("{:?}", w.failure))
        ),
    };
    out.write_all(header.as_bytes())?;
    out.write_all(render_named_events(&replayed.events, names.as_ref()).as_bytes())?;
    if let Some(path) = &args.html {
        std::fs::write(path, crate::picture::html(&w, names.as_ref()))
            .with_context(|| format!("writing {}", path.display()))?;
    }
    if let Some(path) = &args.svg {
        std::fs::write(path, crate::picture::svg(&w, names.as_ref()))
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

#[cfg(test)]
mod tests {
    use super::shown_path_from;
    use std::path::Path;

    #[test]
    fn paths_are_shown_relative_to_the_current_directory() {
        let cwd = Some(Path::new("/home/u/proj"));
        let shown = |p: &str| shown_path_from(p, cwd);
        assert_eq!(shown("/home/u/proj/src/a.erl"), "src/a.erl");
        assert_eq!(shown("./src/a.erl"), "src/a.erl");
        assert_eq!(shown("src/a.erl"), "src/a.erl");
        assert_eq!(
            shown("/usr/lib/erlang/lib/x.erl"),
            "/usr/lib/erlang/lib/x.erl"
        );
        assert_eq!(shown("/home/u/project2/a.erl"), "/home/u/project2/a.erl");
        assert_eq!(
            shown("<racewit-harness>/racewit_harness_2.erl"),
            "<racewit-harness>/racewit_harness_2.erl"
        );
    }
}
