//! Preprocessor: macros, conditionals and includes over tokens, as `epp` does.
//!
//! Works form by form (tokens up to a form-ending `.`), like `epp`:
//! - `-define`/`-undef`, constants and macros with arguments (one name may
//!   have several arities), `??Arg`, the predefined macros (`?MODULE`,
//!   `?MODULE_STRING`, `?FILE`, `?LINE`, `?FUNCTION_NAME`, `?FUNCTION_ARITY`,
//!   `?OTP_RELEASE` (25), `?MACHINE` (`'BEAM'`), `?BEAM`, `?FEATURE_AVAILABLE(F)`,
//!   `?FEATURE_ENABLED(F)`);
//! - `-ifdef`/`-ifndef`/`-if`/`-elif`/`-else`/`-endif` (see [`condition`]);
//! - `-include`/`-include_lib` (see [`mod@include`]), headers lexed once per run;
//! - `-error`/`-warning` (E024/W001), `-feature(maybe_expr, enable)` (dropped
//!   from the output, as `epp` does).
//!
//! Entry points: [`PpStream`] (one module straight from its text, one form
//! of output at a time: what loading uses) and [`preprocess`] (one module's
//! whole token list at once); both share a [`PpEnv`] and give the same
//! tokens, ending with [`TokenKind::Eof`].
//!
//! Limits: macro expansion is bounded by what it produces, per form
//! ([`MAX_EXPANDED_TOKENS_PER_FORM`], or 16 tokens per token of the form)
//! and per module ([`MAX_EXPANDED_TOKENS_PER_FILE`] plus 16 per byte of
//! text); going over is an `E022` at the macro use, never an abort. Uses
//! nest at most 100 deep and a form has at most 200,000 of them.
//!
//! Spans: tokens of a macro body take the span of the macro use (`?NAME` up to
//! the closing `)` of its arguments; after an argument, the part of it from
//! that argument on, so lines agree with `epp`'s); argument tokens keep their
//! own; header tokens carry the header's (provisional) file id.
//!
//! Recovery differs from `epp` in two ways: `epp` drops a whole form when a
//! macro in it is undefined or misused; here the use is replaced by the atom
//! `'?NAME'` (after the diagnostic) so the rest of the form still parses. A
//! runaway (circular) expansion is reported once and the rest of its form is
//! dropped, keeping the final `.`.
//!
//! `-file("Name", Line).` (macros in it expanded first, as `epp` does) is
//! passed through and recorded as a [`LineDirective`] of the file it is in:
//! spans stay byte positions, and [`crate::source::SourceFile::location`]
//! reports what follows it in `Name` from `Line` on, as `epp` renumbers;
//! `?FILE` and `?LINE` after it follow the new name and numbering.

pub mod condition;
pub mod include;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustc_hash::FxHashMap;
use smol_str::SmolStr;

use crate::diagnostic::{Diagnostic, DiagnosticCode};
use crate::lex::{FormLexer, token_text, tokenize};
use crate::source::{FileId, LineDirective, SourceFile, Span, renumbered};
use crate::token::{IntLit, Keyword, Punct, Token, TokenKind};

use condition::{CondResult, eval_condition};
use include::{Header, HeaderCache, SearchPath};

/// `?OTP_RELEASE`.
pub const OTP_RELEASE: i64 = 25;
/// Includes nest at most this deep (as `epp`).
const MAX_INCLUDE_DEPTH: usize = 8;
/// Macro expansions nest at most this deep (a circular macro stops here).
const MAX_EXPANSION_DEPTH: u16 = 100;
/// At most this many macro expansions in one form.
const MAX_EXPANSIONS_PER_FORM: u32 = 200_000;
/// Tokens that macro expansion may produce for one form: this many, or
/// [`EXPANSION_FACTOR`] times the form's own tokens when that is more.
/// What expansion produces is what the rest of the pipeline holds, so
/// this bounds memory and time on macros that double their arguments
/// level after level.
pub const MAX_EXPANDED_TOKENS_PER_FORM: usize = 2_000_000;
/// Tokens that macro expansion may produce for one module (its headers
/// included): this many plus [`EXPANSION_FACTOR`] per byte of the module's
/// text.
pub const MAX_EXPANDED_TOKENS_PER_FILE: usize = 8_000_000;
/// See [`MAX_EXPANDED_TOKENS_PER_FORM`] and [`MAX_EXPANDED_TOKENS_PER_FILE`].
pub const EXPANSION_FACTOR: usize = 16;
/// A form buffer of at most this many tokens is reused for the next form;
/// a bigger one is freed.
const KEPT_BUFFER: usize = 1 << 16;

/// What the preprocessor needs besides the module's tokens: search paths,
/// `-D` macros, and the header cache shared by every module of a load.
#[derive(Debug, Default)]
pub struct PpEnv {
    /// `-I` directories.
    pub include_dirs: Vec<PathBuf>,
    /// Library roots for `-include_lib`.
    pub lib_dirs: Vec<PathBuf>,
    /// `-D` macros, value already lexed (`true` when none was given).
    defines: Vec<(SmolStr, Vec<Token>)>,
    pub headers: HeaderCache,
    /// Beyond epp: a plain header name not on the search path is looked for
    /// under the module's application (see `SearchPath::find_include`).
    /// Off by default, as in epp; loads turn it on.
    pub app_headers: bool,
}

impl PpEnv {
    pub fn new(
        include_dirs: Vec<PathBuf>,
        lib_dirs: Vec<PathBuf>,
        defines: &[(String, Option<String>)],
    ) -> Self {
        let defines = defines
            .iter()
            .map(|(name, value)| {
                let toks = match value {
                    Some(v) => tokenize(FileId(0), v).0,
                    None => vec![Token {
                        kind: TokenKind::Atom(SmolStr::new("true")),
                        span: Span::new(FileId(0), 0, 0),
                    }],
                };
                (SmolStr::new(name), toks)
            })
            .collect();
        PpEnv {
            include_dirs,
            lib_dirs,
            defines,
            headers: HeaderCache::default(),
            app_headers: false,
        }
    }
}

/// The preprocessed token stream of one module.
#[derive(Debug)]
pub struct PpOutput {
    /// Expanded tokens, ending with [`TokenKind::Eof`].
    pub tokens: Vec<Token>,
    pub diagnostics: Vec<Diagnostic>,
    /// Provisional ids of the headers included (sorted, deduplicated).
    pub included: Vec<FileId>,
    /// `-file` attributes met, with the (provisional) id of the file holding each.
    pub line_directives: Vec<(FileId, LineDirective)>,
    /// Byte ranges of the module's file (from `-ifdef` to `-endif`) read
    /// only because a test macro is defined: a taken `-ifdef(TEST).` or
    /// `-ifdef(EUNIT).` with no `-else` or `-elif` (eunit-style tests in
    /// the module). See [`TEST_MACROS`].
    pub test_only: Vec<(u32, u32)>,
}

/// Macros whose `-ifdef` block holds a module's own tests.
pub const TEST_MACROS: &[&str] = &["TEST", "EUNIT"];

/// Preprocess one module. `tokens` are the lexed tokens of `file` (whose id
/// is `file_id`). Never fails: problems become diagnostics.
pub fn preprocess(file_id: FileId, file: &SourceFile, tokens: Vec<Token>, env: &PpEnv) -> PpOutput {
    let forms = Arc::new(split_forms(&tokens));
    let source = Forms::Whole {
        tokens: Arc::new(tokens),
        forms,
        pos: 0,
    };
    let mut pp = Preprocessor::new(file_id, file, env, source);
    while pp.step() {}
    pp.finish_output()
}

/// A module preprocessed one form at a time, straight from its text: the
/// module's tokens are lexed form by form and only the current form's
/// output is held (see [`PpStream::next_form`]). The same output, form by
/// form, as [`preprocess`] of the module's whole token list.
pub struct PpStream<'e> {
    pp: Preprocessor<'e>,
    ended: bool,
}

