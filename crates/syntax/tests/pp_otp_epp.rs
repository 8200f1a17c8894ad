//! The preprocessor against the real `epp` on the installed OTP tree.
//!
//! - `first_errors_match_epp`: every `.erl` file under the OTP lib dir is
//!   preprocessed (includes searched in the file's dir, `../include`,
//!   `../../include`, include_lib through the lib dirs); its first
//!   preprocessor error must be the one `epp` reports in
//!   `pp_otp25_epp_errors.tsv`, and a file not listed there must get none.
//!   Where this install differs from the one the table was made on (headers
//!   the package does not ship here), the live `epp` decides, when `erl` is
//!   installed.
//! - `tokens_match_epp_scan_file`: on a sample of OTP files, the expanded token
//!   stream (kinds and values, not positions) equals `epp:scan_file/2`'s.
//!
//! Both skip with a notice when OTP is not installed. `-file` attributes are
//! not interpreted (spans stay real positions), so epp's line numbers after a
//! `-file` are mapped back here, and files with `-file` are left out of the
//! token comparison.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use racewit_syntax::diagnostic::DiagnosticCode;
use racewit_syntax::lex::{quote_atom, tokenize};
use racewit_syntax::load::collect_files;
use racewit_syntax::pp::include::decode_text;
use racewit_syntax::pp::{PpEnv, preprocess};
use racewit_syntax::source::{FileId, SourceFile};
use racewit_syntax::token::{IntLit, Punct, TokenKind};
use rayon::prelude::*;

const OTP_LIB: &str = "/usr/lib/erlang/lib";

fn otp_files() -> Vec<PathBuf> {
    if !Path::new(OTP_LIB).is_dir() {
        return Vec::new();
    }
    collect_files(&[PathBuf::from(OTP_LIB)])
}

fn have_erl() -> bool {
    Command::new("erl")
        .args(["-noshell", "-eval", "halt()."])
        .output()
        .is_ok_and(|o| o.status.success())
}

fn rel(p: &Path) -> String {
    p.strip_prefix(OTP_LIB).unwrap_or(p).display().to_string()
}

/// `(line, message)` of a file's first preprocessor error, lines mapped
/// through `-file` attributes as epp reports them.
type FirstError = Option<(u32, String)>;

fn first_error(env: &PpEnv, path: &Path, id: FileId) -> FirstError {
    let text = decode_text(std::fs::read(path).ok()?);
    let file = SourceFile::new(path.to_path_buf(), text.clone());
    let (toks, _) = tokenize(id, &text);
    let out = preprocess(id, &file, toks, env);
    let d = out.diagnostics.iter().find(|d| {
        matches!(
            d.code,
            DiagnosticCode::E020MissingInclude
                | DiagnosticCode::E021UndefinedMacro
                | DiagnosticCode::E022BadMacroCall
                | DiagnosticCode::E023BadConditional
                | DiagnosticCode::E024ErrorDirective
                | DiagnosticCode::E025RedefinedMacro
        )
    })?;
    let line = if d.span.file == id {
        epp_line(&file, file.line_col(d.span.start).line)
    } else {
        let h = env.headers.by_id(d.span.file)?;
        epp_line(&h.file, h.file.line_col(d.span.start).line)
    };
    Some((line, d.message.clone()))
}

/// The line epp reports for real line `line`: after `-file(_, N).` on line
/// `F`, line `L` is reported as `N + (L - F)`.
fn epp_line(file: &SourceFile, line: u32) -> u32 {
    let mut mapped = line;
    for l in 1..line {
        let t = file.line_text(l);
        if let Some(rest) = t.strip_prefix("-file(")
            && let Some(n) = rest
                .rsplit(',')
                .next()
                .and_then(|s| s.trim().trim_end_matches(").").trim().parse::<u32>().ok())
        {
            mapped = n + (line - l);
        }
    }
    mapped
}

/// The table: relative path → (line, message).
fn table() -> BTreeMap<String, (u32, String)> {
    let text = include_str!("pp_otp25_epp_errors.tsv");
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let mut it = l.split('\t');
            let f = it.next()?.to_string();
            let line = it.next()?.parse().ok()?;
            Some((f, (line, it.next()?.to_string())))
        })
        .collect()
}

/// Our message in the table's words: `missing include NAME` / `undefined macro M`
/// (`M` quoted only when it must be, as Erlang prints the atom).
fn table_words(msg: &str) -> String {
    if let Some(rest) = msg
        .strip_prefix("can't find include file \"")
        .or_else(|| msg.strip_prefix("can't find include lib \""))
    {
        // The name ends at its closing quote; a hint may follow it.
        let name = rest.split_once('"').map_or(rest, |(n, _)| n);
        return format!("missing include {name}");
    }
    // The table prints the macro name as an Erlang term (quoted if needed).
    if let Some(name) = msg
        .strip_prefix("undefined macro '")
        .and_then(|r| r.strip_suffix('\''))
    {
        return format!("undefined macro {}", quote_atom(name));
    }
    msg.to_string()
}

