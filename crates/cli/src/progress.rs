//! Progress on stderr, only when stderr is a terminal and the output is for
//! people (indicatif hides itself otherwise).

use std::io::IsTerminal;
use std::path::PathBuf;

use indicatif::{ProgressBar, ProgressStyle};
use racewit_syntax::ir::Program;
use racewit_syntax::{LoadOptions, load_paths};

use crate::report::Format;

/// Whether progress may be drawn.
pub fn enabled(format: Format) -> bool {
    format.for_people() && std::io::stderr().is_terminal()
}

/// A spinner with a message, or a hidden bar.
pub fn spinner(format: Format, message: &str) -> ProgressBar {
    if !enabled(format) {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new_spinner();
    bar.set_style(
        ProgressStyle::with_template("{spinner} {msg} ({elapsed})")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    bar.set_message(message.to_string());
    bar.enable_steady_tick(std::time::Duration::from_millis(120));
    bar
}

/// Loads with a spinner. Finding no Erlang source file at all is an error
/// (a wrong directory would otherwise read as "no race").
pub fn load(paths: &[PathBuf], opts: &LoadOptions, format: Format) -> anyhow::Result<Program> {
    let sp = spinner(format, "loading");
    let program = load_paths(paths, opts);
    sp.finish_and_clear();
    if program.sources.is_empty() {
        let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        anyhow::bail!(
            "no Erlang source files (.erl) in {}: give the files or the directories that hold them (e.g. src/)",
            shown.join(", ")
        );
    }
    Ok(program)
}

/// A bar counting `total` items, or a hidden bar: `confirming 12/157
/// ct_master:238 (1.2 GB in use) 00:01:05`, its message set by the caller
/// (what is being worked on), the time since it started at the end.
pub fn counter(format: Format, total: u64, prefix: &str) -> ProgressBar {
    if !enabled(format) {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template("{prefix} {pos}/{len} {wide_msg} {elapsed_precise}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_prefix(prefix.to_string());
    bar.enable_steady_tick(std::time::Duration::from_millis(250));
    bar
}

/// What a suspect's progress line names: the module and line of its read
/// (`ct_master:238`).
pub fn suspect_place(s: &racewit_static::Suspect) -> String {
    format!("{}:{}", s.read.module, s.read.line)
}

/// The memory this process holds now (live allocations), for progress
/// lines: `1.2 GB in use`; empty where the allocator does not tell.
pub fn memory_in_use() -> String {
    match crate::caps::allocated_bytes() {
        Some(b) if b >= 1 << 30 => format!("{:.1} GB in use", b as f64 / (1u64 << 30) as f64),
        Some(b) => format!("{} MB in use", b >> 20),
        None => String::new(),
    }
}
