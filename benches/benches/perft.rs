//! `cargo bench --bench perft`: perft nodes per second of the mailbox and
//! bitboard (magic, PEXT) generators, bulk and non-bulk, against cozy-chess
//! on startpos d6 and Kiwipete d5, interleaved in one run; ratios ours/cozy.
//! Each perft is measured in parts of about a millisecond (its subtrees
//! three plies from the leaves; see common/perft.rs). A few minutes here
//! (`BOARDBENCH_PERFT_ROUNDS`, default 12 rounds in bulk, 7 not); `-- --quick` runs startpos d5
//! and Kiwipete d4.

mod common;

fn main() {
    let extra = [common::perft::BULK, common::perft::NONBULK];
    std::process::exit(common::run_named(&["perft-bulk", "perft-nonbulk"], &extra));
}
