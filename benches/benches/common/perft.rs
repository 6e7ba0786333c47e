//! The perft comparison: nodes per second of our three move
//! generators (mailbox, bitboard with magic, bitboard with PEXT), bulk and
//! non-bulk, against cozy-chess (a dev-dependency, the outside reference)
//! on startpos d6 and Kiwipete d5, interleaved through the shared runner.
//! Two jobs (bulk, non-bulk), each with cozy-chess as the baseline arm and
//! an A/A control (cozy-chess again).
//!
//! A whole perft lasts seconds, and one sample per arm per round of that
//! length let the noisy neighbour into every sample (the A/A controls read
//! 0.96–0.98, ±15%). So each perft is split into its subtrees three plies
//! from the leaves (startpos d6: the 8,902 positions after 3 plies, each
//! searched to depth 3; Kiwipete d5: the 2,039 after 2 plies, likewise), in
//! cozy-chess's move order, and the subtrees are grouped into consecutive
//! parts of about [`PART_NODES`] nodes — a sample is one part (about a
//! millisecond for the fastest arm). Every round visits every part and
//! interleaves the arms on it; all parts together are the whole perft,
//! every node counted once. A part's floor is the 10th percentile of its
//! samples; the whole perft's cost is the sum of its parts' floors, and a
//! ratio is that sum's ratio, with a circular block bootstrap over rounds
//! (the same resampled rounds for every part and arm). Both libraries'
//! node counts are checked against the known totals before anything is
//! timed, and every part's count is checked on every sample.

use boardbench::measure::context::Context;
use boardbench::measure::runner::{Plan, Role, Workload};
use boardbench::measure::stats::{self, Summary};
use boardbench::suite::benchmark::{measure, AA_TOLERANCE};
use boardbench::suite::density::PositionSet;
use boardbench::suite::report::{ArmInfo, ArmReport, BenchReport, BucketReport, ControlCheck};
use boardbench::suite::spec::{arms_of, ArmSpec, Entry, Spec};
use cozy_chess::Board;
use engine::movegen::{BitboardGen, MailboxGen};
use engine::sliders::Magic;
use engine::tools::perft::perft;
use engine::Position;

/// One subtree, in both libraries' representations.
#[derive(Clone)]
pub struct Problem {
    pos: Position,
    board: Board,
    depth: u32,
}

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// Nodes per part (a sample): about a millisecond for the fastest arm.
pub const PART_NODES: u64 = 500_000;

/// Depth searched below every subtree root.
const SUBTREE_DEPTH: u32 = 3;

/// (name, FEN, depth, expected nodes) at full and at --quick depth.
fn problems(quick: bool) -> Vec<(String, &'static str, u32, u64)> {
    if quick {
        vec![
            ("startpos d5".into(), engine::position::START_FEN, 5, 4_865_609),
            ("kiwipete d4".into(), KIWIPETE, 4, 4_085_603),
        ]
    } else {
        vec![
            ("startpos d6".into(), engine::position::START_FEN, 6, 119_060_324),
            ("kiwipete d5".into(), KIWIPETE, 5, 193_690_690),
        ]
    }
}

fn cozy(board: &Board, depth: u32, bulk: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    if bulk && depth == 1 {
        board.generate_moves(|moves| {
            nodes += moves.len() as u64;
            false
        });
        return nodes;
    }
    board.generate_moves(|moves| {
        for mv in moves {
            let mut b = board.clone();
            b.play_unchecked(mv);
            nodes += cozy(&b, depth - 1, bulk);
        }
        false
    });
    nodes
}

/// The positions `plies` plies below `board`, in cozy-chess's move order
/// (transpositions repeated: perft counts paths).
fn roots(board: &Board, plies: u32, out: &mut Vec<Board>) {
    if plies == 0 {
        out.push(board.clone());
        return;
    }
    board.generate_moves(|moves| {
        for mv in moves {
            let mut b = board.clone();
            b.play_unchecked(mv);
            roots(&b, plies - 1, out);
        }
        false
    });
}

fn cozy_bulk(p: &mut Problem) -> u64 {
    cozy(&p.board, p.depth, true)
}
fn cozy_full(p: &mut Problem) -> u64 {
    cozy(&p.board, p.depth, false)
}
fn mailbox_bulk(p: &mut Problem) -> u64 {
    perft::<MailboxGen>(&mut p.pos, p.depth, true)
}
fn mailbox_full(p: &mut Problem) -> u64 {
    perft::<MailboxGen>(&mut p.pos, p.depth, false)
}
fn magic_bulk(p: &mut Problem) -> u64 {
    perft::<BitboardGen<Magic>>(&mut p.pos, p.depth, true)
}
fn magic_full(p: &mut Problem) -> u64 {
    perft::<BitboardGen<Magic>>(&mut p.pos, p.depth, false)
}
#[cfg(target_feature = "bmi2")]
fn pext_bulk(p: &mut Problem) -> u64 {
    perft::<BitboardGen<engine::sliders::Pext>>(&mut p.pos, p.depth, true)
}
#[cfg(target_feature = "bmi2")]
fn pext_full(p: &mut Problem) -> u64 {
    perft::<BitboardGen<engine::sliders::Pext>>(&mut p.pos, p.depth, false)
}

