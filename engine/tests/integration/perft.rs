//! Perft exactness of both generators (and of magic and PEXT sliders) on the
//! standard suites. The CI part stays within a few minutes in release; the
//! full-depth runs are `#[ignore]`d (`cargo test --release -- --ignored`).

use engine::movegen::{BitboardGen, MailboxGen, MoveGen};
use engine::moves::{Move, MoveList};
use engine::position::epd::{load_file, Epd};
use engine::sliders::Magic;
#[cfg(target_feature = "bmi2")]
use engine::sliders::Pext;
use engine::tools::perft::perft;
use engine::tools::randpos::random_positions;
use engine::Position;
use std::path::PathBuf;

fn positions(name: &str) -> Vec<Epd> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../positions").join(name);
    load_file(&path).unwrap_or_else(|e| panic!("{e}"))
}

/// Check every expected count up to `max_depth` of `records`.
fn check_suite<G: MoveGen>(records: &[Epd], max_depth: u32, bulk: bool) -> usize {
    let mut checks = 0;
    for epd in records {
        for (depth, expected) in epd.perft_counts() {
            if depth > max_depth {
                continue;
            }
            let mut pos = epd.position().clone();
            let got = perft::<G>(&mut pos, depth, bulk);
            assert_eq!(got, expected, "{} depth {depth} ({}, bulk {bulk})", epd.fen(), G::NAME);
            checks += 1;
        }
    }
    checks
}

/// Every 13th position of perft_marcel.epd: 526 positions, deterministic.
fn marcel_sample() -> Vec<Epd> {
    positions("perft_marcel.epd").into_iter().step_by(13).collect()
}

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

#[test]
fn perftsuite_to_depth_5_mailbox() {
    assert_eq!(check_suite::<MailboxGen>(&positions("perftsuite.epd"), 5, true), 635);
}

#[test]
fn perftsuite_to_depth_5_bitboard_magic() {
    assert_eq!(check_suite::<BitboardGen<Magic>>(&positions("perftsuite.epd"), 5, true), 635);
}

#[cfg(target_feature = "bmi2")]
#[test]
fn perftsuite_to_depth_5_bitboard_pext() {
    assert_eq!(check_suite::<BitboardGen<Pext>>(&positions("perftsuite.epd"), 5, true), 635);
}

/// Without bulk counting every leaf move is made and unmade, so this also
/// exercises make/unmake at the last ply.
#[test]
fn perftsuite_to_depth_4_without_bulk_counting() {
    let records = positions("perftsuite.epd");
    assert_eq!(check_suite::<MailboxGen>(&records, 3, false), 381);
    assert_eq!(check_suite::<BitboardGen<Magic>>(&records, 4, false), 508);
}

#[test]
fn marcel_sample_to_depth_4() {
    let sample = marcel_sample();
    assert!(sample.len() >= 500);
    let n = check_suite::<MailboxGen>(&sample, 4, true);
    assert_eq!(n, 4 * sample.len());
    check_suite::<BitboardGen<Magic>>(&sample, 4, true);
    #[cfg(target_feature = "bmi2")]
    check_suite::<BitboardGen<Pext>>(&sample, 4, true);
}

#[test]
fn perft_tricky_to_depth_4() {
    let records = positions("perft_tricky.epd");
    check_suite::<MailboxGen>(&records, 4, true);
    check_suite::<BitboardGen<Magic>>(&records, 4, true);
}

fn startpos_and_kiwipete<G: MoveGen>() {
    assert_eq!(perft::<G>(&mut Position::startpos(), 6, true), 119_060_324);
    assert_eq!(perft::<G>(&mut Position::from_fen(KIWIPETE).unwrap(), 5, true), 193_690_690);
}

#[test]
fn startpos_d6_and_kiwipete_d5_mailbox() {
    startpos_and_kiwipete::<MailboxGen>();
}

#[test]
fn startpos_d6_and_kiwipete_d5_bitboard() {
    startpos_and_kiwipete::<BitboardGen<Magic>>();
    #[cfg(target_feature = "bmi2")]
    startpos_and_kiwipete::<BitboardGen<Pext>>();
}

#[test]
#[ignore = "minutes: every perftsuite count to depth 6"]
fn perftsuite_full_depth_all_generators() {
    let records = positions("perftsuite.epd");
    check_suite::<MailboxGen>(&records, 6, true);
    check_suite::<BitboardGen<Magic>>(&records, 6, true);
    #[cfg(target_feature = "bmi2")]
    check_suite::<BitboardGen<Pext>>(&records, 6, true);
}

#[test]
#[ignore = "minutes: all 6838 perft_marcel positions to depth 5"]
fn marcel_full_to_depth_5() {
    let records = positions("perft_marcel.epd");
    check_suite::<BitboardGen<Magic>>(&records, 5, true);
    check_suite::<MailboxGen>(&records, 4, true);
}

/// The tactical and the quiet moves of `pos` split its legal moves exactly
/// (the search generates them in two stages); then the same at every node
/// below to `depth`. Returns the nodes checked.
fn check_split<G: MoveGen>(pos: &mut Position, depth: u32) -> u64 {
    let (mut legal, mut tactical, mut quiet) = (MoveList::new(), MoveList::new(), MoveList::new());
    G::legal(pos, &mut legal);
    G::tactical(pos, &mut tactical);
    G::quiet(pos, &mut quiet);
    let fen = pos.to_fen();
    assert!(tactical.iter().all(|m| m.is_tactical()), "{fen}: a quiet move among the tactical ones ({})", G::NAME);
    assert!(quiet.iter().all(|m| !m.is_tactical()), "{fen}: a tactical move among the quiet ones ({})", G::NAME);
    let mut split: Vec<Move> = tactical.iter().chain(quiet.iter()).copied().collect();
    let mut all = legal.as_slice().to_vec();
    split.sort();
    all.sort();
    assert_eq!(split, all, "{fen}: tactical + quiet is not the legal moves ({})", G::NAME);
    let mut nodes = 1;
    if depth > 0 {
        for &m in &legal {
            pos.make(m);
            nodes += check_split::<G>(pos, depth - 1);
            pos.unmake();
        }
    }
    nodes
}

#[test]
fn tactical_and_quiet_moves_split_the_legal_moves() {
    let mut starts: Vec<(String, Position, u32)> = Vec::new();
    for name in ["perftsuite.epd", "perft_tricky.epd"] {
        starts.extend(positions(name).iter().map(|e| (format!("{name} {}", e.fen()), e.position().clone(), 2)));
    }
    // Random placements and playouts reach what the suites do not (odd
    // pins, checks by promotion, en passant out of check).
    for (i, pos) in random_positions(2000, 0x5B117).into_iter().enumerate() {
        starts.push((format!("random position {i}"), pos, 1));
    }
    let (mut mailbox, mut bitboard) = (0, 0);
    for (what, pos, depth) in &starts {
        let m = check_split::<MailboxGen>(&mut pos.clone(), *depth);
        let b = check_split::<BitboardGen<Magic>>(&mut pos.clone(), *depth);
        assert_eq!(m, b, "{what}: both generators walk the same tree");
        (mailbox, bitboard) = (mailbox + m, bitboard + b);
    }
    assert!(mailbox > 100_000, "only {mailbox} nodes checked");
}
