//! `racewit check PATH...`: the static pass, then confirmation of every
//! suspect; witnesses are written to `--out` (default `_racewit/`).

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use racewit_confirm::confirmation::{ConfirmOptions, Confirmation, confirm_all};
use racewit_confirm::search::Reduction;
use racewit_confirm::verdict::Status;
use racewit_confirm::witness::LoadRecord;
use racewit_static::find_suspects;

use crate::Outcome;
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
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Where witnesses and the last report are written.
    #[arg(long, value_name = "DIR", default_value = "_racewit")]
    pub out: PathBuf,
    /// Check only part K of N of the suspects (split across CI machines), as `K/N`.
    #[arg(long, value_name = "K/N", value_parser = parse_partition)]
    pub partition: Option<(usize, usize)>,
    /// What makes the exit code 2: confirmed races (default), or unconfirmed warnings too.
    #[arg(long, value_enum, default_value_t = FailOn::Confirmed)]
    pub fail_on: FailOn,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailOn {
    Confirmed,
    Unconfirmed,
}

/// Options of the schedule search, shared with `explore`.
#[derive(clap::Args, Debug, Clone)]
pub struct SearchArgs {
    /// Preemption bound.
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub bound: u32,
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
    /// A test entry (`mod:fun/0`) to run as it is, before generated
    /// harnesses, for the suspects of its module (repeatable).
    #[arg(long = "entry", value_name = "MOD:FUN/0")]
    pub entries: Vec<String>,
}

impl SearchArgs {
    pub fn options(&self) -> Result<ConfirmOptions> {
        if let Some(n) = self.processes.iter().find(|&&n| !(1..=4).contains(&n)) {
            bail!("--processes {n}: a harness runs 1 to 4 worker processes");
        }
        if let Some(j) = self.jobs {
            if j == 0 {
                bail!("--jobs 0: give at least one thread");
            }
            // A second call fails only when the pool is already built; the
            // first setting stays, which is fine within one process.
            let _ = rayon::ThreadPoolBuilder::new()
                .num_threads(j)
                .build_global();
        }
        let entries = self
            .entries
            .iter()
            .map(|e| crate::explore::parse_entry(e))
            .collect::<Result<Vec<_>>>()?;
        Ok(ConfirmOptions {
            entries,
            max_preemptions: self.bound,
            processes: self.processes.clone(),
            max_interleavings: self.max_interleavings,
            max_run_steps: self.max_run_steps,
            reduction: self.reduction.into(),
            random: self.random.map(|runs| (runs, self.seed)),
            ..ConfirmOptions::default()
        })
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

/// File name of a suspect's witness.
pub fn witness_file(id: &str) -> String {
    let safe: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '-'
            }
        })
        .collect();
    format!("{safe}.json")
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
    }
}

pub fn run(args: Args) -> Result<Outcome> {
    let load_opts = args.load.load_options()?;
    let confirm_opts = args.search.options()?;
    let program = crate::progress::load(&args.load.paths, &load_opts, args.format)?;
    let sp = crate::progress::spinner(args.format, "static pass");
    let analysis = find_suspects(&program, &args.categories.options());
    sp.finish_and_clear();
    let suspects: Vec<_> = match args.partition {
        Some((k, n)) => analysis
            .suspects
            .iter()
            .enumerate()
            .filter(|(i, _)| i % n == k - 1)
            .map(|(_, s)| s.clone())
            .collect(),
        None => analysis.suspects.clone(),
    };
    let record = load_record(&args.load, &load_opts);
    let files = program.sources.len();
    let sp = crate::progress::spinner(
        args.format,
        &format!("confirming {} suspect(s)", suspects.len()),
    );
    let (program, results) = confirm_all(program, &suspects, &record, &confirm_opts);
    sp.finish_and_clear();

    let witness_paths = write_witnesses(&args.out, &results)?;
    let confirmed = results
        .iter()
        .filter(|c| c.verdict.status == Status::Confirmed)
        .count();
    let unconfirmed = results.len() - confirmed;
    let stats = report::json::CheckStats {
        files,
        modules: program.modules.len(),
        suspects: results.len(),
        confirmed,
        unconfirmed,
        interleavings: results.iter().map(|c| c.verdict.interleavings).sum(),
        static_stats: Some(analysis.stats.clone()),
    };
    let json_report = report::json::CheckReport {
        version: report::json::REPORT_VERSION,
        warnings: results
            .iter()
            .zip(&witness_paths)
            .map(|(c, w)| report::json::warning(c, w.clone()))
            .collect(),
        diagnostics: report::json::diagnostics(&program),
        stats,
    };
    let json_text = serde_json::to_string_pretty(&json_report)? + "\n";
    let last = args.out.join("report.json");
    std::fs::write(&last, &json_text).with_context(|| format!("writing {}", last.display()))?;

    let text = match args.format {
        Format::Human => {
            let mut text = String::new();
            report::human::load_diagnostics(&program, &mut text);
            report::human::confirmations(&program, &results, &witness_paths, &mut text);
            text.push_str(&format!(
                "{} suspect(s): {confirmed} confirmed, {unconfirmed} unconfirmed\n",
                results.len()
            ));
            text
        }
        Format::Json => json_text,
        Format::Sarif => {
            serde_json::to_string_pretty(&report::sarif::check_log(
                &program,
                &results,
                &witness_paths,
            ))? + "\n"
        }
    };
    std::io::stdout().lock().write_all(text.as_bytes())?;
    let failing = match args.fail_on {
        FailOn::Confirmed => confirmed,
        FailOn::Unconfirmed => results.len(),
    };
    Ok(if failing > 0 {
        Outcome::RacesFound
    } else {
        Outcome::Clean
    })
}

/// Writes each witness as `<out>/<id>.json`; returns the paths, as strings.
fn write_witnesses(out: &Path, results: &[Confirmation]) -> Result<Vec<Option<String>>> {
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    results
        .iter()
        .map(|c| {
            let Some(w) = &c.witness else {
                return Ok(None);
            };
            let path = out.join(witness_file(&c.suspect.id));
            let text = serde_json::to_string_pretty(w)? + "\n";
            std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
            Ok(Some(path.display().to_string()))
        })
        .collect()
}
