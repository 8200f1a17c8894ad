//! `racewit explore mod:fun/0 PATH...`: every interleaving of a test entry
//! within the bound; crashes and deadlocks, each with a witness.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use racewit_confirm::explore::{ExploreOptions, explore};
use racewit_confirm::goal::Failure;
use racewit_confirm::search::{Cancel, CancelReason, SearchStats, StopReason};

use crate::Outcome;
use crate::check::{SearchArgs, load_record};
use crate::project::LoadArgs;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The test entry, `module:function/0`.
    #[arg(value_name = "MOD:FUN/0")]
    pub entry: String,
    #[command(flatten)]
    pub load: LoadArgs,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Keep going after the first failure and classify every interleaving.
    #[arg(long)]
    pub all: bool,
    /// Where witnesses are written.
    #[arg(long, value_name = "DIR", default_value = "_racewit")]
    pub out: PathBuf,
}

/// `mod:fun/0` → (mod, fun).
pub fn parse_entry(entry: &str) -> Result<(String, String)> {
    let bad = || anyhow::anyhow!("`{entry}`: expected module:function/0, e.g. my_test:run/0");
    let (m, rest) = entry.split_once(':').ok_or_else(bad)?;
    let (f, a) = rest.rsplit_once('/').unwrap_or((rest, "0"));
    if m.is_empty() || f.is_empty() {
        return Err(bad());
    }
    if a != "0" {
        bail!("`{entry}`: an entry takes no arguments (arity 0)");
    }
    Ok((m.to_string(), f.to_string()))
}

/// Why `module:function/0` is no entry of the loaded code, naming what
/// is there instead: the module's exported functions of arity 0, or the
/// loaded modules when the module is not one of them.
pub fn missing_entry(
    program: &racewit_syntax::ir::Program,
    module: &str,
    function: &str,
) -> String {
    const SHOWN: usize = 12;
    let listed = |names: Vec<String>| {
        if names.len() > SHOWN {
            format!(
                "{}, and {} more",
                names[..SHOWN].join(", "),
                names.len() - SHOWN
            )
        } else {
            names.join(", ")
        }
    };
    let entry = format!("{module}:{function}/0");
    match program.module(module) {
        Some(m) => {
            let mut zero: Vec<String> = m
                .functions
                .iter()
                .filter(|f| f.arity == 0 && f.exported)
                .map(|f| format!("{module}:{}/0", f.name))
                .collect();
            zero.sort();
            if zero.is_empty() {
                format!(
                    "{entry}: no such function in the loaded code, and {module} exports no \
                     function of arity 0"
                )
            } else {
                format!(
                    "{entry}: no such function in the loaded code; {module} exports these of \
                     arity 0: {}",
                    listed(zero)
                )
            }
        }
        None if program.modules.is_empty() => {
            format!("{entry}: no module was loaded from the given paths")
        }
        None => format!(
            "{entry}: no module {module} in the loaded code; the loaded modules: {}",
            listed(program.modules.keys().map(|n| n.to_string()).collect())
        ),
    }
}

pub fn describe(f: &Failure) -> String {
    match f {
        Failure::Crash { process, reason } => format!("{process} crashed: {reason}"),
        Failure::Deadlock { processes } => {
            format!("deadlock: {} blocked forever", processes.join(", "))
        }
    }
}

