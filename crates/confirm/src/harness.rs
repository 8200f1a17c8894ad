//! What runs to confirm a suspect: a generated Erlang module that sets up what
//! the code needs, then starts N worker processes that each call the
//! suspect's entry function, and waits for them.
//!
//! The harness is ordinary Erlang, loaded beside the user's modules and shown
//! in reports so a user can paste it into a test. The root process is `P1`;
//! the workers are `P1.1`, `P1.2`, ... in spawn order.

use racewit_static::{ArgHint, Entry, Suspect};
use racewit_syntax::ir::{Body, CallTarget, Expr, ExprId, MFA, Pat, Program};
use racewit_vm::library::Application;

use crate::arg_shape::Need;
use crate::callers::{CALLBACKS, Callers};
use crate::erl_text::{atom, const_text, value_text};
use crate::prepare::{PrepArg, Preparer};

/// A harness ready to load.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Harness {
    /// Name of the generated module (`racewit_harness_<n>`).
    pub module: String,
    /// The function the root process runs (`run/0`).
    pub function: String,
    /// Setup calls made first, in the root process (`counter:init()`).
    pub setup: Vec<String>,
    /// One call per worker process (`counter:incr(hits)`).
    pub workers: Vec<String>,
    /// The full Erlang source of the module (empty when the root process
    /// runs an existing function, such as a test).
    pub source: String,
    /// What runs, as a verdict names it.
    pub context: Context,
    /// The amplified test this harness runs, if it does (replay rebuilds
    /// its modules from this).
    #[serde(default)]
    pub amplification: Option<crate::amplify::Amplification>,
    /// Other ways to drive the same entry (other made-up argument values, no
    /// setup call), each a complete harness of its own module. Before the
    /// search, one serial run of each tells which of them reaches the
    /// suspect's read and write; that one is searched.
    #[serde(skip)]
    pub variants: Vec<Harness>,
    /// The same harness with each worker passing its own made-up values
    /// where the harness made values up (`tag(counter, 1)` and
    /// `tag(counter, 2)`): searched when the race shows with no visible
    /// harm, since a lost update of equal values cannot be seen.
    #[serde(skip)]
    pub distinct: Option<Box<Harness>>,
    /// The same entry raced by a *rival*: a second worker that makes another
    /// call the program makes on the same thing (`untag` raced by `tag`,
    /// a reset raced by an increment), each worker with its own values.
    /// Searched, like `distinct`, when the race shows with no visible harm:
    /// two equal calls may lose nothing that a different writer would.
    #[serde(skip)]
    pub mixed: Vec<Harness>,
    /// The program function each worker calls, by worker, when the worker
    /// is one call of it (its value is then that function's, and the
    /// program's callers of the function judge it: see `returns`).
    #[serde(skip)]
    pub calls: Vec<Option<crate::callers::Mfa>>,
    /// Each worker made what its call works on in its own process (see
    /// `Drive::in_worker`): the workers never share it, so only a rival
    /// (`mixed`) can race the entry, and the rivals are searched even when
    /// this harness shows no race at all.
    #[serde(skip)]
    pub own_items: bool,
    /// The second worker is another read-modify-write of the item the race
    /// is on, found by the static pass (see [`crate::item_writers`]): a
    /// rival searched even when the harness it is mixed into shows no race,
    /// since two equal calls may never reach, or never lose, what a
    /// different writer does.
    #[serde(skip)]
    pub rival_writes_item: bool,
    /// The same race driven through the program's own callers that go on
    /// after the entry returns (see [`crate::through_api::continuing_ways`]):
    /// a context of its own, searched before this one, since only there
    /// does what the callers do next with what the entry made show.
    #[serde(skip)]
    pub continuing: Option<Box<Harness>>,
}

impl Harness {
    /// This harness, its variants, and the twin of each in which every
    /// worker passes its own values: every module the plan loads.
    pub fn all(&self) -> impl Iterator<Item = &Harness> {
        std::iter::once(self).chain(&self.variants).flat_map(|h| {
            std::iter::once(h)
                .chain(h.distinct.as_deref())
                .chain(&h.mixed)
        })
    }
}

/// Why no harness could be built for a suspect.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, serde::Serialize)]
pub enum HarnessError {
    #[error("no exported function reaches the read (nothing a harness can call)")]
    NoEntry,
    #[error("entry {mfa} is not a loaded function")]
    UnknownEntry { mfa: String },
    #[error(
        "the program never runs {mfa} twice at once: it is only called {why}; \
         calling it from several processes would invent a race the program cannot have"
    )]
    Serialised { mfa: String, why: String },
    /// The read or the write lies in `module`, part of an application
    /// racewit models instead of running (see
    /// [`racewit_vm::library::MODELLED_APPLICATIONS`]), and every function
    /// that reaches the read is that application's own: its processes
    /// never run, so no harness can drive the race.
    #[error("{module} is part of {application}, which racewit models instead of running")]
    Modelled { module: String, application: String },
}

/// Builds the harness for `suspect` with `processes` workers, named
/// `racewit_harness_<index>`. `writers` are the exported functions that
/// reach the program's other read-modify-writes of the suspect's item (see
/// [`crate::item_writers`]): rivals of every way the entry is driven.
pub fn build(
    program: &Program,
    callers: &crate::callers::Callers,
    apps: &[Application],
    suspect: &Suspect,
    writers: &[Entry],
    processes: usize,
    index: usize,
) -> Result<Harness, HarnessError> {
    let mut candidates = suspect.entries.clone();
    // An entry whose arguments cannot be written down (funs) is better
    // reached through the exported functions that call it with them.
    for e in &suspect.entries {
        if arg_values(program, callers, e).iter().any(Option::is_none) {
            for c in caller_entries(program, callers, &e.mfa) {
                if !candidates.iter().any(|x| x.mfa == c.mfa) {
                    candidates.push(c);
                }
            }
        }
    }
    // A race inside a gen_server callback is driven by the module's client
    // API: the exported functions that send the requests it handles.
    for e in &suspect.entries {
        for c in client_entries(program, e) {
            if !candidates.iter().any(|x| x.mfa == c.mfa) {
                candidates.push(c);
            }
        }
    }
    // A read inside a receive loop (a server written by hand) is driven by
    // the exported functions that send it the message it handles; the
    // function that starts the loop becomes setup.
    let clients = loop_clients(program, suspect);
    if !clients.is_empty() {
        candidates.retain(|e| !is_setup_like(&e.mfa));
        for c in clients {
            if !candidates.iter().any(|x| x.mfa == c.mfa) {
                candidates.push(c);
            }
        }
    }
    // A function the program only runs as the body of processes it spawns
    // (`spawn(M, server, [...])`) runs as many times at once as its
    // spawners start it. When every spawner runs in one serialising context
    // (see `Callers::serialised`), the body never runs twice at once: it is
    // not called from the workers, and its spawners stand in for it (the
    // serialised filter below then says why). When only some do (user_drv's
    // start/0, which its supervisor names in data and runs once, beside
    // other exported starts), the others are what may run at once: they
    // are the entries, passing the body the arguments they really pass.
    // When none does, calling the body from several workers stands for
    // several spawners running at once.
    let mut through_spawners: Vec<Entry> = Vec::new();
    candidates.retain(|e| {
        let key = (
            e.mfa.module.to_string(),
            e.mfa.name.to_string(),
            e.mfa.arity,
        );
        let Some(spawners) = callers.only_spawners(&key) else {
            return true;
        };
        if !spawners.iter().any(|s| callers.serialised(s).is_some()) {
            return true;
        }
        for (sm, sf, sa) in spawners {
            let spawner = Entry {
                mfa: MFA {
                    module: sm.as_str().into(),
                    name: sf.as_str().into(),
                    arity: *sa,
                },
                args: vec![ArgHint::Unknown; *sa as usize],
            };
            if !through_spawners.iter().any(|x| x.mfa == spawner.mfa) {
                through_spawners.push(spawner);
            }
        }
        false
    });
    for c in through_spawners {
        if !candidates.iter().any(|x| x.mfa == c.mfa) {
            candidates.push(c);
        }
    }
    // A race inside an application racewit models (mnesia) is driven only
    // through code that is not the application's own: its processes never
    // run, so calling its internal functions would work on state nothing
    // made. With no other way in, that is the verdict.
    if let Some(modelled) = modelled_part(program, apps, suspect) {
        let inside = |e: &Entry| modelled_module(program, apps, &e.mfa.module).is_some();
        let outside = callers_outside(
            program,
            callers,
            apps,
            candidates.iter().filter(|e| inside(e)),
        );
        candidates.retain(|e| !inside(e));
        for c in outside {
            if !candidates.iter().any(|x| x.mfa == c.mfa) {
                candidates.push(c);
            }
        }
        if candidates.is_empty() {
            return Err(modelled);
        }
    }
    // Entries the program only ever calls from one process at a time are
    // not called concurrently (their callers, when exported, are).
    let mut serialised: Option<HarnessError> = None;
    candidates.retain(|e| {
        let (m, f, a) = (e.mfa.module.as_str(), e.mfa.name.as_str(), e.mfa.arity);
        match callers.serialised(&(m.to_string(), f.to_string(), a)) {
            Some(why) => {
                serialised.get_or_insert(HarnessError::Serialised {
                    mfa: e.mfa.to_string(),
                    why,
                });
                false
            }
            None => true,
        }
    });
    let usable = usable_entries(program, callers, &candidates);
    let Some(&entry) = usable.first() else {
        return Err(serialised
            .or_else(|| in_singleton_callbacks(program, suspect, &candidates))
            .unwrap_or(HarnessError::NoEntry));
    };
    let entry_key = (
        entry.mfa.module.as_str(),
        entry.mfa.name.as_str(),
        entry.mfa.arity,
    );
    let module = |k: usize| match k {
        0 => format!("racewit_harness_{index}"),
        k => format!("racewit_harness_{index}_{k}"),
    };
    // The calls the program makes on what the entry works on, which may
    // also race with it (see `Harness::mixed`).
    let rivals: Vec<Preparer> = crate::prepare::preparers_where(program, callers, entry_key, |p| {
        crate::prepare::may_write(
            program,
            (&p.module, &p.function, p.args.len() as u32),
            suspect.category,
        )
    })
    .into_iter()
    .take(MAX_RIVALS)
    .collect();
    // Writers of the very key the suspect's write puts come first, then
    // the other read-modify-writes of an item named by constants.
    let rivals: Vec<Preparer> = crate::prepare::item_rivals(program, &suspect.read, &suspect.write)
        .into_iter()
        .chain(rivals)
        .take(MAX_RIVALS)
        .collect();
    let rivals: Vec<Preparer> =
        crate::prepare::key_linked_rivals(program, entry_key, &suspect.write)
            .into_iter()
            .chain(rivals)
            .take(MAX_RIVALS)
            .collect();
    // The program's other read-modify-writes of the item, each through
    // an exported function that reaches it, race every way of driving the
    // entry.
    let item_writers = item_writer_rivals(program, callers, writers, entry);
    let rivals: Vec<Preparer> = rivals.into_iter().chain(item_writers.clone()).collect();
    let mut base = api_harness(
        program,
        callers,
        suspect,
        entry,
        processes,
        &Drive {
            rivals: rivals.clone(),
            ..Drive::default()
        },
        module(0),
    );
    // Values the harness had to guess may be of the wrong shape for the code
    // to reach the read (an integer where a later clause wants a list), the
    // conventional setup call may be the very code that races (a `start/0`
    // that registers the name), and another entry may reach the read more
    // directly: each is a variant, and a trial run picks among them.
    let (api_entries, api_drives) = api_ways(program, callers, apps, suspect, &usable);
    let mut drives: Vec<(&Entry, Drive)> = Vec::new();
    // The application the entry belongs to, booted first (its supervision
    // tree started, its tables made) as the program really runs.
    if let Some(app) = application_of(program, apps, &entry.mfa.module) {
        drives.push((
            entry,
            Drive {
                boot: Some(app.clone()),
                ..Drive::default()
            },
        ));
    }
    // A function of the entry's module that takes its arguments as the
    // entry does and reaches another read-modify-write of the item makes
    // what the entry takes: made first with values the program passes it,
    // the entry called with the same, and the same function with other
    // values the program passes it as the rival (a trace added, stopped
    // while another is added).
    for &e in usable.iter().take(1 + MAX_OTHER_ENTRIES) {
        drives.extend(twin_drives(
            program,
            callers,
            writers,
            e,
            application_of(program, apps, &e.mfa.module),
        ));
    }
    drives.extend(api_entries.iter().zip(api_drives));
    // The tables the race is on that no code of the program creates are
    // its user's to create (a library documents them): created first as a
    // user would, alone and before each setter that seeds the item.
    let user_tables = crate::table_setup::user_tables(program, callers, suspect);
    let create: Vec<String> = user_tables.iter().map(|t| t.create.clone()).collect();
    let unmade: Vec<&str> = user_tables
        .iter()
        .filter(|t| t.made_by.is_none())
        .map(|t| t.name.as_str())
        .collect();
    let created = (!unmade.is_empty())
        .then(|| {
            format!(
                "with table {} created as its user would (no code of the program creates it)",
                unmade.join(", ")
            )
        })
        .into_iter()
        .chain(user_tables.iter().filter_map(|t| {
            let by = t.made_by.as_ref()?;
            Some(format!(
                "with table {} created first as a named public table (the program makes it \
                 in {by}, through a wrapper of {}, which this context does not run)",
                t.name,
                t.create.split('(').next().unwrap_or_default()
            ))
        }))
        .collect::<Vec<_>>()
        .join("; ");
    // A write behind a comparison of what was read with a constant is not
    // reached from an empty item: the item's own setter, run first with a
    // value near the constant, seeds it, through the writing function
    // itself when it is an entry (the setter then writes the key its
    // workers use).
    let writer = usable.iter().copied().find(|e| {
        crate::prepare::site_call(program, &suspect.write).is_some_and(|(f, _)| {
            e.mfa.module.as_str() == suspect.write.module.as_str()
                && e.mfa.name.as_str() == f.name.as_str()
                && e.mfa.arity == f.arity
        })
    });
    for mut p in crate::prepare::seeded_setters(program, &suspect.read, &suspect.write) {
        let e = match writer {
            Some(w) => w,
            None => {
                for a in p.args.iter_mut() {
                    if matches!(a, PrepArg::Entry(_)) {
                        *a = PrepArg::Open;
                    }
                }
                entry
            }
        };
        let through = if e == entry {
            String::new()
        } else {
            format!("through {} ", e.mfa)
        };
        let with = if created.is_empty() {
            String::new()
        } else {
            format!("{created}, ")
        };
        drives.push((
            e,
            Drive {
                what: format!("{through}{with}{}", p.describe()),
                first: Some(p),
                create: create.clone(),
                ..Drive::default()
            },
        ));
    }
    if !create.is_empty() {
        drives.push((
            entry,
            Drive {
                what: created.clone(),
                create: create.clone(),
                ..Drive::default()
            },
        ));
    }
    // What the program runs first to set the item the race is on as a
    // whole (its configuration put before anything reads or updates it),
    // in place of the conventional setup call (which may be the very code
    // that reads the configuration from a file): alone, as a test's setup
    // makes it, and after the application's boot when there is one.
    let app = application_of(program, apps, &entry.mfa.module);
    let initialisers = crate::prepare::initialisers(program, &suspect.read, &suspect.write);
    for p in initialisers.iter().take(MAX_RIVALS) {
        for boot in std::iter::once(None).chain(app.map(Some)) {
            drives.push((
                entry,
                Drive {
                    what: p.describe(),
                    first: Some(p.clone()),
                    boot: boot.cloned(),
                    no_setup: true,
                    ..Drive::default()
                },
            ));
        }
    }
    // The setup call left out comes early: when it is the very code that
    // races (a `start/0` that registers the name), no later variant helps,
    // and the preparers below may fill the variants' quota.
    if !choose_setup(program, suspect, entry).is_empty() {
        drives.push((
            entry,
            Drive {
                no_setup: true,
                what: "without its setup call".to_string(),
                ..Drive::default()
            },
        ));
    }
    // The servers the entry calls by name, started first by the program's
    // own start functions, as the running system has them.
    for st in crate::servers::starters_for(program, suspect, entry_key)
        .into_iter()
        .take(MAX_SERVER_STARTS)
    {
        let p = Preparer {
            module: st.module.clone(),
            function: st.function.clone(),
            args: vec![PrepArg::Open; st.arity as usize],
            why: crate::prepare::Why::StartsServer,
        };
        drives.push((
            entry,
            Drive {
                what: format!("with server {} started by {}", st.name, p.mfa()),
                prepare: Some(p),
                ..Drive::default()
            },
        ));
    }
    // What the program calls first to make the thing the entry works on
    // (the metric before it is tagged), with the application booted when
    // there is one: a preparer needs the tables the application makes.
    // The other entries with what the program calls before them: the first
    // preparer of each.
    let others = usable.iter().skip(1).take(MAX_OTHER_ENTRIES);
    for (k, &e) in std::iter::once(&entry).chain(others).enumerate() {
        let app = application_of(program, apps, &e.mfa.module);
        let found = crate::prepare::preparers(
            program,
            callers,
            (e.mfa.module.as_str(), e.mfa.name.as_str(), e.mfa.arity),
        );
        // An entry that names its own process (`do_set(Name, V, self())`)
        // may work on an item the calling process made for itself: its
        // preparer is also tried in each worker's own process.
        let own = calls_self(program, &e.mfa);
        for p in found.into_iter().take(if k == 0 { usize::MAX } else { 1 }) {
            let through = if k == 0 {
                String::new()
            } else {
                format!("through {} ", e.mfa)
            };
            if own {
                drives.push((
                    e,
                    Drive {
                        what: format!("{through}{}, in each worker's own process", p.describe()),
                        prepare: Some(p.clone()),
                        in_worker: true,
                        boot: app.cloned(),
                        ..Drive::default()
                    },
                ));
            }
            drives.push((
                e,
                Drive {
                    what: format!("{through}{}", p.describe()),
                    prepare: Some(p),
                    boot: app.cloned(),
                    ..Drive::default()
                },
            ));
        }
    }
    // Other fillers for the made-up arguments no use gives a kind to.
    let needs = arg_needs(program, callers, entry);
    let blind = invented_args(program, callers, entry)
        .into_iter()
        .filter(|&i| needs[i as usize - 1].is_none())
        .count();
    if blind > 1 {
        for filler in &FILLERS[1..] {
            drives.push((
                entry,
                Drive {
                    filler,
                    what: format!("made-up arguments {filler}"),
                    ..Drive::default()
                },
            ));
        }
    }
    let mut singles = Vec::new();
    // Where the entry dispatches on an operation's name (`delete`), the
    // same function's other operations (`new`), made first for each
    // worker, make what it works on.
    let mut operations = Vec::new();
    // The first thing the program calls before the entry with its value.
    let made_first = crate::prepare::preparers(program, callers, entry_key)
        .into_iter()
        .find(|p| p.why == crate::prepare::Why::CalledFirst);
    for i in 0..entry.mfa.arity as usize {
        for v in crate::prepare::operations(program, entry_key, i) {
            let others = crate::prepare::other_clauses(program, entry_key, i, &v, suspect.category);
            // The operation alone first: it may need nothing made.
            if !others.is_empty() {
                operations.push((
                    entry,
                    Drive {
                        what: format!("argument {} = {v}", i + 1),
                        set: Some((i, v.clone())),
                        ..Drive::default()
                    },
                ));
            }
            for p in others {
                // The thing the operations work on made first, as the
                // program makes it, in the booted application: a timer's
                // end after its start, on a metric the program made.
                if let Some(first) = &made_first {
                    operations.push((
                        entry,
                        Drive {
                            what: format!(
                                "argument {} = {v}, {}, {}",
                                i + 1,
                                first.describe(),
                                p.describe()
                            ),
                            set: Some((i, v.clone())),
                            first: Some(first.clone()),
                            prepare: Some(p.clone()),
                            prepare_each: true,
                            boot: application_of(program, apps, &entry.mfa.module).cloned(),
                            ..Drive::default()
                        },
                    ));
                }
                operations.push((
                    entry,
                    Drive {
                        what: format!("argument {} = {v}, {}", i + 1, p.describe()),
                        set: Some((i, v.clone())),
                        prepare: Some(p),
                        prepare_each: true,
                        ..Drive::default()
                    },
                ));
            }
        }
    }
    // The other values the program passes, each after the item's own
    // setter when it has one (an option of the configuration it sets) and
    // as they are.
    // Values for the way to the read come first, whichever argument they
    // are of: the quota of single variants would otherwise go to the
    // first argument's other values and fillers.
    let read_mfa =
        split_mfa(&suspect.read.function).map(|(m, f, a)| (m.to_string(), f.to_string(), a));
    let args = open_args(program, callers, entry, read_mfa.as_ref());
    let mut toward = Vec::new();
    for (i, _, others, n) in &args {
        for v in &others[..*n] {
            toward.push((
                entry,
                Drive {
                    what: format!("argument {} = {v} (its clause leads to the read)", i + 1),
                    set: Some((*i, v.clone())),
                    ..Drive::default()
                },
            ));
        }
    }
    let mut set_first = Vec::new();
    for (i, _, others, n) in args {
        for v in others.into_iter().skip(n) {
            if let Some(init) = initialisers.first() {
                set_first.push((
                    entry,
                    Drive {
                        what: format!("argument {} = {v}, {}", i + 1, init.describe()),
                        set: Some((i, v.clone())),
                        first: Some(init.clone()),
                        no_setup: true,
                        ..Drive::default()
                    },
                ));
            }
            singles.push((
                entry,
                Drive {
                    what: format!("argument {} = {v}", i + 1),
                    set: Some((i, v)),
                    ..Drive::default()
                },
            ));
        }
    }
    toward.append(&mut set_first);
    let mut set_first = toward;
    set_first.append(&mut singles);
    let singles = set_first;
    let singles: Vec<(&Entry, Drive)> = singles.into_iter().take(MAX_SINGLE_VARIANTS).collect();
    let operations: Vec<(&Entry, Drive)> = operations
        .into_iter()
        .filter(|(_, d)| d.prepare.is_some() || !singles.iter().any(|(_, s)| s.set == d.set))
        .take(MAX_OPERATION_VARIANTS)
        .collect();
    drives.extend(singles);
    drives.extend(operations);
    for &other in usable.iter().skip(1).take(MAX_OTHER_ENTRIES) {
        drives.push((
            other,
            Drive {
                what: format!("through {}", other.mfa),
                ..Drive::default()
            },
        ));
    }
    base.variants = drives
        .into_iter()
        .take(MAX_VARIANTS)
        .enumerate()
        .map(|(k, (e, mut drive))| {
            // Rivals race the entry where what it works on exists.
            if e == entry && (drive.prepare.is_some() || drive.first.is_some()) {
                let own = std::mem::take(&mut drive.rivals);
                drive.rivals = own.into_iter().chain(rivals.iter().cloned()).collect();
            }
            for w in &item_writers {
                let same = w.module == e.mfa.module.as_str()
                    && w.function == e.mfa.name.as_str()
                    && w.args.len() == e.mfa.arity as usize;
                if !same && !drive.rivals.contains(w) {
                    drive.rivals.push(w.clone());
                }
            }
            api_harness(
                program,
                callers,
                suspect,
                e,
                processes,
                &drive,
                module(k + 1),
            )
        })
        .collect();
    base.continuing =
        continuing_harness(program, callers, apps, suspect, &usable, processes, &|k| {
            format!("racewit_harness_{index}_c{k}")
        })
        .map(Box::new);
    Ok(base)
}

