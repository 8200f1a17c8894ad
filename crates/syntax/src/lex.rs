//! Lexer: Erlang source text to compact [`crate::token::Token`]s.
