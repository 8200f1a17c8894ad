//! Confirming suspects: a harness per suspect, a steered bounded search for
//! the race pattern, the consequence of the witness, or the reason none was
//! found. Suspects are confirmed in parallel; each search is sequential, so
//! the results do not depend on the number of threads.

use std::collections::BTreeSet;
use std::sync::Arc;

use rayon::prelude::*;

use racewit_static::{Category, Suspect};
use racewit_syntax::ir::{CallSiteId, Name, Program};
use racewit_vm::{Image, Vm, VmConfig};

use crate::amplify;
use crate::goal::{Monitor, RaceGoal};
use crate::harness::{self, Harness};
use crate::schedule::Schedule;
use crate::search::bounded::BoundedDfs;
use crate::search::random::RandomWalk;
use crate::search::{
    Cancel, CancelReason, Found, Outcome, Reduction, StopReason, Strategy, Systematic, TraceStep,
};
use crate::serial::{FIRST_RUNS, SerialReference, Steps, serial_runs};
use crate::system::{Fate, Observation, System};
use crate::verdict::{
    Consequence, HarmCut, Milestone, Reached, Status, UnconfirmedReason, Verdict,
};
use crate::vm_system::{Site, TimeoutPolicy, VmItem, VmSystem};
use crate::witness::{
    HarnessRecord, LoadRecord, RaceSites, WITNESS_VERSION, Witness, WitnessEvent, WitnessKind,
    hash_sources,
};
use crate::witness_replay::narrow_to_executed;

/// The pseudo-directory generated harness modules are loaded from.
pub const HARNESS_DIR: &str = racewit_vm::code::GENERATED_DIR;

#[derive(Clone, Debug)]
pub struct ConfirmOptions {
    /// Preemption bound.
    pub max_preemptions: u32,
    /// Harness sizes to try, in order (worker processes).
    pub processes: Vec<usize>,
    pub max_interleavings: u64,
    pub max_run_steps: usize,
    /// Work one context of a suspect (a test as it is, amplified, the API
    /// with 2 workers...) may do in all its runs, trials and probes, in
    /// reductions (a step counts at least [`crate::vm_system::STEP_WORK`]);
    /// past it the context stops (`context_budget`) and the next one runs.
    /// The same on every machine, unlike `--timeout`: a long test cannot
    /// leave the suspect's other contexts no time.
    pub max_context_reductions: u64,
    /// How the systematic search cuts equivalent schedules.
    pub reduction: Reduction,
    /// Random search instead of bounded DFS: (runs, seed).
    pub random: Option<(u64, u64)>,
    /// Entry functions the user named (`mod:fun/0`): run as they are, before
    /// any generated harness, for the suspects of their module.
    pub entries: Vec<(String, String)>,
    pub timeouts: TimeoutPolicy,
    pub vm: VmConfig,
    /// A stop requested from outside for the suspect being confirmed (set
    /// per suspect by [`Plan::confirm`]).
    pub cancel: Option<Arc<Cancel>>,
}

impl Default for ConfirmOptions {
    fn default() -> Self {
        ConfirmOptions {
            max_preemptions: 2,
            processes: vec![2, 3],
            max_interleavings: 20_000,
            max_run_steps: 50_000,
            max_context_reductions: 200_000_000,
            reduction: Reduction::Dpor,
            random: None,
            entries: Vec::new(),
            timeouts: TimeoutPolicy::WhenStuck,
            vm: VmConfig {
                max_reductions: 5_000_000,
                ..VmConfig::default()
            },
            cancel: None,
        }
    }
}

/// One suspect's confirmation.
#[derive(Clone, Debug)]
pub struct Confirmation {
    pub suspect: Suspect,
    pub verdict: Verdict,
    /// The harness that ran (the last size tried, or the one that confirmed).
    pub harness: Option<Harness>,
    pub witness: Option<Witness>,
}

/// Stack of each confirmation worker thread: the interpreter keeps Erlang
/// frames on its own stacks, but deep term printing and comparison recurse.
const WORKER_STACK: usize = 64 << 20;

/// Everything confirmation needs that all suspects share, built once for a
/// list of suspects: the user's program (with racewit's support modules),
/// the index of its calls, and the compiled image every search runs on.
/// Suspects are then confirmed one by one, in any order and on any thread,
/// with [`Plan::confirm`], which builds the suspect's harnesses, lays them
/// over the shared image, and drops them when its verdict is reached: what
/// one suspect generates is never seen by another, and memory does not
/// grow with the number of suspects.
pub struct Plan<'a> {
    /// Suspects being confirmed now, with the token that stops each.
    running: std::sync::Mutex<std::collections::BTreeMap<usize, Arc<Cancel>>>,
    image: Image,
    suspects: &'a [Suspect],
    /// Where the rival writers of a suspect's item are looked for (see
    /// [`Plan::rivals_from`]).
    rivals_from: &'a [Suspect],
    sources: Vec<crate::witness::SourceHash>,
    load: LoadRecord,
    opts: ConfirmOptions,
    /// The user's calls, by callee: what the program's callers do with a
    /// value a worker returned.
    callers: crate::callers::Callers,
}

/// One suspect's own code, alive while it is confirmed: its harnesses (the
/// contexts to try, in order) and the image that runs them, the user's
/// image with the generated modules laid over it.
struct SuspectCode {
    harnesses: Vec<Result<Harness, harness::HarnessError>>,
    image: Image,
}

impl<'a> Plan<'a> {
    /// Loads racewit's support modules beside the user's code and indexes
    /// it; no harness is built yet.
    pub fn new(
        mut program: Program,
        suspects: &'a [Suspect],
        load: &LoadRecord,
        opts: &ConfirmOptions,
    ) -> Plan<'a> {
        let sources = hash_sources(&program);
        add_support(&mut program);
        let callers = crate::callers::Callers::new(&program);
        let image = Image::new(Arc::new(program), &opts.vm);
        Plan {
            running: Default::default(),
            image,
            suspects,
            rivals_from: suspects,
            sources,
            load: load.clone(),
            opts: opts.clone(),
            callers,
        }
    }

    /// Takes the rival writers of each suspect's item (see
    /// [`crate::item_writers`]) from `all` (every suspect the static pass
    /// found), not only from the suspects confirmed: a suspect's verdict
    /// then does not depend on which others are confirmed with it (a
    /// `--partition`, a baseline).
    pub fn rivals_from(mut self, all: &'a [Suspect]) -> Plan<'a> {
        self.rivals_from = all;
        self
    }

    /// Builds suspect `i`'s harnesses from the user's program alone (never
    /// from another suspect's) and lays them over the shared image.
    fn suspect_code(&self, i: usize) -> SuspectCode {
        let program = self.image.program();
        let s = &self.suspects[i];
        let opts = &self.opts;
        let apps = &opts.vm.libraries.applications;
        // The generated modules: the user's files, then their own.
        let mut top = Program {
            sources: program.sources.clone(),
            ..Program::default()
        };
        let mut sizes: Vec<Result<Harness, harness::HarnessError>> =
            user_entries(program, s, opts).into_iter().map(Ok).collect();
        let tests = test_contexts(program, &mut top, s, i, opts, &sizes);
        for h in tests {
            if !h.source.is_empty() {
                add_generated(program, &mut top, &h.module, &h.source);
            }
            sizes.push(Ok(h));
        }
        // A spawn_register race is between one caller and the process it
        // spawned: one worker is tried first, for the smallest witness.
        let one =
            (s.category == Category::SpawnRegister && !opts.processes.contains(&1)).then_some(1);
        // The program's other read-modify-writes of the item, as the static
        // pass found them: rivals of this suspect's entry.
        let writers = crate::item_writers::item_writers(self.rivals_from, s);
        for n in one.into_iter().chain(opts.processes.iter().copied()) {
            let built = harness::build(program, &self.callers, apps, s, &writers, n, i * 10 + n);
            if let Ok(h) = &built {
                for h in h.all() {
                    add_generated(program, &mut top, &h.module, &h.source);
                }
                // The program's callers that go on after the entry returns
                // come first: only they show what is done next with what
                // the race made (an increment lost to a second creation).
                if let Some(c) = &h.continuing {
                    for h in c.all() {
                        add_generated(program, &mut top, &h.module, &h.source);
                    }
                    sizes.push(Ok((**c).clone()));
                }
            }
            sizes.push(built);
        }
        SuspectCode {
            harnesses: sizes,
            image: self.image.overlay(Arc::new(top)),
        }
    }

    /// The user's code with racewit's support modules (for rendering; a
    /// suspect's harness modules are not in it).
    pub fn program(&self) -> &Arc<Program> {
        self.image.program()
    }

    /// The shared image (its loaded and compiled modules do not grow with
    /// the suspects confirmed).
    pub fn image(&self) -> &Image {
        &self.image
    }

    /// The suspects, in order.
    pub fn suspects(&self) -> &'a [Suspect] {
        self.suspects
    }

    /// Hashes of the user's source files (the harnesses left out).
    pub fn sources(&self) -> &[crate::witness::SourceHash] {
        &self.sources
    }

    /// Confirms suspect `i`. The result depends on nothing but the suspect,
    /// the code and the options: the same whatever the order or thread.
    pub fn confirm(&self, i: usize) -> Confirmation {
        self.confirm_narrowed(i, false).0
    }

    /// Confirms suspect `i`; with `narrow`, also its witness narrowed to
    /// the files its run executed (see [`narrow_to_executed`]), made while
    /// the suspect's harnesses are still loaded.
    fn confirm_narrowed(&self, i: usize, narrow: bool) -> (Confirmation, Option<Witness>) {
        let code = self.suspect_code(i);
        let cancel = Arc::new(Cancel::default());
        let mut opts = self.opts.clone();
        opts.cancel = Some(cancel.clone());
        self.running
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(i, cancel);
        let c = confirm_one(
            &code.image,
            self.image.program(),
            &self.suspects[i],
            &code.harnesses,
            &self.callers,
            &self.load,
            &self.sources,
            &opts,
        );
        self.running
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&i);
        let narrowed = c.witness.as_ref().filter(|_| narrow).map(|w| {
            let mut w = w.clone();
            let layers = [self.image.program().clone(), code.image.program().clone()];
            narrow_to_executed(&mut w, &layers, &self.opts);
            w
        });
        (c, narrowed)
    }

    /// The suspects being confirmed now, with the token that stops each
    /// (for a caller that watches time or memory).
    pub fn running(&self) -> Vec<(usize, Arc<Cancel>)> {
        self.running
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .map(|(i, c)| (*i, c.clone()))
            .collect()
    }

    /// Confirms the suspects whose index `todo` accepts, in parallel. Each
    /// result goes to `arrived` as soon as it is reached (in any order), with
    /// its witness narrowed to the files its run executed, then
    /// to `emit` in suspect order as soon as every earlier one is done (so
    /// what `emit` writes is the same whatever the number of threads). Suspects `todo` rejects are skipped and not
    /// emitted. `emit` returning false stops the run: no suspect is started
    /// after that (those running finish, and are not emitted).
    pub fn confirm_in_order(
        &self,
        todo: &(dyn Fn(usize) -> bool + Sync),
        arrived: &(dyn Fn(usize, &Confirmation, Option<&Witness>) + Sync),
        emit: &mut (dyn FnMut(usize, Confirmation) -> bool + Send),
    ) {
        use std::collections::BTreeMap;
        use std::sync::Mutex;
        use std::sync::atomic::{AtomicBool, Ordering};
        struct Order<'e> {
            next: usize,
            ready: BTreeMap<usize, Confirmation>,
            emit: &'e mut (dyn FnMut(usize, Confirmation) -> bool + Send),
        }
        let n = self.suspects.len();
        let skip_done = |mut next: usize| {
            while next < n && !todo(next) {
                next += 1;
            }
            next
        };
        let order = Mutex::new(Order {
            next: skip_done(0),
            ready: BTreeMap::new(),
            emit,
        });
        let stopped = AtomicBool::new(false);
        // Workers take suspects in order from a shared counter, so results
        // arrive close to the order they are emitted in and few wait.
        let taken = std::sync::atomic::AtomicUsize::new(0);
        let work = || {
            loop {
                if stopped.load(Ordering::Relaxed) {
                    return;
                }
                let i = taken.fetch_add(1, Ordering::Relaxed);
                if i >= n {
                    return;
                }
                if !todo(i) {
                    continue;
                }
                let (c, narrowed) = self.confirm_narrowed(i, true);
                let mut o = order.lock().unwrap_or_else(|e| e.into_inner());
                if stopped.load(Ordering::Relaxed) {
                    return;
                }
                arrived(i, &c, narrowed.as_ref());
                o.ready.insert(i, c);
                loop {
                    let next = o.next;
                    let Some(c) = o.ready.remove(&next) else {
                        break;
                    };
                    if !(o.emit)(next, c) {
                        stopped.store(true, Ordering::Relaxed);
                        return;
                    }
                    o.next = skip_done(next + 1);
                }
            }
        };
        let threads = rayon::current_num_threads().clamp(1, n.max(1));
        std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads)
                .map(|k| {
                    std::thread::Builder::new()
                        .name(format!("confirm-{k}"))
                        .stack_size(WORKER_STACK)
                        .spawn_scoped(scope, work)
                })
                .collect();
            // A worker that could not start leaves its share to the others;
            // with none started, the calling thread does the work.
            if workers.iter().all(Result::is_err) {
                work();
            }
        });
    }
}

