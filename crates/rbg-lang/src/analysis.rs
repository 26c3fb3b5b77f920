//! Analyses of checked games (placeholder).
