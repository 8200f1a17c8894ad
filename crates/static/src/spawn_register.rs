//! R004: `register(Name, Pid)` of a pid a `spawn` returned. The new process
//! may run and exit before the parent registers it, and the `register`
//! fails with `badarg`. Filtered when every path of the new process blocks
//! in a `receive` (with no finite `after`) before it can end: nobody else
//! knows its pid before the `register`, so nothing can wake it (a kill
//! through a link would take the parent down as well).

use racewit_syntax::ir::{Expr, ExprId, Literal};
use rustc_hash::FxHashMap;

use crate::units::Units;
use crate::values::{Origin, Term, UnitId, Val};

/// The pid value `v` may be the one spawned at `o`.
pub fn holds(v: &Val, o: Origin) -> bool {
    fn walk(t: &Term, o: Origin) -> bool {
        match t {
            Term::Spawned(x) => *x == o,
            Term::Tuple(ts) => ts.iter().any(|t| walk(t, o)),
            _ => false,
        }
    }
    v.iter().any(|t| walk(t, o))
}

/// Whether a unit surely blocks in a `receive` (without a finite `after`)
/// before it can return. Memoised; a call cycle counts as "may return".
pub struct Blocking<'a, 'p> {
    units: &'a Units<'p>,
    memo: FxHashMap<UnitId, bool>,
}

impl<'a, 'p> Blocking<'a, 'p> {
    pub fn new(units: &'a Units<'p>) -> Self {
        Blocking {
            units,
            memo: FxHashMap::default(),
        }
    }

    pub fn blocks_first(&mut self, u: UnitId) -> bool {
        if let Some(&b) = self.memo.get(&u) {
            return b;
        }
        self.memo.insert(u, false);
        let unit = self.units.unit(u);
        let func = self.units.unit_function(u);
        let clauses = unit.clauses(func).to_vec();
        let b = !clauses.is_empty()
            && clauses
                .iter()
                .all(|&c| self.expr_blocks(u, func.body.clause(c).body));
        self.memo.insert(u, b);
        b
    }

    fn expr_blocks(&mut self, u: UnitId, e: ExprId) -> bool {
        let func = self.units.unit_function(u);
        let module = self.units.unit(u).module;
        match func.body.expr(e) {
            Expr::Receive { clauses, after } => {
                let infinite = match after {
                    None => true,
                    Some(a) => matches!(
                        func.body.expr(a.timeout),
                        Expr::Lit(Literal::Atom(x)) if x == "infinity"
                    ),
                };
                infinite && !clauses.is_empty()
            }
            Expr::Block(es) => es.iter().any(|&x| self.expr_blocks(u, x)),
            Expr::Match(_, x) => self.expr_blocks(u, *x),
            Expr::Case { arg, clauses, .. } => {
                self.expr_blocks(u, *arg)
                    || (!clauses.is_empty()
                        && clauses
                            .iter()
                            .all(|&c| self.expr_blocks(u, func.body.clause(c).body)))
            }
            Expr::Call { site, args, .. } => {
                if args.iter().any(|&a| self.expr_blocks(u, a)) {
                    return true;
                }
                let target = self.units.module(module).call_site(*site).target.clone();
                match target.and_then(|t| self.units.lookup_mfa(&t)) {
                    Some(g) => {
                        let gu = self.units.fn_unit[g.index()];
                        self.blocks_first(gu)
                    }
                    None => false,
                }
            }
            _ => false,
        }
    }
}