/// Confirms each suspect (see [`Plan`]). Returns the user's program with
/// racewit's support modules (for rendering).
pub fn confirm_all(
    program: Program,
    suspects: &[Suspect],
    load: &LoadRecord,
    opts: &ConfirmOptions,
) -> (Arc<Program>, Vec<Confirmation>) {
    let plan = Plan::new(program, suspects, load, opts);
    let results = (0..suspects.len())
        .into_par_iter()
        .map(|i| plan.confirm(i))
        .collect();
    (plan.program().clone(), results)
}

/// The Erlang modules harnesses may call (the EUnit runner), loaded beside
/// the user's code unless the user has a module of that name.
pub fn add_support(program: &mut Program) {
    const EUNIT: &str = include_str!("../harness/racewit_eunit.erl");
    if program.module("racewit_eunit").is_none() {
        let loaded =
            racewit_syntax::load_source(&format!("{HARNESS_DIR}/racewit_eunit.erl"), EUNIT);
        program.absorb(loaded);
    }
}

/// The user's entries (`--entry`) for a suspect's modules, run as they are.
fn user_entries(program: &Program, s: &Suspect, opts: &ConfirmOptions) -> Vec<Harness> {
    let modules = [s.read.module.as_str(), s.write.module.as_str()];
    opts.entries
        .iter()
        .filter(|(m, f)| modules.contains(&m.as_str()) && program.function(m, f, 0).is_some())
        .map(|(m, f)| harness::for_entry(m, f))
        .collect()
}

/// Loads a generated module's source into `top`, the suspect's own
/// modules over the user's `program`. A module the user's program already
/// has is not loaded (the user's wins), as one loaded twice in `top` is not.
fn add_generated(program: &Program, top: &mut Program, module: &str, source: &str) {
    let mut loaded = racewit_syntax::load_source(&format!("{HARNESS_DIR}/{module}.erl"), source);
    loaded
        .modules
        .retain(|name, _| !program.modules.contains_key(name));
    top.absorb(loaded);
}

/// The project's tests that reach the suspect, as contexts: each as it is,
/// then each amplified (its first call of an entry made from several
/// processes at once); the amplified copies are added to `top`, the
/// suspect's own modules over the user's `program`.
fn test_contexts(
    program: &Program,
    top: &mut Program,
    s: &Suspect,
    suspect_index: usize,
    opts: &ConfirmOptions,
    taken: &[Result<Harness, harness::HarnessError>],
) -> Vec<Harness> {
    let tests = amplify::tests_reaching(program, s);
    let mut out = Vec::new();
    for (k, t) in tests.iter().enumerate() {
        let already = taken
            .iter()
            .flatten()
            .any(|h| h.module == t.module && h.function == t.function);
        if !already {
            let name = format!("racewit_test_{suspect_index}_{k}");
            out.push(harness::for_test(t, None, &name));
        }
    }
    let targets: Vec<String> = amplify::targets(s)
        .into_iter()
        .map(|(m, f, a)| format!("{m}:{f}/{a}"))
        .collect();
    let copies = opts.processes.first().copied().unwrap_or(2).max(2);
    for (k, t) in tests.iter().enumerate() {
        let a = amplify::Amplification {
            test: t.clone(),
            targets: targets.clone(),
            copies,
            copy_module: format!("racewit_amp_{suspect_index}_{k}"),
            amplifier_module: format!("racewit_ampx_{suspect_index}_{k}"),
        };
        if amplify::add_amplified_over(program, top, &a) {
            let name = format!("racewit_testamp_{suspect_index}_{k}");
            out.push(harness::for_test(t, Some(&a), &name));
        }
    }
    out
}

fn race_sites(s: &Suspect, program: &Program) -> RaceSites {
    RaceSites {
        read_module: s.read.module.to_string(),
        read_site: s.read.site.0,
        write_module: s.write.module.to_string(),
        write_site: s.write.site.0,
        write_must_overlap: s.category != Category::SpawnRegister,
        write_in_started: write_in_started(s, program),
        write_adds: claim_then_add(s, program),
        write_elsewhere: write_elsewhere(s, program),
    }
}

/// Whether the suspect's read and write are ETS calls on two different
/// named tables, each given as a constant: the write then never touches
/// the item read. The static pass pairs such a write with the read when
/// it creates the objects that belong to the item read (a metric's
/// counters, keyed by tuples holding its name, created with its entry:
/// see `racewit_static::search::World::companions`): a check of the entry
/// is a check of them.
fn write_elsewhere(s: &Suspect, program: &Program) -> bool {
    if s.category != Category::Ets {
        return false;
    }
    let table = |access: &racewit_static::Access| {
        let (func, e) = crate::prepare::site_call(program, access)?;
        let (mfa, args) = crate::prepare::remote_call(&func.body, e)?;
        mfa.starts_with("ets:")
            .then(|| args.first())
            .flatten()
            .and_then(|&t| match func.body.expr(t) {
                racewit_syntax::ir::Expr::Lit(racewit_syntax::ir::Literal::Atom(a)) => {
                    Some(a.as_str().to_string())
                }
                _ => None,
            })
    };
    matches!((table(&s.read), table(&s.write)), (Some(r), Some(w)) if r != w)
}

/// Whether the suspect's read is an `ets:update_counter` that changes the
/// counter (a constant increment other than 0: a claim, not a look) and its
/// write an `ets:update_counter` whose every increment, threshold and set
/// value is a constant: the write then puts no value the read saw (see
/// [`RaceGoal::write_adds`]). An increment of 0 reads only, and a
/// write whose increment is a variable may carry the value read: both stay
/// read-modify-writes.
fn claim_then_add(s: &Suspect, program: &Program) -> bool {
    use racewit_syntax::ir::{Expr, ExprId, Literal, UnOp};
    fn int(body: &racewit_syntax::ir::Body, e: ExprId) -> Option<i64> {
        match body.expr(e) {
            Expr::Lit(Literal::Int(n)) => Some(*n),
            Expr::UnOp(UnOp::Neg, x) => int(body, *x).map(|n| -n),
            _ => None,
        }
    }
    // The increment an update operation adds, when every part of it is a
    // constant (`N`, `{Pos, N}`, `{Pos, N, Threshold, Set}`).
    fn increment(body: &racewit_syntax::ir::Body, e: ExprId) -> Option<i64> {
        match body.expr(e) {
            Expr::Tuple(items) if matches!(items.len(), 2 | 4) => {
                let parts: Option<Vec<i64>> = items.iter().map(|&x| int(body, x)).collect();
                parts.map(|p| p[1])
            }
            _ => int(body, e),
        }
    }
    let counter_update = |access: &racewit_static::Access| {
        let (func, e) = crate::prepare::site_call(program, access)?;
        let (mfa, args) = crate::prepare::remote_call(&func.body, e)?;
        let update = matches!(
            mfa.as_str(),
            "ets:update_counter/3" | "ets:update_counter/4"
        );
        update.then(|| increment(&func.body, args[2]))?
    };
    let claims = counter_update(&s.read).is_some_and(|n| n != 0);
    claims && counter_update(&s.write).is_some()
}

