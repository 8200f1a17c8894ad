//! `racewit-bench soundness [--programs N] [--first-seed S] [--budget B]`:
//! source-DPOR against plain exhaustive search on N random programs
//! (`racewit_confirm::search::random_program`, seeds S, S+1, ...), run by
//! the VM. Prints the programs run and compared (plain search within B
//! schedules), the mismatches (each with its program and both sets of end
//! states), the interleavings each search ran, and the time.

use rayon::prelude::*;

use racewit_confirm::search::random_program::generate;
use racewit_confirm::search::soundness::{Comparison, compare};
use racewit_confirm::vm_system::TimeoutPolicy;

use crate::measure::timed;

struct Args {
    programs: u64,
    first_seed: u64,
    budget: u64,
}

fn parse(args: &[String]) -> Result<Args, String> {
    let mut out = Args {
        programs: 5_000,
        first_seed: 0,
        budget: 5_000,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| -> Result<u64, String> {
            it.next()
                .and_then(|v| v.replace('_', "").parse().ok())
                .ok_or_else(|| format!("{name} takes a number"))
        };
        match a.as_str() {
            "--programs" => out.programs = value("--programs")?,
            "--first-seed" => out.first_seed = value("--first-seed")?,
            "--budget" => out.budget = value("--budget")?,
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    Ok(out)
}

/// The timeout policy a seed runs under: one program in four lets
/// timeouts fire at any point, the others only when nothing else can run
/// (the default of `check` and `explore`).
pub fn policy(seed: u64) -> TimeoutPolicy {
    if seed % 4 == 3 {
        TimeoutPolicy::Always
    } else {
        TimeoutPolicy::WhenStuck
    }
}

/// Runs the comparison; returns the exit code (1 when any program differs).
pub fn main(args: &[String]) -> i32 {
    let args = match parse(args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("racewit-bench soundness: {e}");
            eprintln!(
                "usage: racewit-bench soundness [--programs N] [--first-seed S] [--budget B]"
            );
            return 2;
        }
    };
    println!(
        "## soundness: DPOR against plain exhaustive search, {} random programs from seed {}",
        args.programs, args.first_seed
    );
    let seeds: Vec<u64> = (args.first_seed..args.first_seed + args.programs).collect();
    let (secs, results) = timed(|| {
        seeds
            .par_iter()
            .map(|&seed| compare(&generate(seed), policy(seed), args.budget))
            .collect::<Vec<Comparison>>()
    });
    let compared: Vec<&Comparison> = results.iter().filter(|c| c.complete()).collect();
    let broken: Vec<&Comparison> = results
        .iter()
        .filter(|c| !c.load_errors.is_empty() || c.plain.cut_runs > 0)
        .collect();
    let mismatches: Vec<&Comparison> = compared.iter().copied().filter(|c| !c.agrees()).collect();
    let sum = |f: &dyn Fn(&Comparison) -> u64| compared.iter().map(|c| f(c)).sum::<u64>();
    let plain = sum(&|c| c.plain.interleavings);
    let dpor = sum(&|c| c.dpor.interleavings);
    let blocked = sum(&|c| c.dpor.sleep_blocked);
    let states = sum(&|c| c.plain.states.len() as u64);
    for m in &mismatches {
        println!("MISMATCH\n{}", m.report());
    }
    for b in &broken {
        println!("NOT RUN WHOLE\n{}", b.report());
    }
    println!("programs run:             {}", results.len());
    println!(
        "programs compared:        {} ({} over {} schedules, not compared)",
        compared.len(),
        results.len() - compared.len() - broken.len(),
        args.budget
    );
    println!("mismatches:               {}", mismatches.len());
    println!("load errors or cut runs:  {}", broken.len());
    println!("end states (plain):       {states}");
    println!("interleavings, plain:     {plain}");
    println!(
        "interleavings, DPOR:      {dpor} (+{blocked} sleep-set blocked), {:.1}x fewer",
        plain as f64 / dpor.max(1) as f64
    );
    println!(
        "time:                     {secs:.1} s on {} threads",
        rayon::current_num_threads()
    );
    i32::from(!mismatches.is_empty() || !broken.is_empty())
}
