//! `racewit-bench truth`: scores racewit against the labelled truth sets in
//! `tests/data/truth/` (`otp25.toml`, `projects.toml`).
//!
//! A truth file lists sites: a read and a write of shared state (file, line,
//! call) with a label, `harmful`, `harmless` (both real races) or
//! `not_a_race` (a look-alike). The scorer matches racewit's JSON reports
//! (docs/report.md) to the sites and prints, per label, how many the static
//! pass reported, how many `racewit check` CONFIRMED with a consequence other
//! than `none`, CONFIRMED with `none`, and why the others stayed unconfirmed;
//! then the headline figures of issue 14 (acceptance 1: harmful races
//! CONFIRMED with a real consequence, look-alikes CONFIRMED) and issue 16
//! (acceptance 2: static recall on labelled races, look-alikes filtered).
//!
//! Matching. A report entry (a suspect or a warning) matches a site when its
//! read is at the site's read (or one of `read_also`) and its write, or one
//! of the hops of its path, is at the site's write (or one of `write_also`);
//! a location matches when the lines are equal and the site's file is a
//! suffix of the reported path (and, when the report path is absolute and a
//! root is known, the path is exactly root/file). When an entry matches
//! several sites (sites that share one helper's lines), it goes to those
//! whose `*_also` locations appear most often among the entry's read, write
//! and path; a tie goes to all of them. When several entries match one site,
//! the site takes the most severe verdict: CONFIRMED with a consequence, then
//! CONFIRMED `none`, then UNCONFIRMED (the reasons sorted, the first one
//! counted).
//!
//! Modes:
//! - `--report [name=]FILE` (a `racewit check --format json` report) and
//!   `--static [name=]FILE` (a `racewit static --format json` report): score
//!   existing reports; `name=` gives a project's own report.
//! - `--run RACEWIT`: run racewit itself (static, then check) on the OTP tree
//!   or on each project checkout found under `--root`, then score. Projects
//!   whose sources are absent are skipped and said so.
//!
//! Output is deterministic: sites in file order, counts in fixed order.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs::File;
use std::path::{Component, Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::Deserialize;

// ---------------------------------------------------------------------------
// Truth files
// ---------------------------------------------------------------------------

/// The categories a site may have (racewit's R001-R007).
const CATEGORIES: [&str; 7] = [
    "registry",
    "ets",
    "mnesia",
    "spawn_register",
    "global",
    "persistent_term",
    "application_env",
];

/// A truth file: the OTP set (with `otp_version`, `applications`) or the
/// projects set (with `project` entries).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Truth {
    #[serde(default)]
    pub otp_version: Option<String>,
    #[serde(default)]
    pub source: Option<String>,
    #[serde(default)]
    pub applications: BTreeMap<String, String>,
    #[serde(default)]
    pub project: Vec<Project>,
    #[serde(default)]
    pub site: Vec<Site>,
}

/// A public project whose sites are labelled.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Project {
    pub name: String,
    pub repository: String,
    pub commit: String,
    pub tests: String,
    #[serde(default)]
    pub notes: Option<String>,
}

/// One labelled read/write pair.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Site {
    pub id: String,
    #[serde(default)]
    pub application: Option<String>,
    #[serde(default)]
    pub project: Option<String>,
    pub category: String,
    pub label: Label,
    pub read: SiteLoc,
    pub write: SiteLoc,
    #[serde(default)]
    pub read_also: Vec<SiteLoc>,
    #[serde(default)]
    pub write_also: Vec<SiteLoc>,
    pub why: String,
    pub reachable: String,
    #[serde(default)]
    pub history: Vec<String>,
}

/// A call in the labelled source.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SiteLoc {
    pub file: String,
    pub line: u32,
    pub call: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Label {
    Harmful,
    Harmless,
    NotARace,
}

impl Label {
    const ALL: [Label; 3] = [Label::Harmful, Label::Harmless, Label::NotARace];

    fn name(self) -> &'static str {
        match self {
            Label::Harmful => "harmful",
            Label::Harmless => "harmless",
            Label::NotARace => "not_a_race",
        }
    }

    fn is_race(self) -> bool {
        self != Label::NotARace
    }
}

impl Truth {
    /// Parses a truth file and checks what can be checked without sources:
    /// unique ids, known categories, each site's owner, 40-hex commits.
    pub fn parse(text: &str) -> Result<Truth, String> {
        let truth: Truth = toml::from_str(text).map_err(|e| e.to_string())?;
        let mut ids = BTreeSet::new();
        let projects: BTreeSet<&str> = truth.project.iter().map(|p| p.name.as_str()).collect();
        for p in &truth.project {
            if p.commit.len() != 40 || !p.commit.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Err(format!("project {}: commit is not 40 hex digits", p.name));
            }
        }
        for s in &truth.site {
            if !ids.insert(s.id.as_str()) {
                return Err(format!("site {}: duplicate id", s.id));
            }
            if !CATEGORIES.contains(&s.category.as_str()) {
                return Err(format!("site {}: unknown category {}", s.id, s.category));
            }
            match (&s.application, &s.project) {
                (Some(app), None) => {
                    if !truth.applications.is_empty() && !truth.applications.contains_key(app) {
                        return Err(format!(
                            "site {}: application {app} not in [applications]",
                            s.id
                        ));
                    }
                }
                (None, Some(p)) => {
                    if !projects.contains(p.as_str()) {
                        return Err(format!("site {}: project {p} not declared", s.id));
                    }
                }
                _ => {
                    return Err(format!(
                        "site {}: needs exactly one of application and project",
                        s.id
                    ));
                }
            }
            for l in s.locations() {
                if l.line == 0 || l.call.split_once(':').is_none() || !l.call.contains('/') {
                    return Err(format!("site {}: bad location {l:?}", s.id));
                }
            }
            if s.why.trim().is_empty() || s.reachable.trim().is_empty() {
                return Err(format!("site {}: empty why or reachable", s.id));
            }
        }
        Ok(truth)
    }

    fn is_projects(&self) -> bool {
        !self.project.is_empty()
    }
}

impl Site {
    fn locations(&self) -> impl Iterator<Item = &SiteLoc> {
        [&self.read, &self.write]
            .into_iter()
            .chain(self.read_also.iter())
            .chain(self.write_also.iter())
    }

    fn also(&self) -> impl Iterator<Item = &SiteLoc> {
        self.read_also.iter().chain(self.write_also.iter())
    }

    /// The name of the group the site is scored in: its project, or "" for
    /// the OTP set.
    fn group(&self) -> &str {
        self.project.as_deref().unwrap_or("")
    }
}

/// Whether `line` holds a call of `call` (`m:f/a`): `m:f(`, or a bare `f(`
/// when `m` is `erlang` (auto-imported) or the file's own module.
pub fn line_has_call(line: &str, call: &str, file_module: &str) -> bool {
    let Some((mf, _arity)) = call.rsplit_once('/') else {
        return false;
    };
    let Some((m, f)) = mf.split_once(':') else {
        return false;
    };
    if line.contains(&format!("{m}:{f}(")) {
        return true;
    }
    if m != "erlang" && m != file_module {
        return false;
    }
    let pat = format!("{f}(");
    line.match_indices(&pat).any(|(i, _)| {
        let before = line[..i].chars().next_back();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':' || c == '\'')
    })
}

