//! Preprocessor: macros, conditionals and includes over tokens.
