//! Accepting findings: what a team has looked at and decided to live with
//! is not reported again. Three ways, as other checkers have them:
//!
//! - in the code: `-racewit({nowarn, [f/1, ...]}).`, or Dialyzer's
//!   `-dialyzer({nowarn_function, f/1}).` (a list too), in the module of
//!   the read or the write: a suspect whose read or write is in a named
//!   function is not reported;
//! - in `racewit.toml`: `[suppress] ids` and `functions`, and `[check]
//!   exclude` for files;
//! - a baseline: `racewit check --write-baseline FILE` records today's
//!   warnings by a fingerprint that does not move with line numbers (the
//!   category, both calls, their functions and the shared item); `--baseline
//!   FILE` then reports, and fails on, only warnings not in it.
//!
//! Accepted suspects are not confirmed (no time is spent on them) and are
//! counted in the summary.

use std::collections::BTreeSet;
use std::path::Path;

use anyhow::{Context, Result, bail};
use racewit_static::Suspect;
use racewit_syntax::ir::{Const, Program};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::config::Config;

/// How many suspects were accepted, and how.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Accepted {
    pub in_code: usize,
    pub by_config: usize,
    pub excluded_files: usize,
    pub baseline: usize,
}

impl Accepted {
    pub fn total(&self) -> usize {
        self.in_code + self.by_config + self.excluded_files + self.baseline
    }

    /// `; 3 accepted (1 in code, 2 in the baseline)`, or nothing.
    pub fn summary(&self) -> String {
        if self.total() == 0 {
            return String::new();
        }
        let mut parts = Vec::new();
        if self.in_code > 0 {
            parts.push(format!("{} suppressed in code", self.in_code));
        }
        if self.by_config > 0 {
            parts.push(format!("{} suppressed in racewit.toml", self.by_config));
        }
        if self.excluded_files > 0 {
            parts.push(format!("{} in excluded files", self.excluded_files));
        }
        if self.baseline > 0 {
            parts.push(format!("{} in the baseline", self.baseline));
        }
        format!("; {} accepted ({})", self.total(), parts.join(", "))
    }
}

/// Functions whose findings the code itself accepts: `(module, "f/a")`.
pub fn nowarn_in_code(program: &Program) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    for (mname, module) in &program.modules {
        for attr in &module.attributes {
            let listed = match (attr.name.as_str(), &attr.value) {
                ("racewit", Const::Tuple(items)) if items.len() == 2 => {
                    matches!(&items[0], Const::Atom(a) if a == "nowarn").then_some(&items[1])
                }
                ("dialyzer", Const::Tuple(items)) if items.len() == 2 => {
                    matches!(&items[0], Const::Atom(a) if a == "nowarn_function")
                        .then_some(&items[1])
                }
                _ => None,
            };
            let Some(listed) = listed else {
                continue;
            };
            for (f, a) in fun_arities(listed) {
                out.insert((mname.to_string(), format!("{f}/{a}")));
            }
        }
    }
    out
}

/// `f/1` or `[f/1, g/2]` as they lower in an attribute.
fn fun_arities(c: &Const) -> Vec<(String, i64)> {
    match c {
        Const::Tuple(items) => match items.as_slice() {
            [Const::Atom(f), Const::Int(a)] => vec![(f.to_string(), *a)],
            _ => Vec::new(),
        },
        Const::Cons(h, t) => {
            let mut v = fun_arities(h);
            v.extend(fun_arities(t));
            v
        }
        _ => Vec::new(),
    }
}

/// Whether `function` (`m:f/a`, as a suspect names it) is in the set.
fn listed(set: &BTreeSet<(String, String)>, function: &str) -> bool {
    function
        .split_once(':')
        .is_some_and(|(m, fa)| set.contains(&(m.to_string(), fa.to_string())))
}