/// Whether the suspect's write is a process start under a name
/// (`gen_server:start({local, Name}, ...)`): the name is then registered by
/// the process it starts, not at the write's call site.
fn write_in_started(s: &Suspect, program: &Program) -> bool {
    let Some(module) = program.modules.get(&s.write.module) else {
        return false;
    };
    let Some(target) = module
        .call_sites
        .get(s.write.site.index())
        .and_then(|c| c.target.as_ref())
    else {
        return false;
    };
    matches!(
        racewit_static::catalog::op_of(target, s.category).map(|op| op.shape),
        Some(racewit_static::catalog::Shape::ScopedName { .. })
    )
}

/// The goal for a race, from its sites.
pub fn race_goal(sites: &RaceSites) -> RaceGoal<VmSystem> {
    let mut goal = RaceGoal::new(
        (Name::new(&sites.read_module), CallSiteId(sites.read_site)),
        (Name::new(&sites.write_module), CallSiteId(sites.write_site)),
        sites.write_must_overlap,
    );
    // spawn_register: the spawned process's own exit is the interference.
    goal.by_actor = sites.write_must_overlap;
    goal.write_in_started = sites.write_in_started;
    goal.write_adds = sites.write_adds;
    goal.write_elsewhere = sites.write_elsewhere;
    goal
}

/// The race goal of `sites`, judging what a worker whose write failed
/// returned by the program's callers of its function (`view`).
fn judged_goal(sites: &RaceSites, view: &Option<Arc<ReturnView>>) -> RaceGoal<VmSystem> {
    let mut goal = race_goal(sites);
    goal.returns = view
        .clone()
        .map(|v| v as Arc<dyn crate::goal::ReturnHarm<VmSystem>>);
    goal
}

/// A harness's workers with the program function each calls, and how the
/// program's callers of those functions use their values.
#[derive(Debug)]
pub(crate) struct ReturnView {
    calls: Vec<Option<crate::callers::Mfa>>,
    uses: crate::returns::ReturnUses,
}

impl ReturnView {
    /// `None` when no worker is one call of a program function.
    fn new(
        program: &Program,
        callers: &crate::callers::Callers,
        h: &Harness,
    ) -> Option<Arc<ReturnView>> {
        if h.calls.iter().all(Option::is_none) || h.calls.len() != h.workers.len() {
            return None;
        }
        let uses = crate::returns::ReturnUses::new(program, callers, h.calls.iter().flatten());
        Some(Arc::new(ReturnView {
            calls: h.calls.clone(),
            uses,
        }))
    }

    /// For a worker that ended normally: what it returned (as printed) and
    /// what the program's callers of its function make of it.
    fn judged(
        &self,
        sys: &VmSystem,
        proc: racewit_vm::Pid,
    ) -> Option<(String, crate::returns::Judged)> {
        let k = workers(sys, self.calls.len())
            .iter()
            .position(|&p| p == proc)?;
        let mfa = self.calls.get(k)?.as_ref()?;
        if sys.fate(proc) != Fate::Normal {
            return None;
        }
        let value = sys.vm.process_result(proc)?;
        Some((sys.returned(proc)?, self.uses.judge(mfa, &value)))
    }

    /// Whether some worker of the run returned a value a caller crashes on.
    fn any_crash(&self, sys: &VmSystem) -> bool {
        workers(sys, self.calls.len()).into_iter().any(|p| {
            self.judged(sys, p)
                .is_some_and(|(_, j)| matches!(j, crate::returns::Judged::Crashes { .. }))
        })
    }

    /// The function worker `proc` called, as `m:f/a`.
    fn function_of(&self, sys: &VmSystem, proc: racewit_vm::Pid) -> Option<String> {
        let k = workers(sys, self.calls.len())
            .iter()
            .position(|&p| p == proc)?;
        let (m, f, a) = self.calls.get(k)?.as_ref()?;
        Some(format!("{m}:{f}/{a}"))
    }
}

impl crate::goal::ReturnHarm<VmSystem> for ReturnView {
    fn harms(&self, sys: &VmSystem, proc: racewit_vm::Pid) -> bool {
        matches!(
            self.judged(sys, proc),
            Some((_, crate::returns::Judged::Crashes { .. }))
        )
    }
}

/// What happened to the value of a race whose failed write was handled:
/// one run where the write failed, the worker that made it, what its call
/// returned and what the program's callers of that function make of it.
/// `None` when the failing process is not a worker that returned.
fn handled_return(
    sys: &VmSystem,
    sites: &RaceSites,
    view: &ReturnView,
    opts: &ConfirmOptions,
) -> Option<String> {
    let outcome = search(
        sys,
        NearMiss {
            goal: race_goal(sites),
        },
        opts,
    );
    let run = outcome.found.first()?;
    let p = run.monitor.goal.failed_process()?;
    let (value, judged) = view.judged(&run.end, p)?;
    let who = run.end.name(p);
    let f = view.function_of(&run.end, p)?;
    // A value the calls also return when run one after the other (the
    // winner's pid, `ok`): the program itself handled the failure.
    let serial = serial_runs(sys, view.calls.len(), opts.max_run_steps, FIRST_RUNS);
    let usual = serial.iter().any(|(s, _)| {
        results(s, view.calls.len())
            .iter()
            .flatten()
            .any(|r| without_pids(r) == without_pids(&value))
    });
    if usual {
        return Some(format!(
            "the program handles the failure ({who}'s call of {f} returned {value}, as calls \
             made one after the other do)"
        ));
    }
    use crate::returns::Judged;
    Some(match judged {
        Judged::Accepted { by } => format!(
            "{who}'s call of {f} returned {value}, which the program's callers take: {}",
            by.join("; ")
        ),
        Judged::NoCaller => format!(
            "{who}'s call of {f} returned {value} to the harness; no function of the program \
             calls {f}, so nothing in the program judges it"
        ),
        Judged::Unjudged { by } => format!(
            "{who}'s call of {f} returned {value}; what the program's callers do with it is \
             not judged ({by})"
        ),
        Judged::Crashes { .. } => return None,
    })
}

/// A printed term with its process names (`P1.2.1`) blanked, to compare
/// values across runs whose processes differ.
fn without_pids(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut prev: Option<char> = None;
    while let Some(c) = chars.next() {
        let starts_name = c == 'P'
            && !prev.is_some_and(|p| p.is_alphanumeric() || p == '_' || p == '\'')
            && chars.peek().is_some_and(char::is_ascii_digit);
        if starts_name {
            while chars
                .peek()
                .is_some_and(|&d| d.is_ascii_digit() || d == '.')
            {
                chars.next();
            }
            out.push_str("P_");
            prev = Some('_');
            continue;
        }
        out.push(c);
        prev = Some(c);
    }
    out
}

/// The race goal, accepting only runs where the stale write failed and
/// nothing crashed (a run the race goal counts as a near miss).
#[derive(Clone)]
struct NearMiss {
    goal: RaceGoal<VmSystem>,
}

impl Monitor<VmSystem> for NearMiss {
    fn observe(
        &mut self,
        sys: &VmSystem,
        proc: racewit_vm::Pid,
        obs: &Observation<VmItem, Site>,
        index: usize,
    ) {
        self.goal.observe(sys, proc, obs, index);
    }
    fn hold(&self) -> Option<racewit_vm::Pid> {
        self.goal.hold()
    }
    fn hit(&self) -> bool {
        false
    }
    fn finish(&mut self, sys: &VmSystem) -> bool {
        !self.goal.finish(sys) && self.goal.near_miss()
    }
    fn reached(&self) -> [bool; 2] {
        self.goal.reached()
    }
}

/// A fresh system running `module:function()` as `P1`.
pub fn start(image: &Image, module: &str, function: &str, opts: &ConfirmOptions) -> VmSystem {
    let mut vm = Vm::from_image(image, opts.vm.clone());
    vm.spawn_entry(module, function, Vec::new());
    VmSystem::new(vm, opts.timeouts).metered(opts.cancel.clone())
}

