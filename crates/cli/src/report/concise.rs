//! One line per warning, compiler style, so terminals, editors and problem
//! matchers jump to it: `path:line:col: R001 [CONFIRMED crash] message`,
//! located at the stale write. `--format concise` prints only these lines
//! (and the summary); the human format opens each warning with one.

use racewit_confirm::confirmation::Confirmation;
use racewit_confirm::verdict::Status;
use racewit_static::Suspect;
use racewit_syntax::ir::Program;
use racewit_syntax::{Diagnostic, Severity};

use super::color::{self, Paint};

/// Where a warning is reported: its write, `path:line:col`.
pub fn location(s: &Suspect) -> String {
    let file = super::visible(&s.write.file);
    format!("{file}:{}:{}", s.write.line, s.write.column)
}

/// What the warning is about, short: `erlang:register/2 after
/// erlang:whereis/1 on line 11 races on name ∈ {name_server}`; when the
/// pair has several read-modify-write windows, the one this warning is
/// about (`, in lager at line 511`), or its lines would repeat.
pub fn short_message(s: &Suspect) -> String {
    let at = if s.read.file == s.write.file {
        format!("on line {}", s.read.line)
    } else {
        format!("at {}:{}", s.read.file, s.read.line)
    };
    let window = if s.window.shared {
        format!(", in {} at line {}", s.window.module, s.window.line)
    } else {
        String::new()
    };
    let text = format!(
        "{} after {} {at} races on {}{window}",
        s.write.call, s.read.call, s.resource.display
    );
    super::visible(&text).into_owned()
}

/// The verdict in two words: `CONFIRMED crash`, `UNCONFIRMED bound_exhausted`.
pub fn verdict_tag(c: &Confirmation) -> String {
    let v = &c.verdict;
    match v.status {
        Status::Confirmed => format!(
            "CONFIRMED {}",
            v.consequence.as_ref().map_or("none", |k| k.kind())
        ),
        Status::Unconfirmed => match &v.reason {
            Some(r) => format!("UNCONFIRMED {}", r.kind()),
            None => "UNCONFIRMED".to_string(),
        },
    }
}

/// A checked warning's line, coloured when `color` says so.
pub fn confirmation_line(c: &Confirmation) -> String {
    let s = &c.suspect;
    let paint = if c.verdict.status == Status::Confirmed {
        Paint::Error
    } else {
        Paint::Warning
    };
    format!(
        "{} {} {}\n",
        color::paint(Paint::Location, &format!("{}:", location(s))),
        color::paint(paint, &format!("{} [{}]", s.code, verdict_tag(c))),
        short_message(s)
    )
}

/// A suspect's line (`racewit static`: not confirmed, no verdict).
pub fn suspect_line(s: &Suspect) -> String {
    format!(
        "{} {} {}\n",
        color::paint(Paint::Location, &format!("{}:", location(s))),
        color::paint(Paint::Warning, s.code),
        short_message(s)
    )
}

/// A load diagnostic's line: `path:line:col: E021 message`.
pub fn diagnostic_line(program: &Program, d: &Diagnostic) -> String {
    let loc = super::visible(&program.sources.location(d.span).to_string()).into_owned();
    let paint = match d.severity {
        Severity::Error => Paint::Error,
        Severity::Warning => Paint::Warning,
    };
    format!(
        "{} {} {}\n",
        color::paint(Paint::Location, &format!("{loc}:")),
        color::paint(paint, d.code.as_str()),
        super::visible(&d.message)
    )
}

/// `racewit check --format concise`: one warning.
pub fn confirmation(c: &Confirmation, out: &mut String) {
    out.push_str(&confirmation_line(c));
}

/// `racewit static --format concise`: the suspects.
pub fn suspects(suspects: &[Suspect], out: &mut String) {
    for s in suspects {
        out.push_str(&suspect_line(s));
    }
}

/// The load diagnostics, one line each.
pub fn load_diagnostics(program: &Program, out: &mut String) {
    for d in &program.diagnostics {
        out.push_str(&diagnostic_line(program, d));
    }
}
