//! Precedence, associativity and shapes, checked on the syntax tree rendered
//! as S-expressions.

use super::parse_file;
use crate::ast::{ExprKind as K, *};
use crate::lex::tokenize;
use crate::source::{FileId, Span};
use crate::token::{IntLit, Token, TokenKind};

fn sexp(e: &Expr) -> String {
    let list = |v: &[Expr]| v.iter().map(sexp).collect::<Vec<_>>().join(" ");
    match &e.kind {
        K::Missing => "?".into(),
        K::Var(v) | K::Atom(v) => v.to_string(),
        K::Int(IntLit::Small(i)) => i.to_string(),
        K::Int(IntLit::Big(b)) => b.to_string(),
        K::Float(f) => f.to_string(),
        K::Char(c) => format!("${c}"),
        K::String(s) => format!("{s:?}"),
        K::Sigil { prefix, value } => format!("~{}{value:?}", prefix.unwrap_or(' ')),
        K::Tuple(v) => format!("{{{}}}", list(v)),
        K::List { elems, tail } => match tail {
            Some(t) => format!("[{} | {}]", list(elems), sexp(t)),
            None => format!("[{}]", list(elems)),
        },
        K::Op(op, a, b) => format!("({} {} {})", op.erlang_name(), sexp(a), sexp(b)),
        K::UnOp(op, a) => format!("({} {})", op.erlang_name(), sexp(a)),
        K::Andalso(a, b) => format!("(andalso {} {})", sexp(a), sexp(b)),
        K::Orelse(a, b) => format!("(orelse {} {})", sexp(a), sexp(b)),
        K::Match(a, b) => format!("(= {} {})", sexp(a), sexp(b)),
        K::MaybeMatch(a, b) => format!("(?= {} {})", sexp(a), sexp(b)),
        K::Maybe(m) => {
            let mut out = format!("(maybe {}", list(&m.body));
            for c in m.else_clauses.iter().flatten() {
                out.push_str(&format!(" (else {} -> {})", list(&c.pats), list(&c.body)));
            }
            out.push(')');
            out
        }
        K::Send(a, b) => format!("(! {} {})", sexp(a), sexp(b)),
        K::Catch(a) => format!("(catch {})", sexp(a)),
        K::Call { callee, args } => format!("(call {} {})", sexp(callee), list(args)),
        K::Remote { module, function } => format!("{}:{}", sexp(module), sexp(function)),
        K::RecordAccess(r) => format!("(#{}.{} {})", r.name, r.field, sexp(&r.base)),
        K::RecordIndex(r) => format!("#{}.{}", r.name, r.field),
        K::Record(r) => {
            let (base, name, fields) = (&r.base, &r.name, &r.fields);
            let f: Vec<String> = fields
                .iter()
                .map(|f| format!("{}={}", f.name, sexp(&f.value)))
                .collect();
            match base {
                Some(b) => format!("(#{name}{{{}}} {})", f.join(" "), sexp(b)),
                None => format!("#{name}{{{}}}", f.join(" ")),
            }
        }
        K::Map { base, fields } => {
            let f: Vec<String> = fields
                .iter()
                .map(|f| {
                    let op = if f.exact { ":=" } else { "=>" };
                    format!("{}{op}{}", sexp(&f.key), sexp(&f.value))
                })
                .collect();
            match base {
                Some(b) => format!("(#{{{}}} {})", f.join(" "), sexp(b)),
                None => format!("#{{{}}}", f.join(" ")),
            }
        }
        K::Binary(elems) => {
            let v: Vec<String> = elems
                .iter()
                .map(|el| {
                    let mut s = sexp(&el.value);
                    if let Some(size) = &el.size {
                        s.push_str(&format!(":{}", sexp(size)));
                    }
                    for (t, n) in &el.specs {
                        s.push_str(&format!("/{t}"));
                        if let Some(n) = n {
                            s.push_str(&format!(":{n}"));
                        }
                    }
                    s
                })
                .collect();
            format!("<<{}>>", v.join(" "))
        }
        K::FunRef {
            module,
            name,
            arity,
        } => match module {
            Some(m) => format!("(fun {}:{}/{})", sexp(m), sexp(name), sexp(arity)),
            None => format!("(fun {}/{})", sexp(name), sexp(arity)),
        },
        K::Comprehension {
            kind,
            body,
            qualifiers,
        } => {
            let q: Vec<String> = qualifiers.iter().map(qualifier_sexp).collect();
            format!("({kind:?}comp {} || {})", sexp(body), q.join(" "))
        }
        other => format!(
            "<{}>",
            format!("{other:?}")
                .split(['(', ' ', '{'])
                .next()
                .unwrap_or("")
        ),
    }
}