/// Checks every location of every site against the sources under `root_of`
/// (None: the site's sources are absent). Returns the problems found and how
/// many sites were checked. (The command checks one group at a time, with
/// `check_site_sources`.)
#[cfg(test)]
fn check_sources(
    truth: &Truth,
    root_of: impl Fn(&Site) -> Option<PathBuf>,
) -> (Vec<String>, usize) {
    let mut problems = Vec::new();
    let mut checked = 0;
    for s in &truth.site {
        let Some(root) = root_of(s) else {
            continue;
        };
        checked += 1;
        problems.extend(site_source_problems(s, &root));
    }
    (problems, checked)
}

/// `check_sources` for the sites of one group, all under `root`.
fn check_site_sources(sites: &[&Site], root: &Path) -> (Vec<String>, usize) {
    let problems = sites
        .iter()
        .flat_map(|s| site_source_problems(s, root))
        .collect();
    (problems, sites.len())
}

/// What is wrong with one site's locations under `root`.
fn site_source_problems(s: &Site, root: &Path) -> Vec<String> {
    let mut problems = Vec::new();
    {
        for l in s.locations() {
            let path = root.join(&l.file);
            let Ok(bytes) = std::fs::read(&path) else {
                problems.push(format!("{}: {} does not exist", s.id, path.display()));
                continue;
            };
            let text = String::from_utf8_lossy(&bytes);
            let Some(line) = text.lines().nth(l.line as usize - 1) else {
                problems.push(format!(
                    "{}: {}:{} is past the end of the file",
                    s.id, l.file, l.line
                ));
                continue;
            };
            let module = Path::new(&l.file)
                .file_stem()
                .and_then(|m| m.to_str())
                .unwrap_or("");
            if !line_has_call(line, &l.call, module) {
                problems.push(format!(
                    "{}: {}:{} has no call of {}: {}",
                    s.id,
                    l.file,
                    l.line,
                    l.call,
                    line.trim()
                ));
            }
        }
    }
    problems
}

// ---------------------------------------------------------------------------
// Reports
// ---------------------------------------------------------------------------

/// A position in a report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loc {
    pub file: String,
    pub line: u32,
}

/// What a report says about one suspect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// `racewit static`: reported, not checked.
    Suspect,
    /// CONFIRMED, with the consequence's kind (`crash`, `none`, ...).
    Confirmed(String),
    /// UNCONFIRMED, with the reason's kind (`all_exhausted`, ...).
    Unconfirmed(String),
}

/// One suspect or warning of a report.
#[derive(Debug, Clone)]
pub struct Entry {
    pub id: String,
    pub read: Loc,
    pub write: Loc,
    pub hops: Vec<Loc>,
    pub verdict: Verdict,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportKind {
    Static,
    Check,
}

#[derive(Debug)]
pub struct Report {
    pub kind: ReportKind,
    pub entries: Vec<Entry>,
}

fn json_loc(v: &serde_json::Value) -> Option<Loc> {
    Some(Loc {
        file: v.get("file")?.as_str()?.to_string(),
        line: u32::try_from(v.get("line")?.as_u64()?).ok()?,
    })
}

/// Parses a `racewit static --format json` or `racewit check --format json`
/// document (docs/report.md, version 1).
pub fn parse_report(text: &str) -> Result<Report, String> {
    let doc: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    match doc.get("version").and_then(|v| v.as_u64()) {
        Some(1) => {}
        other => return Err(format!("unsupported report version {other:?}")),
    }
    let (kind, list) = if let Some(w) = doc.get("warnings") {
        (ReportKind::Check, w)
    } else if let Some(s) = doc.get("suspects") {
        (ReportKind::Static, s)
    } else {
        return Err("neither `warnings` nor `suspects`".to_string());
    };
    let list = list
        .as_array()
        .ok_or("`warnings`/`suspects` is not an array")?;
    let mut entries = Vec::with_capacity(list.len());
    for (i, w) in list.iter().enumerate() {
        let id = w
            .get("id")
            .and_then(|v| v.as_str())
            .unwrap_or("")
            .to_string();
        let read = w
            .get("read")
            .and_then(json_loc)
            .ok_or_else(|| format!("entry {i} ({id}): no read file/line"))?;
        let write = w
            .get("write")
            .and_then(json_loc)
            .ok_or_else(|| format!("entry {i} ({id}): no write file/line"))?;
        let hops = w
            .get("path")
            .and_then(|p| p.as_array())
            .map(|p| p.iter().filter_map(json_loc).collect())
            .unwrap_or_default();
        let verdict = match kind {
            ReportKind::Static => Verdict::Suspect,
            ReportKind::Check => match w.get("verdict").and_then(|v| v.as_str()) {
                Some("confirmed") => Verdict::Confirmed(
                    w.pointer("/consequence/kind")
                        .and_then(|v| v.as_str())
                        .unwrap_or("unknown")
                        .to_string(),
                ),
                Some("unconfirmed") => Verdict::Unconfirmed(
                    w.pointer("/reason/kind")
                        .and_then(|v| v.as_str())
                        .unwrap_or("unknown")
                        .to_string(),
                ),
                other => return Err(format!("entry {i} ({id}): verdict {other:?}")),
            },
        };
        entries.push(Entry {
            id,
            read,
            write,
            hops,
            verdict,
        });
    }
    Ok(Report { kind, entries })
}

// ---------------------------------------------------------------------------
// Matching
// ---------------------------------------------------------------------------

/// The components of a path, made absolute against `base` when relative,
/// with `.` and `..` resolved lexically.
fn normal_components(path: &Path, base: Option<&Path>) -> Vec<String> {
    let joined;
    let path = match base {
        Some(b) if path.is_relative() => {
            joined = b.join(path);
            joined.as_path()
        }
        _ => path,
    };
    let mut out: Vec<String> = Vec::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if out.last().is_some_and(|l| l != "/" && l != "..") {
                    out.pop();
                } else {
                    out.push("..".to_string());
                }
            }
            Component::RootDir => out.push("/".to_string()),
            Component::Prefix(p) => out.push(p.as_os_str().to_string_lossy().into_owned()),
            Component::Normal(n) => out.push(n.to_string_lossy().into_owned()),
        }
    }
    out
}

/// Whether a reported path names the site's file (see the module doc).
fn path_matches(reported: &str, site_file: &str, root: Option<&Path>) -> bool {
    let r = normal_components(Path::new(reported), None);
    let s = normal_components(Path::new(site_file), None);
    if s.is_empty() || r.len() < s.len() || r[r.len() - s.len()..] != s[..] {
        return false;
    }
    match root {
        Some(root) if Path::new(reported).is_absolute() => {
            let cwd = std::env::current_dir().ok();
            let root = normal_components(root, cwd.as_deref());
            r.len() == root.len() + s.len() && r[..root.len()] == root[..]
        }
        _ => true,
    }
}

fn loc_matches(loc: &Loc, site: &SiteLoc, root: Option<&Path>) -> bool {
    loc.line == site.line && path_matches(&loc.file, &site.file, root)
}

/// Whether `entry` matches `site`, and how specifically: the number of the
/// site's `*_also` locations found among the entry's read, write and path.
fn match_score(entry: &Entry, site: &Site, root: Option<&Path>) -> Option<usize> {
    let read_ok = std::iter::once(&site.read)
        .chain(site.read_also.iter())
        .any(|l| loc_matches(&entry.read, l, root));
    if !read_ok {
        return None;
    }
    let entry_writes = || std::iter::once(&entry.write).chain(entry.hops.iter());
    let write_ok = std::iter::once(&site.write)
        .chain(site.write_also.iter())
        .any(|l| entry_writes().any(|w| loc_matches(w, l, root)));
    if !write_ok {
        return None;
    }
    let entry_locs = || {
        std::iter::once(&entry.read)
            .chain(std::iter::once(&entry.write))
            .chain(entry.hops.iter())
    };
    Some(
        site.also()
            .filter(|a| entry_locs().any(|l| loc_matches(l, a, root)))
            .count(),
    )
}

