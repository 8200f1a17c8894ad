//! Built-in functions implemented in Rust (those the BEAM implements in C):
//! `erlang`, `lists` (the non-higher-order ones), `maps`, `ets`, `io`,
//! `io_lib`, `mnesia` dirty operations, the NIFs of `re`. Pure BIFs also
//! run in guards.

use std::sync::OnceLock;

use racewit_syntax::Span;
use racewit_syntax::ir::{CallSiteId, Name};

use crate::atom::Atom;
use crate::code::{BifNames, Target};
use crate::event::{Access, Event, EventKind, Exception, SharedItem};
use crate::process::Process;
use crate::term::{Pid, Term};
use crate::vm::Vm;

mod binary;
mod checksum;
pub(crate) mod clock;
mod code_loading;
pub(crate) mod counters;
mod crypto;
mod erlang;
mod erts_internal;
mod etf;
mod ets;
mod files;
pub(crate) mod global;
pub(crate) mod io;
mod lists;
mod maps;
mod match_spec;
mod math;
mod mnesia;
mod module_info;
mod node_env;
mod persistent_term;
mod re;
mod spawn_request;
mod timers;
mod trace;
mod world;

pub use crate::code::{Bif, BifKind, CtxBif, PureFn};
pub type CtxFn = fn(&mut Ctx<'_>, &[Term]) -> Flow;

/// What a context BIF asks the interpreter to do.
pub enum Flow {
    Value(Term),
    Raise(Exception),
    /// Call a fun with arguments; its value is the BIF's value.
    Apply(Term, Vec<Term>),
    /// Call a resolved target with arguments.
    Call(Target, Vec<Term>),
    /// Stop the process at an unsupported call.
    Park(String),
    /// Stop the process at a call, for the reason given (e.g. it would
    /// touch the host).
    ParkWith(crate::library::ParkReason, String),
    /// The calling process exits now with this reason.
    Exit(Term),
    /// The run cannot go on: one of its limits was reached here.
    Stop(crate::vm::VmError),
}

impl Flow {
    pub fn badarg() -> Flow {
        Flow::Raise(Exception::error(Term::Atom(Atom::BADARG)))
    }
    pub fn error(reason: Term) -> Flow {
        Flow::Raise(Exception::error(reason))
    }
}

/// What a context BIF may touch: the VM and the calling process.
pub struct Ctx<'a> {
    pub vm: &'a mut Vm,
    pub proc: &'a mut Process,
    pub event: Option<Event>,
    pub site: Option<(Name, CallSiteId)>,
    pub span: Option<Span>,
}

impl Ctx<'_> {
    pub fn pid(&self) -> Pid {
        self.proc.pid
    }

    /// Record the visible action of this call.
    pub fn emit(&mut self, kind: EventKind, text: String) -> &mut Event {
        let mut ev = Event::new(self.proc.pid, kind, text);
        ev.site = self.site.clone();
        ev.span = self.span;
        self.event = Some(ev);
        self.event.as_mut().expect("just set")
    }

    pub fn emit_access(&mut self, kind: EventKind, text: String, item: SharedItem, access: Access) {
        let ev = self.emit(kind, text);
        ev.accesses.push((item.clone(), access));
        ev.item = Some(item);
        ev.access = Some(access);
    }

    /// Marks the step's event as one that met no table ([`Event::absent`]).
    pub fn mark_absent(&mut self) {
        if let Some(ev) = self.event.as_mut() {
            ev.absent = true;
        }
    }

    pub fn is_alive(&self, pid: Pid) -> bool {
        pid == self.proc.pid || self.vm.is_alive(pid)
    }

    /// End the run at a limit: `limit` is given the process's name and
    /// where it is.
    pub fn stop(&self, limit: impl FnOnce(String, String) -> crate::vm::VmError) -> Flow {
        Flow::Stop(limit(
            self.name_of(self.proc.pid),
            self.vm.where_running(self.proc, self.span),
        ))
    }

    /// The atom named `name`, made if it is new to this run (counted
    /// against the run's atom limit; at the limit the run ends). A name
    /// longer than the BEAM allows is `system_limit`.
    pub fn make_atom(&mut self, name: &str) -> Result<Atom, Flow> {
        if name.chars().count() > crate::limits::MAX_ATOM_CHARS {
            return Err(Flow::error(crate::limits::system_limit()));
        }
        if let Some(a) = Atom::existing(name)
            && self.vm.atoms_made.contains(&a)
        {
            return Ok(a);
        }
        if self.vm.atoms_made.len() >= self.vm.config.max_atoms {
            let limit = self.vm.config.max_atoms;
            return Err(
                self.stop(|process, location| crate::vm::VmError::TooManyAtoms {
                    process,
                    location,
                    limit,
                }),
            );
        }
        let a = Atom::new(name);
        self.vm.atoms_made.insert(a);
        self.vm.note_alloc(8 + name.len() as u64 / 8);
        Ok(a)
    }

    /// End the run: it made all the processes it may.
    pub fn too_many_processes(&self) -> Flow {
        let limit = self.vm.config.max_processes;
        self.stop(|process, location| crate::vm::VmError::TooManyProcesses {
            process,
            location,
            limit,
        })
    }

    pub fn name_of(&self, pid: Pid) -> String {
        self.vm.process_name(pid).to_string()
    }
}