/// The drives in which a twin of the entry makes what the entry takes (see
/// [`crate::item_writers::takes_args_alike`]): for the first exported
/// function among `writers` of the entry's module and arity that takes its
/// arguments as the entry does, and that the program calls with constants
/// in two different ways, the first of those calls made first, the entry
/// called with the same values, and the second call as the rival (a
/// writer of the item, searched even when equal calls show no race); with
/// the entry's application booted when it has one.
fn twin_drives<'e>(
    program: &Program,
    callers: &Callers,
    writers: &[Entry],
    entry: &'e Entry,
    app: Option<&Application>,
) -> Vec<(&'e Entry, Drive)> {
    let (m, f, a) = (
        entry.mfa.module.as_str(),
        entry.mfa.name.as_str(),
        entry.mfa.arity,
    );
    for w in writers {
        let g = w.mfa.name.as_str();
        if w.mfa.module.as_str() != m
            || w.mfa.arity != a
            || !program.function(m, g, a).is_some_and(|x| x.exported)
            || !crate::item_writers::takes_args_alike(program, m, f, g, a)
        {
            continue;
        }
        let calls = crate::item_writers::constant_calls(program, callers, (m, g, a));
        let (Some(made), Some(other)) = (calls.first(), calls.get(1)) else {
            continue;
        };
        let given = |values: &[String]| Preparer {
            module: m.to_string(),
            function: g.to_string(),
            args: values.iter().cloned().map(PrepArg::Given).collect(),
            why: crate::prepare::Why::Twin,
        };
        let first = given(made);
        let rival = Preparer {
            why: crate::prepare::Why::WritesItem,
            ..given(other)
        };
        return vec![(
            entry,
            Drive {
                what: format!(
                    "{}, raced by {}:{}({})",
                    first.describe(),
                    atom(m),
                    atom(g),
                    other.join(", ")
                ),
                set_all: made.iter().cloned().enumerate().collect(),
                first: Some(first),
                rivals: vec![rival],
                rival_first: true,
                boot: app.cloned(),
                ..Drive::default()
            },
        )];
    }
    Vec::new()
}

/// The harness that drives the race through the program's own callers of
/// the entry that go on after it returns and act on what it made (see
/// [`crate::through_api::continuing_ways`]): each worker calls the
/// exported function above such a caller with values that take the way to
/// it (`folsom_metrics:notify(counter_ets_leak, {inc, 1}, counter)`, whose
/// way creates the counter and then increments it), with the application
/// booted. The first way is the harness; the others are its variants, a
/// trial run picking among them. `None` when the entry has no such caller.
fn continuing_harness(
    program: &Program,
    callers: &Callers,
    apps: &[Application],
    suspect: &Suspect,
    usable: &[&Entry],
    processes: usize,
    module: &dyn Fn(usize) -> String,
) -> Option<Harness> {
    let skip = |m: &crate::callers::Mfa| not_an_api(program, m);
    let mut ways: Vec<(Entry, Drive)> = Vec::new();
    // The static pass's entries first: the exported callers added to the
    // candidates (`new_counter/1` for `add_handler/2`) are other ways in.
    let mut internal: Vec<&MFA> = Vec::new();
    for mfa in suspect
        .entries
        .iter()
        .map(|e| &e.mfa)
        .chain(usable.iter().map(|e| &e.mfa))
    {
        if !internal.contains(&mfa) {
            internal.push(mfa);
        }
    }
    for mfa in internal.into_iter().take(MAX_OTHER_ENTRIES) {
        let key = (mfa.module.to_string(), mfa.name.to_string(), mfa.arity);
        for c in crate::through_api::continuing_ways(program, callers, &key, skip) {
            let (am, af, aa) = &c.way.api;
            let api = MFA {
                module: am.as_str().into(),
                name: af.as_str().into(),
                arity: *aa,
            };
            if ways.iter().any(|(e, _)| e.mfa == api) {
                continue;
            }
            let args = c
                .values
                .iter()
                .map(|v| match v {
                    Some(text) => ArgHint::Terms {
                        values: vec![text.clone()],
                    },
                    None => ArgHint::Unknown,
                })
                .collect();
            let (cm, cf, ca) = &c.caller;
            let drive = Drive {
                boot: application_of(program, apps, am).cloned(),
                continues: format!("{cm}:{cf}/{ca}"),
                ..Drive::default()
            };
            ways.push((Entry { mfa: api, args }, drive));
        }
    }
    let mut built = ways
        .iter()
        .enumerate()
        .map(|(k, (e, d))| api_harness(program, callers, suspect, e, processes, d, module(k)));
    let mut first = built.next()?;
    first.variants = built.collect();
    Some(first)
}

/// The most rivals taken from the program's other read-modify-writes of
/// the suspect's item (see [`item_writer_rivals`]).
const MAX_ITEM_WRITERS: usize = 3;

