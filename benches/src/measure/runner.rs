//! The one runner every arm goes through (ARCHITECTURE.md, "Measuring"): a
//! single `#[inline(never)]` function that times a batch of calls of a
//! routine given as a function pointer, so every arm of a benchmark runs
//! the very same machine code around its routine (two differently inlined
//! loops showed a steady 2.6% bias on identical code; one shared runner
//! gave 1.0000).
//!
//! A measurement job: for every workload (a set of prepared inputs, the
//! same for every arm) the batch size is chosen so that each timed sample
//! lasts at least the minimum (10 µs by default); after warm-up rounds that
//! are thrown away, every round visits every workload, runs one untimed
//! pass of each arm, then takes samples with the arms interleaved (ABBA
//! generalised to k arms: a first-order balanced Williams order with its
//! arms randomly relabelled each sample), and records every sample plus
//! each arm's median and trimmed mean of that round. Runs always include an A/A arm
//! (the baseline again) and usually a calibrated "baseline twice" arm;
//! their ratios to the baseline must come out at 1 and 2.

use crate::measure::clock::Measurement;
use crate::measure::stats;
use std::hint::black_box;

/// A routine under test over a prepared input; returns a checksum so the
/// work cannot be optimised away (and so arms can be checked to agree).
pub type Routine<I> = fn(&mut I) -> u64;

/// What an arm is for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// The reference every ratio is taken against (the old implementation).
    Baseline,
    /// An implementation compared with the baseline.
    Candidate,
    /// The baseline's routine again: its ratio must be 1.
    AaControl,
    /// The baseline's routine called twice per call: its ratio must be 2.
    KnownDouble,
}

/// One arm: a named routine.
#[derive(Clone, Debug)]
pub struct Arm<I> {
    pub name: String,
    pub routine: Routine<I>,
    pub role: Role,
    /// Whether its checksum must equal the baseline's.
    pub must_agree: bool,
    /// Make every pass over the inputs twice (the same inputs, same memory,
    /// same order) while counting calls of one: the calibrated "twice the
    /// work" arm. Not a second list (copies, or the inputs in another
    /// order): that changes what the caches hold and which branch sequence
    /// the predictor learns over repeated passes, and cheap routines then
    /// read x2 anywhere from 1.95 to 2.09 (getattacks, kingdefects). Nor the
    /// routine twice back to back on one input: the second call runs faster
    /// (the predictor has just seen its very branches), x2 read 1.46.
    pub doubled: bool,
}

impl<I> Arm<I> {
    /// Passes over the inputs per counted pass.
    pub fn passes(&self) -> u64 {
        if self.doubled {
            2
        } else {
            1
        }
    }
}

/// Inputs shared by all arms, with a label.
#[derive(Clone, Debug)]
pub struct Workload<I> {
    pub label: String,
    pub inputs: Vec<I>,
    /// Timed samples per arm per round.
    pub samples_per_round: usize,
    /// Whether this workload's comparisons decide when a run planned for
    /// [`Precision`] may stop (density buckets yes, ladder rungs no).
    pub watched: bool,
}

/// How long and how often to measure.
#[derive(Copy, Clone, Debug, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct Plan {
    /// Kept rounds (with a budget: the least number kept).
    pub rounds: usize,
    /// Seconds to spend on kept rounds: after the warm-up the runner keeps
    /// running rounds (at least `rounds`, at most 20 times that) until the
    /// budget is spent, so cheap and costly benchmarks get equal time.
    #[serde(default)]
    pub budget_s: Option<f64>,
    /// Rounds run and discarded first.
    pub warmup_rounds: usize,
    /// Minimum length of one timed sample, in the measurement's units
    /// (0: one pass per sample, no batch sizing; for calls of seconds).
    pub min_sample: f64,
    /// Run one untimed pass of every arm each time a round visits a
    /// workload (off for long calls such as perft, which need no warming).
    #[serde(default = "yes")]
    pub visit_warmup: bool,
    /// Time each arm's samples of a visit in one block, after this many
    /// untimed passes of that arm, the arms one after another in a fresh
    /// random order per visit, instead of interleaving them sample by
    /// sample (`visit_warmup` is then not used). For routines whose cost
    /// depends on how much of the pass the core has learned (ARCHITECTURE.md,
    /// "A set the core learns"): interleaved, two near-identical arms undo
    /// each other's learning and each reads slower than it runs alone; in
    /// blocks each is timed learned. Pairing is then by visit (blocks
    /// milliseconds apart), not by sample.
    #[serde(default)]
    pub block_warmup: Option<usize>,
    /// With a budget: stop on precision instead of at the budget.
    #[serde(default)]
    pub precision: Option<Precision>,
}

