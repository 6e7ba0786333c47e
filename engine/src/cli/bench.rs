//! `engine bench`: the fixed-depth bench (see `engine::tools::bench`). The text
//! form ends with the line `<nodes> nodes <nps> nps` that OpenBench reads.

use super::{load_epd, print_json, CliError, CliResult};
use clap::Args;
use engine::search::{ProfileKind, MAX_DEPTH};
use engine::tools::bench::{bench as run, default_positions, BENCH_HASH_MB, DEFAULT_BENCH_DEPTH};
use engine::Position;
use serde_json::json;
use std::path::PathBuf;

#[derive(Args)]
pub struct BenchArgs {
    #[arg(long, default_value_t = ProfileKind::default(), value_parser = parse_profile, help = profile_help())]
    pub profile: ProfileKind,
    /// Search depth in plies.
    #[arg(long, default_value_t = DEFAULT_BENCH_DEPTH)]
    pub depth: u32,
    /// EPD file of positions to search instead of the built-in set.
    #[arg(long)]
    pub positions: Option<PathBuf>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = BENCH_HASH_MB)]
    pub hash: usize,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// clap parser for a profile name.
pub fn parse_profile(s: &str) -> Result<ProfileKind, String> {
    s.parse::<ProfileKind>().map_err(|e| e.to_string())
}

/// The `--profile` help: every profile's name, from the profile table.
pub fn profile_help() -> String {
    let names: Vec<&str> = ProfileKind::EVERY.iter().map(|k| k.name()).collect();
    format!("Engine profile: {}", names.join(", "))
}

/// Percentage of `part` in `whole` (0 for an empty whole).
fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

pub fn bench(a: BenchArgs) -> CliResult {
    if a.depth == 0 || a.depth > MAX_DEPTH {
        return Err(CliError::input(format!("--depth {} is out of range 1..={MAX_DEPTH}", a.depth)));
    }
    engine::search::tt::check_hash_mb(a.hash).map_err(|e| CliError::input(format!("--hash: {e}")))?;
    let positions: Vec<Position> = match &a.positions {
        Some(path) => load_epd(path)?.iter().map(|e| e.position().clone()).collect(),
        None => default_positions(),
    };
    let report = run(a.profile, &positions, a.depth, a.hash);
    let (nodes, elapsed, nps) = (report.nodes(), report.elapsed(), report.nps());
    let e = report.eval;
    let calls = e.calls();
    if a.json {
        let lines: Vec<_> = report
            .lines
            .iter()
            .map(|l| {
                json!({
                    "fen": l.fen,
                    "nodes": l.nodes,
                    "pruned": l.pruned,
                    "seconds": l.elapsed.as_secs_f64(),
                    "nps": engine::search::nps(l.nodes, l.elapsed),
                    "bestmove": l.best,
                    "score": l.score,
                })
            })
            .collect();
        print_json(&json!({
            "profile": report.profile,
            "depth": report.depth,
            "hash_mb": report.hash_mb,
            "huge_pages_kib": report.huge_pages_kib,
            "positions": lines,
            "nodes": nodes,
            "pruned": report.pruned(),
            "seconds": elapsed.as_secs_f64(),
            "nps": nps,
            "eval": {
                "calls": calls,
                "lazy": e.lazy,
                "hash_hits": e.hash_hits,
                "full": e.full,
                "lazy_pct": percent(e.lazy, calls),
                "hash_pct": percent(e.hash_hits, calls),
                "full_pct": percent(e.full, calls),
            },
        }));
        return Ok(());
    }
    for (i, l) in report.lines.iter().enumerate() {
        println!(
            "position {:>2}/{}  nodes {:>10}  nps {:>9}  bestmove {:<5}  {}",
            i + 1,
            report.lines.len(),
            l.nodes,
            engine::search::nps(l.nodes, l.elapsed),
            l.best,
            l.fen
        );
    }
    println!("===========================");
    println!("profile         : {}", report.profile);
    println!("depth           : {}", report.depth);
    println!("hash            : {} MiB", report.hash_mb);
    match report.huge_pages_kib {
        Some(kib) => {
            println!("huge pages      : {} MiB in use (the transposition table and pawn hash ask for them)", kib / 1024)
        }
        None => println!("huge pages      : unknown (no /proc/self/smaps_rollup)"),
    }
    println!("total time (ms) : {}", elapsed.as_millis());
    println!("nodes           : {nodes} (moves made, as Crafty counts)");
    println!("pruned          : {} of them pruned unsearched", report.pruned());
    println!("nodes/second    : {nps}");
    println!(
        "eval calls      : {calls} (lazy {:.1}%, hash {:.1}%, full {:.1}%)",
        percent(e.lazy, calls),
        percent(e.hash_hits, calls),
        percent(e.full, calls)
    );
    println!("{nodes} nodes {nps} nps");
    Ok(())
}
