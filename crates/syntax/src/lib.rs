//! racewit's Erlang front end: real source in, the core IR with spans out.
//!
//! Principal types:
//! - [`source::SourceDb`], [`source::FileId`], [`source::Span`]: files and positions.
//! - [`token::Token`]: the compact token form (lexer → preprocessor → parser).
//! - [`ir::Program`], [`ir::Module`], [`ir::Function`], [`ir::Body`]: the core IR.
//! - [`diagnostic::Diagnostic`]: what went wrong, where, and what was expected.
//!
//! Passes, in order: [`lex`] → [`pp`] (preprocessor) → [`parse`] (to [`ast`])
//! → [`lower`] (to [`ir`]). [`load`] drives them over files with rayon.
//!
//! Architecture invariant: loading never fails and never panics. Every input
//! yields a `Program` plus diagnostics; what could not be parsed becomes an
//! explicit `Missing` node.

pub mod ast;
pub mod consult;
pub mod diagnostic;
mod growth;
pub mod ir;
pub mod lex;
pub mod load;
pub mod lower;
mod merge;
pub mod parse;
pub mod pp;
pub mod read;
pub mod source;
pub mod token;

pub use diagnostic::{Diagnostic, DiagnosticCode, Severity};
pub use load::{LoadOptions, load_paths, load_source};
pub use source::{FileId, Location, SourceDb, Span};
