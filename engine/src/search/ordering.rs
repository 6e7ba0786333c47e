//! Move ordering: every move gets a 64-bit key — an ordering class, a score
//! within the class, and the move's raw 32-bit word as the final tie-break —
//! and moves are picked best key first. Because the key is a total order on
//! distinct moves, the order never depends on the order the generator
//! emitted them in: the mailbox and bitboard generators produce the same set
//! in different orders and the search visits it identically.
//!
//! Main search classes, best first: the hash move; winning or equal
//! captures and queen promotions (most valuable victim, least valuable
//! attacker); the two killers; quiet moves by history; losing captures by
//! SEE; under-promotions.

use crate::fixed_vec::FixedVec;
use crate::moves::{Move, MAX_MOVES};
use crate::position::Position;
use crate::search::MAX_PLY;
use crate::types::PieceType;
use std::ops::Range;

/// Ordering classes (higher first).
pub mod class {
    pub const HASH: u64 = 7;
    pub const GOOD_TACTICAL: u64 = 6;
    pub const KILLER_1: u64 = 5;
    pub const KILLER_2: u64 = 4;
    pub const QUIET: u64 = 3;
    pub const BAD_CAPTURE: u64 = 2;
    pub const UNDER_PROMOTION: u64 = 1;
}

/// Offset that makes a signed in-class score non-negative (scores stay in
/// ±2^27).
const SCORE_OFFSET: i64 = 1 << 27;

/// The ordering key: class in bits 60-63, score in bits 32-59, the raw move
/// in bits 0-31.
#[inline(always)]
pub fn order_key(class: u64, score: i32, m: Move) -> u64 {
    debug_assert!((score as i64).abs() < SCORE_OFFSET);
    // The fields are added rather than OR-ed: they do not overlap (the
    // offset score is in 0..2^28), so the sum is the same key, and the
    // class and the offset fold into one constant.
    let base = (class << 60).wrapping_add((SCORE_OFFSET as u64) << 32);
    base.wrapping_add((score as i64 as u64) << 32).wrapping_add(m.raw() as u64)
}

/// Most valuable victim, least valuable attacker: victims by type (pawn 0 ..
/// queen 4), attackers in reverse; promotions count the promoted piece as
/// gained material.
#[inline(always)]
pub fn mvv_lva(m: Move) -> i32 {
    let victim = if m.is_capture() { m.captured_kind().index() as i32 + 1 } else { 0 };
    let promo = if m.is_promotion() { m.promotion().kind().index() as i32 } else { 0 };
    let attacker = m.moved_kind().index() as i32;
    (victim + promo) * 8 - attacker
}

/// Picks after which the remaining keys are sorted once: a node still
/// picking by then is likely to search most of its moves, and one sort is
/// cheaper than a selection scan per move.
const SORT_AFTER: usize = 2;

/// Moves with their ordering keys, handed out best first. The key's low 32
/// bits are the move itself, so only the keys are stored.
pub struct ScoredMoves {
    keys: FixedVec<u64, MAX_MOVES>,
    /// Keys before `next` have been picked.
    next: usize,
    /// The keys from `next` on are in descending order.
    sorted: bool,
}

impl ScoredMoves {
    #[inline(always)]
    pub fn new() -> ScoredMoves {
        ScoredMoves { keys: FixedVec::new(), next: 0, sorted: false }
    }

    /// Replace the contents with the moves of `list`, each keyed by `key`
    /// (whose low 32 bits must be the move).
    #[inline(always)]
    pub fn fill(&mut self, list: &[Move], key: impl FnMut(Move) -> u64) {
        self.clear();
        self.extend_all(list, key);
    }

    /// Add every move of `list`, keyed by `key` (whose low 32 bits must be
    /// the move). Picking goes on from where it was.
    #[inline(always)]
    pub fn extend_all(&mut self, list: &[Move], mut key: impl FnMut(Move) -> u64) {
        self.sorted = false;
        self.keys.extend_mapped(list, |m| {
            let k = key(m);
            debug_assert_eq!(k as u32, m.raw());
            k
        });
    }

    /// Add the moves of `list` for which `key` returns a key (whose low 32
    /// bits must be the move); `None` leaves the move out. Picking goes on
    /// from where it was.
    #[inline(always)]
    pub fn extend(&mut self, list: &[Move], mut key: impl FnMut(Move) -> Option<u64>) {
        self.sorted = false;
        for &m in list {
            if let Some(k) = key(m) {
                debug_assert_eq!(k as u32, m.raw());
                self.keys.push(k);
            }
        }
    }

    #[inline(always)]
    pub fn push(&mut self, key: u64) {
        self.sorted = false;
        self.keys.push(key);
    }

