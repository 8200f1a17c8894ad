//! `racewit check PATH...`: the static pass, then confirmation of every
//! suspect; witnesses are written to `--out` (default `_racewit/`).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use anyhow::{Result, bail};
use racewit_confirm::confirmation::{ConfirmOptions, Confirmation, Plan};
use racewit_confirm::search::Reduction;
use racewit_confirm::verdict::{Consequence, Status};
use racewit_confirm::vm_system::TimeoutPolicy;
use racewit_confirm::witness::{LoadRecord, Witness};
use racewit_static::find_suspects;

use crate::Outcome;
use crate::accept;
use crate::caps::{self, Caps, Watcher};
use crate::config;
use crate::outdir::{self, Journal, OutDir, Record};
use crate::project::LoadArgs;
use crate::report::{self, Format};
use crate::static_cmd::CategoryArgs;

/// `--reduction`: the search's [`Reduction`].
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReductionArg {
    Dpor,
    SleepSets,
    None,
}

impl From<ReductionArg> for Reduction {
    fn from(r: ReductionArg) -> Reduction {
        match r {
            ReductionArg::Dpor => Reduction::Dpor,
            ReductionArg::SleepSets => Reduction::SleepSets,
            ReductionArg::None => Reduction::None,
        }
    }
}

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub load: LoadArgs,
    #[command(flatten)]
    pub categories: CategoryArgs,
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub harness: HarnessArgs,
    /// Output format: human (snippets), concise (a line per warning),
    /// github (workflow annotations), json, sarif.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    #[command(flatten)]
    pub color: report::color::ColorArgs,
    /// Where witnesses and the last report are written.
    #[arg(long, value_name = "DIR", default_value = "_racewit")]
    pub out: PathBuf,
    /// Check only part K of N of the suspects (split across CI machines), as `K/N`.
    #[arg(long, value_name = "K/N", value_parser = parse_partition)]
    pub partition: Option<(usize, usize)>,
    /// What makes the exit code 2: confirmed races that do harm (default:
    /// a crash, a lost update, processes stuck), confirmed races whose
    /// consequence is `none` too, or unconfirmed warnings too.
    #[arg(long, value_enum, default_value_t = FailOn::Confirmed)]
    pub fail_on: FailOn,
    /// Go on from the run that last wrote to --out (interrupted or killed):
    /// suspects it decided are not checked again, if the sources, the
    /// suspects and the options are the same.
    #[arg(long)]
    pub resume: bool,
    /// Report and fail only on warnings not in this baseline (written by
    /// --write-baseline).
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Record today's warnings (after suppressions) as the baseline in FILE,
    /// and exit 0 without confirming.
    #[arg(long, value_name = "FILE")]
    pub write_baseline: Option<PathBuf>,
    /// Print the settings used (flags, racewit.toml, defaults) and where
    /// each comes from, then exit.
    #[arg(long)]
    pub print_config: bool,
    /// Exit with the code of the results even when input files do not load
    /// (a syntax or preprocessor error, an unreadable file); by default any
    /// such error makes the exit code 1, after the report.
    #[arg(long)]
    pub keep_going: bool,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailOn {
    /// Confirmed races with a consequence other than `none`.
    Confirmed,
    /// Every confirmed race, harmless ones (`none`) included.
    None,
    /// Every warning.
    Unconfirmed,
}

/// How a generated or given harness drives the suspects: `check` only.
#[derive(clap::Args, Debug, Clone)]
pub struct HarnessArgs {
    /// Worker threads (results are identical for any value).
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Worker processes in generated harnesses, tried in order (e.g. 2,3).
    #[arg(
        long,
        value_name = "N,...",
        value_delimiter = ',',
        default_value = "2,3"
    )]
    pub processes: Vec<usize>,
    /// A test entry (`mod:fun/0`) to run as it is, before generated
    /// harnesses, for the suspects of its module (repeatable).
    #[arg(long = "entry", value_name = "MOD:FUN/0")]
    pub entries: Vec<String>,
    /// Most reductions one context of a suspect (a test as it is, amplified,
    /// the API with N workers) may run in all its runs (a step counts at
    /// least 200); past them the context stops with `context_budget` and the
    /// next context runs (the same on every machine, unlike --timeout)
    #[arg(long, value_name = "N", default_value_t = 200_000_000)]
    pub max_context_reductions: u64,
}

