//! `engine perft` and `engine perft-suite`.

use super::{check_sliders, load_epd, parse_fen, print_json, CliError, CliResult, ImplArg, SlidersArg};
use clap::Args;
use engine::movegen::{BitboardGen, MailboxGen};
use engine::sliders::Magic;
#[cfg(target_feature = "bmi2")]
use engine::sliders::Pext;
use engine::tools::perft::{divide, perft as count};
use engine::{Move, Position};
use serde_json::json;
use std::path::PathBuf;
use std::time::Instant;

/// The deepest perft the commands accept (depth 8 from the start position
/// is already 85 billion nodes).
const MAX_DEPTH: u32 = 15;

#[derive(Args)]
pub struct PerftArgs {
    /// Position to count from (default: the start position).
    #[arg(long, default_value = engine::position::START_FEN)]
    fen: String,
    /// Depth in plies.
    #[arg(long)]
    depth: u32,
    /// Move generator.
    #[arg(long = "impl", value_enum, default_value = "bitboard")]
    implementation: ImplArg,
    /// Slider attacks of the bitboard generator.
    #[arg(long, value_enum)]
    sliders: Option<SlidersArg>,
    /// Count the last ply without making its moves.
    #[arg(long)]
    bulk: bool,
    /// Also print the count below each root move.
    #[arg(long)]
    divide: bool,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct SuiteArgs {
    /// EPD file with `D1`..`D6` perft counts.
    file: PathBuf,
    /// Skip expected counts deeper than this.
    #[arg(long, default_value_t = 6)]
    max_depth: u32,
    /// Move generator.
    #[arg(long = "impl", value_enum, default_value = "bitboard")]
    implementation: ImplArg,
    /// Slider attacks of the bitboard generator.
    #[arg(long, value_enum)]
    sliders: Option<SlidersArg>,
    /// Make every move of the last ply instead of counting them in bulk.
    #[arg(long)]
    no_bulk: bool,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// The generator a user picked, as a perft function and a divide function.
type PerftFn = fn(&mut Position, u32, bool) -> u64;
type DivideFn = fn(&mut Position, u32, bool) -> Vec<(Move, u64)>;

fn pick(implementation: ImplArg, sliders: Option<SlidersArg>) -> Result<(PerftFn, DivideFn, String), CliError> {
    match (implementation, sliders) {
        (ImplArg::Mailbox, Some(_)) => {
            Err(CliError::input("--sliders applies to --impl bitboard only (the mailbox generator walks rays)"))
        }
        (ImplArg::Mailbox, None) => Ok((count::<MailboxGen>, divide::<MailboxGen>, "mailbox".into())),
        (ImplArg::Bitboard, s) => {
            let s = s.unwrap_or(if cfg!(target_feature = "bmi2") { SlidersArg::Pext } else { SlidersArg::Magic });
            check_sliders(s)?;
            let name = format!("bitboard-{}", s.name());
            match s {
                SlidersArg::Magic => Ok((count::<BitboardGen<Magic>>, divide::<BitboardGen<Magic>>, name)),
                #[cfg(target_feature = "bmi2")]
                SlidersArg::Pext => Ok((count::<BitboardGen<Pext>>, divide::<BitboardGen<Pext>>, name)),
                #[cfg(not(target_feature = "bmi2"))]
                SlidersArg::Pext => unreachable!("checked above"),
            }
        }
    }
}

/// `flag`'s depth must be at most [`MAX_DEPTH`].
fn check_depth(flag: &str, depth: u32) -> CliResult {
    if depth > MAX_DEPTH {
        return Err(CliError::input(format!("{flag} {depth} is too deep; at most {MAX_DEPTH}")));
    }
    Ok(())
}

pub fn perft(a: PerftArgs) -> CliResult {
    check_depth("--depth", a.depth)?;
    let mut pos = parse_fen(&a.fen)?;
    let (perft_fn, divide_fn, name) = pick(a.implementation, a.sliders)?;
    let start = Instant::now();
    let (nodes, per_move) = if a.divide && a.depth > 0 {
        let d = divide_fn(&mut pos, a.depth, a.bulk);
        (d.iter().map(|(_, n)| n).sum(), Some(d))
    } else {
        (perft_fn(&mut pos, a.depth, a.bulk), None)
    };
    let seconds = start.elapsed().as_secs_f64();
    let nps = nodes as f64 / seconds.max(1e-9);
    if a.json {
        let mut v =
            json!({"nodes": nodes, "seconds": seconds, "nps": nps, "impl": name, "depth": a.depth, "bulk": a.bulk});
        if let Some(d) = &per_move {
            let map: serde_json::Map<String, serde_json::Value> =
                d.iter().map(|(m, n)| (m.to_string(), json!(n))).collect();
            v["divide"] = serde_json::Value::Object(map);
        }
        print_json(&v);
    } else {
        if let Some(d) = &per_move {
            for (m, n) in d {
                println!("{m}: {n}");
            }
            println!();
        }
        println!("nodes {nodes}");
        println!("seconds {seconds:.3}");
        println!("nps {nps:.0}");
    }
    Ok(())
}

pub fn suite(a: SuiteArgs) -> CliResult {
    check_depth("--max-depth", a.max_depth)?;
    let records = load_epd(&a.file)?;
    let (perft_fn, _, name) = pick(a.implementation, a.sliders)?;
    let (mut checks, mut nodes) = (0u64, 0u64);
    let mut failures = Vec::new();
    let start = Instant::now();
    for (i, epd) in records.iter().enumerate() {
        for (depth, expected) in epd.perft_counts() {
            if depth > a.max_depth {
                continue;
            }
            let mut pos = epd.position().clone();
            let got = perft_fn(&mut pos, depth, !a.no_bulk);
            checks += 1;
            nodes += got;
            if got != expected {
                let fen = epd.fen();
                if !a.json {
                    println!("MISMATCH #{} depth {depth}: expected {expected}, got {got}: {fen}", i + 1);
                }
                failures.push(json!({"index": i + 1, "fen": fen, "depth": depth, "expected": expected, "got": got}));
            }
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    if a.json {
        print_json(&json!({
            "positions": records.len(), "checks": checks, "mismatches": failures.len(),
            "nodes": nodes, "seconds": seconds, "impl": name, "failures": failures,
        }));
    } else {
        println!(
            "{} positions, {checks} checks, {} mismatches, {nodes} nodes in {seconds:.2}s ({name})",
            records.len(),
            failures.len()
        );
    }
    if !failures.is_empty() {
        return Err(CliError::failed(format!("{} perft mismatches in {}", failures.len(), a.file.display())));
    }
    if checks == 0 {
        // Nothing was compared: a pass would say nothing.
        return Err(CliError::input(format!(
            "{} has no perft count (D1 20; D2 400 ...) at depth {} or less: nothing was checked",
            a.file.display(),
            a.max_depth
        )));
    }
    Ok(())
}
