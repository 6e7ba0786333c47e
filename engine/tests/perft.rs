//! Perft exactness of both generators (and of magic and PEXT sliders) on the
//! standard suites. The CI part stays within a few minutes in release; the
//! full-depth runs are `#[ignore]`d (`cargo test --release -- --ignored`).

use engine::movegen::{BitboardGen, MailboxGen, MoveGen};
use engine::perft::perft;
use engine::position::epd::{load_file, Epd};
use engine::sliders::Magic;
#[cfg(target_feature = "bmi2")]
use engine::sliders::Pext;
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
