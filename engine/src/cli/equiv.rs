//! `engine equiv`: run every old/new pair over seeded random positions and
//! report, per pair, how many cases were compared and how many differed.
//! Any difference fails the command (exit 1) naming the first differing
//! position's FEN.

use super::{print_json, CliError, CliResult};
use clap::Args;
use engine::tools::equiv::run_equiv_random;
use serde_json::{json, Map, Value};
use std::time::Instant;

/// The most positions one run accepts (about an hour of work).
const MAX_POSITIONS: usize = 10_000_000;

#[derive(Args)]
pub struct EquivArgs {
    /// Number of random positions (half by placement, half by playout).
    #[arg(long, default_value_t = 20_000)]
    random: usize,
    /// Seed of the position generator.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

pub fn equiv(a: EquivArgs) -> CliResult {
    if a.random == 0 || a.random > MAX_POSITIONS {
        return Err(CliError::input(format!("--random {}: expected 1 to {MAX_POSITIONS} positions", a.random)));
    }
    let start = Instant::now();
    let report = run_equiv_random(a.random, a.seed);
    let seconds = start.elapsed().as_secs_f64();
    let placement = a.random.div_ceil(2);
    if a.json {
        let mut pairs = Map::new();
        for p in &report.pairs {
            let first = p
                .first
                .as_ref()
                .map_or(Value::Null, |d| json!({"position": d.position, "fen": d.fen, "detail": d.detail}));
            pairs.insert(p.name.to_string(), json!({"compared": p.compared, "differed": p.differed, "first": first}));
        }
        print_json(&json!({
            "positions": report.positions, "seed": a.seed,
            "modes": {"placement": placement, "playout": a.random - placement},
            "pairs": pairs, "differences": report.differences(), "seconds": seconds,
        }));
    } else {
        println!(
            "{} random positions (seed {}, {placement} placement, {} playout) in {seconds:.2}s",
            report.positions,
            a.seed,
            a.random - placement
        );
        println!("{:<12} {:>12} {:>9}", "pair", "compared", "differed");
        for p in &report.pairs {
            println!("{:<12} {:>12} {:>9}", p.name, p.compared, p.differed);
        }
    }
    match report.first_difference() {
        None => Ok(()),
        Some((pair, d)) => Err(CliError::failed(format!(
            "{} differences; first in {pair} at position {}: {} ({})",
            report.differences(),
            d.position,
            d.fen,
            d.detail
        ))),
    }
}
