//! `engine suite`: solve counts of a `bm`/`am` EPD test suite at a fixed
//! depth or node budget per position.

use super::bench::{parse_profile, profile_help};
use super::{print_json, CliError, CliResult};
use clap::Args;
use engine::search::{Limits, ProfileKind, DEFAULT_HASH_MB, MAX_DEPTH};
use engine::tools::suite::{load_suite, suite as run};
use serde_json::json;
use std::path::PathBuf;

#[derive(Args)]
#[command(group(clap::ArgGroup::new("limit").required(true).args(["depth", "nodes"])))]
pub struct SuiteArgs {
    /// EPD file with `bm` and/or `am` operations (wac.epd, ecm.epd, bk.epd, sts.epd).
    file: PathBuf,
    /// Search each position to this depth.
    #[arg(long)]
    depth: Option<u32>,
    /// Search each position for this many nodes.
    #[arg(long)]
    nodes: Option<u64>,
    #[arg(long, default_value_t = ProfileKind::default(), value_parser = parse_profile, help = profile_help())]
    profile: ProfileKind,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = DEFAULT_HASH_MB)]
    hash: usize,
    /// Print one line per position as it finishes.
    #[arg(long)]
    verbose: bool,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

pub fn suite(a: SuiteArgs) -> CliResult {
    let limits = match (a.depth, a.nodes) {
        (Some(d), _) if d == 0 || d > MAX_DEPTH => {
            return Err(CliError::input(format!("--depth {d} is out of range 1..={MAX_DEPTH}")));
        }
        (Some(d), _) => Limits::depth(d),
        (None, Some(0)) => return Err(CliError::input("--nodes must be at least 1")),
        (None, Some(n)) => Limits::nodes(n),
        (None, None) => return Err(CliError::input("give --depth or --nodes")),
    };
    engine::search::tt::check_hash_mb(a.hash).map_err(|e| CliError::input(format!("--hash: {e}")))?;
    let positions = load_suite(&a.file).map_err(|e| CliError::input(e.to_string()))?;
    let verbose = a.verbose && !a.json;
    let report = run(a.profile, &positions, &limits, a.hash, &mut |o| {
        if verbose {
            println!(
                "{:<32} {:<8} played {:<8} expected {}{}",
                o.name,
                if o.solved { "solved" } else { "missed" },
                o.found_san,
                o.expected.join(" "),
                if o.avoided.is_empty() { String::new() } else { format!(" avoid {}", o.avoided.join(" ")) }
            );
        }
    });
    let (solved, total) = (report.solved(), report.outcomes.len());
    let points = report.points(&positions);
    if a.json {
        let outcomes: Vec<_> = report
            .outcomes
            .iter()
            .map(|o| {
                json!({
                    "id": o.name,
                    "played": o.found_san,
                    "played_uci": o.found.uci().to_string(),
                    "bm": o.expected,
                    "am": o.avoided,
                    "solved": o.solved,
                    "points": o.points,
                    "score": o.score,
                    "depth": o.depth,
                    "nodes": o.nodes,
                })
            })
            .collect();
        print_json(&json!({
            "file": a.file.display().to_string(),
            "profile": report.profile,
            "depth": a.depth,
            "nodes_per_position": a.nodes,
            "positions": outcomes,
            "solved": solved,
            "total": total,
            "points": points.map(|p| p.0),
            "max_points": points.map(|p| p.1),
            "nodes": report.nodes(),
            "seconds": report.elapsed().as_secs_f64(),
            "nps": report.nps(),
        }));
        return Ok(());
    }
    let limit = match (a.depth, a.nodes) {
        (Some(d), _) => format!("depth {d}"),
        (None, n) => format!("{} nodes", n.unwrap_or(0)),
    };
    println!("suite           : {}", a.file.display());
    println!("profile         : {}  ({limit} per position)", report.profile);
    println!("solved          : {solved}/{total}");
    if let Some((got, max)) = points {
        println!("points          : {got}/{max}");
    }
    println!("nodes searched  : {}", report.nodes());
    println!("nodes/second    : {}", report.nps());
    Ok(())
}