/// Options of the schedule search, shared with `explore`.
#[derive(clap::Args, Debug, Clone)]
pub struct SearchArgs {
    /// Preemption bound.
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub bound: u32,
    /// Most interleavings explored per harness.
    #[arg(long, value_name = "N", default_value_t = 20_000)]
    pub max_interleavings: u64,
    /// Most steps one run may take before it is cut (a run cut this way
    /// never counts towards an "explored" claim).
    #[arg(long, value_name = "N", default_value_t = 50_000)]
    pub max_run_steps: usize,
    /// Random (PCT) search with N runs instead of bounded search.
    #[arg(long, value_name = "N")]
    pub random: Option<u64>,
    /// Seed of the random search.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// How the search cuts schedules that only reorder independent steps:
    /// source-DPOR with sleep sets, sleep sets alone, or none (plain bounded
    /// DFS, every schedule within the bound).
    #[arg(long, value_name = "KIND", value_enum, default_value_t = ReductionArg::Dpor)]
    pub reduction: ReductionArg,
    /// When a `receive ... after T` timeout (or an `erlang:send_after`
    /// timer) may fire: `when-stuck`, only when no process can do anything
    /// else (a responsive system never times out); `always`, at any point
    /// (every timing is explored); `never` (a process waiting for one is
    /// blocked); or a number N: timeouts under N ms at any point, longer
    /// ones only when stuck.
    #[arg(long, value_name = "POLICY", default_value = "when-stuck", value_parser = parse_after_timeout)]
    pub after_timeout: TimeoutPolicy,
    /// Memory racewit may hold (e.g. 4G); a search that would go past it is
    /// stopped with the reason `memory_budget` (default: 60% of the
    /// machine's memory or of `ulimit -v`, whichever is less).
    #[arg(long, value_name = "SIZE")]
    pub max_memory: Option<String>,
    /// Seconds one suspect may take; a search past it is stopped with the
    /// reason `time_budget` (a cap that is not hit changes nothing).
    #[arg(long, value_name = "SECS", default_value_t = 300)]
    pub timeout: u64,
    /// Run every instruction in the VM's general loop (no hot loop): the
    /// same verdicts and witnesses, slower. For tests of the VM.
    #[arg(long, hide = true)]
    pub no_hot_loop: bool,
}

/// A timeout policy as `--after-timeout` spells it.
fn after_timeout_text(p: TimeoutPolicy) -> String {
    match p {
        TimeoutPolicy::WhenStuck => "when-stuck".into(),
        TimeoutPolicy::Always => "always".into(),
        TimeoutPolicy::Never => "never".into(),
        TimeoutPolicy::Below(ms) => ms.to_string(),
    }
}

pub(crate) fn parse_after_timeout(s: &str) -> Result<TimeoutPolicy, String> {
    match s {
        "when-stuck" => Ok(TimeoutPolicy::WhenStuck),
        "always" => Ok(TimeoutPolicy::Always),
        "never" => Ok(TimeoutPolicy::Never),
        n => match n.parse::<u64>() {
            Ok(ms) if ms >= 1 => Ok(TimeoutPolicy::Below(ms)),
            _ => Err(format!(
                "`{s}`: expected when-stuck, always, never or a number of milliseconds (1 or more)"
            )),
        },
    }
}

