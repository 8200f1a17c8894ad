//! Every category of shared state, described once, as data: its code and
//! name, what its items are called in reports, the text of its rule, and
//! the operations that read or write it ([`OPS`]: module, function,
//! arities, role, and where in the arguments the item is ([`Shape`])).
//!
//! The rest of the pass reads this table: [`classify`] gives the categories
//! a call reads and writes, [`crate::ops::item`] the item it touches, the
//! SARIF rules and the messages their text. Adding an operation is adding a
//! row.

use std::sync::LazyLock;

use racewit_syntax::ir::MFA;
use rustc_hash::FxHashMap;
use serde::Serialize;

use crate::spawn::start_of;

/// Kinds of shared state, each with a stable code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    /// `whereis/registered` → `register/unregister` (R001).
    Registry,
    /// ETS reads → ETS writes of the same table and key (R002).
    Ets,
    /// `mnesia:dirty_read/dirty_match_object` → `mnesia:dirty_write/dirty_delete` (R003).
    Mnesia,
    /// `spawn` → `register` of the new pid, which may already have exited (R004).
    SpawnRegister,
    /// `global:whereis_name` → `global:register_name` (R005).
    Global,
    /// `persistent_term:get` → `persistent_term:put/erase` (R006).
    PersistentTerm,
    /// `application:get_env` → `application:set_env/unset_env` (R007).
    ApplicationEnv,
}

/// A set of categories (one bit each; room for 32).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CatSet(pub u32);

impl CatSet {
    pub const EMPTY: CatSet = CatSet(0);
    pub const ALL: CatSet = CatSet(u32::MAX);

    pub fn one(c: Category) -> CatSet {
        CatSet(1 << (c as u32))
    }

    pub fn contains(self, c: Category) -> bool {
        self.0 & (1 << (c as u32)) != 0
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn meets(self, other: CatSet) -> bool {
        self.0 & other.0 != 0
    }

    pub fn iter(self) -> impl Iterator<Item = Category> {
        Category::ALL.into_iter().filter(move |&c| self.contains(c))
    }
}

impl std::ops::BitOr for CatSet {
    type Output = CatSet;
    fn bitor(self, o: CatSet) -> CatSet {
        CatSet(self.0 | o.0)
    }
}

impl std::ops::BitOrAssign for CatSet {
    fn bitor_assign(&mut self, o: CatSet) {
        self.0 |= o.0;
    }
}

impl std::ops::BitAnd for CatSet {
    type Output = CatSet;
    fn bitand(self, o: CatSet) -> CatSet {
        CatSet(self.0 & o.0)
    }
}

impl FromIterator<Category> for CatSet {
    fn from_iter<I: IntoIterator<Item = Category>>(it: I) -> CatSet {
        it.into_iter()
            .fold(CatSet::EMPTY, |s, c| s | CatSet::one(c))
    }
}

/// What the shared item of a category is, as reports name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ResourceKind {
    RegisteredName,
    EtsObject,
    MnesiaRecord,
    SpawnedPid,
    GlobalName,
    PersistentTerm,
    ApplicationEnv,
}

impl ResourceKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ResourceKind::RegisteredName => "registered_name",
            ResourceKind::EtsObject => "ets_object",
            ResourceKind::MnesiaRecord => "mnesia_record",
            ResourceKind::SpawnedPid => "spawned_pid",
            ResourceKind::GlobalName => "global_name",
            ResourceKind::PersistentTerm => "persistent_term",
            ResourceKind::ApplicationEnv => "application_env",
        }
    }
}

/// The text of a category's rule (SARIF `reportingDescriptor`, help).
#[derive(Clone, Copy, Debug)]
pub struct RuleText {
    /// A name to filter by (`RegistryRace`).
    pub name: &'static str,
    pub short: &'static str,
    pub full: &'static str,
    /// How to remove the race (Markdown).
    pub fix: &'static str,
    /// A tag naming the shared state.
    pub state_tag: &'static str,
    /// Whether the read decides the write (time of check, time of use).
    pub check_then_act: bool,
}

/// Everything said about one category.
#[derive(Clone, Copy, Debug)]
pub struct CategoryInfo {
    pub category: Category,
    pub code: &'static str,
    /// snake_case name (JSON, command line).
    pub name: &'static str,
    pub resource: ResourceKind,
    /// What a stale write does, in the Dialyzer-style message.
    pub effect: &'static str,
    pub rule: RuleText,
}