    /// Set aside the moves not yet picked whose key `aside` selects: they
    /// are not picked, and the others are picked in the same order as
    /// before. Returns the set-aside keys' index range, for
    /// [`key_at`](Self::key_at), which stays valid until the next fill or
    /// clear (they go where the picked keys were, which picking never
    /// reads again).
    #[inline(always)]
    pub fn set_aside_unpicked(&mut self, mut aside: impl FnMut(u64) -> bool) -> Range<usize> {
        let start = self.next;
        let keys = self.keys.as_mut_slice();
        // From the back: keys[kept..] hold the kept keys in their order,
        // keys[i + 1..kept] the set-aside ones.
        let mut kept = keys.len();
        for i in (start..keys.len()).rev() {
            if !aside(keys[i]) {
                kept -= 1;
                keys.swap(i, kept);
            }
        }
        self.next = kept;
        start..kept
    }

    /// The key at `index` (of a range from
    /// [`set_aside_unpicked`](Self::set_aside_unpicked)).
    #[inline(always)]
    pub fn key_at(&self, index: usize) -> u64 {
        self.keys.as_slice()[index]
    }

    #[inline(always)]
    pub fn clear(&mut self) {
        self.keys.clear();
        self.next = 0;
        self.sorted = false;
    }

    /// The best remaining move and its key. The first few picks select
    /// (moves are usually cut off long before all are picked); then the
    /// rest is sorted once and handed out in turn. The keys are distinct, so
    /// both give the same order.
    #[inline(always)]
    pub fn pick(&mut self) -> Option<(Move, u64)> {
        self.pick_at_least(0)
    }

    /// [`pick`](Self::pick), but only if the best remaining key is at least
    /// `floor`; otherwise nothing is taken (a staged caller adds the moves
    /// that rank between, then picks again).
    #[inline(always)]
    pub fn pick_at_least(&mut self, floor: u64) -> Option<(Move, u64)> {
        let next = self.next;
        let keys = self.keys.as_mut_slice();
        if next >= keys.len() {
            return None;
        }
        if next < SORT_AFTER {
            // Keep the best key in a register; the keys are distinct, so the
            // comparison compiles to conditional moves, not a branch per move.
            let (mut best, mut best_key) = (next, keys[next]);
            for (i, &k) in keys.iter().enumerate().skip(next + 1) {
                let better = k > best_key;
                best = if better { i } else { best };
                best_key = if better { k } else { best_key };
            }
            keys.swap(next, best);
        } else if !self.sorted {
            keys[next..].sort_unstable_by(|a, b| b.cmp(a));
            self.sorted = true;
        }
        let key = keys[next];
        if key < floor {
            return None;
        }
        self.next += 1;
        Some((Move::from_raw(key as u32), key))
    }
}

/// The ordering class of a key.
#[inline(always)]
pub fn key_class(key: u64) -> u64 {
    key >> 60
}

impl Default for ScoredMoves {
    fn default() -> Self {
        ScoredMoves::new()
    }
}

/// Two killer moves per ply: quiet moves that caused a cutoff at that ply.
pub struct Killers {
    slots: [[Move; 2]; MAX_PLY + 2],
}

impl Killers {
    pub fn new() -> Killers {
        Killers { slots: [[Move::NULL; 2]; MAX_PLY + 2] }
    }

    pub fn clear(&mut self) {
        self.slots = [[Move::NULL; 2]; MAX_PLY + 2];
    }

    #[inline(always)]
    pub fn get(&self, ply: usize) -> [Move; 2] {
        self.slots[ply]
    }

    #[inline(always)]
    pub fn clear_ply(&mut self, ply: usize) {
        self.slots[ply] = [Move::NULL; 2];
    }

    #[inline(always)]
    pub fn record(&mut self, ply: usize, m: Move) {
        let s = &mut self.slots[ply];
        if s[0] != m {
            s[1] = s[0];
            s[0] = m;
        }
    }
}

impl Default for Killers {
    fn default() -> Self {
        Killers::new()
    }
}

/// History heuristic: by moving piece code and destination square, a score
/// in ±[`HISTORY_MAX`] that rises for quiet moves that cut off and falls for
/// quiet moves searched before the one that did.
pub struct History {
    /// Indexed by [`Move::piece_to_index`]: one shift and mask per lookup.
    table: [i32; HISTORY_SLOTS],
}

/// Slots of the history table: every value of [`Move::piece_to_index`].
const HISTORY_SLOTS: usize = 1 << 12;

pub const HISTORY_MAX: i32 = 1 << 14;

impl History {
    pub fn new() -> History {
        History { table: [0; HISTORY_SLOTS] }
    }

    pub fn clear(&mut self) {
        self.table = [0; HISTORY_SLOTS];
    }

