//! Pawn structure, cached by pawn key. On a miss the entry is rebuilt from
//! the position's pawn bitboards (never bit by bit from the piece lists):
//! passers, candidates, stationary and backward pawns, isolated pawns,
//! doubled pawns, duos, per-file counts, rammed pairs and unmoved pawns
//! (ARCHITECTURE.md, "Evaluation"). Terms that depend on pieces are applied
//! by the caller from what the entry stores (doubled pawns weigh more with
//! fewer majors).

use super::hash::Keyed;
use super::weights::Weights;
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::tables::RAYS;
use crate::types::{Color, PieceType, Square};

/// What the pawn hash stores for one pawn structure.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct PawnEntry {
    /// The pawn key it was built for.
    pub key: u64,
    /// Structure score per side (good for that side).
    pub score: [i32; 2],
    /// Each side's pawns.
    pub pawns: [Bitboard; 2],
    /// Squares each side's pawns attack.
    pub attacks: [Bitboard; 2],
    /// Each side's passed pawns.
    pub passers: [Bitboard; 2],
    /// Each side's candidate passers.
    pub candidates: [Bitboard; 2],
    /// Each side's stationary pawns (blocked by a pawn directly ahead, or
    /// backward).
    pub stationary: [Bitboard; 2],
    /// Each side's pawns per file (a = 0).
    pub file_counts: [[u8; 8]; 2],
    /// Extra pawns on files (a file with n pawns adds n - 1).
    pub doubled: [u8; 2],
    /// White pawns with a black pawn directly in front.
    pub rammed: u8,
    /// Pawns of either colour still on their start square.
    pub unmoved: u8,
    /// The bishop terms that depend on the pawns alone, per side and per
    /// square shade (0 light, 1 dark), as `pieces::bishop_pawn_terms` gives
    /// them.
    pub bishop_pawns: [[i32; 2]; 2],
    /// What both sides' passers widen the lazy exit's margin by: the sum of
    /// `lazy_passer_margin` by relative rank over every passer.
    pub lazy_passer_margin: i32,
    /// Each side's king shelter (`king::shelter`), for the king square it was
    /// last computed for. Filled in by the evaluation as kings are met (a
    /// new entry has none), so a king that stays put costs one compare.
    pub shelter: [Shelter; 2],
}

/// A cached king shelter value (`king::shelter`) and the king square it is
/// for.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Shelter {
    /// The king's square index plus one; 0 means nothing cached yet.
    king: u8,
    value: i32,
}

impl Shelter {
    /// The value for a king on `k`.
    pub fn new(k: Square, value: i32) -> Shelter {
        Shelter { king: k.index() as u8 + 1, value }
    }

    /// The cached value if it is for a king on `k`.
    #[inline(always)]
    pub fn get(self, k: Square) -> Option<i32> {
        (self.king == k.index() as u8 + 1).then_some(self.value)
    }
}

impl Keyed for PawnEntry {
    fn matches(&self, key: u64) -> bool {
        self.key == key
    }
}

/// Squares strictly ahead of `sq` on its file, for `color`.
#[inline(always)]
pub fn ahead(color: Color, sq: Square) -> Bitboard {
    RAYS[if color == Color::White { 0 } else { 1 }][sq.index()]
}

/// Squares strictly ahead of `sq` on its own and the adjacent files.
#[inline(always)]
pub fn passer_span(color: Color, sq: Square) -> Bitboard {
    let a = ahead(color, sq);
    a | a.east() | a.west()
}

/// The files next to `file`, whole.
#[inline(always)]
pub fn adjacent_files(file: u8) -> Bitboard {
    let f = Bitboard::file(file);
    f.east() | f.west()
}

/// `color`'s index into a White-view square table.
#[inline(always)]
pub fn table_index(color: Color, sq: Square) -> usize {
    match color {
        Color::White => sq.index(),
        Color::Black => sq.flip_rank().index(),
    }
}

/// Fill in the lazy exit's passer margin, last, from the passers already
/// set. It is zero without passers, as in the default entry a pawnless
/// position's key can meet.
fn derive_lazy_passer_margin(e: &mut PawnEntry, w: &Weights) {
    for color in Color::ALL {
        for p in e.passers[color.index()] {
            e.lazy_passer_margin += w.lazy_passer_margin[p.relative_rank(color) as usize];
        }
    }
}

