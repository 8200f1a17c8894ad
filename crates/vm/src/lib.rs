//! racewit-vm (being written).