const MIGHT_FAIL: &str = "might fail";
const UNINTENDED: &str = "might have an unintended effect";

static INFOS: [CategoryInfo; 7] = [
    CategoryInfo {
        category: Category::Registry,
        code: "R001",
        name: "registry",
        resource: ResourceKind::RegisteredName,
        effect: MIGHT_FAIL,
        rule: RuleText {
            name: "RegistryRace",
            short: "A registered name is checked, then registered, with a gap another process can use.",
            full: "A process looks a registered name up (whereis/1, registered/0) and then registers or \
                   unregisters it because of what it saw. Another process can register the same name \
                   in between: register/2 then raises badarg, or the name ends up with the wrong process.",
            fix: "Call `register/2` without checking first and handle its `badarg`, or start the \
                  process with `gen_server:start_link({local, Name}, ...)` and act on \
                  `{error, {already_started, Pid}}`; the registration is then atomic.",
            state_tag: "registry",
            check_then_act: true,
        },
    },
    CategoryInfo {
        category: Category::Ets,
        code: "R002",
        name: "ets",
        resource: ResourceKind::EtsObject,
        effect: UNINTENDED,
        rule: RuleText {
            name: "EtsLostUpdate",
            short: "An ETS entry is read, then written from the stale value, with a gap another process can use.",
            full: "A process reads an ETS entry (ets:lookup/2, ets:member/2, a match or select, ...) and \
                   later writes the same key (ets:insert/2, ets:update_element/3, ets:delete/2, ...) from \
                   what it read. Another process can write the key in between, and one of the two \
                   updates is lost.",
            fix: "Use one atomic operation: `ets:update_counter/3,4` for counters, `ets:insert_new/2` \
                  to claim a key, `ets:select_replace/2` as compare-and-swap, or let a single owner \
                  process do every write to the table.",
            state_tag: "ets",
            check_then_act: true,
        },
    },
    CategoryInfo {
        category: Category::Mnesia,
        code: "R003",
        name: "mnesia",
        resource: ResourceKind::MnesiaRecord,
        effect: UNINTENDED,
        rule: RuleText {
            name: "MnesiaDirtyRace",
            short: "A mnesia record is read and written with dirty operations instead of a transaction.",
            full: "A process reads a mnesia record with a dirty operation (mnesia:dirty_read/2, \
                   mnesia:dirty_match_object/2) and writes the same record with another \
                   (mnesia:dirty_write/2, mnesia:dirty_delete/2). Dirty operations take no locks, so a \
                   concurrent writer's update can be lost.",
            fix: "Read and write in one `mnesia:transaction/1`, taking the write lock when reading \
                  (`mnesia:read(Tab, Key, write)`), or use `mnesia:dirty_update_counter/3` for counters.",
            state_tag: "mnesia",
            check_then_act: true,
        },
    },
    CategoryInfo {
        category: Category::SpawnRegister,
        code: "R004",
        name: "spawn_register",
        resource: ResourceKind::SpawnedPid,
        effect: MIGHT_FAIL,
        rule: RuleText {
            name: "SpawnRegisterRace",
            short: "A spawned process is registered after it may already have exited.",
            full: "A process spawns another and then registers the new pid under a name. The new \
                   process can finish or crash before register/2 runs, and register/2 then raises \
                   badarg in the parent.",
            fix: "Let the new process register itself as its first action, or start it with a \
                  `proc_lib`/`gen_server` start function that registers `{local, Name}` before it \
                  returns.",
            state_tag: "spawn",
            check_then_act: false,
        },
    },
    CategoryInfo {
        category: Category::Global,
        code: "R005",
        name: "global",
        resource: ResourceKind::GlobalName,
        effect: MIGHT_FAIL,
        rule: RuleText {
            name: "GlobalNameRace",
            short: "A global name is looked up, then registered, with a gap another process can use.",
            full: "A process looks a global name up (global:whereis_name/1) and then registers it \
                   (global:register_name/2) because it was free. Another process, possibly on another \
                   node, can take the name in between, and register_name/2 returns no.",
            fix: "Call `global:register_name/2,3` directly and act on its `yes` or `no`, or wrap the \
                  lookup and the registration in `global:trans/2`.",
            state_tag: "global",
            check_then_act: true,
        },
    },
    CategoryInfo {
        category: Category::PersistentTerm,
        code: "R006",
        name: "persistent_term",
        resource: ResourceKind::PersistentTerm,
        effect: UNINTENDED,
        rule: RuleText {
            name: "PersistentTermRace",
            short: "A persistent term is read, then written from the stale value.",
            full: "A process reads a persistent term (persistent_term:get/1,2) and later stores the same \
                   key (persistent_term:put/2, persistent_term:erase/1) from what it read. A concurrent \
                   put in between is lost.",
            fix: "Make one process own the key and serialize every update through it, or keep state \
                  that changes in ETS and update it atomically.",
            state_tag: "persistent-term",
            check_then_act: true,
        },
    },
    CategoryInfo {
        category: Category::ApplicationEnv,
        code: "R007",
        name: "application_env",
        resource: ResourceKind::ApplicationEnv,
        effect: UNINTENDED,
        rule: RuleText {
            name: "ApplicationEnvRace",
            short: "An application environment key is read, then set from what was read.",
            full: "A process reads an application environment key (application:get_env/2,3) and later \
                   sets or unsets the same key (application:set_env/3,4, application:unset_env/2,3) \
                   because of what it saw: a lazy initialisation or a flag. Another process can do the \
                   same in between, so the work runs twice or an update is lost.",
            fix: "Initialise once where the application starts (its `start/2` or a supervisor's \
                  child), or serialize the check and the set through one process.",
            state_tag: "application-env",
            check_then_act: true,
        },
    },
];