/// For each entry of `report`, the indices of the sites (of `sites`) it is
/// attributed to. `root_of` gives a site's source root, if known.
fn attribute(
    report: &Report,
    sites: &[&Site],
    root_of: &dyn Fn(&Site) -> Option<PathBuf>,
) -> Vec<Vec<usize>> {
    let roots: Vec<Option<PathBuf>> = sites.iter().map(|s| root_of(s)).collect();
    report
        .entries
        .iter()
        .map(|e| {
            let scored: Vec<(usize, usize)> = sites
                .iter()
                .enumerate()
                .filter_map(|(i, s)| match_score(e, s, roots[i].as_deref()).map(|sc| (i, sc)))
                .collect();
            let best = scored.iter().map(|&(_, sc)| sc).max();
            scored
                .into_iter()
                .filter(|&(_, sc)| Some(sc) == best)
                .map(|(i, _)| i)
                .collect()
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Scoring
// ---------------------------------------------------------------------------

/// What `racewit check` said about a site, most severe first.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum CheckOutcome {
    ConfirmedHarm(String),
    ConfirmedNone,
    Unconfirmed(String),
    NotReported,
}

impl CheckOutcome {
    fn describe(&self) -> String {
        match self {
            CheckOutcome::ConfirmedHarm(c) => format!("CONFIRMED {c}"),
            CheckOutcome::ConfirmedNone => "CONFIRMED none".to_string(),
            CheckOutcome::Unconfirmed(r) => format!("unconfirmed ({r})"),
            CheckOutcome::NotReported => "not reported".to_string(),
        }
    }
}

/// One site's result.
#[derive(Debug, Clone)]
pub struct SiteResult {
    /// Reported by the static pass (None: no static information).
    pub static_reported: Option<bool>,
    /// The check verdict (None: no check report).
    pub check: Option<CheckOutcome>,
}

/// The reports of one group of sites (the OTP set, or one project).
#[derive(Default)]
pub struct Reports {
    pub check: Vec<Report>,
    pub static_: Vec<Report>,
}

impl Reports {
    fn is_empty(&self) -> bool {
        self.check.is_empty() && self.static_.is_empty()
    }
}

/// Scores the sites against the reports. Static information comes from the
/// static reports if any, else from the check reports (every checked
/// suspect is a static suspect).
pub fn score<'r>(
    sites: &[&Site],
    reports: &'r Reports,
    root_of: &dyn Fn(&Site) -> Option<PathBuf>,
) -> (Vec<SiteResult>, Vec<&'r Entry>) {
    let mut static_hit = vec![false; sites.len()];
    let mut check_hits: Vec<Vec<Verdict>> = vec![Vec::new(); sites.len()];
    let mut unmatched = Vec::new();
    let static_source: &[Report] = if reports.static_.is_empty() {
        &reports.check
    } else {
        &reports.static_
    };
    for r in static_source {
        for owners in attribute(r, sites, root_of) {
            for i in owners {
                static_hit[i] = true;
            }
        }
    }
    for r in &reports.check {
        for (e, owners) in r.entries.iter().zip(attribute(r, sites, root_of)) {
            if owners.is_empty() {
                unmatched.push(e);
            }
            for i in owners {
                check_hits[i].push(e.verdict.clone());
            }
        }
    }
    let have_static = !static_source.is_empty();
    let have_check = !reports.check.is_empty();
    let results = (0..sites.len())
        .map(|i| {
            let check = have_check.then(|| {
                check_hits[i]
                    .iter()
                    .map(|v| match v {
                        Verdict::Confirmed(c) if c == "none" => CheckOutcome::ConfirmedNone,
                        Verdict::Confirmed(c) => CheckOutcome::ConfirmedHarm(c.clone()),
                        Verdict::Unconfirmed(r) => CheckOutcome::Unconfirmed(r.clone()),
                        Verdict::Suspect => CheckOutcome::NotReported,
                    })
                    .min()
                    .unwrap_or(CheckOutcome::NotReported)
            });
            SiteResult {
                static_reported: have_static.then_some(static_hit[i]),
                check,
            }
        })
        .collect();
    (results, unmatched)
}

/// Counts per label, and the headline figures.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Summary {
    pub sites: BTreeMap<Label, usize>,
    pub static_reported: BTreeMap<Label, usize>,
    pub confirmed_harm: BTreeMap<Label, usize>,
    pub confirmed_none: BTreeMap<Label, usize>,
    pub unconfirmed: BTreeMap<Label, BTreeMap<String, usize>>,
    pub not_reported: BTreeMap<Label, usize>,
    pub have_static: bool,
    pub have_check: bool,
}

impl Summary {
    pub fn of(sites: &[&Site], results: &[SiteResult]) -> Summary {
        let mut s = Summary::default();
        for (site, r) in sites.iter().zip(results) {
            let l = site.label;
            *s.sites.entry(l).or_default() += 1;
            if let Some(st) = r.static_reported {
                s.have_static = true;
                if st {
                    *s.static_reported.entry(l).or_default() += 1;
                }
            }
            if let Some(c) = &r.check {
                s.have_check = true;
                match c {
                    CheckOutcome::ConfirmedHarm(_) => *s.confirmed_harm.entry(l).or_default() += 1,
                    CheckOutcome::ConfirmedNone => *s.confirmed_none.entry(l).or_default() += 1,
                    CheckOutcome::Unconfirmed(r) => {
                        *s.unconfirmed
                            .entry(l)
                            .or_default()
                            .entry(r.clone())
                            .or_default() += 1
                    }
                    CheckOutcome::NotReported => *s.not_reported.entry(l).or_default() += 1,
                }
            }
        }
        s
    }

    fn get(m: &BTreeMap<Label, usize>, l: Label) -> usize {
        m.get(&l).copied().unwrap_or(0)
    }

    fn add(&mut self, other: &Summary) {
        fn merge(a: &mut BTreeMap<Label, usize>, b: &BTreeMap<Label, usize>) {
            for (k, v) in b {
                *a.entry(*k).or_default() += v;
            }
        }
        merge(&mut self.sites, &other.sites);
        merge(&mut self.static_reported, &other.static_reported);
        merge(&mut self.confirmed_harm, &other.confirmed_harm);
        merge(&mut self.confirmed_none, &other.confirmed_none);
        merge(&mut self.not_reported, &other.not_reported);
        for (l, m) in &other.unconfirmed {
            let e = self.unconfirmed.entry(*l).or_default();
            for (r, n) in m {
                *e.entry(r.clone()).or_default() += n;
            }
        }
        self.have_static |= other.have_static;
        self.have_check |= other.have_check;
    }