/// The rivals that make the program's other read-modify-writes of the
/// suspect's item (`writers`, see [`crate::item_writers`]), each called
/// with the values the program passes it: first those whose every argument
/// the program's call sites give as a constant (the calls its users make),
/// then the rest; the entry itself left out (its equal calls are the
/// harness's own workers).
fn item_writer_rivals(
    program: &Program,
    callers: &Callers,
    writers: &[Entry],
    entry: &Entry,
) -> Vec<Preparer> {
    let mut given: Vec<Preparer> = Vec::new();
    let mut open: Vec<Preparer> = Vec::new();
    for w in writers.iter().filter(|w| w.mfa != entry.mfa) {
        if program
            .function(w.mfa.module.as_str(), w.mfa.name.as_str(), w.mfa.arity)
            .is_none()
        {
            continue;
        }
        let p = Preparer {
            module: w.mfa.module.to_string(),
            function: w.mfa.name.to_string(),
            args: vec![PrepArg::Open; w.mfa.arity as usize],
            why: crate::prepare::Why::WritesItem,
        };
        let mfa = w.mfa.to_string();
        let constant = (0..w.mfa.arity as usize)
            .all(|k| value_from_call_sites(program, callers, &mfa, k).is_some());
        if constant {
            given.push(p)
        } else {
            open.push(p)
        }
    }
    given
        .into_iter()
        .chain(open)
        .take(MAX_ITEM_WRITERS)
        .collect()
}

/// The variants that drive an internal entry (exported for the program's
/// own modules) through the exported API the program reaches it from (see
/// [`crate::through_api`]): `gproc:set_value/2` for
/// `gproc_lib:do_set_counter_value/3`, on an item the program's own maker
/// made first with a constant the way to the race accepts (in each
/// worker's own process when the API names its caller's process), with
/// the application booted, and raced by the API module's other functions
/// that may write the suspect's kind of state (given the owner's pid
/// where they name a process). The entries, and a drive for each.
fn api_ways(
    program: &Program,
    callers: &Callers,
    apps: &[Application],
    suspect: &Suspect,
    usable: &[&Entry],
) -> (Vec<Entry>, Vec<Drive>) {
    let mut entries: Vec<Entry> = Vec::new();
    let mut drives: Vec<Drive> = Vec::new();
    let skip = |m: &crate::callers::Mfa| not_an_api(program, m);
    for internal in usable.iter().take(MAX_OTHER_ENTRIES) {
        let key = (
            internal.mfa.module.to_string(),
            internal.mfa.name.to_string(),
            internal.mfa.arity,
        );
        for way in crate::through_api::ways(program, callers, &key, skip) {
            let (am, af, aa) = &way.api;
            let known = |e: &Entry| {
                e.mfa.module.as_str() == am && e.mfa.name.as_str() == af && e.mfa.arity == *aa
            };
            if usable.iter().any(|e| known(e)) || entries.iter().any(known) {
                continue;
            }
            let mfa = MFA {
                module: am.as_str().into(),
                name: af.as_str().into(),
                arity: *aa,
            };
            let own = calls_self(program, &mfa);
            let boot = application_of(program, apps, am).cloned();
            let through = format!(
                "through {mfa}, which the program calls {} from",
                internal.mfa
            );
            let Some(maker) = crate::through_api::makers(program, callers, &way)
                .into_iter()
                .next()
            else {
                entries.push(Entry {
                    mfa,
                    args: vec![ArgHint::Unknown; *aa as usize],
                });
                drives.push(Drive {
                    what: through,
                    boot,
                    ..Drive::default()
                });
                continue;
            };
            let mut args = vec![ArgHint::Unknown; *aa as usize];
            args[maker.at] = ArgHint::Terms {
                values: vec![maker.value.clone()],
            };
            let rivals = api_rivals(program, callers, &way.api, &maker, suspect.category, own);
            let mut what = format!("{through}, {}", maker.preparer.describe());
            if own {
                what.push_str(", in each worker's own process");
            }
            entries.push(Entry { mfa, args });
            drives.push(Drive {
                what,
                prepare: Some(maker.preparer),
                in_worker: own,
                boot,
                rivals,
                ..Drive::default()
            });
        }
    }
    (entries, drives)
}

/// Whether a function the program reaches an internal one from is no API
/// its users call: a test ([`is_test_function`]: `*_test`, a function only
/// under a taken `-ifdef(TEST)`, any function of test code such as a CT
/// suite's case: its caller is a test runner) or a behaviour callback (its
/// caller is the behaviour, in the server's own process).
fn not_an_api(program: &Program, (m, f, a): &crate::callers::Mfa) -> bool {
    is_test_function(program, m, f, *a)
        || is_callback(program, m, f, *a)
        || program.module(m).is_none()
}

/// The rivals of an API a race is driven through (see [`api_ways`]): the
/// other exported functions of its module, not the maker, that may write
/// the suspect's `category` of state, passed the value the maker made at
/// the same position; when the API works on its caller's own item
/// (`own`), only those that name a process, which are given the owner's.
fn api_rivals(
    program: &Program,
    callers: &Callers,
    api: &crate::callers::Mfa,
    maker: &crate::through_api::Maker,
    category: racewit_static::Category,
    own: bool,
) -> Vec<Preparer> {
    let Some(module) = program.module(&api.0) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for func in module.functions.iter().filter(|g| g.exported) {
        let (f, a) = (func.name.as_str(), func.arity);
        if (f, a) == (api.1.as_str(), api.2)
            || (f == maker.preparer.function && a as usize == maker.preparer.args.len())
            || a as usize <= maker.at
            || is_test_name(f)
            || is_callback(program, &api.0, f, a)
            || !crate::prepare::may_write(program, (&api.0, f, a), category)
        {
            continue;
        }
        let mut args = vec![PrepArg::Open; a as usize];
        args[maker.at] = PrepArg::Entry(maker.at);
        let rival = Preparer {
            module: api.0.clone(),
            function: f.to_string(),
            args,
            why: crate::prepare::Why::SameItem,
        };
        if own && pid_params(program, callers, &rival).is_empty() {
            continue;
        }
        out.push(rival);
        if out.len() >= MAX_RIVALS {
            break;
        }
    }
    out
}

/// When every way in is a callback of one server that the program only
/// starts under one constant name, and the path from read to write stays
/// in that process: the server handles one message at a time, so the pair
/// never overlaps with itself there.
fn in_singleton_callbacks(
    program: &Program,
    suspect: &Suspect,
    candidates: &[Entry],
) -> Option<HarnessError> {
    let first = candidates.first()?;
    let module = first.mfa.module.as_str();
    // No hop starts a process or crosses into a server, and none is in a
    // fun: a fun a callback makes may be run anywhere, later.
    let one_process = suspect.path.iter().all(|h| {
        !matches!(
            h.kind,
            racewit_static::HopKind::Spawn | racewit_static::HopKind::Serve
        ) && !h.function.contains("-fun-")
    });
    let all_callbacks = candidates.iter().all(|e| {
        e.mfa.module.as_str() == module
            && is_callback(program, module, e.mfa.name.as_str(), e.mfa.arity)
    });
    if !one_process || !all_callbacks {
        return None;
    }
    let name = crate::servers::singleton_name(program, module)?;
    Some(HarnessError::Serialised {
        mfa: first.mfa.to_string(),
        why: format!(
            "in the server registered as {name} (its callbacks handle one message at a time, \
             and the path from the read to the write stays in that process)"
        ),
    })
}

/// How a harness variant drives its entry, against the first harness.
#[derive(Default)]
struct Drive {
    /// The value for arguments nothing gives a value for (`FILLERS[0]`).
    filler: &'static str,
    /// One argument (from 0) given another value.
    set: Option<(usize, String)>,
    /// Every argument given a value (a call the program makes, whole).
    set_all: Vec<(usize, String)>,
    /// Leave the setup call out.
    no_setup: bool,
    /// Boot this application first.
    boot: Option<Application>,
    /// What the program calls first to make the thing the entry works on,
    /// made before `prepare` (the metric made before its timer is
    /// started), once per distinct set of arguments.
    first: Option<Preparer>,
    /// Make what each worker's call works on first, as the program does.
    prepare: Option<Preparer>,
    /// Make it once for each worker, even where workers pass equal values
    /// (each user of a thing made its own reference to it first).
    prepare_each: bool,
    /// Make it in each worker's own process, just before its call: the
    /// thing belongs to the process that makes it (a counter keyed by
    /// `self()`), so only its maker's calls reach it. A rival is then
    /// given the first worker's pid where it names a process.
    in_worker: bool,
    /// Calls that may race the entry on what it works on, each tried as
    /// the second worker of a harness of its own (see [`Harness::mixed`]).
    rivals: Vec<Preparer>,
    /// Calls that create tables no code of the program creates, made first
    /// (after `mnesia:start()` for mnesia; see
    /// [`crate::table_setup::user_tables`]).
    create: Vec<String>,
    /// Search the entry against its first rival first, as the harness
    /// itself: the rival makes the update the entry's read-modify-write
    /// loses, where equal calls of the entry lose nothing (see
    /// [`twin_drives`]).
    rival_first: bool,
    /// What differs, for the verdict's context.
    what: String,
    /// The program's caller that goes on after the entry returns, through
    /// which the workers reach it (see [`Harness::continuing`]).
    continues: String,
}

const MAX_VARIANTS: usize = 24;

/// The most variants that start a server the entry calls by name.
const MAX_SERVER_STARTS: usize = 2;

/// The most rivals (see [`Harness::mixed`]) tried for one harness.
const MAX_RIVALS: usize = 2;

/// The setup that boots an application: `ensure_all_started`, as a release
/// would; when that fails (a dependency's code is not among the analysed
/// paths, say), the application is loaded and its start callback called as
/// its application master would, so that its supervision tree runs.
fn boot_call(app: &Application) -> String {
    let name = atom(&app.name);
    let (m, args) = app.start.clone().unwrap_or_default();
    format!(
        "case application:ensure_all_started({name}) of \
         {{ok, _}} -> ok; \
         _ -> application:load({name}), catch {}:start(normal, {args}) \
         end",
        atom(&m)
    )
}

/// When the suspect's read or write lies in a module of an application
/// racewit models, that module (the read's first) and its application.
fn modelled_part(
    program: &Program,
    apps: &[Application],
    suspect: &Suspect,
) -> Option<HarnessError> {
    [&suspect.read.module, &suspect.write.module]
        .into_iter()
        .find_map(|m| {
            let app = modelled_module(program, apps, m)?;
            Some(HarnessError::Modelled {
                module: m.to_string(),
                application: app.name.to_string(),
            })
        })
}

/// How many calls up [`callers_outside`] looks through a modelled
/// application's own exported functions.
const MODELLED_CALLER_DEPTH: usize = 4;

/// The exported functions outside any application racewit models that
/// call `entries` (functions of a modelled application), directly or
/// through its other exported functions (a few calls up): the code that
/// is not modelled through which a harness may still drive them.
fn callers_outside<'e>(
    program: &Program,
    callers: &Callers,
    apps: &[Application],
    entries: impl Iterator<Item = &'e Entry>,
) -> Vec<Entry> {
    let mut level: Vec<MFA> = entries.map(|e| e.mfa.clone()).collect();
    let mut seen: Vec<MFA> = level.clone();
    let mut out: Vec<Entry> = Vec::new();
    for _ in 0..MODELLED_CALLER_DEPTH {
        let mut next = Vec::new();
        for mfa in &level {
            for c in caller_entries(program, callers, mfa) {
                if seen.contains(&c.mfa) {
                    continue;
                }
                seen.push(c.mfa.clone());
                if modelled_module(program, apps, &c.mfa.module).is_some() {
                    next.push(c.mfa);
                } else {
                    out.push(c);
                }
            }
        }
        if next.is_empty() {
            break;
        }
        level = next;
    }
    out
}

/// The application racewit models that `module` belongs to, if any: the
/// application whose directory holds its source (the innermost, when
/// applications nest), or whose API module it is (a copy of `mnesia.erl`
/// with no resource file beside it).
fn modelled_module(
    program: &Program,
    apps: &[Application],
    module: &str,
) -> Option<&'static racewit_vm::library::ModelledApplication> {
    use racewit_vm::library::{modelled_api, modelled_application};
    let m = program.module(module)?;
    let file = program.sources.path(m.file);
    let owner = apps
        .iter()
        .filter(|a| file.starts_with(&a.dir))
        .max_by_key(|a| a.dir.components().count());
    match owner {
        Some(app) => modelled_application(&app.name),
        None => modelled_api(module),
    }
}

/// The analysed application, with a start callback, whose directory holds
/// `module`'s source (the innermost, when applications nest).
fn application_of<'a>(
    program: &Program,
    apps: &'a [Application],
    module: &str,
) -> Option<&'a Application> {
    let m = program.module(module)?;
    let file = program.sources.path(m.file);
    apps.iter()
        .filter(|a| a.analysed && a.start.is_some() && file.starts_with(&a.dir))
        .max_by_key(|a| a.dir.components().count())
}
const MAX_SINGLE_VARIANTS: usize = 10;
/// The most variants that call one operation of a function dispatching on
/// operations' names, alone or after another operation of the same function
/// (see [`crate::prepare::other_clauses`]).
const MAX_OPERATION_VARIANTS: usize = 6;
const MAX_OTHER_ENTRIES: usize = 3;