/// Confirms `suspect` with its `harnesses`, which `image` runs (the
/// suspect's own modules over the user's `program`).
#[allow(clippy::too_many_arguments)]
fn confirm_one(
    image: &Image,
    program: &Program,
    suspect: &Suspect,
    harnesses: &[Result<Harness, harness::HarnessError>],
    callers: &crate::callers::Callers,
    load: &LoadRecord,
    sources: &[crate::witness::SourceHash],
    opts: &ConfirmOptions,
) -> Confirmation {
    let sites = race_sites(suspect, program);
    let mut interleavings = 0u64;
    let mut reached = Reached::default();
    let mut reason: Option<UnconfirmedReason> = None;
    let mut tried: Vec<String> = Vec::new();
    let mut last_harness = None;
    let mut last_processes = 0;
    let mut last_setup = 0;
    // The context whose search gave the reason kept so far.
    let mut reason_from: Option<(Harness, usize, usize)> = None;
    // A race confirmed with no visible harm may do harm with one more process.
    let mut harmless: Option<Confirmation> = None;
    // What cut a search for harm short, once a race without visible harm
    // was found: the verdict must not read as if the search had finished.
    let mut harm_cut: Option<HarmCut> = None;
    for built in harnesses {
        let h = match built {
            Ok(h) => h,
            Err(why) => {
                let why = match why {
                    harness::HarnessError::Serialised { mfa, why } => {
                        UnconfirmedReason::Serialised {
                            entry: mfa.clone(),
                            why: why.clone(),
                        }
                    }
                    harness::HarnessError::Modelled {
                        module,
                        application,
                    } => UnconfirmedReason::Modelled {
                        module: module.clone(),
                        application: application.clone(),
                    },
                    other => UnconfirmedReason::NoHarness {
                        why: other.to_string(),
                    },
                };
                reason = Some(combine(reason.take(), why));
                continue;
            }
        };
        // Each context spends an allowance of its own.
        let context_opts = ConfirmOptions {
            cancel: Some(Arc::new(Cancel::with_allowance(
                opts.cancel.clone(),
                opts.max_context_reductions,
            ))),
            ..opts.clone()
        };
        let opts = &context_opts;
        let picked = pick_variant(image, h, &sites, opts);
        let mut h = &picked;
        let mut view = ReturnView::new(program, callers, h);
        last_harness = Some(h.clone());
        last_processes = h.workers.len();
        tried.push(h.describe());
        let settled = settle(start(image, &h.module, &h.function, opts), h, opts);
        // A setup that stops at a call racewit does not run before any
        // worker starts stops every run there: nothing to search.
        if let Some((process, call, cause)) = settled.parked {
            let why = UnconfirmedReason::Unsupported {
                call,
                runs: 0,
                of: 0,
                cause: Some(cause),
                setup: Some(process),
            };
            if says_nothing_alone(h, &why) {
                continue;
            }
            let merged = combine(reason.take(), why.clone());
            if merged == why {
                reason_from = Some((h.clone(), h.workers.len(), 0));
            }
            reason = Some(merged);
            continue;
        }
        let (mut sys, mut prefix) = (settled.sys, settled.steps);
        last_setup = prefix.len();
        let outcome = search(&sys, judged_goal(&sites, &view), opts);
        interleavings += outcome.stats.interleavings;
        reached.read += outcome.stats.runs_reached[0];
        reached.write += outcome.stats.runs_reached[1];
        // The serial reference is made once for this harness: for the
        // first witness's consequence and for the search for harm after it.
        let judge = outcome
            .found
            .first()
            .map(|_| Arc::new(HarmJudge::new(&sys, h.workers.len(), view.clone(), opts)));
        let mut first = outcome
            .found
            .first()
            .zip(judge.as_ref())
            .map(|(found, judge)| (found.clone(), judge.judge(found)));
        // The first interleaving that shows the race did no visible harm:
        // search the same harness for one where it does (the second caller
        // still alive when the first registers, say) before calling it
        // harmless.
        if let (Some((_, Consequence::None)), Some(judge)) = (&first, judge) {
            let (again, n, cut) = harmful_race(&sys, judge, &sites, &view, opts);
            interleavings += n;
            if let Some(cut) = cut {
                harm_cut = Some(HarmCut::merge(harm_cut.take(), cut));
            }
            if let Some(again) = again {
                first = Some(again);
            }
        }
        // Still no visible harm: workers that wrote equal made-up values
        // may have lost an update nobody can see (the same calls with a
        // value of each worker's own show it if they did), and a different
        // call the program makes on the same thing (a tag against an
        // untag) may lose what an equal call cannot. Workers that each made
        // their own item never share one: only a rival can race them.
        // A rival that makes another read-modify-write of the item is
        // searched even when the equal calls showed no race: they may never
        // reach the write, or never lose anything, where it does.
        let own_items = picked.own_items && first.is_none();
        let others = picked.distinct.as_deref().filter(|_| !own_items);
        for other in others.into_iter().chain(&picked.mixed) {
            let go_on = match &first {
                Some((_, Consequence::None)) => true,
                None => own_items || other.rival_writes_item,
                Some(_) => false,
            };
            if !go_on {
                if first.is_some() {
                    break;
                }
                continue;
            }
            let settled = settle(
                start(image, &other.module, &other.function, opts),
                other,
                opts,
            );
            let (osys, oprefix) = (settled.sys, settled.steps);
            let oview = ReturnView::new(program, callers, other);
            let judge = Arc::new(HarmJudge::new(
                &osys,
                other.workers.len(),
                oview.clone(),
                opts,
            ));
            let (again, n, cut) = harmful_race(&osys, judge, &sites, &oview, opts);
            interleavings += n;
            if let Some(cut) = cut
                && matches!(first, Some((_, Consequence::None)))
            {
                harm_cut = Some(HarmCut::merge(harm_cut.take(), cut));
            }
            if let Some(again) = again {
                first = Some(again);
                view = oview;
                h = other;
                sys = osys;
                prefix = oprefix;
                last_harness = Some(h.clone());
            }
        }
        if let Some((found, consequence)) = &first {
            let consequence = consequence.clone();
            let verdict = Verdict {
                status: Status::Confirmed,
                consequence: Some(consequence),
                bound: opts.max_preemptions,
                processes: h.workers.len(),
                interleavings,
                exhausted: false,
                preemptions: Some(found.preemptions),
                witness_steps: Some(prefix.len() + found.schedule.len()),
                reason: None,
                reached,
                context: h.context.clone(),
                setup_steps: prefix.len(),
                harm_cut: None,
            };
            let witness = Witness {
                version: WITNESS_VERSION,
                kind: WitnessKind::Suspect,
                subject: suspect.id.clone(),
                load: load.clone(),
                sources: sources.to_vec(),
                modules: Vec::new(),
                harness: HarnessRecord {
                    module: h.module.clone(),
                    function: h.function.clone(),
                    source: h.source.clone(),
                    amplification: h.amplification.clone(),
                },
                timeouts: opts.timeouts,
                sites: Some(sites.clone()),
                schedule: Schedule::new(
                    prefix
                        .iter()
                        .map(|t| t.process.clone())
                        .chain(found.schedule.iter().cloned())
                        .collect(),
                    opts.random.map(|(_, seed)| seed),
                ),
                verdict: verdict.clone(),
                failure: None,
                trace: trace_events(
                    &[program, image.program()],
                    &prefix
                        .iter()
                        .chain(&found.trace)
                        .cloned()
                        .collect::<Vec<_>>(),
                    found.monitor.race().map(|r| crate::goal::RaceHit {
                        read_step: r.read_step + prefix.len(),
                        interfering_write_step: r.interfering_write_step + prefix.len(),
                        stale_write_step: r.stale_write_step + prefix.len(),
                    }),
                ),
            };
            let confirmation = Confirmation {
                suspect: suspect.clone(),
                verdict,
                harness: Some(h.clone()),
                witness: Some(witness),
            };
            if consequence_is_none(&confirmation) {
                harmless.get_or_insert(confirmation);
                continue;
            }
            return confirmation;
        }
        if harmless.is_some() {
            // This context was searched for a harmful race, after one
            // without harm: a cut here leaves that search unfinished too.
            if let Some(cut) = cut_of(&outcome.stop) {
                harm_cut = Some(HarmCut::merge(harm_cut.take(), cut));
            }
            continue;
        }
        let why = why_not(suspect, h, &sys, &sites, &view, &outcome, opts);
        if says_nothing_alone(h, &why) {
            continue;
        }
        let merged = combine(reason.take(), why.clone());
        // The verdict names the context its reason came from.
        if merged == why {
            reason_from = Some((h.clone(), h.workers.len(), prefix.len()));
        }
        reason = Some(merged);
    }
    if let Some((h, processes, setup)) = reason_from {
        last_harness = Some(h);
        last_processes = processes;
        last_setup = setup;
    }
    if let Some(mut c) = harmless {
        c.verdict.harm_cut = harm_cut;
        if let Some(w) = &mut c.witness {
            w.verdict.harm_cut = c.verdict.harm_cut.clone();
        }
        return c;
    }
    if let Some(UnconfirmedReason::HarnessCrashed { tried: t, .. }) = &mut reason {
        *t = tried;
    }
    let exhausted = reason.as_ref().is_some_and(UnconfirmedReason::explored);
    Confirmation {
        suspect: suspect.clone(),
        verdict: Verdict {
            status: Status::Unconfirmed,
            consequence: None,
            bound: opts.max_preemptions,
            processes: last_processes,
            interleavings,
            exhausted,
            preemptions: None,
            witness_steps: None,
            reason,
            reached,
            context: last_harness
                .as_ref()
                .map(|h| h.context.clone())
                .unwrap_or_default(),
            setup_steps: last_setup,
            harm_cut: None,
        },
        harness: last_harness,
        witness: None,
    }
}

/// A run of the search that showed the race.
type RaceFound = Found<VmSystem, RaceGoal<VmSystem>>;

/// An interleaving of the harness `judge` judges in which the race does visible harm:
/// one whose end no serial run gives, or a crash. Returns it with its
/// consequence (never `None`), the interleavings the search ran, and what
/// cut the search short when it found none.
fn harmful_race(
    sys: &VmSystem,
    judge: Arc<HarmJudge>,
    sites: &RaceSites,
    view: &Option<Arc<ReturnView>>,
    opts: &ConfirmOptions,
) -> (Option<(RaceFound, Consequence)>, u64, Option<HarmCut>) {
    let summary = Arc::new(SerialSummary::new(&judge.reference.first, judge.workers));
    let again = search(
        sys,
        HarmfulRace {
            goal: judged_goal(sites, view),
            serial: summary,
            judge: judge.clone(),
            steps: Steps::default(),
        },
        opts,
    );
    let n = again.stats.interleavings;
    let found = again.found.into_iter().next().and_then(|found| {
        let found = Found {
            schedule: found.schedule,
            trace: found.trace,
            preemptions: found.preemptions,
            monitor: found.monitor.goal,
            end: found.end,
        };
        let c = judge.judge(&found);
        (c != Consequence::None).then_some((found, c))
    });
    let cut = if found.is_some() {
        None
    } else {
        cut_of(&again.stop)
    };
    (found, n, cut)
}

/// What stopped a search before it covered its space, if anything did.
fn cut_of(stop: &StopReason) -> Option<HarmCut> {
    match stop {
        StopReason::Found | StopReason::Exhausted | StopReason::ExhaustedAll => None,
        StopReason::InterleavingBudget { .. } => Some(HarmCut::Interleavings),
        StopReason::Cancelled { why } => Some(match why {
            CancelReason::Memory { limit_bytes } => HarmCut::Memory {
                limit_bytes: *limit_bytes,
            },
            CancelReason::Time { seconds } => HarmCut::Time { seconds: *seconds },
            CancelReason::Work { limit } => HarmCut::Work { reductions: *limit },
        }),
    }
}

/// The reason for a suspect searched with several harnesses (2 workers,
/// then 3): a claim that a space was explored holds only if it holds for
/// every harness (the weaker claim wins); a race seen handled is the most
/// telling; otherwise the first reason that is not a claim stays.
/// Whether a context's reason for finding nothing is left out of the
/// verdict: a context through the program's callers that go on after the
/// entry returns (see [`harness::Harness::continuing`]) is tried before
/// the harness that drives the entry itself, which always follows it. Where
/// it explored its space, or saw a race the program handled, that counts;
/// where it did not get that far (its way never reached the race, or its
/// allowance ran out), the contexts after it say why the race was not
/// confirmed, as they did without it. A cap on the whole suspect counts.
fn says_nothing_alone(h: &Harness, why: &UnconfirmedReason) -> bool {
    use UnconfirmedReason as R;
    let continuing =
        matches!(&h.context, harness::Context::Api { continues, .. } if !continues.is_empty());
    continuing
        && !matches!(
            why,
            R::AllExhausted
                | R::BoundExhausted
                | R::Handled { .. }
                | R::TimeBudget { .. }
                | R::MemoryBudget { .. }
        )
}

