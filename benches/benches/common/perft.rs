//! The perft comparison (issue 2): nodes per second of our three move
//! generators (mailbox, bitboard with magic, bitboard with PEXT), bulk and
//! non-bulk, against cozy-chess (a dev-dependency, the outside reference)
//! on the same positions in the same run, interleaved through the shared
//! runner. Two jobs (bulk, non-bulk), each with cozy-chess as the baseline
//! arm and an A/A control (cozy-chess again). A perft call lasts seconds, so
//! there is no batching, no per-visit warm-up and no x2 control.

use boardbench::density::PositionSet;
use boardbench::report::BenchReport;
use boardbench::runner::{Plan, Workload};
use boardbench::suite::{build_report, measure, ArmSpec, Context, Entry, Header, Kind, Spec};
use cozy_chess::Board;
use engine::movegen::{BitboardGen, MailboxGen};
use engine::perft::perft;
use engine::sliders::Magic;
use engine::Position;

/// One perft problem, in both libraries' representations.
#[derive(Clone)]
pub struct Problem {
    pos: Position,
    board: Board,
    depth: u32,
}

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// (name, FEN, depth, expected nodes) at full and at --quick depth.
fn problems(quick: bool) -> Vec<(String, &'static str, u32, u64)> {
    if quick {
        vec![
            ("startpos d4".into(), engine::position::START_FEN, 4, 197_281),
            ("kiwipete d3".into(), KIWIPETE, 3, 97_862),
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
        call: "one whole perft of the named position and depth",
        prepare: |p| Problem { pos: p.clone(), board: Board::default(), depth: 0 },
        arms,
        must_agree: true,
    }
}

fn run(ctx: &Context, bulk: bool) -> Result<BenchReport, String> {
    let quick = ctx.quick;
    let spec = spec(bulk);
    // A run of seconds needs no batching; a few rounds give an interval.
    let plan = Plan {
        rounds: if quick { 2 } else { perft_rounds() },
        budget_s: None,
        warmup_rounds: 0,
        min_sample: 0.0,
        visit_warmup: false,
    };
    let arms = boardbench::suite::arms_of(&spec, false);
    let mut kinds = Vec::new();
    let mut workloads = Vec::new();
    for (name, fen, depth, nodes) in problems(quick) {
        let pos = Position::from_fen(fen).map_err(|e| format!("{name}: {e}"))?;
        let board: Board = fen.parse().map_err(|e| format!("{name}: cozy-chess: {e:?}"))?;
        // Both libraries count the expected nodes before anything is timed.
        let mut p = Problem { pos, board, depth };
        let ours = perft::<BitboardGen<Magic>>(&mut p.pos, depth, true);
        let theirs = cozy(&p.board, depth, true);
        if ours != nodes || theirs != nodes {
            return Err(format!("{name}: perft gives {ours} (ours) and {theirs} (cozy-chess), expected {nodes}"));
        }
        kinds.push(Kind::Named(name.clone()));
        workloads.push(Workload { label: name, inputs: vec![p], samples_per_round: 1 });
    }
    let (rounds, overhead) = measure(ctx, &plan, spec.name, &arms, &mut workloads)?;
    let header = Header {
        name: spec.name.into(),
        about: spec.about.into(),
        call: spec.call.into(),
        unit: format!("{} per call", ctx.clock_info.unit),
    };
    let mut report = build_report(ctx, header, &arms, &kinds, &mut workloads, &rounds, overhead);
    // Nodes per second and ours/cozy speed (the inverse of the time ratio).
    let hz = ctx.clock_info.tsc_mhz.map(|m| m * 1e6).unwrap_or(1e9);
    let mut notes = Vec::new();
    for (b, (_, _, _, nodes)) in report.buckets.iter().zip(problems(quick)) {
        for a in &b.arms {
            let nps = nodes as f64 / (a.summary.floor / hz);
            let speed = a.ratio.map(|r| {
                format!(
                    "; ours/cozy speed {:.3} [{:.3}, {:.3}]",
                    1.0 / r.estimate,
                    1.0 / r.interval[1],
                    1.0 / r.interval[0]
                )
            });
            notes.push(format!("{} {}: {:.1} Mnps{}", b.bucket, a.arm, nps / 1e6, speed.unwrap_or_default()));
        }
    }
    report.about = format!("{} — {}", report.about, notes.join(" | "));
    for n in &notes {
        eprintln!("  {n}");
    }
    Ok(report)
}

/// Rounds of the full-depth perft job (each round runs every arm once on
/// both positions: minutes). `BOARDBENCH_PERFT_ROUNDS` overrides (default 5).
fn perft_rounds() -> usize {
    std::env::var("BOARDBENCH_PERFT_ROUNDS").ok().and_then(|v| v.parse().ok()).filter(|&n| n >= 1).unwrap_or(5)
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
