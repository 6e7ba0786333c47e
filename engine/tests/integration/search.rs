//! The search: identical trees for the mailbox and bitboard profiles, mate
//! and draw scoring, limits, determinism.

use engine::defects::{DefectCounter, KingDefects};
use engine::eval::MaterialEval;
use engine::movegen::{legal_moves, BitboardGen, MailboxGen};
use engine::position::epd::load_file;
use engine::search::{
    BitboardAttacks, BitboardProfile, Limits, MailboxAttacks, MailboxProfile, Profile, ProfileKind, Score,
    SearchResult, Searcher, SingleProbeProfile, MATE,
};
use engine::sliders::FastSliders;
use engine::tools::bench::{default_positions, BENCH_HASH_MB};
use engine::uci::parse_position;
use engine::{Move, Position};
use std::path::Path;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// A defect counter that never fires: the bitboard profile with it has
/// neither defect extension.
struct NoDefects;

impl DefectCounter for NoDefects {
    const NAME: &'static str = "none";
    fn count(_: &Position, _: engine::Color) -> KingDefects {
        KingDefects::NONE
    }
}

struct BitboardWithoutDefects;

impl Profile for BitboardWithoutDefects {
    const NAME: &'static str = "bitboard-without-defects";
    type Gen = BitboardGen<FastSliders>;
    type Attacks = BitboardAttacks;
    type Defects = NoDefects;
    type Eval = <BitboardProfile as Profile>::Eval;
}

/// Old and new routines around the simple material evaluation: the search
/// alone must keep the trees equal, whatever the evaluation.
struct MailboxMaterial;
struct BitboardMaterial;

impl Profile for MailboxMaterial {
    const NAME: &'static str = "mailbox-material";
    type Gen = MailboxGen;
    type Attacks = MailboxAttacks;
    type Defects = engine::defects::MailboxDefects;
    type Eval = MaterialEval;
}

impl Profile for BitboardMaterial {
    const NAME: &'static str = "bitboard-material";
    type Gen = BitboardGen<FastSliders>;
    type Attacks = BitboardAttacks;
    type Defects = engine::defects::BitboardDefects;
    type Eval = MaterialEval;
}

fn search<P: Profile>(pos: &Position, limits: &Limits) -> SearchResult {
    let mut searcher = Searcher::<P>::new(BENCH_HASH_MB);
    let mut pos = pos.clone();
    let before = pos.to_fen();
    let r = searcher.go(&mut pos, limits, &mut |_| {});
    assert_eq!(pos.to_fen(), before, "the search restores the position");
    r
}

fn fen(text: &str) -> Position {
    Position::from_fen(text).unwrap()
}

fn uci(m: Move) -> String {
    m.uci().to_string()
}

/// Every bench position, plus every 10th position of WAC and ECM and every
/// 500th of the endgame set: 20 + 30 + 88 + 40 positions.
fn equality_positions() -> Vec<Position> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../positions");
    let mut out = default_positions();
    for (file, step) in [("wac.epd", 10), ("ecm.epd", 10), ("endgames_20k.epd", 500)] {
        let epds = load_file(&dir.join(file)).unwrap();
        out.extend(epds.iter().step_by(step).map(|e| e.position().clone()));
    }
    out
}

#[test]
fn mailbox_and_bitboard_profiles_search_identical_trees() {
    let positions = equality_positions();
    assert!(positions.len() >= 150);
    let mut total = 0;
    for pos in &positions {
        let m = search::<MailboxProfile>(pos, &Limits::depth(5));
        let b = search::<BitboardProfile>(pos, &Limits::depth(5));
        assert_eq!((m.nodes, m.pruned), (b.nodes, b.pruned), "node counts differ on {}", pos.to_fen());
        assert_eq!((m.best, m.score, &m.pv), (b.best, b.score, &b.pv), "{}", pos.to_fen());
        total += m.nodes;
    }
    assert!(total > 100_000, "a real search happened: {total} nodes");
}