pub fn run(args: Args) -> Result<Outcome> {
    let (module, function) = parse_entry(&args.entry)?;
    let load_opts = args.load.load_options()?;
    let confirm = args.search.options()?;
    let program =
        crate::progress::load(&args.load.paths, &load_opts, crate::report::Format::Human)?;
    if program.function(&module, &function, 0).is_none() {
        bail!("{}", missing_entry(&program, &module, &function));
    }
    let libraries = crate::libraries::load(&args.load.paths, &args.load.dep_dirs());
    let mut record = load_record(&args.load, &load_opts);
    record.libraries = libraries.record.clone();
    let program = Arc::new(program);
    let caps = args.search.caps()?;
    let cancel = Arc::new(Cancel::default());
    let mut confirm = confirm;
    confirm.cancel = Some(cancel.clone());
    confirm.vm.libraries = libraries;
    let done = std::sync::atomic::AtomicBool::new(false);
    let result = std::thread::scope(|scope| {
        // The caps on time and memory, watched from outside the search.
        scope.spawn(|| {
            let mut watcher = crate::caps::Watcher::new(caps);
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                watcher.poll(&[(0, cancel.clone())]);
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
        });
        let result = explore(
            &program,
            &module,
            &function,
            &record,
            &ExploreOptions {
                confirm,
                all: args.all,
            },
        );
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        result
    });
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("creating {}", args.out.display()))?;
    let mut out = std::io::stdout().lock();
    for (i, (failure, witness)) in result.failures.iter().enumerate() {
        let name = format!("explore-{module}-{function}-{}.json", i + 1);
        let path = args.out.join(name);
        std::fs::write(&path, serde_json::to_string_pretty(witness)? + "\n")
            .with_context(|| format!("writing {}", path.display()))?;
        let mut text = describe(failure);
        if matches!(failure, Failure::Deadlock { .. })
            && args.search.after_timeout == racewit_confirm::vm_system::TimeoutPolicy::Never
        {
            // Say so: with timeouts allowed, the same processes might go on.
            text.push_str(" (--after-timeout never: a pending `after` never fires)");
        }
        writeln!(out, "{}: {text}", args.entry)?;
        out.write_all(crate::replay::render_events(&witness.trace).as_bytes())?;
        writeln!(out, "replay: racewit replay {}", path.display())?;
    }
    let s = &result.stats;
    let random = args.search.random.is_some();
    let how = how_it_ended(&result.stop, s, random, args.search.max_interleavings);
    writeln!(
        out,
        "{}: {} failing interleaving(s) ({} kept as witnesses), {} interleavings explored ({} sleep-set blocked), bound {}, {how}",
        args.entry,
        s.findings,
        result.failures.len(),
        s.interleavings,
        s.sleep_blocked,
        args.search.bound
    )?;
    for line in partial_runs(s) {
        writeln!(out, "{}: {line}", args.entry)?;
    }
    Ok(exit_outcome(
        !result.failures.is_empty(),
        &result.stop,
        s,
        random,
    ))
}

/// How the exploration ended, as the summary line says it. "every
/// interleaving explored" and "space within the bound exhausted" only when
/// every run ran whole; a systematic search stopped at its interleaving
/// budget says that runs were left unexplored. A random search (`random`)
/// claims only the runs it made. `budget` is `--max-interleavings` (a
/// bounded search after DPOR stops at what DPOR left of it).
fn how_it_ended(stop: &StopReason, s: &SearchStats, random: bool, budget: u64) -> String {
    let whole = s.runs_whole();
    match stop {
        StopReason::Exhausted if whole => "space within the bound exhausted".to_string(),
        StopReason::ExhaustedAll if whole => "every interleaving explored".to_string(),
        StopReason::Exhausted | StopReason::ExhaustedAll => {
            "NOT explored whole: some runs did not run to their end".to_string()
        }
        StopReason::Found => "stopped at the first failure".to_string(),
        StopReason::InterleavingBudget { limit } if random => {
            let sample = format!(
                "{} random runs (a sample, not every interleaving)",
                racewit_vm::limits::thousands(*limit)
            );
            if whole {
                sample
            } else {
                format!("{sample}, NOT run whole: some runs did not run to their end")
            }
        }
        StopReason::InterleavingBudget { .. } => format!(
            "NOT explored whole: stopped at the budget of {} interleavings with runs left \
             unexplored (--max-interleavings raises it)",
            racewit_vm::limits::thousands(budget)
        ),
        StopReason::Cancelled { why } => match why {
            CancelReason::Memory { limit_bytes } => format!(
                "stopped: racewit held more than its memory budget of {} MB (--max-memory)",
                limit_bytes >> 20
            ),
            CancelReason::Time { seconds } => {
                format!("stopped: the exploration took longer than {seconds} s (--timeout)")
            }
            // `explore` gives no allowance of work; a caller that does is told.
            CancelReason::Work { limit } => format!(
                "stopped: the exploration ran its {} reductions",
                racewit_vm::limits::thousands(*limit)
            ),
        },
    }
}

/// The exit status: 2 when a failure was found; 1 when some run did not
/// run whole (a process stopped at an unsupported call, a run cut at the
/// step limit or by the VM), a cap stopped the search, or a systematic
/// search stopped at its interleaving budget with runs left, since what
/// was explored is then not the program's whole behaviour (or not the
/// whole space it claims) and no "nothing found" may be read from it; 0
/// otherwise. A random search (`random`) claims only its sample: its
/// budget is its size.
fn exit_outcome(found: bool, stop: &StopReason, s: &SearchStats, random: bool) -> Outcome {
    let cut_short = match stop {
        StopReason::Cancelled { .. } => true,
        StopReason::InterleavingBudget { .. } => !random,
        StopReason::Found | StopReason::Exhausted | StopReason::ExhaustedAll => false,
    };
    if found {
        Outcome::RacesFound
    } else if !s.runs_whole() || cut_short {
        Outcome::Error
    } else {
        Outcome::Clean
    }
}

