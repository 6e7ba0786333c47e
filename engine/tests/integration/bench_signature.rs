//! The bench signature: the total node count of the bench positions at
//! `SIGNATURE_DEPTH` is pinned, so any change that alters what the search
//! searches shows up here and has to be acknowledged by updating
//! `engine::tools::bench::BENCH_SIGNATURE` (see the `bench` module docs for how).

use engine::search::ProfileKind;
use engine::tools::bench::{bench, default_positions, BENCH_HASH_MB, BENCH_SIGNATURE, SIGNATURE_DEPTH};

#[test]
fn bench_node_count_matches_the_signature() {
    let positions = default_positions();
    let bitboard = bench(ProfileKind::Bitboard, &positions, SIGNATURE_DEPTH, BENCH_HASH_MB);
    assert_eq!(
        bitboard.nodes(),
        BENCH_SIGNATURE,
        "bench signature changed: if the search or evaluation change was intended, set \
         engine::tools::bench::BENCH_SIGNATURE to {} (output of `engine bench --depth {SIGNATURE_DEPTH}`)",
        bitboard.nodes()
    );
    // The mailbox profile searches the same trees position by position,
    // pruning the same moves.
    let mailbox = bench(ProfileKind::Mailbox, &positions, SIGNATURE_DEPTH, BENCH_HASH_MB);
    let per_position =
        |r: &engine::tools::bench::BenchReport| r.lines.iter().map(|l| (l.nodes, l.pruned)).collect::<Vec<_>>();
    assert_eq!(per_position(&mailbox), per_position(&bitboard));
    assert!(bitboard.lines.iter().all(|l| l.nodes > 0));
}