#[test]
fn every_profile_with_one_routine_swapped_searches_the_same_trees() {
    // Each swapped routine computes what the one it replaces computes, so
    // the bitboard profile with any routine old (or one piece type's
    // mobility old), and the mailbox profile with any routine new, search
    // the bitboard profile's trees.
    let positions = default_positions();
    let reference: Vec<SearchResult> =
        positions.iter().map(|p| search::<BitboardProfile>(p, &Limits::depth(5))).collect();
    for kind in ProfileKind::SWAPPED.into_iter().chain(ProfileKind::MOBILITY_BY_PIECE) {
        let mut nodes = 0;
        for (pos, b) in positions.iter().zip(&reference) {
            let r = engine::with_profile!(kind, P => search::<P>(pos, &Limits::depth(5)));
            assert_eq!((r.nodes, r.pruned), (b.nodes, b.pruned), "{kind}: node counts differ on {}", pos.to_fen());
            assert_eq!((r.best, r.score, &r.pv), (b.best, b.score, &b.pv), "{kind}: {}", pos.to_fen());
            nodes += r.nodes;
        }
        assert!(nodes > 10_000, "{kind}: a real search happened: {nodes} nodes");
    }
}

#[test]
fn the_search_alone_keeps_trees_equal() {
    for pos in &default_positions() {
        let m = search::<MailboxMaterial>(pos, &Limits::depth(6));
        let b = search::<BitboardMaterial>(pos, &Limits::depth(6));
        assert_eq!((m.nodes, m.best, m.score), (b.nodes, b.best, b.score), "{}", pos.to_fen());
    }
}

#[test]
fn defect_extensions_fire_when_the_count_is_above_one() {
    // Black is in check from Qe8 with one legal reply, Rf8; White's queen
    // and f1 rook bear on the king zone (count 2).
    let one_reply = fen("4Q2k/6pp/8/8/8/8/5r2/4KR2 b - - 0 1");
    assert_eq!(legal_moves(&one_reply).len(), 1);
    assert_eq!(<BitboardProfile as Profile>::Defects::count(&one_reply, engine::Color::Black).count, 2);
    let with = search::<BitboardProfile>(&one_reply, &Limits::depth(1));
    let without = search::<BitboardWithoutDefects>(&one_reply, &Limits::depth(1));
    assert_eq!((uci(with.best), uci(without.best)), ("f2f8".into(), "f2f8".into()));
    // The extension lets depth 1 see Qxf8#; without it, Rf8 is searched in
    // quiescence, where Qxf8+ is met by standing pat.
    assert_eq!(with.score, -(MATE - 2));
    assert!(without.score > -MATE_BOUND_FOR_TESTS, "{}", without.score);

    // Quiescence, in check, mated: with the count at 2 every evasion is
    // searched (none exist: mate); without the extension it stands pat.
    let mut mated = fen("R5k1/5ppp/8/8/8/8/8/5RK1 b - - 0 1");
    assert_eq!(<MailboxProfile as Profile>::Defects::count(&mated, engine::Color::Black).count, 2);
    assert_eq!(Searcher::<MailboxProfile>::new(1).quiesce(&mut mated), -MATE);
    assert_eq!(Searcher::<BitboardProfile>::new(1).quiesce(&mut mated), -MATE);
    let stand_pat = Searcher::<BitboardWithoutDefects>::new(1).quiesce(&mut mated);
    assert!(stand_pat > -MATE_BOUND_FOR_TESTS, "{stand_pat}");
}

#[test]
fn quiet_moves_are_pruned_only_where_the_node_allows_it() {
    // White, a rook down, cannot hope to reach alpha with most quiet moves:
    // futility and late move pruning drop some, each counted as a node.
    let behind = fen("r3k3/pp3ppp/8/8/8/8/PPP2PPP/4K3 w - - 0 1");
    let r = search::<BitboardProfile>(&behind, &Limits::depth(4));
    assert!(r.pruned > 0 && r.pruned < r.nodes, "{} pruned of {}", r.pruned, r.nodes);
    // Depth 1 searches only the root, a PV node: nothing is pruned.
    let start = Position::startpos();
    let r = search::<BitboardProfile>(&start, &Limits::depth(1));
    assert_eq!(r.pruned, 0);
    assert!(r.nodes > legal_moves(&start).len() as u64, "{} nodes", r.nodes);
}

/// Scores beyond this magnitude are mates.
const MATE_BOUND_FOR_TESTS: i32 = MATE - 200;

#[test]
fn single_probe_profile_searches_legal_moves() {
    for pos in default_positions().iter().take(4) {
        let r = search::<SingleProbeProfile>(pos, &Limits::depth(4));
        assert!(legal_moves(pos).contains(r.best), "{}", pos.to_fen());
    }
}