/// A harness whose workers call `entry`, driven as `drive` says.
fn api_harness(
    program: &Program,
    callers: &Callers,
    suspect: &Suspect,
    entry: &Entry,
    processes: usize,
    drive: &Drive,
    module: String,
) -> Harness {
    let resource = resource_values(suspect);
    let produced = produced_args(program, callers, entry);
    let made: Vec<String> = produced
        .iter()
        .map(|(i, call)| format!("Arg{} = {call}", i + 1))
        .collect();
    // A setup call the produced values already make is not made twice.
    let mut setup: Vec<String> = if drive.no_setup {
        Vec::new()
    } else {
        choose_setup(program, suspect, entry)
            .into_iter()
            .filter(|c| {
                let bare = c.strip_prefix("catch ").unwrap_or(c);
                !produced.iter().any(|(_, call)| call == bare)
            })
            .collect()
    };
    if let Some(app) = &drive.boot {
        setup.insert(0, boot_call(app));
    }
    // Code that works on mnesia tables runs on a node where mnesia runs (a
    // release starts it, or the user does): its own setup then makes its
    // tables, as it does there.
    if suspect.category == racewit_static::Category::Mnesia {
        setup.insert(0, "mnesia:start()".to_string());
        for (k, call) in drive.create.iter().enumerate() {
            setup.insert(k + 1, call.clone());
        }
    } else {
        for (k, call) in drive.create.iter().enumerate() {
            setup.insert(k, call.clone());
        }
    }
    setup.extend(made.iter().cloned());
    // Arguments the entry uses as a named table get a name, and the table
    // is made first by the module's own maker (`init(Name)`).
    let mut set: Vec<(usize, String)> = drive.set.iter().chain(&drive.set_all).cloned().collect();
    for (i, name, maker) in named_tables(program, callers, entry, &produced) {
        if !set.iter().any(|(s, _)| *s == i) {
            set.push((i, name));
        }
        if !setup.contains(&maker) {
            setup.push(maker);
        }
    }
    let filler = if drive.filler.is_empty() {
        FILLERS[0]
    } else {
        drive.filler
    };
    // A produced value is passed as the variable it was bound to.
    let given: Vec<(usize, String)> = produced
        .iter()
        .map(|(i, _)| (*i, format!("Arg{}", i + 1)))
        .chain(
            set.iter()
                .filter(|(i, _)| !produced.iter().any(|(p, _)| p == i))
                .cloned(),
        )
        .collect();
    let invented: Vec<u32> = invented_args(program, callers, entry)
        .into_iter()
        .filter(|i| !produced.iter().any(|(p, _)| *p as u32 + 1 == *i))
        .filter(|i| !set.iter().any(|(s, _)| *s as u32 + 1 == *i))
        .collect();
    let needs = arg_needs(program, callers, entry);
    let shaped: Vec<ShapedArg> = invented
        .iter()
        .filter_map(|&i| {
            let need = needs.get(i as usize - 1)?.as_ref()?;
            Some(ShapedArg {
                position: i,
                kind: need.shape.kind().to_string(),
                value: need.shape.text(None),
                why: need.describe(),
            })
        })
        .collect();
    let args: Vec<Vec<String>> = (0..processes)
        .map(|worker| {
            worker_args(
                program, callers, entry, &needs, &resource, &given, filler, worker,
            )
        })
        .collect();
    let finish =
        |module: String, args: &[Vec<String>], own_values: bool, rival: Option<&Preparer>| {
            let mut setup = setup.clone();
            if let Some(p) = &drive.first {
                for a in args {
                    let call = prepare_call(program, callers, p, a, filler);
                    if !setup.contains(&call) {
                        setup.push(call);
                    }
                }
            }
            // What each worker's call works on is made first, once per distinct
            // set of arguments (in the worker itself, below, when it is the
            // worker's own).
            if let Some(p) = drive.prepare.as_ref().filter(|_| !drive.in_worker) {
                for a in args {
                    let call = prepare_call(program, callers, p, a, filler);
                    if drive.prepare_each || !setup.contains(&call) {
                        setup.push(call);
                    }
                }
            }
            // With a rival, every worker after the first makes the rival's call
            // instead, without `catch`: its crash is the program's.
            let workers: Vec<String> = args
                .iter()
                .enumerate()
                .map(|(k, a)| match rival {
                    Some(r) if k > 0 => {
                        // Its own value where nothing gives one: a tag of its
                        // own against the entry's untag; the first worker's
                        // pid where the rival names the process whose own
                        // item it writes.
                        let mut r = r.clone();
                        if drive.in_worker {
                            for i in pid_params(program, callers, &r) {
                                r.args[i] = PrepArg::Given(OWNER_VAR.to_string());
                            }
                        }
                        let call =
                            prepare_call(program, callers, &r, a, &distinct_filler(filler, k));
                        call.strip_prefix("catch ").unwrap_or(&call).to_string()
                    }
                    _ => match drive.prepare.as_ref().filter(|_| drive.in_worker) {
                        Some(p) => format!(
                            "begin {}, {} end",
                            prepare_call(program, callers, p, a, filler),
                            call_text(entry, a)
                        ),
                        None => call_text(entry, a),
                    },
                })
                .collect();
            let source = render(&module, suspect, &setup, &workers);
            Harness {
                module,
                function: "run".into(),
                setup,
                context: Context::Api {
                    calls: workers.clone(),
                    invented: invented.clone(),
                    shaped: shaped.clone(),
                    made: made.clone(),
                    variant: drive.what.clone(),
                    application: drive.boot.as_ref().map(|a| a.name.clone()),
                    own_values,
                    rival: rival.map(|r| r.mfa()).unwrap_or_default(),
                    continues: drive.continues.clone(),
                },
                workers,
                source,
                amplification: None,
                variants: Vec::new(),
                distinct: None,
                mixed: Vec::new(),
                calls: (0..args.len())
                    .map(|k| {
                        (rival.is_none() || k == 0).then(|| {
                            (
                                entry.mfa.module.to_string(),
                                entry.mfa.name.to_string(),
                                entry.mfa.arity,
                            )
                        })
                    })
                    .collect(),
                own_items: drive.in_worker && drive.prepare.is_some(),
                rival_writes_item: rival.is_some_and(|r| r.why == crate::prepare::Why::WritesItem),
                continuing: None,
            }
        };
    let mut harness = finish(module.clone(), &args, false, None);
    let distinct: Vec<Vec<String>> = args
        .iter()
        .enumerate()
        .map(|(worker, a)| {
            let mut a = a.clone();
            for &i in &invented {
                let k = i as usize - 1;
                a[k] = match &needs[k] {
                    Some(need) => need.shape.text(Some(worker)),
                    None => distinct_filler(filler, worker),
                };
            }
            a
        })
        .collect();
    if processes > 1 && !invented.is_empty() {
        harness.distinct = Some(Box::new(finish(
            format!("{module}_d"),
            &distinct,
            true,
            None,
        )));
    }
    // Nothing made up, but the program passes other values where the
    // workers pass one: each worker after the first passes another of
    // them (two options set at once, not the same one twice), of the same
    // kind as the first where there is one.
    let distinct = if processes > 1 && invented.is_empty() {
        let mut distinct = distinct;
        if let Some((i, others)) = call_site_alternatives(program, callers, entry, &given, &args) {
            for (worker, a) in distinct.iter_mut().enumerate().skip(1) {
                a[i] = others[(worker - 1) % others.len()].clone();
            }
            harness.distinct = Some(Box::new(finish(
                format!("{module}_d"),
                &distinct,
                true,
                None,
            )));
        }
        distinct
    } else {
        distinct
    };
    if processes > 1 {
        // Two workers: the entry and its rival.
        harness.mixed = drive
            .rivals
            .iter()
            .enumerate()
            .map(|(k, r)| {
                finish(
                    format!("{module}_r{k}"),
                    &distinct[..2],
                    !invented.is_empty(),
                    Some(r),
                )
            })
            .collect();
    }
    // Workers that each make their own item never share it: only a rival
    // can write the owner's item between its read and its write. The owner
    // and its first rival are the harness searched (and tried) first, so
    // that two owners' writes of one table, which an event may name as the
    // whole table (an insert of several objects), are never taken for a
    // race on the item. A twin's rival is searched first too: equal calls
    // of the entry lose nothing, and searching them for harm first may
    // spend the time the rival needs.
    if (drive.rival_first || drive.in_worker && drive.prepare.is_some())
        && !harness.mixed.is_empty()
    {
        let mut rest = std::mem::take(&mut harness.mixed);
        let mut first = rest.remove(0);
        first.mixed = rest;
        harness = first;
    }
    harness
}

/// The first argument (from 0) of `entry` that the workers pass from the
/// program's call sites (nothing fixed it) where the program also passes
/// other constants, with those others: of the same kind as the workers'
/// value (an atom for an atom, a list for a list) first, then the rest.
fn call_site_alternatives(
    program: &Program,
    callers: &Callers,
    entry: &Entry,
    given: &[(usize, String)],
    args: &[Vec<String>],
) -> Option<(usize, Vec<String>)> {
    let first = args.first()?;
    let kind = |v: &str| {
        v.chars()
            .next()
            .map(|c| if c.is_ascii_lowercase() { 'a' } else { c })
    };
    (0..entry.args.len())
        .filter(|i| !given.iter().any(|(g, _)| g == i))
        .find_map(|i| {
            let current = first.get(i)?;
            let (same, rest): (Vec<String>, Vec<String>) =
                values_from_call_sites(program, callers, &entry.mfa.to_string(), i)
                    .into_iter()
                    .filter(|v| v != current)
                    .partition(|v| kind(v) == kind(current));
            let others: Vec<String> = same.into_iter().chain(rest).collect();
            (!others.is_empty()).then_some((i, others))
        })
}

/// Worker number `worker`'s own value of a made-up argument's shape
/// (`1`, `2`, ...; `racewit1`, `racewit2`, ...).
fn distinct_filler(filler: &str, worker: usize) -> String {
    let n = worker + 1;
    match filler {
        "1" => n.to_string(),
        "[]" => format!("[{n}]"),
        "#{}" => format!("#{{racewit => {n}}}"),
        f if f.contains("racewit") => f.replacen("racewit", &format!("racewit{n}"), 1),
        f => f.to_string(),
    }
}

/// The arguments (from 0) of `entry` that it uses as the name of a table
/// which the entry's module makes itself, with the name the harness gives
/// (the atom the program passes there, else `racewit_table`) and the call
/// that makes it (`catch stats:init(racewit_table)`).
fn named_tables(
    program: &Program,
    callers: &Callers,
    entry: &Entry,
    produced: &[(usize, String)],
) -> Vec<(usize, String, String)> {
    let m = entry.mfa.module.as_str();
    let Some((maker, at)) = crate::table_setup::named_maker(program, m) else {
        return Vec::new();
    };
    let values = arg_values(program, callers, entry);
    (0..entry.args.len())
        .filter(|i| !produced.iter().any(|(p, _)| p == i))
        .filter(|&i| {
            crate::table_setup::used_as_table(
                program,
                m,
                entry.mfa.name.as_str(),
                entry.mfa.arity,
                i,
            )
        })
        .map(|i| {
            let known = values[i]
                .clone()
                .filter(|v| v.chars().next().is_some_and(|c| c.is_ascii_lowercase()))
                .filter(|v| v.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'));
            let name = known.unwrap_or_else(|| "racewit_table".to_string());
            let maker_mfa = format!("{m}:{}/{}", maker.name, maker.arity);
            let args: Vec<String> = (0..maker.arity as usize)
                .map(|k| {
                    if k == at {
                        name.clone()
                    } else {
                        value_from_call_sites(program, callers, &maker_mfa, k)
                            .or_else(|| value_from_clauses(program, &maker_mfa, k, 2))
                            .or_else(|| shaped_value(program, &maker_mfa, k))
                            .unwrap_or_else(|| FILLERS[0].to_string())
                    }
                })
                .collect();
            let call = format!(
                "catch {}:{}({})",
                atom(m),
                atom(maker.name.as_str()),
                args.join(", ")
            );
            (i, name, call)
        })
        .collect()
}

/// The arguments (from 0) of `entry` whose value the harness picks itself
/// (not one the static pass knows or a producer makes), with the value it
/// passes and the others worth a trial: the constants the program passes
/// there, the shapes the function's clauses accept, then the fillers.
///
/// Values the clauses leading to the read accept (see [`crate::toward`])
/// come first among the others, and the last element of each triple's
/// tuple says how many of them there are.
fn open_args(
    program: &Program,
    callers: &Callers,
    entry: &Entry,
    read: Option<&crate::callers::Mfa>,
) -> Vec<(usize, String, Vec<String>, usize)> {
    let produced = produced_args(program, callers, entry);
    let mfa = entry.mfa.to_string();
    let values = arg_values(program, callers, entry);
    let needs = arg_needs(program, callers, entry);
    let entry_mfa = (
        entry.mfa.module.to_string(),
        entry.mfa.name.to_string(),
        entry.mfa.arity,
    );
    let leads = read.and_then(|r| crate::toward::clauses_toward(program, callers, &entry_mfa, r));
    entry
        .args
        .iter()
        .enumerate()
        .filter(|(i, hint)| !has_value(hint) && !produced.iter().any(|(p, _)| p == i))
        .map(|(i, _)| {
            let current = values[i]
                .clone()
                .or_else(|| needs[i].as_ref().map(|n| n.shape.text(None)))
                .unwrap_or_else(|| FILLERS[0].to_string());
            let mut others: Vec<String> = Vec::new();
            if let Some(leads) = &leads {
                for v in values_from_clauses_where(program, &mfa, i, 2, &|k| leads[k]) {
                    if v != current && !others.contains(&v) {
                        others.push(v);
                    }
                }
            }
            let toward = others.len();
            let candidates = values_from_call_sites(program, callers, &mfa, i)
                .into_iter()
                .chain(values_from_clauses(program, &mfa, i, 2))
                .chain(FILLERS.iter().map(|f| f.to_string()));
            for v in candidates {
                if v != current && !others.contains(&v) {
                    others.push(v);
                }
            }
            (i, current, others, toward)
        })
        .collect()
}

/// The values a harness passes for an argument nothing in the program gives
/// a value for, the first by default: one of each common shape, so that a
/// trial run can find one the code accepts (a list where it takes a list).
const FILLERS: &[&str] = &[
    "1",
    "racewit",
    "<<\"racewit\">>",
    "[racewit]",
    "[]",
    "{racewit, 1}",
    "#{}",
    "\"racewit\"",
];

/// The context a suspect was driven in: what ran to reach its verdict.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Context {
    /// A generated harness calling the program's API from worker processes.
    Api {
        calls: Vec<String>,
        /// Arguments (positions from 1) nothing in the program gave a value
        /// for: the harness made them up.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        invented: Vec<u32>,
        /// The made-up arguments given a value of the kind the code needs
        /// (a list where it reads a proplist), and why.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        shaped: Vec<ShapedArg>,
        /// Values made once, before the calls, the way the program makes
        /// them (`Arg1 = m:new()`), which every call then shares.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        made: Vec<String>,
        /// How this harness differs from the first one built (other
        /// made-up values, no setup call), when a trial run picked it.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        variant: String,
        /// The application booted before the calls, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        application: Option<String>,
        /// Each worker passed its own made-up values (`1`, `2`), so that a
        /// lost update shows.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        own_values: bool,
        /// The rival (`m:f/a`) every worker after the first called instead
        /// of the entry (see [`Harness::mixed`]).
        #[serde(default, skip_serializing_if = "String::is_empty")]
        rival: String,
        /// The program's caller (`m:f/a`) through which the workers reached
        /// the entry, one that goes on after the entry returns and acts on
        /// what it made (see [`Harness::continuing`]).
        #[serde(default, skip_serializing_if = "String::is_empty")]
        continues: String,
    },
    /// A function the user named (`--entry`), run as it is.
    Entry { mfa: String },
    /// One of the project's tests, run as it is or amplified.
    Test {
        mfa: String,
        /// Processes each amplified call was made from (none: as it is).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        copies: Option<usize>,
        /// The calls amplified (`m:f/a`).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        targets: Vec<String>,
    },
    /// Nothing ran (no harness could be built).
    #[default]
    None,
}