impl<'e> PpStream<'e> {
    pub fn new(file_id: FileId, file: &'e SourceFile, env: &'e PpEnv) -> Self {
        let source = Forms::Streamed {
            lexer: Box::new(FormLexer::new(file_id, &file.text)),
            buf: Vec::new(),
        };
        PpStream {
            pp: Preprocessor::new(file_id, file, env, source),
            ended: false,
        }
    }

    /// The tokens of the next form of output; the last form ends with
    /// [`TokenKind::Eof`]. `None` after that.
    pub fn next_form(&mut self) -> Option<&[Token]> {
        if self.ended {
            return None;
        }
        self.pp.out.clear();
        loop {
            if !self.pp.step() {
                self.pp.push_eof();
                self.ended = true;
                return Some(&self.pp.out);
            }
            if !self.pp.out.is_empty() {
                return Some(&self.pp.out);
            }
        }
    }

    /// Frees the last form's tokens when they were many (call once they
    /// have been parsed): a huge form's buffer is not kept for the next.
    pub fn release_form(&mut self) {
        if self.pp.out.capacity() > KEPT_BUFFER {
            self.pp.out = Vec::new();
        } else {
            self.pp.out.clear();
        }
    }

    /// Everything but the tokens: diagnostics (the lexer's included),
    /// headers included and `-file` attributes. Call after the last form.
    pub fn finish(mut self) -> PpOutput {
        self.pp.out = Vec::new();
        while self.pp.step() {}
        let mut out = self.pp.finish_output();
        out.tokens = Vec::new();
        out
    }
}

/// A macro definition: parameters (`None` for a constant) and body.
#[derive(Debug)]
pub(crate) struct MacroDef {
    params: Option<Vec<SmolStr>>,
    body: Vec<Token>,
}

#[derive(Debug, Clone)]
enum Macro {
    /// Predefined but without a value yet (`MODULE` before `-module`).
    Undefined,
    /// `?FILE`, `?LINE`, `?FUNCTION_NAME`, `?FUNCTION_ARITY`: computed at use.
    Special,
    /// Predefined with a value (cannot be redefined).
    Predef(Arc<MacroDef>),
    /// User definitions, one per arity (`None` = constant).
    User(UserDefs),
}

/// The definitions of one user macro: nearly always exactly one, kept
/// without a heap allocation of its own.
#[derive(Debug, Clone)]
struct UserDefs {
    first: (Option<usize>, Arc<MacroDef>),
    more: Vec<(Option<usize>, Arc<MacroDef>)>,
}

impl UserDefs {
    fn one(arity: Option<usize>, def: Arc<MacroDef>) -> Self {
        UserDefs {
            first: (arity, def),
            more: Vec::new(),
        }
    }

    fn iter(&self) -> impl Iterator<Item = &(Option<usize>, Arc<MacroDef>)> {
        std::iter::once(&self.first).chain(self.more.iter())
    }

    /// The definition for a use with `arity` arguments (`None`: no argument
    /// list). A lone constant serves every use (the arguments then follow
    /// the expansion as a call).
    fn lookup(&self, arity: Option<usize>) -> Option<&Arc<MacroDef>> {
        if self.more.is_empty() && self.first.0.is_none() {
            return Some(&self.first.1);
        }
        self.iter().find(|(a, _)| *a == arity).map(|(_, d)| d)
    }
}

/// Kind of an open conditional.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cond {
    If,
    Ifdef,
    Ifndef,
    Else,
    Elif,
}

/// Where a file's forms come from.
enum Forms<'e> {
    /// Lexed and cut into forms beforehand (headers, and a module given as tokens).
    Whole {
        tokens: Arc<Vec<Token>>,
        forms: Arc<Vec<Form>>,
        /// Index of the next form.
        pos: usize,
    },
    /// A module lexed one form at a time; `buf` holds the current form.
    Streamed {
        lexer: Box<FormLexer<'e>>,
        buf: Vec<Token>,
    },
}

/// A file being read (the module, or an included header).
struct FileCtx<'e> {
    forms: Forms<'e>,
    dir: PathBuf,
    /// `?FILE`.
    path: SmolStr,
    /// Open conditionals whose taken branch is being read.
    conds: Vec<(Cond, Span)>,
    /// While non-empty, forms are skipped (epp's skip stack).
    skip: Vec<(Cond, Span)>,
}

struct Preprocessor<'e> {
    env: &'e PpEnv,
    search: SearchPath,
    main_id: FileId,
    main_file: &'e SourceFile,
    macros: FxHashMap<SmolStr, Macro>,
    out: Vec<Token>,
    diags: Vec<Diagnostic>,
    included: Vec<FileId>,
    headers: FxHashMap<FileId, Arc<Header>>,
    stack: Vec<FileCtx<'e>>,
    /// `?FUNCTION_NAME`/`?FUNCTION_ARITY` of the current form, once computed.
    fname: Option<Option<(SmolStr, u32)>>,
    maybe_enabled: bool,
    /// Expansions in the current form.
    expansions: u32,
    /// Tokens produced by expansion in the current form, and its budget.
    expanded: usize,
    form_budget: usize,
    /// Tokens produced by expansion in the whole module, and its budget
    /// (once spent, every further macro use is left unexpanded).
    file_expanded: usize,
    file_budget: usize,
    /// `-file` attributes met so far (file id, directive).
    line_directives: Vec<(FileId, LineDirective)>,
    /// Taken `-ifdef` of a test macro open in the module's own file: the
    /// depth of its conditional and where it starts.
    test_open: Vec<(usize, u32)>,
    /// See [`PpOutput::test_only`].
    test_only: Vec<(u32, u32)>,
}

/// Modes of one expansion pass.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Normal,
    /// Computing the function name: leave `?FUNCTION_*` alone, report nothing.
    NoFunctionMacros,
}

/// The tokens of a form being expanded: the form itself plus expansions
/// pushed in front of it (each token with its expansion depth).
struct Input<'a> {
    form: &'a [Token],
    cursor: usize,
    /// Reversed: the next token is the last.
    pending: Vec<(Token, u16)>,
}

impl Input<'_> {
    fn peek(&self, k: usize) -> Option<&Token> {
        let n = self.pending.len();
        if k < n {
            Some(&self.pending[n - 1 - k].0)
        } else {
            self.form.get(self.cursor + k - n)
        }
    }

    fn next(&mut self) -> Option<(Token, u16)> {
        if let Some(t) = self.pending.pop() {
            return Some(t);
        }
        let t = self.form.get(self.cursor)?.clone();
        self.cursor += 1;
        Some((t, 0))
    }

    fn skip(&mut self, k: usize) {
        for _ in 0..k {
            if self.next().is_none() {
                break;
            }
        }
    }
}

fn atom_tok(s: &str, span: Span) -> Token {
    Token {
        kind: TokenKind::Atom(SmolStr::new(s)),
        span,
    }
}

fn is_punct(t: Option<&Token>, p: Punct) -> bool {
    matches!(t, Some(Token { kind: TokenKind::Punct(q), .. }) if *q == p)
}

/// The name of a macro-name token (atom or variable).
fn macro_name(t: &Token) -> Option<&SmolStr> {
    match &t.kind {
        TokenKind::Atom(a) | TokenKind::Var(a) => Some(a),
        _ => None,
    }
}

/// Does the form use a macro (`?` or `??`)?
fn has_macro(form: &[Token]) -> bool {
    form.iter().any(|t| {
        matches!(
            t.kind,
            TokenKind::Punct(Punct::Question | Punct::DoubleQuestion)
        )
    })
}

/// Is the form `- <name> ...`? Returns the directive name.
fn directive(form: &[Token]) -> Option<&str> {
    if !is_punct(form.first(), Punct::Minus) {
        return None;
    }
    match &form.get(1)?.kind {
        TokenKind::Atom(a) => Some(a.as_str()),
        TokenKind::Keyword(Keyword::If) => Some("if"),
        TokenKind::Keyword(Keyword::Else) => Some("else"),
        _ => None,
    }
}