fn qualifier_sexp(q: &Qualifier) -> String {
    match q {
        Qualifier::Generator {
            kind,
            strict,
            pat,
            value,
            expr,
        } => {
            let pat = match value {
                Some(v) => format!("{}:={}", sexp(pat), sexp(v)),
                None => sexp(pat),
            };
            let s = if *strict { "strict " } else { "" };
            format!("({s}{kind:?}gen {pat} {})", sexp(expr))
        }
        Qualifier::Zip(gens) => {
            let g: Vec<String> = gens.iter().map(qualifier_sexp).collect();
            format!("(zip {})", g.join(" "))
        }
        Qualifier::Filter(f) => sexp(f),
    }
}

/// Parse `f() -> EXPR.` and compare the body's S-expression.
fn check(expr: &str, expect: &str) {
    let src = format!("f() -> {expr}.");
    let (mut tokens, lex_diags) = tokenize(FileId(0), &src);
    assert!(lex_diags.is_empty(), "{lex_diags:?}");
    let end = src.len() as u32;
    tokens.push(Token {
        kind: TokenKind::Eof,
        span: Span::new(FileId(0), end, end),
    });
    let (file, diags) = parse_file(&tokens);
    assert!(diags.is_empty(), "{expr}: {diags:?}");
    let Some(Form::Function(f)) = file.forms.first() else {
        panic!("{expr}: no function parsed");
    };
    let body: Vec<String> = f.clauses[0].body.iter().map(sexp).collect();
    assert_eq!(body.join(", "), expect, "{expr}");
}

#[test]
fn match_and_send_are_right_associative_and_loosest() {
    check("A = B = c", "(= A (= B c))");
    check("A ! B ! c", "(! A (! B c))");
    check("A = B ! c", "(= A (! B c))");
    check("X = a orelse b", "(= X (orelse a b))");
}

#[test]
fn boolean_operators() {
    check("a orelse b andalso c", "(orelse a (andalso b c))");
    check("a andalso b andalso c", "(andalso a (andalso b c))");
    check("a andalso b == c", "(andalso a (== b c))");
    check("not a andalso b", "(andalso (not a) b)");
    check("a or b and c", "(or a (and b c))");
}

#[test]
fn arithmetic_and_lists() {
    check("1 + 2 * 3 - 4", "(- (+ 1 (* 2 3)) 4)");
    check("a - b - c", "(- (- a b) c)");
    check("a ++ b ++ c", "(++ a (++ b c))");
    check("a -- b ++ c", "(-- a (++ b c))");
    check("a + b ++ c", "(++ (+ a b) c)");
    check("a div b rem c band d", "(band (rem (div a b) c) d)");
    check("a bor b bsl c", "(bsl (bor a b) c)");
    check("a < b + 1", "(< a (+ b 1))");
    check("- a * b", "(* (- a) b)");
    check("- - a", "(- (- a))");
    check("bnot a + 1", "(+ (bnot a) 1)");
}

#[test]
fn catch_is_loosest() {
    check("catch a = b", "(catch (= a b))");
    check("X = catch a + 1", "(= X (catch (+ a 1)))");
}

#[test]
fn calls_and_remote_calls() {
    check("f(a, b)", "(call f a b)");
    check("m:f(X)", "(call m:f X)");
    check("M:F()", "(call M:F )");
    check("(F)(x)", "(call F x)");
    check("F(x)(y)", "(call (call F x) y)");
    check("(m:f(x))(y)", "(call (call m:f x) y)");
    check("-m:f(x)", "(- (call m:f x))");
}

