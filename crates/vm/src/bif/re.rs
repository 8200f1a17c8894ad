//! The NIFs of OTP's `re` module (`version/0`, `compile/1,2`, `run/2,3`,
//! `internal_run/4`, `inspect/2`) over racewit's own PCRE-compatible
//! matcher ([`pattern`], [`matcher`]); `replace`, `split` and the rest of
//! `re` run from OTP's source over these.
//!
//! A compiled pattern is `{re_pattern, Groups, Unicode, UseCRLF, Binary}`
//! as on the BEAM, but the binary is racewit's: a tag, the compile
//! options and the pattern's text (compiled again by each run). Programs
//! that print it see different bytes than the BEAM's.
//!
//! Offsets are byte offsets; with `unicode` the subject and pattern are
//! UTF-8 and the matcher steps by characters. `\w`, `\d`, `\s` and POSIX
//! classes are ASCII. A construct the matcher does not run, a newline
//! convention other than `lf`, `firstline`, and `ucp` on a non-ASCII
//! subject park the caller with the reason named.
//!
//! `global` follows OTP's `re:grun/3` loop: after an empty match at `A`
//! it retries at the run's offset with `notempty_atstart` and `anchored`;
//! a non-empty answer there moves on by its length, otherwise by one
//! character.

mod matcher;
mod pattern;

use crate::atom::Atom;
use crate::bif::{Flow, Table, badarg, chardata_string, iolist_bytes, tuple2};
use crate::term::Term;
use matcher::{Caps, RunOptions};
use pattern::{Options, Pattern, PatternError};

pub fn register(t: &mut Table) {
    t.pure("re", "version", 0, |_| {
        Ok(Term::binary(b"8.44 2020-02-12".to_vec()))
    });
    t.ctx("re", "compile", 1, |_, a| compile(&a[0], &Term::Nil));
    t.ctx("re", "compile", 2, |_, a| compile(&a[0], &a[1]));
    t.ctx("re", "run", 2, |_, a| run(&a[0], &a[1], &Term::Nil));
    t.ctx("re", "run", 3, |_, a| run(&a[0], &a[1], &a[2]));
    t.ctx("re", "internal_run", 4, |_, a| run(&a[0], &a[1], &a[2]));
    t.pure("re", "inspect", 2, |a| {
        let p = compiled(&a[0]).ok_or_else(badarg)?.map_err(|_| badarg())?;
        if !a[1].is_atom(Atom::new("namelist")) {
            return Err(badarg());
        }
        let names = p
            .names
            .iter()
            .map(|(n, _)| Term::binary(n.as_bytes().to_vec()))
            .collect();
        Ok(tuple2(Term::atom("namelist"), Term::list(names)))
    });
}

const TAG: &[u8] = b"racewit-re\0";

fn park(e: PatternError) -> Flow {
    match e {
        PatternError::Unsupported(what) => {
            Flow::Park(format!("re pattern feature {what} racewit does not run"))
        }
        PatternError::Syntax(..) => unreachable!("syntax errors are answers"),
    }
}

/// Compile options, and the run options met among them (`run/3` takes both).
#[derive(Default)]
struct Opts {
    compile: Options,
    /// A compile-only option was given.
    compile_only: bool,
    run: RunOptions,
    global: bool,
    report_errors: bool,
    capture: Option<(Term, Term)>,
}

fn bool_flag(name: &str, o: &mut Opts, run: bool) -> Option<()> {
    let c = &mut o.compile;
    let mut compile_only = true;
    match name {
        "unicode" => {
            c.utf = true;
            compile_only = false;
        }
        "anchored" => {
            c.anchored = true;
            o.run.anchored = true;
            compile_only = false;
        }
        "caseless" => c.flags.caseless = true,
        "dollar_endonly" => c.dollar_endonly = true,
        "dotall" => c.flags.dotall = true,
        "extended" => c.flags.extended = true,
        "multiline" => c.flags.multiline = true,
        "no_auto_capture" => c.no_auto_capture = true,
        "ungreedy" => c.flags.ungreedy = true,
        "ucp" => c.ucp = true,
        "dupnames" => c.dupnames = true,
        "no_start_optimize" | "never_utf" => {}
        "bsr_anycrlf" | "bsr_unicode" => compile_only = false,
        _ if run => {
            compile_only = false;
            match name {
                "global" => o.global = true,
                "notbol" => o.run.notbol = true,
                "noteol" => o.run.noteol = true,
                "notempty" => o.run.notempty = true,
                "notempty_atstart" => o.run.notempty_atstart = true,
                "report_errors" => o.report_errors = true,
                _ => return None,
            }
        }
        _ => return None,
    }
    o.compile_only |= compile_only;
    Some(())
}

