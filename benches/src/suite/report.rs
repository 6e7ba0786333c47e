//! The JSON document of one run (serde): metadata that makes the numbers
//! interpretable (commit and dirty flag, rustc, CPU model and flags, clock
//! facts, pinning, load average, date, command line) and, per benchmark ×
//! implementation × bucket, the sample count, median, MAD, interval and the
//! ratio to the baseline arm with its interval — combined over the run's
//! measuring processes, with each process's estimate and the two variance
//! components (within and between processes) beside it, and each process's
//! placement. Written atomically ([`crate::output::write_atomic`]).

use crate::measure::calibration::ClockInfo;
use crate::measure::counters::{CounterStatus, PerCall};
use crate::measure::pin::Pinning;
use crate::measure::placement::Placement;
use crate::measure::random_effects::Combined;
use crate::measure::runner::{Plan, Role};
use crate::measure::stats::{Correlation, Ratio, Summary};
use crate::output::{read_back, write_atomic, WriteError};
use crate::suite::density::{PositionSet, Sizes};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Bumped whenever a field changes meaning or disappears. 2: intervals
/// over measuring processes, variance components, placements.
pub const SCHEMA: &str = "boardbench.run/2";

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct RunReport {
    pub schema: String,
    pub metadata: Metadata,
    pub settings: Settings,
    pub positions: PositionsInfo,
    pub benchmarks: Vec<BenchReport>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Metadata {
    pub boardbench_version: String,
    pub git_commit: Option<String>,
    /// Tracked files modified relative to the commit.
    pub git_dirty: Option<bool>,
    pub rustc: String,
    pub cpu_model: Option<String>,
    pub cpu_flags: Vec<String>,
    pub cpus: usize,
    pub clock: ClockInfo,
    pub pinning: Pinning,
    /// 1, 5, 15 minute load averages at the start and at the end.
    pub load_average_start: Option<[f64; 3]>,
    pub load_average_end: Option<[f64; 3]>,
    /// UTC, ISO 8601, at the start.
    pub date: String,
    pub duration_s: f64,
    pub command_line: Vec<String>,
    pub counters: CounterStatus,
    /// Address-space layout randomisation while measuring (see
    /// [`crate::measure::aslr`]); `unknown` in results written before it was recorded.
    #[serde(default)]
    pub aslr: crate::measure::aslr::Aslr,
}

/// How the run measured.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Settings {
    pub quick: bool,
    /// Measuring processes per benchmark.
    #[serde(default)]
    pub processes: usize,
    /// One measuring process's plan (its share of the budget and rounds).
    pub plan: Plan,
    /// Minimum sample length in µs (the plan's `min_sample` is in clock units).
    pub min_sample_us: f64,
    pub bucket_samples_per_round: usize,
    pub ladder_samples_per_round: usize,
    /// Whether the old/new intervals hold the machine's run-to-run
    /// component (`suite::run_level`), and from where.
    #[serde(default)]
    pub run_level: Option<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PositionsInfo {
    pub sources: Vec<String>,
    /// Positions per bucket asked for (`--per-bucket`); `buckets` says how
    /// many each bucket got.
    pub per_bucket: usize,
    pub per_count: usize,
    pub seed: u64,
    /// Ladder positions taken from the derived file.
    pub derived_used: usize,
    /// Positions each density bucket actually holds: fewer than
    /// `per_bucket` where the sources have no more distinct ones. Absent
    /// from results written before it was recorded.
    #[serde(default)]
    pub buckets: Vec<BucketPositions>,
}

/// How many positions a density bucket of the run holds.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct BucketPositions {
    pub bucket: String,
    /// Inclusive range of men on the board.
    pub men: [u32; 2],
    pub positions: usize,
}

impl PositionsInfo {
    /// The positions of a run: `set`, drawn with `sizes` from its sources.
    pub fn of(set: &PositionSet, sizes: Sizes) -> PositionsInfo {
        PositionsInfo {
            sources: set.sources.clone(),
            per_bucket: sizes.per_bucket,
            per_count: sizes.per_count,
            seed: sizes.seed,
            derived_used: set.derived_used,
            buckets: set
                .buckets
                .iter()
                .map(|(b, chosen)| BucketPositions {
                    bucket: b.name().to_string(),
                    men: [b.men().0, b.men().1],
                    positions: chosen.len(),
                })
                .collect(),
        }
    }

