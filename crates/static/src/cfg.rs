//! Control-flow graphs per unit, pruned to the calls that matter.
//!
//! Nodes are the kept call sites (plus entry, exit and loop-head joins), in
//! the order Erlang evaluates them: arguments left to right before the call,
//! a `case` argument before its clauses, a comprehension's generator before
//! its filters and body (and the body loops back to the generator). A
//! `try`'s catch clauses may start from anywhere in its body. Funs written
//! inside a unit are units of their own and add no nodes.

use racewit_syntax::ir::{Body, CallSiteId, ClauseId, Expr, ExprId, Qualifier};

use crate::catalog::CatSet;

pub const ENTRY: u32 = 0;
pub const EXIT: u32 = 1;

#[derive(Clone, Debug, Default)]
pub struct Node {
    /// `None` for entry, exit and joins.
    pub site: Option<CallSiteId>,
    pub succs: Vec<u32>,
}

#[derive(Clone, Debug, Default)]
pub struct Cfg {
    pub nodes: Vec<Node>,
    /// The node of each kept site, sorted by site (a unit keeps few sites:
    /// a sorted slice costs less than a map, and there is a CFG per unit).
    pub by_site: Vec<(CallSiteId, u32)>,
    /// Per node: categories (bits) written at the node itself or by what it
    /// runs, and by any node after it ([`Cfg::set_ahead`]; empty until then).
    pub ahead: Vec<CatSet>,
    /// Per clause of the unit, in order: the nodes its body starts at
    /// (`EXIT` when it reaches no kept call), so a walk that knows the
    /// arguments can leave out the clauses they cannot match.
    pub clause_starts: Vec<(ClauseId, Vec<u32>)>,
}

impl Cfg {
    pub fn node_of(&self, site: CallSiteId) -> Option<u32> {
        self.by_site
            .binary_search_by_key(&site, |&(s, _)| s)
            .ok()
            .map(|i| self.by_site[i].1)
    }

    /// Fill [`Cfg::ahead`] from the categories each site may write
    /// (directly or through what it runs): a node's mask holds its own and
    /// those of every node reachable from it.
    pub fn set_ahead(&mut self, writes: &dyn Fn(CallSiteId) -> CatSet) {
        let own: Vec<CatSet> = self
            .nodes
            .iter()
            .map(|n| n.site.map_or(CatSet::EMPTY, writes))
            .collect();
        let mut ahead = own.clone();
        // Few nodes and few loops: iterate to the fixpoint, latest nodes first.
        let mut changed = true;
        while changed {
            changed = false;
            for i in (0..self.nodes.len()).rev() {
                let m = self.nodes[i]
                    .succs
                    .iter()
                    .fold(own[i], |m, &s| m | ahead[s as usize]);
                if m != ahead[i] {
                    ahead[i] = m;
                    changed = true;
                }
            }
        }
        self.ahead = ahead;
    }

    /// Whether `to` can be reached from `from` without passing `avoid`.
    pub fn reaches_avoiding(&self, from: u32, to: u32, avoid: u32) -> bool {
        if from == avoid {
            return false;
        }
        let mut seen = vec![false; self.nodes.len()];
        let mut stack = vec![from];
        seen[from as usize] = true;
        while let Some(x) = stack.pop() {
            if x == to {
                return true;
            }
            for &s in &self.nodes[x as usize].succs {
                if s != avoid && !seen[s as usize] {
                    seen[s as usize] = true;
                    stack.push(s);
                }
            }
        }
        false
    }

    /// Categories that may be written after `node` (not at it).
    pub fn after(&self, node: u32) -> CatSet {
        self.nodes[node as usize]
            .succs
            .iter()
            .fold(CatSet::EMPTY, |m, &s| {
                m | self.ahead.get(s as usize).copied().unwrap_or(CatSet::ALL)
            })
    }
}

struct Builder<'a> {
    body: &'a Body,
    keep: &'a dyn Fn(CallSiteId) -> bool,
    cfg: Cfg,
}

