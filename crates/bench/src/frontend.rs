//! Front end over the whole OTP tree, side by side with the real epp.

use std::process::Command;

use racewit_syntax::{LoadOptions, Severity, load_paths};

use crate::measure::{erl_files, have, otp_lib, peak_rss_mb, timed};

pub fn run() {
    println!("\n== front end: the OTP library tree");
    let Some(lib) = otp_lib() else {
        println!("skipped: /usr/lib/erlang/lib not installed (apt-get install erlang-src)");
        return;
    };
    let files = erl_files(&lib);
    let bytes: u64 = files
        .iter()
        .filter_map(|f| std::fs::metadata(f).ok())
        .map(|m| m.len())
        .sum();
    let (secs, program) = timed(|| load_paths(std::slice::from_ref(&lib), &LoadOptions::default()));
    let with_errors: std::collections::BTreeSet<_> = program
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.span.file)
        .collect();
    println!(
        "racewit: {} files, {:.1} MB, {} modules, {} files with errors, {:.2} s wall ({:.0} MB/s), peak RSS {:.0} MB",
        files.len(),
        bytes as f64 / 1e6,
        program.modules.len(),
        with_errors.len(),
        secs,
        bytes as f64 / 1e6 / secs,
        peak_rss_mb()
    );
    drop(program);
    if !have("erl") {
        println!("epp: skipped (erl not installed)");
        return;
    }
    // The same files through epp:parse_file, one after the other, with the
    // include path the acceptance uses.
    let list: Vec<String> = files
        .iter()
        .map(|f| format!("\"{}\"", f.display()))
        .collect();
    let script = format!(
        "Fs = [{}], \
         {{T, _}} = timer:tc(fun() -> [begin D = filename:dirname(F), \
             epp:parse_file(F, [{{includes, [D, filename:join(D, \"../include\"), filename:join(D, \"../../include\")]}}]) end || F <- Fs] end), \
         io:format(\"~p~n\", [T]), halt().",
        list.join(",")
    );
    let path = std::env::temp_dir().join("racewit_bench_epp.erl_eval");
    if std::fs::write(&path, &script).is_err() {
        println!("epp: skipped (cannot write a temp file)");
        return;
    }
    let out = Command::new("erl")
        .args(["-noshell", "-eval"])
        .arg(format!("{{ok, B}} = file:read_file(\"{}\"), {{ok, Ts, _}} = erl_scan:string(binary_to_list(B)), {{ok, Es}} = erl_parse:parse_exprs(Ts), erl_eval:exprs(Es, []).", path.display()))
        .output();
    match out {
        Ok(o) if o.status.success() => {
            let us: f64 = String::from_utf8_lossy(&o.stdout)
                .trim()
                .parse()
                .unwrap_or(0.0);
            let epp = us / 1e6;
            println!(
                "epp:parse_file loop (1 thread): {epp:.2} s  ->  racewit is {:.1}x faster",
                epp / secs
            );
        }
        Ok(o) => println!(
            "epp: failed: {}",
            String::from_utf8_lossy(&o.stderr)
                .lines()
                .next()
                .unwrap_or("")
        ),
        Err(e) => println!("epp: failed to start erl: {e}"),
    }
}