    /// One line naming the buckets with fewer positions than asked, if any.
    pub fn shortfall(&self) -> Option<String> {
        let short: Vec<String> = self
            .buckets
            .iter()
            .filter(|b| b.positions < self.per_bucket)
            .map(|b| format!("{} {}", b.bucket, b.positions))
            .collect();
        (!short.is_empty()).then(|| {
            format!(
                "fewer positions than the {} per bucket asked (the sources hold no more distinct ones): {}",
                self.per_bucket,
                short.join(", ")
            )
        })
    }
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ArmInfo {
    pub name: String,
    pub role: Role,
}

/// One benchmark.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct BenchReport {
    pub name: String,
    pub about: String,
    /// What one call does.
    pub call: String,
    /// Unit of every cost below, e.g. "ticks per call".
    pub unit: String,
    pub baseline: String,
    pub arms: Vec<ArmInfo>,
    /// Per-call cost of an empty routine through the runner (included in
    /// every arm's figures, not subtracted).
    pub call_overhead: f64,
    /// Per bucket (or named workload).
    pub buckets: Vec<BucketReport>,
    /// Cost per call at each count of men, per arm (arm order).
    pub ladder: Vec<Rung>,
    pub correlations: Vec<Correlation>,
    pub controls: Vec<ControlCheck>,
    /// Plot files written for this benchmark, relative to the JSON's directory.
    pub plots: Vec<String>,
    /// evalcycles: the whole evaluation's cost attributed to its groups
    /// three ways (ablation, counters, instructions), per bucket and
    /// implementation, and per group against men on the board.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attribution: Option<EvalAttribution>,
    /// How a precision-planned benchmark ended (absent with a fixed plan).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub precision: Option<PrecisionOutcome>,
    /// The measuring processes, in the order they ran.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub processes: Vec<ProcessInfo>,
}

/// One measuring process of a benchmark.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ProcessInfo {
    /// 0-based, in the order the benchmark's processes ran.
    pub index: usize,
    /// Seconds after the run's start at which the process started.
    pub started_s: f64,
    /// Seconds from its start to its result (setup, measuring, extras).
    pub wall_s: f64,
    /// Seconds of the benchmark's own measurement in it (warm-up included).
    pub measure_s: f64,
    /// Whether it ran the benchmark's extra parts (e.g. evalcycles' terms).
    pub extras: bool,
    pub placement: Placement,
    pub tsc_mhz: Option<f64>,
    pub cycles_per_unit: Option<f64>,
    pub pinned: bool,
    pub realtime: bool,
    pub load_average_start: Option<[f64; 3]>,
    /// How its own precision-planned measurement ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub precision: Option<PrecisionOutcome>,
}

/// The end of a precision-planned benchmark (see `runner::Precision`).
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq)]
pub struct PrecisionOutcome {
    /// Target half-width of every bucket ratio's 95% interval (0.01 = ±1%).
    pub target: f64,
    /// The widest half-width among the reported bucket ratios: candidates'
    /// 95% intervals and the in-process controls' intervals at their
    /// checks' level.
    pub widest: f64,
    /// Whether `widest` is within `target`.
    pub met: bool,
    /// Seconds the measurement took, warm-up included.
    pub seconds: f64,
    /// Kept rounds.
    pub rounds: usize,
}