/// A made-up argument given a value of the kind the code needs.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ShapedArg {
    /// The argument's position, from 1.
    pub position: u32,
    /// The kind (`list`, `map`, `record`, `fun`, `pattern`, ...).
    pub kind: String,
    /// The value passed (the first worker's).
    pub value: String,
    /// The kind in words and the use that needs it (`a list:
    /// proplists:get_value/3 at x.erl:12 needs one`).
    pub why: String,
}

impl Context {
    /// `api`, `application`, `continuing_caller`, `entry`, `test`,
    /// `amplified_test` or `none`.
    pub fn kind(&self) -> &'static str {
        match self {
            Context::Api { continues, .. } if !continues.is_empty() => "continuing_caller",
            Context::Api {
                application: Some(_),
                ..
            } => "application",
            Context::Api { .. } => "api",
            Context::Entry { .. } => "entry",
            Context::Test { copies: None, .. } => "test",
            Context::Test {
                copies: Some(_), ..
            } => "amplified_test",
            Context::None => "none",
        }
    }

    /// How realistic the context is, for triage: lower is closer to how the
    /// program really runs.
    pub fn rank(&self) -> u8 {
        match self {
            Context::Entry { .. } | Context::Test { copies: None, .. } => 0,
            Context::Test { .. } => 1,
            Context::Api {
                application: Some(_),
                ..
            } => 2,
            Context::Api { .. } => 3,
            Context::None => 4,
        }
    }
}

impl std::fmt::Display for Context {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Context::Api {
                calls,
                invented,
                shaped,
                made,
                variant,
                application,
                own_values,
                rival,
                continues,
            } => {
                if let Some(app) = application {
                    write!(f, "application {app} booted; ")?;
                }
                match calls.as_slice() {
                    [] => write!(f, "API")?,
                    [first, rest @ ..] if rest.iter().all(|w| w == first) => {
                        write!(f, "API: {} concurrent calls of {first}", calls.len())?
                    }
                    _ => write!(f, "API: concurrent calls of {}", calls.join(", "))?,
                }
                if !made.is_empty() {
                    write!(
                        f,
                        " (after {}, made once as the program makes it)",
                        made.join(", ")
                    )?;
                }
                let blind: Vec<String> = invented
                    .iter()
                    .filter(|i| !shaped.iter().any(|s| s.position == **i))
                    .map(|i| i.to_string())
                    .collect();
                if !blind.is_empty() {
                    write!(
                        f,
                        " (argument{} {} made up: no call site or clause gives a value)",
                        if blind.len() == 1 { "" } else { "s" },
                        blind.join(", ")
                    )?;
                }
                for s in shaped {
                    write!(f, " (argument {} made up as {})", s.position, s.why)?;
                }
                if !variant.is_empty() {
                    write!(
                        f,
                        " ({variant}: the harness variant whose trial run went furthest towards the race)"
                    )?;
                }
                if !rival.is_empty() {
                    write!(
                        f,
                        " (the second worker called {rival}, which the program also calls on \
                         what the entry works on)"
                    )?;
                    if calls.iter().any(|c| c.contains(OWNER_VAR)) {
                        write!(f, " ({OWNER_VAR} is the first worker's pid)")?;
                    }
                }
                if *own_values {
                    write!(
                        f,
                        " (each worker passed its own made-up values, so that a lost update shows)"
                    )?;
                }
                if !continues.is_empty() {
                    write!(
                        f,
                        " (through {continues}, the program's caller that goes on after the \
                         racing call returns and acts on what it made)"
                    )?;
                }
                Ok(())
            }
            Context::Entry { mfa } => write!(f, "entry {mfa} as it is"),
            Context::Test {
                mfa, copies: None, ..
            } => write!(f, "test {mfa} as it is"),
            Context::Test {
                mfa,
                copies: Some(n),
                targets,
            } => write!(
                f,
                "test {mfa} amplified x{n} (calls of {})",
                targets.join(", ")
            ),
            Context::None => write!(f, "nothing ran"),
        }
    }
}

impl Harness {
    /// What the harness runs, for reports.
    pub fn describe(&self) -> String {
        self.context.to_string()
    }
}

/// A harness for an entry the user named (`mod:fun/0`): the root process
/// just calls it, so `P1` is the entry's own process.
pub fn for_entry(module: &str, function: &str) -> Harness {
    Harness {
        module: module.to_string(),
        function: function.to_string(),
        setup: Vec::new(),
        workers: Vec::new(),
        source: String::new(),
        context: Context::Entry {
            mfa: format!("{module}:{function}/0"),
        },
        amplification: None,
        variants: Vec::new(),
        distinct: None,
        mixed: Vec::new(),
        calls: Vec::new(),
        own_items: false,
        rival_writes_item: false,
        continuing: None,
    }
}

/// A harness running one of the project's tests: a `*_test/0` function
/// directly, a generator `*_test_/0` through `racewit_eunit`; as it is, or
/// amplified (`amplification`, whose modules must be in the program).
pub fn for_test(
    test: &crate::amplify::TestFn,
    amplification: Option<&crate::amplify::Amplification>,
    name: &str,
) -> Harness {
    let module = amplification.map_or(test.module.as_str(), |a| a.copy_module.as_str());
    let context = Context::Test {
        mfa: test.mfa(),
        copies: amplification.map(|a| a.copies),
        targets: amplification.map(|a| a.targets.clone()).unwrap_or_default(),
    };
    let workers = amplification
        .map(|a| vec![a.targets.join(", "); a.copies])
        .unwrap_or_default();
    if test.generator {
        let name = name.to_string();
        let source = format!(
            "-module({name}).\n-export([run/0]).\n\n\
             %% {}\nrun() ->\n    racewit_eunit:run({}, {}).\n",
            comment_text(&context.to_string()),
            atom(module),
            atom(&test.function)
        );
        Harness {
            module: name,
            function: "run".into(),
            setup: Vec::new(),
            workers,
            source,
            context,
            amplification: amplification.cloned(),
            variants: Vec::new(),
            distinct: None,
            mixed: Vec::new(),
            calls: Vec::new(),
            own_items: false,
            rival_writes_item: false,
            continuing: None,
        }
    } else {
        Harness {
            module: module.to_string(),
            function: test.function.clone(),
            setup: Vec::new(),
            workers,
            source: String::new(),
            context,
            amplification: amplification.cloned(),
            variants: Vec::new(),
            distinct: None,
            mixed: Vec::new(),
            calls: Vec::new(),
            own_items: false,
            rival_writes_item: false,
            continuing: None,
        }
    }
}

/// Names an Erlang developer gives the function that creates a module's
/// tables or starts its server, in the order they are tried.
const SETUP_NAMES: &[&str] = &[
    "setup",
    "init",
    "start",
    "start_link",
    "create_tables",
    "create_table",
    "create",
    "install",
    "new",
];

/// What the root process calls first: the entry module's own exported
/// `setup/0`-like function (what its author would call before using it),
/// else the arity-0 functions the static pass found creating the tables,
/// else a `setup/0`-like function of the read's or the write's module. A
/// conventional function is called with `catch`, so an already-started
/// service does no harm.
fn choose_setup(program: &Program, suspect: &Suspect, entry: &Entry) -> Vec<String> {
    let conventional = |m: &str| -> Option<String> {
        SETUP_NAMES.iter().find_map(|name| {
            let is_entry = entry.mfa.module == m && entry.mfa.name == *name && entry.mfa.arity == 0;
            (!is_entry && program.function(m, name, 0).is_some_and(|f| f.exported))
                .then(|| format!("catch {}:{}()", atom(m), atom(name)))
        })
    };
    let entry_module = entry.mfa.module.to_string();
    if let Some(call) = conventional(&entry_module) {
        return vec![call];
    }
    let found: Vec<String> = suspect
        .setup
        .iter()
        .filter(|mfa| **mfa != entry.mfa.to_string())
        .filter_map(|mfa| {
            let (m, f, a) = split_mfa(mfa)?;
            (a == 0 && program.function(m, f, 0).is_some_and(|func| func.exported))
                .then(|| format!("{}:{}()", atom(m), atom(f)))
        })
        .collect();
    if !found.is_empty() {
        return found;
    }
    [
        suspect.read.module.to_string(),
        suspect.write.module.to_string(),
    ]
    .iter()
    .find_map(|m| conventional(m))
    .into_iter()
    .collect()
}

/// The entries a harness can call (exported, not behaviour callbacks), the
/// one whose arguments it can best supply first: fewest arguments left to
/// the blind default, then the first in order.
fn usable_entries<'a>(
    program: &Program,
    callers: &Callers,
    entries: &'a [Entry],
) -> Vec<&'a Entry> {
    let mut usable: Vec<(usize, &Entry)> = entries
        .iter()
        .filter(|e| {
            let (m, f, a) = (&e.mfa.module, &e.mfa.name, e.mfa.arity);
            program.function(m, f, a).is_some_and(|func| func.exported)
                && !is_callback(program, m, f, a)
        })
        .map(|e| {
            let unknown = arg_values(program, callers, e)
                .iter()
                .filter(|v| v.is_none())
                .count();
            (unknown, e)
        })
        .collect();
    usable.sort_by_key(|(unknown, _)| *unknown);
    usable.into_iter().map(|(_, e)| e).collect()
}

/// Callbacks of OTP behaviours: the behaviour calls them from its own
/// process, one request at a time; calling one from several processes would
/// invent races the code cannot have.
fn is_callback(program: &Program, module: &str, name: &str, arity: u32) -> bool {
    program
        .module(module)
        .is_some_and(|m| !m.behaviours.is_empty())
        && CALLBACKS.iter().any(|&(n, a)| n == name && a == arity)
}

/// A value for each argument of an entry, where one can be found: the static
/// pass's hint, else a constant the code passes there, else what the
/// function's clauses accept.
fn arg_values(program: &Program, callers: &Callers, entry: &Entry) -> Vec<Option<String>> {
    entry
        .args
        .iter()
        .enumerate()
        .map(|(i, hint)| {
            if usable(hint) && !matches!(hint, ArgHint::Unknown) {
                Some(arg_text(hint))
            } else {
                value_from_call_sites(program, callers, &entry.mfa.to_string(), i)
                    .or_else(|| value_from_clauses(program, &entry.mfa.to_string(), i, 2))
            }
        })
        .collect()
}

/// The arguments of `e` when it is a call of `m:f/a` with a statically known
/// target (a local call counts inside module `m`, seen from module `here`).
fn call_args<'b>(
    body: &'b racewit_syntax::ir::Body,
    e: &'b racewit_syntax::ir::Expr,
    here: &str,
    (m, f, a): (&str, &str, u32),
) -> Option<&'b [racewit_syntax::ir::ExprId]> {
    use racewit_syntax::ir::{CallTarget, Expr, Literal};
    let Expr::Call { target, args, .. } = e else {
        return None;
    };
    let atom_is =
        |id, want: &str| matches!(body.expr(id), Expr::Lit(Literal::Atom(x)) if x == want);
    let hit = args.len() == a as usize
        && match &**target {
            CallTarget::Local { name, arity } => here == m && name == f && *arity == a,
            CallTarget::Remote { module, function } => atom_is(*module, m) && atom_is(*function, f),
            CallTarget::Apply { .. } => false,
        };
    hit.then_some(&args[..])
}

/// Whether a function's name makes it a test the program's tests run
/// (`test/0` as the corpus writes them, EUnit's `*_test`), not code the
/// program runs: never a caller to drive the program through.
fn is_test_name(name: &str) -> bool {
    name == "test" || name.ends_with("_test")
}

/// Whether `module:name/arity` is test code: a function named as a test
/// (`test`, `*_test`, eunit's `*_test_`), one the preprocessor read only
/// under a taken `-ifdef(TEST)`/`-ifdef(EUNIT)` with no other branch
/// ([`racewit_syntax::ir::Function::test_only`]: the module's own tests and
/// their helpers, which a build without the macro leaves out), or any
/// function of a test module ([`racewit_static::units::is_test_code`]:
/// test/ and example folders, `*_SUITE`, `*_tests`).
pub(crate) fn is_test_function(program: &Program, module: &str, name: &str, arity: u32) -> bool {
    is_test_name(name)
        || name.ends_with("_test_")
        || program.module(module).is_some_and(|m| {
            racewit_static::units::is_test_code(program.sources.path(m.file), module)
                || m.function(name, arity).is_some_and(|f| f.test_only)
        })
}

/// Exported functions (not tests, [`is_test_function`]) that call `mfa`, as
/// entries with no hints.
fn caller_entries(program: &Program, callers: &Callers, mfa: &MFA) -> Vec<Entry> {
    let (m, f, a) = (mfa.module.as_str(), mfa.name.as_str(), mfa.arity);
    let mut out: Vec<Entry> = Vec::new();
    for ((cm, cf, ca), _) in callers.sites(m, f, a) {
        if is_test_function(program, cm, cf, *ca) || (cm == m && cf == f) {
            continue;
        }
        if !program
            .function(cm, cf, *ca)
            .is_some_and(|func| func.exported)
        {
            continue;
        }
        let caller = MFA {
            module: cm.as_str().into(),
            name: cf.as_str().into(),
            arity: *ca,
        };
        if !out.iter().any(|e| e.mfa == caller) {
            out.push(Entry {
                mfa: caller,
                args: vec![ArgHint::Unknown; *ca as usize],
            });
        }
    }
    out
}

/// Whether `m:f/a` has a name an author gives the function that starts a
/// module's server or creates its tables ([`SETUP_NAMES`]).
fn is_setup_like(mfa: &MFA) -> bool {
    SETUP_NAMES.contains(&mfa.name.as_str())
}