/// Lines naming the runs that did not run whole: cut at the step limit or
/// by the VM, or with a process stopped at an unsupported call.
pub fn partial_runs(s: &SearchStats) -> Vec<String> {
    let mut lines = Vec::new();
    if s.parked_runs > 0 {
        lines.push(format!(
            "{} of {} runs stopped at {}",
            s.parked_runs,
            s.interleavings,
            s.first_parked_text().unwrap_or_else(|| "?".to_string())
        ));
    }
    if s.cut_runs > 0 {
        lines.push(format!(
            "{} of {} runs were cut: {}",
            s.cut_runs,
            s.interleavings + s.cut_runs,
            s.first_error.as_deref().unwrap_or("?")
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats(interleavings: u64, parked: u64, cut: u64) -> SearchStats {
        SearchStats {
            interleavings,
            parked_runs: parked,
            first_parked: (parked > 0).then(|| "os:cmd/1 (x.erl:9)".to_string()),
            cut_runs: cut,
            first_error: (cut > 0)
                .then(|| "the program did not terminate within 300 steps".to_string()),
            ..SearchStats::default()
        }
    }

    #[test]
    fn runs_not_whole_never_claim_and_exit_1() {
        let all = StopReason::ExhaustedAll;
        let bound = StopReason::Exhausted;
        // One cause at a time: parked runs, cut runs, both.
        for s in [stats(18, 3, 0), stats(0, 0, 2), stats(5, 1, 1)] {
            for stop in [&all, &bound] {
                let how = how_it_ended(stop, &s, false, 100);
                assert!(how.starts_with("NOT explored whole"), "{how}");
                assert_eq!(exit_outcome(false, stop, &s, false), Outcome::Error);
                // A failure found is still a failure.
                assert_eq!(exit_outcome(true, stop, &s, false), Outcome::RacesFound);
            }
        }
        assert_eq!(
            partial_runs(&stats(18, 3, 0)),
            ["3 of 18 runs stopped at unsupported call os:cmd/1 (x.erl:9)"]
        );
        assert_eq!(
            partial_runs(&stats(0, 0, 2)),
            ["2 of 2 runs were cut: the program did not terminate within 300 steps"]
        );
    }

    #[test]
    fn whole_runs_claim_what_they_explored() {
        let s = stats(18, 0, 0);
        assert_eq!(
            how_it_ended(&StopReason::ExhaustedAll, &s, false, 100),
            "every interleaving explored"
        );
        assert_eq!(
            exit_outcome(false, &StopReason::ExhaustedAll, &s, false),
            Outcome::Clean
        );
        let capped = StopReason::Cancelled {
            why: CancelReason::Time { seconds: 5 },
        };
        assert_eq!(exit_outcome(false, &capped, &s, false), Outcome::Error);
        assert!(partial_runs(&s).is_empty());
    }

    #[test]
    fn a_systematic_search_stopped_at_its_budget_claims_nothing_and_exits_1() {
        let s = stats(20_000, 0, 0);
        let budget = StopReason::InterleavingBudget { limit: 20_000 };
        let how = how_it_ended(&budget, &s, false, 20_000);
        assert_eq!(
            how,
            "NOT explored whole: stopped at the budget of 20,000 interleavings with runs left \
             unexplored (--max-interleavings raises it)"
        );
        assert_eq!(exit_outcome(false, &budget, &s, false), Outcome::Error);
        assert_eq!(exit_outcome(true, &budget, &s, false), Outcome::RacesFound);
        // A random search's budget is the size of its sample: it claims
        // that sample only, and exits 0 when every run of it ran whole.
        let how = how_it_ended(&budget, &s, true, 1);
        assert_eq!(how, "20,000 random runs (a sample, not every interleaving)");
        assert_eq!(exit_outcome(false, &budget, &s, true), Outcome::Clean);
        let parked = stats(20_000, 4, 0);
        assert!(
            how_it_ended(&budget, &parked, true, 1)
                .ends_with("NOT run whole: some runs did not run to their end")
        );
        assert_eq!(exit_outcome(false, &budget, &parked, true), Outcome::Error);
    }
}
