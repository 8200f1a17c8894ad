//! Lowering: [`crate::ast`] to the core [`crate::ir`].