/// Build the CFG of one unit (its clauses), keeping the sites `keep` accepts.
pub fn build(body: &Body, clauses: &[ClauseId], keep: &dyn Fn(CallSiteId) -> bool) -> Cfg {
    let mut b = Builder {
        body,
        keep,
        cfg: Cfg {
            nodes: vec![Node::default(), Node::default()],
            by_site: Vec::new(),
            ahead: Vec::new(),
            clause_starts: Vec::with_capacity(clauses.len()),
        },
    };
    let mut exits = Vec::new();
    for &c in clauses {
        let before = b.cfg.nodes[ENTRY as usize].succs.len();
        let ex = b.expr(body.clause(c).body, vec![ENTRY]);
        let mut starts: Vec<u32> = b.cfg.nodes[ENTRY as usize].succs[before..].to_vec();
        if ex.contains(&ENTRY) {
            starts.push(EXIT);
        }
        b.cfg.clause_starts.push((c, starts));
        exits = Builder::merge(exits, &ex);
    }
    b.connect(&exits, EXIT);
    let mut cfg = b.cfg;
    // Of two nodes of one site, the later one is its node (as a map's
    // insert would keep); the stable sort keeps them in creation order.
    cfg.by_site.sort_by_key(|&(s, _)| s);
    let mut by_site: Vec<(CallSiteId, u32)> = Vec::with_capacity(cfg.by_site.len());
    for &(s, n) in &cfg.by_site {
        match by_site.last_mut() {
            Some(last) if last.0 == s => last.1 = n,
            _ => by_site.push((s, n)),
        }
    }
    cfg.by_site = by_site;
    cfg.nodes.shrink_to_fit();
    for n in &mut cfg.nodes {
        n.succs.shrink_to_fit();
    }
    cfg.clause_starts.shrink_to_fit();
    cfg
}