impl Category {
    pub const ALL: [Category; 7] = [
        Category::Registry,
        Category::Ets,
        Category::Mnesia,
        Category::SpawnRegister,
        Category::Global,
        Category::PersistentTerm,
        Category::ApplicationEnv,
    ];

    pub fn info(self) -> &'static CategoryInfo {
        &INFOS[self as usize]
    }

    pub fn code(self) -> &'static str {
        self.info().code
    }

    /// The snake_case name used in JSON and on the command line.
    pub fn as_str(self) -> &'static str {
        self.info().name
    }

    pub fn parse(s: &str) -> Option<Category> {
        Category::ALL
            .into_iter()
            .find(|c| c.as_str() == s || c.code().eq_ignore_ascii_case(s))
    }

    pub fn set(self) -> CatSet {
        CatSet::one(self)
    }

    /// The two calls the category pairs, as Markdown (`ets:lookup/2`, ...,
    /// then `ets:insert/2`, ...), from [`OPS`].
    pub fn calls_markdown(self) -> String {
        let list = |read: bool| {
            // One entry per function, its arities joined (`dirty_read/1,2`).
            let mut funs: Vec<(&str, &str, Vec<u32>)> = Vec::new();
            for op in OPS.iter().filter(|o| o.category == self) {
                if (read && op.reads) || (!read && op.writes) {
                    match funs
                        .iter_mut()
                        .find(|(m, f, _)| *m == op.module && *f == op.name)
                    {
                        Some((_, _, a)) => a.extend_from_slice(op.arities),
                        None => funs.push((op.module, op.name, op.arities.to_vec())),
                    }
                }
            }
            let mut out: Vec<String> = funs
                .into_iter()
                .map(|(m, f, a)| {
                    let a: Vec<String> = a.iter().map(u32::to_string).collect();
                    format!("`{m}:{f}/{}`", a.join(","))
                })
                .collect();
            if self == Category::SpawnRegister && read {
                out.push("`erlang:spawn/1,3` (or `spawn_link`, ...)".to_string());
            }
            match out.split_last() {
                Some((last, rest)) if !rest.is_empty() => {
                    format!("{} or {last}", rest.join(", "))
                }
                _ => out.concat(),
            }
        };
        let suffix = if self == Category::SpawnRegister {
            " of the new pid"
        } else {
            ""
        };
        format!("{}, then {}{suffix}", list(true), list(false))
    }
}