/// When the suspect's read sits right inside a clause of a `receive` whose
/// pattern is a message tagged with an atom (`{start_child, From, ...}`):
/// the exported functions (not tests) that send a message with that tag.
fn loop_clients(program: &Program, suspect: &Suspect) -> Vec<Entry> {
    use racewit_syntax::ir::{Expr, Literal, Pat};
    let Some(module) = program.module(&suspect.read.module) else {
        return Vec::new();
    };
    let Some(site) = module.call_sites.get(suspect.read.site.index()) else {
        return Vec::new();
    };
    let Some(func) = module
        .function_index
        .get(&site.function)
        .and_then(|&i| module.functions.get(i))
    else {
        return Vec::new();
    };
    let body = &func.body;
    let read = site.span;
    // The innermost receive clause holding the read.
    let mut best: Option<(u32, String)> = None;
    for e in &body.exprs {
        let Expr::Receive { clauses, .. } = e else {
            continue;
        };
        for &c in clauses {
            let span = func.source_map.clause(c);
            let holds = span.file == read.file && span.start <= read.start && read.end <= span.end;
            let size = span.end - span.start;
            if !holds || best.as_ref().is_some_and(|(s, _)| *s <= size) {
                continue;
            }
            // The clause's message tag: an atom, or a tuple's first atom.
            let atom = |p| match body.pat(p) {
                Pat::Lit(Literal::Atom(a)) => Some(a.to_string()),
                _ => None,
            };
            let tag = body
                .clause(c)
                .pats
                .first()
                .and_then(|&p| match body.pat(p) {
                    Pat::Tuple(items) => atom(*items.first()?),
                    _ => atom(p),
                });
            if let Some(tag) = tag {
                best = Some((size, tag));
            }
        }
    }
    let Some((_, tag)) = best else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (mname, m) in &program.modules {
        for f in m.functions.iter().filter(|f| f.exported) {
            if is_test_name(&f.name) {
                continue;
            }
            let sends = f.body.exprs.iter().any(|e| {
                let Expr::Send { msg, .. } = e else {
                    return false;
                };
                message_tag(&f.body, *msg).is_some_and(|a| a.as_str() == tag)
            });
            if sends {
                out.push(Entry {
                    mfa: MFA {
                        module: mname.clone(),
                        name: f.name.clone(),
                        arity: f.arity,
                    },
                    args: vec![ArgHint::Unknown; f.arity as usize],
                });
            }
        }
    }
    out
}

/// For an entry that is a gen_server callback (`handle_call/3`,
/// `handle_cast/2`, `handle_info/2`): the exported functions of its module
/// that make the requests it handles (`gen_server:call/2,3`,
/// `gen_server:cast/2`, `!`), keeping to the request tags the static pass
/// saw reach the read when it knows them (`{checkout, _}`).
fn client_entries(program: &Program, callback: &Entry) -> Vec<Entry> {
    use racewit_syntax::ir::Expr;
    let (m, f, a) = (
        callback.mfa.module.as_str(),
        callback.mfa.name.as_str(),
        callback.mfa.arity,
    );
    let requests: &[(&str, &str, u32)] = match (f, a) {
        ("handle_call", 3) => &[("gen_server", "call", 2), ("gen_server", "call", 3)],
        ("handle_cast", 2) => &[("gen_server", "cast", 2)],
        ("handle_info", 2) => &[("erlang", "send", 2)],
        _ => return Vec::new(),
    };
    let Some(module) = program.module(m) else {
        return Vec::new();
    };
    let tags = request_tags(callback.args.first());
    let tag_ok = |body: &racewit_syntax::ir::Body, msg: racewit_syntax::ir::ExprId| {
        let Some(tags) = &tags else { return true };
        message_tag(body, msg).is_none_or(|t| tags.iter().any(|want| want == t.as_str()))
    };
    // The request calls themselves, each with where its message is, then
    // the module's own functions that pass an argument on as the message
    // (`call(Request) -> gen_server:call(?SERVER, Request, T)`).
    let mut senders: Vec<(String, String, u32, usize)> = requests
        .iter()
        .map(|&(rm, rf, ra)| (rm.to_string(), rf.to_string(), ra, 1))
        .collect();
    if f != "handle_info" {
        senders.extend(request_wrappers(module, m, &senders));
    }
    let mut out = Vec::new();
    for func in module.functions.iter().filter(|func| func.exported) {
        if is_test_name(&func.name) || is_callback(program, m, &func.name, func.arity) {
            continue;
        }
        let body = &func.body;
        let sends = body.exprs.iter().any(|e| {
            let message = match e {
                Expr::Send { msg, .. } if f == "handle_info" => Some(*msg),
                _ => senders.iter().find_map(|(sm, sf, sa, at)| {
                    call_args(body, e, m, (sm, sf, *sa)).and_then(|args| args.get(*at).copied())
                }),
            };
            message.is_some_and(|msg| tag_ok(body, msg))
        });
        if sends {
            out.push(Entry {
                mfa: MFA {
                    module: m.into(),
                    name: func.name.clone(),
                    arity: func.arity,
                },
                args: vec![ArgHint::Unknown; func.arity as usize],
            });
        }
    }
    out
}

/// The functions of `module` (named `m`) that pass one of their arguments
/// on, unchanged, as the message of one of `senders` (a request call, with
/// the argument position of its message): `call(Request) ->
/// gen_server:call(?SERVER, Request, Timeout)`. A call of such a wrapper
/// makes the request its argument is; wrappers of wrappers count too, a
/// few levels deep. Each comes with the position of the argument it passes
/// on.
fn request_wrappers(
    module: &racewit_syntax::ir::Module,
    m: &str,
    senders: &[(String, String, u32, usize)],
) -> Vec<(String, String, u32, usize)> {
    use racewit_syntax::ir::{Expr, Pat};
    let mut found: Vec<(String, String, u32, usize)> = Vec::new();
    for _ in 0..MAX_WRAPPER_DEPTH {
        let known: Vec<(String, String, u32, usize)> =
            senders.iter().chain(&found).cloned().collect();
        let mut more = Vec::new();
        for func in &module.functions {
            let body = &func.body;
            // The argument positions whose variable this body passes on as
            // a message.
            for e in &body.exprs {
                let passed = known.iter().find_map(|(sm, sf, sa, at)| {
                    let args = call_args(body, e, m, (sm, sf, *sa))?;
                    match body.expr(*args.get(*at)?) {
                        Expr::Var(v) => Some(*v),
                        _ => None,
                    }
                });
                let Some(var) = passed else { continue };
                // The position of a clause's parameter that binds it.
                let position = func.clauses.iter().find_map(|&c| {
                    body.clause(c).pats.iter().position(|&p| match body.pat(p) {
                        Pat::Var(v) => *v == var,
                        Pat::Alias(a, b) => [a, b]
                            .iter()
                            .any(|&&q| matches!(body.pat(q), Pat::Var(v) if *v == var)),
                        _ => false,
                    })
                });
                if let Some(k) = position {
                    let w = (m.to_string(), func.name.to_string(), func.arity, k);
                    if !known.contains(&w) && !more.contains(&w) {
                        more.push(w);
                    }
                }
            }
        }
        if more.is_empty() {
            break;
        }
        found.extend(more);
    }
    found
}

/// How many levels of wrappers [`request_wrappers`] follows.
const MAX_WRAPPER_DEPTH: usize = 3;

/// The atom a message expression is tagged with: the atom itself, or the
/// first element of a tuple (`{checkout, W}` gives `checkout`).
fn message_tag(
    body: &racewit_syntax::ir::Body,
    msg: racewit_syntax::ir::ExprId,
) -> Option<&racewit_syntax::ir::Name> {
    use racewit_syntax::ir::{Expr, Literal};
    let atom = |e| match body.expr(e) {
        Expr::Lit(Literal::Atom(a)) => Some(a),
        _ => None,
    };
    match body.expr(msg) {
        Expr::Tuple(items) => atom(*items.first()?),
        _ => atom(msg),
    }
}

/// The atoms that head the requests a callback's first argument can be
/// (`{checkout, _}` gives `checkout`); `None` when any request may do.
fn request_tags(hint: Option<&ArgHint>) -> Option<Vec<String>> {
    match hint? {
        ArgHint::Atoms { values } => Some(values.clone()),
        ArgHint::Terms { values } => values
            .iter()
            .map(|v| {
                let head = v.strip_prefix('{').unwrap_or(v);
                let tag = head.split([',', '}']).next()?.trim();
                let plain = tag.chars().next().is_some_and(|c| c.is_ascii_lowercase())
                    && tag
                        .chars()
                        .all(|c| c.is_alphanumeric() || c == '_' || c == '@');
                plain.then(|| tag.to_string())
            })
            .collect(),
        _ => None,
    }
}

/// Whether a hint gives a value a harness can write down.
fn usable(hint: &ArgHint) -> bool {
    match hint {
        ArgHint::Terms { values } => values.first().is_some_and(|v| concrete(v).is_some()),
        _ => true,
    }
}

/// A term the static pass printed, made concrete: its `_` holes (parts it
/// does not know) become the atom `any`, if the result is a constant term.
fn concrete(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let word = |c: char| c.is_alphanumeric() || c == '_' || c == '@';
        let alone = c == '_'
            && !chars
                .get(i.wrapping_sub(1))
                .is_some_and(|&p| word(p) && i > 0)
            && !chars.get(i + 1).is_some_and(|&n| word(n));
        if alone {
            out.push_str("any");
        } else {
            out.push(c);
        }
    }
    is_constant_term(&out).then_some(out)
}

/// Whether text is a constant Erlang term (it lowers with no diagnostic and
/// names no variable, call or fun).
fn is_constant_term(text: &str) -> bool {
    if text.contains("fun") || text.contains('(') {
        return false;
    }
    let src = format!("-module(racewit_term_check).\n-export([v/0]).\nv() -> {text}.\n");
    let p = racewit_syntax::load_source("<racewit-term-check>.erl", &src);
    p.diagnostics.is_empty() && p.modules.contains_key("racewit_term_check")
}

fn split_mfa(mfa: &str) -> Option<(&str, &str, u32)> {
    let (m, rest) = mfa.split_once(':')?;
    let (f, a) = rest.rsplit_once('/')?;
    Some((m, f, a.parse().ok()?))
}

/// Every value the shared item's name, table or key can take, printed.
fn resource_values(suspect: &Suspect) -> Vec<String> {
    let r = &suspect.resource;
    [&r.name, &r.table, &r.key]
        .into_iter()
        .flatten()
        .flat_map(|v| v.values.iter().cloned())
        .collect()
}

/// The call of `entry` with `args`.
fn call_text(entry: &Entry, args: &[String]) -> String {
    let (m, f) = (entry.mfa.module.as_str(), entry.mfa.name.as_str());
    format!("{}:{}({})", atom(m), atom(f), args.join(", "))
}

/// The arguments worker number `worker` passes to `entry`. Every worker
/// touches the same shared item; an argument with several known values that
/// do not name the item (the setting written into one shared map, say)
/// differs between workers, so that a lost update shows.
#[allow(clippy::too_many_arguments)]
fn worker_args(
    program: &Program,
    callers: &Callers,
    entry: &Entry,
    needs: &[Option<Need>],
    resource: &[String],
    given: &[(usize, String)],
    filler: &str,
    worker: usize,
) -> Vec<String> {
    arg_values(program, callers, entry)
        .into_iter()
        .zip(&entry.args)
        .enumerate()
        .map(|(i, (v, hint))| {
            if let Some((_, v)) = given.iter().find(|(s, _)| *s == i) {
                return v.clone();
            }
            match varied(hint, resource, worker) {
                Some(text) => text,
                None => v.unwrap_or_else(|| {
                    if has_value(hint) {
                        arg_text(hint)
                    } else if let Some(Some(need)) = needs.get(i) {
                        need.shape.text(None)
                    } else {
                        filler.to_string()
                    }
                }),
            }
        })
        .collect()
}

/// The call that makes what a worker passing `args` works on, with `catch`
/// (a preparer that fails leaves the harness to run, and its trial to
/// tell).
fn prepare_call(
    program: &Program,
    callers: &Callers,
    p: &Preparer,
    args: &[String],
    filler: &str,
) -> String {
    let mfa = p.mfa();
    let given: Vec<String> = p
        .args
        .iter()
        .enumerate()
        .map(|(k, a)| match a {
            PrepArg::Entry(j) => args.get(*j).cloned().unwrap_or_else(|| filler.to_string()),
            PrepArg::EntryInList(j) => format!(
                "[{}]",
                args.get(*j).cloned().unwrap_or_else(|| filler.to_string())
            ),
            PrepArg::Given(text) => text.clone(),
            PrepArg::Open => value_from_call_sites(program, callers, &mfa, k)
                .or_else(|| value_from_clauses(program, &mfa, k, 2))
                .or_else(|| shaped_value(program, &mfa, k))
                .unwrap_or_else(|| filler.to_string()),
        })
        .collect();
    format!(
        "catch {}:{}({})",
        atom(&p.module),
        atom(&p.function),
        given.join(", ")
    )
}

/// What each of the entry's made-up arguments (see [`invented_args`]) needs,
/// from how the entry's code uses it (`None` where nothing tells, and for
/// the arguments something gives a value).
fn arg_needs(program: &Program, callers: &Callers, entry: &Entry) -> Vec<Option<Need>> {
    let (m, f, a) = (
        entry.mfa.module.as_str(),
        entry.mfa.name.as_str(),
        entry.mfa.arity,
    );
    arg_values(program, callers, entry)
        .into_iter()
        .zip(&entry.args)
        .enumerate()
        .map(|(i, (v, hint))| {
            if v.is_some() || has_value(hint) {
                return None;
            }
            crate::arg_shape::need_of_arg(program, (m, f, a), i)
        })
        .collect()
}

/// A made-up value of the kind the `index`-th argument of `mfa` needs.
fn shaped_value(program: &Program, mfa: &str, index: usize) -> Option<String> {
    let (m, f, a) = split_mfa(mfa)?;
    crate::arg_shape::need_of_arg(program, (m, f, a), index).map(|n| n.shape.text(None))
}

/// The positions (from 1) of the entry's arguments no call site, pattern or
/// known value gives, which the harness makes up: of the kind the code
/// needs there (see [`arg_needs`]), else a filler (`1`).
fn invented_args(program: &Program, callers: &Callers, entry: &Entry) -> Vec<u32> {
    arg_values(program, callers, entry)
        .into_iter()
        .zip(&entry.args)
        .enumerate()
        .filter(|(_, (v, hint))| v.is_none() && !has_value(hint))
        .map(|(i, _)| i as u32 + 1)
        .collect()
}

/// Whether a hint names a value the harness can pass.
fn has_value(hint: &ArgHint) -> bool {
    match hint {
        ArgHint::Atoms { values } => !values.is_empty(),
        ArgHint::Integers { values } => !values.is_empty(),
        ArgHint::Terms { values } => values.iter().any(|v| concrete(v).is_some()),
        ArgHint::Unknown => false,
    }
}