/// Helpers for a candidate: walk back down each adjacent file from the
/// rank before the critical square, counting own pawns, while the walked
/// square is not attacked by an enemy pawn.
fn candidate_helpers(color: Color, own: Bitboard, enemy_attacks: Bitboard, file: u8, critical_rank: u8) -> u32 {
    let mut helpers = 0;
    for f in [file.wrapping_sub(1), file + 1] {
        if f > 7 {
            continue;
        }
        let mut r = critical_rank;
        while r > 1 {
            r -= 1;
            let sq = Square::new(f, if color == Color::White { r } else { 7 - r });
            if enemy_attacks.has(sq) {
                break;
            }
            helpers += own.has(sq) as u32;
        }
    }
    helpers
}

/// Squares strictly behind some square of `b` on its file, for `color`.
#[inline(always)]
fn behind(color: Color, b: Bitboard) -> Bitboard {
    b.forward(color.flip()).fill_forward(color.flip())
}

/// Pawns of `own` that an own pawn on a neighbouring file supports: there
/// is one on that file, and either one stands within a rank or no enemy
/// pawn on that file stands level or behind (relative to `color`). `shift`
/// brings a neighbouring file's squares onto the pawn's file (`west` for
/// the file to the east, `east` for the file to the west).
#[inline(always)]
fn supported_from(color: Color, own: Bitboard, enemy: Bitboard, shift: fn(Bitboard) -> Bitboard) -> Bitboard {
    let there = shift(own.file_fill());
    let near = shift(own | own.north() | own.south());
    let enemy_level_or_behind = shift(enemy.fill_forward(color));
    there & (near | !enemy_level_or_behind)
}

/// Distance in files from `file` to the nearest file of `files` (bit f set:
/// file f has a pawn); `files` is not empty.
#[inline(always)]
fn file_distance(files: u8, file: u8) -> i32 {
    let at_or_below = files & (((1u16 << (file + 1)) - 1) as u8);
    let at_or_above = files >> file;
    let below = if at_or_below != 0 { file as i32 - (7 - at_or_below.leading_zeros() as i32) } else { 8 };
    let above = if at_or_above != 0 { at_or_above.trailing_zeros() as i32 } else { 8 };
    below.min(above)
}

/// The bonus of `color`'s passer on `sq`, given the entry's pawns, attacks,
/// passers and files: by rank, halved with an own pawn directly behind,
/// connected to a passer beside or one rank behind, supported by a pawn,
/// and by its distance in files from the nearest enemy pawn.
#[inline(always)]
fn passer_bonus(w: &Weights, color: Color, e: &PawnEntry, sq: Square) -> i32 {
    let (c, x) = (color.index(), color.flip().index());
    let r = sq.relative_rank(color) as usize;
    let file = sq.file();
    let mut bonus = w.passer_rank[r];
    if (e.pawns[c] & Bitboard::from_square(sq).forward(color.flip())).is_nonempty() {
        bonus /= 2;
    }
    let neighbours = adjacent_files(file) & e.passers[c];
    let level = Bitboard::relative_rank(color, r as u8);
    let one_behind = if r > 0 { Bitboard::relative_rank(color, r as u8 - 1) } else { Bitboard::EMPTY };
    if (neighbours & (level | one_behind)).is_nonempty() {
        bonus += w.passer_connected[r];
    }
    if e.attacks[c].has(sq) {
        bonus += w.passer_supported[r];
    }
    let enemy_files = e.pawns[x].file_fill().0 as u8;
    if enemy_files != 0 {
        bonus += w.passer_outside * file_distance(enemy_files, file);
    }
    bonus
}

/// Is `color`'s pawn on `sq`, not a passer and with no pawn ahead on its
/// file, a candidate? Only if an enemy pawn hits a square ahead of it, and
/// its helpers (see [`candidate_helpers`]) are at least one and at least
/// its sentries (enemy pawns ahead on the neighbouring files).
#[inline(always)]
fn is_candidate(color: Color, own: Bitboard, enemy: Bitboard, enemy_attacks: Bitboard, sq: Square) -> bool {
    let sentries = enemy & passer_span(color, sq) & !Bitboard::file(sq.file());
    // The critical square: the nearest square ahead an enemy pawn hits.
    let hit = ahead(color, sq) & enemy_attacks;
    if hit.is_empty() {
        return false;
    }
    let critical = if color == Color::White { hit.msb() } else { hit.lsb() };
    let helpers = candidate_helpers(color, own, enemy_attacks, sq.file(), critical.relative_rank(color));
    helpers >= 1 && helpers >= sentries.count()
}