    /// The per-label table, the unconfirmed reasons and the headline figures.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let dash = |b: bool, n: usize| if b { n.to_string() } else { "-".to_string() };
        let _ = writeln!(
            out,
            "{:<11} {:>5} {:>7} {:>10} {:>10} {:>11} {:>12}",
            "label", "sites", "static", "confirmed", "conf.none", "unconfirmed", "not reported"
        );
        for l in Label::ALL {
            let unconf: usize = self.unconfirmed.get(&l).map_or(0, |m| m.values().sum());
            let _ = writeln!(
                out,
                "{:<11} {:>5} {:>7} {:>10} {:>10} {:>11} {:>12}",
                l.name(),
                Self::get(&self.sites, l),
                dash(self.have_static, Self::get(&self.static_reported, l)),
                dash(self.have_check, Self::get(&self.confirmed_harm, l)),
                dash(self.have_check, Self::get(&self.confirmed_none, l)),
                dash(self.have_check, unconf),
                dash(self.have_check, Self::get(&self.not_reported, l)),
            );
        }
        if self.have_check {
            for l in Label::ALL {
                if let Some(m) = self.unconfirmed.get(&l) {
                    let parts: Vec<String> = m.iter().map(|(r, n)| format!("{r} {n}")).collect();
                    let _ = writeln!(
                        out,
                        "unconfirmed reasons, {}: {}",
                        l.name(),
                        parts.join(", ")
                    );
                }
            }
        }
        let pct = |a: usize, b: usize| {
            if b == 0 {
                "n/a".to_string()
            } else {
                format!("{:.1}%", 100.0 * a as f64 / b as f64)
            }
        };
        let harmful = Self::get(&self.sites, Label::Harmful);
        let count = |m: &BTreeMap<Label, usize>, race: bool| -> usize {
            m.iter()
                .filter(|(l, _)| l.is_race() == race)
                .map(|(_, n)| n)
                .sum()
        };
        let races = count(&self.sites, true);
        let lookalikes = Self::get(&self.sites, Label::NotARace);
        if self.have_check {
            let harm = Self::get(&self.confirmed_harm, Label::Harmful);
            let la_conf = Self::get(&self.confirmed_harm, Label::NotARace)
                + Self::get(&self.confirmed_none, Label::NotARace);
            let _ = writeln!(
                out,
                "issue 14 acceptance: harmful races CONFIRMED with a consequence other than none: {harm}/{harmful} ({}), target >= 80%; look-alikes CONFIRMED: {la_conf}/{lookalikes}, target 0",
                pct(harm, harmful)
            );
        }
        if self.have_static {
            let rep = count(&self.static_reported, true);
            let filtered = lookalikes - Self::get(&self.static_reported, Label::NotARace);
            let _ = writeln!(
                out,
                "issue 16 acceptance: static pass reports {rep}/{races} labelled races ({}), target >= 95%; filters {filtered}/{lookalikes} look-alikes ({}), target >= 70%",
                pct(rep, races),
                pct(filtered, lookalikes)
            );
        }
        out
    }
}

/// The per-site lines.
fn render_sites(sites: &[&Site], results: &[SiteResult]) -> String {
    let mut out = String::new();
    for (s, r) in sites.iter().zip(results) {
        let st = match r.static_reported {
            Some(true) => "static: reported",
            Some(false) => "static: not reported",
            None => "static: -",
        };
        let ck = r.check.as_ref().map_or("check: -".to_string(), |c| {
            format!("check: {}", c.describe())
        });
        let _ = writeln!(
            out,
            "  {:<36} {:<10} {:<21} {}",
            s.id,
            s.label.name(),
            st,
            ck
        );
    }
    out
}

// ---------------------------------------------------------------------------
// Running racewit
// ---------------------------------------------------------------------------

/// How to run racewit in `--run` mode.
#[derive(Debug, Clone)]
pub struct RunConfig {
    pub racewit: PathBuf,
    pub out_dir: PathBuf,
    pub static_only: bool,
    pub partitions: u32,
    pub per_dir: bool,
    pub mem_limit_kb: Option<u64>,
    pub time_limit: Option<Duration>,
    pub check_args: Vec<String>,
}

/// The result of one racewit run.
struct RunOutcome {
    report: Option<Report>,
    note: String,
}

