//! Siège (placeholder while the rules are written).
