//! The program's other read-modify-writes of the item a suspect is on, as
//! the static pass found them. lager's `stop_trace_int/2`, `clear_all_traces/0`,
//! `add_trace_to_loglevel_config/2` and `update_loglevel_config/1` each read
//! `{Sink, loglevel}` through `lager_config:get/1` and put back a changed
//! copy through `lager_config:set/2`: one read site and one write site
//! shared by several functions, each a suspect of its own (told apart by
//! its window). Two clients that make the *same* call rarely lose anything
//! (two `clear_all_traces()` both write `{Level, []}`), and a call whose
//! write needs something another call made (`stop_trace` of a trace that
//! no one added) never reaches it alone: the update that is lost is the
//! other function's. So the exported functions that reach another
//! suspect's read-modify-write of an item this suspect's write may touch
//! are its rivals ([`crate::harness::Harness::mixed`]): the program's own
//! writers of that item, found from what the program does, never by name.

use racewit_static::{Entry, Suspect, ValueSet};
use racewit_syntax::ir::{CallTarget, Expr, ExprId, Pat, Program};

/// The entries of the other suspects whose write may touch the item `s`
/// writes, in the static pass's order, each once: a
/// suspect of the same category, with another window (a different
/// function's read-modify-write), whose resource may name the same item
/// (see [`may_share`]). The suspect's own entries are left out.
pub(crate) fn item_writers(suspects: &[Suspect], s: &Suspect) -> Vec<Entry> {
    let mut out: Vec<Entry> = Vec::new();
    for other in suspects {
        if other.id == s.id
            || other.category != s.category
            || (other.window.module == s.window.module && other.window.line == s.window.line)
            || other.resource.kind != s.resource.kind
            || !may_share(&other.resource.name, &s.resource.name)
            || !may_share(&other.resource.table, &s.resource.table)
            || !may_share(&other.resource.key, &s.resource.key)
        {
            continue;
        }
        for e in &other.entries {
            if !s.entries.iter().any(|x| x.mfa == e.mfa) && !out.iter().any(|x| x.mfa == e.mfa) {
                out.push(e.clone());
            }
        }
    }
    out
}

/// Whether `m:g/a` takes its arguments as `m:f/a` does: each parameter
/// of `f` is passed on unchanged, by some clause whose pattern there is a
/// plain variable, to a local function at an argument position where some
/// clause of `g` passes its own parameter of the same position (lager's
/// `trace/3` and `stop_trace/3` both hand `Backend, Filter, Level` to
/// `validate_trace_filters/3`, in the same places). Such a pair works on
/// the same things: what one makes, the other takes (a trace added, then
/// stopped). Found from the code, never from names.
pub(crate) fn takes_args_alike(program: &Program, m: &str, f: &str, g: &str, a: u32) -> bool {
    if a == 0 || f == g {
        return false;
    }
    let (Some(pf), Some(pg)) = (passed_on(program, m, f, a), passed_on(program, m, g, a)) else {
        return false;
    };
    pf.iter()
        .zip(&pg)
        .all(|(x, y)| x.iter().any(|p| y.contains(p)))
}

/// For each parameter of `m:f/a`, the local calls it is passed to
/// unchanged (by a clause whose pattern there is a plain variable): the
/// callee's name and arity and the argument's position.
fn passed_on(
    program: &Program,
    m: &str,
    f: &str,
    a: u32,
) -> Option<Vec<Vec<(String, u32, usize)>>> {
    let func = program.function(m, f, a)?;
    let body = &func.body;
    let mut out: Vec<Vec<(String, u32, usize)>> = vec![Vec::new(); a as usize];
    for &c in &func.clauses {
        let pats = &body.clause(c).pats;
        for (i, &pat) in pats.iter().enumerate().take(a as usize) {
            let Pat::Var(v) = body.pat(pat) else {
                continue;
            };
            for k in 0..body.exprs.len() {
                let Expr::Call { target, args, .. } = body.expr(ExprId(k as u32)) else {
                    continue;
                };
                let CallTarget::Local { name, arity } = &**target else {
                    continue;
                };
                for (j, &arg) in args.iter().enumerate() {
                    if matches!(body.expr(arg), Expr::Var(w) if w == v) {
                        let p = (name.to_string(), *arity, j);
                        if !out[i].contains(&p) {
                            out[i].push(p);
                        }
                    }
                }
            }
        }
    }
    Some(out)
}

/// The argument lists of the program's calls of `m:f/a` whose every
/// argument is a constant, as Erlang text, each once, in the order of the
/// text.
pub(crate) fn constant_calls(
    program: &Program,
    callers: &crate::callers::Callers,
    (m, f, a): (&str, &str, u32),
) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = Vec::new();
    for (body, args) in crate::harness::call_sites(program, callers, (m, f, a)) {
        let values: Option<Vec<String>> = args
            .iter()
            .map(|&x| crate::erl_text::value_text(body, x))
            .collect();
        if let Some(values) = values
            && !out.contains(&values)
        {
            out.push(values);
        }
    }
    out
}