impl PrecisionOutcome {
    /// The outcome for `report`'s buckets against `target`.
    pub fn of(report: &BenchReport, target: f64, seconds: f64) -> PrecisionOutcome {
        let candidates = report
            .buckets
            .iter()
            .flat_map(|b| b.arms.iter().filter(|a| a.role == Role::Candidate).filter_map(|a| a.ratio));
        // The between-process A/A is judged on its own: its interval is as
        // wide as the processes' spread of absolute costs, which no
        // measuring time inside a process narrows.
        let controls = report.controls.iter().filter(|c| !c.across_processes).map(|c| c.ratio);
        let widest = candidates.chain(controls).map(|r| r.half_width()).fold(0.0, f64::max);
        let rounds = report.buckets.iter().flat_map(|b| b.arms.iter().map(|a| a.rounds)).max().unwrap_or(0);
        PrecisionOutcome { target, widest, met: widest <= target, seconds, rounds }
    }
}

/// Where a whole evaluation's cost goes (evalcycles), attributed to the
/// evaluation's groups three ways side by side:
///
/// * ablation: floor(full) - floor(full without the group), both timed
///   interleaved by boardbench's runner on the same positions, with a 95%
///   interval;
/// * counters: the eval-time build's sampled counters (each phase writes
///   its name to one byte, a timer signal counts the phase it interrupts;
///   a group is its share of the samples times the whole evaluation's
///   floor);
/// * instructions: the ablation again under callgrind (deterministic).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct EvalAttribution {
    /// One per density bucket × mobility implementation.
    pub tables: Vec<AttributionTable>,
    /// Ablation cost of each group against men on the board, per
    /// implementation (floors per ladder rung, no intervals).
    pub ladder: Vec<GroupLadder>,
    /// How each source was measured, or why one is missing.
    pub notes: Vec<String>,
}

/// The attribution of one implementation's evaluation on one bucket.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct AttributionTable {
    pub bucket: String,
    /// The mobility implementation (`mailbox`, `chain`, `single-probe`).
    pub arm: String,
    pub positions: usize,
    pub whole: WholeEvaluation,
    /// The ten groups in evaluation order, then the inputs (alone, as the
    /// ablation and instructions measure them; one by one, as the counters
    /// time them), then the unattributed row.
    pub rows: Vec<AttributionRow>,
    /// The largest pairwise interactions of the groups at fixed code (see
    /// [`AttributionRow::shapley`]) whose interval leaves out zero, largest
    /// in magnitude first, in the
    /// Shapley rows' scale: what makes the leave-one-out rows over- or
    /// under-sum. Empty where the Shapley shares were not measured.
    #[serde(default)]
    pub interactions: Vec<Interaction>,
}

/// Two groups that cost more together than apart (positive) or less:
/// whole - without a - without b + without both, ticks per evaluation,
/// with its bootstrap 95% interval.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Interaction {
    pub a: String,
    pub b: String,
    pub ticks: Cost,
}

/// Figures of the whole evaluation behind one [`AttributionTable`].
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct WholeEvaluation {
    /// Floor of the full evaluation in the ablation runs (ticks per
    /// evaluation; the median over the runs, one per group).
    pub ablation_floor: Option<f64>,
    /// Floor of the engine's evaluation in the whole-evaluation arms
    /// (boardbench's build, no counters).
    pub uninstrumented_floor: Option<f64>,
    /// Floor (10th percentile of passes) of the eval-time build's
    /// evaluation with the counters on (the sampled copy, which writes its
    /// phases), in every evaluation.
    pub instrumented_floor: Option<f64>,
    /// The same with the counters off (the evaluation's copy without their
    /// tests), its passes interleaved with the instrumented ones.
    #[serde(default)]
    pub counters_off_floor: Option<f64>,
    /// `instrumented_floor / counters_off_floor`: what the counters cost an
    /// evaluation, both measured in one process under the same conditions.
    pub instrumented_ratio: Option<f64>,
    /// The counters' whole evaluation (timed whole, its pair subtracted).
    pub counter_whole: Option<f64>,
    /// Ticks subtracted from every timed region (the pair's calibrated cost).
    pub counter_pair_ticks: Option<f64>,
    /// Instructions per evaluation of the full evaluation (callgrind).
    pub instructions: Option<f64>,
    /// The ablation's unattributed remainder in each code layout it was
    /// timed in (ticks; the rows are the layouts' medians and the
    /// remainder row is recomputed from them): how far one build's layout
    /// alone moves it.
    #[serde(default)]
    pub unattributed_by_layout: Vec<f64>,
    /// Floor of the full evaluation in the fixed-code copy that the Shapley
    /// shares were measured in (ticks per evaluation, its own scale; the
    /// rows are scaled from it to `ablation_floor`).
    #[serde(default)]
    pub shapley_floor: Option<f64>,
}

