//! `engine defectscorr`: the defect count against the evaluation's king
//! danger over seeded random positions, per mobility implementation, old
//! (mailbox) and new (chain, single probe) side by side (see
//! [`engine::tools::defectscorr`] for what is computed and why).

use super::{print_json, CliError, CliResult};
use clap::Args;
use engine::tools::defectscorr::{analyse, collect, CorrReport, Estimate, Scope};
use serde_json::{json, Value};
use std::time::Instant;

/// The most positions one run accepts.
const MAX_POSITIONS: usize = 2_000_000;
/// Resamples a run accepts.
const RESAMPLES: std::ops::RangeInclusive<usize> = 100..=100_000;

#[derive(Args)]
pub struct DefectsCorrArgs {
    /// Number of seeded random positions (both kings of each are sampled).
    #[arg(long, default_value_t = 20_000)]
    random: usize,
    /// Seed of the position generator (the positions of `engine equiv`).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The live gate: the defect count above this.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    gate: i32,
    /// Bootstrap resamples for the intervals.
    #[arg(long, default_value_t = 1000)]
    resamples: usize,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

fn estimate_json(e: &Estimate) -> Value {
    json!({"value": e.value, "interval": e.interval})
}

fn shown(e: &Estimate, digits: usize) -> String {
    format!("{:+.d$} [{:+.d$}, {:+.d$}]", e.value, e.interval[0], e.interval[1], d = digits)
}

fn threshold_text(t: Option<i32>) -> String {
    t.map_or_else(|| "any".to_string(), |t| format!("> {t}"))
}

/// One scope's table for people.
pub fn table(r: &CorrReport) -> String {
    let mut s = format!("{}: {} kings; the gate fires on {:.1}%\n", r.scope.name(), r.kings, 100.0 * r.gate_rate);
    s.push_str(&format!(
        "{:<13} {:>8} {:<26} {:<26} {:>9} {:<26} {:<28} {}\n",
        "mobility",
        "danger>0",
        "spearman(count, danger)",
        "spearman(count, penalty)",
        "threshold",
        "gate agreement",
        "shift vs mailbox",
        "flag"
    ));
    for i in &r.impls {
        let shift = i.shift.as_ref().map_or_else(|| "(old)".to_string(), |e| shown(e, 4));
        s.push_str(&format!(
            "{:<13} {:>7.1}% {:<26} {:<26} {:>9} {:<26} {:<28} {}\n",
            i.kind.name(),
            100.0 * i.danger_nonzero,
            shown(&i.spearman_danger, 4),
            shown(&i.spearman_penalty, 4),
            threshold_text(i.threshold),
            shown(&i.agreement, 4),
            shift,
            if i.flagged { "SHIFT: the defect constants may need retuning" } else { "-" }
        ));
    }
    s
}

pub fn defectscorr(a: DefectsCorrArgs) -> CliResult {
    if a.random == 0 || a.random > MAX_POSITIONS {
        return Err(CliError::input(format!("--random {}: expected 1 to {MAX_POSITIONS} positions", a.random)));
    }
    if !RESAMPLES.contains(&a.resamples) {
        return Err(CliError::input(format!(
            "--resamples {}: expected {} to {}",
            a.resamples,
            RESAMPLES.start(),
            RESAMPLES.end()
        )));
    }
    let start = Instant::now();
    let samples = collect(a.random, a.seed);
    let reports = Scope::ALL.map(|scope| analyse(&samples, scope, a.gate, a.resamples, a.seed ^ 0xB007_5712));
    let seconds = start.elapsed().as_secs_f64();
    if a.json {
        let scopes: Vec<Value> = reports.iter().map(scope_json).collect();
        print_json(&json!({
            "positions": a.random, "kings": 2 * a.random, "seed": a.seed,
            "gate": format!("count > {}", a.gate),
            "danger": "danger counter (king-safety penalty table index, before clamping and army scaling)",
            "resamples": a.resamples, "interval": "95% percentile bootstrap over positions",
            "scopes": scopes, "flagged": reports.iter().any(|r| r.impls.iter().any(|i| i.flagged)),
            "seconds": seconds,
        }));
    } else {
        println!(
            "{} random positions (seed {}), both kings; gate: defect count > {}; {} bootstrap resamples; {seconds:.1} s",
            a.random, a.seed, a.gate, a.resamples
        );
        println!(
            "king danger: the evaluation's danger counter (king safety's index into its penalty table, before \
             clamping and army scaling; not computed, and 0, where the enemy army is under {} pawns)",
            engine::tools::defectscorr::DANGER_ARMY
        );
        for r in &reports {
            println!();
            print!("{}", table(r));
        }
    }
    Ok(())
}

/// One scope as JSON.
fn scope_json(report: &CorrReport) -> Value {
    let impls: Vec<Value> = report
        .impls
        .iter()
        .map(|i| {
            json!({
                "mobility": i.kind.name(),
                "danger_nonzero": i.danger_nonzero,
                    "spearman_count_danger": estimate_json(&i.spearman_danger),
                    "spearman_count_penalty": estimate_json(&i.spearman_penalty),
                    "threshold": i.threshold,
                    "agreement": estimate_json(&i.agreement),
                    "shift_vs_mailbox": i.shift.as_ref().map(estimate_json),
                "flagged": i.flagged,
            })
        })
        .collect();
    json!({"scope": report.scope.name(), "kings": report.kings, "gate_rate": report.gate_rate, "implementations": impls})
}