#[test]
fn records_and_maps() {
    check("R#r.f", "(#r.f R)");
    check("-R#r.f", "(- (#r.f R))");
    check("#r.f", "#r.f");
    check("#r{a = 1, _ = 2}", "#r{a=1 _=2}");
    check("R#r{a = 1}#r.a", "(#r.a (#r{a=1} R))");
    check("#{a => 1, b := 2}", "#{a=>1 b:=2}");
    check("M#{a := 1}#{b => 2}", "(#{b=>2} (#{a:=1} M))");
    check("(R#r.m)#{k => v}", "(#{k=>v} (#r.m R))");
}

#[test]
fn funs() {
    check("fun f/1", "(fun f/1)");
    check("fun m:f/2", "(fun m:f/2)");
    check("fun M:F/A", "(fun M:F/A)");
}

#[test]
fn binaries() {
    check(
        "<<X:8, Y/binary, Z:(N*8)/little-signed-unit:8>>",
        "<<X:8 Y/binary Z:(* N 8)/little/signed/unit:8>>",
    );
    check("<<-1:8, \"ab\", $c>>", "<<(- 1):8 \"ab\" $99>>");
    check(
        "<< <<X>> || <<X>> <= B >>",
        "(Binarycomp <<X>> || (Binarygen <<X>> B))",
    );
}

#[test]
fn comprehensions() {
    check(
        "[X || X <- L, X > 1]",
        "(Listcomp X || (Listgen X L) (> X 1))",
    );
    check(
        "#{K => V || K := V <- M}",
        "(Mapcomp {K V} || (Mapgen K:=V M))",
    );
    check("[X || X <:- L]", "(Listcomp X || (strict Listgen X L))");
    check(
        "[X || <<X>> <:= B]",
        "(Listcomp X || (strict Binarygen <<X>> B))",
    );
}

#[test]
fn zip_generators() {
    check(
        "[{X, Y} || X <- Xs && Y <- Ys]",
        "(Listcomp {X Y} || (zip (Listgen X Xs) (Listgen Y Ys)))",
    );
    // `&&` binds tighter than `,`; all generator kinds and strict forms.
    check(
        "<< <<X, Y>> || <<X>> <= B && K := Y <:- M && Z <:- L, X > 1, W <- Ws >>",
        "(Binarycomp <<X Y>> || (zip (Binarygen <<X>> B) (strict Mapgen K:=Y M) (strict Listgen Z L)) (> X 1) (Listgen W Ws))",
    );
    check(
        "#{K => V || {K, _} <- A && <<V>> <:= B}",
        "(Mapcomp {K V} || (zip (Listgen {K _} A) (strict Binarygen <<V>> B)))",
    );
    check(
        "[X || X <- [1] && Y <- f(A) ++ B]",
        "(Listcomp X || (zip (Listgen X [1]) (Listgen Y (++ (call f A) B))))",
    );
}

/// OTP 27+ code needs no `-feature(maybe_expr, enable)`: the atom `maybe`
/// before the start of an expression opens a block, with `else` read as
/// the keyword there; elsewhere both stay atoms, as in OTP 25.
#[test]
fn maybe_without_the_feature_attribute() {
    check(
        "maybe {ok, X} ?= f(), X end",
        "(maybe (?= {ok X} (call f )) X)",
    );
    check(
        "maybe ok ?= f() else error -> e; _ -> x end",
        "(maybe (?= ok (call f )) (else error -> e) (else _ -> x))",
    );
    check(
        "maybe maybe X ?= a, X end, [else] end",
        "(maybe (maybe (?= X a) X) [else])",
    );
    check("{maybe, else}", "{maybe else}");
    check(
        "maybe(X) + maybe:f() - maybe",
        "(- (+ (call maybe X) (call maybe:f )) maybe)",
    );
    check("case X of maybe -> else end", "<Case>");
    check("try maybe catch _ -> else end", "<Try>");
}

#[test]
fn literals_and_lists() {
    check("\"a\" \"b\" \"c\"", "\"abc\"");
    check("[a, b | T]", "[a b | T]");
    check("[]", "[]");
    check("{}", "{}");
    check("$a", "$97");
    check("~\"x\"", "~ \"x\"");
}