/// Merge adjacent string tokens (as `epp` does for include names).
fn coalesce_strings(toks: &[Token]) -> Vec<Token> {
    let mut out: Vec<Token> = Vec::with_capacity(toks.len());
    for t in toks {
        if let (
            TokenKind::String(s2),
            Some(Token {
                kind: TokenKind::String(s1),
                span,
            }),
        ) = (&t.kind, out.last_mut())
        {
            let mut s = s1.to_string();
            s.push_str(s2);
            *s1 = SmolStr::new(s);
            *span = span.cover(t.span);
            continue;
        }
        out.push(t.clone());
    }
    out
}

impl<'e> Preprocessor<'e> {
    fn new(file_id: FileId, file: &'e SourceFile, env: &'e PpEnv, source: Forms<'e>) -> Self {
        let mut search = SearchPath::new(&file.path, &env.include_dirs, &env.lib_dirs);
        search.app_headers = env.app_headers;
        let mut pp = Preprocessor {
            env,
            search,
            main_id: file_id,
            main_file: file,
            macros: FxHashMap::with_capacity_and_hasher(64, Default::default()),
            out: Vec::new(),
            diags: Vec::new(),
            included: Vec::new(),
            headers: FxHashMap::default(),
            stack: Vec::new(),
            fname: None,
            maybe_enabled: false,
            expansions: 0,
            expanded: 0,
            form_budget: MAX_EXPANDED_TOKENS_PER_FORM,
            file_expanded: 0,
            file_budget: MAX_EXPANDED_TOKENS_PER_FILE
                .saturating_add(file.text.len().saturating_mul(EXPANSION_FACTOR)),
            line_directives: Vec::new(),
            test_open: Vec::new(),
            test_only: Vec::new(),
        };
        if let Forms::Whole { tokens, .. } = &source {
            pp.out.reserve(tokens.len() + tokens.len() / 4 + 1);
        }
        pp.init_macros();
        pp.stack.push(FileCtx {
            forms: source,
            dir: file
                .path
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or_default(),
            path: SmolStr::new(file.path.to_string_lossy()),
            conds: Vec::new(),
            skip: Vec::new(),
        });
        pp
    }

    /// A new form: its expansion counters start at zero.
    fn start_form_budget(&mut self, form: &[Token]) {
        self.expansions = 0;
        self.expanded = 0;
        self.form_budget =
            MAX_EXPANDED_TOKENS_PER_FORM.max(form.len().saturating_mul(EXPANSION_FACTOR));
    }

    fn push_eof(&mut self) {
        let eof_at = self.main_file.text.len() as u32;
        self.out.push(Token {
            kind: TokenKind::Eof,
            span: Span::new(self.main_id, eof_at, eof_at),
        });
    }

    /// Ends with `Eof` (for [`preprocess`]).
    fn finish_output(mut self) -> PpOutput {
        let mut included = std::mem::take(&mut self.included);
        included.sort();
        included.dedup();
        self.push_eof();
        PpOutput {
            tokens: self.out,
            diagnostics: self.diags,
            included,
            line_directives: self.line_directives,
            test_only: self.test_only,
        }
    }

    /// Handle the next form of the file on top of the stack (or leave a
    /// file that has no form left). `false` once every file is done.
    fn step(&mut self) -> bool {
        let Some(depth) = self.stack.len().checked_sub(1) else {
            return false;
        };
        let ctx = &mut self.stack[depth];
        let skipping = !ctx.skip.is_empty();
        match &mut ctx.forms {
            Forms::Whole { tokens, forms, pos } => {
                if *pos >= forms.len() {
                    self.leave_file();
                    return true;
                }
                *pos += 1;
                let i = *pos - 1;
                // The tokens are taken out while the form is handled (an
                // include pushes a new file above this one) and put back
                // after. A module's own tokens are not shared: plain forms
                // move out of them.
                let mut toks = std::mem::take(tokens);
                let forms = forms.clone();
                let f = &forms[i];
                if skipping {
                    self.skip_form(&toks[f.start..f.end]);
                } else if let Some(d) = &f.define {
                    self.define(d);
                } else if let Some(owned) = Arc::get_mut(&mut toks) {
                    self.scan_form_owned(&mut owned[f.start..f.end]);
                } else {
                    self.scan_form(&toks[f.start..f.end]);
                }
                if let Forms::Whole { tokens, .. } = &mut self.stack[depth].forms {
                    *tokens = toks;
                }
            }
            Forms::Streamed { lexer, buf } => {
                let mut form = std::mem::take(buf);
                form.clear();
                if !lexer.next_form(&mut form) {
                    self.leave_file();
                    return true;
                }
                if skipping {
                    self.skip_form(&form);
                } else if directive(&form) == Some("define") {
                    let d = parse_define(&form);
                    self.define(&d);
                } else if self.out.is_empty() && directive(&form).is_none() && !has_macro(&form) {
                    // A plain form is its own output: hand the buffer over.
                    self.fname = None;
                    std::mem::swap(&mut self.out, &mut form);
                    self.scan_module(0);
                } else {
                    self.scan_form_owned(&mut form);
                }
                if let Forms::Streamed { buf, .. } = &mut self.stack[depth].forms
                    && form.capacity() <= KEPT_BUFFER
                {
                    *buf = form;
                }
            }
        }
        true
    }

    fn init_macros(&mut self) {
        let span = Span::new(self.main_id, 0, 0);
        let def = |toks: Vec<TokenKind>| {
            Macro::Predef(Arc::new(MacroDef {
                params: None,
                body: toks.into_iter().map(|kind| Token { kind, span }).collect(),
            }))
        };
        for name in ["FILE", "LINE", "FUNCTION_NAME", "FUNCTION_ARITY"] {
            self.macros.insert(SmolStr::new(name), Macro::Special);
        }
        for name in [
            "MODULE",
            "MODULE_STRING",
            "BASE_MODULE",
            "BASE_MODULE_STRING",
        ] {
            self.macros.insert(SmolStr::new(name), Macro::Undefined);
        }
        self.macros.insert(
            SmolStr::new("MACHINE"),
            def(vec![TokenKind::Atom(SmolStr::new("BEAM"))]),
        );
        self.macros.insert(
            SmolStr::new("BEAM"),
            def(vec![TokenKind::Atom(SmolStr::new("true"))]),
        );
        self.macros.insert(
            SmolStr::new("OTP_RELEASE"),
            def(vec![TokenKind::Integer(IntLit::Small(OTP_RELEASE))]),
        );
        self.set_feature_macros();
        for (name, toks) in &self.env.defines {
            let d = Arc::new(MacroDef {
                params: None,
                body: toks.iter().map(|t| Token { span, ..t.clone() }).collect(),
            });
            self.macros
                .insert(name.clone(), Macro::User(UserDefs::one(None, d)));
        }
    }

    /// `?FEATURE_AVAILABLE(F)` and `?FEATURE_ENABLED(F)`.
    fn set_feature_macros(&mut self) {
        let span = Span::new(self.main_id, 0, 0);
        let x = SmolStr::new("X");
        let test = |on: bool| {
            let kinds = if on {
                vec![
                    TokenKind::Punct(Punct::LParen),
                    TokenKind::Var(x.clone()),
                    TokenKind::Punct(Punct::RParen),
                    TokenKind::Punct(Punct::Eq),
                    TokenKind::Atom(SmolStr::new("maybe_expr")),
                ]
            } else {
                vec![TokenKind::Atom(SmolStr::new("false"))]
            };
            Macro::Predef(Arc::new(MacroDef {
                params: Some(vec![x.clone()]),
                body: kinds.into_iter().map(|kind| Token { kind, span }).collect(),
            }))
        };
        let enabled = test(self.maybe_enabled);
        self.macros
            .insert(SmolStr::new("FEATURE_AVAILABLE"), test(true));
        self.macros.insert(SmolStr::new("FEATURE_ENABLED"), enabled);
    }