fn combine(earlier: Option<UnconfirmedReason>, new: UnconfirmedReason) -> UnconfirmedReason {
    use UnconfirmedReason as R;
    let Some(earlier) = earlier else {
        return new;
    };
    match (earlier, new) {
        // A cap stops the whole suspect: the contexts after it did not run
        // and the one it cut counted only part of its interleavings, so the
        // verdict says the cap was hit, whatever an earlier context said
        // (issue 17: a cap that is hit gives its own reason).
        (e @ (R::TimeBudget { .. } | R::MemoryBudget { .. }), _) => e,
        (_, n @ (R::TimeBudget { .. } | R::MemoryBudget { .. })) => n,
        (
            R::Handled {
                runs: a,
                all: x,
                returned,
            },
            R::Handled {
                runs: b,
                all: y,
                returned: later,
            },
        ) => R::Handled {
            runs: a + b,
            all: x && y,
            returned: returned.or(later),
        },
        (h @ R::Handled { .. }, _) => h,
        (
            e,
            R::Handled {
                runs,
                all,
                returned,
            },
        ) => R::Handled {
            runs,
            all: all && e.every_interleaving(),
            returned,
        },
        (
            R::NotReached {
                milestone: a,
                at,
                call,
                runs: x,
                detail,
            },
            R::NotReached {
                milestone: b,
                runs: y,
                ..
            },
        ) if a == b => R::NotReached {
            milestone: a,
            at,
            call,
            runs: x + y,
            detail,
        },
        (R::AllExhausted, R::AllExhausted) => R::AllExhausted,
        (R::AllExhausted | R::BoundExhausted, R::AllExhausted | R::BoundExhausted) => {
            R::BoundExhausted
        }
        (R::AllExhausted | R::BoundExhausted, n) => n,
        // A context stopped at its allowance said nothing; a later one's
        // answer says more.
        (
            R::ContextBudget { .. },
            n @ (R::NotReached { .. }
            | R::HarnessCrashed { .. }
            | R::Unsupported { .. }
            | R::RunsCut { .. }
            | R::Budget { .. }
            | R::AllExhausted
            | R::BoundExhausted),
        ) => n,
        (e, _) => e,
    }
}

fn search<M: Monitor<VmSystem>>(
    sys: &VmSystem,
    goal: M,
    opts: &ConfirmOptions,
) -> Outcome<VmSystem, M> {
    match opts.random {
        Some((runs, seed)) => RandomWalk {
            runs,
            seed,
            max_run_steps: opts.max_run_steps,
            cancel: opts.cancel.clone(),
            ..RandomWalk::default()
        }
        .search(sys, goal),
        None => Systematic {
            reduction: opts.reduction,
            max_preemptions: opts.max_preemptions,
            max_interleavings: opts.max_interleavings,
            max_run_steps: opts.max_run_steps,
            stop_at_first: true,
            steer: true,
            cancel: opts.cancel.clone(),
        }
        .search(sys, goal),
    }
}

fn consequence_is_none(c: &Confirmation) -> bool {
    matches!(c.verdict.consequence, Some(Consequence::None))
}

fn crashes(sys: &VmSystem) -> Vec<(String, String)> {
    sys.procs()
        .into_iter()
        .filter_map(|p| match sys.fate(p) {
            Fate::Crashed { reason } => Some((sys.name(p), reason)),
            _ => None,
        })
        .collect()
}

/// Whether a crash is a process of the program following one that had
/// already gone: a process started by a worker (not by the harness
/// itself), exiting with a bare `noproc`, which is what a link or a
/// monitor set on a process already gone delivers (asn1_db's server
/// monitors the process that started it and exits with the reason of its
/// `'DOWN'`). The worker's call returned and the worker ended, as the
/// harness's workers do; in the program the caller goes on living. That is
/// not the harness crashing before the race: the run is judged by what
/// it reached (`not_reached` names each process's end).
fn follows_gone_starter(process: &str, reason: &str) -> bool {
    reason == "noproc" && process.matches('.').count() >= 2
}

/// Whether an exit reason is an orderly stop by OTP's convention:
/// `shutdown` or `{shutdown, _}`, what a supervisor, a test's teardown or a
/// server's own stop path ends a process with, and what proc_lib and
/// supervisors do not report as a crash. A run whose only abnormal ends
/// are such stops did not crash before the race: it is judged by what it
/// reached (`not_reached` names each process's end).
fn orderly_stop(reason: &str) -> bool {
    reason == "shutdown" || (reason.starts_with("{shutdown,") && reason.ends_with('}'))
}

/// The serial reference of a harness, summed up for a cheap look at a run's
/// end: how serial runs crash, whether one does not, what state they leave.
struct SerialSummary {
    crash_kinds: BTreeSet<String>,
    clean_exists: bool,
    /// The workers' number and how each serial run ended ([`run_end`]).
    workers: usize,
    ends: BTreeSet<RunEnd>,
}

impl SerialSummary {
    fn new(serial: &[SerialEnd], workers: usize) -> SerialSummary {
        SerialSummary {
            workers,
            ends: serial.iter().map(|s| s.end.clone()).collect(),
            crash_kinds: serial
                .iter()
                .flat_map(|s| &s.crashes)
                .map(|(_, reason)| crash_kind(reason).to_string())
                .collect(),
            clean_exists: serial.iter().any(|s| s.crashes.is_empty()),
        }
    }

    /// Whether a run's end looks harmful against the serial reference: a
    /// crash where a serial run has none, or of a kind none has, or an end
    /// ([`differs`]) no serial run has. (The witness's consequence is then judged in
    /// full, with its trace.)
    fn looks_harmful(&self, end: &VmSystem) -> bool {
        let crashed = crashes(end);
        if !crashed.is_empty()
            && (self.clean_exists
                || crashed
                    .iter()
                    .any(|(_, r)| !self.crash_kinds.contains(crash_kind(r))))
        {
            return true;
        }
        let (state, returned) = run_end(end, self.workers);
        differs(&self.ends, &state, &returned).is_some()
    }
}

/// The race goal, accepting only runs whose race does harm: a cheap look at
/// the end first ([`SerialSummary::looks_harmful`]), then, for a run that
/// passes it, the full judgement a witness gets ([`judge_consequence`]). A
/// run the full judgement finds harmless is no finding, so the search goes
/// on past it instead of stopping there with nothing harmful found.
#[derive(Clone)]
struct HarmfulRace {
    goal: RaceGoal<VmSystem>,
    serial: Arc<SerialSummary>,
    judge: Arc<HarmJudge>,
    /// The run's steps so far, shared between the clones the search makes
    /// at its choice points.
    steps: Steps,
}

/// What the full judgement of a run needs from its harness: the serial runs
/// (with their traces), the number of workers, and the callers' view of
/// returned values.
struct HarmJudge {
    reference: SerialReference<SerialEnd>,
    workers: usize,
    view: Option<Arc<ReturnView>>,
}

impl HarmJudge {
    /// The judge of runs of the harness `start` begins, with `workers`
    /// workers: its serial reference made now.
    fn new(
        start: &VmSystem,
        workers: usize,
        view: Option<Arc<ReturnView>>,
        opts: &ConfirmOptions,
    ) -> HarmJudge {
        HarmJudge {
            reference: serial_reference(start, workers, view.clone(), opts),
            workers,
            view,
        }
    }

    /// `run`'s consequence against the serial reference: an end the first
    /// serial runs do not give is judged again against more of them
    /// before it is called harm, when the first runs were not all.
    fn judge(&self, run: &Found<VmSystem, RaceGoal<VmSystem>>) -> Consequence {
        let view = self.view.as_deref();
        let c = judge_consequence(&self.reference.first, run, self.workers, view);
        match (c, self.reference.more()) {
            (c @ Consequence::None, _) | (c, None) => c,
            (_, Some(more)) => judge_consequence(more, run, self.workers, view),
        }
    }
}

impl Monitor<VmSystem> for HarmfulRace {
    fn observe(
        &mut self,
        sys: &VmSystem,
        proc: racewit_vm::Pid,
        obs: &Observation<VmItem, Site>,
        index: usize,
    ) {
        self.goal.observe(sys, proc, obs, index);
        self.steps.push(proc, obs);
    }
    fn hold(&self) -> Option<racewit_vm::Pid> {
        self.goal.hold()
    }
    fn hit(&self) -> bool {
        self.goal.hit()
    }
    fn finish(&mut self, sys: &VmSystem) -> bool {
        if !(self.goal.finish(sys) && self.serial.looks_harmful(sys)) {
            return false;
        }
        let run = Found {
            schedule: Vec::new(),
            trace: self.steps.trace(sys),
            preemptions: 0,
            monitor: self.goal.clone(),
            end: sys.clone(),
        };
        self.judge.judge(&run) != Consequence::None
    }
    fn near_miss(&self) -> bool {
        self.goal.near_miss()
    }
    fn reached(&self) -> [bool; 2] {
        self.goal.reached()
    }
}

/// Whether the program itself handled the death of `process`: a process
/// running the user's own code received its `'DOWN'` or `'EXIT'` message
/// (it monitors the helper, or links to it trapping exits) and did not
/// crash. Such a death is the program's business (a retry, an `{error, _}`
/// returned), not a crash it suffers. The harness's own waiting does not
/// count as handling. (A supervisor that receives a child's exit and
/// restarts it counts as handling too: receives carry no code location to
/// tell it apart.)
fn death_handled(end: &VmSystem, trace: &[TraceStep<Site>], process: &str) -> bool {
    let Some(pid) = end.by_name(process) else {
        return false;
    };
    let printed = end.vm.format_term(&racewit_vm::Term::Pid(pid));
    trace.iter().any(|t| {
        let is_notice =
            t.text.starts_with("receive {'DOWN',") || t.text.starts_with("receive {'EXIT',");
        // The root process is the harness (or the test, whose waiting on
        // its workers is the amplifier's): its receives are not the
        // program handling anything.
        is_notice
            && t.process != "P1"
            && t.process != process
            && t.text.contains(&printed)
            && end
                .by_name(&t.process)
                .is_some_and(|q| !matches!(end.fate(q), Fate::Crashed { .. }))
    })
}