/// Runs `racewit <args>` in `cwd` with the memory and time limits, stdout to
/// `out`; parses the report.
fn run_racewit(cfg: &RunConfig, args: &[String], cwd: &Path, out: &Path) -> RunOutcome {
    let err_path = out.with_extension("stderr");
    let (Ok(stdout), Ok(stderr)) = (File::create(out), File::create(&err_path)) else {
        return RunOutcome {
            report: None,
            note: format!("cannot write {}", out.display()),
        };
    };
    let mut cmd = match cfg.mem_limit_kb {
        Some(kb) => {
            let mut c = Command::new("sh");
            c.arg("-c")
                .arg(format!("ulimit -v {kb} && exec \"$0\" \"$@\""))
                .arg(&cfg.racewit);
            c
        }
        None => Command::new(&cfg.racewit),
    };
    cmd.args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(stderr);
    let started = Instant::now();
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            return RunOutcome {
                report: None,
                note: format!("cannot start {}: {e}", cfg.racewit.display()),
            };
        }
    };
    let status = loop {
        match child.try_wait() {
            Ok(Some(st)) => break Some(st),
            Ok(None) => {}
            Err(_) => break None,
        }
        if cfg.time_limit.is_some_and(|t| started.elapsed() > t) {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let secs = started.elapsed().as_secs_f64();
    let text = std::fs::read_to_string(out).unwrap_or_default();
    let status_text = match status {
        Some(st) => match st.code() {
            Some(c) => format!("exit {c}"),
            None => "killed by a signal (memory limit?)".to_string(),
        },
        None => "stopped at the time limit".to_string(),
    };
    match parse_report(&text) {
        Ok(r) => RunOutcome {
            note: format!("{status_text}, {} entries, {secs:.1} s", r.entries.len()),
            report: Some(r),
        },
        Err(e) => {
            let tail: String = std::fs::read_to_string(&err_path)
                .unwrap_or_default()
                .lines()
                .rev()
                .take(3)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect::<Vec<_>>()
                .join(" | ");
            RunOutcome {
                report: None,
                note: format!("{status_text} after {secs:.1} s, no report ({e}); stderr: {tail}"),
            }
        }
    }
}

/// Runs static on `whole` and check on each of `targets` (absolute paths)
/// and collects the reports; prints one line per run. racewit runs in
/// `<out>/<label>/`, so its witnesses (`_racewit/`) land there, never in the
/// sources.
fn run_group(cfg: &RunConfig, label: &str, whole: &str, targets: &[Vec<String>]) -> Reports {
    let mut reports = Reports::default();
    let cwd = cfg.out_dir.join(label);
    let cwd = cwd.as_path();
    let _ = std::fs::create_dir_all(cwd);
    let mut args = vec!["static".to_string(), whole.to_string()];
    args.extend(["--format".to_string(), "json".to_string()]);
    let out = cfg.out_dir.join(format!("{label}.static.json"));
    let r = run_racewit(cfg, &args, cwd, &out);
    println!("  racewit static ({label}): {}", r.note);
    if let Some(rep) = r.report {
        reports.static_.push(rep);
    }
    if cfg.static_only {
        return reports;
    }
    let parts = cfg.partitions.max(1);
    for (ti, target) in targets.iter().enumerate() {
        for k in 1..=parts {
            let mut args = vec!["check".to_string()];
            args.extend(target.iter().cloned());
            args.extend(["--format".to_string(), "json".to_string()]);
            if parts > 1 {
                args.extend(["--partition".to_string(), format!("{k}/{parts}")]);
            }
            args.extend(cfg.check_args.iter().cloned());
            let name = if targets.len() > 1 {
                format!("{label}.check.{ti}.{k}of{parts}.json")
            } else {
                format!("{label}.check.{k}of{parts}.json")
            };
            let out = cfg.out_dir.join(name);
            let r = run_racewit(cfg, &args, cwd, &out);
            println!(
                "  racewit check {} part {k}/{parts}: {}",
                target.join(" "),
                r.note
            );
            if let Some(rep) = r.report {
                reports.check.push(rep);
            }
        }
    }
    reports
}

// ---------------------------------------------------------------------------
// The command
// ---------------------------------------------------------------------------

#[derive(Debug, Default)]
struct Args {
    truth: Vec<PathBuf>,
    reports: Vec<(Option<String>, PathBuf)>,
    statics: Vec<(Option<String>, PathBuf)>,
    root: Option<PathBuf>,
    roots: BTreeMap<String, PathBuf>,
    run: Option<PathBuf>,
    out_dir: Option<PathBuf>,
    static_only: bool,
    partitions: u32,
    per_dir: bool,
    mem_limit_kb: Option<u64>,
    time_limit: Option<Duration>,
    check_args: Vec<String>,
    quiet: bool,
}

const USAGE: &str = "usage: racewit-bench truth [--truth FILE]... (--report [NAME=]FILE | --static [NAME=]FILE | --run RACEWIT)...
  --truth FILE        a truth file (default: tests/data/truth/otp25.toml)
  --report [N=]FILE   a `racewit check --format json` report (N=: project N's)
  --static [N=]FILE   a `racewit static --format json` report
  --root DIR | N=DIR  sources: the OTP lib tree, or DIR/<project> (or N's checkout)
  --run RACEWIT       run racewit (static, then check) and score its reports
    --static-only       only the static pass
    --per-dir           check each application src directory holding a site, one run each
    --partitions N      split each check run with --partition k/N
    --mem-limit-kb N    ulimit -v for each run
    --time-limit S      stop a run after S seconds
    --check-arg ARG     pass ARG to `racewit check` (repeat)
    --out DIR           where the reports go (default target/truth)
  --quiet             no per-site lines";

fn parse_args(args: &[String]) -> Result<Args, String> {
    let mut a = Args::default();
    let mut it = args.iter().filter(|s| s.as_str() != "--");
    let named = |v: &str| match v.split_once('=') {
        Some((n, f)) if !n.contains('/') && !n.is_empty() => {
            (Some(n.to_string()), PathBuf::from(f))
        }
        _ => (None, PathBuf::from(v)),
    };
    while let Some(flag) = it.next() {
        let mut value = || it.next().cloned().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--truth" => a.truth.push(PathBuf::from(value()?)),
            "--report" => a.reports.push(named(&value()?)),
            "--static" => a.statics.push(named(&value()?)),
            "--root" => match named(&value()?) {
                (Some(n), p) => {
                    a.roots.insert(n, p);
                }
                (None, p) => a.root = Some(p),
            },
            "--run" => a.run = Some(PathBuf::from(value()?)),
            "--out" => a.out_dir = Some(PathBuf::from(value()?)),
            "--static-only" => a.static_only = true,
            "--per-dir" => a.per_dir = true,
            "--partitions" => {
                a.partitions = value()?.parse().map_err(|_| "--partitions: a number")?
            }
            "--mem-limit-kb" => {
                a.mem_limit_kb = Some(value()?.parse().map_err(|_| "--mem-limit-kb: a number")?)
            }
            "--time-limit" => {
                let s: u64 = value()?.parse().map_err(|_| "--time-limit: seconds")?;
                a.time_limit = Some(Duration::from_secs(s));
            }
            "--check-arg" => a.check_args.push(value()?),
            "--quiet" => a.quiet = true,
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if a.reports.is_empty() && a.statics.is_empty() && a.run.is_none() {
        return Err("give --report, --static or --run".to_string());
    }
    Ok(a)
}

/// `racewit-bench truth ...`; returns the exit code (0, or 1 on bad input).
pub fn main(args: &[String]) -> i32 {
    let args = match parse_args(args) {
        Ok(a) => a,
        Err(e) if e.is_empty() => {
            println!("{USAGE}");
            return 0;
        }
        Err(e) => {
            eprintln!("truth: {e}");
            eprintln!("{USAGE}");
            return 1;
        }
    };
    let truth_files = if args.truth.is_empty() {
        let p = crate::measure::root().join("tests/data/truth/otp25.toml");
        vec![p.canonicalize().unwrap_or(p)]
    } else {
        args.truth.clone()
    };
    let mut code = 0;
    for path in &truth_files {
        if let Err(e) = score_file(path, &args) {
            eprintln!("truth: {}: {e}", path.display());
            code = 1;
        }
    }
    code
}

fn score_file(path: &Path, args: &Args) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let truth = Truth::parse(&text)?;
    let count = |l: Label| truth.site.iter().filter(|s| s.label == l).count();
    println!(
        "truth {}: {} sites (harmful {}, harmless {}, not_a_race {}){}",
        path.display(),
        truth.site.len(),
        count(Label::Harmful),
        count(Label::Harmless),
        count(Label::NotARace),
        truth
            .otp_version
            .as_ref()
            .map_or(String::new(), |v| format!(", OTP {v}")),
    );
    if let Some(src) = &truth.source {
        println!("sources: {src}");
    }
    let changed = truth.site.iter().filter(|s| !s.history.is_empty()).count();
    println!("sites changed after labelling (with a history note): {changed}");
    let otp_root = args
        .root
        .clone()
        .unwrap_or_else(|| PathBuf::from("/usr/lib/erlang/lib"));
    let project_root = |name: &str| -> Option<PathBuf> {
        args.roots
            .get(name)
            .cloned()
            .or_else(|| args.root.as_ref().map(|r| r.join(name)))
    };
    // The groups to score: the whole OTP set, or one per project.
    let groups: Vec<String> = if truth.is_projects() {
        truth.project.iter().map(|p| p.name.clone()).collect()
    } else {
        vec![String::new()]
    };
    let mut total = Summary::default();
    let mut scored_groups = 0;
    for g in &groups {
        let sites: Vec<&Site> = truth.site.iter().filter(|s| s.group() == g).collect();
        let root: Option<PathBuf> = if g.is_empty() {
            args.root.clone().or_else(|| Some(otp_root.clone()))
        } else {
            project_root(g)
        };
        let heading = if g.is_empty() {
            "OTP".to_string()
        } else {
            let p = truth
                .project
                .iter()
                .find(|p| &p.name == g)
                .expect("declared");
            format!("{g} ({} @ {})", p.repository, &p.commit[..12])
        };
        let reports = if let Some(racewit) = &args.run {
            let Some(root) = root.as_ref().filter(|r| r.is_dir()) else {
                println!(
                    "\n== {heading}: skipped, sources absent{}",
                    root.as_ref()
                        .map_or(String::new(), |r| format!(" at {}", r.display()))
                );
                continue;
            };
            println!("\n== {heading}");
            if !g.is_empty() {
                let p = truth
                    .project
                    .iter()
                    .find(|p| &p.name == g)
                    .expect("declared");
                println!("  {}", commit_note(root, &p.commit));
                println!("  tests: {}", p.tests);
                if let Some(n) = &p.notes {
                    println!("  notes: {n}");
                }
            }
            let cfg = RunConfig {
                // Runs happen in the source root: the binary's path must not
                // depend on the current directory.
                racewit: std::path::absolute(racewit).unwrap_or_else(|_| racewit.clone()),
                out_dir: args
                    .out_dir
                    .clone()
                    .unwrap_or_else(|| crate::measure::root().join("target/truth")),
                static_only: args.static_only,
                partitions: args.partitions,
                per_dir: args.per_dir,
                mem_limit_kb: args.mem_limit_kb,
                time_limit: args.time_limit,
                check_args: args.check_args.clone(),
            };
            let label = if g.is_empty() { "otp" } else { g.as_str() };
            let targets = run_targets(&sites, root, cfg.per_dir, g.is_empty());
            let whole = std::path::absolute(root).unwrap_or_else(|_| root.clone());
            run_group(&cfg, label, &whole.display().to_string(), &targets)
        } else {
            let pick = |list: &[(Option<String>, PathBuf)],
                        want: ReportKind|
             -> Result<Vec<Report>, String> {
                // Unnamed reports apply to every group; NAME= reports to
                // that project only.
                list.iter()
                    .filter(|(n, _)| n.as_deref().is_none_or(|n| !g.is_empty() && n == g))
                    .map(|(_, p)| {
                        let t = std::fs::read_to_string(p)
                            .map_err(|e| format!("{}: {e}", p.display()))?;
                        let r = parse_report(&t).map_err(|e| format!("{}: {e}", p.display()))?;
                        if r.kind != want {
                            return Err(format!(
                                "{}: a {} report where a {} report is expected",
                                p.display(),
                                kind_name(r.kind),
                                kind_name(want)
                            ));
                        }
                        Ok(r)
                    })
                    .collect()
            };
            let reports = Reports {
                check: pick(&args.reports, ReportKind::Check)?,
                static_: pick(&args.statics, ReportKind::Static)?,
            };
            if g.is_empty() {
                println!();
            } else if reports.is_empty() {
                println!("\n== {heading}: skipped, no report given");
                continue;
            } else {
                println!("\n== {heading}");
            }
            reports
        };
        let root_of = |s: &Site| -> Option<PathBuf> {
            if s.group().is_empty() {
                root.clone()
            } else {
                project_root(s.group())
            }
        };
        // The labelled lines, against the sources when they are here.
        if let Some(r) = root.as_ref().filter(|r| r.is_dir()) {
            let (problems, checked) = check_site_sources(&sites, r);
            if problems.is_empty() {
                println!(
                    "  labelled lines verified in {} ({checked} sites)",
                    r.display()
                );
            } else {
                println!(
                    "  WARNING: {} labelled lines do not match the sources in {}:",
                    problems.len(),
                    r.display()
                );
                for p in &problems {
                    println!("    {p}");
                }
            }
        }
        let (results, unmatched) = score(&sites, &reports, &root_of);
        let summary = Summary::of(&sites, &results);
        if !args.quiet {
            print!("{}", render_sites(&sites, &results));
        }
        print!("{}", summary.render());
        if !reports.check.is_empty() {
            let n: usize = reports.check.iter().map(|r| r.entries.len()).sum();
            println!(
                "warnings in the check report(s): {n}, of which {} match no labelled site",
                unmatched.len()
            );
            let confirmed: BTreeSet<&str> = unmatched
                .iter()
                .filter(|e| matches!(e.verdict, Verdict::Confirmed(_)))
                .map(|e| e.id.as_str())
                .collect();
            let confirmed: Vec<&str> = confirmed.into_iter().collect();
            if !confirmed.is_empty() {
                println!(
                    "CONFIRMED warnings at no labelled site ({}): {}",
                    confirmed.len(),
                    confirmed.join(" ")
                );
            }
        }
        total.add(&summary);
        scored_groups += 1;
    }
    if truth.is_projects() {
        println!(
            "\n== all projects ({scored_groups} of {} scored)",
            groups.len()
        );
        if scored_groups == 0 {
            println!("nothing scored");
        } else {
            print!("{}", total.render());
        }
    }
    Ok(())
}

fn kind_name(k: ReportKind) -> &'static str {
    match k {
        ReportKind::Static => "`racewit static`",
        ReportKind::Check => "`racewit check`",
    }
}

/// Whether a checkout is at the labelled commit, when it can tell.
fn commit_note(root: &Path, commit: &str) -> String {
    let head = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(["rev-parse", "HEAD"])
        .stderr(Stdio::null())
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    match head {
        Some(h) if h == commit => format!("checkout at the labelled commit {commit}"),
        Some(h) => format!("WARNING: checkout at {h}, labels are for {commit}: lines may differ"),
        None => format!("labelled commit {commit} (not a git checkout: not verified)"),
    }
}

/// What to check: the whole root, or (OTP, `--per-dir`) each application
/// source directory that holds a labelled site, as absolute paths.
fn run_targets(sites: &[&Site], root: &Path, per_dir: bool, otp: bool) -> Vec<Vec<String>> {
    let abs = std::path::absolute(root).unwrap_or_else(|_| root.to_path_buf());
    if !per_dir {
        return vec![vec![abs.display().to_string()]];
    }
    let dirs: BTreeSet<String> = sites
        .iter()
        .flat_map(|s| [&s.read.file, &s.write.file])
        .filter_map(|f| {
            let comps: Vec<&str> = f.split('/').collect();
            // OTP: <app-vsn>/src; a project: its top directory (src, apps/x, ...).
            let n = if otp { 2 } else { 1 };
            (comps.len() > n).then(|| comps[..n].join("/"))
        })
        .collect();
    dirs.into_iter()
        .map(|d| vec![abs.join(d).display().to_string()])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const TRUTH: &str = r#"
otp_version = "25"
[applications]
demo = "demo-1.0"

[[site]]
id = "a"
application = "demo"
category = "ets"
label = "harmful"
read = { file = "demo-1.0/src/a.erl", line = 10, call = "ets:lookup/2" }
write = { file = "demo-1.0/src/a.erl", line = 12, call = "ets:insert/2" }
why = "two bumps lose one"
reachable = "a:bump/1"

[[site]]
id = "b"
application = "demo"
category = "registry"
label = "not_a_race"
read = { file = "demo-1.0/src/b.erl", line = 5, call = "erlang:whereis/1" }
write = { file = "demo-1.0/src/b.erl", line = 7, call = "erlang:register/2" }
why = "init only"
reachable = "b:init/1"

[[site]]
id = "c"
application = "demo"
category = "ets"
label = "harmless"
read = { file = "demo-1.0/src/c.erl", line = 3, call = "ets:lookup/2" }
write = { file = "demo-1.0/src/c.erl", line = 4, call = "ets:insert/2" }
why = "same value"
reachable = "c:get/1"

[[site]]
id = "h1"
application = "demo"
category = "ets"
label = "harmful"
read = { file = "demo-1.0/src/h.erl", line = 20, call = "ets:lookup/2" }
write = { file = "demo-1.0/src/h.erl", line = 30, call = "ets:insert/2" }
read_also = [{ file = "demo-1.0/src/u.erl", line = 100, call = "h:get/1" }]
write_also = [{ file = "demo-1.0/src/u.erl", line = 101, call = "h:set/2" }]
why = "via u"
reachable = "u:f/0"

[[site]]
id = "h2"
application = "demo"
category = "ets"
label = "not_a_race"
read = { file = "demo-1.0/src/h.erl", line = 20, call = "ets:lookup/2" }
write = { file = "demo-1.0/src/h.erl", line = 30, call = "ets:insert/2" }
read_also = [{ file = "demo-1.0/src/v.erl", line = 200, call = "h:get/1" }]
write_also = [{ file = "demo-1.0/src/v.erl", line = 201, call = "h:set/2" }]
why = "via v, in one server"
reachable = "v:handle_call/3"
"#;

    fn warning(
        read: (&str, u32),
        write: (&str, u32),
        hops: &[(&str, u32)],
        verdict: &str,
    ) -> String {
        let hops: Vec<String> = hops
            .iter()
            .map(|(f, l)| {
                format!(
                    r#"{{"kind":"call","function":"x:y/0","file":"{f}","line":{l},"column":1}}"#
                )
            })
            .collect();
        format!(
            r#"{{"id":"R","category":"ets","read":{{"call":"ets:lookup/2","file":"{}","line":{},"column":5}},"write":{{"call":"ets:insert/2","file":"{}","line":{},"column":5}},"path":[{}],{}}}"#,
            read.0,
            read.1,
            write.0,
            write.1,
            hops.join(","),
            verdict
        )
    }

    fn check_doc(ws: &[String]) -> String {
        format!(
            r#"{{"version":1,"warnings":[{}],"diagnostics":[],"stats":{{}}}}"#,
            ws.join(",")
        )
    }

    const CRASH: &str = r#""verdict":"confirmed","consequence":{"kind":"crash","process":"P1.1","reason":"badarg"},"reason":null"#;
    const NONE: &str = r#""verdict":"confirmed","consequence":{"kind":"none"},"reason":null"#;
    const EXPLORED: &str =
        r#""verdict":"unconfirmed","consequence":null,"reason":{"kind":"all_exhausted"}"#;
    const NOT_REACHED: &str =
        r#""verdict":"unconfirmed","consequence":null,"reason":{"kind":"not_reached","why":"x"}"#;

    fn run(truth: &str, check: &str, root: Option<&str>) -> (Vec<SiteResult>, usize, Summary) {
        let t = Truth::parse(truth).unwrap();
        let sites: Vec<&Site> = t.site.iter().collect();
        let reports = Reports {
            check: vec![parse_report(check).unwrap()],
            static_: vec![],
        };
        let root = root.map(PathBuf::from);
        let (r, unmatched) = score(&sites, &reports, &|_| root.clone());
        let s = Summary::of(&sites, &r);
        (r, unmatched.len(), s)
    }

    #[test]
    fn matches_by_file_suffix_and_lines_and_scores_labels() {
        let doc = check_doc(&[
            warning(
                ("/usr/lib/erlang/lib/demo-1.0/src/a.erl", 10),
                ("/usr/lib/erlang/lib/demo-1.0/src/a.erl", 12),
                &[],
                CRASH,
            ),
            warning(
                ("demo-1.0/src/b.erl", 5),
                ("demo-1.0/src/b.erl", 7),
                &[],
                NONE,
            ),
            warning(
                ("x/demo-1.0/src/c.erl", 3),
                ("x/demo-1.0/src/c.erl", 4),
                &[],
                EXPLORED,
            ),
            // Same file, other lines: matches nothing.
            warning(
                ("demo-1.0/src/a.erl", 11),
                ("demo-1.0/src/a.erl", 12),
                &[],
                CRASH,
            ),
        ]);
        let (r, unmatched, s) = run(TRUTH, &doc, None);
        assert_eq!(
            r[0].check,
            Some(CheckOutcome::ConfirmedHarm("crash".into()))
        );
        assert_eq!(r[1].check, Some(CheckOutcome::ConfirmedNone));
        assert_eq!(
            r[2].check,
            Some(CheckOutcome::Unconfirmed("all_exhausted".into()))
        );
        assert_eq!(r[3].check, Some(CheckOutcome::NotReported));
        assert_eq!(unmatched, 1);
        // Static information comes from the check report here.
        assert_eq!(r[0].static_reported, Some(true));
        assert_eq!(r[3].static_reported, Some(false));
        let text = s.render();
        assert!(
            text.contains(
                "harmful races CONFIRMED with a consequence other than none: 1/2 (50.0%)"
            ),
            "{text}"
        );
        assert!(
            text.contains("look-alikes CONFIRMED: 1/2, target 0"),
            "{text}"
        );
        assert!(
            text.contains("static pass reports 2/3 labelled races (66.7%)"),
            "{text}"
        );
        assert!(text.contains("filters 1/2 look-alikes (50.0%)"), "{text}");
        assert!(
            text.contains("unconfirmed reasons, harmless: all_exhausted 1"),
            "{text}"
        );
    }

    #[test]
    fn a_root_pins_absolute_paths() {
        let doc = check_doc(&[warning(
            ("/elsewhere/demo-1.0/src/a.erl", 10),
            ("/elsewhere/demo-1.0/src/a.erl", 12),
            &[],
            CRASH,
        )]);
        let (r, _, _) = run(TRUTH, &doc, Some("/usr/lib/erlang/lib"));
        assert_eq!(r[0].check, Some(CheckOutcome::NotReported));
        let (r, _, _) = run(TRUTH, &doc, Some("/elsewhere"));
        assert_eq!(
            r[0].check,
            Some(CheckOutcome::ConfirmedHarm("crash".into()))
        );
        // A relative report path is matched by suffix whatever the root.
        let doc = check_doc(&[warning(
            ("./demo-1.0/src/a.erl", 10),
            ("demo-1.0/src/../src/a.erl", 12),
            &[],
            CRASH,
        )]);
        let (r, _, _) = run(TRUTH, &doc, Some("/usr/lib/erlang/lib"));
        assert_eq!(
            r[0].check,
            Some(CheckOutcome::ConfirmedHarm("crash".into()))
        );
    }

    #[test]
    fn the_write_may_be_a_hop_and_also_sites_break_ties() {
        // A write reached through a path hop at the site's write line.
        let doc = check_doc(&[warning(
            ("demo-1.0/src/a.erl", 10),
            ("gen.erl", 99),
            &[("demo-1.0/src/a.erl", 12)],
            CRASH,
        )]);
        let (r, _, _) = run(TRUTH, &doc, None);
        assert_eq!(
            r[0].check,
            Some(CheckOutcome::ConfirmedHarm("crash".into()))
        );
        // Shared helper lines: the path through u.erl goes to h1 only.
        let doc = check_doc(&[warning(
            ("demo-1.0/src/h.erl", 20),
            ("demo-1.0/src/h.erl", 30),
            &[("demo-1.0/src/u.erl", 101)],
            CRASH,
        )]);
        let (r, _, _) = run(TRUTH, &doc, None);
        assert_eq!(
            r[3].check,
            Some(CheckOutcome::ConfirmedHarm("crash".into()))
        );
        assert_eq!(r[4].check, Some(CheckOutcome::NotReported));
        // Reported at the call site through v.erl: h2 only.
        let doc = check_doc(&[warning(
            ("demo-1.0/src/v.erl", 200),
            ("demo-1.0/src/v.erl", 201),
            &[],
            EXPLORED,
        )]);
        let (r, _, _) = run(TRUTH, &doc, None);
        assert_eq!(r[3].check, Some(CheckOutcome::NotReported));
        assert_eq!(
            r[4].check,
            Some(CheckOutcome::Unconfirmed("all_exhausted".into()))
        );
        // No way to tell: both get it.
        let doc = check_doc(&[warning(
            ("demo-1.0/src/h.erl", 20),
            ("demo-1.0/src/h.erl", 30),
            &[],
            NONE,
        )]);
        let (r, _, _) = run(TRUTH, &doc, None);
        assert_eq!(r[3].check, Some(CheckOutcome::ConfirmedNone));
        assert_eq!(r[4].check, Some(CheckOutcome::ConfirmedNone));
    }

    #[test]
    fn the_most_severe_verdict_wins_and_reasons_are_counted() {
        let doc = check_doc(&[
            warning(
                ("demo-1.0/src/a.erl", 10),
                ("demo-1.0/src/a.erl", 12),
                &[],
                NOT_REACHED,
            ),
            warning(
                ("demo-1.0/src/a.erl", 10),
                ("demo-1.0/src/a.erl", 12),
                &[],
                NONE,
            ),
            warning(
                ("demo-1.0/src/c.erl", 3),
                ("demo-1.0/src/c.erl", 4),
                &[],
                NOT_REACHED,
            ),
            warning(
                ("demo-1.0/src/c.erl", 3),
                ("demo-1.0/src/c.erl", 4),
                &[],
                EXPLORED,
            ),
        ]);
        let (r, _, s) = run(TRUTH, &doc, None);
        assert_eq!(r[0].check, Some(CheckOutcome::ConfirmedNone));
        assert_eq!(
            r[2].check,
            Some(CheckOutcome::Unconfirmed("all_exhausted".into()))
        );
        assert_eq!(s.confirmed_none.get(&Label::Harmful), Some(&1));
    }

    #[test]
    fn a_static_report_gives_the_static_columns() {
        let t = Truth::parse(TRUTH).unwrap();
        let sites: Vec<&Site> = t.site.iter().collect();
        let stat = r#"{"version":1,"suspects":[
            {"id":"R002:a:10:12","read":{"file":"demo-1.0/src/a.erl","line":10},"write":{"file":"demo-1.0/src/a.erl","line":12},"path":[]},
            {"id":"R001:b:5:7","read":{"file":"demo-1.0/src/b.erl","line":5},"write":{"file":"demo-1.0/src/b.erl","line":7},"path":[]}
        ],"diagnostics":[],"stats":{}}"#;
        let reports = Reports {
            check: vec![],
            static_: vec![parse_report(stat).unwrap()],
        };
        let (r, _) = score(&sites, &reports, &|_| None);
        assert_eq!(r[0].static_reported, Some(true));
        assert_eq!(r[1].static_reported, Some(true));
        assert_eq!(r[2].static_reported, Some(false));
        assert_eq!(r[0].check, None);
        let text = Summary::of(&sites, &r).render();
        assert!(!text.contains("issue 14"), "{text}");
        assert!(
            text.contains("static pass reports 1/3 labelled races (33.3%)"),
            "{text}"
        );
        assert!(text.contains("filters 1/2 look-alikes (50.0%)"), "{text}");
    }

    #[test]
    fn bad_inputs_are_errors_not_panics() {
        assert!(parse_report("{").is_err());
        assert!(parse_report(r#"{"version":2,"warnings":[]}"#).is_err());
        assert!(parse_report(r#"{"version":1}"#).is_err());
        assert!(parse_report(r#"{"version":1,"warnings":[{"id":"x"}]}"#).is_err());
        assert!(Truth::parse("site = 3").is_err());
        let dup = format!(
            "{TRUTH}\n[[site]]\nid = \"a\"\napplication = \"demo\"\ncategory = \"ets\"\nlabel = \"harmful\"\nread = {{ file = \"f\", line = 1, call = \"ets:lookup/2\" }}\nwrite = {{ file = \"f\", line = 2, call = \"ets:insert/2\" }}\nwhy = \"w\"\nreachable = \"r\"\n"
        );
        assert!(Truth::parse(&dup).unwrap_err().contains("duplicate id"));
        let badcat = TRUTH.replacen("category = \"ets\"", "category = \"locks\"", 1);
        assert!(
            Truth::parse(&badcat)
                .unwrap_err()
                .contains("unknown category")
        );
        let badlabel = TRUTH.replacen("label = \"harmful\"", "label = \"racy\"", 1);
        assert!(Truth::parse(&badlabel).is_err());
        assert!(parse_args(&["--truth".to_string()]).is_err());
        assert!(parse_args(&["--bogus".to_string()]).is_err());
    }

    #[test]
    fn calls_are_found_on_their_lines() {
        assert!(line_has_call(
            "    case whereis(?MODULE) of",
            "erlang:whereis/1",
            "m"
        ));
        assert!(line_has_call(
            "  true = erlang:register(x, self()),",
            "erlang:register/2",
            "m"
        ));
        assert!(!line_has_call(
            "  global:whereis_name(x),",
            "erlang:whereis/1",
            "m"
        ));
        assert!(!line_has_call("  unregister(x),", "erlang:register/2", "m"));
        assert!(line_has_call(
            "    ets:insert(T, {K, V}),",
            "ets:insert/2",
            "m"
        ));
        assert!(!line_has_call(
            "    ets:insert_new(T, {K, V}),",
            "ets:insert/2",
            "m"
        ));
        assert!(line_has_call(
            "  X = get_modules(H),",
            "m:get_modules/1",
            "m"
        ));
        assert!(!line_has_call(
            "  X = get_modules(H),",
            "other:get_modules/1",
            "m"
        ));
    }

    /// The committed truth files: well formed, big enough, and every file:line
    /// names the call it claims (when the sources are installed).
    fn committed(name: &str) -> Truth {
        let path = crate::measure::root().join("tests/data/truth").join(name);
        let text = std::fs::read_to_string(&path).unwrap();
        Truth::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    #[test]
    fn the_otp_truth_set_is_complete_and_points_at_real_calls() {
        let truth = committed("otp25.toml");
        let races = truth.site.iter().filter(|s| s.label.is_race()).count();
        let lookalikes = truth.site.len() - races;
        assert!(truth.site.len() >= 60, "{} sites", truth.site.len());
        assert!(races >= 25, "{races} races");
        assert!(lookalikes >= 25, "{lookalikes} look-alikes");
        for s in &truth.site {
            let app = s
                .application
                .as_ref()
                .expect("an OTP site names its application");
            let dir = &truth.applications[app];
            for l in s.locations() {
                assert!(
                    l.file.starts_with(&format!("{dir}/")),
                    "{}: {} not in {dir}",
                    s.id,
                    l.file
                );
            }
        }
        let lib = Path::new("/usr/lib/erlang/lib");
        if !lib.is_dir() {
            eprintln!(
                "skipped: /usr/lib/erlang/lib is not installed, the OTP sites' lines were not checked"
            );
            return;
        }
        let (problems, checked) = check_sources(&truth, |_| Some(lib.to_path_buf()));
        assert_eq!(checked, truth.site.len());
        assert!(problems.is_empty(), "{}", problems.join("\n"));
        let version =
            std::fs::read_to_string("/usr/lib/erlang/releases/25/OTP_VERSION").unwrap_or_default();
        assert_eq!(
            Some(version.trim()),
            truth.otp_version.as_deref(),
            "installed OTP differs from the labelled one"
        );
    }

    #[test]
    fn the_projects_truth_set_is_complete_and_points_at_real_calls() {
        let truth = committed("projects.toml");
        let mut per: BTreeMap<&str, usize> = BTreeMap::new();
        for s in &truth.site {
            *per.entry(
                s.project
                    .as_deref()
                    .expect("a project site names its project"),
            )
            .or_default() += 1;
        }
        assert!(per.values().filter(|&&n| n >= 5).count() >= 5, "{per:?}");
        // Sources: $RACEWIT_TRUTH_PROJECTS/<name>, checked out at the commit.
        let Some(dir) = std::env::var_os("RACEWIT_TRUTH_PROJECTS").map(PathBuf::from) else {
            eprintln!(
                "skipped: RACEWIT_TRUTH_PROJECTS is not set, the project sites' lines were not checked"
            );
            return;
        };
        let (problems, checked) = check_sources(&truth, |s| {
            let root = dir.join(s.project.as_deref().unwrap_or(""));
            root.is_dir().then_some(root)
        });
        eprintln!(
            "checked {checked} of {} project sites under {}",
            truth.site.len(),
            dir.display()
        );
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }
}
