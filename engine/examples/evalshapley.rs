//! Shapley shares of the evaluation's groups at fixed code
//! (`engine::eval::shapley`), beside the leave-one-out costs and the largest
//! pairwise interactions, for one position file: a quick look at what
//! `boardbench run evalcycles` reports per bucket.
//!
//! `evalshapley FILE [--mobility mailbox|chain|single-probe] [--visits N]`
//!
//! `cargo build --release -p engine --example evalshapley`, then
//! `taskset -c 1 target/release/examples/evalshapley positions/wac.epd`

use engine::eval::groups::Group;
use engine::eval::shapley::{interactions, leave_one_out, medians, shares, time_subsets, Timing, ALL_PRESENT};
use engine::eval::MobilityKind;
use engine::position::epd::load_file;
use engine::Position;
use std::process::ExitCode;

const USAGE: &str = "usage: evalshapley FILE [--mobility mailbox|chain|single-probe] [--visits N]";

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("evalshapley: {e}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let (mut file, mut kind, mut timing) = (None, MobilityKind::Mailbox, Timing::default());
    while let Some(a) = args.next() {
        match a.as_str() {
            "--mobility" => {
                let v = args.next().ok_or("--mobility needs a value")?;
                kind = MobilityKind::parse(&v)
                    .ok_or_else(|| format!("--mobility {v:?}: not one of mailbox, chain, single-probe"))?;
            }
            "--visits" => {
                let v = args.next().ok_or("--visits needs a number")?;
                timing.visits = v
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| format!("--visits {v:?}: not a positive number"))?;
            }
            s if s.starts_with("--") => return Err(format!("unknown option {s}; {USAGE}")),
            _ if file.is_none() => file = Some(a),
            _ => return Err(format!("unexpected argument {a:?}; {USAGE}")),
        }
    }
    let file = file.ok_or(USAGE)?;
    let mut positions: Vec<Position> = load_file(std::path::Path::new(&file))
        .map_err(|e| format!("{file}: {e}"))?
        .into_iter()
        .map(|e| e.position().clone())
        .collect();
    if positions.is_empty() {
        return Err(format!("{file}: no positions"));
    }
    let cost = medians(&time_subsets(kind, &mut positions, timing), None);
    println!(
        "{}: whole {:.1} ticks per evaluation, inputs alone {:.1}, {} visits",
        kind.name(),
        cost[ALL_PRESENT],
        cost[0],
        timing.visits
    );
    println!("{:28} {:>9} {:>13}", "group", "Shapley", "leave-one-out");
    let (s, l) = (shares(&cost), leave_one_out(&cost));
    for (i, g) in Group::ALL.iter().enumerate() {
        println!("{:28} {:9.1} {:13.1}", g.label(), s[i], l[i]);
    }
    let whole = cost[ALL_PRESENT] - cost[0];
    println!(
        "{:28} {:9.1} {:13.1}",
        "whole - inputs - sum",
        whole - s.iter().sum::<f64>(),
        whole - l.iter().sum::<f64>()
    );
    println!("largest pairwise interactions (whole - without a - without b + without both):");
    for (a, b, x) in interactions(&cost).into_iter().take(6) {
        println!("  {x:+8.1}  {a} + {b}");
    }
    Ok(())
}
