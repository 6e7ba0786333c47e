//! `cargo bench --bench perft`: perft nodes per second of the mailbox and
//! bitboard (magic, PEXT) generators, bulk and non-bulk, against cozy-chess
//! on startpos d6 and Kiwipete d5, interleaved in one run; ratios ours/cozy.
//! About five minutes here (`BOARDBENCH_PERFT_ROUNDS`, default 5); `-- --quick`
//! runs startpos d4 and Kiwipete d3.

mod common;

fn main() {
    let extra = [common::perft::BULK, common::perft::NONBULK];
    std::process::exit(common::run_named(&["perft-bulk", "perft-nonbulk"], &extra));
}