/// The reads the root process `P1` made after the last step of any worker:
/// each step's text (`ets:lookup(t, k) -> [{k,1}]`).
fn reads_after_workers(trace: &[TraceStep<Site>], workers: &[String]) -> Vec<String> {
    if workers.is_empty() {
        return Vec::new();
    }
    let Some(last) = trace.iter().rposition(|t| workers.contains(&t.process)) else {
        return Vec::new();
    };
    trace[last + 1..]
        .iter()
        .filter(|t| {
            t.process == "P1"
                && t.access == Some(crate::system::Access::Read)
                // Shared state, not the root's own mailbox (whose messages
                // name pids and refs that differ from run to run).
                && t.item.as_deref().is_some_and(|i| !i.starts_with("mailbox"))
        })
        .map(|t| t.text.clone())
        .collect()
}

/// How a run ended, as compared with the serial runs: the shared state and
/// what each worker's call returned.
type RunEnd = (String, Vec<Option<String>>);

fn run_end(sys: &VmSystem, workers: usize) -> RunEnd {
    (state_of(sys), results(sys, workers))
}

/// How a run's end is one no serial run has.
enum Differs {
    /// Its final state is none of theirs (a lost update).
    State,
    /// Its final state is one of theirs, but what the calls returned goes
    /// with it in none (a reset that hands back a count an increment had
    /// already changed). Judged only when every call returned: a call that
    /// crashed is judged as a crash, not by what the others returned.
    Returns,
}

/// Whether the end `(state, returned)` differs from every serial run's
/// end, and how; `None` when it matches one, or with no serial run to
/// compare with.
fn differs(serial: &BTreeSet<RunEnd>, state: &str, returned: &[Option<String>]) -> Option<Differs> {
    if serial.is_empty() {
        return None;
    }
    if !serial.iter().any(|(s, _)| s == state) {
        return Some(Differs::State);
    }
    let seen = serial
        .iter()
        .any(|(s, r)| s == state && r.as_slice() == returned);
    (returned.iter().all(Option::is_some) && !seen).then_some(Differs::Returns)
}

/// What each worker's call returned in a run, by worker (`None` for a call
/// that did not return).
fn results(sys: &VmSystem, workers: usize) -> Vec<Option<String>> {
    self::workers(sys, workers)
        .into_iter()
        .map(|p| sys.returned(p))
        .collect()
}

/// What kind of crash an exit reason is: an error's reason without its
/// stack (`{badarg,[{m,f,1,[]}]}` is `badarg`), else the whole reason.
fn crash_kind(reason: &str) -> &str {
    let Some(inner) = reason.strip_prefix('{').and_then(|r| r.strip_suffix('}')) else {
        return reason;
    };
    // Split the tuple's elements at top-level commas.
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    let mut commas = Vec::new();
    for (i, c) in inner.char_indices() {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' => quote = Some(c),
            '{' | '[' | '(' => depth += 1,
            '}' | ']' | ')' => depth -= 1,
            ',' if depth == 0 => commas.push(i),
            _ => {}
        }
    }
    match commas.as_slice() {
        [at] => {
            let (first, rest) = (&inner[..*at], inner[*at + 1..].trim_start());
            if rest == "[]" || rest.starts_with("[{") {
                first.trim()
            } else {
                reason
            }
        }
        _ => reason,
    }
}

/// The worker processes of a harness: the last `n` children of the root.
fn workers(sys: &VmSystem, n: usize) -> Vec<racewit_vm::Pid> {
    let mut children: Vec<(u64, racewit_vm::Pid)> = sys
        .procs()
        .into_iter()
        .filter_map(|p| {
            let name = sys.name(p);
            let k = name.strip_prefix("P1.")?;
            k.parse::<u64>().ok().map(|k| (k, p))
        })
        .collect();
    children.sort();
    let skip = children.len().saturating_sub(n);
    children.into_iter().skip(skip).map(|(_, p)| p).collect()
}