/// A budget spent where the noise is: after `min_fraction` of the budget
/// (and at least the planned rounds), the runner checks every tenth of the
/// budget whether every ratio of the watched workloads (every arm against
/// the baseline; see [`precise_enough`]) has an interval within
/// ±`half_width` of its estimate, and stops at the first check that says
/// so; past the budget it keeps going while a check fails, up to
/// `max_fraction` of the budget. A quiet stretch ends a benchmark early; a
/// noisy one gets more rounds. The checks use a quick bootstrap
/// ([`stats::floor_ratio_quick`]) against 90% of the target; the report's
/// intervals are computed afresh, so they may still end a little wider
/// than the check saw. Stopping on a look at the data narrows intervals a
/// little on its own; the minimum time and the planned rounds keep the
/// early, unstable looks out.
#[derive(Copy, Clone, Debug, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct Precision {
    pub half_width: f64,
    pub min_fraction: f64,
    pub max_fraction: f64,
}

/// The checks aim a little inside the target: the quick bootstrap's width
/// wobbles by a few percent of itself, and the report's own intervals are
/// what must meet the target.
const CHECK_MARGIN: f64 = 0.9;

impl Precision {
    /// The default run's rule: ±1% (the precision the suite aims at),
    /// between 40% and 160% of the budget.
    pub const DEFAULT: Precision = Precision { half_width: 0.01, min_fraction: 0.4, max_fraction: 1.6 };
}

/// Whether every ratio of the watched workloads is within `half_width`:
/// candidates' 95% intervals, and the controls' at the level their checks
/// use (95% shared among the watched workloads, as in the report).
pub fn precise_enough<I>(rounds: &[WorkloadRounds], watched: &[bool], arms: &[Arm<I>], half_width: f64) -> bool {
    let base_arm = arms.iter().position(|a| a.role == Role::Baseline).expect("a job has a baseline arm");
    let family = watched.iter().filter(|&&w| w).count().max(1);
    let control_level = 1.0 - 0.05 / family as f64;
    rounds.iter().zip(watched).filter(|(_, &w)| w).all(|(r, _)| {
        let base = &r.arms[base_arm].round_samples;
        r.arms.iter().zip(arms).filter(|(a, _)| !a.round_samples.is_empty()).all(|(a, spec)| {
            let level = match spec.role {
                Role::Baseline => return true,
                Role::Candidate => 0.95,
                Role::AaControl | Role::KnownDouble => control_level,
            };
            stats::floor_ratio_quick(base, &a.round_samples, level).half_width() <= half_width
        })
    })
}

fn yes() -> bool {
    true
}

/// The outcome for one arm on one workload.
#[derive(Clone, Debug, Default)]
pub struct ArmRounds {
    /// Per kept round: median of that round's samples (units per call).
    pub round_medians: Vec<f64>,
    /// Per kept round: 10%-trimmed mean of that round's samples.
    pub round_trimmed: Vec<f64>,
    /// Per kept round: every sample (units per call), in time order.
    pub round_samples: Vec<Vec<f64>>,
    /// Timed samples kept.
    pub samples: usize,
    /// Checksum of one pass over the inputs.
    pub checksum: u64,
}

/// The outcome for one workload.
#[derive(Clone, Debug)]
pub struct WorkloadRounds {
    pub label: String,
    /// Passes over the inputs per sample.
    pub reps: u64,
    /// Routine calls per sample (`reps × inputs`).
    pub calls_per_sample: u64,
    /// One entry per arm, in arm order.
    pub arms: Vec<ArmRounds>,
}

/// Time `reps` passes of `routine` over `inputs`. The one runner: generic
/// over the input type and the clock (one instantiation per benchmark, shared
/// by all of its arms), never inlined, calling through the pointer (passed
/// through `black_box` so no pass can specialise the loop for one routine).
#[inline(never)]
pub fn time_batch<I, M: Measurement>(m: &M, routine: Routine<I>, inputs: &mut [I], reps: u64) -> (f64, u64) {
    let routine = black_box(routine);
    let mut sum = 0u64;
    let start = m.start();
    for _ in 0..reps {
        for x in inputs.iter_mut() {
            sum = sum.wrapping_add(routine(black_box(x)));
        }
    }
    let elapsed = m.end(start);
    (elapsed, black_box(sum))
}

