//! `racewit.toml`: a project's settings for `check`, found in the project's
//! root (the directory of the first path given, going up to the nearest
//! directory holding `rebar.config`, `erlang.mk`, `racewit.toml` or `.git`;
//! the current directory when no path is given). A flag given on the
//! command line wins over the file, and the file over racewit's defaults;
//! `racewit check --print-config` shows what was used and from where.
//!
//! ```toml
//! [check]
//! entries = ["myapp_tests:concurrent_test/0"]   # run as they are, first
//! bound = 2
//! processes = [2, 3]
//! max_interleavings = 20000
//! max_run_steps = 50000
//! timeout = 300                                 # seconds per suspect
//! max_memory = "4G"
//! exclude = ["examples/**", "test/legacy_*"]    # suspects in these files are not reported
//!
//! [suppress]
//! ids = ["R001:ct_master:238:240"]
//! functions = ["myapp_cache:warm/0"]            # a read or a write in these functions
//! ```

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde::Deserialize;

/// The file's name.
pub const FILE: &str = "racewit.toml";

#[derive(Debug, Default, Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub struct Config {
    #[serde(default)]
    pub check: CheckConfig,
    #[serde(default)]
    pub suppress: SuppressConfig,
}

#[derive(Debug, Default, Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub struct CheckConfig {
    #[serde(default)]
    pub entries: Vec<String>,
    pub bound: Option<u32>,
    pub processes: Option<Vec<usize>>,
    pub max_interleavings: Option<u64>,
    pub max_run_steps: Option<usize>,
    pub timeout: Option<u64>,
    pub max_memory: Option<String>,
    /// `when-stuck`, `always`, `never`, or a number of milliseconds (see
    /// `racewit check --help`).
    pub after_timeout: Option<AfterTimeout>,
    #[serde(default)]
    pub exclude: Vec<String>,
}

/// `after_timeout = "always"` or `after_timeout = 500`.
#[derive(Debug, Deserialize, Clone, PartialEq)]
#[serde(untagged)]
pub enum AfterTimeout {
    Millis(u64),
    Name(String),
}

impl AfterTimeout {
    /// As the command line spells it.
    pub fn text(&self) -> String {
        match self {
            AfterTimeout::Millis(n) => n.to_string(),
            AfterTimeout::Name(s) => s.clone(),
        }
    }
}

#[derive(Debug, Default, Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub struct SuppressConfig {
    #[serde(default)]
    pub ids: Vec<String>,
    #[serde(default)]
    pub functions: Vec<String>,
}

/// A configuration with where it came from.
#[derive(Debug, Default, Clone)]
pub struct Loaded {
    pub config: Config,
    /// The file read, if one was found.
    pub path: Option<PathBuf>,
}

/// The directory a project's files are taken to live in, from the first
/// path given: going up from it to the nearest directory with a marker of a
/// project root.
pub fn project_root(paths: &[PathBuf]) -> PathBuf {
    let start = paths.first().cloned().unwrap_or_else(|| PathBuf::from("."));
    let start = std::fs::canonicalize(&start).unwrap_or(start);
    let start = if start.is_dir() {
        start
    } else {
        start.parent().map(Path::to_path_buf).unwrap_or(start)
    };
    let mut dir = Some(start.as_path());
    while let Some(d) = dir {
        if ["rebar.config", "erlang.mk", FILE, ".git"]
            .iter()
            .any(|m| d.join(m).exists())
        {
            return d.to_path_buf();
        }
        dir = d.parent();
    }
    start
}

/// Reads `racewit.toml` from the project's root, if there is one.
pub fn load(paths: &[PathBuf]) -> Result<Loaded> {
    let path = project_root(paths).join(FILE);
    if !path.is_file() {
        return Ok(Loaded::default());
    }
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let config = parse(&text).with_context(|| format!("reading {}", path.display()))?;
    Ok(Loaded {
        config,
        path: Some(path),
    })
}

/// Parses the file's text.
pub fn parse(text: &str) -> Result<Config> {
    let config: Config = toml::from_str(text)?;
    for e in &config.check.exclude {
        if e.is_empty() {
            bail!("[check] exclude: an empty pattern");
        }
    }
    for f in &config.suppress.functions {
        if parse_mfa(f).is_none() {
            bail!("[suppress] functions: `{f}` is not module:function/arity");
        }
    }
    Ok(config)
}

/// `m:f/a`.
pub fn parse_mfa(text: &str) -> Option<(String, String, u32)> {
    let (m, rest) = text.split_once(':')?;
    let (f, a) = rest.rsplit_once('/')?;
    Some((m.to_string(), f.to_string(), a.parse().ok()?))
}

/// Whether `path` matches a pattern of `[check] exclude`: `*` matches
/// within one path component, `**` any number of components; a pattern
/// without `/` matches any component (`test` excludes every `test/`
/// directory), and a relative pattern matches from any directory down.
pub fn excluded(patterns: &[String], path: &str) -> bool {
    let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
    patterns.iter().any(|pattern| {
        let pat: Vec<&str> = pattern.split('/').filter(|p| !p.is_empty()).collect();
        if !pattern.contains('/') {
            return parts.iter().any(|c| glob_component(pattern, c));
        }
        (0..parts.len()).any(|start| glob_path(&pat, &parts[start..]))
    })
}

fn glob_path(pat: &[&str], parts: &[&str]) -> bool {
    match pat.split_first() {
        None => true,
        Some((&"**", rest)) => (0..=parts.len()).any(|k| glob_path(rest, &parts[k..])),
        Some((p, rest)) => parts
            .split_first()
            .is_some_and(|(c, more)| glob_component(p, c) && glob_path(rest, more)),
    }
}

fn glob_component(pat: &str, text: &str) -> bool {
    let p: Vec<char> = pat.chars().collect();
    let t: Vec<char> = text.chars().collect();
    fn go(p: &[char], t: &[char]) -> bool {
        match p.split_first() {
            None => t.is_empty(),
            Some(('*', rest)) => (0..=t.len()).any(|k| go(rest, &t[k..])),
            Some(('?', rest)) => !t.is_empty() && go(rest, &t[1..]),
            Some((c, rest)) => t.first() == Some(c) && go(rest, &t[1..]),
        }
    }
    go(&p, &t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_file_parses() {
        let c = parse(
            r#"
            [check]
            entries = ["m_tests:t/0"]
            bound = 3
            processes = [2]
            exclude = ["examples/**"]
            [suppress]
            ids = ["R001:m:1:2"]
            functions = ["m:f/1"]
            "#,
        )
        .expect("parses");
        assert_eq!(c.check.bound, Some(3));
        assert_eq!(c.suppress.functions, ["m:f/1"]);
    }

    #[test]
    fn mistakes_are_errors() {
        assert!(parse("[check]\nbund = 3\n").is_err(), "unknown key");
        assert!(parse("[suppress]\nfunctions = [\"m:f\"]\n").is_err());
        assert!(parse("[check]\nbound = \"two\"\n").is_err());
    }

    #[test]
    fn exclusion_patterns() {
        let p = |s: &str| vec![s.to_string()];
        assert!(excluded(
            &p("examples/**"),
            "/home/u/app/examples/demo/x.erl"
        ));
        assert!(!excluded(&p("examples/**"), "/home/u/app/src/x.erl"));
        assert!(excluded(&p("test"), "/a/test/x_tests.erl"));
        assert!(excluded(&p("src/legacy_*.erl"), "app/src/legacy_db.erl"));
        assert!(!excluded(&p("src/legacy_*.erl"), "app/src/db.erl"));
    }
}
