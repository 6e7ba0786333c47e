//! `boardbench calibrate BENCH... --runs N`: are the printed intervals
//! honest on this machine? N back-to-back runs of the same benchmarks (or
//! the reports of earlier runs, `--from`), then per case (benchmark ×
//! bucket × ratio to the baseline): how often another run's estimate falls
//! inside a run's 95% interval, over all ordered pairs of runs; the spread
//! of the runs' estimates against the printed half-width; and the mean
//! variance components (within and between processes). An interval that
//! holds the true value 95% of the time holds another run's estimate
//! (which carries its own error) about 83% of the time when the errors
//! are normal and the intervals equally wide.

use crate::measure::runner::Role;
use crate::output::print_out;
use crate::suite::args::RunArgs;
use crate::suite::report::{case_name, read_report, RunReport};
use crate::suite::{run, run_level};
use clap::Args;
use std::fmt::Write;
use std::path::PathBuf;

/// Most runs `--runs` takes.
const MAX_RUNS: i64 = 1000;

#[derive(Args, Clone, Debug)]
pub struct CalibrateCli {
    /// Benchmark names (see `boardbench list`).
    #[arg(required_unless_present = "from")]
    pub names: Vec<String>,
    /// Back-to-back runs.
    #[arg(long, value_name = "N", default_value_t = 10, allow_negative_numbers = true,
          value_parser = clap::value_parser!(u32).range(2..=MAX_RUNS))]
    pub runs: u32,
    /// Judge these earlier run reports instead of measuring (at least two).
    #[arg(long, value_name = "JSON", num_args = 2.., conflicts_with = "names")]
    pub from: Vec<PathBuf>,
    /// Save each old/new case's run-to-run component (the spread of the
    /// runs' estimates beyond what their processes predict; at least 5
    /// runs) to --run-level FILE [default: this machine's file in
    /// results/run-level/]: later runs on this machine fold it into their
    /// intervals.
    #[arg(long)]
    pub save: bool,
    #[command(flatten)]
    pub args: RunArgs,
}

/// One case over the runs.
#[derive(Clone, Debug, PartialEq)]
pub struct CaseCoverage {
    pub case: String,
    pub role: Role,
    /// Each run's estimate and 95% interval.
    pub estimates: Vec<f64>,
    pub intervals: Vec<[f64; 2]>,
    /// Ordered pairs (i, j), i ≠ j, with run j's estimate inside run i's
    /// interval, and all ordered pairs.
    pub covered: usize,
    pub pairs: usize,
    /// Standard deviation of the runs' log estimates.
    pub sd: f64,
    /// Half the range of the estimates over their mean.
    pub half_range: f64,
    /// Mean printed half-width, relative.
    pub half_width: f64,
    /// Root mean square over runs of the within- and between-process
    /// components (log scale), where the runs report them.
    pub within_sd: Option<f64>,
    pub between_sd: Option<f64>,
}

impl CaseCoverage {
    pub fn rate(&self) -> f64 {
        self.covered as f64 / self.pairs.max(1) as f64
    }
}

fn rms(v: &[f64]) -> Option<f64> {
    (!v.is_empty()).then(|| (v.iter().map(|x| x * x).sum::<f64>() / v.len() as f64).sqrt())
}

