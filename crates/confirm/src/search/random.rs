//! Random schedules with PCT-style priorities (Burckhardt et al., "A
//! randomized scheduler with probabilistic guarantees of finding bugs"):
//! every process gets a random priority when it first appears, the highest
//! enabled one runs, and at `depth - 1` random steps the running process drops
//! to a low priority. The seed makes every run reproducible; each run's
//! schedule is recorded anyway.

use std::collections::BTreeMap;

use rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::goal::Monitor;
use crate::search::{Found, KEEP_FOUND, Outcome, SearchStats, StopReason, Strategy, take_step};
use crate::system::System;

#[derive(Clone, Debug)]
pub struct RandomWalk {
    pub runs: u64,
    pub seed: u64,
    /// Number of priority change points plus one (PCT's `d`).
    pub depth: u32,
    pub max_run_steps: usize,
    pub stop_at_first: bool,
    /// A stop requested from outside (time or memory cap).
    pub cancel: Option<std::sync::Arc<crate::search::Cancel>>,
}

impl Default for RandomWalk {
    fn default() -> Self {
        RandomWalk {
            runs: 1000,
            seed: 0,
            depth: 3,
            max_run_steps: 100_000,
            stop_at_first: true,
            cancel: None,
        }
    }
}

impl Strategy for RandomWalk {
    fn search<S: System, M: Monitor<S>>(&self, initial: &S, monitor: M) -> Outcome<S, M> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(self.seed);
        let mut stats = SearchStats::default();
        let mut found = Vec::new();
        let mut expected_len: u64 = 64;
        for _ in 0..self.runs {
            let mut sys = initial.clone();
            let mut mon = monitor.clone();
            let mut trace = Vec::new();
            let mut schedule = Vec::new();
            let mut priority: BTreeMap<S::Proc, u64> = BTreeMap::new();
            let mut change_points: Vec<u64> = (1..self.depth)
                .map(|_| rng.next_u64() % expected_len.max(1))
                .collect();
            change_points.sort_unstable();
            let mut last: Option<S::Proc> = None;
            let mut preemptions = 0u32;
            let mut cut = None;
            loop {
                let enabled = sys.enabled();
                if enabled.is_empty() {
                    break;
                }
                if trace.len() >= self.max_run_steps {
                    cut = Some(crate::search::step_limit_text(
                        self.max_run_steps,
                        &sys,
                        trace
                            .last()
                            .map(|t: &crate::search::TraceStep<S::Site>| t.process.as_str()),
                    ));
                    break;
                }
                if let Some(why) = crate::search::cancelled(&self.cancel) {
                    return Outcome {
                        found,
                        stats,
                        stop: StopReason::Cancelled { why },
                    };
                }
                for &p in &enabled {
                    priority
                        .entry(p)
                        .or_insert_with(|| u64::from(self.depth) + (rng.next_u64() % 1_000_000));
                }
                let step_no = trace.len() as u64;
                let pick = |priority: &BTreeMap<S::Proc, u64>| {
                    enabled
                        .iter()
                        .copied()
                        .max_by_key(|p| (priority[p], std::cmp::Reverse(*p)))
                        .unwrap_or(enabled[0])
                };
                let mut chosen = pick(&priority);
                if let Some(i) = change_points.iter().position(|&c| c == step_no) {
                    priority.insert(chosen, i as u64);
                    chosen = pick(&priority);
                }
                let pre = last.is_some_and(|l| l != chosen && enabled.contains(&l));
                preemptions += pre as u32;
                stats.steps += 1;
                if let Err(e) =
                    take_step(&mut sys, &mut mon, chosen, &mut trace, &mut schedule, pre)
                {
                    cut = Some(e.to_string());
                    break;
                }
                last = Some(chosen);
            }
            expected_len = expected_len.max(trace.len() as u64);
            if let Some(why) = cut {
                stats.note_cut(why);
                continue;
            }
            stats.note_complete(&sys, &mon);
            stats.max_preemptions_used = stats.max_preemptions_used.max(preemptions);
            let finding = mon.finish(&sys);
            stats.findings += finding as u64;
            stats.near_misses += (!finding && mon.near_miss()) as u64;
            if finding && found.len() < KEEP_FOUND {
                found.push(Found {
                    schedule,
                    trace,
                    preemptions,
                    monitor: mon,
                    end: sys,
                });
                if self.stop_at_first {
                    return Outcome {
                        found,
                        stats,
                        stop: StopReason::Found,
                    };
                }
            }
        }
        Outcome {
            found,
            stats,
            stop: StopReason::InterleavingBudget { limit: self.runs },
        }
    }
}