/// Shared state as compared between runs: which process holds a registered
/// name is incidental (every worker makes the same calls), so names only.
fn state_of(sys: &VmSystem) -> String {
    let item = VmItem::new(racewit_vm::SharedItem::Registry(Name::new("")));
    let digest = sys.item_value(&item);
    digest
        .lines()
        .map(|line| match line.strip_prefix("registry:") {
            Some(names) => {
                let names: Vec<&str> = names
                    .split_whitespace()
                    .map(|n| n.split('=').next().unwrap_or(n))
                    .collect();
                format!("registry: {}", names.join(" "))
            }
            None => line.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// What the judgement of a run's consequence needs of one serial run.
struct SerialEnd {
    /// Its crashed processes, with their reasons ([`crashes`]).
    crashes: Vec<(String, String)>,
    /// Whether a worker returned a value one of its callers crashes on.
    callers_crash: bool,
    /// What the root read after the workers ([`reads_after_workers`]).
    reads_after: Vec<String>,
    /// How it ended ([`run_end`]).
    end: RunEnd,
}

impl SerialEnd {
    fn of(
        sys: &VmSystem,
        trace: &[TraceStep<Site>],
        workers: usize,
        view: Option<&ReturnView>,
    ) -> SerialEnd {
        let names: Vec<String> = self::workers(sys, workers)
            .into_iter()
            .map(|p| sys.name(p))
            .collect();
        SerialEnd {
            crashes: crashes(sys),
            callers_crash: view.is_some_and(|v| v.any_crash(sys)),
            reads_after: reads_after_workers(trace, &names),
            end: run_end(sys, workers),
        }
    }
}

/// The serial reference of a harness with `workers` workers, each run
/// summed up for [`judge_consequence`].
fn serial_reference(
    start: &VmSystem,
    workers: usize,
    view: Option<Arc<ReturnView>>,
    opts: &ConfirmOptions,
) -> SerialReference<SerialEnd> {
    SerialReference::new(
        start,
        workers,
        opts.max_run_steps,
        Box::new(move |sys, trace| SerialEnd::of(sys, trace, workers, view.as_deref())),
    )
}

/// The consequence of the run `found` against serial runs already made
/// (see [`HarmJudge::judge`]).
fn judge_consequence(
    serial: &[SerialEnd],
    found: &Found<VmSystem, RaceGoal<VmSystem>>,
    worker_count: usize,
    view: Option<&ReturnView>,
) -> Consequence {
    let end = &found.end;
    // Only crashes from the stale write on are the race's doing.
    let stale = found
        .monitor
        .race()
        .map(|r| r.stale_write_step)
        .unwrap_or(0);
    let witness_crashes: Vec<(String, String)> = crashes(end)
        .into_iter()
        .filter(|(process, _)| {
            found
                .trace
                .iter()
                .rposition(|t| &t.process == process)
                .is_none_or(|last| last >= stale)
        })
        .filter(|(process, _)| !death_handled(end, &found.trace, process))
        .collect();
    // A crash is the race's doing when some serial run has no crash at all,
    // or when no serial run crashes that way (the second `init` of a
    // singleton exits `aborted` by design when run serially, but crashes
    // with `badarg` in the race).
    let serial_kinds: BTreeSet<String> = serial
        .iter()
        .flat_map(|s| &s.crashes)
        .map(|(_, reason)| crash_kind(reason).to_string())
        .collect();
    let new_crash = witness_crashes
        .iter()
        .find(|(_, reason)| !serial_kinds.contains(crash_kind(reason)));
    let crash = if serial.iter().any(|s| s.crashes.is_empty()) {
        witness_crashes.first()
    } else {
        new_crash
    };
    if let Some((process, reason)) = crash {
        return Consequence::Crash {
            process: process.clone(),
            reason: reason.clone(),
        };
    }
    // The process whose write failed returned a value its function's
    // callers in the program crash on (unless they crash on what every
    // serial run returns too: then it is not the race's doing).
    if let Some(view) = view
        && let Some(p) = found.monitor.failed_process()
        && let Some((value, judged)) = view.judged(end, p)
        && let Some((caller, reason)) = judged.crash(&value)
        && serial.iter().any(|s| !s.callers_crash)
    {
        return Consequence::Crash {
            process: format!("{}'s caller {caller}", end.name(p)),
            reason,
        };
    }
    // What the root process (a test, an entry) read once its workers were
    // done: the program's own view of the outcome (a test reading the
    // count after the calls it made), when it reads anything.
    let workers_of = |sys: &VmSystem| -> Vec<String> {
        workers(sys, worker_count)
            .into_iter()
            .map(|p| sys.name(p))
            .collect()
    };
    let seen = reads_after_workers(&found.trace, &workers_of(end));
    if !seen.is_empty() {
        let serial_seen: BTreeSet<&Vec<String>> = serial.iter().map(|s| &s.reads_after).collect();
        if !serial_seen.contains(&seen) {
            return Consequence::NonSerializable {
                observed: format!("P1 then read {}", seen.join("; ")),
                serial_outcomes: serial_seen.len(),
            };
        }
    }
    let serial_ends: BTreeSet<RunEnd> = serial.iter().map(|s| s.end.clone()).collect();
    let (observed, returned) = run_end(end, worker_count);
    match differs(&serial_ends, &observed, &returned) {
        Some(Differs::State) => {
            let states: BTreeSet<&String> = serial_ends.iter().map(|(s, _)| s).collect();
            return Consequence::NonSerializable {
                serial_outcomes: states.len(),
                observed,
            };
        }
        Some(Differs::Returns) => {
            let calls: Vec<String> = workers_of(end)
                .iter()
                .zip(&returned)
                .map(|(w, r)| format!("{w} returned {}", r.as_deref().unwrap_or_default()))
                .collect();
            return Consequence::NonSerializable {
                observed: format!("{}\n{observed}", calls.join(", ")),
                serial_outcomes: serial_ends.len(),
            };
        }
        None => {}
    }
    let parked = end
        .procs()
        .into_iter()
        .any(|p| matches!(end.fate(p), Fate::Parked { .. }));
    let stuck: Vec<String> = workers(end, worker_count)
        .into_iter()
        .filter(|&p| end.fate(p) == Fate::Blocked)
        .map(|p| end.name(p))
        .collect();
    if !parked && !stuck.is_empty() {
        return Consequence::Stuck { processes: stuck };
    }
    Consequence::None
}

/// A harness's setup run once in its fixed order (see [`settle`]).
struct Settled {
    /// The state the search starts from: after the setup, or the start
    /// unchanged when the harness has no setup or the setup did not end.
    sys: VmSystem,
    /// The steps taken (they begin every witness's schedule).
    steps: Vec<crate::search::TraceStep<Site>>,
    /// The setup could not end because no process could go on while one
    /// was stopped at a call racewit does not run: its name, the call and
    /// why. Every run of the harness stops there before any worker starts.
    parked: Option<(String, String, crate::system::ParkCause)>,
}

/// A generated harness's setup (booting an application, starting servers,
/// making tables) run once, in one fixed order: `P1` whenever it can go on,
/// else the first other process that can, until `P1` marks the setup done.
/// The search starts from there, so its schedules order the workers, not
/// the steps of a supervision tree starting. Returns the state and the
/// steps taken (they begin every witness's schedule); the start unchanged,
/// with no steps, when the harness has no setup or the setup does not end
/// (and then, when it stopped at a call racewit does not run, which).
fn settle(sys: VmSystem, h: &Harness, opts: &ConfirmOptions) -> Settled {
    let unchanged = |sys| Settled {
        sys,
        steps: Vec::new(),
        parked: None,
    };
    if h.setup.is_empty() || h.source.is_empty() {
        return unchanged(sys);
    }
    let start = sys.clone();
    let mut sys = sys;
    let mut steps = Vec::new();
    let Some(root) = sys.by_name("P1") else {
        return unchanged(start);
    };
    let mut stuck = false;
    for _ in 0..opts.max_run_steps {
        let enabled = sys.enabled();
        let Some(&proc) = enabled.iter().find(|&&p| p == root).or(enabled.first()) else {
            stuck = true;
            break;
        };
        let name = sys.name(proc);
        let Ok(obs) = sys.step(proc) else {
            break;
        };
        let done = proc == root && obs.text.contains(harness::SETUP_DONE);
        steps.push(crate::search::TraceStep::of(name, &obs, false));
        if done {
            return Settled {
                sys,
                steps,
                parked: None,
            };
        }
    }
    // A busy loop does not stop the others (their timeouts still fire).
    let parked = stuck
        .then(|| {
            sys.procs().into_iter().find_map(|p| match sys.fate(p) {
                Fate::Parked { call, cause } if cause != crate::system::ParkCause::BusyLoop => {
                    Some((sys.name(p), call, cause))
                }
                _ => None,
            })
        })
        .flatten();
    Settled {
        parked,
        ..unchanged(start)
    }
}

/// The most steps one trial run of a harness variant takes.
const TRIAL_STEPS: usize = 20_000;

/// The harness, of `h` and its variants, whose one serial run goes furthest
/// towards the race: it runs the write, else the read, else crashes no
/// worker; the first of equals (`h` itself before its variants). A harness
/// with no variants is taken as it is, without a trial run.
fn pick_variant(image: &Image, h: &Harness, sites: &RaceSites, opts: &ConfirmOptions) -> Harness {
    if h.variants.is_empty() {
        return h.clone();
    }
    let trial = |c: &Harness| -> (bool, bool, bool) {
        let sys = settle(start(image, &c.module, &c.function, opts), c, opts).sys;
        // A trial that runs on (a periodic timer, a server ticking) is cut
        // early: it only has to show how far the calls get.
        let run = serial_probe(&sys, sites, opts, opts.max_run_steps.min(TRIAL_STEPS));
        match run.found.first() {
            Some(run) => {
                let [read, write] = run.monitor.goal.reached();
                (
                    write,
                    read || run.monitor.read_seen,
                    crashes(&run.end).is_empty(),
                )
            }
            None => (false, false, false),
        }
    };
    let mut best = (trial(h), 0);
    for (k, v) in h.variants.iter().enumerate() {
        if best.0 == (true, true, true) {
            break;
        }
        let score = trial(v);
        if score > best.0 {
            best = (score, k + 1);
        }
    }
    match best.1 {
        0 => Harness {
            variants: Vec::new(),
            ..h.clone()
        },
        k => h.variants[k - 1].clone(),
    }
}

/// Why the search found nothing. A space is called explored only when the
/// runs ran whole (none cut, none stopped at an unsupported call) and reached
/// the suspect's read and then its write; otherwise the reason says what
/// stopped them. One serial run (no preemption) is looked at to tell what
/// the processes did instead.
fn why_not(
    suspect: &Suspect,
    h: &Harness,
    sys: &VmSystem,
    sites: &RaceSites,
    view: &Option<Arc<ReturnView>>,
    outcome: &Outcome<VmSystem, RaceGoal<VmSystem>>,
    opts: &ConfirmOptions,
) -> UnconfirmedReason {
    let stats = &outcome.stats;
    let complete = stats.interleavings;
    if let StopReason::Cancelled { why } = &outcome.stop {
        // Out of its allowance with every run cut: why they were cut says
        // more than the allowance.
        if matches!(why, CancelReason::Work { .. })
            && let Some(cut) = all_cut(stats)
        {
            return cut;
        }
        return match why {
            CancelReason::Memory { limit_bytes } => UnconfirmedReason::MemoryBudget {
                limit_bytes: *limit_bytes,
                interleavings: complete,
            },
            CancelReason::Time { seconds } => UnconfirmedReason::TimeBudget {
                seconds: *seconds,
                interleavings: complete,
            },
            CancelReason::Work { limit } => UnconfirmedReason::ContextBudget {
                reductions: *limit,
                interleavings: complete,
            },
        };
    }
    if stats.near_misses > 0 {
        let all = outcome.stop == StopReason::ExhaustedAll
            && stats.runs_whole()
            && stats.runs_reached[1] > 0;
        return UnconfirmedReason::Handled {
            runs: stats.near_misses,
            all,
            returned: view
                .as_deref()
                .and_then(|v| handled_return(sys, sites, v, opts)),
        };
    }
    if let Some(call) = &stats.first_parked {
        return UnconfirmedReason::Unsupported {
            call: call.clone(),
            runs: stats.parked_runs,
            of: complete,
            cause: stats.first_parked_cause,
            setup: None,
        };
    }
    if let Some(cut) = all_cut(stats) {
        return cut;
    }
    let probe = serial_probe(sys, sites, opts, opts.max_run_steps);
    let run = probe.found.first();
    if let Some(run) = run {
        let parked = run
            .end
            .procs()
            .into_iter()
            .find_map(|p| match run.end.fate(p) {
                Fate::Parked { call, cause } => Some((call, cause)),
                _ => None,
            });
        if let Some((call, cause)) = parked {
            return UnconfirmedReason::Unsupported {
                call,
                runs: 0,
                of: 0,
                cause: Some(cause),
                setup: None,
            };
        }
    }
    if stats.runs_reached[0] == 0 {
        if let Some(run) = run
            && let Some((process, reason)) =
                crashes(&run.end).into_iter().find(|(process, reason)| {
                    !follows_gone_starter(process, reason) && !orderly_stop(reason)
                })
        {
            return UnconfirmedReason::HarnessCrashed {
                made_up: made_up_module(h, &reason),
                process,
                reason,
                tried: Vec::new(),
            };
        }
        return not_reached(suspect, h, Milestone::Read, complete, run);
    }
    if stats.runs_reached[1] == 0 {
        return not_reached(suspect, h, Milestone::Write, complete, run);
    }
    if let Some(why) = &stats.first_error {
        return UnconfirmedReason::RunsCut {
            why: why.clone(),
            runs: stats.cut_runs,
            of: complete + stats.cut_runs,
        };
    }
    match outcome.stop {
        StopReason::InterleavingBudget { limit } => UnconfirmedReason::Budget {
            interleavings: limit,
        },
        StopReason::ExhaustedAll => UnconfirmedReason::AllExhausted,
        StopReason::Exhausted | StopReason::Found => UnconfirmedReason::BoundExhausted,
        // Answered first, above.
        StopReason::Cancelled { .. } => UnconfirmedReason::Budget {
            interleavings: complete,
        },
    }
}

/// `runs_cut` when no run ended and some were cut: why they were.
fn all_cut(stats: &crate::search::SearchStats) -> Option<UnconfirmedReason> {
    let why = stats.first_error.as_ref()?;
    (stats.interleavings == 0).then(|| UnconfirmedReason::RunsCut {
        why: why.clone(),
        runs: stats.cut_runs,
        of: stats.cut_runs,
    })
}

/// One serial run (no preemption) from `sys`, watched for the suspect's
/// read and write.
fn serial_probe(
    sys: &VmSystem,
    sites: &RaceSites,
    opts: &ConfirmOptions,
    max_run_steps: usize,
) -> Outcome<VmSystem, Probe> {
    BoundedDfs {
        max_preemptions: 0,
        max_interleavings: 1,
        max_run_steps,
        sleep_sets: false,
        stop_at_first: true,
        steer: false,
        cancel: opts.cancel.clone(),
    }
    .search(sys, Probe::new(race_goal(sites)))
}

/// The `not_reached` reason for a milestone no run reached, with what the
/// processes of one serial run did instead: what each read returned and how
/// each ended.
fn not_reached(
    suspect: &Suspect,
    h: &Harness,
    milestone: Milestone,
    runs: u64,
    run: Option<&Found<VmSystem, Probe>>,
) -> UnconfirmedReason {
    let access = match milestone {
        Milestone::Read => &suspect.read,
        Milestone::Write => &suspect.write,
    };
    let file = std::path::Path::new(&access.file)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| access.file.clone());
    let detail = match run {
        Some(run) => describe_run(suspect, h, run),
        None => "no run completed".to_string(),
    };
    UnconfirmedReason::NotReached {
        milestone,
        at: format!("{file}:{}", access.line),
        call: access.call.clone(),
        runs,
        detail,
    }
}

/// What each process of a run did with the suspect's read, and how it
/// ended: `in the first run, P1.1 read ets:lookup(t, k) -> [] and exited
/// normally; P1.2 ...`.
fn describe_run(suspect: &Suspect, h: &Harness, run: &Found<VmSystem, Probe>) -> String {
    let read_site = (suspect.read.module.clone(), suspect.read.site);
    let write_site = (suspect.write.module.clone(), suspect.write.site);
    let end = &run.end;
    let mut parts = Vec::new();
    for p in end.procs() {
        let name = end.name(p);
        if name == "P1" {
            continue;
        }
        let read = run
            .trace
            .iter()
            .filter(|t| t.process == name && t.site.as_ref() == Some(&read_site))
            .map(|t| t.text.as_str())
            .next_back();
        // A write that met no table ran none of the race: say so, or the
        // reader would take "never executed" for a wrong claim.
        let no_table = run
            .trace
            .iter()
            .filter(|t| t.process == name && t.absent && t.site.as_ref() == Some(&write_site))
            .map(|t| t.text.as_str())
            .next_back();
        let fate = match end.fate(p) {
            Fate::Normal => "exited normally".to_string(),
            Fate::Crashed { reason } => match made_up_module(h, &reason) {
                Some(made_up) => format!("crashed with {reason} ({made_up})"),
                None => format!("crashed with {reason}"),
            },
            Fate::Blocked => "blocked in receive".to_string(),
            Fate::Parked { call, cause } => format!("stopped at {}", cause.describe(&call)),
            Fate::Running => "was still running".to_string(),
        };
        let fate = match no_table {
            Some(text) => format!("called `{text}` on a table that does not exist, then {fate}"),
            None => fate,
        };
        parts.push(match read {
            Some(text) => format!("{name} read `{text}`, then {fate}"),
            None => format!("{name} {fate} without reading"),
        });
    }
    if parts.is_empty() {
        return "in the first run no worker process ran".to_string();
    }
    format!("in the first run, {}", parts.join("; "))
}

/// When `reason` is `undef` for a call on a module that `h`'s calls pass
/// as an atom: the harness made that module name up for an argument (the
/// VM parks, as not loaded, a call on a module the program itself names),
/// and the crash is the harness's, in words.
fn made_up_module(h: &Harness, reason: &str) -> Option<String> {
    if crash_kind(reason) != "undef" {
        return None;
    }
    let module = reason
        .strip_prefix("{undef,[{")?
        .split(',')
        .next()
        .filter(|m| !m.is_empty())?;
    let call = h
        .workers
        .iter()
        .chain(&h.setup)
        .find(|call| holds_atom(call, module))?;
    Some(format!(
        "the call is on `{module}`, a module name the harness made up for an argument of \
         `{call}`: nothing in the program gives that argument a value"
    ))
}

/// Whether Erlang text `text` holds the atom written `atom` as a whole
/// token (not inside a longer name or a string).
fn holds_atom(text: &str, atom: &str) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '@';
    let mut in_string = false;
    let mut start = 0;
    while let Some(i) = text[start..].find(atom).map(|i| i + start) {
        in_string ^= text[start..i].matches('"').count() % 2 == 1;
        let before = text[..i].chars().next_back();
        let after = text[i + atom.len()..].chars().next();
        if !in_string && !before.is_some_and(word) && !after.is_some_and(|c| word(c) || c == ':') {
            return true;
        }
        start = i + atom.len();
    }
    false
}

/// Wraps a race goal to note whether the read ever ran; accepts every run.
#[derive(Clone)]
struct Probe {
    goal: RaceGoal<VmSystem>,
    read_seen: bool,
}

impl Probe {
    fn new(goal: RaceGoal<VmSystem>) -> Self {
        Probe {
            goal,
            read_seen: false,
        }
    }
}

impl Monitor<VmSystem> for Probe {
    fn observe(
        &mut self,
        sys: &VmSystem,
        proc: racewit_vm::Pid,
        obs: &Observation<VmItem, Site>,
        index: usize,
    ) {
        if obs.site.as_ref() == Some(&self.goal.read_site) {
            self.read_seen = true;
        }
        self.goal.observe(sys, proc, obs, index);
    }
    fn hit(&self) -> bool {
        false
    }
    fn finish(&mut self, _: &VmSystem) -> bool {
        true
    }
}

/// Witness events with locations and the race's roles marked. `layers`
/// are the programs the run's modules came from, as an image loads them
/// (see [`Image::layered`]): the last one's files are every layer's.
pub fn trace_events(
    layers: &[&Program],
    trace: &[TraceStep<Site>],
    race: Option<crate::goal::RaceHit>,
) -> Vec<WitnessEvent> {
    let Some(files) = layers.last().map(|p| &p.sources) else {
        return Vec::new();
    };
    trace
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let span = t.site.as_ref().and_then(|(m, id)| {
                let module = layers.iter().find_map(|p| p.module(m))?;
                Some(module.call_sites.get(id.index())?.span)
            });
            let loc = span.map(|s| files.location(s));
            let role = race.and_then(|r| {
                if i == r.read_step {
                    Some("read")
                } else if i == r.interfering_write_step {
                    Some("interfering_write")
                } else if i == r.stale_write_step {
                    Some("stale_write")
                } else {
                    None
                }
            });
            WitnessEvent {
                step: i,
                process: t.process.clone(),
                text: t.text.clone(),
                item: t.item.clone(),
                access: t.access,
                file: loc.as_ref().map(|l| l.file.clone()),
                line: loc.as_ref().map(|l| l.line),
                column: loc.as_ref().map(|l| l.column),
                preemption: t.preemption,
                role: role.map(str::to_string),
                span,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{ConfirmOptions, Plan, combine, crash_kind, orderly_stop};
    use crate::verdict::UnconfirmedReason;
    use crate::witness::LoadRecord;

    /// Two races in one module, and tests that reach them: the first
    /// suspects' amplified copies of the tests are modules with test
    /// functions of their own.
    const PAIR: &str = "-module(pair).\n-export([bump_a/0, bump_b/0]).\n\
        bump_a() ->\n    case ets:lookup(pair_a, n) of\n        \
        [{n, V}] -> ets:insert(pair_a, {n, V + 1});\n        \
        [] -> ets:insert(pair_a, {n, 1})\n    end.\n\
        bump_b() ->\n    case ets:lookup(pair_b, n) of\n        \
        [{n, V}] -> ets:insert(pair_b, {n, V + 1});\n        \
        [] -> ets:insert(pair_b, {n, 1})\n    end.\n";
    const PAIR_TESTS: &str = "-module(pair_tests).\n-export([a_test/0, both_test/0]).\n\
        setup() ->\n    ets:new(pair_a, [named_table, public]),\n    \
        ets:new(pair_b, [named_table, public]).\n\
        a_test() ->\n    setup(),\n    pair:bump_a().\n\
        both_test() ->\n    setup(),\n    pair:bump_a(),\n    pair:bump_b().\n";

    /// A suspect's verdict does not depend on which suspects were
    /// confirmed before it: each builds its harnesses from the user's
    /// program alone. (They used to be loaded into one program, so the
    /// races of `bump_b` were also searched from the copies of the tests
    /// amplified for `bump_a`'s, and counted more runs and interleavings
    /// than when checked alone.) Nothing a suspect generates stays in the
    /// shared image.
    #[test]
    fn a_verdict_does_not_depend_on_the_suspects_before_it() {
        let src = [("pair", PAIR), ("pair_tests", PAIR_TESTS)];
        let program = crate::test_support::program(&src);
        let suspects = racewit_static::find_suspects(&program, &Default::default()).suspects;
        let later: Vec<usize> = suspects
            .iter()
            .enumerate()
            .filter(|(_, s)| s.read.function.contains("bump_b"))
            .map(|(i, _)| i)
            .collect();
        assert!(!later.is_empty() && later[0] > 0, "{suspects:#?}");
        let opts = ConfirmOptions::default();
        let load = LoadRecord::default();
        let all = Plan::new(program, &suspects, &load, &opts);
        let loaded = all.image().loaded_modules().0;
        let together: Vec<_> = (0..suspects.len()).map(|i| all.confirm(i)).collect();
        assert_eq!(all.image().loaded_modules().0, loaded);
        for i in later {
            let alone = std::slice::from_ref(&suspects[i]);
            let program = crate::test_support::program(&src);
            let c = Plan::new(program, alone, &load, &opts)
                .rivals_from(&suspects)
                .confirm(0);
            assert_eq!(together[i].verdict, c.verdict, "{}", suspects[i].id);
        }
    }

    #[test]
    fn a_cap_hit_in_a_later_context_is_the_reason() {
        let unsupported = UnconfirmedReason::Unsupported {
            call: "hocon_scanner:string/1".into(),
            runs: 505,
            of: 505,
            cause: None,
            setup: None,
        };
        let time = UnconfirmedReason::TimeBudget {
            seconds: 300,
            interleavings: 17_417,
        };
        assert_eq!(combine(Some(unsupported.clone()), time.clone()), time);
        assert_eq!(combine(Some(time.clone()), unsupported), time);
        let handled = UnconfirmedReason::Handled {
            runs: 3,
            all: false,
            returned: None,
        };
        assert_eq!(combine(Some(handled), time.clone()), time);
    }

    #[test]
    fn only_shutdown_reasons_are_orderly_stops() {
        assert!(orderly_stop("shutdown"));
        assert!(orderly_stop("{shutdown,{error,closed}}"));
        assert!(!orderly_stop("normal_shutdown"));
        assert!(!orderly_stop("{shutdown_failed,x}"));
        assert!(!orderly_stop("{badarg,[{m,f,1,[]}]}"));
        assert!(!orderly_stop("killed"));
    }

    #[test]
    fn crash_kinds_leave_the_stack_out() {
        assert_eq!(
            crash_kind("{badarg,[{ct_master,init_master,7,[]}]}"),
            "badarg"
        );
        assert_eq!(
            crash_kind("{{badmatch,false},[{job_ids,enqueue,1,[]}]}"),
            "{badmatch,false}"
        );
        assert_eq!(crash_kind("aborted"), "aborted");
        assert_eq!(crash_kind("{shutdown,normal}"), "{shutdown,normal}");
        assert_eq!(crash_kind("{\"a,b\",[]}"), "\"a,b\"");
        assert_eq!(
            crash_kind("{already_started,svc_probe}"),
            "{already_started,svc_probe}"
        );
    }
}