/// The `worker`-th of several known values, when none of them names the shared item.
fn varied(hint: &ArgHint, resource: &[String], worker: usize) -> Option<String> {
    let values: Vec<String> = match hint {
        ArgHint::Atoms { values } => values.iter().map(|a| atom(a)).collect(),
        ArgHint::Integers { values } => values.iter().map(|i| i.to_string()).collect(),
        ArgHint::Terms { values } => values.iter().filter_map(|v| concrete(v)).collect(),
        ArgHint::Unknown => return None,
    };
    if values.len() < 2 || values.iter().any(|v| resource.contains(v)) {
        return None;
    }
    Some(values[worker % values.len()].clone())
}

/// One concrete argument for a hint: the first known value, else `1`
/// (a value that arithmetic, keys and lookups all accept).
fn arg_text(hint: &ArgHint) -> String {
    match hint {
        ArgHint::Atoms { values } => values
            .first()
            .map(|a| atom(a))
            .unwrap_or_else(|| "1".into()),
        ArgHint::Integers { values } => values
            .first()
            .map(|i| i.to_string())
            .unwrap_or_else(|| "1".into()),
        ArgHint::Terms { values } => values
            .first()
            .and_then(|v| concrete(v))
            .unwrap_or_else(|| "1".into()),
        ArgHint::Unknown => "1".into(),
    }
}

/// Text safe inside a `%%` comment line: control characters (a newline in
/// a file name would end the comment and make the rest code) are escaped.
fn comment_text(text: &str) -> String {
    text.chars()
        .flat_map(|c| {
            if c.is_control() {
                c.escape_default().collect::<Vec<_>>()
            } else {
                vec![c]
            }
        })
        .collect()
}

fn render(module: &str, suspect: &Suspect, setup: &[String], workers: &[String]) -> String {
    let mut s = String::new();
    s.push_str(&format!("-module({module}).\n-export([run/0]).\n\n"));
    let header = format!(
        "racewit harness for {} ({}: {})",
        suspect.id,
        suspect.category.as_str(),
        suspect.resource.display
    );
    let read = format!(
        "read  {} at {}:{}",
        suspect.read.call, suspect.read.file, suspect.read.line
    );
    let write = format!(
        "write {} at {}:{}",
        suspect.write.call, suspect.write.file, suspect.write.line
    );
    for line in [header, read, write] {
        s.push_str(&format!("%% {}\n", comment_text(&line)));
    }
    s.push_str("run() ->\n");
    for call in setup {
        s.push_str(&format!("    {call},\n"));
    }
    if !setup.is_empty() {
        // Marks the end of the setup: confirmation runs the setup once, in
        // one fixed order, and searches the schedules from here.
        s.push_str(&format!("    self() ! {SETUP_DONE},\n"));
        s.push_str(&format!("    receive {SETUP_DONE} -> ok end,\n"));
    }
    // A rival that names the first worker's process gets its pid: the
    // first worker is then started alone, before the others.
    let owner = workers.len() > 1 && workers[1..].iter().any(|w| w.contains(OWNER_VAR));
    if owner {
        s.push_str(&format!(
            "    {{{OWNER_VAR}, {OWNER_VAR}Ref}} = spawn_monitor(fun() -> {} end),\n",
            workers[0]
        ));
    }
    s.push_str("    Workers = [\n");
    for (i, call) in workers.iter().enumerate() {
        let sep = if i + 1 < workers.len() { "," } else { "" };
        if i == 0 && owner {
            s.push_str(&format!("        {{{OWNER_VAR}, {OWNER_VAR}Ref}}{sep}\n"));
            continue;
        }
        s.push_str(&format!(
            "        spawn_monitor(fun() -> {call} end){sep}\n"
        ));
    }
    s.push_str("    ],\n");
    s.push_str(
        "    [receive {'DOWN', Ref, process, Pid, _} -> ok end || {Pid, Ref} <- Workers],\n",
    );
    // From here no timer fires: the run ends once the program is quiet.
    s.push_str(&format!("    self() ! {WORKERS_DONE},\n"));
    s.push_str("    %% Stay alive, so the tables this process owns keep their final state.\n");
    s.push_str("    receive racewit_harness_stop -> ok end.\n");
    s
}

/// How many local calls deep [`calls_self`] looks.
const SELF_DEPTH: usize = 3;

/// Whether `mfa`'s code calls `self()`, itself or through the functions of
/// its module it calls (a few calls deep): `set_value(K, V)` calling
/// `set_value1(K, V)`, which passes `self()` on.
fn calls_self(program: &Program, mfa: &MFA) -> bool {
    let module = mfa.module.as_str();
    let mut level: Vec<(String, u32)> = vec![(mfa.name.to_string(), mfa.arity)];
    let mut seen = level.clone();
    for _ in 0..SELF_DEPTH {
        let mut next = Vec::new();
        for (name, arity) in &level {
            let Some(func) = program.function(module, name, *arity) else {
                continue;
            };
            let body = &func.body;
            for x in &body.exprs {
                let Expr::Call { target, args, .. } = x else {
                    continue;
                };
                if args.is_empty() && erlang_call(body, target).as_deref() == Some("self") {
                    return true;
                }
                if let CallTarget::Local { name, .. } = &**target {
                    let callee = (name.to_string(), args.len() as u32);
                    if !seen.contains(&callee) {
                        seen.push(callee.clone());
                        next.push(callee);
                    }
                }
            }
        }
        level = next;
    }
    false
}

/// The variable a generated harness binds to its first worker's pid, for a
/// rival that names that worker's process (see `Drive::in_worker`).
const OWNER_VAR: &str = "RacewitOwner";

/// The arguments (from 0) of a rival's function that name a process: a
/// guard or use needs a pid there, or a call site of the program passes a
/// pid it got from `spawn` or `self()`.
fn pid_params(program: &Program, callers: &Callers, rival: &Preparer) -> Vec<usize> {
    let (m, f, a) = (
        rival.module.as_str(),
        rival.function.as_str(),
        rival.args.len() as u32,
    );
    (0..rival.args.len())
        .filter(|&i| {
            crate::arg_shape::need_of_arg(program, (m, f, a), i)
                .is_some_and(|n| n.shape == crate::arg_shape::Shape::Pid)
                || call_sites(program, callers, (m, f, a))
                    .into_iter()
                    .any(|(body, args)| is_pid_var(body, args[i]))
        })
        .collect()
}

/// Whether `e` is a variable the same body binds to a new process's pid
/// (`Owner = spawn(...)`) or to its own (`Me = self()`).
fn is_pid_var(body: &Body, e: ExprId) -> bool {
    let Expr::Var(v) = body.expr(e) else {
        return false;
    };
    body.exprs.iter().any(|x| {
        let Expr::Match(p, value) = x else {
            return false;
        };
        let Expr::Call { target, .. } = body.expr(*value) else {
            return false;
        };
        matches!(body.pat(*p), Pat::Var(b) if b == v)
            && matches!(
                erlang_call(body, target).as_deref(),
                Some("spawn" | "spawn_link" | "spawn_opt" | "self")
            )
    })
}

/// The name of a call's function when it is one of module `erlang`'s:
/// called as `erlang:f(...)`, or unqualified (an auto-imported BIF, or a
/// local function of that name, which the caller's tests tell apart).
fn erlang_call(body: &Body, target: &CallTarget) -> Option<String> {
    match target {
        CallTarget::Local { name, .. } => Some(name.to_string()),
        CallTarget::Remote { module, function } => {
            (crate::prepare::atom_at(body, *module).as_deref() == Some("erlang"))
                .then(|| crate::prepare::atom_at(body, *function))
                .flatten()
        }
        CallTarget::Apply { .. } => None,
    }
}

/// The message a generated harness sends itself when its setup is done.
pub const SETUP_DONE: &str = "racewit_setup_done";

/// The message a generated harness sends itself when its workers are done
/// (see `VmSystem`: no timeout fires after it).
pub const WORKERS_DONE: &str = "racewit_workers_done";

/// Values that the `index`-th argument pattern of the function's clauses
/// accept (literals and shapes from the pattern, types from guard tests such
/// as `is_atom(X)`), one per clause that gives one, in clause order, without
/// repeats.
fn values_from_clauses(program: &Program, mfa: &str, index: usize, depth: u32) -> Vec<String> {
    values_from_clauses_where(program, mfa, index, depth, &|_| true)
}

/// [`values_from_clauses`] of the clauses (by position) `keep` keeps.
fn values_from_clauses_where(
    program: &Program,
    mfa: &str,
    index: usize,
    depth: u32,
    keep: &dyn Fn(usize) -> bool,
) -> Vec<String> {
    use racewit_syntax::ir::{CallTarget, Expr, Pat};
    let Some((m, f, a)) = split_mfa(mfa) else {
        return Vec::new();
    };
    let Some(func) = program.function(m, f, a) else {
        return Vec::new();
    };
    let body = &func.body;
    let guard_type = |guard: &[Vec<racewit_syntax::ir::ExprId>], v| {
        crate::arg_shape::guard_shape(body, guard, v)
    };
    let mut found: Vec<String> = Vec::new();
    for v in func.clauses.iter().enumerate().filter_map(|(k, &c)| {
        if !keep(k) {
            return None;
        }
        let clause = body.clause(c);
        let &pat = clause.pats.get(index)?;
        // A plain variable with no guard: what the first local function it
        // is passed to accepts.
        if let Pat::Var(v) = body.pat(pat)
            && guard_type(&clause.guard, *v).is_none()
            && depth > 0
        {
            let passed = body.exprs.iter().find_map(|e| match e {
                Expr::Call { target, args, .. }
                    if let CallTarget::Local { name, arity } = &**target =>
                {
                    args.iter()
                        .position(|&a| matches!(body.expr(a), Expr::Var(x) if x == v))
                        .map(|i| (format!("{m}:{name}/{arity}"), i))
                }
                _ => None,
            });
            if let Some((callee, i)) = passed
                && let Some(val) = value_from_clauses(program, &callee, i, depth - 1)
            {
                return Some(val);
            }
        }
        // An unconstrained argument is not a value found.
        if matches!(body.pat(pat), Pat::Wild | Pat::Bound(_))
            || matches!(body.pat(pat), Pat::Var(v) if guard_type(&clause.guard, *v).is_none())
        {
            return None;
        }
        crate::arg_shape::pattern_value(program, m, func, pat, &clause.guard)
    }) {
        if !found.contains(&v) {
            found.push(v);
        }
    }
    found
}

/// A value the `index`-th argument of `mfa` accepts: the first of
/// `values_from_clauses`.
fn value_from_clauses(program: &Program, mfa: &str, index: usize, depth: u32) -> Option<String> {
    values_from_clauses(program, mfa, index, depth)
        .into_iter()
        .next()
}

/// The arguments of `entry` that the program makes with a call of its own
/// rather than writes as a constant (a table, a record holding one, a
/// list of shards): (position from 0, the call that makes it). Only
/// arguments with no constant from a hint or a call site are made.
fn produced_args(program: &Program, callers: &Callers, entry: &Entry) -> Vec<(usize, String)> {
    let mfa = entry.mfa.to_string();
    entry
        .args
        .iter()
        .enumerate()
        .filter(|(i, hint)| {
            let hinted = usable(hint) && !matches!(hint, ArgHint::Unknown);
            !hinted && value_from_call_sites(program, callers, &mfa, *i).is_none()
        })
        .filter_map(|(i, _)| {
            producer_from_call_sites(program, callers, &entry.mfa, i)
                .or_else(|| producer_by_shape(program, &entry.mfa, i))
                .or_else(|| table_maker(program, &entry.mfa, i))
                .map(|call| (i, call))
        })
        .collect()
}

/// The call the program itself makes the `index`-th argument of `mfa`
/// with: at a call site whose argument is a variable bound in the same
/// function by `V = p(Constants...)`, `p` an exported function (the most
/// frequent such call; ties by first in text). So `Tab = start(),
/// bump(Tab, home)` in a module's own test gives `start()` for `Tab`.
fn producer_from_call_sites(
    program: &Program,
    callers: &Callers,
    mfa: &MFA,
    index: usize,
) -> Option<String> {
    use racewit_syntax::ir::{Expr, Pat};
    let (m, f, a) = (mfa.module.as_str(), mfa.name.as_str(), mfa.arity);
    let mut counts: Vec<(String, usize)> = Vec::new();
    for ((cm, cf, ca), e) in callers.sites(m, f, a) {
        let Some(body) = program.function(cm, cf, *ca).map(|func| &func.body) else {
            continue;
        };
        let Expr::Call { args, .. } = body.expr(e) else {
            continue;
        };
        if args.len() != a as usize {
            continue;
        }
        let Expr::Var(v) = body.expr(args[index]) else {
            continue;
        };
        let made = body.exprs.iter().find_map(|x| match x {
            Expr::Match(p, rhs) if matches!(body.pat(*p), Pat::Var(w) if w == v) => {
                producer_call(program, body, cm, *rhs, mfa)
            }
            _ => None,
        });
        if let Some(text) = made {
            match counts.iter_mut().find(|(t, _)| *t == text) {
                Some((_, n)) => *n += 1,
                None => counts.push((text, 1)),
            }
        }
    }
    let best = counts.iter().map(|(_, n)| *n).max()?;
    counts.into_iter().find(|(_, n)| *n == best).map(|(t, _)| t)
}

/// `e` as a call the harness can make: an exported function other than
/// `entry`, named statically, every argument a constant.
fn producer_call(
    program: &Program,
    body: &racewit_syntax::ir::Body,
    here: &str,
    e: racewit_syntax::ir::ExprId,
    entry: &MFA,
) -> Option<String> {
    use racewit_syntax::ir::{CallTarget, Expr, Literal};
    let Expr::Call { target, args, .. } = body.expr(e) else {
        return None;
    };
    let (cm, cf) = match &**target {
        CallTarget::Local { name, .. } => (here.to_string(), name.to_string()),
        CallTarget::Remote { module, function } => match (body.expr(*module), body.expr(*function))
        {
            (Expr::Lit(Literal::Atom(m)), Expr::Lit(Literal::Atom(f))) => {
                (m.to_string(), f.to_string())
            }
            _ => return None,
        },
        CallTarget::Apply { .. } => return None,
    };
    let arity = args.len() as u32;
    if cm == entry.module.as_str() && cf == entry.name.as_str() && arity == entry.arity {
        return None;
    }
    if !program
        .function(&cm, &cf, arity)
        .is_some_and(|func| func.exported)
    {
        return None;
    }
    let texts: Option<Vec<String>> = args.iter().map(|&x| const_text(body, x)).collect();
    Some(format!(
        "{}:{}({})",
        atom(&cm),
        atom(&cf),
        texts?.join(", ")
    ))
}

