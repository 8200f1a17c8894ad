//! Calls that start a process and the work they hand to it: the fun or
//! `M:F(A...)` of `spawn*`/`proc_lib`, and the `init/1` that `gen_server`,
//! `gen_statem`, `gen_fsm`, `supervisor` and `supervisor_bridge` starts run.

use racewit_syntax::ir::MFA;

/// Where, among a start call's arguments, the new process's work is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StartShape {
    /// `spawn(Fun)`-like: argument index of the fun.
    Fun { fun: usize },
    /// `spawn(M, F, Args)`-like: argument indexes.
    Mfa { m: usize, f: usize, a: usize },
    /// `gen_server:start(Mod, Args, Opts)`-like: `Mod:init(Args)`.
    Init { m: usize, arg: usize },
}

/// What a start call does: how the child runs, and whether the call returns its pid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Start {
    pub shape: StartShape,
    /// The call's value is the new pid (`spawn*`), or a tuple holding it
    /// (`spawn_monitor`), rather than `{ok, Pid}` or a reply.
    pub returns_pid: bool,
}

/// The start shape of a call target, if it starts a process.
pub fn start_of(mfa: &MFA) -> Option<Start> {
    use StartShape::*;
    let a = mfa.arity;
    let shape_pid = |shape| {
        Some(Start {
            shape,
            returns_pid: true,
        })
    };
    let shape_other = |shape| {
        Some(Start {
            shape,
            returns_pid: false,
        })
    };
    match (mfa.module.as_str(), mfa.name.as_str()) {
        ("erlang", "spawn" | "spawn_link") | ("proc_lib", "spawn" | "spawn_link") => match a {
            1 => shape_pid(Fun { fun: 0 }),
            2 => shape_pid(Fun { fun: 1 }),
            3 => shape_pid(Mfa { m: 0, f: 1, a: 2 }),
            4 => shape_pid(Mfa { m: 1, f: 2, a: 3 }),
            _ => None,
        },
        ("erlang", "spawn_monitor") => match a {
            1 => shape_other(Fun { fun: 0 }),
            2 => shape_other(Fun { fun: 1 }),
            3 => shape_other(Mfa { m: 0, f: 1, a: 2 }),
            4 => shape_other(Mfa { m: 1, f: 2, a: 3 }),
            _ => None,
        },
        ("erlang", "spawn_opt") | ("proc_lib", "spawn_opt") => match a {
            2 => shape_pid(Fun { fun: 0 }),
            3 => shape_pid(Fun { fun: 1 }),
            4 => shape_pid(Mfa { m: 0, f: 1, a: 2 }),
            5 => shape_pid(Mfa { m: 1, f: 2, a: 3 }),
            _ => None,
        },
        ("proc_lib", "start" | "start_link" | "start_monitor") if (3..=5).contains(&a) => {
            shape_other(Mfa { m: 0, f: 1, a: 2 })
        }
        ("gen_server" | "gen_statem" | "gen_fsm", "start" | "start_link" | "start_monitor") => {
            match a {
                3 => shape_other(Init { m: 0, arg: 1 }),
                4 => shape_other(Init { m: 1, arg: 2 }),
                _ => None,
            }
        }
        ("supervisor" | "supervisor_bridge", "start_link") => match a {
            2 => shape_other(Init { m: 0, arg: 1 }),
            3 => shape_other(Init { m: 1, arg: 2 }),
            _ => None,
        },
        _ => None,
    }
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
    fn shapes_of_common_starts() {
        assert_eq!(
            start_of(&mfa("erlang", "spawn", 1)).map(|s| s.shape),
            Some(StartShape::Fun { fun: 0 })
        );
        assert_eq!(
            start_of(&mfa("erlang", "spawn_link", 4)).map(|s| s.shape),
            Some(StartShape::Mfa { m: 1, f: 2, a: 3 })
        );
        assert_eq!(
            start_of(&mfa("gen_server", "start_link", 4)).map(|s| s.shape),
            Some(StartShape::Init { m: 1, arg: 2 })
        );
        assert_eq!(start_of(&mfa("erlang", "register", 2)), None);
    }
}