/// Parses an option list; `Err(Some(reason))` parks, `Err(None)` is badarg.
fn options(list: &Term, run: bool) -> Result<Opts, Option<String>> {
    let mut o = Opts::default();
    let items = list.list_to_vec().ok_or(None)?;
    for item in &items {
        if let Some(a) = item.as_atom() {
            if a.name() == "firstline" {
                return Err(Some("re option firstline".into()));
            }
            bool_flag(a.name(), &mut o, run).ok_or(None)?;
            continue;
        }
        let Some(t) = item.as_tuple() else {
            return Err(None);
        };
        let key = t.first().and_then(Term::as_atom).ok_or(None)?;
        match (key.name(), t.len()) {
            ("newline", 2) => match t[1].as_atom().map(|a| a.name().to_string()).as_deref() {
                Some("lf") => {}
                Some("cr" | "crlf" | "anycrlf" | "any") => {
                    return Err(Some(format!(
                        "re option {{newline, {}}}",
                        t[1].as_atom().expect("atom").name()
                    )));
                }
                _ => return Err(None),
            },
            ("offset", 2) if run => {
                o.run.offset = t[1]
                    .as_int()
                    .and_then(|i| usize::try_from(i).ok())
                    .ok_or(None)?;
            }
            ("match_limit" | "match_limit_recursion", 2) if run => {
                let m = t[1]
                    .as_int()
                    .and_then(|i| u64::try_from(i).ok())
                    .ok_or(None)?;
                o.run.max_steps = Some(o.run.max_steps.map_or(m, |old| old.min(m)));
            }
            ("capture", 2) if run => o.capture = Some((t[1].clone(), Term::atom("index"))),
            ("capture", 3) if run => o.capture = Some((t[1].clone(), t[2].clone())),
            _ => return Err(None),
        }
    }
    Ok(o)
}

/// The bytes of a pattern or subject: iodata, or with `unicode` chardata
/// (as UTF-8).
fn text(t: &Term, utf: bool) -> Result<Vec<u8>, Term> {
    if let Term::Bin(b) = t {
        return if b.is_binary() {
            Ok(b.to_bytes())
        } else {
            Err(badarg())
        };
    }
    if utf {
        let mut s = String::new();
        chardata_string(t, &mut s)?;
        Ok(s.into_bytes())
    } else {
        let mut out = Vec::new();
        iolist_bytes(t, &mut out)?;
        Ok(out)
    }
}

fn compile(re: &Term, opts: &Term) -> Flow {
    let o = match options(opts, false) {
        Ok(o) => o,
        Err(Some(why)) => return Flow::Park(why),
        Err(None) => return Flow::badarg(),
    };
    let src = match text(re, o.compile.utf) {
        Ok(s) => s,
        Err(e) => return Flow::error(e),
    };
    match pattern::parse(&src, o.compile) {
        Ok(p) => Flow::Value(tuple2(Term::ok(), compiled_term(&p, &src))),
        Err(PatternError::Syntax(msg, at)) => Flow::Value(tuple2(
            Term::atom("error"),
            tuple2(Term::string(msg), Term::Int(at as i64)),
        )),
        Err(e) => park(e),
    }
}

fn opt_bits(o: &Options) -> u16 {
    [
        o.flags.caseless,
        o.flags.multiline,
        o.flags.dotall,
        o.flags.extended,
        o.flags.ungreedy,
        o.utf,
        o.anchored,
        o.dollar_endonly,
        o.no_auto_capture,
        o.ucp,
        o.dupnames,
    ]
    .iter()
    .enumerate()
    .fold(0, |acc, (i, &b)| acc | (u16::from(b) << i))
}