impl HarnessArgs {
    /// Adds the harness settings to the search's options, checked; sets
    /// the thread pool.
    pub fn apply(&self, opts: &mut ConfirmOptions) -> Result<()> {
        if let Some(n) = self.processes.iter().find(|&&n| !(1..=4).contains(&n)) {
            bail!("--processes {n}: a harness runs 1 to 4 worker processes");
        }
        if let Some(j) = self.jobs {
            if j == 0 {
                bail!("--jobs 0: give at least one thread");
            }
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            let j = if j > cores {
                eprintln!(
                    "racewit: warning: --jobs {j}: this machine has {cores} core(s); using {cores}"
                );
                cores
            } else {
                j
            };
            // A second call fails only when the pool is already built; the
            // first setting stays, which is fine within one process.
            let _ = rayon::ThreadPoolBuilder::new()
                .num_threads(j)
                .build_global();
        }
        opts.entries = self
            .entries
            .iter()
            .map(|e| crate::explore::parse_entry(e))
            .collect::<Result<Vec<_>>>()?;
        opts.processes = self.processes.clone();
        in_range(
            "--max-context-reductions",
            self.max_context_reductions,
            1,
            MAX_COUNT,
        )?;
        opts.max_context_reductions = self.max_context_reductions;
        Ok(())
    }
}

impl SearchArgs {
    pub fn options(&self) -> Result<ConfirmOptions> {
        in_range("--bound", self.bound.into(), 0, MAX_BOUND)?;
        in_range("--max-interleavings", self.max_interleavings, 1, MAX_COUNT)?;
        in_range("--max-run-steps", self.max_run_steps as u64, 1, MAX_COUNT)?;
        in_range("--timeout", self.timeout, 1, 7 * 24 * 3600)?;
        if let Some(runs) = self.random {
            in_range("--random", runs, 1, MAX_COUNT)?;
        }
        self.caps()?;
        Ok(ConfirmOptions {
            max_preemptions: self.bound,
            max_interleavings: self.max_interleavings,
            max_run_steps: self.max_run_steps,
            reduction: self.reduction.into(),
            random: self.random.map(|runs| (runs, self.seed)),
            timeouts: self.after_timeout,
            vm: racewit_vm::VmConfig {
                hot_loop: !self.no_hot_loop,
                ..ConfirmOptions::default().vm
            },
            ..ConfirmOptions::default()
        })
    }
}

/// The largest preemption bound accepted (a bound beyond a few is already
/// "every interleaving" for any harness racewit builds).
const MAX_BOUND: u64 = 1000;
/// The largest count accepted for budgets of runs and steps.
const MAX_COUNT: u64 = 1_000_000_000;

fn in_range(flag: &str, v: u64, lo: u64, hi: u64) -> Result<()> {
    if v < lo || v > hi {
        bail!("{flag} {v}: give a value from {lo} to {hi}");
    }
    Ok(())
}

impl SearchArgs {
    /// The caps on memory and time, checked.
    pub fn caps(&self) -> Result<Caps> {
        let max_memory = match &self.max_memory {
            Some(text) => {
                let bytes =
                    caps::parse_size(text).map_err(|e| anyhow::anyhow!("--max-memory {e}"))?;
                if bytes < 64 << 20 {
                    bail!("--max-memory {text}: give at least 64M");
                }
                bytes
            }
            None => caps::default_max_memory(),
        };
        Ok(Caps {
            max_memory,
            timeout: Some(std::time::Duration::from_secs(self.timeout)),
        })
    }

    /// The options that shape verdicts, as text (for the journal's
    /// fingerprint); `--jobs` is not one of them.
    pub fn fingerprint(&self, harness: &HarnessArgs) -> String {
        format!(
            "bound={} processes={:?} max_interleavings={} max_run_steps={} random={:?} \
             seed={} reduction={:?} entries={:?} after_timeout={:?} max_context_reductions={}",
            self.bound,
            harness.processes,
            self.max_interleavings,
            self.max_run_steps,
            self.random,
            self.seed,
            self.reduction,
            harness.entries,
            self.after_timeout,
            harness.max_context_reductions,
        )
    }
}

