//! Verdicts the migration plans ask for before code is deleted.
//!
//! * `boardbench retire ROUTINE` ([`retire`]): may the old form of a
//!   routine go? The plans' five criteria gathered for that routine alone
//!   ([`checklist`]: PASS / FAIL / NOT RUN with evidence, and the verdict;
//!   [`cycles`]: the isolated-cycles criterion judged from a suite run;
//!   [`forms`]: which form of a routine a profile runs, for the head
//!   reference).
//! * `boardbench cutlist` ([`cutlist`]): is each cut candidate of the
//!   evaluation worth its cost? Ticks saved ([`cut_cost`]), solved
//!   positions, a short match, and a recommendation by stated rules.
//! * [`games`]: the matches both play; [`cli`]: their command lines.

pub mod checklist;
pub mod cli;
pub mod cut_cost;
pub mod cutlist;
pub mod cycles;
pub mod forms;
pub mod games;
pub mod retire;
