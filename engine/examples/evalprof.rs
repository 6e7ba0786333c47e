//! A fixed evaluation workload for profilers and callgrind: evaluates the
//! first 200 ECM positions REPS times (full evals: no eval hash, no lazy
//! exit) with one mobility set.
//!
//! `cargo build --profile bench -p engine --example evalprof`
//! `valgrind --tool=callgrind target/release/examples/evalprof chain 50`

use engine::eval::weights::Weights;
use engine::eval::{ChainEval, ChainSet, EvalConfig, MailboxEval, MailboxSet, SingleProbeEval, SingleProbeSet};
use engine::position::epd::load_file;
use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let which = args.next().unwrap_or_else(|| "chain".into());
    let reps: usize = match args.next().map(|v| v.parse()) {
        None => 2000,
        Some(Ok(n)) => n,
        Some(Err(_)) => {
            eprintln!("error: REPS must be a number");
            return ExitCode::from(2);
        }
    };
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../positions/ecm.epd");
    let mut positions: Vec<_> = match load_file(&path) {
        Ok(v) => v.iter().take(200).map(|e| e.position().clone()).collect(),
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let cfg = EvalConfig { eval_hash_bytes: 0, pawn_hash_bytes: 1 << 20, lazy: false, ..EvalConfig::default() };
    let mut eval: Box<dyn FnMut(&mut engine::Position) -> i32> = match which.as_str() {
        "mailbox" => {
            let mut e = MailboxEval::new(MailboxSet, Weights::default(), cfg);
            Box::new(move |p| e.evaluate(p, -30000, 30000))
        }
        "chain" => {
            let mut e = ChainEval::new(ChainSet, Weights::default(), cfg);
            Box::new(move |p| e.evaluate(p, -30000, 30000))
        }
        "single-probe" => {
            let mut e = SingleProbeEval::new(SingleProbeSet, Weights::default(), cfg);
            Box::new(move |p| e.evaluate(p, -30000, 30000))
        }
        other => {
            eprintln!("error: unknown mobility set {other:?} (mailbox, chain, single-probe)");
            return ExitCode::from(2);
        }
    };
    let start = std::time::Instant::now();
    let mut checksum = 0i64;
    for _ in 0..reps {
        for p in positions.iter_mut() {
            checksum += eval(p) as i64;
        }
    }
    let ns = start.elapsed().as_nanos() as f64 / (reps * positions.len()).max(1) as f64;
    println!("{which}: {ns:.0} ns/eval over {} evals (checksum {checksum})", reps * positions.len());
    ExitCode::SUCCESS
}
