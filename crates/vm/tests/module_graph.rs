//! The modules of `crates/vm/src` import each other in one direction only.
//!
//! The graph is read from the source: a node per top-level module (a
//! directory module such as `bif/` or `code/` counts as one), an edge from
//! a module to every other module a `crate::` path in its code names
//! (`use crate::a::B`, `use crate::{a, b::C}`, or a path written inline;
//! comments are not code). `super::` stays inside a directory module, so
//! it adds no edge. The test fails on every strongly connected component
//! of more than one module that [`ALLOWED`] does not list, naming a cycle
//! in it and where each of its imports is written; an entry of
//! [`ALLOWED`] that no longer matches a component fails it too, so the
//! list only shrinks.
//!
//! The layers, lowest first ([`LAYERS`]): a module imports only from its
//! own layer or below, and never in a loop. A new module goes in one.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers of the crate, lowest first.
const LAYERS: &[(&str, &[&str])] = &[
    (
        "data",
        &["atom", "term", "format", "arith", "event", "limits"],
    ),
    (
        "models of the outside world",
        &[
            "ets",
            "files",
            "match_spec",
            "mnesia",
            "world",
            "library",
            "prelude",
        ],
    ),
    (
        "code: instruction set, compiler, resolution; matching compiled patterns",
        &["code", "pattern"],
    ),
    (
        "the core: processes, the VM's state, BIFs, the two interpreter loops and what \
         they share, the budget, images, runs",
        &[
            "process", "vm", "budget", "bif", "calling", "hot_loop", "exec", "image", "run",
        ],
    ),
];

/// Cycles that stay, each with why. Empty: none.
const ALLOWED: &[(&[&str], &str)] = &[];