/// The checksum of one pass of `routine` over `inputs` (untimed).
fn one_pass<I>(routine: Routine<I>, inputs: &mut [I]) -> u64 {
    inputs.iter_mut().fold(0u64, |sum, x| sum.wrapping_add(routine(x)))
}

/// Per-call cost of an empty routine through the runner (the call and loop
/// overhead that every arm pays equally; reported, not subtracted).
pub fn call_overhead<I, M: Measurement>(m: &M, fixed_overhead: f64, inputs: &mut [I]) -> f64 {
    #[inline(never)]
    fn nothing<T>(_: &mut T) -> u64 {
        0
    }
    if inputs.is_empty() {
        return 0.0;
    }
    let reps = (20_000 / inputs.len()).max(1) as u64;
    let calls = (reps * inputs.len() as u64) as f64;
    let mut v: Vec<f64> =
        (0..101).map(|_| (time_batch(m, nothing::<I>, inputs, reps).0 - fixed_overhead) / calls).collect();
    stats::median_mut(&mut v)
}

/// Why a job could not be measured.
#[derive(Debug, PartialEq)]
pub enum RunError {
    /// An arm's checksum differs from the baseline's on the same inputs.
    Disagree { workload: String, arm: String, baseline: u64, got: u64 },
    /// A workload without inputs.
    Empty { workload: String },
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Disagree { workload, arm, baseline, got } => write!(
                f,
                "arm {arm} disagrees with the baseline on {workload}: checksum {got:#x}, baseline {baseline:#x}"
            ),
            RunError::Empty { workload } => write!(f, "workload {workload} has no inputs"),
        }
    }
}

impl std::error::Error for RunError {}

/// Orders of `k` arms balanced for first-order carry-over (a Williams
/// design, ABBA generalised to k arms): over all rows every arm runs in
/// every position equally often and follows every other arm equally often.
/// k rows for even k, 2k for odd k (each row and its mirror).
pub fn balanced_orders(k: usize) -> Vec<Vec<usize>> {
    if k <= 1 {
        return vec![(0..k).collect()];
    }
    // First row: 0, 1, k-1, 2, k-2, ...
    let mut first = vec![0usize];
    let (mut lo, mut hi) = (1usize, k - 1);
    while first.len() < k {
        first.push(lo);
        lo += 1;
        if first.len() < k {
            first.push(hi);
            hi -= 1;
        }
    }
    let mut rows: Vec<Vec<usize>> = (0..k).map(|r| first.iter().map(|&a| (a + r) % k).collect()).collect();
    if k % 2 == 1 {
        let mirrored: Vec<Vec<usize>> = rows.iter().map(|r| r.iter().rev().copied().collect()).collect();
        rows.extend(mirrored);
    }
    rows
}

/// Most routine calls in one sample: the cap on a batch, whatever the
/// probe below reads (about 0.1 s of the fastest routines measured here).
const MAX_CALLS_PER_SAMPLE: u64 = 100_000_000;

/// Batch size for a workload: enough passes that the fastest arm's sample
/// lasts `min_sample` units, capped at [`MAX_CALLS_PER_SAMPLE`] calls.
fn batch_reps<I, M: Measurement>(m: &M, fixed: f64, arms: &[Arm<I>], inputs: &mut [I], min_sample: f64) -> u64 {
    let cap = (MAX_CALLS_PER_SAMPLE / inputs.len().max(1) as u64).max(1);
    let fastest = arms
        .iter()
        .filter(|a| !a.doubled)
        .map(|a| time_per_pass(m, fixed, a.routine, inputs, min_sample, cap))
        .fold(f64::INFINITY, f64::min);
    if fastest > 0.0 && fastest.is_finite() {
        (min_sample / fastest).ceil().clamp(1.0, cap as f64) as u64
    } else {
        cap
    }
}