/// What a row of an [`AttributionTable`] stands for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RowKind {
    /// One of the evaluation's ten groups.
    Group,
    /// What no group removes: the inputs alone (ablation, instructions: the
    /// `inputs_only` variant), or one input every group reads (counters:
    /// material entry, pawn entry, clearing the attack words).
    Input,
    /// The whole minus the sum of the rows above (signed).
    Unattributed,
}

/// A cost with its 95% interval.
#[derive(Copy, Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Cost {
    pub value: f64,
    pub interval: [f64; 2],
}

/// One row: a group's (or input's, or the remainder's) cost per evaluation
/// by each source; absent where a source has no such row or did not run.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct AttributionRow {
    /// Group name (`knights`), input name (`pawn_entry`) or `unattributed`.
    pub row: String,
    pub label: String,
    pub kind: RowKind,
    /// Ablation ticks of the group's own work: floor(full) - floor(without G).
    pub ablation_work: Option<Cost>,
    /// Ablation ticks of the state the group builds for later groups:
    /// floor(without G) - floor(without G and its state).
    pub ablation_state: Option<Cost>,
    /// Work plus state: the group's whole cost (the unattributed row: the
    /// remainder). Its interval combines the parts' (see the module docs of
    /// evalcycles' attribution).
    pub ablation: Option<Cost>,
    /// Counter ticks (sampled mode: the group's share of the samples times
    /// the whole's floor; never below zero but in the unattributed row).
    pub counter: Option<f64>,
    /// Counter ticks: the lowest mean of a pass over every position.
    pub counter_floor: Option<f64>,
    /// Instructions (callgrind), work plus state.
    pub instructions: Option<f64>,
    /// The group's Shapley share (the inputs row: the inputs alone): its
    /// marginal cost averaged over every order of adding the groups, timed
    /// at fixed code (one copy of the evaluation reading what to leave out
    /// at run time), so the shares add up to the whole exactly and each
    /// interaction is split evenly between its groups; scaled to the
    /// ablation floor. Interval: bootstrap over the visits.
    #[serde(default)]
    pub shapley: Option<Cost>,
}