    fn error(&mut self, code: DiagnosticCode, span: Span, msg: impl Into<String>) {
        self.diags.push(Diagnostic::error(code, span, msg));
    }

    fn leave_file(&mut self) {
        let Some(ctx) = self.stack.pop() else { return };
        if let Forms::Streamed { lexer, .. } = ctx.forms {
            // The lexer's diagnostics come first, as when the whole file
            // is lexed before preprocessing.
            let mut diags = lexer.into_diagnostics();
            diags.append(&mut self.diags);
            self.diags = diags;
        }
        for (c, span) in ctx.conds.iter().chain(ctx.skip.iter()) {
            self.diags.push(Diagnostic::error(
                DiagnosticCode::E023BadConditional,
                *span,
                format!(
                    "unterminated -{} (no -endif before the end of the file)",
                    cond_name(*c)
                ),
            ));
        }
    }

    fn cur(&mut self) -> &mut FileCtx<'e> {
        let n = self.stack.len();
        &mut self.stack[n - 1]
    }

    /// A form while skipping a conditional branch: only nesting matters.
    fn skip_form(&mut self, form: &[Token]) {
        let Some(d) = directive(form) else { return };
        let span = form[1].span;
        match d {
            "ifdef" | "ifndef" | "if" => {
                let c = match d {
                    "ifdef" => Cond::Ifdef,
                    "ifndef" => Cond::Ifndef,
                    _ => Cond::If,
                };
                self.cur().skip.push((c, span));
            }
            "else" => {
                let skip = &self.cur().skip;
                let depth = skip.len();
                let top = skip[depth - 1].0;
                match (top, depth) {
                    (Cond::Else, _) => {
                        self.error(DiagnosticCode::E023BadConditional, span, "repeated -else");
                    }
                    // A branch was taken already: skip to -endif.
                    (Cond::Elif, _) => self.cur().skip[depth - 1] = (Cond::Else, span),
                    (_, 1) => {
                        self.cur().skip.clear();
                        self.cur().conds.push((Cond::Else, span));
                    }
                    _ => {}
                }
            }
            "elif" => {
                let skip = &self.cur().skip;
                let depth = skip.len();
                let top = skip[depth - 1].0;
                if top == Cond::Else {
                    self.error(
                        DiagnosticCode::E023BadConditional,
                        span,
                        "-elif after -else",
                    );
                } else if depth == 1 && top != Cond::Elif {
                    match self.eval_if(form) {
                        Some(true) => {
                            self.cur().skip.clear();
                            self.cur().conds.push((Cond::If, span));
                        }
                        Some(false) => {}
                        None => {}
                    }
                }
            }
            "endif" => {
                self.cur().skip.pop();
            }
            _ => {}
        }
    }

    fn scan_form(&mut self, form: &[Token]) {
        self.fname = None;
        self.start_form_budget(form);
        match directive(form) {
            Some("undef") => self.undef(form),
            Some("include") => self.include(form, false),
            Some("include_lib") => self.include(form, true),
            Some("ifdef") => self.ifdef(form, true),
            Some("ifndef") => self.ifdef(form, false),
            Some("if") => {
                let span = form[1].span;
                match self.eval_if(form) {
                    Some(true) => self.cur().conds.push((Cond::If, span)),
                    _ => self.cur().skip.push((Cond::If, span)),
                }
            }
            Some("elif") => {
                let span = form[1].span;
                self.test_block_ends(None);
                match self.cur().conds.pop() {
                    Some((Cond::Else, _)) => {
                        self.error(
                            DiagnosticCode::E023BadConditional,
                            span,
                            "-elif after -else",
                        );
                        self.cur().skip.push((Cond::Else, span));
                    }
                    Some(_) => self.cur().skip.push((Cond::Elif, span)),
                    None => self.error(
                        DiagnosticCode::E023BadConditional,
                        span,
                        "-elif without a matching -if",
                    ),
                }
            }
            Some("else") => {
                let span = form[1].span;
                if !self.bare_directive(form, "else") {
                    return;
                }
                self.test_block_ends(None);
                match self.cur().conds.pop() {
                    Some((Cond::Else, _)) => {
                        self.error(DiagnosticCode::E023BadConditional, span, "repeated -else");
                        self.cur().skip.push((Cond::Else, span));
                    }
                    Some(_) => self.cur().skip.push((Cond::Else, span)),
                    None => self.error(
                        DiagnosticCode::E023BadConditional,
                        span,
                        "-else without a matching -if/-ifdef/-ifndef",
                    ),
                }
            }
            Some("endif") => {
                let span = form[1].span;
                if !self.bare_directive(form, "endif") {
                    return;
                }
                let end = form.last().map_or(span.end, |t| t.span.end);
                self.test_block_ends(Some(end));
                if self.cur().conds.pop().is_none() {
                    self.error(
                        DiagnosticCode::E023BadConditional,
                        span,
                        "-endif without a matching -if/-ifdef/-ifndef",
                    );
                }
            }
            Some("error") | Some("warning") => self.error_directive(form),
            Some("feature") => self.feature(form),
            Some("file") => self.file_directive(form),
            _ => self.plain_form(form),
        }
    }

    /// `-file("Name", Line).`: later positions of this file are reported in
    /// `Name` from `Line` on, and `?FILE` becomes `Name`. Anything else is
    /// reported and dropped, as `epp` does.
    fn file_directive(&mut self, form: &[Token]) {
        let expanded = if has_macro(form) {
            let mut out = Vec::new();
            self.expand(form, &mut out, Mode::Normal);
            out
        } else {
            form.to_vec()
        };
        let mut i = 3;
        let mut name = String::new();
        while let Some(Token {
            kind: TokenKind::String(s),
            ..
        }) = expanded.get(i)
        {
            name.push_str(s);
            i += 1;
        }
        let line = match expanded.get(i + 1).map(|t| &t.kind) {
            Some(TokenKind::Integer(IntLit::Small(n))) => Some(*n),
            _ => None,
        };
        let well_formed = is_punct(expanded.get(2), Punct::LParen)
            && i > 3
            && is_punct(expanded.get(i), Punct::Comma)
            && is_punct(expanded.get(i + 2), Punct::RParen)
            && is_punct(expanded.get(i + 3), Punct::Dot)
            && expanded.len() == i + 4;
        let (Some(line), true) = (line, well_formed) else {
            let span = form
                .get(1)
                .map_or(Span::new(self.main_id, 0, 0), |t| t.span);
            self.error(
                DiagnosticCode::E010Syntax,
                span,
                "badly formed -file: expected -file(\"Name\", Line).",
            );
            return;
        };
        let file_tok = form[1].span;
        let from = form.last().map_or(file_tok.end, |t| t.span.end);
        let directive = LineDirective {
            from,
            at_line: self.physical_line(file_tok),
            line,
            name: Arc::from(name.as_str()),
        };
        self.line_directives.push((file_tok.file, directive));
        if let Some(ctx) = self.stack.last_mut() {
            ctx.path = SmolStr::new(&name);
        }
        let start = self.out.len();
        self.out.extend(expanded);
        self.scan_module(start);
    }

    /// `-else.`/`-endif.` must have nothing else.
    fn bare_directive(&mut self, form: &[Token], name: &str) -> bool {
        if form.len() == 3 && is_punct(form.get(2), Punct::Dot) {
            return true;
        }
        let span = form.get(2).map_or(form[1].span, |t| t.span);
        self.error(
            DiagnosticCode::E023BadConditional,
            span,
            format!("expected `-{name}.`"),
        );
        false
    }

    fn plain_form(&mut self, form: &[Token]) {
        let start = self.out.len();
        if has_macro(form) {
            let mut out = std::mem::take(&mut self.out);
            self.expand(form, &mut out, Mode::Normal);
            self.out = out;
        } else {
            self.out.extend_from_slice(form);
        }
        self.scan_module(start);
    }

    /// A form of tokens nobody else holds: a plain form without macros moves
    /// its tokens to the output instead of copying them.
    fn scan_form_owned(&mut self, form: &mut [Token]) {
        if directive(form).is_some() || has_macro(form) {
            return self.scan_form(form);
        }
        self.fname = None;
        let start = self.out.len();
        self.out.extend(form.iter_mut().map(|t| {
            let span = t.span;
            std::mem::replace(
                t,
                Token {
                    kind: TokenKind::Eof,
                    span,
                },
            )
        }));
        self.scan_module(start);
    }

    /// After `-module(M)`: define `?MODULE` and `?MODULE_STRING`.
    fn scan_module(&mut self, start: usize) {
        let f = &self.out[start..];
        if f.len() < 5 || !is_punct(f.first(), Punct::Minus) || !is_punct(f.get(2), Punct::LParen) {
            return;
        }
        let (base, name_tok) = match (&f[1].kind, &f[3].kind) {
            (TokenKind::Atom(a), TokenKind::Atom(_)) if a == "module" => (false, f[3].clone()),
            (TokenKind::Atom(a), TokenKind::Atom(_)) if a == "extends" => (true, f[3].clone()),
            _ => return,
        };
        if !(is_punct(f.get(4), Punct::RParen) || is_punct(f.get(4), Punct::Comma)) {
            return;
        }
        let TokenKind::Atom(name) = &name_tok.kind else {
            return;
        };
        let string_tok = Token {
            kind: TokenKind::String(name.clone()),
            span: name_tok.span,
        };
        let (m, ms) = if base {
            ("BASE_MODULE", "BASE_MODULE_STRING")
        } else {
            ("MODULE", "MODULE_STRING")
        };
        let mk = |t: Token| {
            Macro::Predef(Arc::new(MacroDef {
                params: None,
                body: vec![t],
            }))
        };
        self.macros.insert(SmolStr::new(m), mk(name_tok));
        self.macros.insert(SmolStr::new(ms), mk(string_tok));
    }

    /// Apply a parsed `-define`.
    fn define(&mut self, d: &Result<Define, (Span, String)>) {
        let d = match d {
            Ok(d) => d,
            Err((span, msg)) => {
                self.error(DiagnosticCode::E022BadMacroCall, *span, msg.clone());
                return;
            }
        };
        let name = &d.name;
        match self.macros.get_mut(name) {
            Some(Macro::User(defs)) => {
                if defs.iter().any(|(a, _)| *a == d.arity) {
                    let msg = format!(
                        "macro '{name}' redefined (a definition with the same arity exists)"
                    );
                    self.error(DiagnosticCode::E025RedefinedMacro, d.name_span, msg);
                } else {
                    defs.more.push((d.arity, d.def.clone()));
                }
            }
            Some(_) => {
                let msg = format!("redefining predefined macro '{name}'");
                self.error(DiagnosticCode::E025RedefinedMacro, d.name_span, msg);
            }
            None => {
                self.macros.insert(
                    name.clone(),
                    Macro::User(UserDefs::one(d.arity, d.def.clone())),
                );
            }
        }
    }

    fn undef(&mut self, form: &[Token]) {
        let ok = form.len() == 6
            && is_punct(form.get(2), Punct::LParen)
            && is_punct(form.get(4), Punct::RParen)
            && is_punct(form.get(5), Punct::Dot);
        match form.get(3).and_then(macro_name) {
            Some(name) if ok => {
                self.macros.remove(name);
            }
            _ => {
                let span = form.get(2).unwrap_or(&form[1]).span;
                self.error(
                    DiagnosticCode::E022BadMacroCall,
                    span,
                    "expected -undef(NAME).",
                );
            }
        }
    }

    fn is_defined(&self, name: &str) -> bool {
        !matches!(self.macros.get(name), None | Some(Macro::Undefined))
    }

    fn ifdef(&mut self, form: &[Token], want_defined: bool) {
        let span = form[1].span;
        let kind = if want_defined {
            Cond::Ifdef
        } else {
            Cond::Ifndef
        };
        let ok = form.len() == 6
            && is_punct(form.get(2), Punct::LParen)
            && is_punct(form.get(4), Punct::RParen)
            && is_punct(form.get(5), Punct::Dot);
        let name = form.get(3).and_then(macro_name).filter(|_| ok);
        let Some(name) = name else {
            let at = form.get(2).map_or(span, |t| t.span);
            self.error(
                DiagnosticCode::E023BadConditional,
                at,
                format!("expected -{}(NAME).", cond_name(kind)),
            );
            self.cur().skip.push((kind, span));
            return;
        };
        if self.is_defined(name) == want_defined {
            if want_defined && self.stack.len() == 1 && TEST_MACROS.contains(&name.as_str()) {
                let depth = self.cur().conds.len() + 1;
                self.test_open.push((depth, span.start));
            }
            self.cur().conds.push((kind, span));
        } else {
            self.cur().skip.push((kind, span));
        }
    }

    /// The conditional on top of the module's own file ends its taken
    /// branch: at `-endif` (`Some(end)`) a test macro's block with no other
    /// branch is read only for tests; at `-else`/`-elif` (`None`) it has
    /// another branch, and is not.
    fn test_block_ends(&mut self, end: Option<u32>) {
        if self.stack.len() != 1 {
            return;
        }
        let depth = self.cur().conds.len();
        if let Some(&(d, start)) = self.test_open.last()
            && d == depth
        {
            self.test_open.pop();
            if let Some(end) = end {
                self.test_only.push((start, end));
            }
        }
    }

    /// Evaluate the condition of `-if(...)`/`-elif(...)`. `None` when malformed
    /// (reported; treated as false).
    fn eval_if(&mut self, form: &[Token]) -> Option<bool> {
        let span = form[1].span;
        if !is_punct(form.get(2), Punct::LParen) {
            self.error(
                DiagnosticCode::E023BadConditional,
                span,
                "expected `(` after -if/-elif",
            );
            return None;
        }
        self.start_form_budget(form);
        let mut toks = Vec::new();
        self.expand(&form[2..], &mut toks, Mode::Normal);
        let r = eval_condition(&toks, &|m| self.macros.contains_key(m));
        match r {
            CondResult::True => Some(true),
            CondResult::False => Some(false),
            CondResult::Bad(m) => {
                self.error(
                    DiagnosticCode::E023BadConditional,
                    span,
                    format!("bad -if condition: {m}"),
                );
                None
            }
        }
    }

    fn error_directive(&mut self, form: &[Token]) {
        let tag = &form[1];
        let is_error = matches!(&tag.kind, TokenKind::Atom(a) if a == "error");
        let mut toks = Vec::new();
        self.expand(&form[2..], &mut toks, Mode::Normal);
        // The term between the parentheses, rendered back as text.
        let text = if toks.len() >= 3 && is_punct(toks.first(), Punct::LParen) {
            let end = toks.len()
                - if is_punct(toks.last(), Punct::Dot) {
                    2
                } else {
                    1
                };
            let inner = &toks[1..end.max(1)];
            match inner {
                [
                    Token {
                        kind: TokenKind::String(s),
                        ..
                    },
                ] => s.to_string(),
                _ => inner
                    .iter()
                    .map(|t| token_text(&t.kind))
                    .collect::<Vec<_>>()
                    .join(" "),
            }
        } else {
            String::new()
        };
        if is_error {
            self.error(
                DiagnosticCode::E024ErrorDirective,
                tag.span,
                format!("-error: {text}"),
            );
        } else {
            self.diags.push(Diagnostic::warning(
                DiagnosticCode::W001WarningDirective,
                tag.span,
                format!("-warning: {text}"),
            ));
        }
    }

    /// `-feature(maybe_expr, enable).` turns the feature on (the lexer already
    /// made `maybe`/`else` keywords in this file); the form is dropped.
    fn feature(&mut self, form: &[Token]) {
        let names: Vec<Option<&SmolStr>> = form.iter().map(macro_name).collect();
        if form.len() >= 7
            && names
                .get(3)
                .copied()
                .flatten()
                .is_some_and(|f| f == "maybe_expr")
        {
            let enable = names
                .get(5)
                .copied()
                .flatten()
                .is_some_and(|f| f == "enable");
            self.maybe_enabled = enable;
            self.set_feature_macros();
        }
    }

    fn include(&mut self, form: &[Token], lib: bool) {
        let what = if lib { "include_lib" } else { "include" };
        let toks = coalesce_strings(form);
        let ok = toks.len() == 6
            && is_punct(toks.get(2), Punct::LParen)
            && is_punct(toks.get(4), Punct::RParen)
            && is_punct(toks.get(5), Punct::Dot);
        let name = match toks.get(3) {
            Some(Token {
                kind: TokenKind::String(s),
                span,
            }) if ok => (s.clone(), *span),
            _ => {
                let span = toks.get(2).unwrap_or(&toks[1]).span;
                self.error(
                    DiagnosticCode::E020MissingInclude,
                    span,
                    format!("malformed -{what}: expected -{what}(\"file\")."),
                );
                return;
            }
        };
        if self.stack.len() > MAX_INCLUDE_DEPTH {
            self.error(
                DiagnosticCode::E020MissingInclude,
                name.1,
                format!("-{what} nested too deeply (more than {MAX_INCLUDE_DEPTH} levels)"),
            );
            return;
        }
        let dir = self.cur().dir.clone();
        let cache = &self.env.headers;
        let found = if lib {
            self.search.find_include_lib(cache, &dir, &name.0)
        } else {
            self.search.find_include(cache, &dir, &name.0)
        };
        let h = match found {
            Ok(h) => h,
            Err(refused) => {
                let what = if lib { "include lib" } else { "include file" };
                let msg = match refused {
                    Some((path, why)) => {
                        format!(
                            "can't read {what} \"{}\": {} is {why}",
                            name.0,
                            path.display()
                        )
                    }
                    None => match lib
                        .then(|| self.search.missing_application(cache, &name.0))
                        .flatten()
                    {
                        Some(app) => format!(
                            "can't find {what} \"{}\": no application `{app}` in the library \
                             paths (a dependency not fetched? `rebar3 get-deps` puts them in \
                             _build/default/lib; or name its parent directory with --lib-dir)",
                            name.0
                        ),
                        None => format!("can't find {what} \"{}\"", name.0),
                    },
                };
                self.error(DiagnosticCode::E020MissingInclude, name.1, msg);
                return;
            }
        };
        self.included.push(h.id);
        self.headers.insert(h.id, h.clone());
        let forms = h
            .forms
            .get_or_init(|| Arc::new(split_forms(&h.tokens)))
            .clone();
        self.stack.push(FileCtx {
            forms: Forms::Whole {
                tokens: h.tokens.clone(),
                forms,
                pos: 0,
            },
            dir: h
                .file
                .path
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or_default(),
            path: SmolStr::new(h.file.path.to_string_lossy()),
            conds: Vec::new(),
            skip: Vec::new(),
        });
    }

    /// 1-based physical line of a span's start.
    fn physical_line(&self, span: Span) -> u32 {
        if span.file == self.main_id {
            return self.main_file.line_col(span.start).line;
        }
        match self.headers.get(&span.file) {
            Some(h) => h.file.line_col(span.start).line,
            None => 0,
        }
    }

    /// 1-based line of a span's start (`?LINE`), renumbered by the last
    /// `-file` attribute before it in its file.
    fn line_of(&self, span: Span) -> i64 {
        let physical = self.physical_line(span);
        let directive = self
            .line_directives
            .iter()
            .filter(|(f, d)| *f == span.file && d.from <= span.start)
            .max_by_key(|(_, d)| d.from);
        match directive {
            Some((_, d)) => renumbered(d, physical) as i64,
            None => physical as i64,
        }
    }

    /// Expand the macros of `form` into `out`.
    fn expand(&mut self, form: &[Token], out: &mut Vec<Token>, mode: Mode) {
        let mut input = Input {
            form,
            cursor: 0,
            pending: Vec::new(),
        };
        while let Some((tok, depth)) = input.next() {
            match tok.kind {
                TokenKind::Punct(Punct::Question) => {
                    self.macro_use(&mut input, tok, depth, form, out, mode)
                }
                TokenKind::Punct(Punct::DoubleQuestion) => {
                    if mode == Mode::Normal {
                        self.error(
                            DiagnosticCode::E022BadMacroCall,
                            tok.span,
                            "`??` stringifies a macro argument and is only allowed inside a macro body",
                        );
                    }
                }
                _ => out.push(tok),
            }
        }
    }

    /// Handle `?NAME...` (the `?` already taken).
    fn macro_use(
        &mut self,
        input: &mut Input<'_>,
        q: Token,
        depth: u16,
        form: &[Token],
        out: &mut Vec<Token>,
        mode: Mode,
    ) {
        let report = mode == Mode::Normal;
        let Some(name_tok) = input.peek(0).cloned() else {
            if report {
                self.error(
                    DiagnosticCode::E022BadMacroCall,
                    q.span,
                    "expected a macro name after `?`",
                );
            }
            return;
        };
        let Some(name) = macro_name(&name_tok).cloned() else {
            if report {
                let msg = format!(
                    "expected a macro name after `?`, found `{}`",
                    token_text(&name_tok.kind)
                );
                self.error(DiagnosticCode::E022BadMacroCall, name_tok.span, msg);
            }
            return;
        };
        // In a macro body the name may carry an argument's location (see
        // `substitute`); the use site is then the `?`'s span.
        let inside = name_tok.span.file == q.span.file
            && name_tok.span.start >= q.span.start
            && name_tok.span.end <= q.span.end;
        let use_span = if inside {
            q.span
        } else {
            q.span.cover(name_tok.span)
        };
        let placeholder = |s: Span| atom_tok(&format!("?{name}"), s);
        // Special macros.
        match name.as_str() {
            "LINE" => {
                input.skip(1);
                let line = self.line_of(name_tok.span);
                out.push(Token {
                    kind: TokenKind::Integer(IntLit::Small(line)),
                    span: use_span,
                });
                return;
            }
            "FILE" if matches!(self.macros.get("FILE"), Some(Macro::Special)) => {
                input.skip(1);
                let path = self
                    .stack
                    .last()
                    .map(|c| c.path.clone())
                    .unwrap_or_default();
                out.push(Token {
                    kind: TokenKind::String(path),
                    span: use_span,
                });
                return;
            }
            "FUNCTION_NAME" | "FUNCTION_ARITY"
                if matches!(self.macros.get(name.as_str()), Some(Macro::Special)) =>
            {
                if mode == Mode::NoFunctionMacros {
                    out.push(q);
                    return;
                }
                input.skip(1);
                let fname = match &self.fname {
                    Some(f) => f.clone(),
                    None => {
                        let f = self.function_name(form);
                        self.fname = Some(f.clone());
                        f
                    }
                };
                match fname {
                    Some((fun, arity)) => out.push(Token {
                        kind: if name == "FUNCTION_NAME" {
                            TokenKind::Atom(fun)
                        } else {
                            TokenKind::Integer(IntLit::Small(arity as i64))
                        },
                        span: use_span,
                    }),
                    None => {
                        self.error(
                            DiagnosticCode::E021UndefinedMacro,
                            name_tok.span,
                            format!("?{name} can only be used inside a function"),
                        );
                        out.push(placeholder(use_span));
                    }
                }
                return;
            }
            _ => {}
        }
        // Arguments, if any.
        let args = match collect_args(input) {
            Ok(a) => a,
            Err(msg) => {
                if report {
                    self.error(
                        DiagnosticCode::E022BadMacroCall,
                        name_tok.span,
                        format!("bad arguments to macro '{name}': {msg}"),
                    );
                }
                input.skip(1);
                out.push(placeholder(use_span));
                return;
            }
        };
        let arity = args.as_ref().map(|a| a.tokens.len());
        let def = match self.macros.get(name.as_str()) {
            None | Some(Macro::Undefined) | Some(Macro::Special) => {
                if report {
                    self.error(
                        DiagnosticCode::E021UndefinedMacro,
                        name_tok.span,
                        format!("undefined macro '{}'", display_arity(&name, arity)),
                    );
                }
                input.skip(1);
                out.push(placeholder(use_span));
                return;
            }
            Some(Macro::Predef(d)) => Some(d.clone()),
            Some(Macro::User(defs)) => defs.lookup(arity).cloned(),
        };
        let def = match def {
            // A constant used with arguments: the arguments stay as a call.
            Some(d) if d.params.is_none() || arity.is_some() => d,
            _ => {
                if report {
                    self.error(
                        DiagnosticCode::E022BadMacroCall,
                        name_tok.span,
                        format!(
                            "macro '{name}' has no definition taking {}",
                            match arity {
                                None => "no argument list".to_string(),
                                Some(n) => format!("{n} argument(s)"),
                            }
                        ),
                    );
                }
                input.skip(1);
                out.push(placeholder(use_span));
                return;
            }
        };
        if self.file_expanded > self.file_budget {
            // The module's budget is spent (reported once): uses stay unexpanded.
            input.skip(1);
            out.push(placeholder(use_span));
            return;
        }
        self.expansions += 1;
        let size = expansion_len(&def, args.as_ref().map(|a| a.tokens.as_slice()));
        self.expanded = self.expanded.saturating_add(size);
        self.file_expanded = self.file_expanded.saturating_add(size);
        let runaway = if depth >= MAX_EXPANSION_DEPTH {
            Some(format!(
                "circular macro '{name}' (expansions nest more than {MAX_EXPANSION_DEPTH} deep)"
            ))
        } else if self.expansions > MAX_EXPANSIONS_PER_FORM {
            Some(format!(
                "macro '{name}' expands to more than {MAX_EXPANSIONS_PER_FORM} macro uses (circular macro?)"
            ))
        } else if self.expanded > self.form_budget {
            Some(format!(
                "macro '{name}': the macros of this form expand to more than {} tokens",
                self.form_budget
            ))
        } else if self.file_expanded > self.file_budget {
            Some(format!(
                "macro '{name}': the macros of this module expand to more than {} tokens; \
                 the macros after this one are not expanded",
                self.file_budget
            ))
        } else {
            None
        };
        if let Some(msg) = runaway {
            // Report once and drop the rest of the form, keeping its final `.`.
            if report {
                self.error(
                    DiagnosticCode::E022BadMacroCall,
                    name_tok.span,
                    format!("{msg}; the rest of the form is dropped"),
                );
            }
            input.pending.clear();
            input.cursor = form.len();
            if let Some(dot) = form.last().filter(|t| is_punct(Some(t), Punct::Dot)) {
                out.push(dot.clone());
            }
            return;
        }
        // Consume the name and, for a macro with parameters, the arguments.
        let (use_span, bound) = match (&def.params, args) {
            (Some(_), Some(a)) => {
                input.skip(1 + a.consumed);
                (use_span.cover(a.close_span), Some(a.tokens))
            }
            _ => {
                input.skip(1);
                (use_span, None)
            }
        };
        let exp = substitute(&def, bound.as_deref(), use_span);
        input
            .pending
            .extend(exp.into_iter().rev().map(|t| (t, depth + 1)));
    }

    /// Name and arity of the function whose clause is the current form.
    fn function_name(&mut self, form: &[Token]) -> Option<(SmolStr, u32)> {
        let saved = self.diags.len();
        let counters = (self.expansions, self.expanded, self.file_expanded);
        let mut toks = Vec::new();
        self.expansions = 0;
        self.expanded = 0;
        self.expand(form, &mut toks, Mode::NoFunctionMacros);
        (self.expansions, self.expanded, self.file_expanded) = counters;
        self.diags.truncate(saved);
        let TokenKind::Atom(name) = &toks.first()?.kind else {
            return None;
        };
        if !is_punct(toks.get(1), Punct::LParen) {
            return None;
        }
        let mut level = 1;
        let mut arity = 0u32;
        for t in &toks[2..] {
            match &t.kind {
                TokenKind::Punct(Punct::Comma) if level == 1 => arity += 1,
                TokenKind::Punct(
                    Punct::LParen | Punct::LBrace | Punct::LBracket | Punct::BinOpen,
                ) => level += 1,
                TokenKind::Punct(
                    Punct::RParen | Punct::RBrace | Punct::RBracket | Punct::BinClose,
                ) => {
                    if level == 1 {
                        break;
                    }
                    level -= 1;
                }
                _ => {
                    if arity == 0 {
                        arity = 1;
                    }
                }
            }
        }
        Some((name.clone(), arity))
    }
}