/// Where, in a call's arguments, the item an operation touches is.
/// Argument positions are 0-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// A name at argument `i` (registry, global, persistent_term).
    Name(usize),
    /// Every name at once (`registered/0`).
    AllNames,
    /// A table and one key.
    Key { table: usize, key: usize },
    /// A table and the objects (a tuple or a list of tuples) at `objs`: their keys.
    Objects { table: usize, objs: usize },
    /// A table and a match pattern: the keys it can match.
    Pattern { table: usize, pat: usize },
    /// A table and a match specification: the keys its heads can match.
    Spec { table: usize, spec: usize },
    /// Every object of the table.
    Whole { table: usize },
    /// `ets:info(Tab, What)`: the whole table when `What` may be `size`
    /// (the other items are the table's settings, not its objects).
    Info { table: usize, what: usize },
    /// mnesia `{Tab, Key}` at argument `i`.
    TabKey(usize),
    /// mnesia: a record (or pattern) at `rec`, of the table at `table`
    /// (`None`: the record's name), keyed by its second element.
    Record { table: Option<usize>, rec: usize },
    /// An application and a key (the application plays the table).
    AppKey { app: usize, key: usize },
    /// The name in a `{Scope, Name}` at argument `arg` (the server name a
    /// `gen_server:start_link({local, Name}, ...)` registers): only terms
    /// of that shape with this scope give a name, so a start under another
    /// scope or none touches no name of this category.
    ScopedName { arg: usize, scope: &'static str },
    /// The pid a process start returns.
    Spawned,
    /// The pid argument of `register/2`.
    RegisteredPid(usize),
}

/// One operation on shared state.
#[derive(Clone, Copy, Debug)]
pub struct Op {
    pub category: Category,
    pub module: &'static str,
    pub name: &'static str,
    pub arities: &'static [u32],
    pub reads: bool,
    pub writes: bool,
    /// Reads and writes in one step no other process can come between
    /// (`ets:update_counter/3`): paired with itself at the same site it is
    /// no race.
    pub atomic: bool,
    pub shape: Shape,
}

const fn read(
    category: Category,
    module: &'static str,
    name: &'static str,
    arities: &'static [u32],
    shape: Shape,
) -> Op {
    Op {
        category,
        module,
        name,
        arities,
        reads: true,
        writes: false,
        atomic: false,
        shape,
    }
}

const fn write(
    category: Category,
    module: &'static str,
    name: &'static str,
    arities: &'static [u32],
    shape: Shape,
) -> Op {
    Op {
        category,
        module,
        name,
        arities,
        reads: false,
        writes: true,
        atomic: false,
        shape,
    }
}

/// Reads and writes atomically (its own result is fresh).
const fn update(
    category: Category,
    module: &'static str,
    name: &'static str,
    arities: &'static [u32],
    shape: Shape,
) -> Op {
    Op {
        category,
        module,
        name,
        arities,
        reads: true,
        writes: true,
        atomic: true,
        shape,
    }
}

use Category as C;
use Shape as S;

const ETS_KEY: Shape = S::Key { table: 0, key: 1 };
const ETS_WHOLE: Shape = S::Whole { table: 0 };
const LOCAL_NAME: Shape = S::ScopedName {
    arg: 0,
    scope: "local",
};
const GLOBAL_NAME: Shape = S::ScopedName {
    arg: 0,
    scope: "global",
};

/// Reads that raise (`badarg`) when the item they read is absent, instead
/// of answering that it is: code after one runs only when the item was
/// there, as after a match on a lookup's answer. (`ets:update_counter/3`
/// raises too, but it writes what it read in the same step: what follows
/// acts on a fresh count, not on a stale look.)
static RAISE_WHEN_ABSENT: &[(&str, &str, u32)] =
    &[("ets", "lookup_element", 3), ("persistent_term", "get", 1)];

/// Whether `mfa` is one of the reads that raise for an absent item.
pub fn raises_when_absent(mfa: &MFA) -> bool {
    RAISE_WHEN_ABSENT
        .iter()
        .any(|&(m, f, a)| mfa.module == m && mfa.name == f && mfa.arity == a)
}

