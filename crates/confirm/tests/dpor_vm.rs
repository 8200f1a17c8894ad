//! Source-DPOR on the VM reaches every end state that enumerating every
//! schedule reaches: the dependency relation the VM reports (items, which
//! sends and receives commute, kills, timeouts) loses no behaviour.

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;

use racewit_confirm::confirmation::{ConfirmOptions, start};
use racewit_confirm::goal::Monitor;
use racewit_confirm::search::{Reduction, SearchStats, StopReason, Strategy, Systematic};
use racewit_confirm::system::{Observation, System};
use racewit_confirm::vm_system::{Site, TimeoutPolicy, VmItem, VmSystem};
use racewit_syntax::{LoadOptions, load_paths};

/// Collects every end state: the shared state and how each process ended.
#[derive(Clone, Default)]
struct EndStates(Rc<RefCell<BTreeSet<String>>>);

impl Monitor<VmSystem> for EndStates {
    fn observe(
        &mut self,
        _: &VmSystem,
        _: racewit_vm::Pid,
        _: &Observation<VmItem, Site>,
        _: usize,
    ) {
    }
    fn hit(&self) -> bool {
        false
    }
    fn finish(&mut self, sys: &VmSystem) -> bool {
        let any = VmItem::new(racewit_vm::SharedItem::Registry("".into()));
        let fates: Vec<String> = sys
            .procs()
            .into_iter()
            .map(|p| format!("{}={:?}", sys.name(p), sys.fate(p)))
            .collect();
        self.0
            .borrow_mut()
            .insert(format!("{} | {}", sys.item_value(&any), fates.join(" ")));
        false
    }
}

fn end_states(
    entry: &str,
    timeouts: TimeoutPolicy,
    reduction: Reduction,
) -> (BTreeSet<String>, u64) {
    let (set, stats) = search(entry, timeouts, reduction);
    (set, stats.interleavings)
}

fn search(
    entry: &str,
    timeouts: TimeoutPolicy,
    reduction: Reduction,
) -> (BTreeSet<String>, SearchStats) {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/programs/dpor_mix.erl");
    let program = Arc::new(load_paths(&[file], &LoadOptions::default()));
    let opts = ConfirmOptions {
        timeouts,
        ..ConfirmOptions::default()
    };
    let image = racewit_vm::Image::new(program.clone(), &opts.vm);
    let sys = start(&image, "dpor_mix", entry, &opts);
    let seen = EndStates::default();
    let out = Systematic {
        reduction,
        max_preemptions: u32::MAX,
        max_interleavings: 200_000,
        max_run_steps: 10_000,
        stop_at_first: false,
        steer: false,
        cancel: None,
    }
    .search(&sys, seen.clone());
    assert!(
        matches!(out.stop, StopReason::Exhausted | StopReason::ExhaustedAll),
        "{entry}: {:?} did not finish: {:?}",
        reduction,
        out.stop
    );
    assert_eq!(
        out.stats.cut_runs, 0,
        "{entry}: {:?}",
        out.stats.first_error
    );
    let set = seen.0.borrow().clone();
    (set, out.stats)
}

#[test]
fn dpor_reaches_every_end_state_of_every_schedule() {
    let entries = [
        "mailbox",
        "selective",
        "register_kill",
        "down",
        "counter",
        "same_writes",
        "timeouts",
        "link_crash",
        "two_register",
        "terms",
        "demonitor_race",
        "equal_sends",
        "name_before_exit",
        "table_before_exit",
        "waits",
        "order_seen",
        "order_unseen",
        "guarded",
    ];
    for timeouts in [
        TimeoutPolicy::WhenStuck,
        TimeoutPolicy::Always,
        TimeoutPolicy::Never,
        TimeoutPolicy::Below(100),
    ] {
        for entry in entries {
            let (all, schedules) = end_states(entry, timeouts, Reduction::None);
            let (dpor, runs) = end_states(entry, timeouts, Reduction::Dpor);
            assert_eq!(dpor, all, "{entry} ({timeouts:?}): end states differ");
            assert!(
                runs <= schedules,
                "{entry} ({timeouts:?}): {runs} DPOR runs, {schedules} schedules"
            );
            eprintln!(
                "{entry} ({timeouts:?}): {} end states; {schedules} schedules, {runs} DPOR runs",
                all.len()
            );
        }
    }
}

