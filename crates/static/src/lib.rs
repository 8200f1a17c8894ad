//! racewit-static (being written).
