//! Every OTP source file that the real preprocessor handles must load with
//! no syntax (E010), unbound variable (E031) or record (E030) diagnostic.
//! Skips with a notice when the OTP sources are not installed.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use racewit_syntax::diagnostic::DiagnosticCode;
use racewit_syntax::{LoadOptions, load_paths};

const OTP_LIB: &str = "/usr/lib/erlang/lib";

/// Files (relative to the OTP lib dir) that `epp` itself cannot preprocess.
fn epp_failures() -> BTreeSet<String> {
    let tsv = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/pp_otp25_epp_errors.tsv");
    let text = std::fs::read_to_string(tsv).unwrap_or_default();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split('\t').next())
        .map(str::to_string)
        .collect()
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "erl") {
            out.push(p);
        }
    }
}

#[test]
fn otp_sources_load_without_syntax_errors() {
    let mut files = Vec::new();
    collect(Path::new(OTP_LIB), &mut files);
    if files.is_empty() {
        eprintln!("notice: no OTP sources under {OTP_LIB}, test skipped");
        return;
    }
    let skip = epp_failures();
    files.retain(|f| {
        let rel = f
            .strip_prefix(OTP_LIB)
            .unwrap_or(f)
            .to_string_lossy()
            .to_string();
        !skip.contains(&rel)
    });
    files.sort();
    let opts = LoadOptions {
        lib_dirs: vec![PathBuf::from(OTP_LIB)],
        // Judged against epp: include exactly as it does.
        epp_includes_only: true,
        ..LoadOptions::default()
    };
    let program = load_paths(&files, &opts);
    // Files whose headers are not installed here cannot be judged.
    // (A module is also in this case when a header it includes lacks one.)
    let lacking: BTreeSet<String> = program
        .diagnostics
        .iter()
        .filter(|d| d.code == DiagnosticCode::E020MissingInclude)
        .map(|d| program.sources.location(d.span).file)
        .collect();
    let lacking_headers: Vec<String> = lacking
        .iter()
        .filter(|f| f.ends_with(".hrl"))
        .filter_map(|f| {
            Path::new(f)
                .file_name()
                .map(|n| n.to_string_lossy().to_string())
        })
        .collect();
    let missing_include: BTreeSet<String> = files
        .iter()
        .map(|f| f.display().to_string())
        .filter(|f| {
            lacking.contains(f)
                || std::fs::read_to_string(f).is_ok_and(|text| {
                    lacking_headers.iter().any(|h| {
                        let quoted = format!("\"{h}\"");
                        let in_dir = format!("/{h}\"");
                        text.contains(&quoted) || text.contains(&in_dir)
                    })
                })
        })
        .collect();
    let mut bad: BTreeSet<String> = BTreeSet::new();
    let mut shown = Vec::new();
    for d in &program.diagnostics {
        if !matches!(
            d.code,
            DiagnosticCode::E010Syntax
                | DiagnosticCode::E030UndefinedRecord
                | DiagnosticCode::E031UnboundVar
        ) {
            continue;
        }
        let loc = program.sources.location(d.span);
        if missing_include.contains(&loc.file) {
            continue;
        }
        if bad.insert(loc.file.clone()) || shown.len() < 400 {
            shown.push(format!("{loc}: {} {}", d.code.as_str(), d.message));
        }
    }
    let mut by_code: std::collections::BTreeMap<&str, usize> = Default::default();
    for d in &program.diagnostics {
        *by_code.entry(d.code.as_str()).or_default() += 1;
    }
    eprintln!("diagnostics by code over the tree: {by_code:?}");
    let judged = files.len() - missing_include.len();
    let clean = judged - bad.len();
    eprintln!(
        "{clean} / {judged} OTP files load with no syntax diagnostic ({} more lack a header here)",
        missing_include.len()
    );
    assert!(bad.is_empty(), "{}", shown.join("\n"));
}
