//! Diagnostics of loading: stable codes, a primary span, a message that says
//! what was expected or what to do.

use serde::Serialize;

use crate::source::Span;

/// Stable codes. `E0xx` are load/syntax errors, `W0xx` warnings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum DiagnosticCode {
    /// A file or directory could not be read (missing, unreadable, not a
    /// regular file, too large).
    E001UnreadableFile,
    /// The lexer met a character or literal it cannot read.
    E002BadToken,
    /// A string, quoted atom or comment that is never closed.
    E003Unterminated,
    /// The parser expected something else.
    E010Syntax,
    /// `-include`/`-include_lib` of a file not found.
    E020MissingInclude,
    /// `?NAME` with no definition.
    E021UndefinedMacro,
    /// A macro called with the wrong number of arguments, or malformed.
    E022BadMacroCall,
    /// `-if`/`-elif`/`-else`/`-endif` out of balance, or an `-if` condition it cannot evaluate.
    E023BadConditional,
    /// `-error(...)` reached.
    E024ErrorDirective,
    /// A macro redefined with the same arity.
    E025RedefinedMacro,
    /// A record used but never defined, or an unknown field.
    E030UndefinedRecord,
    /// A variable used but never bound.
    E031UnboundVar,
    /// Something lowering cannot represent.
    E032Unsupported,
    /// A module name that clashes with another loaded file.
    E033DuplicateModule,
    /// An `ets:fun2ms/1` or `dbg:fun2ms/1` call the `ms_transform` parse
    /// transform refuses (the call is left as written).
    E034MatchSpecTransform,
    /// `-warning(...)` reached.
    W001WarningDirective,
    /// A directory that is a symlink back to one being walked.
    W002SymlinkLoop,
    /// A build configuration setting racewit does not use
    /// (`rebar.config.script`, a macro value it cannot write as Erlang).
    W003ConfigNotUsed,
}

impl DiagnosticCode {
    pub fn as_str(self) -> &'static str {
        match self {
            DiagnosticCode::E001UnreadableFile => "E001",
            DiagnosticCode::E002BadToken => "E002",
            DiagnosticCode::E003Unterminated => "E003",
            DiagnosticCode::E010Syntax => "E010",
            DiagnosticCode::E020MissingInclude => "E020",
            DiagnosticCode::E021UndefinedMacro => "E021",
            DiagnosticCode::E022BadMacroCall => "E022",
            DiagnosticCode::E023BadConditional => "E023",
            DiagnosticCode::E024ErrorDirective => "E024",
            DiagnosticCode::E025RedefinedMacro => "E025",
            DiagnosticCode::E030UndefinedRecord => "E030",
            DiagnosticCode::E031UnboundVar => "E031",
            DiagnosticCode::E032Unsupported => "E032",
            DiagnosticCode::E033DuplicateModule => "E033",
            DiagnosticCode::E034MatchSpecTransform => "E034",
            DiagnosticCode::W001WarningDirective => "W001",
            DiagnosticCode::W002SymlinkLoop => "W002",
            DiagnosticCode::W003ConfigNotUsed => "W003",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Severity {
    Error,
    Warning,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    pub code: DiagnosticCode,
    pub severity: Severity,
    pub span: Span,
    pub message: String,
}

impl Diagnostic {
    pub fn error(code: DiagnosticCode, span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity: Severity::Error,
            span,
            message: message.into(),
        }
    }

    pub fn warning(code: DiagnosticCode, span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity: Severity::Warning,
            span,
            message: message.into(),
        }
    }
}
