//! boardbench