/// The BIFs as they are registered: by name, and the functions of the
/// context BIFs by number (see [`CtxBif`]).
#[derive(Default)]
pub struct Table {
    names: BifNames,
    ctx: Vec<CtxFn>,
}

impl Table {
    pub fn pure(&mut self, m: &str, f: &str, arity: u32, func: PureFn) {
        self.insert(m, f, arity, BifKind::Pure(func));
    }
    pub fn ctx(&mut self, m: &str, f: &str, arity: u32, func: CtxFn) {
        let n = CtxBif(self.ctx.len() as u32);
        self.ctx.push(func);
        self.insert(m, f, arity, BifKind::Ctx(n));
    }
    fn insert(&mut self, m: &str, f: &str, arity: u32, kind: BifKind) {
        let (module, name) = (Atom::new(m), Atom::new(f));
        self.names.insert(Bif {
            module,
            name,
            arity,
            kind,
        });
    }
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = Table::default();
        erlang::register(&mut t);
        erts_internal::register(&mut t);
        etf::register(&mut t);
        lists::register(&mut t);
        maps::register(&mut t);
        ets::register(&mut t);
        match_spec::register(&mut t);
        io::register(&mut t);
        mnesia::register(&mut t);
        math::register(&mut t);
        global::register(&mut t);
        binary::register(&mut t);
        persistent_term::register(&mut t);
        node_env::register(&mut t);
        clock::register(&mut t);
        counters::register(&mut t);
        crypto::register(&mut t);
        checksum::register(&mut t);
        trace::register(&mut t);
        world::register(&mut t);
        files::register(&mut t);
        timers::register(&mut t);
        spawn_request::register(&mut t);
        re::register(&mut t);
        code_loading::register(&mut t);
        module_info::register(&mut t);
        t
    })
}

/// Every BIF by name, for the code table.
pub fn names() -> &'static BifNames {
    &table().names
}

/// The function of a context BIF.
#[inline]
pub fn ctx_fn(bif: CtxBif) -> CtxFn {
    table().ctx[bif.0 as usize]
}

pub use crate::format::hash_text;

/// `float_to_list/1`'s text.
pub fn erlang_float_to_list(f: f64) -> String {
    crate::format::float_to_list_default(f)
}

/// Fixed notation with `n` decimals, rounded as the BEAM does.
pub fn erlang_fixed_decimals(f: f64, n: usize) -> String {
    crate::format::fixed_decimals(f, n)
}

pub fn lookup(module: Atom, name: Atom, arity: u32) -> Option<Bif> {
    names().lookup(module, name, arity)
}

/// Is any BIF defined in this module?
pub fn module_known(module: Atom) -> bool {
    names().module_known(module)
}