fn compiled_term(p: &Pattern, src: &[u8]) -> Term {
    let mut bin = TAG.to_vec();
    bin.extend_from_slice(&opt_bits(&p.opts).to_be_bytes());
    bin.extend_from_slice(src);
    Term::tuple(vec![
        Term::atom("re_pattern"),
        Term::Int(p.groups as i64),
        Term::Int(i64::from(p.opts.utf)),
        Term::Int(0),
        Term::binary(bin),
    ])
}

/// A `re_pattern` tuple made by [`compile`]: `None` when the term is none,
/// `Some(Err)` for a pattern racewit cannot run.
fn compiled(t: &Term) -> Option<Result<Pattern, PatternError>> {
    let items = t.as_tuple()?;
    if items.len() != 5 || !items[0].is_atom(Atom::new("re_pattern")) {
        return None;
    }
    let bin = items[4].as_bytes()?;
    let rest = bin.strip_prefix(TAG)?;
    let (bits, src) = (
        u16::from_be_bytes([*rest.first()?, *rest.get(1)?]),
        &rest[2..],
    );
    let b = |i: u32| bits & (1 << i) != 0;
    let mut o = Options {
        utf: b(5),
        anchored: b(6),
        dollar_endonly: b(7),
        no_auto_capture: b(8),
        ucp: b(9),
        dupnames: b(10),
        ..Options::default()
    };
    o.flags.caseless = b(0);
    o.flags.multiline = b(1);
    o.flags.dotall = b(2);
    o.flags.extended = b(3);
    o.flags.ungreedy = b(4);
    Some(pattern::parse(src, o))
}

fn run(subject: &Term, re: &Term, opts: &Term) -> Flow {
    let mut o = match options(opts, true) {
        Ok(o) => o,
        Err(Some(why)) => return Flow::Park(why),
        Err(None) => return Flow::badarg(),
    };
    let p = match compiled(re) {
        Some(_) if o.compile_only => return Flow::badarg(),
        Some(Ok(mut p)) => {
            // Run-time anchoring adds to the pattern's own.
            p.opts.anchored |= o.run.anchored;
            o.run.anchored = p.opts.anchored;
            p
        }
        Some(Err(e)) => return park(e),
        None if re.as_tuple().is_some() => return Flow::badarg(),
        None => {
            let src = match text(re, o.compile.utf) {
                Ok(s) => s,
                Err(e) => return Flow::error(e),
            };
            match pattern::parse(&src, o.compile) {
                Ok(p) => p,
                Err(PatternError::Syntax(msg, at)) if o.report_errors => {
                    return Flow::Value(tuple2(
                        Term::atom("error"),
                        tuple2(
                            Term::atom("compile"),
                            tuple2(Term::string(msg), Term::Int(at as i64)),
                        ),
                    ));
                }
                Err(PatternError::Syntax(..)) => return Flow::badarg(),
                Err(e) => return park(e),
            }
        }
    };
    let utf = p.opts.utf || o.compile.utf;
    let s = match text(subject, utf) {
        Ok(s) => s,
        Err(e) => return Flow::error(e),
    };
    if p.opts.utf && std::str::from_utf8(&s).is_err() {
        return Flow::badarg();
    }
    if p.opts.ucp && !s.is_ascii() {
        return Flow::Park("re option ucp on a non-ASCII subject".into());
    }
    if o.run.offset > s.len() {
        return Flow::badarg();
    }
    let (spec, kind) = o
        .capture
        .clone()
        .unwrap_or((Term::atom("all"), Term::atom("index")));
    let Some(select) = selection(&spec, &p) else {
        return Flow::badarg();
    };
    let Some(kind) = kind
        .as_atom()
        .map(|a| a.name().to_string())
        .filter(|k| matches!(k.as_str(), "index" | "list" | "binary"))
    else {
        return Flow::badarg();
    };
    let limit = || {
        Flow::Park("re match over racewit's step or depth limit, or near its match_limit".into())
    };
    if !o.global {
        return match matcher::find(&p, &s, o.run) {
            Err(matcher::Limit) => limit(),
            Ok(None) => Flow::Value(Term::atom("nomatch")),
            Ok(Some(_)) if matches!(select, Select::None) => Flow::Value(Term::atom("match")),
            Ok(Some(c)) => Flow::Value(tuple2(
                Term::atom("match"),
                captured(&c, &select, &kind, &s, p.opts.utf),
            )),
        };
    }
    let all = match global(&p, &s, o.run) {
        Ok(all) => all,
        Err(matcher::Limit) => return limit(),
    };
    if all.is_empty() {
        return Flow::Value(Term::atom("nomatch"));
    }
    if matches!(select, Select::None) {
        return Flow::Value(Term::atom("match"));
    }
    let items = all
        .iter()
        .map(|c| captured(c, &select, &kind, &s, p.opts.utf))
        .collect();
    Flow::Value(tuple2(Term::atom("match"), Term::list(items)))
}

