//! What the gate says: a case's verdict, and the exit statuses of
//! `boardbench gate`.

use serde::{Deserialize, Serialize};

/// Exit statuses of `boardbench gate`.
pub mod exit {
    pub const PASS: i32 = 0;
    pub const ERROR: i32 = 1;
    /// A flag out of its range or flags that leave nothing to do (clap's own
    /// refusals exit 2 too).
    pub const USAGE: i32 = 2;
    pub const REGRESSION: i32 = 3;
    /// Some case undecided (and none regressed): too noisy to judge it.
    pub const TOO_NOISY: i32 = 4;
}

/// Outcome of one comparison.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Ok,
    Regression,
    Faster,
    /// No valid measurement of one build (instruction counts only; timing
    /// names such cases in
    /// [`crate::gate::timing::outcome::TimingOutcome::unmatched`]).
    CannotJudge,
    /// Timing only: not decided within the time budget, or the case's A/A
    /// control out of its bound.
    Undecided,
}

/// Why a case's time moved.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cause {
    /// The candidate runs more instructions per call.
    Instructions,
    /// The same instructions (or fewer), yet slower: code or data placed
    /// differently.
    Placement,
    /// No instruction count of the case (`--no-callgrind`).
    Unknown,
}

impl Cause {
    pub fn name(self) -> &'static str {
        match self {
            Cause::Instructions => "instructions",
            Cause::Placement => "placement",
            Cause::Unknown => "cause unknown",
        }
    }
}