    #[inline(always)]
    pub fn get(&self, m: Move) -> i32 {
        self.table[m.piece_to_index()]
    }

    /// Move the entry towards ±HISTORY_MAX by `bonus` (gravity keeps it in
    /// range).
    #[inline(always)]
    pub fn update(&mut self, m: Move, bonus: i32) {
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        let e = &mut self.table[m.piece_to_index()];
        *e += bonus - *e * bonus.abs() / HISTORY_MAX;
    }
}

impl Default for History {
    fn default() -> Self {
        History::new()
    }
}

/// Is `m` a queen promotion (ordered with the good captures)?
#[inline(always)]
pub fn is_queen_promotion(m: Move) -> bool {
    m.is_promotion() && m.promotion().kind() == PieceType::Queen
}

/// Is `pos`'s side to move left with pawns and king only? (Null move is
/// unsafe there: zugzwang.)
#[inline(always)]
pub fn pawns_and_king_only(pos: &Position) -> bool {
    pos.non_pawn_material(pos.side_to_move()) <= PieceType::King.value()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::{BitboardGen, MailboxGen, MoveGen};
    use crate::moves::MoveList;
    use crate::sliders::Magic;

    #[test]
    fn order_is_independent_of_generation_order() {
        let pos = Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap();
        let (mut a, mut b) = (MoveList::new(), MoveList::new());
        MailboxGen::legal(&pos, &mut a);
        BitboardGen::<Magic>::legal(&pos, &mut b);
        assert_ne!(a.as_slice(), b.as_slice(), "the generators emit different orders");
        // Many ties: every quiet move has the same class and score.
        let key = |m: Move| {
            if m.is_capture() {
                order_key(class::GOOD_TACTICAL, mvv_lva(m), m)
            } else {
                order_key(class::QUIET, 0, m)
            }
        };
        let (mut sa, mut sb) = (ScoredMoves::new(), ScoredMoves::new());
        sa.fill(a.as_slice(), key);
        sb.fill(b.as_slice(), key);
        let mut picked = 0;
        while let (Some(x), Some(y)) = (sa.pick(), sb.pick()) {
            assert_eq!(x, y);
            picked += 1;
        }
        assert_eq!(picked, a.len());
    }

    #[test]
    fn picks_come_best_first_across_the_switch_to_sorting_and_after_extend() {
        let pos = Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap();
        let list = crate::movegen::legal_moves(&pos);
        assert!(list.len() > 2 * SORT_AFTER);
        // Scores scrambled by the move word, so neither generation order
        // nor the raw tie-break gives the answer away.
        let key = |m: Move| order_key(class::QUIET, (m.raw().wrapping_mul(2_654_435_761) >> 20) as i32, m);
        let mut expected: Vec<u64> = list.iter().map(|&m| key(m)).collect();
        expected.sort_unstable_by(|a, b| b.cmp(a));

        let mut all = ScoredMoves::new();
        all.fill(list.as_slice(), key);
        let picked: Vec<u64> = std::iter::from_fn(|| all.pick().map(|(_, k)| k)).collect();
        assert_eq!(picked, expected);

        // The search's hash-move-first pattern: one key, picked, then the
        // rest added without it.
        let first = Move::from_raw(expected[0] as u32);
        let mut staged = ScoredMoves::new();
        staged.push(key(first));
        let mut picked = vec![staged.pick().unwrap().1];
        assert!(staged.pick().is_none());
        staged.extend(list.as_slice(), |m| (m != first).then(|| key(m)));
        picked.extend(std::iter::from_fn(|| staged.pick().map(|(_, k)| k)));
        assert_eq!(picked, expected);
    }

    #[test]
    fn setting_moves_aside_keeps_the_order_of_the_rest_and_their_keys() {
        let pos = Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap();
        let list = crate::movegen::legal_moves(&pos);
        let key = |m: Move| order_key(class::QUIET, (m.raw().wrapping_mul(2_654_435_761) >> 20) as i32, m);
        let mut expected: Vec<u64> = list.iter().map(|&m| key(m)).collect();
        expected.sort_unstable_by(|a, b| b.cmp(a));
        let aside = |k: u64| k % 3 != 0;
        // Set aside before any pick (unsorted), after one (still selecting)
        // and after the switch to sorting.
        for picks_before in [0, 1, SORT_AFTER + 1] {
            let mut moves = ScoredMoves::new();
            moves.fill(list.as_slice(), key);
            let mut picked: Vec<u64> = (0..picks_before).map(|_| moves.pick().unwrap().1).collect();
            let range = moves.set_aside_unpicked(aside);
            let mut set_aside: Vec<u64> = range.map(|i| moves.key_at(i)).collect();
            picked.extend(std::iter::from_fn(|| moves.pick().map(|(_, k)| k)));
            let kept: Vec<u64> = expected
                .iter()
                .copied()
                .enumerate()
                .filter(|&(i, k)| i < picks_before || !aside(k))
                .map(|(_, k)| k)
                .collect();
            assert_eq!(picked, kept, "{picks_before} picks before");
            set_aside.sort_unstable_by(|a, b| b.cmp(a));
            let rest: Vec<u64> = expected[picks_before..].iter().copied().filter(|&k| aside(k)).collect();
            assert_eq!(set_aside, rest, "{picks_before} picks before");
            assert!(!rest.is_empty() && kept.len() > picks_before + 2);
        }
    }

    #[test]
    fn staged_picking_with_a_floor_gives_the_full_order() {
        let pos = Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap();
        let list = crate::movegen::legal_moves(&pos);
        // Stage one: every fourth move, half of them above the floor and
        // half below (like good and losing captures); stage two: the rest,
        // below the floor's class but above the losing ones.
        let early = |m: Move| m.raw() % 4 == 0;
        let key = |m: Move| {
            let score = (m.raw().wrapping_mul(2_654_435_761) >> 20) as i32;
            let class = match (early(m), m.raw() % 8 == 0) {
                (true, true) => class::GOOD_TACTICAL,
                (true, false) => class::BAD_CAPTURE,
                (false, _) => class::QUIET,
            };
            order_key(class, score, m)
        };
        assert!(list.iter().filter(|&&m| key(m) >> 60 == class::GOOD_TACTICAL).count() > SORT_AFTER);
        let mut expected: Vec<u64> = list.iter().map(|&m| key(m)).collect();
        expected.sort_unstable_by(|a, b| b.cmp(a));

        let floor = class::GOOD_TACTICAL << 60;
        let mut staged = ScoredMoves::new();
        staged.extend(list.as_slice(), |m| early(m).then(|| key(m)));
        let mut picked: Vec<u64> = std::iter::from_fn(|| staged.pick_at_least(floor).map(|(_, k)| k)).collect();
        assert!(picked.len() > SORT_AFTER, "the stage reached the sorted part");
        assert!(staged.pick_at_least(floor).is_none(), "a refused pick takes nothing");
        staged.extend(list.as_slice(), |m| (!early(m)).then(|| key(m)));
        picked.extend(std::iter::from_fn(|| staged.pick().map(|(_, k)| k)));
        assert_eq!(picked, expected);
    }

    #[test]
    fn keys_order_by_class_then_score_then_move() {
        let m1 = Move::from_raw(5);
        let m2 = Move::from_raw(9);
        assert!(order_key(class::HASH, -100, m1) > order_key(class::GOOD_TACTICAL, 10_000, m2));
        assert!(order_key(class::QUIET, 3, m1) > order_key(class::QUIET, 2, m2));
        assert!(order_key(class::QUIET, 2, m2) > order_key(class::QUIET, 2, m1));
        assert!(order_key(class::BAD_CAPTURE, -1, m1) > order_key(class::BAD_CAPTURE, -900, m2));
    }

    #[test]
    fn history_stays_bounded_and_killers_shift() {
        let m = Move::from_raw(0x0002_1030);
        let mut h = History::new();
        for _ in 0..1000 {
            h.update(m, 400);
        }
        assert!(h.get(m) > 0 && h.get(m) <= HISTORY_MAX);
        for _ in 0..1000 {
            h.update(m, -400);
        }
        assert!(h.get(m) < 0 && h.get(m) >= -HISTORY_MAX);
        let mut k = Killers::new();
        let (a, b) = (Move::from_raw(1), Move::from_raw(2));
        k.record(3, a);
        k.record(3, a);
        assert_eq!(k.get(3), [a, Move::NULL]);
        k.record(3, b);
        assert_eq!(k.get(3), [b, a]);
    }

    #[test]
    fn mvv_lva_prefers_big_victims_and_small_attackers() {
        let pos = Position::from_fen("4k3/8/8/3q4/2P5/8/3Q1r2/4K3 w - - 0 1").unwrap();
        let moves = crate::movegen::legal_moves(&pos);
        let find = |uci: &str| *moves.iter().find(|m| m.uci().as_str() == uci).expect(uci);
        let (pxq, qxq, qxr, kxr, quiet) = (find("c4d5"), find("d2d5"), find("d2f2"), find("e1f2"), find("d2d3"));
        assert!(mvv_lva(pxq) > mvv_lva(qxq) && mvv_lva(qxq) > mvv_lva(qxr) && mvv_lva(qxr) > mvv_lva(quiet));
        assert!(mvv_lva(kxr) < mvv_lva(qxr));
        assert_eq!(qxr.material_gain(), 500);
        assert_eq!(quiet.material_gain(), 0);
    }
}
