//! The timing check, by process. Rounds of short runs of each build's own
//! `boardbench gate-sample` ([`sample`]): per benchmark a round runs three
//! processes next to each other — base, candidate and base again (the A/A
//! control: two processes of one binary) — in a first-order balanced
//! order, all pinned to one core; then extra rounds for the benchmarks
//! whose A/A interval is still wider than its bound. [`analysis`] turns
//! the processes' floors into ratios and verdicts.

pub mod analysis;
pub mod sample;

use crate::engines::process::{self, Ending, Job};
use crate::gate::timing::analysis::{analyse, TimingOutcome};
use crate::gate::timing::sample::{Sample, SAMPLE_SCHEMA};
use crate::measure::runner::balanced_orders;
use crate::measure::sysinfo;
use std::path::Path;
use std::time::{Duration, Instant};

/// How each timing process runs: the positions file the gate wrote, and
/// the `gate-sample` flags.
pub(crate) struct Sampler<'a> {
    pub positions: &'a Path,
    pub per_bucket: usize,
    pub seconds: f64,
    pub core: usize,
    pub benches: &'a [String],
    pub root: &'a Path,
}

impl Sampler<'_> {
    fn sample(&self, bin: &Path, env: &[(String, String)], bench: &str) -> Result<Sample, String> {
        let mut args: Vec<String> = vec![
            "gate-sample".into(),
            "--positions".into(),
            self.positions.display().to_string(),
            "--per-bucket".into(),
            self.per_bucket.to_string(),
            "--seconds".into(),
            self.seconds.to_string(),
            "--core".into(),
            self.core.to_string(),
        ];
        args.extend(["--bench".to_string(), bench.to_string()]);
        let timeout = Duration::from_secs_f64(120.0 + 20.0 * self.seconds);
        let f = process::run(&Job {
            program: bin,
            args: &args,
            stdin: None,
            cwd: self.root,
            env,
            core: Some(self.core),
            realtime: false,
            timeout,
            stop_when: None,
        })?;
        if f.ending != Ending::Exited(0) {
            return Err(format!("{} gate-sample: {:?}; last lines: {}", bin.display(), f.ending, f.last_lines(3)));
        }
        let s: Sample = serde_json::from_str(f.stdout.trim()).map_err(|e| {
            format!(
                "{} gate-sample printed no sample ({e}); does that revision have the gate? last lines: {}",
                bin.display(),
                f.last_lines(2)
            )
        })?;
        if s.schema != SAMPLE_SCHEMA {
            return Err(format!("{}: sample schema {} is not {SAMPLE_SCHEMA}", bin.display(), s.schema));
        }
        Ok(s)
    }
}

/// The timing check: `rounds` rounds of every benchmark
/// ([`TimingRun::round`]), then extra rounds for the benchmarks whose A/A
/// interval is still wider than its bound.
pub(crate) fn timing(
    base: &Path,
    cand: &Path,
    cand_env: &[(String, String)],
    s: &Sampler,
    rounds: usize,
    threshold: f64,
    aa_bound: f64,
) -> Result<TimingOutcome, String> {
    let mut got: [Vec<Sample>; 3] = [Vec::new(), Vec::new(), Vec::new()];
    let mut run = TimingRun { base, cand, cand_env, sampler: s, triple: 0, warned: false };
    let all: Vec<&String> = s.benches.iter().collect();
    for r in 0..rounds {
        let t = Instant::now();
        run.round(&all, r, &mut got)?;
        eprintln!(
            "boardbench gate: timing round {}/{rounds} ({:.1} s; load {})",
            r + 1,
            t.elapsed().as_secs_f64(),
            sysinfo::load_average().map(|l| format!("{:.2}", l[0])).unwrap_or_else(|| "?".into())
        );
    }
    // Benchmarks whose A/A control is still too wide get more rounds, up to
    // EXTRA_ROUNDS_FACTOR times as many: movegen's floors spread ±5-10% from
    // one process to the next here, and 16 rounds pinned its A/A only to
    // about ±8%.
    let mut outcome = analyse(&got[0], &got[1], &got[2], threshold, aa_bound);
    for r in rounds..rounds * EXTRA_ROUNDS_FACTOR {
        let noisy: Vec<&String> =
            s.benches.iter().filter(|b| outcome.cases.iter().any(|c| !c.aa_pass && c.case.bench == **b)).collect();
        if noisy.is_empty() {
            break;
        }
        let t = Instant::now();
        run.round(&noisy, r, &mut got)?;
        eprintln!(
            "boardbench gate: extra round {} for {} ({:.1} s; load {})",
            r + 1 - rounds,
            noisy.iter().map(|b| b.as_str()).collect::<Vec<_>>().join(", "),
            t.elapsed().as_secs_f64(),
            sysinfo::load_average().map(|l| format!("{:.2}", l[0])).unwrap_or_else(|| "?".into())
        );
        outcome = analyse(&got[0], &got[1], &got[2], threshold, aa_bound);
    }
    Ok(outcome)
}

/// At most this many times `--rounds` for a benchmark whose A/A interval
/// is still wider than its bound.
pub const EXTRA_ROUNDS_FACTOR: usize = 3;

/// The processes of the timing check, in their balanced order.
struct TimingRun<'a> {
    base: &'a Path,
    cand: &'a Path,
    cand_env: &'a [(String, String)],
    sampler: &'a Sampler<'a>,
    triple: usize,
    warned: bool,
}

impl TimingRun<'_> {
    /// One round over `benches`: per benchmark three processes — base,
    /// candidate, base again — next to each other in time (so drift of the
    /// machine's speed between them is small), in a first-order balanced
    /// order that changes from one triple to the next; the benchmarks take
    /// turns going first. Appends one sample per build to `got`.
    fn round(&mut self, benches: &[&String], r: usize, got: &mut [Vec<Sample>; 3]) -> Result<(), String> {
        let orders = balanced_orders(3);
        let n = benches.len();
        let mut round: [Option<Sample>; 3] = [None, None, None];
        for j in 0..n {
            let bench = benches[(j + r) % n];
            for &k in &orders[self.triple % orders.len()] {
                let (bin, env) = if k == 1 { (self.cand, self.cand_env) } else { (self.base, &[][..]) };
                let sample = self.sampler.sample(bin, env, bench)?;
                let placed = sample.pinned && sample.realtime;
                if !(self.warned || placed) {
                    eprintln!(
                        "boardbench gate: warning: samples run {} {} (results are noisier)",
                        if sample.pinned { "pinned" } else { "unpinned" },
                        if sample.realtime { "real-time" } else { "without real-time priority" }
                    );
                    self.warned = true;
                }
                match &mut round[k] {
                    Some(acc) => acc.benches.extend(sample.benches),
                    slot => *slot = Some(sample),
                }
            }
            self.triple += 1;
        }
        let order = &self.sampler.benches;
        for (k, x) in round.into_iter().enumerate() {
            let mut x = x.expect("every build ran");
            // Registry order, whichever benchmark went first this round.
            x.benches.sort_by_key(|b| order.iter().position(|n| *n == b.name).unwrap_or(usize::MAX));
            got[k].push(x);
        }
        Ok(())
    }
}