fn parse_partition(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("`{s}`: expected K/N with 1 <= K <= N, e.g. 1/3");
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let k: usize = k.trim().parse().map_err(|_| bad())?;
    let n: usize = n.trim().parse().map_err(|_| bad())?;
    if k == 0 || n == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

pub fn load_record(load: &LoadArgs, opts: &racewit_syntax::LoadOptions) -> LoadRecord {
    LoadRecord {
        paths: load.paths.iter().map(|p| p.display().to_string()).collect(),
        include_dirs: opts
            .include_dirs
            .iter()
            .map(|p| p.display().to_string())
            .collect(),
        lib_dirs: opts
            .lib_dirs
            .iter()
            .map(|p| p.display().to_string())
            .collect(),
        defines: opts.defines.clone(),
        libraries: Vec::new(),
    }
}

/// Takes the settings of `racewit.toml` the command line did not give.
/// Returns each setting with where it came from, for `--print-config`.
fn apply_config(
    args: &mut Args,
    loaded: &config::Loaded,
    given: &dyn Fn(&str) -> bool,
) -> Result<Vec<(String, String, String)>> {
    let c = &loaded.config.check;
    let file = loaded
        .path
        .as_ref()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| config::FILE.to_string());
    let mut shown = Vec::new();
    let mut take = |id: &str, from_file: bool, value: String| {
        let source = if given(id) {
            "command line".to_string()
        } else if from_file {
            file.clone()
        } else {
            "default".to_string()
        };
        shown.push((id.to_string(), value, source));
    };
    let s = &mut args.search;
    if let Some(v) = c.bound
        && !given("bound")
    {
        s.bound = v;
    }
    take("bound", c.bound.is_some(), s.bound.to_string());
    let h = &mut args.harness;
    if let Some(v) = &c.processes
        && !given("processes")
    {
        h.processes = v.clone();
    }
    take(
        "processes",
        c.processes.is_some(),
        format!("{:?}", h.processes),
    );
    if let Some(v) = c.max_interleavings
        && !given("max_interleavings")
    {
        s.max_interleavings = v;
    }
    take(
        "max_interleavings",
        c.max_interleavings.is_some(),
        s.max_interleavings.to_string(),
    );
    if let Some(v) = c.max_run_steps
        && !given("max_run_steps")
    {
        s.max_run_steps = v;
    }
    take(
        "max_run_steps",
        c.max_run_steps.is_some(),
        s.max_run_steps.to_string(),
    );
    if let Some(v) = c.timeout
        && !given("timeout")
    {
        s.timeout = v;
    }
    take("timeout", c.timeout.is_some(), s.timeout.to_string());
    if let Some(v) = &c.after_timeout
        && !given("after_timeout")
    {
        match parse_after_timeout(&v.text()) {
            Ok(p) => s.after_timeout = p,
            Err(e) => bail!("{file}: [check] after_timeout {e}"),
        }
    }
    take(
        "after_timeout",
        c.after_timeout.is_some(),
        after_timeout_text(s.after_timeout),
    );
    if let Some(v) = &c.max_memory
        && !given("max_memory")
    {
        s.max_memory = Some(v.clone());
    }
    take(
        "max_memory",
        c.max_memory.is_some(),
        s.max_memory
            .clone()
            .unwrap_or_else(|| "(60% of memory)".into()),
    );
    for e in &c.entries {
        if !h.entries.contains(e) {
            h.entries.push(e.clone());
        }
    }
    take("entries", !c.entries.is_empty(), format!("{:?}", h.entries));
    shown.push((
        "exclude".into(),
        format!("{:?}", c.exclude),
        if c.exclude.is_empty() {
            "default".into()
        } else {
            file.clone()
        },
    ));
    let sup = &loaded.config.suppress;
    shown.push((
        "suppress".into(),
        format!("ids {:?}, functions {:?}", sup.ids, sup.functions),
        if sup.ids.is_empty() && sup.functions.is_empty() {
            "default".into()
        } else {
            file
        },
    ));
    Ok(shown)
}

