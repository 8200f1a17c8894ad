//! racewit-confirm (being written).
