//! The surface syntax tree produced by [`crate::parse`].