/// Every operation on shared state the pass knows.
pub static OPS: &[Op] = &[
    // R001: the local registry.
    read(C::Registry, "erlang", "whereis", &[1], S::Name(0)),
    read(C::Registry, "erlang", "registered", &[0], S::AllNames),
    write(C::Registry, "erlang", "register", &[2], S::Name(0)),
    write(C::Registry, "erlang", "unregister", &[1], S::Name(0)),
    // Starting a behaviour process under `{local, Name}` registers Name:
    // checking the name first and starting only when it is free is the
    // same check-then-act as `whereis` then `register/2` (the loser gets
    // `{error, {already_started, Pid}}` instead of `badarg`).
    write(C::Registry, "gen_server", "start", &[4], LOCAL_NAME),
    write(C::Registry, "gen_server", "start_link", &[4], LOCAL_NAME),
    write(C::Registry, "gen_server", "start_monitor", &[4], LOCAL_NAME),
    write(C::Registry, "gen_statem", "start", &[4], LOCAL_NAME),
    write(C::Registry, "gen_statem", "start_link", &[4], LOCAL_NAME),
    write(C::Registry, "gen_statem", "start_monitor", &[4], LOCAL_NAME),
    write(C::Registry, "gen_fsm", "start", &[4], LOCAL_NAME),
    write(C::Registry, "gen_fsm", "start_link", &[4], LOCAL_NAME),
    write(C::Registry, "gen_event", "start", &[1, 2], LOCAL_NAME),
    write(C::Registry, "gen_event", "start_link", &[1, 2], LOCAL_NAME),
    write(C::Registry, "supervisor", "start_link", &[3], LOCAL_NAME),
    // R002: ETS. Reads of one key, of the keys a pattern matches, of the whole table.
    read(C::Ets, "ets", "lookup", &[2], ETS_KEY),
    read(C::Ets, "ets", "lookup_element", &[3, 4], ETS_KEY),
    read(C::Ets, "ets", "member", &[2], ETS_KEY),
    read(
        C::Ets,
        "ets",
        "match",
        &[2, 3],
        S::Pattern { table: 0, pat: 1 },
    ),
    read(
        C::Ets,
        "ets",
        "match_object",
        &[2, 3],
        S::Pattern { table: 0, pat: 1 },
    ),
    read(
        C::Ets,
        "ets",
        "select",
        &[2, 3],
        S::Spec { table: 0, spec: 1 },
    ),
    read(
        C::Ets,
        "ets",
        "select_count",
        &[2],
        S::Spec { table: 0, spec: 1 },
    ),
    read(C::Ets, "ets", "first", &[1], ETS_WHOLE),
    read(C::Ets, "ets", "last", &[1], ETS_WHOLE),
    read(C::Ets, "ets", "next", &[2], ETS_WHOLE),
    read(C::Ets, "ets", "prev", &[2], ETS_WHOLE),
    read(C::Ets, "ets", "tab2list", &[1], ETS_WHOLE),
    read(C::Ets, "ets", "info", &[2], S::Info { table: 0, what: 1 }),
    // Writes.
    write(
        C::Ets,
        "ets",
        "insert",
        &[2],
        S::Objects { table: 0, objs: 1 },
    ),
    write(
        C::Ets,
        "ets",
        "insert_new",
        &[2],
        S::Objects { table: 0, objs: 1 },
    ),
    write(C::Ets, "ets", "update_element", &[3, 4], ETS_KEY),
    write(C::Ets, "ets", "delete", &[2], ETS_KEY),
    write(
        C::Ets,
        "ets",
        "delete_object",
        &[2],
        S::Objects { table: 0, objs: 1 },
    ),
    write(
        C::Ets,
        "ets",
        "select_delete",
        &[2],
        S::Spec { table: 0, spec: 1 },
    ),
    write(
        C::Ets,
        "ets",
        "select_replace",
        &[2],
        S::Spec { table: 0, spec: 1 },
    ),
    write(
        C::Ets,
        "ets",
        "match_delete",
        &[2],
        S::Pattern { table: 0, pat: 1 },
    ),
    write(C::Ets, "ets", "delete_all_objects", &[1], ETS_WHOLE),
    // Both at once: the value they return is fresh, what follows may not be.
    update(C::Ets, "ets", "update_counter", &[3, 4], ETS_KEY),
    update(C::Ets, "ets", "take", &[2], ETS_KEY),
    // R003: mnesia dirty operations.
    read(C::Mnesia, "mnesia", "dirty_read", &[1], S::TabKey(0)),
    // As `ets:update_counter/3`: atomic in itself, but a write that acts on
    // the value it returns (a wrap-around, a reset) races with the others.
    update(
        C::Mnesia,
        "mnesia",
        "dirty_update_counter",
        &[2],
        S::TabKey(0),
    ),
    update(
        C::Mnesia,
        "mnesia",
        "dirty_update_counter",
        &[3],
        S::Key { table: 0, key: 1 },
    ),
    read(
        C::Mnesia,
        "mnesia",
        "dirty_read",
        &[2],
        S::Key { table: 0, key: 1 },
    ),
    read(
        C::Mnesia,
        "mnesia",
        "dirty_match_object",
        &[1],
        S::Record {
            table: None,
            rec: 0,
        },
    ),
    read(
        C::Mnesia,
        "mnesia",
        "dirty_match_object",
        &[2],
        S::Record {
            table: Some(0),
            rec: 1,
        },
    ),
    write(
        C::Mnesia,
        "mnesia",
        "dirty_write",
        &[1],
        S::Record {
            table: None,
            rec: 0,
        },
    ),
    write(
        C::Mnesia,
        "mnesia",
        "dirty_write",
        &[2],
        S::Record {
            table: Some(0),
            rec: 1,
        },
    ),
    write(C::Mnesia, "mnesia", "dirty_delete", &[1], S::TabKey(0)),
    write(
        C::Mnesia,
        "mnesia",
        "dirty_delete",
        &[2],
        S::Key { table: 0, key: 1 },
    ),
    // R004: the read is any process start that returns the pid (see `classify`).
    write(
        C::SpawnRegister,
        "erlang",
        "register",
        &[2],
        S::RegisteredPid(1),
    ),
    // R005: global names.
    read(C::Global, "global", "whereis_name", &[1], S::Name(0)),
    write(C::Global, "global", "register_name", &[2, 3], S::Name(0)),
    write(C::Global, "gen_server", "start", &[4], GLOBAL_NAME),
    write(C::Global, "gen_server", "start_link", &[4], GLOBAL_NAME),
    write(C::Global, "gen_statem", "start", &[4], GLOBAL_NAME),
    write(C::Global, "gen_statem", "start_link", &[4], GLOBAL_NAME),
    write(C::Global, "supervisor", "start_link", &[3], GLOBAL_NAME),
    // R006: persistent terms.
    read(
        C::PersistentTerm,
        "persistent_term",
        "get",
        &[1, 2],
        S::Name(0),
    ),
    write(
        C::PersistentTerm,
        "persistent_term",
        "put",
        &[2],
        S::Name(0),
    ),
    write(
        C::PersistentTerm,
        "persistent_term",
        "erase",
        &[1],
        S::Name(0),
    ),
    // R007: application environment.
    read(
        C::ApplicationEnv,
        "application",
        "get_env",
        &[2, 3],
        S::AppKey { app: 0, key: 1 },
    ),
    write(
        C::ApplicationEnv,
        "application",
        "set_env",
        &[3, 4],
        S::AppKey { app: 0, key: 1 },
    ),
    write(
        C::ApplicationEnv,
        "application",
        "unset_env",
        &[2, 3],
        S::AppKey { app: 0, key: 1 },
    ),
];