pub fn run(mut args: Args, given: &dyn Fn(&str) -> bool) -> Result<Outcome> {
    let loaded = config::load(&args.load.paths)?;
    let settings = apply_config(&mut args, &loaded, given)?;
    if args.print_config {
        let mut out = std::io::stdout().lock();
        match &loaded.path {
            Some(p) => writeln!(out, "config file: {}", p.display())?,
            None => writeln!(
                out,
                "config file: none ({} not found in {})",
                config::FILE,
                config::project_root(&args.load.paths).display()
            )?,
        }
        for (key, value, source) in settings {
            writeln!(out, "{key} = {value}    # {source}")?;
        }
        return Ok(Outcome::Clean);
    }
    let baseline = args
        .baseline
        .as_deref()
        .map(accept::Baseline::read)
        .transpose()?;
    let load_opts = args.load.load_options()?;
    let mut confirm_opts = args.search.options()?;
    args.harness.apply(&mut confirm_opts)?;
    let caps = args.search.caps()?;
    let program = crate::progress::load(&args.load.paths, &load_opts, args.format)?;
    for (m, f) in &confirm_opts.entries {
        if program.function(m, f, 0).is_none() {
            bail!("--entry {}", crate::explore::missing_entry(&program, m, f));
        }
    }
    let libraries = crate::libraries::load(&args.load.paths, &args.load.dep_dirs());
    confirm_opts.vm.libraries = libraries.clone();
    let sp = crate::progress::spinner(args.format, "static pass");
    let analysis = find_suspects(&program, &args.categories.options());
    sp.finish_and_clear();
    let static_peak = phase_peaks()
        .then(|| {
            let peak = crate::caps::peak_rss();
            crate::caps::reset_peak_rss().then_some(peak).flatten()
        })
        .flatten();
    let (suspects, accepted) = accept::filter(
        &program,
        analysis.suspects.clone(),
        &loaded.config,
        baseline.as_ref(),
    );
    if let Some(path) = &args.write_baseline {
        let b = accept::Baseline::of(&suspects);
        let text = serde_json::to_string_pretty(&b)? + "\n";
        outdir::write_atomic(path, text.as_bytes())?;
        eprintln!(
            "racewit: wrote {} warning(s) to the baseline {}",
            b.fingerprints.len(),
            path.display()
        );
        return Ok(Outcome::Clean);
    }
    let suspects: Vec<_> = match args.partition {
        Some((k, n)) => suspects
            .into_iter()
            .enumerate()
            .filter(|(i, _)| i % n == k - 1)
            .map(|(_, s)| s)
            .collect(),
        None => suspects,
    };
    let mut record = load_record(&args.load, &load_opts);
    record.libraries = libraries.record.clone();
    // What was loaded from the paths (racewit's support and harness
    // modules are not counted).
    let files = program.sources.len();
    let modules = program.modules.len();
    let out = OutDir::open(&args.out)?;
    let plan =
        Plan::new(program, &suspects, &record, &confirm_opts).rivals_from(&analysis.suspects);
    let program = plan.program().clone();
    let fingerprint = outdir::fingerprint(
        plan.sources(),
        &suspects,
        &args.search.fingerprint(&args.harness),
    );
    let (journal, resumed) = Journal::start(&out, &fingerprint, suspects.len(), args.resume)?;
    if let Some(note) = &resumed.note {
        eprintln!("racewit: --resume: {note}; checking every suspect");
    }
    let resumed_count = resumed.records.len();
    // Fixed for the whole run (the sink's map empties as verdicts are shown).
    let decided_before: std::collections::BTreeSet<usize> =
        resumed.records.keys().copied().collect();

    let bar = crate::progress::counter(args.format, suspects.len() as u64, "confirming");
    bar.inc(resumed_count as u64);
    let sink = Mutex::new(Sink {
        out: &out,
        journal: Some(journal),
        program: &program,
        suspects: &suspects,
        format: args.format,
        stdout_open: true,
        results: (0..suspects.len()).map(|_| None).collect(),
        resumed: resumed.records,
        next_shown: 0,
        bar: bar.clone(),
    });
    {
        let mut s = sink.lock().unwrap_or_else(|e| e.into_inner());
        let mut text = String::new();
        match args.format {
            Format::Human => report::human::load_diagnostics(&program, &mut text),
            Format::Concise => report::concise::load_diagnostics(&program, &mut text),
            Format::Github => report::github::load_diagnostics(&program, &mut text),
            Format::Json | Format::Sarif => {}
        }
        s.print(&text);
        // Suspects decided by the earlier run lead, up to the first one left.
        s.show_resumed_before(usize::MAX);
    }

    // Ctrl-C or SIGTERM: everything decided is written and said, then exit.
    let interrupted = Arc::new(AtomicBool::new(false));
    for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        let _ = signal_hook::flag::register(signal, interrupted.clone());
    }
    let finished = AtomicBool::new(false);
    let load_errors = program
        .diagnostics
        .iter()
        .filter(|d| d.severity == racewit_syntax::Severity::Error)
        .count();
    let totals = Totals {
        accepted,
        load_errors,
        keep_going: args.keep_going,
        files,
        modules,
        static_stats: &analysis.stats,
        fail_on: args.fail_on,
        format: args.format,
    };
    std::thread::scope(|scope| -> Result<()> {
        scope.spawn(|| {
            let mut watcher = Watcher::new(caps);
            while !finished.load(Ordering::Relaxed) {
                if interrupted.load(Ordering::Relaxed) {
                    let mut s = sink.lock().unwrap_or_else(|e| e.into_inner());
                    let code = s.finish(&totals, false);
                    std::process::exit(code);
                }
                let running = plan.running();
                show_running(&bar, &suspects, &running);
                watcher.poll(&running);
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
        });
        let todo = |i: usize| !decided_before.contains(&i);
        // The witness file names only the files its run executed.
        let arrived = |i: usize, c: &Confirmation, narrowed: Option<&Witness>| {
            let mut s = sink.lock().unwrap_or_else(|e| e.into_inner());
            s.arrived(i, c, narrowed);
        };
        let mut emit = |i: usize, c: Confirmation| {
            let mut s = sink.lock().unwrap_or_else(|e| e.into_inner());
            s.emit(i, c);
            !interrupted.load(Ordering::Relaxed)
        };
        plan.confirm_in_order(&todo, &arrived, &mut emit);
        finished.store(true, Ordering::Relaxed);
        Ok(())
    })?;
    if let Some(static_peak) = static_peak {
        let mb = |b: Option<u64>| b.map_or("?".into(), |b| (b >> 20).to_string());
        eprintln!(
            "racewit: peak RSS: static pass {} MB, confirmation {} MB",
            mb(Some(static_peak)),
            mb(crate::caps::peak_rss())
        );
    }
    let mut s = sink.lock().unwrap_or_else(|e| e.into_inner());
    if interrupted.load(Ordering::Relaxed) {
        let code = s.finish(&totals, false);
        std::process::exit(code);
    }
    let code = s.finish(&totals, true);
    Ok(match code {
        0 => Outcome::Clean,
        2 => Outcome::RacesFound,
        _ => Outcome::Error,
    })
}