/// Coverage per case over `reports` (at least two): every ratio the first
/// report has (candidates and controls), in its order; a case some run
/// lacks is an error.
pub fn coverage(reports: &[RunReport]) -> Result<Vec<CaseCoverage>, String> {
    if reports.len() < 2 {
        return Err("calibration needs at least two runs".into());
    }
    let mut out = Vec::new();
    for b in &reports[0].benchmarks {
        for bucket in &b.buckets {
            for a in bucket.arms.iter().filter(|a| a.ratio.is_some()) {
                let case = case_name(&b.name, &bucket.bucket, &a.arm);
                let mut ratios = Vec::new();
                let (mut within, mut between) = (Vec::new(), Vec::new());
                for (i, r) in reports.iter().enumerate() {
                    let found = r
                        .benchmarks
                        .iter()
                        .find(|x| x.name == b.name)
                        .and_then(|x| x.buckets.iter().find(|y| y.bucket == bucket.bucket))
                        .and_then(|y| y.arms.iter().find(|z| z.arm == a.arm))
                        .and_then(|z| z.ratio.map(|ratio| (ratio, z.ratio_spread.clone())));
                    let (ratio, spread) = found.ok_or_else(|| format!("run {} has no case {case}", i + 1))?;
                    ratios.push(ratio);
                    if let Some(s) = spread {
                        within.push(s.within_sd);
                        between.push(s.between_sd);
                    }
                }
                let n = ratios.len();
                let mut covered = 0;
                for (i, ri) in ratios.iter().enumerate() {
                    covered += ratios.iter().enumerate().filter(|(j, rj)| *j != i && ri.contains(rj.estimate)).count();
                }
                let logs: Vec<f64> = ratios.iter().map(|r| r.estimate.ln()).collect();
                let mean_log = logs.iter().sum::<f64>() / n as f64;
                let sd = (logs.iter().map(|y| (y - mean_log).powi(2)).sum::<f64>() / (n - 1) as f64).sqrt();
                let (lo, hi) = ratios
                    .iter()
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), r| (lo.min(r.estimate), hi.max(r.estimate)));
                let mean = ratios.iter().map(|r| r.estimate).sum::<f64>() / n as f64;
                out.push(CaseCoverage {
                    case,
                    role: a.role,
                    estimates: ratios.iter().map(|r| r.estimate).collect(),
                    intervals: ratios.iter().map(|r| r.interval).collect(),
                    covered,
                    pairs: n * (n - 1),
                    sd,
                    half_range: (hi - lo) / 2.0 / mean,
                    half_width: ratios.iter().map(|r| r.half_width()).sum::<f64>() / n as f64,
                    within_sd: (within.len() == n).then(|| rms(&within)).flatten(),
                    between_sd: (between.len() == n).then(|| rms(&between)).flatten(),
                });
            }
        }
    }
    Ok(out)
}

/// The coverage table: candidates per case, then totals for candidates
/// and controls.
pub fn table(cases: &[CaseCoverage], runs: usize) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{runs} runs; per case: another run's estimate inside a run's 95% interval (ordered pairs), the spread \
         of the estimates against the printed half-width, and the mean variance components of one process's \
         estimate (sd, % of the ratio)"
    );
    let width = cases.iter().map(|c| c.case.len()).max().unwrap_or(4).max(4);
    let _ = writeln!(
        s,
        "  {:<width$} {:>15} {:>9} {:>7} {:>9} {:>11} {:>8} {:>8}",
        "case", "estimates", "±range/2", "sd", "printed±", "covered", "within", "between"
    );
    let pct = |x: Option<f64>| x.map_or("-".to_string(), |v| format!("{:.2}%", v * 100.0));
    for c in cases.iter().filter(|c| c.role == Role::Candidate) {
        let (lo, hi) = c.estimates.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| (a.min(x), b.max(x)));
        let _ = writeln!(
            s,
            "  {:<width$} {:>15} {:>8.2}% {:>6.2}% {:>8.2}% {:>5}/{:<3}{:>3.0}% {:>8} {:>8}",
            c.case,
            format!("{lo:.4}-{hi:.4}"),
            c.half_range * 100.0,
            c.sd * 100.0,
            c.half_width * 100.0,
            c.covered,
            c.pairs,
            c.rate() * 100.0,
            pct(c.within_sd),
            pct(c.between_sd),
        );
    }
    for (name, pick) in [("old/new ratios", true), ("controls (A/A, x2)", false)] {
        let these: Vec<&CaseCoverage> = cases.iter().filter(|c| (c.role == Role::Candidate) == pick).collect();
        let covered: usize = these.iter().map(|c| c.covered).sum();
        let pairs: usize = these.iter().map(|c| c.pairs).sum();
        if pairs > 0 {
            let _ = writeln!(
                s,
                "{name}: {covered} of {pairs} ordered case-pairs covered ({:.1}%)",
                100.0 * covered as f64 / pairs as f64
            );
        }
    }
    s
}

/// The runs' options: with --save, a --run-level file that does not exist
/// yet is where the component goes, not one to fold in, so the runs go
/// without one.
fn measuring_args(cli: &CalibrateCli) -> RunArgs {
    let mut args = cli.args.clone();
    if cli.save && args.run_level.as_deref().is_some_and(|p| !p.exists()) {
        args.run_level = None;
        args.no_run_level = true;
    }
    args
}