/// Every match of a global run, as OTP's `re:loopexec/8` finds them.
fn global(p: &Pattern, s: &[u8], base: RunOptions) -> Result<Vec<Caps>, matcher::Limit> {
    let mut out = Vec::new();
    let mut x = base.offset;
    while x <= s.len() {
        let Some(c) = matcher::find(p, s, RunOptions { offset: x, ..base })? else {
            break;
        };
        let (a, e) = c[0].expect("group 0 is set");
        out.push(c);
        if e > a {
            x = e;
            continue;
        }
        let retry = RunOptions {
            offset: x,
            notempty_atstart: true,
            anchored: true,
            ..base
        };
        let next = match matcher::find(p, s, retry)? {
            Some(m) => {
                let (ma, me) = m[0].expect("group 0 is set");
                out.push(m);
                (me > ma).then_some(a + (me - ma))
            }
            None => None,
        };
        x = next.unwrap_or_else(|| a + forward(s, a, p.opts.utf));
    }
    Ok(out)
}

/// One character's length at `a` as `re:forward/5` steps (a UTF-8 lead
/// byte's length, else 1).
fn forward(s: &[u8], a: usize, utf: bool) -> usize {
    match s.get(a) {
        Some(&b) if utf && b & 0xE0 == 0xC0 => 2,
        Some(&b) if utf && b & 0xF0 == 0xE0 => 3,
        Some(&b) if utf && b & 0xF8 == 0xF0 => 4,
        _ => 1,
    }
}

enum Select {
    All,
    AllButFirst,
    First,
    None,
    /// Group numbers; `None` for a name or number that is no group.
    Groups(Vec<Option<usize>>),
}

fn selection(spec: &Term, p: &Pattern) -> Option<Select> {
    if let Some(a) = spec.as_atom() {
        return Some(match a.name() {
            "all" => Select::All,
            "all_but_first" => Select::AllButFirst,
            "first" => Select::First,
            "none" => Select::None,
            "all_names" => Select::Groups(p.names.iter().map(|(_, i)| Some(*i)).collect()),
            _ => return None,
        });
    }
    let items = spec.list_to_vec()?;
    let mut out = Vec::new();
    for it in &items {
        let name = match it {
            Term::Int(i) => {
                out.push(usize::try_from(*i).ok().filter(|&i| i <= p.groups));
                continue;
            }
            Term::Atom(a) => a.name().to_string(),
            Term::Bin(_) => String::from_utf8(it.as_bytes()?).ok()?,
            _ => it.as_charlist()?,
        };
        out.push(p.names.iter().find(|(n, _)| *n == name).map(|x| x.1));
    }
    Some(Select::Groups(out))
}