/// One import: the module it names, and where it is written.
type Edges = BTreeMap<String, BTreeMap<String, Vec<String>>>;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("src readable")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The source with comments, string and char literals blanked out (lines
/// kept), so only code is searched.
fn code_only(src: &str) -> String {
    let b: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(b[i]));
                    i += 1;
                }
            }
        } else if c == 'r'
            && (next == Some('"') || next == Some('#'))
            && (i == 0 || !(b[i - 1].is_alphanumeric() || b[i - 1] == '_'))
        {
            // A raw string: r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= b.len() {
                    break;
                }
                if b[j] == '"' && (0..hashes).all(|k| b.get(j + 1 + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            for &x in &b[i..j.min(b.len())] {
                out.push(blank(x));
            }
            i = j;
        } else if c == '"' {
            out.push(' ');
            i += 1;
            while i < b.len() && b[i] != '"' {
                if b[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < b.len() {
                    out.push(blank(b[i]));
                    i += 1;
                }
            }
            out.push(' ');
            i += 1;
        } else if c == '\'' {
            // A char literal ('x', '\n', '\u{..}'), or a lifetime.
            let lit_end = if next == Some('\\') {
                (i + 2..b.len().min(i + 12)).find(|&j| b[j] == '\'')
            } else if b.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match lit_end {
                Some(end) => {
                    for _ in i..=end {
                        out.push(' ');
                    }
                    i = end + 1;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn ident_at(s: &[char], mut i: usize) -> (String, usize) {
    while i < s.len() && s[i].is_whitespace() {
        i += 1;
    }
    let start = i;
    while i < s.len() && (s[i].is_alphanumeric() || s[i] == '_') {
        i += 1;
    }
    (s[start..i].iter().collect(), i)
}

/// The top-level modules each `crate::` path of `code` names, with lines.
fn crate_paths(code: &str) -> Vec<(String, usize)> {
    let s: Vec<char> = code.chars().collect();
    let line_at = |i: usize| s[..i].iter().filter(|&&c| c == '\n').count() + 1;
    let mut found = Vec::new();
    let pat: Vec<char> = "crate::".chars().collect();
    let mut i = 0;
    while i + pat.len() <= s.len() {
        let boundary =
            i == 0 || !(s[i - 1].is_alphanumeric() || s[i - 1] == '_' || s[i - 1] == '$');
        if !(boundary && s[i..i + pat.len()] == pat[..]) {
            i += 1;
            continue;
        }
        let line = line_at(i);
        let mut j = i + pat.len();
        while j < s.len() && s[j].is_whitespace() {
            j += 1;
        }
        if s.get(j) == Some(&'{') {
            // A group: the first segment of each of its items.
            let mut depth = 0;
            let mut expect_item = true;
            while j < s.len() {
                match s[j] {
                    '{' => {
                        depth += 1;
                        expect_item = depth == 1;
                        j += 1;
                    }
                    '}' => {
                        depth -= 1;
                        j += 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    ',' => {
                        expect_item = depth == 1;
                        j += 1;
                    }
                    c if c.is_whitespace() => j += 1,
                    _ if expect_item => {
                        let (name, end) = ident_at(&s, j);
                        if !name.is_empty() {
                            found.push((name, line));
                        }
                        expect_item = false;
                        j = end.max(j + 1);
                    }
                    _ => j += 1,
                }
            }
        } else {
            let (name, end) = ident_at(&s, j);
            if !name.is_empty() {
                found.push((name, line));
            }
            j = end;
        }
        i = j.max(i + 1);
    }
    found
}

fn module_graph(src: &Path) -> (BTreeSet<String>, Edges) {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let node_of = |p: &Path| -> Option<String> {
        let rel = p.strip_prefix(src).ok()?;
        let first = rel.components().next()?.as_os_str().to_str()?.to_string();
        let name = first.strip_suffix(".rs").unwrap_or(&first).to_string();
        (name != "lib").then_some(name)
    };
    let nodes: BTreeSet<String> = files.iter().filter_map(|p| node_of(p)).collect();
    let mut edges = Edges::new();
    for p in &files {
        let Some(from) = node_of(p) else { continue };
        let text = std::fs::read_to_string(p).expect("source readable");
        let rel = p.strip_prefix(src).unwrap_or(p).display().to_string();
        for (to, line) in crate_paths(&code_only(&text)) {
            if to != from && nodes.contains(&to) {
                edges
                    .entry(from.clone())
                    .or_default()
                    .entry(to)
                    .or_default()
                    .push(format!("src/{rel}:{line}"));
            }
        }
    }
    (nodes, edges)
}

/// Strongly connected components of more than one node (Tarjan's).
fn cycles(nodes: &BTreeSet<String>, edges: &Edges) -> Vec<BTreeSet<String>> {
    struct State<'a> {
        edges: &'a Edges,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        out: Vec<BTreeSet<String>>,
    }
    fn visit<'a>(st: &mut State<'a>, v: &'a str) {
        let n = st.index.len();
        st.index.insert(v, n);
        st.low.insert(v, n);
        st.stack.push(v);
        st.on_stack.insert(v);
        let edges = st.edges;
        for w in edges.get(v).into_iter().flat_map(|m| m.keys()) {
            let w = w.as_str();
            if !st.index.contains_key(w) {
                visit(st, w);
                let lw = st.low[w];
                let lv = st.low.get_mut(v).expect("visited");
                *lv = (*lv).min(lw);
            } else if st.on_stack.contains(w) {
                let iw = st.index[w];
                let lv = st.low.get_mut(v).expect("visited");
                *lv = (*lv).min(iw);
            }
        }
        if st.low[v] == st.index[v] {
            let mut comp = BTreeSet::new();
            while let Some(w) = st.stack.pop() {
                st.on_stack.remove(w);
                comp.insert(w.to_string());
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                st.out.push(comp);
            }
        }
    }
    let mut st = State {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in nodes {
        if !st.index.contains_key(v.as_str()) {
            visit(&mut st, v);
        }
    }
    st.out
}

/// One cycle through the first module of `comp`, each import with where
/// it is written.
fn name_cycle(comp: &BTreeSet<String>, edges: &Edges) -> String {
    let start = comp.iter().next().expect("non-empty");
    // Breadth-first from `start` inside the component, back to `start`.
    let mut prev: BTreeMap<&str, &str> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start.as_str()]);
    let mut back = None;
    'search: while let Some(v) = queue.pop_front() {
        for w in edges.get(v).into_iter().flat_map(|m| m.keys()) {
            if !comp.contains(w) {
                continue;
            }
            if w == start {
                back = Some(v);
                break 'search;
            }
            if !prev.contains_key(w.as_str()) {
                prev.insert(w, v);
                queue.push_back(w);
            }
        }
    }
    let mut inner = Vec::new();
    let mut cur = back.expect("a component has a cycle");
    while cur != start {
        inner.push(cur);
        cur = prev[cur];
    }
    inner.reverse();
    let mut path = vec![start.as_str()];
    path.extend(inner);
    path.push(start);
    path.windows(2)
        .map(|w| format!("  {} -> {} ({})", w[0], w[1], edges[w[0]][w[1]].join(", ")))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_modules_import_each_other_in_one_direction() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let (nodes, edges) = module_graph(&src);
    assert!(
        nodes.contains("bif") && nodes.contains("vm") && edges.contains_key("bif"),
        "the module graph was not read: {nodes:?}"
    );
    let mut problems = Vec::new();
    let layer = |m: &str| LAYERS.iter().position(|(_, mods)| mods.contains(&m));
    for m in &nodes {
        if layer(m).is_none() {
            problems.push(format!("module {m} is in no layer: add it to LAYERS"));
        }
    }
    for (from, tos) in &edges {
        for (to, at) in tos {
            if let (Some(lf), Some(lt)) = (layer(from), layer(to))
                && lt > lf
            {
                problems.push(format!(
                    "{from} ({}) imports {to}, a higher layer ({}), at {}",
                    LAYERS[lf].0,
                    LAYERS[lt].0,
                    at.join(", ")
                ));
            }
        }
    }
    let found = cycles(&nodes, &edges);
    for comp in &found {
        if !ALLOWED
            .iter()
            .any(|(mods, _)| mods.iter().map(|m| m.to_string()).collect::<BTreeSet<_>>() == *comp)
        {
            problems.push(format!(
                "modules {comp:?} import each other in a loop, e.g.:\n{}",
                name_cycle(comp, &edges)
            ));
        }
    }
    for (mods, why) in ALLOWED {
        let set: BTreeSet<String> = mods.iter().map(|m| m.to_string()).collect();
        if !found.contains(&set) {
            problems.push(format!(
                "the allowed cycle {mods:?} ({why}) is no longer one: shrink ALLOWED"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

#[test]
fn paths_are_read_from_code_only() {
    let code = code_only(
        "use crate::{a, b::{C, d::E}, f};\n// crate::comment\nlet s = \"crate::text\";\n\
         let c = '\"'; x::<'a>(crate::g::h());\n/* crate::block */ r#\"crate::raw\"#;",
    );
    let names: Vec<String> = crate_paths(&code).into_iter().map(|(n, _)| n).collect();
    assert_eq!(names, ["a", "b", "f", "g"]);
    let edges: Edges = [("x", "y"), ("y", "z"), ("z", "x"), ("z", "w")]
        .iter()
        .map(|(a, b)| {
            (
                a.to_string(),
                BTreeMap::from([(b.to_string(), vec![format!("{a}.rs:1")])]),
            )
        })
        .fold(Edges::new(), |mut acc, (k, v)| {
            acc.entry(k).or_default().extend(v);
            acc
        });
    let nodes: BTreeSet<String> = ["w", "x", "y", "z"].iter().map(|s| s.to_string()).collect();
    let found = cycles(&nodes, &edges);
    assert_eq!(found.len(), 1);
    assert_eq!(
        name_cycle(&found[0], &edges),
        "  x -> y (x.rs:1)\n  y -> z (y.rs:1)\n  z -> x (z.rs:1)"
    );
}