/// One form of a file: its token range and, for `-define`, the parsed
/// definition (parsed once per file, even for a header included many times).
#[derive(Debug)]
pub(crate) struct Form {
    start: usize,
    end: usize,
    define: Option<Result<Define, (Span, String)>>,
}

/// A parsed `-define`.
#[derive(Debug)]
pub(crate) struct Define {
    name: SmolStr,
    name_span: Span,
    arity: Option<usize>,
    def: Arc<MacroDef>,
}

/// Cut a file's tokens into forms (each ending with its `.`, the last one
/// possibly without).
pub(crate) fn split_forms(tokens: &[Token]) -> Vec<Form> {
    let mut forms = Vec::with_capacity(tokens.len() / 16 + 1);
    let mut start = 0;
    while start < tokens.len() {
        let end = tokens[start..]
            .iter()
            .position(|t| matches!(t.kind, TokenKind::Punct(Punct::Dot)))
            .map_or(tokens.len(), |i| start + i + 1);
        let form = &tokens[start..end];
        let define = (directive(form) == Some("define")).then(|| parse_define(form));
        forms.push(Form { start, end, define });
        start = end;
    }
    forms
}

/// `-define(Name, Body).` or `-define(Name(P1, ...), Body).`
fn parse_define(form: &[Token]) -> Result<Define, (Span, String)> {
    let bad = |at: usize, what: &str| {
        let span = form
            .get(at)
            .or(form.last())
            .map_or(form[1].span, |t| t.span);
        Err((span, format!("malformed -define: {what}")))
    };
    if !is_punct(form.get(2), Punct::LParen) {
        return bad(2, "expected `(` after -define");
    }
    let Some(name_tok) = form.get(3) else {
        return bad(3, "expected a macro name");
    };
    let Some(name) = macro_name(name_tok).cloned() else {
        return bad(3, "expected a macro name (an atom or a variable)");
    };
    let mut i = 4;
    let params = if is_punct(form.get(i), Punct::LParen) {
        i += 1;
        let mut ps: Vec<SmolStr> = Vec::new();
        if is_punct(form.get(i), Punct::RParen) {
            i += 1;
        } else {
            loop {
                match form.get(i).map(|t| &t.kind) {
                    Some(TokenKind::Var(v)) => {
                        if ps.contains(v) {
                            return bad(i, &format!("argument {v} appears twice"));
                        }
                        ps.push(v.clone());
                        i += 1;
                    }
                    _ => return bad(i, "expected a variable as macro parameter"),
                }
                if is_punct(form.get(i), Punct::Comma) {
                    i += 1;
                } else if is_punct(form.get(i), Punct::RParen) {
                    i += 1;
                    break;
                } else {
                    return bad(i, "expected `,` or `)` in the parameter list");
                }
            }
        }
        Some(ps)
    } else {
        None
    };
    if !is_punct(form.get(i), Punct::Comma) {
        return bad(i, "expected `,` before the macro body");
    }
    i += 1;
    let n = form.len();
    if n < i + 2
        || !is_punct(form.get(n - 1), Punct::Dot)
        || !is_punct(form.get(n - 2), Punct::RParen)
    {
        return bad(n.saturating_sub(1), "expected `).` at the end");
    }
    let body = form[i..n - 2].to_vec();
    let arity = params.as_ref().map(Vec::len);
    Ok(Define {
        name,
        name_span: name_tok.span,
        arity,
        def: Arc::new(MacroDef { params, body }),
    })
}