/// One group's ablation cost against men on the board, for one
/// implementation.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct GroupLadder {
    pub arm: String,
    pub group: String,
    pub label: String,
    /// (men, ticks per evaluation): floor(full) - floor(without the group
    /// and its state) on each rung.
    pub points: Vec<[f64; 2]>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct BucketReport {
    /// Bucket name ("opening", ...) or workload name.
    pub bucket: String,
    /// Inclusive men range, for density buckets.
    pub men: Option<[u32; 2]>,
    pub positions: usize,
    /// Passes over the positions per timed sample.
    pub reps: u64,
    pub calls_per_sample: u64,
    pub arms: Vec<ArmReport>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ArmReport {
    pub arm: String,
    pub role: Role,
    /// Timed samples kept.
    pub samples: usize,
    pub rounds: usize,
    /// Over per-round medians (units per call).
    pub summary: Summary,
    /// Ratio of floors to the baseline arm's (absent for the baseline):
    /// the geometric mean over the measuring processes with its
    /// between-process 95% interval (`ratio_spread`).
    pub ratio: Option<Ratio>,
    /// `ratio` per process, and its variance components.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ratio_spread: Option<Combined>,
    /// `summary.floor` per process, and its variance components.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub floor_spread: Option<Combined>,
    /// Median over rounds of the per-round ratio of round medians.
    pub ratio_of_medians: Option<Ratio>,
    /// `summary.floor` in core cycles, when the run calibrated them.
    pub cycles_per_call: Option<f64>,
    /// Hardware counters per call, when the machine has them.
    pub counters: Option<PerCall>,
    /// The per-round medians the summary and ratio come from.
    pub round_medians: Vec<f64>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Rung {
    pub men: u32,
    pub positions: usize,
    /// Floor cost per call of each arm (arm order).
    pub cost: Vec<f64>,
}

/// A control with a known answer.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ControlCheck {
    pub bucket: String,
    pub arm: String,
    pub expected: f64,
    /// Relative tolerance the interval must lie within.
    pub tolerance: f64,
    /// Confidence level of `ratio.interval`: 95% shared by the benchmark's
    /// checks of this kind (Bonferroni: 1 - 0.05/m for m buckets), so that
    /// a correct run passes all of them 95% of the time, not 0.95^m.
    #[serde(default)]
    pub level: f64,
    pub ratio: Ratio,
    pub pass: bool,
    /// A between-process control: the baseline's cost in one half of the
    /// measuring processes against the other half (not two arms of one
    /// process).
    #[serde(default)]
    pub across_processes: bool,
}

impl ControlCheck {
    /// Whether a within-process control (A/A or x2) holds: its interval lies
    /// inside `expected` ± `tolerance`, so the instrument's bias and its
    /// resolution are both within the tolerance. An A/A interval that lies
    /// inside 1 ± 1% but misses 1 itself (a 0.05-0.35% difference, seen in
    /// 6 of 426 such controls over 50 runs on these hosts) still passes:
    /// the old/new ratios' intervals span processes and are ±0.3% and
    /// wider, so failing it would only teach users to ignore the controls.
    /// The table still prints it (see [`Self::misses_expected`]).
    pub fn bounds_hold(ratio: &Ratio, expected: f64, tolerance: f64) -> bool {
        ratio.within(expected, tolerance)
    }

    /// A within-process A/A control whose interval does not contain 1,
    /// though it may lie inside the tolerance. Not the x2 control: twice
    /// the work is not expected to read exactly 2 (the 27 of the fresh-clone
    /// run of 7e612a5 read 1.999-2.016), only within 2 ± 2%.
    pub fn misses_expected(&self) -> bool {
        !self.across_processes && self.expected == 1.0 && !self.ratio.contains(self.expected)
    }

    /// Why a failed control failed, so that a user knows whether to
    /// distrust the instrument or give the run more time: `None` for a
    /// control that passed.
    pub fn failure(&self) -> Option<ControlFailure> {
        if self.pass {
            return None;
        }
        if self.across_processes {
            return Some(ControlFailure::Excludes);
        }
        let off = self.ratio.estimate / self.expected - 1.0;
        Some(if off.abs() <= self.tolerance { ControlFailure::TooWide } else { ControlFailure::Off(off) })
    }
}

/// Why a control failed ([`ControlCheck::failure`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ControlFailure {
    /// The estimate is inside the bounds but the interval reaches past
    /// them: the run was too noisy to resolve the tolerance.
    TooWide,
    /// The estimate itself is off the expected value by this fraction,
    /// more than the tolerance: the instrument reads wrong.
    Off(f64),
    /// A between-process control whose interval does not hold the
    /// expected value.
    Excludes,
}

impl std::fmt::Display for ControlFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ControlFailure::TooWide => {
                write!(f, "interval wider than the bounds: too noisy to judge, give it more --seconds")
            }
            ControlFailure::Off(off) => write!(f, "off by {:+.2}%, beyond the tolerance", off * 100.0),
            ControlFailure::Excludes => write!(f, "the interval does not hold the expected value"),
        }
    }
}

/// A case's name across runs: "benchmark bucket arm".
pub fn case_name(bench: &str, bucket: &str, arm: &str) -> String {
    format!("{bench} {bucket} {arm}")
}

impl RunReport {
    /// All control checks of the run.
    pub fn controls(&self) -> impl Iterator<Item = (&str, &ControlCheck)> {
        self.benchmarks.iter().flat_map(|b| b.controls.iter().map(move |c| (b.name.as_str(), c)))
    }