/// Build the entry for `pos`'s pawns. The structure terms are counted set
/// by set (a pawn's property is one bitboard expression over all pawns);
/// only the square table, passer bonuses and candidates visit pawns one by
/// one.
pub fn evaluate_pawns(pos: &Position, w: &Weights) -> PawnEntry {
    let mut e = PawnEntry { key: pos.pawn_key(), ..PawnEntry::default() };
    let all = pos.kind_bb(PieceType::Pawn);
    for color in Color::ALL {
        let c = color.index();
        e.pawns[c] = pos.bb(color, PieceType::Pawn);
        e.attacks[c] = e.pawns[c].pawn_attacks(color);
        for f in 0..8 {
            e.file_counts[c][f as usize] = (e.pawns[c] & Bitboard::file(f)).count() as u8;
        }
        // The first rank of a file fill has one bit per occupied file.
        let files = e.pawns[c].file_fill().0 as u8;
        e.doubled[c] = (e.pawns[c].count() - files.count_ones()) as u8;
        e.unmoved += (e.pawns[c] & Bitboard::relative_rank(color, 1)).count() as u8;
    }
    e.rammed = (e.pawns[0].north() & e.pawns[1]).count() as u8;

    for color in Color::ALL {
        let (c, x) = (color.index(), color.flip().index());
        let (own, enemy) = (e.pawns[c], e.pawns[x]);
        let enemy_attacks = e.attacks[x];
        let count = |b: Bitboard| b.count() as i32;
        // Own pawns whose stop square (one step ahead) is in `b`.
        let stop_in = |b: Bitboard| own & b.forward(color.flip());
        let half_open = !enemy.file_fill();

        let mut score = 0;
        for sq in own {
            score += w.pawn_square[table_index(color, sq)];
        }
        // Passers: no enemy pawn ahead on the own or a neighbouring file.
        e.passers[c] = own & !behind(color, enemy | enemy.east() | enemy.west());
        // Backward: on the second or third rank, the stop square empty and
        // hit by an enemy pawn, an own pawn diagonally ahead.
        let low_ranks = Bitboard::relative_rank(color, 1) | Bitboard::relative_rank(color, 2);
        let backward = stop_in(enemy_attacks & !all) & low_ranks & own.pawn_attacks(color.flip());
        score -= w.pawn_backward * count(backward) + w.pawn_backward_half_open * count(backward & half_open);
        e.stationary[c] = backward | stop_in(all);
        let supported =
            supported_from(color, own, enemy, Bitboard::west) | supported_from(color, own, enemy, Bitboard::east);
        let isolated = own & !supported;
        let doubled = own & (own.north().fill_north() | own.south().fill_south());
        score -= w.pawn_isolated * count(isolated)
            + w.pawn_isolated_half_open * count(isolated & half_open)
            + w.pawn_isolated_doubled * count(isolated & doubled);
        score += w.pawn_duo * count(stop_in(e.attacks[c]));

        for sq in e.passers[c] {
            score += passer_bonus(w, color, &e, sq);
        }
        for sq in own & !e.passers[c] & !behind(color, all) {
            if is_candidate(color, own, enemy, enemy_attacks, sq) {
                e.candidates[c] = e.candidates[c].with(sq);
                score += w.candidate_rank[sq.relative_rank(color) as usize];
            }
        }
        e.score[c] = score;
    }
    for color in Color::ALL {
        e.bishop_pawns[color.index()] = [0, 1].map(|shade| super::pieces::bishop_pawn_terms(w, &e, color, shade));
    }
    derive_lazy_passer_margin(&mut e, w);
    e
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::PAWN_ATTACKS;

    fn entry(fen: &str) -> PawnEntry {
        evaluate_pawns(&Position::from_fen(fen).unwrap(), &Weights::default())
    }

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn passers_and_stationary() {
        let e = entry("4k3/8/8/3p4/8/8/P3P3/4K3 w - - 0 1");
        assert!(e.passers[0].has(sq("a2")));
        assert!(!e.passers[0].has(sq("e2")), "d5 guards the e-file span");
        assert!(!e.passers[1].has(sq("d5")), "the e2 pawn guards the d-file span");
        let e = entry("4k3/8/8/4p3/4P3/8/8/4K3 w - - 0 1");
        assert!(e.stationary[0].has(sq("e4")) && e.stationary[1].has(sq("e5")));
        assert_eq!(e.rammed, 1);
    }

    #[test]
    fn backward_isolated_doubled() {
        // d3 is backward: c4 stands diagonally ahead, e4... stop square d4
        // hit by e5.
        let e = entry("4k3/8/8/4p3/2P5/3P4/8/4K3 w - - 0 1");
        assert!(e.stationary[0].has(sq("d3")));
        let e = entry("4k3/8/8/8/8/P7/P7/4K3 w - - 0 1");
        assert_eq!(e.doubled[0], 1);
        assert_eq!(e.file_counts[0][0], 2);
        let w = Weights::default();
        assert!(e.score[0] < 2 * w.passer_rank[2], "isolated doubled pawns are penalised");
    }

    /// The pawn-by-pawn form the set-wise first pass of [`evaluate_pawns`]
    /// replaced, kept as its reference: every property decided for one pawn
    /// at a time, an adjacent file's support found by walking its ranks.
    fn evaluate_pawns_by_pawn(pos: &Position, w: &Weights) -> PawnEntry {
        let mut e = PawnEntry { key: pos.pawn_key(), ..PawnEntry::default() };
        let all = pos.kind_bb(PieceType::Pawn);
        for color in Color::ALL {
            let c = color.index();
            e.pawns[c] = pos.bb(color, PieceType::Pawn);
            e.attacks[c] = e.pawns[c].pawn_attacks(color);
            for f in 0..8 {
                e.file_counts[c][f as usize] = (e.pawns[c] & Bitboard::file(f)).count() as u8;
            }
            e.doubled[c] = e.file_counts[c].iter().map(|&n| n.saturating_sub(1)).sum();
            e.unmoved += (e.pawns[c] & Bitboard::relative_rank(color, 1)).count() as u8;
        }
        e.rammed = (e.pawns[0].north() & e.pawns[1]).count() as u8;
        for color in Color::ALL {
            let (c, x) = (color.index(), color.flip().index());
            let (own, enemy) = (e.pawns[c], e.pawns[x]);
            let enemy_attacks = e.attacks[x];
            let step = if color == Color::White { -8 } else { 8 };
            let mut score = 0;
            for sq in own {
                let r = sq.relative_rank(color);
                let file = sq.file();
                let stop = Square::from_index((sq.index() as i32 + step) as usize);
                let half_open = (enemy & Bitboard::file(file)).is_empty();
                score += w.pawn_square[table_index(color, sq)];
                if (enemy & passer_span(color, sq)).is_empty() {
                    e.passers[c] = e.passers[c].with(sq);
                }
                let backward = enemy_attacks.has(stop)
                    && !all.has(stop)
                    && (1..=2).contains(&r)
                    && (PAWN_ATTACKS[c][sq.index()] & own).is_nonempty();
                if backward {
                    score -= w.pawn_backward + if half_open { w.pawn_backward_half_open } else { 0 };
                }
                if backward || all.has(stop) {
                    e.stationary[c] = e.stationary[c].with(sq);
                }
                let supported = [file.wrapping_sub(1), file + 1]
                    .into_iter()
                    .any(|f| f < 8 && file_supports_by_walking(color, own, enemy, sq, f));
                if !supported {
                    score -= w.pawn_isolated;
                    if half_open {
                        score -= w.pawn_isolated_half_open;
                    }
                    if e.file_counts[c][file as usize] > 1 {
                        score -= w.pawn_isolated_doubled;
                    }
                }
                if e.attacks[c].has(stop) {
                    score += w.pawn_duo;
                }
            }
            // The second pass is the production one: only the first pass
            // changed form.
            for sq in own {
                if e.passers[c].has(sq) {
                    score += passer_bonus(w, color, &e, sq);
                } else if (all & ahead(color, sq)).is_empty() && is_candidate(color, own, enemy, enemy_attacks, sq) {
                    e.candidates[c] = e.candidates[c].with(sq);
                    score += w.candidate_rank[sq.relative_rank(color) as usize];
                }
            }
            e.score[c] = score;
        }
        for color in Color::ALL {
            e.bishop_pawns[color.index()] =
                [0, 1].map(|shade| super::super::pieces::bishop_pawn_terms(w, &e, color, shade));
        }
        derive_lazy_passer_margin(&mut e, w);
        e
    }

    /// The nearest enemy file by bit tricks equals the scan over files.
    #[test]
    fn file_distance_is_the_nearest_file() {
        for files in 1..=255u8 {
            for file in 0..8u8 {
                let scan = (0..8u8).filter(|&f| files & (1 << f) != 0).map(|f| (f as i32 - file as i32).abs()).min();
                assert_eq!(Some(file_distance(files, file)), scan, "{files:#010b} {file}");
            }
        }
    }

    /// Does an own pawn on the adjacent file `f` support the pawn on `sq`?
    /// One within a rank of it does; otherwise any does when no enemy pawn
    /// on that file stands level or behind.
    fn file_supports_by_walking(color: Color, own: Bitboard, enemy: Bitboard, sq: Square, f: u8) -> bool {
        let on_file = own & Bitboard::file(f);
        if on_file.is_empty() {
            return false;
        }
        let r = sq.relative_rank(color);
        let near = on_file.iter().any(|p| (p.relative_rank(color) as i32 - r as i32).abs() <= 1);
        let mut level_or_behind = Bitboard::EMPTY;
        for rank in 0..=r {
            level_or_behind |= Bitboard::relative_rank(color, rank);
        }
        near || (enemy & level_or_behind & Bitboard::file(f)).is_empty()
    }

    /// Random positions and the real games' positions they start from: the
    /// set-wise entry equals the pawn-by-pawn one, field by field.
    #[test]
    fn set_wise_entry_equals_the_pawn_by_pawn_one() {
        let w = Weights::default();
        let mut positions = crate::tools::randpos::random_positions(6000, 0x5A9F);
        positions.extend(crate::tools::randpos::playout_starts().iter().cloned());
        let (mut passers, mut isolated_or_backward, mut candidates) = (0, 0, 0);
        for pos in &positions {
            let (fast, slow) = (evaluate_pawns(pos, &w), evaluate_pawns_by_pawn(pos, &w));
            assert_eq!(fast, slow, "{}", pos.to_fen());
            passers += fast.passers.iter().map(|b| b.count()).sum::<u32>();
            candidates += fast.candidates.iter().map(|b| b.count()).sum::<u32>();
            isolated_or_backward += fast.stationary.iter().map(|b| b.count()).sum::<u32>();
        }
        assert!(positions.len() > 6000, "{} positions", positions.len());
        assert!(
            passers > 5000 && candidates > 500 && isolated_or_backward > 5000,
            "{passers} {candidates} {isolated_or_backward}"
        );
    }

    /// The lazy passer margin is the sum the lazy exit took over the
    /// passers; a pawnless position's entry is the default one (with its
    /// key), which such a position's key can meet in a table.
    #[test]
    fn lazy_passer_margin_sums_the_passers() {
        let w = Weights::default();
        let mut nonzero = 0;
        for pos in crate::tools::randpos::random_positions(2000, 0x0B05) {
            let e = evaluate_pawns(&pos, &w);
            let mut margin = 0;
            for color in Color::ALL {
                for p in e.passers[color.index()] {
                    margin += w.lazy_passer_margin[p.relative_rank(color) as usize];
                }
            }
            assert_eq!(e.lazy_passer_margin, margin, "{}", pos.to_fen());
            nonzero += (margin != 0) as u32;
        }
        assert!(nonzero > 500, "{nonzero}");
        let pawnless = Position::from_fen("4k3/8/8/3n4/8/2B5/8/R3K3 w - - 0 1").unwrap();
        assert_eq!(evaluate_pawns(&pawnless, &w), PawnEntry { key: pawnless.pawn_key(), ..PawnEntry::default() });
    }

    #[test]
    fn symmetric_under_colour_flip() {
        let a = entry("4k3/pp3p2/2p5/3P4/8/5P2/PP6/4K3 w - - 0 1");
        let b = entry("4k3/pp6/5p2/8/3p4/2P5/PP3P2/4K3 b - - 0 1");
        assert_eq!(a.score[0], b.score[1]);
        assert_eq!(a.score[1], b.score[0]);
        assert_eq!(a.passers[0].count(), b.passers[1].count());
    }
}