fn cond_name(c: Cond) -> &'static str {
    match c {
        Cond::If => "if",
        Cond::Ifdef => "ifdef",
        Cond::Ifndef => "ifndef",
        Cond::Else => "else",
        Cond::Elif => "elif",
    }
}

fn display_arity(name: &str, arity: Option<usize>) -> String {
    match arity {
        None => name.to_string(),
        Some(n) => format!("{name}/{n}"),
    }
}

/// Arguments of a macro call found after the name.
struct Args {
    tokens: Vec<Vec<Token>>,
    /// Tokens after the name that the argument list takes (parens included).
    consumed: usize,
    close_span: Span,
}

/// Look past the macro name for `( Arg, ... )`. `Ok(None)`: no argument list.
fn collect_args(input: &Input<'_>) -> Result<Option<Args>, String> {
    if !is_punct(input.peek(1), Punct::LParen) {
        return Ok(None);
    }
    let mut k = 2;
    if let Some(t) = input.peek(k)
        && t.kind == TokenKind::Punct(Punct::RParen)
    {
        return Ok(Some(Args {
            tokens: Vec::new(),
            consumed: 2,
            close_span: t.span,
        }));
    }
    let mut args: Vec<Vec<Token>> = Vec::new();
    let mut cur: Vec<Token> = Vec::new();
    let mut closers: Vec<Closer> = Vec::new();
    loop {
        let Some(t) = input.peek(k) else {
            return Err("the argument list is not closed".into());
        };
        k += 1;
        if closers.is_empty() {
            match &t.kind {
                TokenKind::Punct(Punct::Comma) => {
                    if cur.is_empty() {
                        return Err("an argument is empty".into());
                    }
                    args.push(std::mem::take(&mut cur));
                    continue;
                }
                TokenKind::Punct(Punct::RParen) => {
                    if cur.is_empty() {
                        return Err("an argument is empty".into());
                    }
                    args.push(cur);
                    return Ok(Some(Args {
                        tokens: args,
                        consumed: k - 1,
                        close_span: t.span,
                    }));
                }
                TokenKind::Punct(Punct::Dot) => {
                    return Err("the argument list is not closed".into());
                }
                _ => {}
            }
        }
        if let Some(c) = opener(t, input.peek(k)) {
            closers.push(c);
        } else if closers.last().is_some_and(|c| c.closes(t)) {
            closers.pop();
        }
        cur.push(t.clone());
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Closer {
    Punct(Punct),
    End,
}

impl Closer {
    fn closes(self, t: &Token) -> bool {
        match self {
            Closer::Punct(p) => t.kind == TokenKind::Punct(p),
            Closer::End => t.kind == TokenKind::Keyword(Keyword::End),
        }
    }
}

/// What closes `t` if it opens a nesting level in a macro argument (as
/// `epp`'s `macro_arg`).
fn opener(t: &Token, next: Option<&Token>) -> Option<Closer> {
    match &t.kind {
        TokenKind::Punct(Punct::LParen) => Some(Closer::Punct(Punct::RParen)),
        TokenKind::Punct(Punct::BinOpen) => Some(Closer::Punct(Punct::BinClose)),
        TokenKind::Punct(Punct::LBracket) => Some(Closer::Punct(Punct::RBracket)),
        TokenKind::Punct(Punct::LBrace) => Some(Closer::Punct(Punct::RBrace)),
        TokenKind::Keyword(
            Keyword::Begin
            | Keyword::If
            | Keyword::Case
            | Keyword::Receive
            | Keyword::Try
            | Keyword::Cond
            | Keyword::Maybe,
        ) => Some(Closer::End),
        // `fun (` and `fun Name (` open a block; `fun f/1` does not.
        TokenKind::Keyword(Keyword::Fun) => match next.map(|n| &n.kind) {
            Some(TokenKind::Punct(Punct::LParen) | TokenKind::Var(_)) => Some(Closer::End),
            _ => None,
        },
        _ => None,
    }
}

/// How many tokens [`substitute`] gives for `def` and `args` (computed
/// without building them).
fn expansion_len(def: &MacroDef, args: Option<&[Vec<Token>]>) -> usize {
    let params = def.params.as_deref().unwrap_or(&[]);
    let body = &def.body;
    let mut n = 0usize;
    let mut i = 0;
    while i < body.len() {
        let stringify_at = match &body[i].kind {
            TokenKind::Punct(Punct::DoubleQuestion) => Some(i + 1),
            TokenKind::Punct(Punct::Question) if is_punct(body.get(i + 1), Punct::Question) => {
                Some(i + 2)
            }
            _ => None,
        };
        if let Some(j) = stringify_at
            && matches!(body.get(j).map(|t| &t.kind), Some(TokenKind::Var(_)))
        {
            n += 1;
            i = j + 1;
            continue;
        }
        let arg = match &body[i].kind {
            TokenKind::Var(v) => params
                .iter()
                .position(|p| p == v)
                .and_then(|k| args?.get(k)),
            _ => None,
        };
        n = n.saturating_add(arg.map_or(1, Vec::len));
        i += 1;
    }
    n
}

/// The body of `def` with parameters replaced by `args`; every other token
/// gets the span of the macro use. After an argument has been inserted, the
/// following body tokens get the part of the use span that starts at that
/// argument's last token: their line is then the one `epp` gives them (it
/// carries the last argument's location forward), which `?LINE` relies on
/// for calls spread over several lines.
fn substitute(def: &MacroDef, args: Option<&[Vec<Token>]>, use_span: Span) -> Vec<Token> {
    let params = def.params.as_deref().unwrap_or(&[]);
    let arg_of = |v: &SmolStr| -> Option<&Vec<Token>> {
        let i = params.iter().position(|p| p == v)?;
        args?.get(i)
    };
    let mut out = Vec::with_capacity(def.body.len());
    let mut from = use_span;
    let body = &def.body;
    let mut i = 0;
    while i < body.len() {
        let t = &body[i];
        // `??Arg` (one `??` token or two `?` tokens).
        let stringify_at = match &t.kind {
            TokenKind::Punct(Punct::DoubleQuestion) => Some(i + 1),
            TokenKind::Punct(Punct::Question) if is_punct(body.get(i + 1), Punct::Question) => {
                Some(i + 2)
            }
            _ => None,
        };
        if let Some(j) = stringify_at
            && let Some(Token {
                kind: TokenKind::Var(v),
                ..
            }) = body.get(j)
        {
            match arg_of(v) {
                Some(a) => {
                    let text = a
                        .iter()
                        .map(|t| token_text(&t.kind))
                        .collect::<Vec<_>>()
                        .join(" ");
                    out.push(Token {
                        kind: TokenKind::String(SmolStr::new(text)),
                        span: from,
                    });
                }
                None => out.push(Token {
                    kind: TokenKind::Var(v.clone()),
                    span: from,
                }),
            }
            i = j + 1;
            continue;
        }
        if let TokenKind::Var(v) = &t.kind
            && let Some(a) = arg_of(v)
        {
            out.extend(a.iter().cloned());
            if let Some(last) = a.last()
                && last.span.file == use_span.file
                && (use_span.start..=use_span.end).contains(&last.span.start)
            {
                from = Span::new(use_span.file, last.span.start, use_span.end);
            }
        } else {
            out.push(Token {
                kind: t.kind.clone(),
                span: from,
            });
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests;
