//! RBG reasoner (placeholder).