/// An exported function of arity 0 of `mfa`'s module that returns what the
/// `index`-th argument's pattern takes apart, when the pattern is a record
/// (a tuple tagged with an atom): a function whose clause ends by building
/// that record. So `charge(#quota{tab = Tab}, ...)` is given `new()` when
/// `new() -> ..., #quota{tab = Tab}.`
fn producer_by_shape(program: &Program, mfa: &MFA, index: usize) -> Option<String> {
    use racewit_syntax::ir::{Expr, Literal, Pat};
    let (m, f, a) = (mfa.module.as_str(), mfa.name.as_str(), mfa.arity);
    let func = program.function(m, f, a)?;
    let body = &func.body;
    let tag = func.clauses.iter().find_map(|&c| {
        let &pat = body.clause(c).pats.get(index)?;
        let pat = match body.pat(pat) {
            Pat::Alias(x, y) => match body.pat(*x) {
                Pat::Tuple(_) => *x,
                _ => *y,
            },
            _ => pat,
        };
        match body.pat(pat) {
            Pat::Tuple(items) => match items.first().map(|&p| body.pat(p)) {
                Some(Pat::Lit(Literal::Atom(t))) => Some(t.clone()),
                _ => None,
            },
            _ => None,
        }
    })?;
    let module = program.modules.get(m)?;
    module
        .functions
        .iter()
        .filter(|g| g.arity == 0 && g.exported && g.name.as_str() != f)
        .find(|g| {
            g.clauses.iter().any(|&c| {
                let b = &g.body;
                clause_result(b, c).is_some_and(|last| {
                    matches!(b.expr(last), Expr::Tuple(items)
                        if matches!(items.first().map(|&x| b.expr(x)),
                            Some(Expr::Lit(Literal::Atom(t))) if *t == tag))
                })
            })
        })
        .map(|g| format!("{}:{}()", atom(m), atom(g.name.as_str())))
}

/// An exported function of arity 0 of `mfa`'s module that returns a table
/// it made (its clause ends with `ets:new(...)`, or with the variable that
/// holds one), when the `index`-th argument is a variable the function
/// uses as a table (the first argument of an `ets:` call). So
/// `record(Tab, ...)` is given `start()` when `start() -> Tab =
/// ets:new(...), ..., Tab.`
fn table_maker(program: &Program, mfa: &MFA, index: usize) -> Option<String> {
    use crate::table_setup::ets_call;
    use racewit_syntax::ir::{Expr, ExprId, Pat};
    let (m, f, a) = (mfa.module.as_str(), mfa.name.as_str(), mfa.arity);
    let func = program.function(m, f, a)?;
    let body = &func.body;
    let used_as_table = func.clauses.iter().any(|&c| {
        let Some(&pat) = body.clause(c).pats.get(index) else {
            return false;
        };
        let Pat::Var(v) = body.pat(pat) else {
            return false;
        };
        (0..body.exprs.len()).any(|i| {
            let id = ExprId(i as u32);
            ets_call(body, id).is_some_and(|(name, args)| {
                name != "new"
                    && args
                        .first()
                        .is_some_and(|&t| matches!(body.expr(t), Expr::Var(w) if w == v))
            })
        })
    });
    if !used_as_table {
        return None;
    }
    let module = program.modules.get(m)?;
    module
        .functions
        .iter()
        .filter(|g| g.arity == 0 && g.exported && g.name.as_str() != f)
        .find(|g| {
            let b = &g.body;
            g.clauses.iter().any(|&c| {
                let Some(last) = clause_result(b, c) else {
                    return false;
                };
                let makes = |e: ExprId| ets_call(b, e).is_some_and(|(name, _)| name == "new");
                match b.expr(last) {
                    Expr::Var(v) => b.exprs.iter().any(|x| {
                        matches!(x, Expr::Match(p, rhs)
                            if matches!(b.pat(*p), Pat::Var(w) if w == v) && makes(*rhs))
                    }),
                    _ => makes(last),
                }
            })
        })
        .map(|g| format!("{}:{}()", atom(m), atom(g.name.as_str())))
}

/// The expression whose value a clause returns: its body's last
/// expression, through nested blocks (`None` for an empty block).
fn clause_result(
    body: &racewit_syntax::ir::Body,
    clause: racewit_syntax::ir::ClauseId,
) -> Option<racewit_syntax::ir::ExprId> {
    let mut last = body.clause(clause).body;
    while let racewit_syntax::ir::Expr::Block(items) = body.expr(last) {
        last = *items.last()?;
    }
    Some(last)
}

/// A constant the code itself passes as the `index`-th argument of `mfa`
/// somewhere (the most frequent one; ties by first in text), such as the
/// token a module's own `test/0` redeems.
fn value_from_call_sites(
    program: &Program,
    callers: &Callers,
    mfa: &str,
    index: usize,
) -> Option<String> {
    values_from_call_sites(program, callers, mfa, index)
        .into_iter()
        .next()
}

/// Every constant the code passes as the `index`-th argument of `mfa`, the
/// most frequent first (ties by first in text).
fn values_from_call_sites(
    program: &Program,
    callers: &Callers,
    mfa: &str,
    index: usize,
) -> Vec<String> {
    let Some((m, f, a)) = split_mfa(mfa) else {
        return Vec::new();
    };
    let mut counts: Vec<(String, usize)> = Vec::new();
    count_call_site_values(program, callers, (m, f, a), index, &mut counts);
    // A stable sort keeps ties in the order of the text.
    counts.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
    counts.into_iter().map(|(t, _)| t).collect()
}

/// The program's calls of `m:f/a` (from its index of calls): the calling
/// Counts each constant the code passes as the `index`-th argument of
/// `(m, f, a)`. (Constants passed to a shorter form of the function that
/// passes its parameter on were counted too in one version: gproc's
/// `do_set_counter_value/3` then got values from its wrappers and lost the
/// way through `gproc:set_value/2` that confirms its race, and lager's
/// `configure_sink/2` got `'__all_extra'` and a look-alike was CONFIRMED.)
fn count_call_site_values(
    program: &Program,
    callers: &Callers,
    (m, f, a): (&str, &str, u32),
    index: usize,
    counts: &mut Vec<(String, usize)>,
) {
    for (body, args) in call_sites(program, callers, (m, f, a)) {
        let Some(&arg) = args.get(index) else {
            continue;
        };
        if let Some(text) = value_text(body, arg) {
            match counts.iter_mut().find(|(t, _)| *t == text) {
                Some((_, n)) => *n += 1,
                None => counts.push((text, 1)),
            }
        }
    }
}

/// The program's calls of `m:f/a` (from its index of calls): the calling
/// body and the call's arguments, in the order of the text.
pub(crate) fn call_sites<'p>(
    program: &'p Program,
    callers: &'p Callers,
    (m, f, a): (&'p str, &'p str, u32),
) -> impl Iterator<
    Item = (
        &'p racewit_syntax::ir::Body,
        &'p [racewit_syntax::ir::ExprId],
    ),
> + 'p {
    use racewit_syntax::ir::Expr;
    callers.sites(m, f, a).filter_map(move |((cm, cf, ca), e)| {
        let body = &program.function(cm, cf, *ca)?.body;
        match body.expr(e) {
            Expr::Call { args, .. } if args.len() == a as usize => Some((body, &args[..])),
            _ => None,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_cannot_be_ended_by_a_name() {
        assert_eq!(
            comment_text("a\nb.erl\r\u{1b}[31m"),
            "a\\nb.erl\\r\\u{1b}[31m"
        );
    }

    #[test]
    fn atoms_are_quoted_when_needed() {
        assert_eq!(atom("hits"), "hits");
        assert_eq!(atom("Hits"), "'Hits'");
        assert_eq!(atom("end"), "'end'");
        assert_eq!(atom("a-b"), "'a-b'");
        assert_eq!(atom("it's"), "'it\\'s'");
    }

    #[test]
    fn arguments_take_the_first_known_value() {
        assert_eq!(
            arg_text(&ArgHint::Atoms {
                values: vec!["page".into()]
            }),
            "page"
        );
        assert_eq!(arg_text(&ArgHint::Integers { values: vec![7, 8] }), "7");
        assert_eq!(arg_text(&ArgHint::Unknown), "1");
        assert_eq!(
            split_mfa("ct_master:init_master/1"),
            Some(("ct_master", "init_master", 1))
        );
    }

    #[test]
    fn a_test_suite_is_no_way_into_the_program() {
        let lib = "-module(lib).\n-export([do_set/3]).\n\
                   do_set(K, V, P) -> ets:insert(t, {{K, P}, V}).\n";
        let api = "-module(api).\n-export([set/2]).\nset(K, V) -> lib:do_set(K, V, self()).\n";
        let suite = "-module(api_SUITE).\n-export([sets/1]).\n\
                     sets(_Config) -> lib:do_set(k, 1, self()).\n";
        let p = crate::test_support::program(&[("lib", lib), ("api", api), ("api_SUITE", suite)]);
        let callers = Callers::new(&p);
        let internal = ("lib".to_string(), "do_set".to_string(), 3);
        let all: Vec<String> = crate::through_api::ways(&p, &callers, &internal, |_| false)
            .into_iter()
            .map(|w| w.api.0)
            .collect();
        assert_eq!(all, ["api", "api_SUITE"]);
        let apis: Vec<String> =
            crate::through_api::ways(&p, &callers, &internal, |m| not_an_api(&p, m))
                .into_iter()
                .map(|w| w.api.0)
                .collect();
        assert_eq!(apis, ["api"]);
    }

    fn mfa(m: &str, f: &str, a: u32) -> MFA {
        MFA {
            module: m.into(),
            name: f.into(),
            arity: a,
        }
    }

    #[test]
    fn arguments_are_made_as_the_program_makes_them() {
        let src = "-module(p).\n\
            -export([start/0, new/0, bump/2, charge/2, plain/2, other/0, t/0]).\n\
            -record(q, {tab}).\n\
            start() -> T = ets:new(t, [public]), ets:insert(T, {k, 0}), T.\n\
            new() -> #q{tab = ets:new(q, [public])}.\n\
            other() -> ok.\n\
            bump(Tab, K) -> [{K, N}] = ets:lookup(Tab, K), ets:insert(Tab, {K, N + 1}).\n\
            charge(#q{tab = Tab}, K) -> ets:lookup(Tab, K).\n\
            plain(X, Y) -> X + Y.\n\
            t() -> Tab = start(), bump(Tab, k).\n";
        let program = racewit_syntax::load_source("p.erl", src);
        let callers = Callers::new(&program);
        // From the module's own call site: `Tab = start(), bump(Tab, k)`.
        assert_eq!(
            producer_from_call_sites(&program, &callers, &mfa("p", "bump", 2), 0).as_deref(),
            Some("p:start()")
        );
        assert_eq!(
            producer_from_call_sites(&program, &callers, &mfa("p", "bump", 2), 1),
            None,
            "a constant is no made value"
        );
        // From the record the clause takes apart.
        assert_eq!(
            producer_by_shape(&program, &mfa("p", "charge", 2), 0).as_deref(),
            Some("p:new()")
        );
        // From the table the argument is used as.
        assert_eq!(
            table_maker(&program, &mfa("p", "bump", 2), 0).as_deref(),
            Some("p:start()")
        );
        assert_eq!(table_maker(&program, &mfa("p", "plain", 2), 0), None);
        assert_eq!(producer_by_shape(&program, &mfa("p", "plain", 2), 0), None);
    }

    #[test]
    fn other_workers_pass_other_values_the_program_passes() {
        // The program sets three options; the first worker sets the most
        // frequent, the others another atom before the list.
        let src = "-module(o).\n\
            -export([set/2, a/0, b/0]).\n\
            set(K, V) -> persistent_term:put(o, (persistent_term:get(o))#{K => V}).\n\
            a() -> set(port, 1), set(port, 1), set([deep, key], 2).\n\
            b() -> set(host, 1).\n";
        let program = racewit_syntax::load_source("o.erl", src);
        let callers = Callers::new(&program);
        let entry = Entry {
            mfa: mfa("o", "set", 2),
            args: vec![ArgHint::Unknown; 2],
        };
        let args = vec![
            vec!["port".to_string(), "1".to_string()],
            vec!["port".to_string(), "1".to_string()],
        ];
        assert_eq!(
            call_site_alternatives(&program, &callers, &entry, &[], &args),
            Some((0, vec!["host".to_string(), "[deep, key]".to_string()]))
        );
        // An argument the harness fixed is left as it is: the next one
        // varies.
        assert_eq!(
            call_site_alternatives(&program, &callers, &entry, &[(0, "port".into())], &args),
            Some((1, vec!["2".to_string()]))
        );
    }

    #[test]
    fn clients_of_a_callback_include_those_that_send_through_a_wrapper() {
        let src = "-module(srv).\n\
            -behaviour(gen_server).\n\
            -export([add/2, drop/1, ping/0, init/1, handle_call/3, handle_cast/2]).\n\
            add(K, V) -> call({add, K, V}).\n\
            drop(K) -> request({drop, K}).\n\
            ping() -> ok.\n\
            request(Req) -> call(Req).\n\
            call(Req) when is_tuple(Req) -> gen_server:call(srv, Req, infinity).\n\
            init([]) -> {ok, []}.\n\
            handle_call(_, _, S) -> {reply, ok, S}.\n\
            handle_cast(_, S) -> {noreply, S}.\n";
        let program = racewit_syntax::load_source("srv.erl", src);
        let entry = |tags: Option<Vec<&str>>| Entry {
            mfa: mfa("srv", "handle_call", 3),
            args: vec![
                match tags {
                    Some(t) => ArgHint::Atoms {
                        values: t.into_iter().map(Into::into).collect(),
                    },
                    None => ArgHint::Unknown,
                },
                ArgHint::Unknown,
                ArgHint::Unknown,
            ],
        };
        let names = |e: &Entry| -> Vec<String> {
            client_entries(&program, e)
                .iter()
                .map(|c| c.mfa.to_string())
                .collect()
        };
        // `add` sends through `call/1`, `drop` through `request/1` then
        // `call/1`; `ping` sends nothing.
        assert_eq!(names(&entry(None)), ["srv:add/2", "srv:drop/1"]);
        // The request tag still picks the client.
        assert_eq!(names(&entry(Some(vec!["drop"]))), ["srv:drop/1"]);
        // A cast handler's clients are those that cast, wrapped or not.
        let cast = Entry {
            mfa: mfa("srv", "handle_cast", 2),
            args: vec![ArgHint::Unknown, ArgHint::Unknown],
        };
        assert!(names(&cast).is_empty());
    }
}