/// The read of a process start (spawn_register).
static SPAWN_READ: Op = Op {
    category: C::SpawnRegister,
    module: "erlang",
    name: "spawn",
    arities: &[],
    reads: true,
    writes: false,
    atomic: false,
    shape: S::Spawned,
};

/// (module, function, arity).
type OpKey = (&'static str, &'static str, u32);

/// [`OPS`] by (module, function, arity).
static BY_MFA: LazyLock<FxHashMap<OpKey, Vec<&'static Op>>> = LazyLock::new(|| {
    let mut m: FxHashMap<_, Vec<&'static Op>> = FxHashMap::default();
    for op in OPS {
        for &a in op.arities {
            m.entry((op.module, op.name, a)).or_default().push(op);
        }
    }
    m
});

/// The operations a call performs (one per category it touches).
pub fn ops_of(mfa: &MFA) -> Vec<&'static Op> {
    let mut out: Vec<&'static Op> = BY_MFA
        .get(&(mfa.module.as_str(), mfa.name.as_str(), mfa.arity))
        .cloned()
        .unwrap_or_default();
    if let Some(start) = start_of(mfa)
        && (start.returns_pid || mfa.name == "spawn_monitor")
    {
        out.push(&SPAWN_READ);
    }
    out
}

/// The operation of category `c` a call performs.
pub fn op_of(mfa: &MFA, c: Category) -> Option<&'static Op> {
    ops_of(mfa).into_iter().find(|o| o.category == c)
}