fn spec(bulk: bool) -> Spec<Problem> {
    type R = fn(&mut Problem) -> u64;
    let pick = |b: R, f: R| if bulk { b } else { f };
    #[allow(unused_mut)]
    let mut arms = vec![
        ArmSpec { name: "cozy-chess", routine: pick(cozy_bulk, cozy_full) },
        ArmSpec { name: "mailbox", routine: pick(mailbox_bulk, mailbox_full) },
        ArmSpec { name: "bitboard-magic", routine: pick(magic_bulk, magic_full) },
    ];
    #[cfg(target_feature = "bmi2")]
    arms.push(ArmSpec { name: "bitboard-pext", routine: pick(pext_bulk, pext_full) });
    Spec {
        name: if bulk { "perft-bulk" } else { "perft-nonbulk" },
        about: if bulk {
            "perft, last ply counted in bulk: ours vs cozy-chess"
        } else {
            "perft, every leaf move made: ours vs cozy-chess"
        },
        call: "one whole perft of the named position and depth (the sum of its parts' floors)",
        prepare: |p| Problem { pos: p.clone(), board: Board::default(), depth: 0 },
        arms,
        must_agree: true,
    }
}

/// A perft split into parts, its node count checked by both libraries.
struct Split {
    name: String,
    nodes: u64,
    subtrees: usize,
    parts: Vec<Vec<Problem>>,
}

fn split(name: &str, fen: &str, depth: u32, expected: u64) -> Result<Split, String> {
    let board: Board = fen.parse().map_err(|e| format!("{name}: cozy-chess: {e:?}"))?;
    let mut boards = Vec::new();
    roots(&board, depth.saturating_sub(SUBTREE_DEPTH), &mut boards);
    let sub = depth.min(SUBTREE_DEPTH);
    let mut parts = vec![Vec::new()];
    let (mut ours_total, mut theirs_total, mut in_part) = (0u64, 0u64, 0u64);
    let subtrees = boards.len();
    for b in boards {
        let text = b.to_string();
        let pos = Position::from_fen(&text).map_err(|e| format!("{name}: subtree {text}: {e}"))?;
        let mut p = Problem { pos, board: b, depth: sub };
        let ours = perft::<BitboardGen<Magic>>(&mut p.pos, sub, true);
        let theirs = cozy(&p.board, sub, true);
        if ours != theirs {
            return Err(format!("{name}: subtree {text}: perft {sub} gives {ours} (ours), {theirs} (cozy-chess)"));
        }
        ours_total += ours;
        theirs_total += theirs;
        if in_part >= PART_NODES {
            parts.push(Vec::new());
            in_part = 0;
        }
        in_part += ours;
        parts.last_mut().expect("a part").push(p);
    }
    if ours_total != expected || theirs_total != expected {
        return Err(format!(
            "{name}: perft gives {ours_total} (ours) and {theirs_total} (cozy-chess), expected {expected}"
        ));
    }
    Ok(Split { name: name.to_string(), nodes: expected, subtrees, parts })
}

