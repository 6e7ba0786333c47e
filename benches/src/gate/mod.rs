//! `boardbench gate`: fail a change that makes a routine slower.
//!
//! Two builds — the base (a git revision, default `HEAD`, checked out in a
//! cached git worktree under `target/gate/`) and the candidate (the working
//! tree, or `--candidate REV`), each with its own cached target directory —
//! and two checks:
//!
//! 1. **Timing, in lock-step.** Three worker processes — the base's build,
//!    the candidate's, and the base's again as the A/A control, placed
//!    apart on purpose — measure one case at a time sample by sample in
//!    step, kept together by a small shared page, so every base sample has
//!    a candidate sample and a control sample taken tens of microseconds
//!    away under the same conditions of the machine. Per case, the median
//!    over short visits (seconds apart) of each visit's median paired
//!    ratio, with an order-statistic interval; a sequential rule decides
//!    each case as soon as its interval lies entirely above 1 + threshold
//!    (regression) or entirely below it (pass) while its A/A control holds,
//!    and leaves it undecided when the time budget runs out. One noisy case
//!    does not void the verdicts on the others.
//! 2. **Instructions, deterministic.** gungraun (callgrind) counts the
//!    instructions of one pass of every case over 32 positions per bucket,
//!    collected only inside [`crate::measure::case::counted_pass`]: on the
//!    base saved as a named baseline (`gate_<commit>`; cached), then on the
//!    candidate compared with it (`--callgrind-limits=ir=1%`, exit 3 on
//!    regression). A baseline file missing for any case is an error, never
//!    a pass (gungraun's `--baseline=NAME` would silently create it).
//!
//! A timing regression is marked with its cause ([`cause`]): more
//! instructions, or the same instructions and still slower (placement;
//! `--placement warn` makes that a warning). Neither check skips what it
//! cannot judge: a case or benchmark only one build measures, or a count
//! or sample that is no positive number, fails the gate as "cannot judge
//! case X: why", as does a check that judged nothing ([`decision::decide`];
//! a definite regression elsewhere still says so).
//!
//! Exit status: 0 pass, 3 regression, 4 undecided (too noisy to judge some
//! case), 1 error (bad revision, build failure, missing tools or baseline,
//! a base without the lock-step worker, a case that cannot be judged), 2
//! usage.
//!
//! By part: [`cli`] (flags), [`run`] (the whole gate), [`builds`]
//! (revisions, worktrees, builds), [`positions`], [`lockstep`] (workers,
//! the shared page, the schedule), [`timing`] (visits, statistics, the
//! sequential rule), [`instructions`] (its cases, gungraun runs and
//! counts), [`cause`], [`verdict`] and [`decision`], [`report`] (JSON,
//! tables), and [`load`] (a co-tenant to try the gate against).

pub mod builds;
pub mod cause;
pub mod cli;
pub mod decision;
pub mod instructions;
pub mod load;
pub mod lockstep;
pub mod positions;
pub mod report;
pub mod run;
pub mod timing;
pub mod verdict;