/// Whether to report the peak resident set of the static pass (loading
/// included) and of confirmation apart, on stderr at the end
/// (`RACEWIT_PHASE_PEAKS=1`; `racewit-bench check` sets it): the peak is
/// started over when the static pass ends.
fn phase_peaks() -> bool {
    std::env::var_os("RACEWIT_PHASE_PEAKS").is_some_and(|v| v == "1")
}

/// What the final report needs besides the verdicts.
struct Totals<'a> {
    accepted: accept::Accepted,
    /// Error diagnostics of loading (files that did not parse, preprocess
    /// or read): exit code 1 unless `keep_going`.
    load_errors: usize,
    keep_going: bool,
    files: usize,
    modules: usize,
    static_stats: &'a racewit_static::Stats,
    fail_on: FailOn,
    format: Format,
}

/// Where verdicts go as they are reached: witness files and the journal at
/// once, the human output in suspect order, the final reports at the end.
struct Sink<'a> {
    out: &'a OutDir,
    /// Taken when the run is complete and the journal closed.
    journal: Option<Journal>,
    program: &'a racewit_syntax::ir::Program,
    suspects: &'a [racewit_static::Suspect],
    format: Format,
    /// Whether stdout still takes output (a closed pipe stops the printing,
    /// not the run: the reports and the exit code still come).
    stdout_open: bool,
    /// Decided suspects, with their witness paths.
    results: Vec<Option<(Confirmation, Option<String>)>>,
    /// Suspects decided by an earlier run (`--resume`), not yet shown.
    resumed: BTreeMap<usize, Record>,
    /// The next suspect whose verdict is to be shown.
    next_shown: usize,
    bar: indicatif::ProgressBar,
}

