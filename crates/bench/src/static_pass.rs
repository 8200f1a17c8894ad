//! Static pass over the whole OTP tree.

use racewit_static::{StaticOptions, find_suspects};
use racewit_syntax::{LoadOptions, load_paths};

use crate::measure::{cpu_seconds, otp_lib, peak_rss_mb, timed};

pub fn run() {
    println!("\n== static pass: the OTP library tree");
    let Some(lib) = otp_lib() else {
        println!("skipped: /usr/lib/erlang/lib not installed (apt-get install erlang-src)");
        return;
    };
    let (load_s, program) =
        timed(|| load_paths(std::slice::from_ref(&lib), &LoadOptions::default()));
    let cpu0 = cpu_seconds();
    let (static_s, analysis) = timed(|| find_suspects(&program, &StaticOptions::default()));
    let static_cpu = cpu_seconds() - cpu0;
    let ct_master = analysis.suspects.iter().any(|s| {
        s.read.module == "ct_master"
            && s.read.call == "erlang:whereis/1"
            && s.write.call == "erlang:register/2"
    });
    println!(
        "load {load_s:.2} s, static pass {static_s:.2} s, total {:.2} s, peak RSS {:.0} MB, {} suspects; ct_master whereis/register race found: {ct_master}",
        load_s + static_s,
        peak_rss_mb(),
        analysis.suspects.len()
    );
    let phases: Vec<String> = analysis
        .timings
        .iter()
        .map(|(p, ms)| format!("{p} {:.2} s", *ms as f64 / 1000.0))
        .collect();
    println!(
        "  static pass CPU {static_cpu:.2} s (all threads); phases (wall): {}",
        phases.join(", ")
    );
    println!(
        "  reads {}, writes {}, truncated searches {}, filtered {}",
        analysis.stats.reads,
        analysis.stats.writes,
        analysis.stats.truncated_searches,
        analysis.stats.filtered
    );
    for (cat, n) in &analysis.stats.per_category {
        println!("  {cat:<16} {n}");
    }
    let mut apps: Vec<(&String, usize)> = analysis
        .stats
        .per_application
        .iter()
        .map(|(a, m)| (a, m.values().sum()))
        .collect();
    apps.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let top: Vec<String> = apps
        .iter()
        .take(12)
        .map(|(a, n)| format!("{a} {n}"))
        .collect();
    println!("  per application (top 12): {}", top.join(", "));
}
