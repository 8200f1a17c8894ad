//! What runs to confirm a suspect: a generated Erlang module that sets up what
//! the code needs, then starts N worker processes that each call the
//! suspect's entry function, and waits for them.
//!
//! The harness is ordinary Erlang, loaded beside the user's modules and shown
//! in reports so a user can paste it into a test. The root process is `P1`;
//! the workers are `P1.1`, `P1.2`, ... in spawn order.

use racewit_static::{ArgHint, Entry, Suspect};
use racewit_syntax::ir::Program;

/// A harness ready to load.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Harness {
    /// Name of the generated module (`racewit_harness_<n>`).
    pub module: String,
    /// The function the root process runs (`run/0`).
    pub function: String,
    /// Setup calls made first, in the root process (`counter:init()`).
    pub setup: Vec<String>,
    /// One call per worker process (`counter:incr(hits)`).
    pub workers: Vec<String>,
    /// The full Erlang source of the module.
    pub source: String,
}

/// Why no harness could be built for a suspect.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, serde::Serialize)]
pub enum HarnessError {
    #[error("no exported function reaches the read (nothing a harness can call)")]
    NoEntry,
    #[error("entry {mfa} is not a loaded function")]
    UnknownEntry { mfa: String },
}

/// Builds the harness for `suspect` with `processes` workers, named
/// `racewit_harness_<index>`.
pub fn build(program: &Program, suspect: &Suspect, processes: usize, index: usize) -> Result<Harness, HarnessError> {
    let entry = pick_entry(program, &suspect.entries).ok_or(HarnessError::NoEntry)?;
    let call = call_text(entry)?;
    let setup: Vec<String> = suspect
        .setup
        .iter()
        .filter(|mfa| mfa.as_str() != entry.mfa)
        .filter_map(|mfa| {
            let (m, f, a) = split_mfa(mfa)?;
            (a == 0 && program.function(m, f, 0).is_some()).then(|| format!("{}:{}()", atom(m), atom(f)))
        })
        .collect();
    let workers = vec![call; processes];
    let module = format!("racewit_harness_{index}");
    let source = render(&module, suspect, &setup, &workers);
    Ok(Harness {
        module,
        function: "run".into(),
        setup,
        workers,
        source,
    })
}

/// A harness for an entry the user named (`mod:fun/0`): the root process
/// just calls it, so `P1` is the entry's own process.
pub fn for_entry(module: &str, function: &str) -> Harness {
    Harness {
        module: module.to_string(),
        function: function.to_string(),
        setup: Vec::new(),
        workers: Vec::new(),
        source: String::new(),
    }
}

/// The entry with the fewest unknown arguments (then the first in order).
fn pick_entry<'a>(program: &Program, entries: &'a [Entry]) -> Option<&'a Entry> {
    entries
        .iter()
        .filter(|e| {
            split_mfa(&e.mfa).is_some_and(|(m, f, a)| program.function(m, f, a).is_some_and(|func| func.exported))
        })
        .min_by_key(|e| e.args.iter().filter(|a| matches!(a, ArgHint::Unknown)).count())
}

fn split_mfa(mfa: &str) -> Option<(&str, &str, u32)> {
    let (m, rest) = mfa.split_once(':')?;
    let (f, a) = rest.rsplit_once('/')?;
    Some((m, f, a.parse().ok()?))
}

fn call_text(entry: &Entry) -> Result<String, HarnessError> {
    let (m, f, _) = split_mfa(&entry.mfa).ok_or_else(|| HarnessError::UnknownEntry { mfa: entry.mfa.clone() })?;
    let args: Vec<String> = entry.args.iter().map(arg_text).collect();
    Ok(format!("{}:{}({})", atom(m), atom(f), args.join(", ")))
}

/// One concrete argument for a hint: the first known value, else `1`
/// (a value that arithmetic, keys and lookups all accept).
fn arg_text(hint: &ArgHint) -> String {
    match hint {
        ArgHint::Atoms { values } => values.first().map(|a| atom(a)).unwrap_or_else(|| "1".into()),
        ArgHint::Integers { values } => values.first().map(|i| i.to_string()).unwrap_or_else(|| "1".into()),
        ArgHint::Terms { values } => values.first().cloned().unwrap_or_else(|| "1".into()),
        ArgHint::Unknown => "1".into(),
    }
}

/// An atom as Erlang source writes it (quoted when needed).
fn atom(name: &str) -> String {
    let plain = name.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '@')
        && !is_reserved(name);
    if plain {
        name.to_string()
    } else {
        let escaped = name.replace('\\', "\\\\").replace('\'', "\\'");
        format!("'{escaped}'")
    }
}

fn is_reserved(word: &str) -> bool {
    matches!(
        word,
        "after" | "and" | "andalso" | "band" | "begin" | "bnot" | "bor" | "bsl" | "bsr" | "bxor" | "case"
            | "catch" | "cond" | "div" | "end" | "fun" | "if" | "let" | "not" | "of" | "or" | "orelse"
            | "receive" | "rem" | "try" | "when" | "xor" | "maybe" | "else"
    )
}

fn render(module: &str, suspect: &Suspect, setup: &[String], workers: &[String]) -> String {
    let mut s = String::new();
    s.push_str(&format!("-module({module}).\n-export([run/0]).\n\n"));
    s.push_str(&format!(
        "%% racewit harness for {} ({}: {})\n%% read  {} at {}:{}\n%% write {} at {}:{}\n",
        suspect.id,
        suspect.category.as_str(),
        suspect.resource.display,
        suspect.read.call,
        suspect.read.file,
        suspect.read.line,
        suspect.write.call,
        suspect.write.file,
        suspect.write.line
    ));
    s.push_str("run() ->\n");
    for call in setup {
        s.push_str(&format!("    {call},\n"));
    }
    s.push_str("    Workers = [\n");
    for (i, call) in workers.iter().enumerate() {
        let sep = if i + 1 < workers.len() { "," } else { "" };
        s.push_str(&format!("        spawn_monitor(fun() -> {call} end){sep}\n"));
    }
    s.push_str("    ],\n");
    s.push_str("    [receive {'DOWN', Ref, process, Pid, _} -> ok end || {Pid, Ref} <- Workers],\n");
    s.push_str("    ok.\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atoms_are_quoted_when_needed() {
        assert_eq!(atom("hits"), "hits");
        assert_eq!(atom("Hits"), "'Hits'");
        assert_eq!(atom("end"), "'end'");
        assert_eq!(atom("a-b"), "'a-b'");
        assert_eq!(atom("it's"), "'it\\'s'");
    }

    #[test]
    fn arguments_take_the_first_known_value() {
        assert_eq!(arg_text(&ArgHint::Atoms { values: vec!["page".into()] }), "page");
        assert_eq!(arg_text(&ArgHint::Integers { values: vec![7, 8] }), "7");
        assert_eq!(arg_text(&ArgHint::Unknown), "1");
        assert_eq!(split_mfa("ct_master:init_master/1"), Some(("ct_master", "init_master", 1)));
    }
}
