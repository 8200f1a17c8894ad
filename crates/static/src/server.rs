//! OTP behaviours as data: which callbacks a server process runs, which
//! of their parameters hold the server's state, and where the state is in
//! what they return. The value analysis feeds the state `init/1` and every
//! callback return to the callbacks that receive it (how a table created in
//! `init/1` reaches `handle_call/3`); the precision rules use the
//! callbacks to know which code runs only in one server process.

use racewit_syntax::ir::{Module, Name};

use crate::values::{Term, Val};

/// An OTP behaviour whose callbacks run in one server process.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Behaviour {
    GenServer,
    GenStatem,
    GenEvent,
}

/// A callback that receives the state: name, arity, the state's parameter.
pub struct Callback {
    pub name: &'static str,
    pub arity: u32,
    pub state: u32,
}

const fn cb(name: &'static str, arity: u32, state: u32) -> Callback {
    Callback { name, arity, state }
}

const GEN_SERVER: &[Callback] = &[
    cb("handle_call", 3, 2),
    cb("handle_cast", 2, 1),
    cb("handle_info", 2, 1),
    cb("handle_continue", 2, 1),
    cb("terminate", 2, 1),
    cb("code_change", 3, 1),
];

const GEN_STATEM: &[Callback] = &[
    cb("handle_event", 4, 3),
    cb("terminate", 3, 2),
    cb("code_change", 4, 2),
];

const GEN_EVENT: &[Callback] = &[
    cb("handle_event", 2, 1),
    cb("handle_call", 2, 1),
    cb("handle_info", 2, 1),
    cb("terminate", 2, 1),
    cb("code_change", 3, 1),
];

impl Behaviour {
    /// The behaviour a module implements: its `-behaviour` attribute, or
    /// the callbacks it defines (`init/1` with `handle_call/3`).
    pub fn of(m: &Module) -> Option<Behaviour> {
        for b in &m.behaviours {
            match b.as_str() {
                "gen_server" => return Some(Behaviour::GenServer),
                "gen_statem" => return Some(Behaviour::GenStatem),
                "gen_event" => return Some(Behaviour::GenEvent),
                _ => {}
            }
        }
        let has = |n: &str, a: u32| m.function(n, a).is_some_and(|f| f.exported);
        if has("init", 1) && has("handle_call", 3) && has("handle_cast", 2) {
            return Some(Behaviour::GenServer);
        }
        None
    }

    /// The behaviour whose loop a `gen_server:enter_loop` (or
    /// `gen_statem:enter_loop`) call turns the calling process into, with
    /// the argument index of the module and of the server name the call
    /// may give (`{local, Name}`: the call fails unless the process is
    /// registered so). The module's callbacks then run in that process,
    /// whether or not it declares the behaviour.
    pub fn entered_loop(mfa: &racewit_syntax::ir::MFA) -> Option<(Behaviour, usize, usize)> {
        match (mfa.module.as_str(), mfa.name.as_str(), mfa.arity) {
            ("gen_server", "enter_loop", 3..=5) => Some((Behaviour::GenServer, 0, 3)),
            ("gen_statem", "enter_loop", 4..=6) => Some((Behaviour::GenStatem, 0, 4)),
            _ => None,
        }
    }

    /// The callbacks (other than `init/1`) that receive the state.
    pub fn callbacks(self) -> &'static [Callback] {
        match self {
            Behaviour::GenServer => GEN_SERVER,
            Behaviour::GenStatem => GEN_STATEM,
            Behaviour::GenEvent => GEN_EVENT,
        }
    }

    /// A function the server process runs on the behaviour's behalf:
    /// `init/1`, a callback, or (gen_statem) a state function `Name/3`.
    pub fn is_callback(self, name: &str, arity: u32) -> bool {
        (name == "init" && arity == 1)
            || self
                .callbacks()
                .iter()
                .any(|c| c.name == name && c.arity == arity)
            || (self == Behaviour::GenStatem
                && arity == 3
                && !matches!(name, "callback_mode" | "format_status"))
    }

    /// The parameter holding the state in callback `name/arity`
    /// (gen_statem state functions: their data, the third).
    pub fn state_param(self, name: &str, arity: u32) -> Option<u32> {
        if let Some(c) = self
            .callbacks()
            .iter()
            .find(|c| c.name == name && c.arity == arity)
        {
            return Some(c.state);
        }
        (self == Behaviour::GenStatem && arity == 3 && name != "init").then_some(2)
    }

    /// The states a callback's return value carries, joined into `out`.
    pub fn states_returned(self, ret: &Val, limit: usize, out: &mut Val) {
        for t in ret.iter() {
            let Term::Tuple(ts) = t else {
                continue;
            };
            let Some(Term::Atom(tag)) = ts.first() else {
                continue;
            };
            for i in self.state_positions(tag, ts.len()) {
                if let Some(s) = ts.get(*i) {
                    out.join_in(&Val::one(s.clone()), limit);
                }
            }
        }
    }

    /// Where the state is in a returned tuple with this tag and size.
    fn state_positions(self, tag: &Name, len: usize) -> &'static [usize] {
        match (self, tag.as_str(), len) {
            (Behaviour::GenServer, "ok", 2 | 3) => &[1],
            (Behaviour::GenServer, "reply", 3 | 4) => &[2],
            (Behaviour::GenServer, "noreply", 2 | 3) => &[1],
            (Behaviour::GenServer, "stop", 3) => &[2],
            (Behaviour::GenServer, "stop", 4) => &[3],
            (Behaviour::GenStatem, "ok", 3 | 4) => &[2],
            (Behaviour::GenStatem, "next_state", 3 | 4) => &[2],
            (Behaviour::GenStatem, "keep_state" | "repeat_state", 2 | 3) => &[1],
            (Behaviour::GenStatem, "stop", 3) => &[2],
            (Behaviour::GenStatem, "stop_and_reply", 4) => &[3],
            (Behaviour::GenEvent, "ok", 2) => &[1],
            // `{ok, Reply, State}` from handle_call/2, `{ok, State, hibernate}`
            // from the others.
            (Behaviour::GenEvent, "ok", 3) => &[1, 2],
            _ => &[],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_come_out_of_returns_by_tag() {
        let a = |s: &str| Term::Atom(s.into());
        let ret = Val::from_terms(
            [
                Term::Tuple(vec![a("reply"), a("ok"), a("s1")]),
                Term::Tuple(vec![a("noreply"), a("s2")]),
                Term::Tuple(vec![a("stop"), a("normal"), a("ok"), a("s3")]),
                a("ignore"),
            ],
            16,
        );
        let mut out = Val::bottom();
        Behaviour::GenServer.states_returned(&ret, 16, &mut out);
        assert_eq!(out, Val::from_terms([a("s1"), a("s2"), a("s3")], 16));
        assert_eq!(Behaviour::GenServer.state_param("handle_call", 3), Some(2));
        assert_eq!(Behaviour::GenStatem.state_param("idle", 3), Some(2));
        assert!(Behaviour::GenStatem.is_callback("idle", 3));
        assert!(!Behaviour::GenServer.is_callback("idle", 3));
    }
}