/// `boardbench calibrate`: measure (or read) the runs, print the table.
pub fn calibrate_main(cli: &CalibrateCli, argv: Vec<String>) -> Result<i32, String> {
    let reports = if cli.from.is_empty() {
        let entries = run::resolve(&cli.names, &[])?;
        let args = measuring_args(cli);
        let mut reports = Vec::new();
        for i in 0..cli.runs {
            let load = crate::measure::sysinfo::load_average()
                .map_or("?".to_string(), |l| format!("{:.2} {:.2} {:.2}", l[0], l[1], l[2]));
            eprintln!("boardbench: calibrate: run {} of {} (load {load})", i + 1, cli.runs);
            let outcome = run::execute(&args, &entries, argv.clone())?;
            eprintln!(
                "boardbench: calibrate: run {} took {:.0} s: {}",
                i + 1,
                outcome.report.metadata.duration_s,
                outcome.json.display()
            );
            reports.push(outcome.report);
        }
        reports
    } else {
        cli.from.iter().map(|p| read_report(p)).collect::<Result<Vec<_>, _>>()?
    };
    let cases = coverage(&reports)?;
    print_out(&table(&cases, reports.len()))?;
    let profile = match run_level::estimate(&reports) {
        Ok(profile) => profile,
        Err(e) if cli.save => return Err(format!("--save: {e}")),
        // Too few runs for the component: the table is all there is.
        Err(_) => return Ok(0),
    };
    let mut s = String::from(
        "run-to-run component per old/new case (sd of the log ratio beyond what the runs' processes predict):\n",
    );
    for (case, sd) in &profile.cases {
        let _ = writeln!(s, "  {case:<44} {:>6.2}%", sd * 100.0);
    }
    if cli.save {
        let path = cli.args.run_level.clone().unwrap_or_else(run_level::default_path);
        profile.save(&path)?;
        let _ = writeln!(s, "saved to {}: later runs on this machine fold it into their intervals", path.display());
    }
    print_out(&s)?;
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite::compare::tests::run_at;

    #[test]
    fn a_missing_run_level_file_to_save_to_is_not_folded_in() {
        use clap::Parser;
        #[derive(Parser)]
        struct Cli {
            #[command(flatten)]
            c: CalibrateCli,
        }
        let missing = std::env::temp_dir().join(format!("boardbench-missing-{}.json", std::process::id()));
        let parse = |extra: &[&str]| {
            let mut argv = vec!["calibrate", "getattacksbench", "--run-level", missing.to_str().unwrap()];
            argv.extend_from_slice(extra);
            Cli::try_parse_from(argv).unwrap().c
        };
        let saving = measuring_args(&parse(&["--save"]));
        assert!(saving.no_run_level && saving.run_level.is_none());
        // Without --save the file is an input, and its absence the run's error.
        let reading = measuring_args(&parse(&[]));
        assert!(!reading.no_run_level && reading.run_level.as_deref() == Some(missing.as_path()));
    }

    #[test]
    fn coverage_counts_ordered_pairs() {
        // Three runs of one case, each over 6 processes spread ±0.2%: an
        // interval of about ±0.25%.
        let runs: Vec<RunReport> = [0.50, 0.505, 0.60].map(|r| run_at(r, 0.002, 6)).to_vec();
        let widths: Vec<f64> =
            runs.iter().map(|r| r.benchmarks[0].buckets[0].arms[1].ratio.unwrap().half_width()).collect();
        assert!(widths.iter().all(|w| (0.001..0.01).contains(w)), "{widths:?}");
        let c = coverage(&runs).unwrap();
        assert_eq!(c.len(), 1);
        let c = &c[0];
        assert_eq!(c.case, "x opening new");
        assert_eq!(c.pairs, 6);
        // 0.50 and 0.505 are 1% apart: inside neither's ±0.2-0.3% interval;
        // 0.60 is far from both. Nothing covered.
        assert_eq!(c.covered, 0);
        let close: Vec<RunReport> = [0.50, 0.5005, 0.60].map(|r| run_at(r, 0.002, 6)).to_vec();
        assert_eq!(coverage(&close).unwrap()[0].covered, 2, "the two close runs hold each other");
        assert!((c.half_range - 0.05 / (1.605 / 3.0)).abs() < 1e-9);
        assert!(c.within_sd.unwrap() > 0.0 && c.between_sd.unwrap() > 0.0);
        let t = table(&coverage(&close).unwrap(), 3);
        assert!(t.contains("old/new ratios: 2 of 6 ordered case-pairs covered (33.3%)"), "{t}");
        // A run missing a case, and too few runs.
        let mut missing = runs[1].clone();
        missing.benchmarks[0].buckets[0].arms[1].arm = "other".into();
        let e = coverage(&[runs[0].clone(), missing]).unwrap_err();
        assert_eq!(e, "run 2 has no case x opening new");
        assert!(coverage(&runs[..1]).is_err());
    }
}