/// Whether two value sets of one part of an item may hold equal values:
/// when either is unknown (absent, `any`, or empty), or some value of one
/// may equal some value of the other (see [`may_equal`]).
fn may_share(a: &Option<ValueSet>, b: &Option<ValueSet>) -> bool {
    let (Some(a), Some(b)) = (a, b) else {
        return true;
    };
    if a.any || b.any || a.values.is_empty() || b.values.is_empty() {
        return true;
    }
    a.values
        .iter()
        .any(|x| b.values.iter().any(|y| may_equal(x, y)))
}

/// Whether two terms as the static pass prints them may be equal: `_`
/// stands for anything, tuples and lists of the same length compare
/// element by element, and two plain constants (atoms, numbers, strings)
/// compare by their text. Anything else may be equal.
fn may_equal(a: &str, b: &str) -> bool {
    let (a, b) = (a.trim(), b.trim());
    if a == "_" || b == "_" || a == b {
        return true;
    }
    for (open, close) in [('{', '}'), ('[', ']')] {
        fn inner(t: &str, open: char, close: char) -> Option<Vec<&str>> {
            t.strip_prefix(open)
                .and_then(|t| t.strip_suffix(close))
                .map(elements)
        }
        match (inner(a, open, close), inner(b, open, close)) {
            (Some(x), Some(y)) => {
                return x.len() == y.len() && x.iter().zip(&y).all(|(x, y)| may_equal(x, y));
            }
            (Some(_), None) | (None, Some(_)) => return !(is_plain(a) || is_plain(b)),
            (None, None) => {}
        }
    }
    !(is_plain(a) && is_plain(b))
}

/// The elements of a tuple's or list's inside, split at its own commas.
fn elements(inside: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start, mut quoted) = (0i32, 0usize, None::<char>);
    let mut escaped = false;
    for (i, c) in inside.char_indices() {
        if let Some(q) = quoted {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                c if c == q => quoted = None,
                _ => {}
            }
            continue;
        }
        match c {
            '\'' | '"' => quoted = Some(c),
            '{' | '[' | '(' | '<' => depth += 1,
            '}' | ']' | ')' | '>' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&inside[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if !inside.trim().is_empty() {
        out.push(&inside[start..]);
    }
    out
}

/// An atom, a number or a string, written out.
fn is_plain(t: &str) -> bool {
    let mut chars = t.chars();
    match chars.next() {
        Some(c) if c.is_ascii_lowercase() => t
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '@'),
        Some('\'') => t.len() > 1 && t.ends_with('\'') && !t[1..t.len() - 1].contains('\''),
        Some('"') => t.len() > 1 && t.ends_with('"') && !t[1..t.len() - 1].contains('"'),
        Some(c) if c.is_ascii_digit() || c == '-' => t
            .chars()
            .skip(1)
            .all(|c| c.is_ascii_digit() || c == '.' || c == 'e'),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::{constant_calls, may_equal, takes_args_alike};

    #[test]
    fn twins_pass_their_arguments_on_in_the_same_places() {
        let p = crate::test_support::program(&[(
            "t",
            "-module(t).\n\
             -export([add/2, remove/2, swapped/2, other/2, use/0]).\n\
             add({file, F}, L) -> add(F, L);\n\
             add(D, L) -> check(D, L).\n\
             remove(D, L) -> check(D, L).\n\
             swapped(L, D) -> check(D, L).\n\
             other(D, L) -> check(D, D), L.\n\
             check(D, L) -> {D, L}.\n\
             use() -> add(console, debug), add(file, info), add(console, debug), \
             remove(console, error), add(console, self()).\n",
        )]);
        assert!(takes_args_alike(&p, "t", "remove", "add", 2));
        assert!(takes_args_alike(&p, "t", "add", "remove", 2));
        assert!(!takes_args_alike(&p, "t", "remove", "swapped", 2));
        assert!(!takes_args_alike(&p, "t", "remove", "other", 2));
        assert!(!takes_args_alike(&p, "t", "remove", "remove", 2));
        let callers = crate::callers::Callers::new(&p);
        assert_eq!(
            constant_calls(&p, &callers, ("t", "add", 2)),
            vec![
                vec!["console".to_string(), "debug".to_string()],
                vec!["file".to_string(), "info".to_string()],
            ]
        );
    }

    #[test]
    fn keys_with_holes_compare_by_their_constants() {
        assert!(may_equal("{_, loglevel}", "{lager_event, loglevel}"));
        assert!(!may_equal("{_, loglevel}", "{'_global', handlers}"));
        assert!(!may_equal("{a, b}", "{a, b, c}"));
        assert!(may_equal("[_, 1]", "[x, 1]"));
        assert!(!may_equal("hits", "misses"));
        assert!(!may_equal("\"a,b\"", "\"a\""));
        assert!(may_equal("{x, \"a,b\"}", "{x, \"a,b\"}"));
        // What is not written out as constants may be anything.
        assert!(may_equal("#{a => 1}", "hits"));
        assert!(may_equal("<<\"k\">>", "<<\"j\">>"));
        assert!(!may_equal("{x, 1}", "hits"));
    }
}