/// A fingerprint per suspect that does not move with line numbers: a hash
/// of the category, both calls, their functions and the shared item, and
/// the occurrence of that key among the suspects before it.
pub fn fingerprints(suspects: &[&Suspect]) -> Vec<String> {
    let mut seen: Vec<String> = Vec::new();
    suspects
        .iter()
        .map(|s| {
            let key = [
                s.code,
                &s.read.function,
                &s.read.call,
                &s.write.function,
                &s.write.call,
                &s.resource.display,
            ]
            .join("\u{0}");
            let occurrence = seen.iter().filter(|k| **k == key).count();
            seen.push(key.clone());
            let digest = Sha256::digest(format!("{key}\u{0}{occurrence}").as_bytes());
            let hex: String = digest.iter().take(16).map(|b| format!("{b:02x}")).collect();
            format!("{hex}:{occurrence}")
        })
        .collect()
}

/// A baseline file.
#[derive(Serialize, Deserialize, Debug, Default, PartialEq, Eq)]
pub struct Baseline {
    pub version: u32,
    /// The fingerprints of the accepted warnings, sorted.
    pub fingerprints: Vec<String>,
}

const BASELINE_VERSION: u32 = 1;

impl Baseline {
    pub fn read(path: &Path) -> Result<Baseline> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("reading the baseline {}", path.display()))?;
        let b: Baseline = serde_json::from_str(&text)
            .with_context(|| format!("{} is not a racewit baseline", path.display()))?;
        if b.version != BASELINE_VERSION {
            bail!(
                "{}: baseline version {} (this racewit reads {BASELINE_VERSION})",
                path.display(),
                b.version
            );
        }
        Ok(b)
    }

    pub fn of(suspects: &[Suspect]) -> Baseline {
        let refs: Vec<&Suspect> = suspects.iter().collect();
        let mut fingerprints = fingerprints(&refs);
        fingerprints.sort();
        Baseline {
            version: BASELINE_VERSION,
            fingerprints,
        }
    }
}

/// The suspects left once the accepted ones are taken out, and the counts.
pub fn filter(
    program: &Program,
    suspects: Vec<Suspect>,
    config: &Config,
    baseline: Option<&Baseline>,
) -> (Vec<Suspect>, Accepted) {
    let in_code = nowarn_in_code(program);
    let by_config: BTreeSet<(String, String)> = config
        .suppress
        .functions
        .iter()
        .filter_map(|f| crate::config::parse_mfa(f))
        .map(|(m, f, a)| (m, format!("{f}/{a}")))
        .collect();
    let baseline: BTreeSet<&str> = baseline
        .map(|b| b.fingerprints.iter().map(String::as_str).collect())
        .unwrap_or_default();
    let refs: Vec<&Suspect> = suspects.iter().collect();
    let prints = fingerprints(&refs);
    let mut counts = Accepted::default();
    let mut kept = Vec::new();
    for (s, print) in suspects.into_iter().zip(prints) {
        if listed(&in_code, &s.read.function) || listed(&in_code, &s.write.function) {
            counts.in_code += 1;
        } else if config.suppress.ids.contains(&s.id)
            || listed(&by_config, &s.read.function)
            || listed(&by_config, &s.write.function)
        {
            counts.by_config += 1;
        } else if crate::config::excluded(&config.check.exclude, &s.read.file)
            || crate::config::excluded(&config.check.exclude, &s.write.file)
        {
            counts.excluded_files += 1;
        } else if baseline.contains(print.as_str()) {
            counts.baseline += 1;
        } else {
            kept.push(s);
        }
    }
    (kept, counts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nowarn_attributes_in_both_spellings() {
        let p = racewit_syntax::load_source(
            "m.erl",
            "-module(m).\n-export([f/0, g/1, h/0]).\n\
             -racewit({nowarn, [f/0]}).\n\
             -dialyzer({nowarn_function, g/1}).\n\
             -dialyzer({nowarn_function, [h/0]}).\n\
             -dialyzer(no_return).\n\
             f() -> ok.\ng(_) -> ok.\nh() -> ok.\n",
        );
        let set = nowarn_in_code(&p);
        for f in ["f/0", "g/1", "h/0"] {
            assert!(set.contains(&("m".into(), f.into())), "{f}: {set:?}");
        }
        assert_eq!(set.len(), 3);
    }

    #[test]
    fn summaries() {
        assert_eq!(Accepted::default().summary(), "");
        let a = Accepted {
            in_code: 1,
            baseline: 2,
            ..Accepted::default()
        };
        assert_eq!(
            a.summary(),
            "; 3 accepted (1 suppressed in code, 2 in the baseline)"
        );
    }
}