pub use crate::code::is_racewit_module;

/// The pure BIF `erlang:Name/Arity`, if there is one (what a match
/// specification's guard calls: see [`crate::match_spec::Env`]).
pub fn erlang_pure(name: Atom, arity: u32) -> Option<PureFn> {
    match lookup(Atom::ERLANG, name, arity)?.kind {
        BifKind::Pure(f) => Some(f),
        BifKind::Ctx(_) => None,
    }
}

// ---- small argument helpers shared by the BIF modules ----

pub(crate) fn badarg() -> Term {
    Term::Atom(Atom::BADARG)
}

pub(crate) fn int_arg(t: &Term) -> Result<i64, Term> {
    t.as_int().ok_or_else(badarg)
}

pub(crate) fn atom_arg(t: &Term) -> Result<Atom, Term> {
    t.as_atom().ok_or_else(badarg)
}

pub(crate) fn list_arg(t: &Term) -> Result<Vec<Term>, Term> {
    t.list_to_vec().ok_or_else(badarg)
}

pub(crate) fn tuple2(a: Term, b: Term) -> Term {
    Term::tuple(vec![a, b])
}

/// Room asked for as a flattened output grows: an iolist or chardata that
/// shares parts can flatten to far more than it holds.
#[derive(Default)]
pub(crate) struct Grant {
    granted: usize,
}

impl Grant {
    /// `len` bytes written so far: past the grant, ask for more.
    pub(crate) fn check(&mut self, len: usize) -> Result<(), Term> {
        const STEP: usize = 1 << 16;
        if len >= self.granted {
            let need = len - self.granted + STEP;
            crate::limits::room((need / 8) as u64)?;
            self.granted += need;
        }
        Ok(())
    }
}

/// Flatten an iolist (or a binary) into bytes; chars above 255 are an error.
/// Iterative: deeply nested iolists do not use the Rust stack.
pub(crate) fn iolist_bytes(t: &Term, out: &mut Vec<u8>) -> Result<(), Term> {
    let mut stack: Vec<&Term> = vec![t];
    let mut grant = Grant::default();
    while let Some(cur) = stack.pop() {
        grant.check(out.len())?;
        match cur {
            Term::Bin(b) if b.is_binary() => out.extend_from_slice(&b.to_bytes()),
            Term::Nil => {}
            Term::Cons(c) => {
                match &c.head {
                    Term::Int(i) if (0..=255).contains(i) => out.push(*i as u8),
                    h @ (Term::Cons(_) | Term::Nil | Term::Bin(_)) => {
                        stack.push(&c.tail);
                        stack.push(h);
                        continue;
                    }
                    _ => return Err(badarg()),
                }
                stack.push(&c.tail);
            }
            _ => return Err(badarg()),
        }
    }
    Ok(())
}

/// Flatten chardata (lists of chars, binaries as UTF-8) into a String (iteratively).
pub(crate) fn chardata_string(t: &Term, out: &mut String) -> Result<(), Term> {
    let mut stack: Vec<&Term> = vec![t];
    let mut grant = Grant::default();
    while let Some(cur) = stack.pop() {
        grant.check(out.len())?;
        match cur {
            Term::Bin(b) if b.is_binary() => {
                let bytes = b.to_bytes();
                match std::str::from_utf8(&bytes) {
                    Ok(s) => out.push_str(s),
                    Err(_) => out.extend(bytes.iter().map(|&c| c as char)),
                }
            }
            Term::Nil => {}
            Term::Cons(c) => {
                match &c.head {
                    Term::Int(i) => out.push(
                        u32::try_from(*i)
                            .ok()
                            .and_then(char::from_u32)
                            .ok_or_else(badarg)?,
                    ),
                    h @ (Term::Cons(_) | Term::Nil | Term::Bin(_)) => {
                        stack.push(&c.tail);
                        stack.push(h);
                        continue;
                    }
                    _ => return Err(badarg()),
                }
                stack.push(&c.tail);
            }
            _ => return Err(badarg()),
        }
    }
    Ok(())
}