/// A process's steps come after the spawn that made it in every run: the
/// search never takes the two for a race. Reversing one plans no run the
/// child could start, but the other processes it names make runs that
/// only reorder independent steps, each cut by its sleep set: 4 of the 29
/// runs here before the spawn was known to come first. The orders of the
/// three read-modify-writes are 3! = 6 runs and, with the receives, 25 in
/// all (what Concuerror's optimal DPOR explores on the same program).
#[test]
fn a_child_never_races_with_its_spawn() {
    // Too many schedules to list them all: sleep sets alone, which cut no
    // end state either, give the end states to compare with.
    let (all, _) = end_states("counter3", TimeoutPolicy::WhenStuck, Reduction::SleepSets);
    let (dpor, stats) = search("counter3", TimeoutPolicy::WhenStuck, Reduction::Dpor);
    assert_eq!(dpor, all);
    assert_eq!(
        (stats.interleavings, stats.sleep_blocked),
        (25, 0),
        "counter3: {stats:?}"
    );
}

/// Sends to one mailbox commute unless a receive can tell their order:
/// one run where each receive takes one sender's message, every order of
/// arrival where receives take any message.
#[test]
fn sends_commute_unless_a_receive_sees_their_order() {
    let (states, runs) = end_states("order_unseen", TimeoutPolicy::WhenStuck, Reduction::Dpor);
    assert_eq!((states.len(), runs), (1, 1), "order_unseen: {states:?}");
    let (all, _) = end_states("order_seen", TimeoutPolicy::WhenStuck, Reduction::None);
    let (dpor, _) = end_states("order_seen", TimeoutPolicy::WhenStuck, Reduction::Dpor);
    assert_eq!(all.len(), 6, "order_seen: {all:?}");
    assert_eq!(dpor, all);
    let (all, _) = end_states("guarded", TimeoutPolicy::WhenStuck, Reduction::None);
    let (dpor, _) = end_states("guarded", TimeoutPolicy::WhenStuck, Reduction::Dpor);
    assert_eq!(all.len(), 2, "guarded: {all:?}");
    assert_eq!(dpor, all);
}

/// The state between a process's last visible call and its exit is one
/// others can see, as on the BEAM: a name it registered, a table it made.
#[test]
fn a_last_call_and_the_exit_are_two_steps() {
    for (entry, seen) in [
        ("name_before_exit", "{name,true}"),
        ("table_before_exit", "{made,0}"),
    ] {
        let (all, _) = end_states(entry, TimeoutPolicy::WhenStuck, Reduction::Dpor);
        assert!(
            all.iter().any(|s| s.contains(seen)),
            "{entry}: no end state shows {seen}: {all:?}"
        );
    }
}

/// The timeout policy decides which timeouts can fire before the message.
#[test]
fn timeout_policies_fire_what_they_say() {
    let waits = |timeouts| {
        let (all, _) = end_states("waits", timeouts, Reduction::None);
        let mut seen: Vec<String> = all
            .iter()
            .filter_map(|s| Some(s.split("{waits,").nth(1)?.split('}').next()?.to_string()))
            .collect();
        seen.sort();
        seen.dedup();
        seen
    };
    assert_eq!(waits(TimeoutPolicy::WhenStuck), ["ping,long"]);
    // The second wait never ends: nothing more comes and its timeout
    // never fires.
    assert!(waits(TimeoutPolicy::Never).is_empty());
    assert_eq!(
        waits(TimeoutPolicy::Below(100)),
        ["ping,long", "short,ping"]
    );
    assert_eq!(
        waits(TimeoutPolicy::Always),
        ["ping,long", "short,long", "short,ping"]
    );
}
