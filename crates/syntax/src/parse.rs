//! Parser: preprocessed tokens to the [`crate::ast`] tree, with error recovery.
