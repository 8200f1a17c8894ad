//! What the static pass reports: [`Suspect`]s and the [`Analysis`] holding them.

use std::collections::BTreeMap;

use racewit_syntax::ir::{CallSiteId, MFA, Name};
use racewit_syntax::source::Span;
use serde::Serialize;

pub use crate::catalog::{Category, ResourceKind};

/// One end of a race: a read or write call.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Access {
    /// `erlang:whereis/1`.
    pub call: String,
    /// Module holding the call.
    pub module: Name,
    /// The call site, unique within `module`.
    pub site: CallSiteId,
    #[serde(skip)]
    pub span: Span,
    /// `mod:f/a` (or `mod:'-f/a-fun-N-'/A`) holding the call.
    pub function: String,
    pub file: String,
    pub line: u32,
    pub column: u32,
}

/// A set of possible values of one part of a shared item.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ValueSet {
    /// Values printed as Erlang terms (empty when `any`).
    pub values: Vec<String>,
    /// Not known precisely (widened, or from outside the program).
    pub any: bool,
}

/// The shared item both calls touch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Resource {
    /// `registered_name`, `ets_object`, `mnesia_record`, `spawned_pid`,
    /// `global_name`, `persistent_term`, `application_env` (the category's
    /// [`crate::catalog::CategoryInfo::resource`]).
    pub kind: ResourceKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<ValueSet>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table: Option<ValueSet>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<ValueSet>,
    /// `name ∈ {ct_master}`, `table ∈ {counters}, key ∈ {hits}`.
    pub display: String,
}

/// How one hop of a path moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HopKind {
    /// The read itself.
    Read,
    /// A call entered (the callee runs, then returns here).
    Call,
    /// The function returned to a caller, at this call site.
    Return,
    /// A new process started here runs the next hops.
    Spawn,
    /// A server process handles a request sent here (`gen_server:call/cast`).
    Serve,
    /// The write.
    Write,
}

/// One step of the path from read to write.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Hop {
    pub kind: HopKind,
    /// The function the hop's call is in.
    pub function: String,
    /// The function called, spawned or returned from, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub call: Option<String>,
    pub file: String,
    pub line: u32,
    pub column: u32,
}

/// What is known of one argument of an entry function.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ArgHint {
    /// One of these atoms.
    Atoms { values: Vec<String> },
    /// One of these integers.
    Integers { values: Vec<i64> },
    /// One of these terms (printed as Erlang).
    Terms { values: Vec<String> },
    /// Nothing known.
    Unknown,
}

/// An exported function the race is reachable from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Entry {
    /// Serialized as `"mod:f/1"`.
    #[serde(serialize_with = "mfa_text")]
    pub mfa: MFA,
    pub args: Vec<ArgHint>,
}

/// An [`MFA`] as the text `mod:f/1`.
fn mfa_text<S: serde::Serializer>(m: &MFA, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(m)
}

/// What cut a search short or ended one of its paths, each counted. A
/// search that hit none of them explored every path the pass models.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Limits {
    /// The search stopped at its state budget (`--search-budget`).
    pub budget: usize,
    /// Callers not climbed to: the read's value reached a function more
    /// levels above the read than a search climbs.
    pub depth: usize,
    /// Calls of a fun that no value in the program names: the path ends.
    pub unknown_funs: usize,
    /// Calls too vague to follow (`M:F(...)` with nothing known of `M`, or
    /// naming more functions than are followed): the path ends.
    pub vague_calls: usize,
    /// Deep calls whose summary of the writes they reach stopped at its size.
    pub summary: usize,
}

impl Limits {
    pub fn is_zero(&self) -> bool {
        *self == Limits::default()
    }

    pub fn add(&mut self, o: &Limits) {
        self.budget += o.budget;
        self.depth += o.depth;
        self.unknown_funs += o.unknown_funs;
        self.vague_calls += o.vague_calls;
        self.summary += o.summary;
    }
}

/// Where a read→write pair's read-modify-write happens: the function in
/// which the read's value meets the write, i.e. the read's own function or
/// the caller above it that the path returned to (`lager:add_trace/2`
/// calling a `get` helper, then a `set` helper). One pair of helper
/// operations used by several functions has one window in each.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Window {
    /// Module of the window's function.
    pub module: Name,
    /// Line where the read's value arrives in it: the call the path
    /// returned to, or the read itself.
    pub line: u32,
    /// The pair has other windows (other suspects with the same read and
    /// write): the window is what tells this one apart, so it is shown.
    pub shared: bool,
}

/// A read→write pair on the same shared item, joined by a control-flow path.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Suspect {
    /// Stable: `R001:ct_master:238:240` (category code, module of the read,
    /// read line, [write module,] write line; `:cC:C` columns when needed;
    /// `:w:M:L` the [`Window`] when the pair has several).
    pub id: String,
    pub category: Category,
    pub code: &'static str,
    pub read: Access,
    pub write: Access,
    pub resource: Resource,
    pub path: Vec<Hop>,
    pub entries: Vec<Entry>,
    /// Functions that create what the race needs (`ets:new`, `mnesia:create_table`).
    pub setup: Vec<String>,
    pub message: String,
    /// The limits the search from the read met (it may have missed other
    /// writes); absent when it met none.
    #[serde(skip_serializing_if = "Limits::is_zero")]
    pub limits: Limits,
    /// The window (also the last `return` hop of `path`, or the read).
    #[serde(skip)]
    pub window: Window,
}

/// Counts of one run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Stats {
    pub modules: usize,
    pub functions: usize,
    /// `fun` expressions analysed as units of their own.
    pub funs: usize,
    pub call_graph_nodes: usize,
    pub call_graph_edges: usize,
    /// Rounds of the value fixpoint.
    pub dataflow_rounds: usize,
    pub reads: usize,
    pub writes: usize,
    /// Forward searches cut short by the state budget.
    pub truncated_searches: usize,
    /// Searches that met some limit ([`Limits`]): each may have missed writes.
    pub searches_cut: usize,
    /// Every limit met, summed over the searches.
    pub limits: Limits,
    /// The same per function holding the read (`mod:f/a`), for the
    /// functions whose searches met some limit.
    pub limits_per_function: BTreeMap<String, Limits>,
    /// Read→write pairs found but dropped by a filter (names/keys never equal,
    /// table not public, spawned process cannot exit first).
    pub filtered: usize,
    /// Pairs whose read or write is in test or example code, not reported
    /// (`--include-tests` reports them).
    pub test_pairs: usize,
    pub suspects: usize,
    pub per_category: BTreeMap<String, usize>,
    /// Per application (the `app` of `.../app-VSN/src/x.erl`, else the
    /// file's directory), per category.
    pub per_application: BTreeMap<String, BTreeMap<String, usize>>,
}

/// The result of [`crate::find_suspects`].
#[derive(Clone, Debug, Default, Serialize)]
pub struct Analysis {
    /// Sorted by file, read line, write line, category; ids unique.
    pub suspects: Vec<Suspect>,
    pub stats: Stats,
    /// Wall time of each pass in milliseconds (for the bench; not serialized,
    /// since it is not deterministic).
    #[serde(skip)]
    pub timings: Vec<(&'static str, u128)>,
}