fn run(ctx: &Context, bulk: bool) -> Result<BenchReport, String> {
    let quick = ctx.quick;
    let spec = spec(bulk);
    let splits = problems(quick)
        .into_iter()
        .map(|(name, fen, depth, nodes)| split(&name, fen, depth, nodes))
        .collect::<Result<Vec<_>, _>>()?;
    // A part lasts about a millisecond: no batching, and no per-visit
    // warm-up (a part's own subtrees warm the caches for the next one).
    let plan = Plan {
        // Each measuring process of the run takes its share of the rounds.
        rounds: if quick { 4 } else { perft_rounds(bulk) }.div_ceil(ctx.processes).max(2),
        budget_s: None,
        warmup_rounds: 1,
        min_sample: 0.0,
        visit_warmup: false,
        block_warmup: None,
        precision: None,
    };
    let arms = arms_of(&spec, false);
    let mut workloads = Vec::new();
    for s in &splits {
        for (i, part) in s.parts.iter().enumerate() {
            workloads.push(Workload {
                label: format!("{} part {}/{}", s.name, i + 1, s.parts.len()),
                inputs: part.clone(),
                samples_per_round: 1,
                watched: true,
            });
        }
    }
    let (rounds, overhead) = measure(ctx, &plan, spec.name, &arms, &mut workloads)?;
    let base = arms.iter().position(|a| a.role == Role::Baseline).expect("a baseline");
    let hz = ctx.clock_info.tsc_mhz.map(|m| m * 1e6).unwrap_or(1e9);
    // Bonferroni over the problems, as for buckets.
    let level = 1.0 - 0.05 / splits.len() as f64;
    let mut buckets = Vec::new();
    let mut controls = Vec::new();
    let mut notes = Vec::new();
    let mut at = 0;
    for s in &splits {
        let these = &rounds[at..at + s.parts.len()];
        at += s.parts.len();
        // parts[arm][part][round] = samples as the cost of one pass of the part.
        let parts: Vec<Vec<Vec<Vec<f64>>>> = (0..arms.len())
            .map(|a| {
                these
                    .iter()
                    .map(|w| {
                        let calls = w.calls_per_sample as f64;
                        w.arms[a].round_samples.iter().map(|r| r.iter().map(|x| x * calls).collect()).collect()
                    })
                    .collect()
            })
            .collect();
        let totals = |a: usize| -> Vec<f64> {
            let n = parts[a][0].len();
            (0..n).map(|r| parts[a].iter().map(|p| p[r].iter().sum::<f64>() / p[r].len() as f64).sum()).collect()
        };
        let arm_reports: Vec<ArmReport> = arms
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let (floor, floor_interval) = stats::summed_floor(&parts[i]);
                let t = totals(i);
                let ratio = (i != base).then(|| stats::summed_floor_ratio_at(&parts[base], &parts[i], 0.95));
                ArmReport {
                    arm: a.name.clone(),
                    role: a.role,
                    samples: these.iter().map(|w| w.arms[i].samples).sum(),
                    rounds: t.len(),
                    summary: Summary {
                        floor,
                        floor_interval,
                        median: stats::median(&t),
                        mad: stats::mad(&t),
                        trimmed_mean: stats::trimmed_mean(&t, 0.1),
                        interval: stats::bootstrap_median_ci(&t),
                    },
                    ratio,
                    ratio_spread: None,
                    floor_spread: None,
                    ratio_of_medians: (i != base).then(|| stats::paired_ratio(&totals(base), &t)),
                    cycles_per_call: ctx.clock_info.cycles_per_unit.map(|c| floor * c),
                    counters: None,
                    round_medians: t,
                }
            })
            .collect();
        for (i, a) in arm_reports.iter().enumerate().filter(|(_, a)| a.role == Role::AaControl) {
            let ratio = stats::summed_floor_ratio_at(&parts[base], &parts[i], level);
            controls.push(ControlCheck {
                bucket: s.name.clone(),
                arm: a.arm.clone(),
                expected: 1.0,
                tolerance: AA_TOLERANCE,
                level,
                pass: ratio.within(1.0, AA_TOLERANCE) && ratio.contains(1.0),
                ratio,
                across_processes: false,
            });
        }
        for a in &arm_reports {
            let nps = s.nodes as f64 / (a.summary.floor / hz);
            let speed = a.ratio.map(|r| {
                format!(
                    "; ours/cozy speed {:.3} [{:.3}, {:.3}]",
                    1.0 / r.estimate,
                    1.0 / r.interval[1],
                    1.0 / r.interval[0]
                )
            });
            notes.push(format!("{} {}: {:.1} Mnps{}", s.name, a.arm, nps / 1e6, speed.unwrap_or_default()));
        }
        buckets.push(BucketReport {
            bucket: s.name.clone(),
            men: None,
            positions: s.subtrees,
            reps: 1,
            calls_per_sample: 1,
            arms: arm_reports,
        });
    }
    for n in &notes {
        eprintln!("  {n}");
    }
    let parts: Vec<String> = splits.iter().map(|s| format!("{} in {} parts", s.name, s.parts.len())).collect();
    Ok(BenchReport {
        name: spec.name.into(),
        about: format!("{} ({}) — {}", spec.about, parts.join(", "), notes.join(" | ")),
        call: spec.call.into(),
        unit: format!("{} per call", ctx.clock_info.unit),
        baseline: arms[base].name.clone(),
        arms: arms.iter().map(|a| ArmInfo { name: a.name.clone(), role: a.role }).collect(),
        call_overhead: overhead,
        buckets,
        ladder: Vec::new(),
        correlations: Vec::new(),
        controls,
        plots: Vec::new(),
        attribution: None,
        precision: None,
        processes: Vec::new(),
    })
}

/// Kept rounds of the full-depth perft jobs (each round runs every arm
/// once over every part of both perfts: about 6 s in bulk, 40 s not, here).
/// `BOARDBENCH_PERFT_ROUNDS` overrides both (default 12 bulk, 7 non-bulk).
fn perft_rounds(bulk: bool) -> usize {
    let default = if bulk { 12 } else { 7 };
    std::env::var("BOARDBENCH_PERFT_ROUNDS").ok().and_then(|v| v.parse().ok()).filter(|&n| n >= 2).unwrap_or(default)
}

pub const BULK: Entry = Entry {
    name: "perft-bulk",
    about: "perft nodes/s, bulk counting: ours vs cozy-chess",
    run: |ctx: &Context, _: &PositionSet| run(ctx, true),
};

pub const NONBULK: Entry = Entry {
    name: "perft-nonbulk",
    about: "perft nodes/s, every leaf made: ours vs cozy-chess",
    run: |ctx: &Context, _: &PositionSet| run(ctx, false),
};