/// The categories a call reads and writes.
pub fn classify(mfa: &MFA) -> (CatSet, CatSet) {
    let mut reads = CatSet::EMPTY;
    let mut writes = CatSet::EMPTY;
    for op in ops_of(mfa) {
        if op.reads {
            reads |= op.category.set();
        }
        if op.writes {
            writes |= op.category.set();
        }
    }
    (reads, writes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mfa(m: &str, f: &str, a: u32) -> MFA {
        MFA {
            module: m.into(),
            name: f.into(),
            arity: a,
        }
    }

    #[test]
    fn every_category_has_its_row_and_reads_and_writes() {
        for (i, c) in Category::ALL.into_iter().enumerate() {
            assert_eq!(c as usize, i);
            assert_eq!(c.info().category, c);
            let writes = OPS.iter().any(|o| o.category == c && o.writes);
            let reads = OPS.iter().any(|o| o.category == c && o.reads);
            assert!(writes, "{c:?} has no write");
            assert!(reads || c == Category::SpawnRegister, "{c:?} has no read");
        }
    }

    #[test]
    fn the_ets_api_is_classified() {
        let r = |f: &str, a: u32| classify(&mfa("ets", f, a));
        let ets = Category::Ets.set();
        for (f, a) in [
            ("lookup", 2),
            ("lookup_element", 3),
            ("member", 2),
            ("match", 2),
            ("match_object", 2),
            ("select", 2),
            ("first", 1),
            ("next", 2),
            ("last", 1),
            ("prev", 2),
            ("tab2list", 1),
            ("info", 2),
        ] {
            assert_eq!(r(f, a), (ets, CatSet::EMPTY), "{f}/{a}");
        }
        for (f, a) in [
            ("insert", 2),
            ("insert_new", 2),
            ("update_element", 3),
            ("delete", 2),
            ("delete_object", 2),
            ("select_delete", 2),
            ("select_replace", 2),
            ("match_delete", 2),
            ("delete_all_objects", 1),
        ] {
            assert_eq!(r(f, a), (CatSet::EMPTY, ets), "{f}/{a}");
        }
        for (f, a) in [("update_counter", 3), ("update_counter", 4), ("take", 2)] {
            assert_eq!(r(f, a), (ets, ets), "{f}/{a}");
        }
        assert_eq!(r("new", 2), (CatSet::EMPTY, CatSet::EMPTY));
    }

    #[test]
    fn register_writes_two_categories_and_spawn_reads_one() {
        let (r, w) = classify(&mfa("erlang", "register", 2));
        assert!(r.is_empty());
        assert!(w.contains(Category::Registry) && w.contains(Category::SpawnRegister));
        let (r, _) = classify(&mfa("erlang", "spawn", 1));
        assert_eq!(r, Category::SpawnRegister.set());
    }

    #[test]
    fn calls_text_comes_from_the_table() {
        let t = Category::Registry.calls_markdown();
        assert_eq!(
            t,
            "`erlang:whereis/1` or `erlang:registered/0`, then `erlang:register/2`, `erlang:unregister/1`, `gen_server:start/4`, `gen_server:start_link/4`, `gen_server:start_monitor/4`, `gen_statem:start/4`, `gen_statem:start_link/4`, `gen_statem:start_monitor/4`, `gen_fsm:start/4`, `gen_fsm:start_link/4`, `gen_event:start/1,2`, `gen_event:start_link/1,2` or `supervisor:start_link/3`"
        );
    }

    #[test]
    fn a_start_under_a_name_writes_that_name_only() {
        use crate::ets::Tables;
        use crate::values::{Origin, Term, Val};
        let start = mfa("gen_server", "start_link", 4);
        let (_, w) = classify(&start);
        assert!(w.contains(Category::Registry) && w.contains(Category::Global));
        let op = op_of(&start, Category::Registry).unwrap();
        let a = |s: &str| Term::Atom(s.into());
        let origin = Origin {
            module: 0,
            site: racewit_syntax::ir::CallSiteId(0),
        };
        let name =
            |v: Term| crate::ops::item(op, 4, &[Val::one(v)], origin, &Tables::default(), 16);
        assert_eq!(
            name(Term::Tuple(vec![a("local"), a("srv")])),
            crate::ops::Item::Name(Val::one(a("srv")))
        );
        // A start under a global name or none touches no local name.
        assert_eq!(
            name(Term::Tuple(vec![a("global"), a("srv")])),
            crate::ops::Item::Nothing
        );
        assert_eq!(name(a("mod")), crate::ops::Item::Nothing);
        // mnesia's counter update reads and writes, as ets:update_counter does.
        let m = classify(&mfa("mnesia", "dirty_update_counter", 2));
        assert_eq!(m, (Category::Mnesia.set(), Category::Mnesia.set()));
    }
}