fn captured(c: &Caps, select: &Select, kind: &str, s: &[u8], utf: bool) -> Term {
    // PCRE reports groups up to the highest one set.
    let reported = c.iter().rposition(Option::is_some).map_or(0, |i| i + 1);
    let idx: Vec<Option<usize>> = match select {
        Select::All => (0..reported).map(Some).collect(),
        Select::AllButFirst => (1..reported).map(Some).collect(),
        Select::First => vec![Some(0)],
        Select::None => Vec::new(),
        Select::Groups(g) => g.clone(),
    };
    let items = idx
        .into_iter()
        .map(|i| {
            let span = i.and_then(|i| c.get(i).copied().flatten());
            match (kind, span) {
                ("index", Some((a, b))) => tuple2(Term::Int(a as i64), Term::Int((b - a) as i64)),
                ("index", None) => tuple2(Term::Int(-1), Term::Int(0)),
                ("binary", Some((a, b))) => Term::binary(s[a..b].to_vec()),
                ("binary", None) => Term::binary(Vec::new()),
                (_, Some((a, b))) if utf => Term::list(
                    String::from_utf8_lossy(&s[a..b])
                        .chars()
                        .map(|ch| Term::Int(i64::from(ch as u32)))
                        .collect(),
                ),
                (_, Some((a, b))) => {
                    Term::list(s[a..b].iter().map(|&b| Term::Int(i64::from(b))).collect())
                }
                (_, None) => Term::Nil,
            }
        })
        .collect();
    Term::list(items)
}

#[cfg(test)]
mod tests {
    use super::matcher::{RunOptions, find};
    use super::pattern::{Options, PatternError, parse};

    fn spans(re: &str, s: &str) -> Option<Vec<Option<(usize, usize)>>> {
        let p = parse(re.as_bytes(), Options::default()).expect("pattern parses");
        find(&p, s.as_bytes(), RunOptions::default()).expect("within limits")
    }

    #[test]
    fn leftmost_then_alternative_order() {
        assert_eq!(spans("a|ab", "xab"), Some(vec![Some((1, 2))]));
        assert_eq!(
            spans("(a|ab)(c|bcd)", "abcd"),
            Some(vec![Some((0, 4)), Some((0, 1)), Some((1, 4))])
        );
    }

    #[test]
    fn long_subject_needs_no_deep_recursion() {
        let s = "x".repeat(200_000) + "y";
        assert_eq!(spans(".*y", &s), Some(vec![Some((0, 200_001))]));
        assert_eq!(spans("[^y]+y", &s), Some(vec![Some((0, 200_001))]));
    }

    #[test]
    fn runaway_backtracking_stops_at_the_limit() {
        let p = parse(b"(a*)*b", Options::default()).expect("parses");
        let s = "a".repeat(40);
        assert!(find(&p, s.as_bytes(), RunOptions::default()).is_err());
    }

    #[test]
    fn a_run_near_the_callers_match_limit_stops() {
        let p = parse(b"(a|b)*c", Options::default()).expect("parses");
        let s = "ab".repeat(50);
        let o = RunOptions {
            max_steps: Some(50),
            ..RunOptions::default()
        };
        assert!(find(&p, s.as_bytes(), o).is_err());
        assert!(find(&p, s.as_bytes(), RunOptions::default()).is_ok());
    }

    #[test]
    fn features_not_run_are_named() {
        for re in [
            "(?R)", "\\p{L}", "(?(1)a)", "\\K", "(*FAIL)", "(?C1)", "(?|a)",
        ] {
            match parse(re.as_bytes(), Options::default()) {
                Err(PatternError::Unsupported(what)) => assert!(!what.is_empty()),
                other => panic!("{re}: {other:?}"),
            }
        }
    }
}

#[cfg(test)]
mod depth_tests {
    use super::matcher::{RunOptions, find};
    use super::pattern::{Options, parse};

    /// A repeat of a group recurses per iteration: past the depth limit the
    /// run stops (and parks) before the thread's stack (2 MiB for a test
    /// thread) runs out.
    #[test]
    fn deep_group_repeat_stops_within_a_small_stack() {
        let s = "ab".repeat(50_000);
        for re in ["(?:ab)*$", "(ab)+x", "(?:a|b)*?$", "((a)(b))*"] {
            let p = parse(re.as_bytes(), Options::default()).expect("parses");
            let _ = find(&p, s.as_bytes(), RunOptions::default());
        }
        let p = parse(b"(?:ab)*$", Options::default()).expect("parses");
        let short = "ab".repeat(100);
        assert_eq!(
            find(&p, short.as_bytes(), RunOptions::default()).expect("within limits"),
            Some(vec![Some((0, 200))])
        );
    }
}
