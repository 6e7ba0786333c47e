//! `boardbench gate`: fail a change that makes a routine slower.
//!
//! Two builds — the base (a git revision, default `HEAD`, checked out in a
//! cached git worktree under `target/gate/`) and the candidate (the working
//! tree, or `--candidate REV`), each with its own cached target directory —
//! and two checks:
//!
//! 1. **Timing, by process.** Rounds of short runs of each build's own
//!    `boardbench gate-sample` ([`crate::measure::context::Purpose::GateTiming`]: one registered
//!    per-call benchmark, every bucket × arm, the benchmark's own arms only,
//!    pinned, real-time). Per benchmark a round runs three processes next to
//!    each other — base, candidate and base again (the A/A control: two
//!    processes of one binary) — in a first-order balanced order. Each
//!    process reports per case the floor (10th percentile) of its samples;
//!    per case the ratio is that of the builds' lower quartiles of those
//!    floors over the rounds ([`timing::analysis::PROCESS_QUANTILE`]: whole processes get
//!    disturbed here), with a 95% paired bootstrap interval ([`timing::analysis::LEVEL`]). A case regresses when the
//!    interval's lower end is above 1 + threshold (3%). If any A/A interval
//!    leaves 1 ± the A/A bound (default: twice the threshold), the machine was too
//!    noisy to tell: the gate says so with its own exit code instead of
//!    passing or failing at random.
//! 2. **Instructions, deterministic.** gungraun (callgrind) counts the
//!    instructions of one pass of every case over 32 positions per bucket,
//!    collected only inside [`crate::measure::case::counted_pass`]: on the base saved as a
//!    named baseline (`gate_<commit>`; cached), then on the candidate
//!    compared with it (`--callgrind-limits=ir=1%`, exit 3 on regression).
//!    A baseline file missing for any case is an error, never a pass
//!    (gungraun's `--baseline=NAME` would silently create it).
//!
//! Neither check skips what it cannot judge: a case or benchmark only one
//! build measures (a renamed arm would otherwise pass unjudged), or a floor
//! or count that is NaN, infinite, zero or negative in any process, fails
//! the gate as "cannot judge case X: why", as does a check that judged
//! nothing ([`decision::decide`]; a definite regression elsewhere still says so).
//!
//! Exit status: 0 pass, 3 regression, 4 too noisy to judge, 1 error
//! (bad revision, build failure, missing tools or baseline, a case that
//! cannot be judged), 2 usage.
//!
//! By part: [`cli`] (flags), [`run`] (the whole gate), [`builds`] (revisions,
//! worktrees, builds), [`positions`], [`timing`] (its processes, their
//! samples and the statistics), [`instructions`] (its cases, gungraun runs
//! and counts), [`verdict`] and [`decision`], [`report`] (JSON, tables).

pub mod builds;
pub mod cli;
pub mod decision;
pub mod instructions;
pub mod positions;
pub mod report;
pub mod run;
pub mod timing;
pub mod verdict;