/// The progress line's message: the first suspect being confirmed now
/// (`ct_master:238`), and the memory in use.
fn show_running(
    bar: &indicatif::ProgressBar,
    suspects: &[racewit_static::Suspect],
    running: &[(usize, Arc<racewit_confirm::search::Cancel>)],
) {
    if bar.is_hidden() {
        return;
    }
    let place = running
        .iter()
        .map(|(i, _)| *i)
        .min()
        .and_then(|i| suspects.get(i))
        .map(crate::progress::suspect_place);
    let memory = crate::progress::memory_in_use();
    bar.set_message(match (place, memory.is_empty()) {
        (Some(p), false) => format!("{p} ({memory})"),
        (Some(p), true) => p,
        (None, false) => format!("({memory})"),
        (None, true) => String::new(),
    });
}

impl Sink<'_> {
    fn print(&mut self, text: &str) {
        if !self.stdout_open || text.is_empty() {
            return;
        }
        let written = self.bar.suspend(|| {
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes()).and_then(|()| out.flush())
        });
        if written.is_err() {
            self.stdout_open = false;
        }
    }

    /// A verdict just reached, in any order: its witness is written and it
    /// is kept in the journal's pending files until it is its turn.
    fn arrived(&mut self, i: usize, c: &Confirmation, witness: Option<&Witness>) {
        let path = witness.and_then(|w| {
            let text = serde_json::to_string_pretty(w).ok()? + "\n";
            let name = outdir::witness_file(&c.suspect.id);
            match self.out.write_atomic(&name, text.as_bytes()) {
                Ok(p) => Some(p.display().to_string()),
                Err(e) => {
                    eprintln!("racewit: {e:#}");
                    None
                }
            }
        });
        if let Some(j) = &self.journal
            && let Err(e) = j.pend(&Record::new(i, c, path.clone()))
        {
            eprintln!("racewit: {e:#}");
        }
        self.results[i] = Some((c.clone(), path));
        self.bar.inc(1);
    }

    /// The next verdict in suspect order: into the journal and shown.
    fn emit(&mut self, i: usize, c: Confirmation) {
        self.show_resumed_before(i);
        let path = self.results[i].as_ref().and_then(|(_, p)| p.clone());
        if let Some(j) = &mut self.journal
            && let Err(e) = j.append(&Record::new(i, &c, path.clone()))
        {
            eprintln!("racewit: {e:#}");
        }
        self.show(&c, path.as_deref());
        self.next_shown = i + 1;
        self.show_resumed_before(usize::MAX);
    }

    /// Shows the resumed verdicts from `next_shown` up to (not including)
    /// `end` or the first suspect not decided yet.
    fn show_resumed_before(&mut self, end: usize) {
        while self.next_shown < end.min(self.suspects.len()) {
            let i = self.next_shown;
            let Some(r) = self.resumed.remove(&i) else {
                break;
            };
            let c = r.confirmation(&self.suspects[i]);
            if let Some(j) = &mut self.journal
                && let Err(e) = j.append(&r)
            {
                eprintln!("racewit: {e:#}");
            }
            self.show(&c, r.witness_path.as_deref());
            self.results[i] = Some((c, r.witness_path));
            self.next_shown = i + 1;
        }
    }

    fn show(&mut self, c: &Confirmation, path: Option<&str>) {
        let mut text = String::new();
        match self.format {
            Format::Human => report::human::confirmation(self.program, c, path, &mut text),
            Format::Concise => report::concise::confirmation(c, &mut text),
            Format::Github => report::github::confirmation(c, path, &mut text),
            Format::Json | Format::Sarif => {}
        }
        self.print(&text);
    }

    /// Writes the final reports (`report.json`, and the JSON or SARIF on
    /// stdout) from every verdict reached; `complete` is false for a run
    /// that was interrupted. Returns the exit code.
    fn finish(&mut self, totals: &Totals<'_>, complete: bool) -> i32 {
        self.bar.finish_and_clear();
        let decided: Vec<(Confirmation, Option<String>)> =
            self.results.iter().flatten().cloned().collect();
        let results: Vec<Confirmation> = decided.iter().map(|(c, _)| c.clone()).collect();
        let witness_paths: Vec<Option<String>> = decided.iter().map(|(_, p)| p.clone()).collect();
        let confirmed = results
            .iter()
            .filter(|c| c.verdict.status == Status::Confirmed)
            .count();
        let unconfirmed = results.len() - confirmed;
        let stats = report::json::CheckStats {
            files: totals.files,
            modules: totals.modules,
            suspects: self.suspects.len(),
            confirmed,
            unconfirmed,
            interleavings: results.iter().map(|c| c.verdict.interleavings).sum(),
            accepted: totals.accepted,
            static_stats: Some(totals.static_stats.clone()),
        };
        let json_report = report::json::CheckReport {
            version: report::json::REPORT_VERSION,
            complete,
            warnings: results
                .iter()
                .zip(&witness_paths)
                .map(|(c, w)| report::json::warning(c, w.clone()))
                .collect(),
            diagnostics: report::json::diagnostics(self.program),
            stats,
        };
        let mut code = 0;
        let json_text = match serde_json::to_string_pretty(&json_report) {
            Ok(t) => t + "\n",
            Err(e) => {
                eprintln!("racewit: {e}");
                return 1;
            }
        };
        if let Err(e) = self.out.write_atomic("report.json", json_text.as_bytes()) {
            eprintln!("racewit: {e:#}");
            code = 1;
        }
        let summary = format!(
            "{} suspect(s): {confirmed} confirmed, {unconfirmed} unconfirmed{}{}",
            self.suspects.len(),
            totals.accepted.summary(),
            if complete {
                String::new()
            } else {
                format!(
                    ", {} not checked (interrupted)",
                    self.suspects.len() - results.len()
                )
            }
        );
        let text = match totals.format {
            Format::Human | Format::Concise => format!(
                "{}\n",
                report::color::paint(report::color::Paint::Summary, &summary)
            ),
            Format::Github => format!("{summary}\n"),
            Format::Json => json_text,
            Format::Sarif => match serde_json::to_string_pretty(&report::sarif::check_log(
                self.program,
                &results,
                &witness_paths,
            )) {
                Ok(t) => t + "\n",
                Err(e) => {
                    eprintln!("racewit: {e}");
                    return 1;
                }
            },
        };
        self.print(&text);
        if complete {
            // Nothing is pending any more.
            if let Some(j) = self.journal.take() {
                j.close();
            }
        } else {
            eprintln!(
                "racewit: interrupted: {} of {} suspects decided and written to {}; \
                 `racewit check --resume` (same paths and options) goes on from there",
                results.len(),
                self.suspects.len(),
                self.out.path().join("report.jsonl").display()
            );
        }
        let failing = match totals.fail_on {
            FailOn::Confirmed => results
                .iter()
                .filter(|c| {
                    c.verdict.status == Status::Confirmed
                        && !matches!(c.verdict.consequence, Some(Consequence::None))
                })
                .count(),
            FailOn::None => confirmed,
            FailOn::Unconfirmed => results.len(),
        };
        if totals.load_errors > 0 && !totals.keep_going {
            eprintln!(
                "racewit: {} error(s) in the input files (syntax, preprocessor or reading): \
                 exit code 1; --keep-going exits with the results' code",
                totals.load_errors
            );
            1
        } else if failing > 0 {
            2
        } else if !complete {
            1
        } else {
            code
        }
    }
}
