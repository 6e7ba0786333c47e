//! Strength gates: whether a change made the engine play worse, not only
//! faster or slower.
//!
//! * `boardbench match`: [`uci_engine`] (a UCI engine as a pinned child
//!   process), [`game`] (one game, clocks, forfeits) over [`rules`] and
//!   [`adjudication`], [`openings`], [`pgn`], [`match_run`] (the pairs, the
//!   progress, the results); [`score`] (W/D/L, pentanomial pairs, the score
//!   with its 95% interval and LOWER95, Elo) and [`sprt`] (fishtest's GSPRT).
//! * `boardbench reference`: [`curate`] (the three curated suites, chosen by
//!   a fixed rule) and [`reference`](mod@reference) (save a fixed-depth run as the head
//!   reference, compare a candidate with it).
//! * [`cli`]: both command lines.

pub mod adjudication;
pub mod cli;
pub mod curate;
pub mod game;
pub mod match_run;
pub mod openings;
pub mod pgn;
pub mod pool;
pub mod reference;
pub mod rules;
pub mod score;
pub mod sprt;
pub mod uci_engine;
