//! `racewit static PATH...`: the static pass alone.

use std::io::Write;

use anyhow::Result;
use racewit_static::{Category, StaticOptions, find_suspects};

use crate::Outcome;
use crate::project::LoadArgs;
use crate::report::{self, Format};

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub load: LoadArgs,
    #[command(flatten)]
    pub categories: CategoryArgs,
    /// Output format: human (snippets), concise (a line per warning),
    /// github (workflow annotations), json, sarif.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    #[command(flatten)]
    pub color: report::color::ColorArgs,
}

/// Switching categories off, and how far each search from a read goes.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct CategoryArgs {
    /// Turn a category off (repeatable): registry, ets, mnesia, spawn_register, global, persistent_term, application_env.
    #[arg(long = "no", value_name = "CATEGORY", value_parser = parse_category)]
    pub disabled: Vec<Category>,
    /// States a search from one read may visit before it stops (counted as
    /// truncated in the stats); more finds pairs joined by longer paths, at
    /// some cost in time [default: 2500].
    #[arg(long, value_name = "N")]
    pub search_budget: Option<usize>,
    /// Also report pairs whose read or write is in test or example code
    /// (test/, examples/, eqc/, proper/, *_SUITE, *_tests); such code is
    /// always analysed as callers of the code under test.
    #[arg(long)]
    pub include_tests: bool,
}

fn parse_category(s: &str) -> Result<Category, String> {
    Category::parse(s).ok_or_else(|| {
        format!(
            "unknown category `{s}` (registry, ets, mnesia, spawn_register, global, persistent_term, application_env)"
        )
    })
}

impl CategoryArgs {
    pub fn options(&self) -> StaticOptions {
        let mut opts = StaticOptions::default();
        if let Some(n) = self.search_budget {
            opts.search_budget = n;
        }
        for c in &self.disabled {
            opts.categories.remove(c);
        }
        opts.include_tests = self.include_tests;
        opts
    }
}

pub fn run(args: Args) -> Result<Outcome> {
    let opts = args.load.load_options()?;
    let program = crate::progress::load(&args.load.paths, &opts, args.format)?;
    let static_opts = args.categories.options();
    let analysis = find_suspects(&program, &static_opts);
    let mut text = String::new();
    let summary = |text: &mut String| {
        let line = format!(
            "{} suspect(s) in {} module(s)",
            analysis.suspects.len(),
            program.modules.len()
        );
        if args.format.for_people() {
            text.push_str(&report::color::paint(report::color::Paint::Summary, &line));
        } else {
            text.push_str(&line);
        }
        text.push('\n');
        let notes = [
            report::human::limits_note(&analysis.stats, static_opts.search_budget),
            report::human::test_pairs_note(&analysis.stats),
        ];
        for note in notes.into_iter().flatten() {
            text.push_str(&note);
            text.push('\n');
        }
    };
    match args.format {
        Format::Human => {
            report::human::load_diagnostics(&program, &mut text);
            report::human::suspects(&program.sources, &analysis.suspects, &mut text);
            summary(&mut text);
        }
        Format::Concise => {
            report::concise::load_diagnostics(&program, &mut text);
            report::concise::suspects(&analysis.suspects, &mut text);
            summary(&mut text);
        }
        Format::Github => {
            report::github::load_diagnostics(&program, &mut text);
            report::github::suspects(&analysis.suspects, &mut text);
            summary(&mut text);
        }
        Format::Json => {
            let r = report::json::StaticReport {
                version: report::json::REPORT_VERSION,
                suspects: &analysis.suspects,
                diagnostics: report::json::diagnostics(&program),
                stats: &analysis.stats,
            };
            text = serde_json::to_string_pretty(&r)?;
            text.push('\n');
        }
        Format::Sarif => {
            text = serde_json::to_string_pretty(&report::sarif::static_log(
                &program,
                &analysis.suspects,
            ))?;
            text.push('\n');
        }
    }
    std::io::stdout().lock().write_all(text.as_bytes())?;
    Ok(Outcome::Clean)
}
