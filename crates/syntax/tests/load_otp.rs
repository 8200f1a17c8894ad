//! Loading the installed OTP tree end to end (lex, preprocess, parse, lower).
//!
//! - File ids: module files first in sorted path order, then headers in
//!   sorted path order; diagnostics sorted by file then position.
//! - A module whose preprocessing succeeds loads with no diagnostic at all.
//! - The result does not depend on the number of threads.
//!
//! Skips with a notice when OTP is not installed.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use racewit_syntax::ir::Program;
use racewit_syntax::lex::tokenize;
use racewit_syntax::pp::{PpEnv, PpStream, preprocess};
use racewit_syntax::source::FileId;
use racewit_syntax::{DiagnosticCode, LoadOptions, load_paths};

const OTP_LIB: &str = "/usr/lib/erlang/lib";

fn is_pp_error(c: DiagnosticCode) -> bool {
    matches!(
        c,
        DiagnosticCode::E020MissingInclude
            | DiagnosticCode::E021UndefinedMacro
            | DiagnosticCode::E022BadMacroCall
            | DiagnosticCode::E023BadConditional
            | DiagnosticCode::E024ErrorDirective
            | DiagnosticCode::E025RedefinedMacro
    )
}

#[test]
fn otp_tree_loads_cleanly_and_in_order() {
    if !Path::new(OTP_LIB).is_dir() {
        eprintln!("notice: no OTP sources under {OTP_LIB}, test skipped");
        return;
    }
    let t = std::time::Instant::now();
    let prog = load_paths(&[PathBuf::from(OTP_LIB)], &LoadOptions::default());
    eprintln!(
        "loaded {} modules from {} files in {:?}",
        prog.modules.len(),
        prog.sources.len(),
        t.elapsed()
    );
    let n_modules = racewit_syntax::load::collect_files(&[PathBuf::from(OTP_LIB)]).len();
    let paths: Vec<&Path> = prog.sources.iter().map(|(_, f)| f.path.as_path()).collect();
    let (mods, hdrs) = paths.split_at(n_modules);
    assert!(
        mods.iter()
            .all(|p| p.extension().is_some_and(|e| e == "erl"))
    );
    assert!(
        mods.windows(2).all(|w| w[0] < w[1]),
        "module files not sorted"
    );
    assert!(hdrs.windows(2).all(|w| w[0] < w[1]), "headers not sorted");
    assert!(!hdrs.is_empty());
    let keys: Vec<_> = prog
        .diagnostics
        .iter()
        .map(|d| (d.span.file, d.span.start))
        .collect();
    assert!(
        keys.windows(2).all(|w| w[0] <= w[1]),
        "diagnostics not sorted"
    );
    assert!(
        prog.diagnostics
            .iter()
            .all(|d| d.code != DiagnosticCode::E001UnreadableFile)
    );
    // Modules whose preprocessing fails (in their own text or in a header),
    // found by preprocessing each file alone.
    // Each is also preprocessed form by form from its text, as loading
    // does: the same tokens and diagnostics.
    let env = PpEnv::default();
    let mut stream_mismatches = Vec::new();
    let with_pp_error: BTreeSet<FileId> = prog
        .sources
        .iter()
        .take(n_modules)
        .filter(|(id, f)| {
            let (toks, mut lex_diags) = tokenize(*id, &f.text);
            let out = preprocess(*id, f, toks, &env);
            let mut stream = PpStream::new(*id, f, &env);
            let mut streamed = Vec::new();
            while let Some(form) = stream.next_form() {
                streamed.extend_from_slice(form);
                stream.release_form();
            }
            lex_diags.extend(out.diagnostics.iter().cloned());
            if streamed != out.tokens || stream.finish().diagnostics != lex_diags {
                stream_mismatches.push(f.path.display().to_string());
            }
            out.diagnostics.iter().any(|d| is_pp_error(d.code))
        })
        .map(|(id, _)| id)
        .collect();
    assert!(
        stream_mismatches.is_empty(),
        "streamed preprocessing differs: {stream_mismatches:?}"
    );
    let mut unclean = Vec::new();
    for m in prog.modules.values() {
        if with_pp_error.contains(&m.file) {
            continue;
        }
        let own: Vec<_> = prog
            .diagnostics
            .iter()
            .filter(|d| d.span.file == m.file)
            .collect();
        if !own.is_empty() {
            unclean.push(format!(
                "{}: {} {}",
                prog.sources.path(m.file).display(),
                own[0].code.as_str(),
                own[0].message
            ));
        }
    }
    eprintln!(
        "{} module files with a preprocessor error",
        with_pp_error.len()
    );
    assert!(
        unclean.is_empty(),
        "{} modules without preprocessor errors have diagnostics:\n{}",
        unclean.len(),
        unclean.join("\n")
    );
}

fn render(p: &Program) -> String {
    let files: Vec<String> = p
        .sources
        .iter()
        .map(|(_, f)| f.path.display().to_string())
        .collect();
    let diags: Vec<String> = p.diagnostics.iter().map(|d| format!("{d:?}")).collect();
    let spans: Vec<String> = p
        .modules
        .values()
        .flat_map(|m| {
            m.functions
                .iter()
                .map(|f| format!("{:?} {:?}", f.span, f.source_map.exprs.last()))
        })
        .collect();
    format!("{files:?}\n{diags:?}\n{spans:?}")
}

#[test]
fn same_program_with_one_or_two_threads() {
    let Some(app) = std::fs::read_dir(OTP_LIB).ok().and_then(|rd| {
        rd.flatten().map(|e| e.path()).find(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("mnesia-"))
        })
    }) else {
        eprintln!("notice: no OTP mnesia sources, test skipped");
        return;
    };
    let load = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| load_paths(std::slice::from_ref(&app), &LoadOptions::default()))
    };
    let one = render(&load(1));
    let two = render(&load(2));
    assert!(one == two, "loading with 1 and 2 threads differs");
}