impl Builder<'_> {
    fn new_node(&mut self, site: Option<CallSiteId>) -> u32 {
        let id = self.cfg.nodes.len() as u32;
        self.cfg.nodes.push(Node {
            site,
            succs: Vec::new(),
        });
        if let Some(s) = site {
            self.cfg.by_site.push((s, id));
        }
        id
    }

    fn connect(&mut self, preds: &[u32], to: u32) {
        for &p in preds {
            let succs = &mut self.cfg.nodes[p as usize].succs;
            if !succs.contains(&to) {
                succs.push(to);
            }
        }
    }

    fn merge(mut a: Vec<u32>, b: &[u32]) -> Vec<u32> {
        for &x in b {
            if !a.contains(&x) {
                a.push(x);
            }
        }
        a
    }

    fn clauses(&mut self, clauses: &[ClauseId], from: Vec<u32>) -> Vec<u32> {
        if clauses.is_empty() {
            return from;
        }
        let mut out = Vec::new();
        for &c in clauses {
            let body = self.body.clause(c).body;
            let exits = self.expr(body, from.clone());
            out = Self::merge(out, &exits);
        }
        out
    }

    fn seq(&mut self, es: &[ExprId], mut f: Vec<u32>) -> Vec<u32> {
        for &e in es {
            f = self.expr(e, f);
        }
        f
    }

    fn expr(&mut self, id: ExprId, f: Vec<u32>) -> Vec<u32> {
        let body = self.body;
        match body.expr(id) {
            Expr::Fun(_) => f,
            Expr::Call { site, target, args } => {
                let mut f = f;
                match &**target {
                    racewit_syntax::ir::CallTarget::Remote { module, function } => {
                        f = self.expr(*module, f);
                        f = self.expr(*function, f);
                    }
                    racewit_syntax::ir::CallTarget::Apply { fun } => f = self.expr(*fun, f),
                    racewit_syntax::ir::CallTarget::Local { .. } => {}
                }
                f = self.seq(args, f);
                if (self.keep)(*site) {
                    let n = self.new_node(Some(*site));
                    self.connect(&f, n);
                    vec![n]
                } else {
                    f
                }
            }
            Expr::Case { arg, clauses, .. } => {
                let f = self.expr(*arg, f);
                self.clauses(clauses, f)
            }
            Expr::Receive { clauses, after } => {
                let mut out = self.clauses(clauses, f.clone());
                if let Some(a) = after {
                    let g = self.expr(a.timeout, f);
                    let g = self.expr(a.body, g);
                    out = Self::merge(out, &g);
                }
                out
            }
            Expr::Try(t) => {
                let racewit_syntax::ir::TryExpr {
                    body: b,
                    of_clauses,
                    catch_clauses,
                    after,
                } = &**t;
                let first = self.cfg.nodes.len() as u32;
                let f1 = self.expr(*b, f.clone());
                let f2 = self.clauses(of_clauses, f1.clone());
                let last = self.cfg.nodes.len() as u32;
                // An exception may leave the body (or an of-clause) anywhere.
                let mut raise_from = Self::merge(f, &f1);
                raise_from = Self::merge(raise_from, &(first..last).collect::<Vec<_>>());
                let mut out = f2;
                if !catch_clauses.is_empty() {
                    let c = self.clauses(catch_clauses, raise_from);
                    out = Self::merge(out, &c);
                }
                match after {
                    Some(a) => self.expr(*a, out),
                    None => out,
                }
            }
            Expr::Comprehension(c) => {
                let mut f = f;
                let mut heads: Vec<u32> = Vec::new();
                for q in &c.qualifiers {
                    match q {
                        Qualifier::Generator { expr, .. } => {
                            f = self.expr(*expr, f);
                            let head = self.new_node(None);
                            self.connect(&f, head);
                            // Generator exhausted: back to the enclosing generator.
                            if let Some(&outer) = heads.last() {
                                self.connect(&[head], outer);
                            }
                            heads.push(head);
                            f = vec![head];
                        }
                        Qualifier::Zip(gens) => {
                            // One loop head: the zipped generators advance together.
                            for g in gens {
                                f = self.expr(g.expr, f);
                            }
                            let head = self.new_node(None);
                            self.connect(&f, head);
                            if let Some(&outer) = heads.last() {
                                self.connect(&[head], outer);
                            }
                            heads.push(head);
                            f = vec![head];
                        }
                        Qualifier::Filter(e) => {
                            f = self.expr(*e, f);
                            // A false filter skips to the next element.
                            if let Some(&h) = heads.last() {
                                self.connect(&f, h);
                            }
                        }
                    }
                }
                let fb = self.expr(c.body, f.clone());
                match heads.first() {
                    Some(&outer) => {
                        let inner = *heads.last().unwrap_or(&outer);
                        self.connect(&fb, inner);
                        vec![outer]
                    }
                    None => fb,
                }
            }
            Expr::Maybe(m) => {
                let racewit_syntax::ir::MaybeExpr {
                    body: items,
                    else_clauses,
                } = &**m;
                let mut f = f;
                let mut early: Vec<u32> = Vec::new();
                for &e in items {
                    f = self.expr(e, f);
                    if matches!(body.expr(e), Expr::MaybeMatch(..)) {
                        early = Self::merge(early, &f);
                    }
                }
                match else_clauses {
                    Some(cs) => {
                        let g = self.clauses(cs, early);
                        Self::merge(f, &g)
                    }
                    None => Self::merge(f, &early),
                }
            }
            // Everything else runs its children in order.
            _ => {
                let mut f = f;
                crate::walk::for_each_child(body, id, &mut |c| {
                    f = self.expr(c, std::mem::take(&mut f));
                });
                f
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use racewit_syntax::load_source;

    /// The CFG of `f/0` keeping every call, as `from -> to` lines where a
    /// node is named by the function it calls (`entry`, `exit`, `join`).
    fn edges(src: &str) -> Vec<String> {
        let program = load_source("t.erl", src);
        let m = program.module("t").expect("module");
        let f = m.function("f", 0).expect("f/0");
        let cfg = build(&f.body, &f.clauses, &|_| true);
        let name = |n: u32| match n {
            ENTRY => "entry".to_string(),
            EXIT => "exit".to_string(),
            _ => match cfg.nodes[n as usize].site {
                Some(s) => m
                    .call_site(s)
                    .target
                    .as_ref()
                    .map_or("?".to_string(), |t| t.name.to_string()),
                None => "join".to_string(),
            },
        };
        let mut out = Vec::new();
        for (i, node) in cfg.nodes.iter().enumerate() {
            for &s in &node.succs {
                out.push(format!("{} -> {}", name(i as u32), name(s)));
            }
        }
        out
    }

    #[test]
    fn arguments_run_before_their_call_and_clauses_branch() {
        let src = "-module(t).\nf() -> case a() of x -> b(c()); _ -> d() end, e().\n\
                   a() -> 1. b(_) -> 1. c() -> 1. d() -> 1. e() -> 1.\n";
        assert_eq!(
            edges(src),
            [
                "entry -> a",
                "a -> c",
                "a -> d",
                "c -> b",
                "b -> e",
                "d -> e",
                "e -> exit"
            ]
        );
    }

    #[test]
    fn a_catch_clause_starts_anywhere_in_its_body() {
        let src = "-module(t).\nf() -> try a(), b() catch _:_ -> c() end.\n\
                   a() -> 1. b() -> 1. c() -> 1.\n";
        let e = edges(src);
        for edge in ["entry -> c", "a -> c", "b -> c", "b -> exit", "c -> exit"] {
            assert!(e.contains(&edge.to_string()), "{edge} in {e:?}");
        }
    }

    #[test]
    fn a_comprehension_loops_back_to_its_generator() {
        let src = "-module(t).\nf() -> [b(X) || X <- a()].\na() -> [1]. b(_) -> 1.\n";
        let e = edges(src);
        for edge in [
            "entry -> a",
            "a -> join",
            "join -> b",
            "b -> join",
            "join -> exit",
        ] {
            assert!(e.contains(&edge.to_string()), "{edge} in {e:?}");
        }
    }

    #[test]
    fn each_clause_knows_where_it_starts() {
        let src = "-module(t).\nf() -> a();\nf() -> ok.\na() -> 1.\n";
        let program = load_source("t.erl", src);
        let f = program.function("t", "f", 0).expect("f/0");
        let cfg = build(&f.body, &f.clauses, &|_| true);
        let starts: Vec<Vec<u32>> = cfg.clause_starts.iter().map(|(_, s)| s.clone()).collect();
        assert_eq!(starts, vec![vec![2], vec![EXIT]]);
    }
}
