//! Strength gates: whether a change made the engine play worse, not only
//! faster or slower.
//!
//! * [`score`], [`sprt`]: a match's figures (W/D/L, pentanomial pairs,
//!   score with its 95% interval and LOWER95, Elo) and the sequential test.

pub mod score;
pub mod sprt;
pub mod adjudication;
pub mod game;
pub mod openings;
pub mod pgn;
pub mod rules;
pub mod uci_engine;
