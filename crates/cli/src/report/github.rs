//! `--format github`: GitHub Actions workflow commands, one annotation per
//! warning on its write (`::error` for a confirmed race, `::warning` for an
//! unconfirmed one or a suspect of `racewit static`), and per load
//! diagnostic. GitHub shows them on the pull request's diff.
//!
//! Escaping follows GitHub's toolkit (`@actions/core`'s `command.ts`): in
//! the message `%`, `\r` and `\n` become `%25`, `%0D` and `%0A`; in a
//! property `:` and `,` also become `%3A` and `%2C`.

use racewit_confirm::confirmation::Confirmation;
use racewit_confirm::verdict::Status;
use racewit_static::Suspect;
use racewit_syntax::ir::Program;
use racewit_syntax::{Diagnostic, Severity};

use super::concise;

/// A command's message, escaped.
pub fn escape_data(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '%' => out.push_str("%25"),
            '\r' => out.push_str("%0D"),
            '\n' => out.push_str("%0A"),
            c => out.push(c),
        }
    }
    out
}

/// A property's value, escaped.
pub fn escape_property(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '%' => out.push_str("%25"),
            '\r' => out.push_str("%0D"),
            '\n' => out.push_str("%0A"),
            ':' => out.push_str("%3A"),
            ',' => out.push_str("%2C"),
            c => out.push(c),
        }
    }
    out
}

/// `::error` or `::warning`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Error,
    Warning,
}

/// One annotation: `::error file=F,line=L,col=C,title=T::message`.
pub fn annotation(
    level: Level,
    file: &str,
    line: u32,
    col: u32,
    title: &str,
    message: &str,
) -> String {
    let command = match level {
        Level::Error => "error",
        Level::Warning => "warning",
    };
    format!(
        "::{command} file={},line={line},col={col},title={}::{}\n",
        escape_property(file),
        escape_property(title),
        escape_data(message)
    )
}

fn suspect_annotation(s: &Suspect, level: Level, lines: &[String]) -> String {
    annotation(
        level,
        &s.write.file,
        s.write.line,
        s.write.column,
        &format!("racewit {}", s.code),
        &lines.join("\n"),
    )
}

/// `racewit check --format github`: one warning, with its verdict, the
/// witness's three events and the replay command.
pub fn confirmation(c: &Confirmation, witness_path: Option<&str>, out: &mut String) {
    let s = &c.suspect;
    let level = match c.verdict.status {
        Status::Confirmed => Level::Error,
        Status::Unconfirmed => Level::Warning,
    };
    let mut lines = vec![
        format!(
            "[{}] {}",
            concise::verdict_tag(c),
            concise::short_message(s)
        ),
        crate::erl_text::rewrite(&super::human::verdict_line(c), None),
    ];
    if let Some(w) = &c.witness {
        for (n, role) in ["read", "interfering_write", "stale_write"]
            .iter()
            .enumerate()
        {
            if let Some(ev) = w.trace.iter().find(|e| e.role.as_deref() == Some(*role)) {
                let at = match (&ev.file, ev.line) {
                    (Some(f), Some(l)) => format!(" ({f}:{l})"),
                    _ => String::new(),
                };
                lines.push(format!(
                    "({}) {} {}{at}",
                    n + 1,
                    ev.process,
                    crate::erl_text::rewrite(&ev.text, None)
                ));
            }
        }
    }
    if let Some(p) = witness_path {
        lines.push(format!("replay: racewit replay {p}"));
    }
    out.push_str(&suspect_annotation(s, level, &lines));
}

/// `racewit static --format github`: the suspects, as warnings.
pub fn suspects(suspects: &[Suspect], out: &mut String) {
    for s in suspects {
        out.push_str(&suspect_annotation(
            s,
            Level::Warning,
            &[concise::short_message(s), s.message.clone()],
        ));
    }
}

/// The load diagnostics.
pub fn load_diagnostics(program: &Program, out: &mut String) {
    for d in &program.diagnostics {
        out.push_str(&diagnostic(program, d));
    }
}

fn diagnostic(program: &Program, d: &Diagnostic) -> String {
    let loc = program.sources.location(d.span);
    let level = match d.severity {
        Severity::Error => Level::Error,
        Severity::Warning => Level::Warning,
    };
    annotation(
        level,
        &loc.file,
        loc.line,
        loc.column,
        &format!("racewit {}", d.code.as_str()),
        &d.message,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_and_properties_are_escaped_as_github_reads_them() {
        assert_eq!(escape_data("50% a\r\nb: c, d"), "50%25 a%0D%0Ab: c, d");
        assert_eq!(escape_property("a:b,c%d\ne"), "a%3Ab%2Cc%25d%0Ae");
        assert_eq!(
            annotation(Level::Error, "src/a,b.erl", 3, 7, "racewit R001", "x\ny"),
            "::error file=src/a%2Cb.erl,line=3,col=7,title=racewit R001::x%0Ay\n"
        );
        assert!(annotation(Level::Warning, "f", 1, 1, "t", "m").starts_with("::warning "));
    }
}