/// Time of one pass of `routine` over `inputs`: the median of seven
/// batches, with the passes per batch doubled until a batch reads well
/// above the clock's fixed overhead (an eighth of `min_sample`) or `cap`
/// passes. One pass over one or two inputs can read at or below the fixed
/// overhead on a coarse clock; divided into `min_sample` it asked for
/// endless batches.
fn time_per_pass<I, M: Measurement>(
    m: &M,
    fixed: f64,
    routine: Routine<I>,
    inputs: &mut [I],
    min_sample: f64,
    cap: u64,
) -> f64 {
    let mut reps = 1u64;
    loop {
        let mut v: Vec<f64> = (0..7).map(|_| time_batch(m, routine, inputs, reps).0 - fixed).collect();
        let t = stats::median_mut(&mut v);
        if t >= min_sample / 8.0 || reps >= cap {
            return t / reps as f64;
        }
        reps = (reps * 2).min(cap);
    }
}

/// Run a measurement job. `progress` is called after every round with
/// (rounds done, rounds in all).
pub fn run<I: Clone, M: Measurement>(
    m: &M,
    fixed_overhead: f64,
    arms: &[Arm<I>],
    workloads: &mut [Workload<I>],
    plan: &Plan,
    mut progress: impl FnMut(usize, usize),
) -> Result<Vec<WorkloadRounds>, RunError> {
    let base_arm = arms.iter().position(|a| a.role == Role::Baseline).expect("a job has a baseline arm");
    let mut out = Vec::with_capacity(workloads.len());
    for w in workloads.iter_mut() {
        if w.inputs.is_empty() {
            return Err(RunError::Empty { workload: w.label.clone() });
        }
        // Every arm's checksum, from one untimed pass each, baseline first:
        // the arms that must agree are checked before any is timed.
        let mut results: Vec<ArmRounds> = arms.iter().map(|_| ArmRounds::default()).collect();
        for i in std::iter::once(base_arm).chain((0..arms.len()).filter(|&i| i != base_arm)) {
            let checksum = one_pass(arms[i].routine, &mut w.inputs);
            results[i].checksum = checksum;
            let baseline = results[base_arm].checksum;
            if arms[i].must_agree && checksum != baseline {
                return Err(RunError::Disagree {
                    workload: w.label.clone(),
                    arm: arms[i].name.clone(),
                    baseline,
                    got: checksum,
                });
            }
        }
        let reps =
            if plan.min_sample > 0.0 { batch_reps(m, fixed_overhead, arms, &mut w.inputs, plan.min_sample) } else { 1 };
        out.push(WorkloadRounds {
            label: w.label.clone(),
            reps,
            calls_per_sample: reps * w.inputs.len() as u64,
            arms: results,
        });
    }
    let mut total = plan.warmup_rounds + plan.rounds;
    let mut kept_since: Option<std::time::Instant> = None;
    // Precision checks (see [`Precision`]): every `check_step` kept rounds.
    let watched: Vec<bool> = workloads.iter().map(|w| w.watched).collect();
    let (mut check_step, mut next_check) = (0usize, 0usize);
    let max_samples = workloads.iter().map(|w| w.samples_per_round).max().unwrap_or(1);
    let mut buf: Vec<Vec<f64>> = vec![Vec::with_capacity(max_samples); arms.len()];
    // Orders: a Williams row (first-order carry-over balanced), its arms
    // relabelled by a fresh random permutation each sample, so that every
    // arm is exchangeable with every other under carry-over of any order (a
    // fixed design balances only the first order: seen here, an A/A pair
    // read 1.02 when a third arm running the same routine sat at a
    // different second-order distance from each).
    let orders = balanced_orders(arms.len());
    let mut rng = engine::rng::Rng::new(0x0ABB_A0DE);
    let mut label: Vec<usize> = (0..arms.len()).collect();
    let mut order = vec![0usize; arms.len()];
    let mut row = 0usize;
    let mut round = 0;
    while round < total {
        let keep = round >= plan.warmup_rounds;
        if keep && kept_since.is_none() {
            kept_since = Some(std::time::Instant::now());
        }
        for (w, res) in workloads.iter_mut().zip(out.iter_mut()) {
            for b in buf.iter_mut() {
                b.clear();
            }
            let calls = res.calls_per_sample as f64;
            if let Some(warm) = plan.block_warmup {
                for j in (1..label.len()).rev() {
                    label.swap(j, rng.index(j + 1));
                }
                for &i in &label {
                    let reps = res.reps * arms[i].passes();
                    for _ in 0..warm {
                        black_box(time_batch(m, arms[i].routine, &mut w.inputs, reps));
                    }
                    for _ in 0..w.samples_per_round {
                        let (t, _) = time_batch(m, arms[i].routine, &mut w.inputs, reps);
                        buf[i].push((t - fixed_overhead) / calls);
                    }
                }
            } else {
                // One untimed pass of each arm: caches and predictors see
                // every arm's code and data before any sample of this visit.
                if plan.visit_warmup {
                    for a in arms {
                        black_box(time_batch(m, a.routine, &mut w.inputs, a.passes()));
                    }
                }
                for _ in 0..w.samples_per_round {
                    for j in (1..label.len()).rev() {
                        label.swap(j, rng.index(j + 1));
                    }
                    for (o, &a) in order.iter_mut().zip(&orders[row % orders.len()]) {
                        *o = label[a];
                    }
                    for &i in &order {
                        let reps = res.reps * arms[i].passes();
                        let (t, _) = time_batch(m, arms[i].routine, &mut w.inputs, reps);
                        buf[i].push((t - fixed_overhead) / calls);
                    }
                    row += 1;
                }
            }
            if keep {
                for (ar, b) in res.arms.iter_mut().zip(buf.iter_mut()) {
                    ar.samples += b.len();
                    ar.round_samples.push(b.clone());
                    ar.round_trimmed.push(stats::trimmed_mean(b, 0.1));
                    ar.round_medians.push(stats::median_mut(b));
                }
            }
        }
        round += 1;
        // With a budget: after a few kept rounds, set the total so the kept
        // rounds fill it (never fewer than the planned rounds).
        if let (Some(budget), Some(t0)) = (plan.budget_s, kept_since) {
            let kept = round - plan.warmup_rounds;
            if kept == plan.rounds.clamp(1, 5) {
                let per_round = t0.elapsed().as_secs_f64() / kept as f64;
                let want = (budget / per_round.max(1e-9)) as usize;
                total = plan.warmup_rounds + want.clamp(plan.rounds, 20 * plan.rounds);
                check_step = ((total - plan.warmup_rounds) / 10).max(1);
            }
            if let Some(p) = plan.precision {
                let elapsed = t0.elapsed().as_secs_f64();
                let at_end = round >= total;
                let due = check_step > 0 && (kept >= next_check || at_end);
                if due && kept >= plan.rounds && elapsed >= p.min_fraction * budget {
                    next_check = kept + check_step;
                    if precise_enough(&out, &watched, arms, p.half_width * CHECK_MARGIN) {
                        total = round;
                    } else if at_end && elapsed < p.max_fraction * budget {
                        total = round + check_step;
                    }
                }
            }
        }
        progress(round, total);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::clock::MonotonicNanos;

    fn one(x: &mut u64) -> u64 {
        *x
    }
    fn two(x: &mut u64) -> u64 {
        *x * 2
    }

    /// Nanoseconds in whole microseconds: a clock coarser than one call.
    struct CoarseNanos;

    impl Measurement for CoarseNanos {
        type Intermediate = std::time::Instant;
        fn name(&self) -> &'static str {
            "coarse"
        }
        fn unit(&self) -> &'static str {
            "ns"
        }
        fn start(&self) -> std::time::Instant {
            std::time::Instant::now()
        }
        fn end(&self, start: std::time::Instant) -> f64 {
            (start.elapsed().as_nanos() / 1000 * 1000) as f64
        }
    }

    #[test]
    fn batches_stay_finite_when_one_pass_reads_nothing() {
        // One pass over one input reads 0 on this clock; the old probe took
        // that as 1e-9 units per pass and asked for 10^13 passes.
        let arms = vec![Arm { name: "a".into(), routine: one, role: Role::Baseline, must_agree: true, doubled: false }];
        let mut inputs = vec![7u64];
        let reps = batch_reps(&CoarseNanos, 0.0, &arms, &mut inputs, 10_000.0);
        // A call takes between 0.1 and 100 ns here, so 10 us is 100 to
        // 100,000 passes (the probe's doubling reads to within 2x).
        assert!((50..=200_000).contains(&reps), "{reps}");
    }

    /// Baseline `a` and candidate `b`, both checked for agreement, and a
    /// plan of one kept round.
    fn agreeing_pair(a: Routine<u64>, b: Routine<u64>) -> (Vec<Arm<u64>>, Plan) {
        let arms = vec![
            Arm { name: "a".into(), routine: a, role: Role::Baseline, must_agree: true, doubled: false },
            Arm { name: "b".into(), routine: b, role: Role::Candidate, must_agree: true, doubled: false },
        ];
        let plan = Plan {
            rounds: 1,
            budget_s: None,
            warmup_rounds: 0,
            min_sample: 1000.0,
            visit_warmup: true,
            block_warmup: None,
            precision: None,
        };
        (arms, plan)
    }

    #[test]
    fn checksums_must_agree() {
        let (arms, plan) = agreeing_pair(one, two);
        let mut w = vec![Workload { label: "w".into(), inputs: vec![1u64, 2, 3], samples_per_round: 1, watched: true }];
        let e = run(&MonotonicNanos, 0.0, &arms, &mut w, &plan, |_, _| {}).unwrap_err();
        assert_eq!(e, RunError::Disagree { workload: "w".into(), arm: "b".into(), baseline: 6, got: 12 });
        let mut empty =
            vec![Workload::<u64> { label: "e".into(), inputs: vec![], samples_per_round: 1, watched: true }];
        assert_eq!(
            run(&MonotonicNanos, 0.0, &arms, &mut empty, &plan, |_, _| {}).unwrap_err(),
            RunError::Empty { workload: "e".into() }
        );
    }

    /// In block mode each arm runs its warm-up passes and its samples back
    /// to back, the arms one after another; every arm gets its samples.
    #[test]
    fn block_mode_times_each_arm_in_one_block() {
        thread_local! {
            static CALLS: std::cell::RefCell<Vec<char>> = const { std::cell::RefCell::new(Vec::new()) };
        }
        fn a(x: &mut u64) -> u64 {
            CALLS.with_borrow_mut(|c| c.push('a'));
            *x
        }
        fn b(x: &mut u64) -> u64 {
            CALLS.with_borrow_mut(|c| c.push('b'));
            *x
        }
        let (arms, mut plan) = agreeing_pair(a, b);
        plan.min_sample = 0.0;
        plan.rounds = 3;
        plan.block_warmup = Some(3);
        let mut w = vec![Workload { label: "w".into(), inputs: vec![1u64], samples_per_round: 2, watched: true }];
        let r = run(&MonotonicNanos, 0.0, &arms, &mut w, &plan, |_, _| {}).unwrap();
        for arm in &r[0].arms {
            assert_eq!(arm.round_samples.len(), 3);
            assert!(arm.round_samples.iter().all(|s| s.len() == 2));
        }
        let calls = CALLS.with_borrow(|c| c.clone());
        // Two checksum passes, then per round two blocks of 3 + 2 calls.
        assert_eq!(calls.len(), 2 + 3 * 2 * 5);
        for block in calls[2..].chunks(5) {
            assert!(block.iter().all(|&c| c == block[0]), "{calls:?}");
        }
        for round in calls[2..].chunks(10) {
            assert_ne!(round[0], round[5], "both arms in every round: {calls:?}");
        }
    }

    /// A baseline whose checksum is 0 is still a checksum, in every workload.
    #[test]
    fn a_zero_checksum_is_checked_too() {
        fn zero(_: &mut u64) -> u64 {
            0
        }
        let (arms, plan) = agreeing_pair(zero, one);
        let mut w = vec![
            Workload { label: "w1".into(), inputs: vec![0u64, 0], samples_per_round: 1, watched: true },
            Workload { label: "w2".into(), inputs: vec![1u64, 2], samples_per_round: 1, watched: true },
        ];
        let e = run(&MonotonicNanos, 0.0, &arms, &mut w, &plan, |_, _| {}).unwrap_err();
        assert_eq!(e, RunError::Disagree { workload: "w2".into(), arm: "b".into(), baseline: 0, got: 3 });
    }

    /// The checksum is one pass's: a sum over a batch of many passes wraps,
    /// and an even number of passes of 2^63 sums to 0 (as the candidate's).
    #[test]
    fn the_checksum_is_one_pass_and_a_batch_cannot_hide_a_disagreement() {
        fn half(_: &mut u64) -> u64 {
            1 << 63
        }
        fn zero(_: &mut u64) -> u64 {
            0
        }
        let (arms, plan) = agreeing_pair(half, zero);
        let mut w = vec![Workload { label: "w".into(), inputs: vec![0u64], samples_per_round: 1, watched: true }];
        let e = run(&MonotonicNanos, 0.0, &arms, &mut w, &plan, |_, _| {}).unwrap_err();
        assert_eq!(e, RunError::Disagree { workload: "w".into(), arm: "b".into(), baseline: 1 << 63, got: 0 });
    }

    #[test]
    fn balanced_orders_balance_position_and_carry_over() {
        assert_eq!(balanced_orders(2), vec![vec![0, 1], vec![1, 0]]);
        for k in 2..=7 {
            let rows = balanced_orders(k);
            assert_eq!(rows.len(), if k % 2 == 0 { k } else { 2 * k });
            let mut at = vec![vec![0; k]; k];
            let mut follows = vec![vec![0; k]; k];
            for r in &rows {
                let mut sorted = r.clone();
                sorted.sort_unstable();
                assert_eq!(sorted, (0..k).collect::<Vec<_>>(), "a permutation");
                for (p, &a) in r.iter().enumerate() {
                    at[a][p] += 1;
                }
                for w in r.windows(2) {
                    follows[w[0]][w[1]] += 1;
                }
            }
            let per = rows.len() / k;
            assert!(at.iter().flatten().all(|&n| n == per), "k={k} positions {at:?}");
            // Every ordered pair of different arms is adjacent equally often.
            for (a, row) in follows.iter().enumerate() {
                for (b, &n) in row.iter().enumerate() {
                    assert_eq!(n, if a == b { 0 } else { per }, "k={k} {a}->{b}");
                }
            }
        }
    }

    std::thread_local! {
        static CALLS: std::cell::Cell<[u64; 2]> = const { std::cell::Cell::new([0, 0]) };
    }

    fn count_plain(x: &mut u64) -> u64 {
        CALLS.with(|c| c.set([c.get()[0] + 1, c.get()[1]]));
        *x
    }

    fn count_doubled(x: &mut u64) -> u64 {
        CALLS.with(|c| c.set([c.get()[0], c.get()[1] + 1]));
        *x
    }

    #[test]
    fn a_doubled_arm_does_every_pass_twice_and_counts_it_once() {
        let arms = vec![
            Arm { name: "a".into(), routine: count_plain, role: Role::Baseline, must_agree: true, doubled: false },
            Arm {
                name: "a x2".into(),
                routine: count_doubled,
                role: Role::KnownDouble,
                must_agree: true,
                doubled: true,
            },
        ];
        let mut w = vec![Workload { label: "w".into(), inputs: vec![1u64, 2, 3], samples_per_round: 3, watched: true }];
        let plan = Plan {
            rounds: 2,
            budget_s: None,
            warmup_rounds: 1,
            min_sample: 0.0,
            visit_warmup: true,
            block_warmup: None,
            precision: None,
        };
        let r = run(&MonotonicNanos, 0.0, &arms, &mut w, &plan, |_, _| {}).unwrap();
        // Each arm's checksum pass is one untimed pass over the 3 inputs.
        let [plain, doubled] = CALLS.with(|c| c.get()).map(|calls| calls - 3);
        assert!(plain > 0);
        assert_eq!(doubled, 2 * plain);
        // Same per-pass checksum, same counted calls per sample.
        assert_eq!(r[0].arms[0].checksum, 6);
        assert_eq!(r[0].arms[1].checksum, 6);
        assert_eq!(r[0].calls_per_sample, 3);
    }

    #[test]
    fn rounds_and_samples_are_counted() {
        let arms = vec![
            Arm {
                name: "a".into(),
                routine: one as Routine<u64>,
                role: Role::Baseline,
                must_agree: true,
                doubled: false,
            },
            Arm { name: "b".into(), routine: two, role: Role::Candidate, must_agree: false, doubled: false },
        ];
        let mut w = vec![
            Workload { label: "w1".into(), inputs: vec![1u64, 2, 3], samples_per_round: 3, watched: true },
            Workload { label: "w2".into(), inputs: vec![5u64], samples_per_round: 2, watched: true },
        ];
        let plan = Plan {
            rounds: 4,
            budget_s: None,
            warmup_rounds: 2,
            min_sample: 2000.0,
            visit_warmup: true,
            block_warmup: None,
            precision: None,
        };
        let mut seen = Vec::new();
        let r = run(&MonotonicNanos, 0.0, &arms, &mut w, &plan, |d, t| seen.push((d, t))).unwrap();
        assert_eq!(seen.last(), Some(&(6, 6)));
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].arms[0].round_medians.len(), 4);
        assert_eq!(r[0].arms[1].samples, 12);
        assert_eq!(r[1].arms[0].samples, 8);
        assert_eq!(r[0].arms[1].checksum, 12);
        assert_eq!(r[0].calls_per_sample, 3 * r[0].reps);
        assert!(r[0].reps >= 1);
        // A budget stretches the run to fill it, within 1x..20x the rounds.
        let budget = Plan {
            rounds: 3,
            budget_s: Some(0.05),
            warmup_rounds: 0,
            min_sample: 2000.0,
            visit_warmup: true,
            block_warmup: None,
            precision: None,
        };
        let t = std::time::Instant::now();
        let r = run(&MonotonicNanos, 0.0, &arms, &mut w, &budget, |_, _| {}).unwrap();
        let kept = r[0].arms[0].round_medians.len();
        assert!((3..=60).contains(&kept), "{kept}");
        assert!(kept == 60 || t.elapsed().as_secs_f64() >= 0.03, "stopped early: {kept} rounds");
    }

    /// Spins a little, so a round of two workloads takes a measurable time.
    fn spin(x: &mut u64) -> u64 {
        let mut v = *x;
        for i in 0..200u64 {
            v = black_box(v.wrapping_mul(6364136223846793005).wrapping_add(i));
        }
        v
    }

    /// Kept rounds and seconds of a precision-planned run of `spin` against
    /// itself, with workloads watched or not.
    fn precision_run(half_width: f64, watched: bool) -> (usize, f64) {
        let arms = vec![
            Arm {
                name: "a".into(),
                routine: spin as Routine<u64>,
                role: Role::Baseline,
                must_agree: true,
                doubled: false,
            },
            Arm { name: "a (A/A)".into(), routine: spin, role: Role::AaControl, must_agree: true, doubled: false },
        ];
        let mut w = vec![
            Workload { label: "bucket".into(), inputs: (1..40).collect(), samples_per_round: 3, watched },
            Workload { label: "rung".into(), inputs: (1..10).collect(), samples_per_round: 1, watched: false },
        ];
        let precision = Precision { half_width, min_fraction: 0.25, max_fraction: 2.0 };
        // Samples of 0.2 ms: rounds of about 2 ms, so the budget (not the
        // cap of 20 x the planned rounds) decides the planned length.
        let plan = Plan {
            rounds: 20,
            budget_s: Some(1.0),
            warmup_rounds: 1,
            min_sample: 200_000.0,
            visit_warmup: true,
            block_warmup: None,
            precision: Some(precision),
        };
        let t = std::time::Instant::now();
        let r = run(&MonotonicNanos, 0.0, &arms, &mut w, &plan, |_, _| {}).unwrap();
        (r[0].arms[0].round_medians.len(), t.elapsed().as_secs_f64())
    }

    #[test]
    fn precision_stops_early_when_met_and_runs_on_when_not() {
        // A target every interval meets: the first check after a quarter
        // of the budget (and the planned rounds, about 40 ms here) ends
        // the run — well before the budget even on a loaded machine.
        let (kept, secs) = precision_run(10.0, true);
        assert!(kept >= 20, "{kept}");
        assert!(secs < 1.0, "a met target must end the run before the budget: {secs:.3} s");
        // A target no interval can meet (negative width): past the budget,
        // up to twice it.
        let (kept_long, secs) = precision_run(-1.0, true);
        assert!(secs >= 1.0, "an unmet target must run past the budget: {secs:.3} s");
        assert!(secs < 2.0 + 0.5, "at most twice the budget, and a check's worth: {secs:.3} s");
        assert!(kept_long > kept, "{kept_long} vs {kept}");
        // Only watched workloads count: with none watched, the unmeetable
        // target is vacuously met.
        let (_, secs) = precision_run(-1.0, false);
        assert!(secs < 1.0, "unwatched workloads must not extend the run: {secs:.3} s");
    }
}