/// Run the live epp on `files`: relative path → first error (`None`: none).
fn live_epp(files: &[PathBuf]) -> BTreeMap<String, FirstError> {
    let list = tempfile::NamedTempFile::new().unwrap();
    let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    std::fs::write(list.path(), names.join("\n")).unwrap();
    let prog = format!(
        r#"{{ok, Bin}} = file:read_file("{}"),
        Files = string:lexemes(binary_to_list(Bin), "\n"),
        lists:foreach(fun(F) ->
            Dir = filename:dirname(F),
            Inc = [Dir, filename:join(Dir, "../include"), filename:join(Dir, "../../include")],
            R = case catch epp:scan_file(F, [{{includes, Inc}}]) of
                {{ok, Forms, _}} ->
                    case [E || {{error, E}} <- Forms] of
                        [] -> "OK";
                        [{{Loc, Mod, Reason}} | _] ->
                            L = case Loc of {{Ln, _}} -> Ln; Ln -> Ln end,
                            io_lib:format("~p\t~ts", [L, Mod:format_error(Reason)])
                    end;
                _ -> "CRASH"
            end,
            io:format("~ts\t~ts~n", [F, R])
        end, Files),
        halt()."#,
        list.path().display()
    );
    let out = Command::new("erl")
        .args(["-noshell", "-eval", &prog])
        .output()
        .expect("running erl");
    let text = String::from_utf8_lossy(&out.stdout);
    let mut res = BTreeMap::new();
    for l in text.lines() {
        let mut it = l.split('\t');
        let (Some(f), Some(r)) = (it.next(), it.next()) else {
            continue;
        };
        let v = match r {
            "OK" => None,
            _ => r
                .parse::<u32>()
                .ok()
                .map(|n| (n, it.next().unwrap_or("").to_string())),
        };
        res.insert(rel(Path::new(f)), v);
    }
    res
}

