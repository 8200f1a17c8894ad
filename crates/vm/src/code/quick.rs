//! Quick clauses: a function's leading `f(K) -> C` clauses, answered at
//! the call without opening a frame.

use crate::term::Term;

use super::instr::{Instr, Slot};

/// See [`FnCode::quick`].
#[derive(Debug, Default)]
pub struct QuickClauses {
    /// (argument, integer it must equal, constant returned), in clause order.
    pub clauses: Box<[(Slot, i64, Term)]>,
    /// The first instruction after them.
    pub entry: u32,
    /// When every clause tests the same argument and their integers lie
    /// within [`DENSE_SPAN`]: that argument, the smallest integer, and the
    /// constant for each integer from there on (`None` where no clause
    /// has it). One range test then replaces the clause-by-clause tests.
    dense: Option<DenseClauses>,
}

/// See [`QuickClauses::dense`]: the argument, the smallest integer, and the
/// constant for each integer from there on.
#[derive(Debug)]
struct DenseClauses {
    arg: Slot,
    lo: i64,
    table: Box<[Option<Term>]>,
}

impl DenseClauses {
    /// The constant for the integer `x`, if a clause has it.
    #[inline(always)]
    fn get(&self, x: i64) -> Option<&Term> {
        let k = x.wrapping_sub(self.lo) as u64;
        usize::try_from(k)
            .ok()
            .and_then(|k| self.table.get(k))?
            .as_ref()
    }
}

/// The widest range of integers [`QuickClauses`] keeps as a table.
const DENSE_SPAN: i64 = 16;

impl QuickClauses {
    /// The constant the first matching clause returns for a call with
    /// its arguments in slots `args` of `regs`, if one matches.
    #[inline(always)]
    pub fn lookup<'a>(&'a self, args: &[Slot], regs: &[Term]) -> Option<&'a Term> {
        if let Some(d) = &self.dense {
            let slot = *args.get(d.arg as usize)?;
            let Some(Term::Int(x)) = regs.get(slot as usize) else {
                return None;
            };
            return d.get(*x);
        }
        self.clauses.iter().find_map(|(arg, imm, value)| {
            let slot = *args.get(*arg as usize)?;
            matches!(regs.get(slot as usize), Some(Term::Int(x)) if x == imm).then_some(value)
        })
    }

    /// [`QuickClauses::lookup`] for a one-argument function called with
    /// the small integer `x`.
    #[inline(always)]
    pub fn lookup_int(&self, x: i64) -> Option<&Term> {
        if let Some(d) = &self.dense {
            return d.get(x);
        }
        self.clauses
            .iter()
            .find_map(|(_, imm, value)| (*imm == x).then_some(value))
    }

    fn dense_table(clauses: &[(Slot, i64, Term)]) -> Option<DenseClauses> {
        let (arg, _, _) = clauses.first()?;
        if clauses.iter().any(|(a, _, _)| a != arg) {
            return None;
        }
        let lo = clauses.iter().map(|c| c.1).min()?;
        let hi = clauses.iter().map(|c| c.1).max()?;
        let span = hi.checked_sub(lo)?;
        if span >= DENSE_SPAN {
            return None;
        }
        let mut table: Vec<Option<Term>> = (0..=span).map(|_| None).collect();
        for (_, imm, value) in clauses {
            // The first clause for an integer wins.
            let cell = &mut table[(imm - lo) as usize];
            if cell.is_none() {
                *cell = Some(value.clone());
            }
        }
        Some(DenseClauses {
            arg: *arg,
            lo,
            table: table.into_boxed_slice(),
        })
    }

    /// Read the leading `ReturnIfInt` + `ReturnConst` pairs of `instrs`,
    /// each failing to the pair right after it, on argument slots.
    pub(super) fn of(instrs: &[Instr], arity: u32) -> QuickClauses {
        let mut clauses = Vec::new();
        let mut pc = 0usize;
        while let (
            Some(Instr::ReturnIfInt {
                src,
                imm,
                value,
                fail,
            }),
            Some(Instr::ReturnConst { .. }),
        ) = (instrs.get(pc), instrs.get(pc + 1))
        {
            if *src >= arity || *fail as usize != pc + 2 {
                break;
            }
            clauses.push((*src, *imm, value.clone()));
            pc += 2;
        }
        let dense = Self::dense_table(&clauses);
        QuickClauses {
            clauses: clauses.into_boxed_slice(),
            entry: pc as u32,
            dense,
        }
    }
}