#[test]
fn finds_mates_and_scores_them_by_distance() {
    let mate_in_one = fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    let r = search::<BitboardProfile>(&mate_in_one, &Limits::depth(3));
    assert_eq!((uci(r.best), Score::from_internal(r.score)), ("a1a8".into(), Score::Mate(1)));

    // Nf6+ gxf6 Bxf7#.
    let mate_in_two = fen("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1");
    let r = search::<MailboxProfile>(&mate_in_two, &Limits::depth(5));
    assert_eq!((uci(r.best), Score::from_internal(r.score)), ("d5f6".into(), Score::Mate(2)));

    // The defender sees the mate coming.
    let mated = fen("6k1/5ppp/8/8/8/8/r7/r5K1 w - - 0 1");
    let r = search::<BitboardProfile>(&mated, &Limits::depth(4));
    assert!(r.score <= -(MATE - 10), "{:?}", Score::from_internal(r.score));

    // No move at the root: checkmate and stalemate.
    let checkmated = search::<BitboardProfile>(&fen("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1"), &Limits::depth(3));
    assert_eq!((checkmated.best, checkmated.score), (Move::NULL, -MATE));
    let stalemated = search::<MailboxProfile>(&fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"), &Limits::depth(3));
    assert_eq!((stalemated.best, stalemated.score), (Move::NULL, 0));
}

#[test]
fn draws_score_zero() {
    // A rook up, but the next move completes fifty moves without progress.
    let fifty = fen("4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
    assert_eq!(search::<BitboardProfile>(&fifty, &Limits::depth(4)).score, 0);
    // ... unless that move mates.
    let mate_on_the_hundredth = fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80");
    assert_eq!(search::<BitboardProfile>(&mate_on_the_hundredth, &Limits::depth(4)).score, MATE - 1);
    // Insufficient material.
    let knight = fen("8/8/4k3/8/8/3NK3/8/8 w - - 0 1");
    assert_eq!(search::<MailboxProfile>(&knight, &Limits::depth(6)).score, 0);
    // A queen down, White repeats the position instead: Kh1 recreates the
    // position after Black's first move.
    let repeat =
        parse_position(&["fen", "kq6/8/8/8/8/8/8/7K", "b", "-", "-", "0", "1", "moves", "b8c8", "h1g1", "c8b8"])
            .unwrap();
    let r = search::<BitboardProfile>(&repeat, &Limits::depth(6));
    assert_eq!((uci(r.best), r.score), ("g1h1".into(), 0));
    // Without the history, the same position is simply lost.
    let fresh = fen(&repeat.to_fen());
    assert!(search::<BitboardProfile>(&fresh, &Limits::depth(6)).score < -500);
}

#[test]
fn node_limit_stop_flag_and_movetime() {
    let pos = default_positions()[5].clone();
    let r = search::<BitboardProfile>(&pos, &Limits::nodes(5_000));
    assert!(r.nodes <= 5_000 && r.nodes > 4_000, "{} nodes", r.nodes);
    assert!(legal_moves(&pos).contains(r.best));

    let mut searcher = Searcher::<MailboxProfile>::new(1);
    searcher.stop_flag().store(true, Ordering::Relaxed);
    let mut p = pos.clone();
    let r = searcher.go(&mut p, &Limits::default(), &mut |_| {});
    assert!(r.nodes <= 1024 && legal_moves(&pos).contains(r.best), "{r:?}");

    let start = Instant::now();
    let limits = Limits { movetime: Some(Duration::from_millis(50)), ..Limits::default() };
    let r = search::<BitboardProfile>(&pos, &limits);
    assert!(start.elapsed() < Duration::from_secs(5) && r.depth >= 1 && legal_moves(&pos).contains(r.best));
}

#[test]
fn searches_are_deterministic_and_report_each_iteration() {
    let pos = default_positions()[8].clone();
    let mut searcher = Searcher::<BitboardProfile>::new(4);
    let mut depths = Vec::new();
    let mut p = pos.clone();
    let first = searcher.go(&mut p, &Limits::depth(6), &mut |info| {
        assert!(!info.pv.is_empty() && info.nodes > 0);
        depths.push(info.depth);
    });
    assert_eq!(depths, (1..=6).collect::<Vec<_>>());
    assert_eq!(first.pv[0], first.best);
    searcher.clear();
    let again = searcher.go(&mut p, &Limits::depth(6), &mut |_| {});
    assert_eq!((again.nodes, again.best, again.score), (first.nodes, first.best, first.score));
    // The principal variation is a legal line.
    let mut line = pos.clone();
    for &m in &first.pv {
        assert!(legal_moves(&line).contains(m), "{m} in {}", line.to_fen());
        line.make(m);
    }
}