#[test]
fn first_errors_match_epp() {
    let files = otp_files();
    if files.is_empty() {
        eprintln!("notice: no OTP sources under {OTP_LIB}, test skipped");
        return;
    }
    let env = PpEnv::default();
    let ours: Vec<(PathBuf, FirstError)> = files
        .par_iter()
        .enumerate()
        .map(|(i, f)| (f.clone(), first_error(&env, f, FileId(i as u32))))
        .collect();
    let table = table();
    let mut agree = 0;
    let mut differ: Vec<PathBuf> = Vec::new();
    for (f, e) in &ours {
        let expected = table.get(&rel(f));
        let same = match (e, expected) {
            (None, None) => true,
            (Some((l, m)), Some((tl, tm))) => l == tl && table_words(m) == *tm,
            _ => false,
        };
        if same {
            agree += 1;
        } else {
            differ.push(f.clone());
        }
    }
    eprintln!(
        "{} files: {agree} agree with the table, {} differ",
        ours.len(),
        differ.len()
    );
    for f in &differ {
        let r = rel(f);
        eprintln!("  differs from the table: {r} (table {:?})", table.get(&r));
    }
    if differ.is_empty() {
        return;
    }
    assert!(
        have_erl(),
        "{} files differ from the table and erl is not installed to check them: {:?}",
        differ.len(),
        differ.iter().take(10).map(|f| rel(f)).collect::<Vec<_>>()
    );
    // This install differs from the table's: the live epp decides.
    let live = live_epp(&differ);
    let ours: BTreeMap<String, FirstError> = ours.into_iter().map(|(f, e)| (rel(&f), e)).collect();
    let mut wrong = Vec::new();
    for f in &differ {
        let r = rel(f);
        let theirs = live.get(&r).cloned().flatten();
        let mine = ours.get(&r).cloned().flatten();
        if theirs != mine {
            wrong.push(format!("{r}: epp {theirs:?}, ours {mine:?}"));
        }
    }
    eprintln!("{} differing files checked with the live epp", differ.len());
    assert!(
        wrong.is_empty(),
        "{} files differ from epp:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// One token as both sides print it.
fn render_kind(k: &TokenKind) -> Option<String> {
    Some(match k {
        TokenKind::Atom(a) => format!("atom:{a}"),
        TokenKind::Var(v) => format!("var:{v}"),
        TokenKind::Integer(IntLit::Small(i)) => format!("int:{i}"),
        TokenKind::Integer(IntLit::Big(b)) => format!("int:{b}"),
        TokenKind::Float(f) => format!("float:{}", f.to_bits()),
        TokenKind::Char(c) => format!("char:{c}"),
        TokenKind::String(s) => {
            let cps: Vec<String> = s.chars().map(|c| (c as u32).to_string()).collect();
            format!("str:{}", cps.join(","))
        }
        TokenKind::Sigil { .. } => "sigil".to_string(),
        TokenKind::Keyword(k) => format!("sym:{}", k.as_str()),
        TokenKind::Punct(Punct::Dot) => "sym:dot".to_string(),
        TokenKind::Punct(p) => format!("sym:{}", p.as_str()),
        TokenKind::Eof => return None,
    })
}

/// Drop `-file(...)` forms from a token line list (both sides).
fn drop_file_forms(toks: Vec<String>) -> Vec<String> {
    let mut out = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        let start = i;
        while i < toks.len() && toks[i] != "sym:dot" {
            i += 1;
        }
        i = (i + 1).min(toks.len());
        let form = &toks[start..i];
        if form.len() >= 2 && form[0] == "sym:-" && form[1] == "atom:file" {
            continue;
        }
        out.extend_from_slice(form);
    }
    out
}

#[test]
fn tokens_match_epp_scan_file() {
    let files = otp_files();
    if files.is_empty() || !have_erl() {
        eprintln!("notice: OTP sources or erl missing, test skipped");
        return;
    }
    // A deterministic sample: every 15th file, without `-file` attributes.
    let sample: Vec<PathBuf> = files
        .iter()
        .step_by(15)
        .filter(|f| {
            std::fs::read(f).is_ok_and(|b| !String::from_utf8_lossy(&b).contains("\n-file("))
        })
        .cloned()
        .collect();
    let list = tempfile::NamedTempFile::new().unwrap();
    let names: Vec<String> = sample.iter().map(|f| f.display().to_string()).collect();
    std::fs::write(list.path(), names.join("\n")).unwrap();
    let prog = format!(
        r#"{{ok, Bin}} = file:read_file("{}"),
        Files = string:lexemes(binary_to_list(Bin), "\n"),
        Tok = fun({{atom,_,A}}) -> io_lib:format("atom:~ts", [atom_to_list(A)]);
                 ({{var,_,V}}) -> io_lib:format("var:~ts", [atom_to_list(V)]);
                 ({{integer,_,I}}) -> io_lib:format("int:~p", [I]);
                 ({{float,_,X}}) -> <<B:64>> = <<X:64/float>>, io_lib:format("float:~p", [B]);
                 ({{char,_,C}}) -> io_lib:format("char:~p", [C]);
                 ({{string,_,S}}) -> ["str:", lists:join(",", [integer_to_list(Ch) || Ch <- S])];
                 ({{C,_}}) -> io_lib:format("sym:~ts", [atom_to_list(C)]);
                 (T) -> io_lib:format("other:~p", [T]) end,
        lists:foreach(fun(F) ->
            Dir = filename:dirname(F),
            Inc = [Dir, filename:join(Dir, "../include"), filename:join(Dir, "../../include")],
            io:format("FILE\t~ts~n", [F]),
            case epp:scan_file(F, [{{includes, Inc}}]) of
                {{ok, Forms, _}} ->
                    case [E || {{error, E}} <- Forms] of
                        [] -> [[io:format("~ts~n", [Tok(T)]) || T <- Form] || Form <- Forms, is_list(Form)];
                        _ -> io:format("SKIP~n")
                    end;
                _ -> io:format("SKIP~n")
            end
        end, Files),
        halt()."#,
        list.path().display()
    );
    let out = Command::new("erl")
        .args(["-noshell", "-eval", &prog])
        .output()
        .expect("running erl");
    let text = String::from_utf8_lossy(&out.stdout);
    let mut theirs: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut cur: Option<String> = None;
    for l in text.lines() {
        if let Some(f) = l.strip_prefix("FILE\t") {
            cur = Some(f.to_string());
            theirs.insert(f.to_string(), Vec::new());
        } else if l == "SKIP" {
            if let Some(c) = cur.take() {
                theirs.remove(&c);
            }
        } else if let Some(c) = &cur {
            theirs.get_mut(c).unwrap().push(l.to_string());
        }
    }
    assert!(
        theirs.len() >= 40,
        "too few files compared: {}",
        theirs.len()
    );
    let env = PpEnv::default();
    let mut diffs = Vec::new();
    for (i, (f, expected)) in theirs.iter().enumerate() {
        let path = PathBuf::from(f);
        let text: Arc<str> = decode_text(std::fs::read(&path).unwrap());
        let file = SourceFile::new(path.clone(), text.clone());
        let id = FileId(i as u32);
        let (toks, _) = tokenize(id, &text);
        let out = preprocess(id, &file, toks, &env);
        let ours: Vec<String> = out
            .tokens
            .iter()
            .filter_map(|t| render_kind(&t.kind))
            .collect();
        let ours = drop_file_forms(ours);
        let expected = drop_file_forms(expected.clone());
        if ours != expected {
            let at = ours
                .iter()
                .zip(&expected)
                .position(|(a, b)| a != b)
                .unwrap_or(ours.len().min(expected.len()));
            let lo = at.saturating_sub(3);
            diffs.push(format!(
                "{}: token {at}: ours {:?} epp {:?}",
                rel(&path),
                &ours[lo..(at + 3).min(ours.len())],
                &expected[lo..(at + 3).min(expected.len())]
            ));
        }
    }
    eprintln!(
        "{} files compared token by token with epp:scan_file",
        theirs.len()
    );
    assert!(
        diffs.is_empty(),
        "{} files differ:\n{}",
        diffs.len(),
        diffs.join("\n")
    );
}