    /// Every old/new case (each candidate arm), by [`case_name`], in the
    /// run's order.
    pub fn old_new_arms(&self) -> impl Iterator<Item = (String, &ArmReport)> {
        self.benchmarks.iter().flat_map(|b| {
            b.buckets.iter().flat_map(move |bucket| {
                bucket
                    .arms
                    .iter()
                    .filter(|a| a.role == Role::Candidate)
                    .map(move |a| (case_name(&b.name, &bucket.bucket, &a.arm), a))
            })
        })
    }
}

/// Serialise and write a report atomically.
pub fn write_report(path: &Path, report: &RunReport) -> Result<(), WriteError> {
    let json = serde_json::to_vec_pretty(report)
        .map_err(|e| WriteError { path: path.to_path_buf(), reason: e.to_string() })?;
    write_atomic(path, &json)
}

/// Read a report back.
pub fn read_report(path: &Path) -> Result<RunReport, String> {
    let text = read_back(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    parse_report(&text, &path.display().to_string())
}

/// A report from its JSON text; errors name `origin`.
pub fn parse_report(text: &[u8], origin: &str) -> Result<RunReport, String> {
    let one_line = |e: serde_json::Error| crate::output::one_line(&e.to_string());
    // The schema first, so that an older report is named as such rather
    // than as a missing field.
    #[derive(Deserialize)]
    struct Schema {
        schema: String,
    }
    let schema = serde_json::from_slice::<Schema>(text)
        .map_err(|e| format!("{origin}: not a run report: {}", one_line(e)))?
        .schema;
    if schema != SCHEMA {
        let hint = if schema == "boardbench.run/1" {
            " (written before intervals over measuring processes; measure it again with this version)"
        } else {
            ""
        };
        return Err(format!("{origin}: schema {} is not {SCHEMA}{hint}", crate::output::one_line(&schema)));
    }
    serde_json::from_slice(text).map_err(|e| format!("{origin}: not a run report: {}", one_line(e)))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::measure::random_effects::ProcessEstimate;

    /// A small but complete report.
    pub(crate) fn sample_report() -> RunReport {
        let ratio = Ratio { estimate: 0.5, interval: [0.49, 0.51] };
        let summary = Summary {
            floor: 98.0,
            floor_interval: [97.5, 98.5],
            median: 100.0,
            mad: 1.0,
            trimmed_mean: 100.5,
            interval: [99.0, 101.0],
        };
        RunReport {
            schema: SCHEMA.to_string(),
            metadata: Metadata {
                boardbench_version: "0.1.0".into(),
                git_commit: Some("abc".into()),
                git_dirty: Some(false),
                rustc: "rustc 1.95.0".into(),
                cpu_model: Some("cpu".into()),
                cpu_flags: vec!["tsc".into()],
                cpus: 2,
                clock: ClockInfo {
                    kind: "tsc".into(),
                    unit: "ticks".into(),
                    fallback_reason: None,
                    tsc_mhz: Some(2100.0),
                    granularity: 26.0,
                    fixed_overhead: 30.0,
                    cycles_per_unit: Some(1.5),
                },
                pinning: Pinning {
                    requested: None,
                    core: Some(1),
                    pinned: true,
                    detail: "Cpus_allowed_list: 1".into(),
                    realtime: true,
                    realtime_detail: "SCHED_FIFO priority 1".into(),
                },
                load_average_start: Some([0.1, 0.2, 0.3]),
                load_average_end: None,
                date: "2026-01-01T00:00:00Z".into(),
                duration_s: 1.0,
                command_line: vec!["boardbench".into(), "all".into()],
                counters: CounterStatus { available: false, reason: Some("ENOENT".into()) },
                aslr: crate::measure::aslr::Aslr::Off,
            },
            settings: Settings {
                quick: true,
                processes: 2,
                plan: Plan {
                    rounds: 3,
                    budget_s: None,
                    warmup_rounds: 1,
                    min_sample: 21000.0,
                    visit_warmup: true,
                    block_warmup: None,
                    precision: None,
                },
                min_sample_us: 10.0,
                bucket_samples_per_round: 5,
                ladder_samples_per_round: 2,
                run_level: None,
            },
            positions: PositionsInfo {
                sources: vec!["a.epd".into()],
                per_bucket: 2,
                per_count: 1,
                seed: 3,
                derived_used: 0,
                buckets: vec![BucketPositions { bucket: "opening".into(), men: [26, 32], positions: 2 }],
            },
            benchmarks: vec![BenchReport {
                name: "x".into(),
                about: "x".into(),
                call: "one".into(),
                unit: "ticks per call".into(),
                baseline: "old".into(),
                arms: vec![
                    ArmInfo { name: "old".into(), role: Role::Baseline },
                    ArmInfo { name: "new".into(), role: Role::Candidate },
                ],
                call_overhead: 2.0,
                buckets: vec![BucketReport {
                    bucket: "opening".into(),
                    men: Some([26, 32]),
                    positions: 2,
                    reps: 3,
                    calls_per_sample: 6,
                    arms: vec![
                        ArmReport {
                            arm: "old".into(),
                            role: Role::Baseline,
                            samples: 15,
                            rounds: 3,
                            summary: summary.clone(),
                            ratio: None,
                            ratio_spread: None,
                            floor_spread: None,
                            ratio_of_medians: None,
                            cycles_per_call: Some(150.0),
                            counters: None,
                            round_medians: vec![99.0, 100.0, 101.0],
                        },
                        ArmReport {
                            arm: "new".into(),
                            role: Role::Candidate,
                            samples: 15,
                            rounds: 3,
                            summary,
                            ratio: Some(ratio),
                            ratio_spread: Some(crate::measure::random_effects::combine(
                                &[
                                    ProcessEstimate { estimate: 0.495, interval: [0.494, 0.496] },
                                    ProcessEstimate { estimate: 0.505, interval: [0.504, 0.506] },
                                ],
                                0.95,
                            )),
                            floor_spread: None,
                            ratio_of_medians: Some(ratio),
                            cycles_per_call: None,
                            counters: Some(PerCall { cycles: 1.0, instructions: 2.0, branch_misses: 0.5 }),
                            round_medians: vec![49.0, 50.0, 51.0],
                        },
                    ],
                }],
                ladder: vec![Rung { men: 3, positions: 1, cost: vec![10.0, 5.0] }],
                correlations: vec![crate::measure::stats::correlate("old", &[3.0, 4.0], &[1.0, 2.0])],
                controls: vec![ControlCheck {
                    bucket: "opening".into(),
                    arm: "old (A/A)".into(),
                    expected: 1.0,
                    tolerance: 0.01,
                    level: 0.95,
                    ratio: Ratio { estimate: 1.0, interval: [0.999, 1.001] },
                    pass: true,
                    across_processes: false,
                }],
                plots: vec!["x-men.svg".into()],
                precision: None,
                attribution: None,
                processes: Vec::new(),
            }],
        }
    }

    #[test]
    fn json_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.json");
        let r = sample_report();
        write_report(&path, &r).unwrap();
        assert_eq!(read_report(&path).unwrap(), r);
        // Field names are the schema: spot-check the ones other tools read.
        let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(v["schema"], SCHEMA);
        assert_eq!(v["benchmarks"][0]["buckets"][0]["arms"][1]["ratio"]["interval"][1], 0.51);
        assert_eq!(v["benchmarks"][0]["buckets"][0]["arms"][1]["role"], "candidate");
        assert_eq!(v["metadata"]["pinning"]["pinned"], true);
        // A wrong schema is refused.
        let mut other = r.clone();
        other.schema = "other/9".into();
        write_report(&path, &other).unwrap();
        assert!(read_report(&path).unwrap_err().contains("schema other/9"));
        // A report of the first schema is named as older, in one line.
        other.schema = "boardbench.run/1".into();
        write_report(&path, &other).unwrap();
        let e = read_report(&path).unwrap_err();
        assert!(
            e.contains("schema boardbench.run/1 is not boardbench.run/2 (written before") && !e.contains('\n'),
            "{e}"
        );
        std::fs::write(&path, b"{\"schema\": 3}").unwrap();
        assert!(read_report(&path).unwrap_err().contains("not a run report"));
    }
}
