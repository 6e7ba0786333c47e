//! King evaluation (ARCHITECTURE.md, "Evaluation"): with enough enemy
//! material, a danger counter built from the ring around the king (attacks by
//! class, the three squares in front, empty and enemy-occupied squares,
//! squares only the king defends, x-rays), open files, pawn storm and shield,
//! the attacker pattern, flight squares and the pointing count of the defect
//! geometry, mapped through a steep saturating table and scaled by the enemy
//! army. Uncastled kings pay for minors at home and lost rights; in the
//! endgame the king centralises, escorts passers and races to the pawns.
//!
//! All attack questions go through [`AttackView`], so this code is the same
//! for attack words and accumulators.

use super::attacks::{AttackView, DIRECT_BITS, KING_BIT, XRAY_BITS};
use super::material::MaterialEntry;
use super::pawns::{table_index, PawnEntry};
use super::trace::Tracer;
use super::weights::Weights;
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::tables::{distance, KING_ATTACKS};
use crate::types::{CastleRights, Color, PieceType, Square};

/// Enemy army (in pawns) from which the danger counter is used.
pub const DANGER_ARMY: i32 = 10;
/// Enemy army from which the king's square itself adds danger.
pub const SQUARE_DANGER_ARMY: i32 = 20;

/// The inputs of one side's danger counter (reported by traces, so
/// differences between mobility implementations can be classified).
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct KingInputs {
    /// The danger counter, before it maps through the penalty table.
    pub counter: i32,
    /// Ring squares the enemy attacks directly.
    pub ring_attacked: i32,
    /// Ring squares the enemy attacks through a piece.
    pub ring_xray: i32,
    /// Attacker classes hitting the ring (bits: pawn 1, minor 2, rook 4,
    /// queen 8, king 16).
    pub pattern: u8,
    /// The king's flight squares: neighbours not own-occupied and not
    /// attacked.
    pub flights: u8,
}

/// The king's ring: its neighbours plus the squares two files left and right.
#[inline(always)]
pub fn ring(k: Square) -> Bitboard {
    RINGS[k.index()]
}

/// [`ring`] of every square, built at compile time: the danger counter
/// reads a king's ring with one load instead of four shifts and masks.
static RINGS: [Bitboard; 64] = {
    let mut t = [Bitboard::EMPTY; 64];
    let mut i = 0;
    while i < 64 {
        let b = Bitboard(1 << i);
        t[i] = Bitboard(KING_ATTACKS[i].0 | b.east().east().0 | b.west().west().0);
        i += 1;
    }
    t
};

/// `FRONTS[colour][k]`: the squares next to a king on `k` on the rank in
/// front of it (from `colour`'s side; none on its last rank), built at
/// compile time so the danger counter does not branch on the rank and
/// shift a rank mask on every call.
static FRONTS: [[Bitboard; 64]; 2] = {
    let mut t = [[Bitboard::EMPTY; 64]; 2];
    let mut i = 0;
    while i < 64 {
        let sq = Square::from_index(i);
        let colors = [Color::White, Color::Black];
        let mut c = 0;
        while c < 2 {
            let forward_rank = sq.relative_rank(colors[c]) + 1;
            if forward_rank < 8 {
                t[c][i] = Bitboard(KING_ATTACKS[i].0 & Bitboard::relative_rank(colors[c], forward_rank).0);
            }
            c += 1;
        }
        i += 1;
    }
    t
};

/// The king danger weights scaled by every enemy army (0 to 31 pawns):
/// `king_danger[counter] * army / 31`, built once per evaluator. A king in
/// danger then reads its penalty with one load instead of a multiply and a
/// signed division by 31 (same integer arithmetic, so the same values).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScaledKingDanger([[i32; 64]; 32]);

impl ScaledKingDanger {
    pub fn new(w: &Weights) -> ScaledKingDanger {
        ScaledKingDanger(std::array::from_fn(|army| w.king_danger.map(|v| v * army as i32 / 31)))
    }

    /// The penalty for a danger counter of `index` ([`danger`]) against an
    /// enemy army of `enemy_army` (0 to 31, as
    /// [`super::material::MaterialEntry::army`] holds).
    #[inline(always)]
    pub fn penalty(&self, enemy_army: i32, index: usize) -> i32 {
        self.0[enemy_army as usize][index]
    }
}

/// The danger counter of `color`'s king, clamped to an index of
/// `king_danger` (0 to 63), with an enemy army of `enemy_army` (at least
/// [`DANGER_ARMY`]). `base` is what the pieces' geometry and the pawns
/// add: half the pointing count plus [`shelter`] (the evaluation keeps the
/// shelter in the pawn entry). Only a tracer is told the inputs.
pub fn danger<V: AttackView, T: Tracer>(
    pos: &Position,
    view: &V,
    w: &Weights,
    enemy_army: i32,
    color: Color,
    base: i32,
    t: &mut T,
) -> usize {
    let enemy = color.flip();
    let k = pos.king_square(color);
    let mut counter = base;
    if enemy_army >= SQUARE_DANGER_ARMY {
        counter += w.king_square_danger[table_index(color, k)];
    }

    let front = FRONTS[color.index()][k.index()];
    let ring = ring(k);
    let attacked = view.attacked(pos, enemy, ring, DIRECT_BITS);
    let xrayed = view.attacked(pos, enemy, ring, XRAY_BITS);
    // Ring squares only the king defends: attacked, next to the king, and
    // hit by no other own piece.
    let defended_by_others = view.attacked(pos, color, ring, DIRECT_BITS & !KING_BIT);
    let king_alone = attacked & KING_ATTACKS[k.index()] & !defended_by_others;
    let count = |b: Bitboard| b.count() as i32;
    counter += w.king_ring_attacked * count(attacked)
        + w.king_ring_front * count(attacked & front)
        + w.king_ring_empty * count(attacked & !pos.occupied())
        + w.king_ring_enemy_piece * count(attacked & pos.color_bb(enemy))
        + w.king_ring_king_alone * count(king_alone)
        + w.king_ring_xray * count(xrayed);
    let pattern = view.classes(pos, enemy, ring);

    counter = counter.max(0);
    let pattern_weight = w.king_attack_pattern[pattern as usize];
    counter += pattern_weight;

    // The zone lies inside the ring, so the ring's attacked squares answer.
    let zone = KING_ATTACKS[k.index()] & !pos.color_bb(color);
    let flights = (zone & !attacked).count() as u8;
    if pattern_weight >= w.king_strong_pattern && flights <= 1 {
        counter += w.king_few_flights;
    }
    if T::ON {
        let inputs = KingInputs { counter, ring_attacked: count(attacked), ring_xray: count(xrayed), pattern, flights };
        t.king(color, inputs);
    }
    counter.clamp(0, 63) as usize
}

/// The danger the pawns around `color`'s king on `k` add: open and
/// half-open files next to it, the enemy's pawn storm and the own pawn
/// shield. Depends on the pawns and the king square only.
pub fn shelter(w: &Weights, pawns: &PawnEntry, color: Color, k: Square) -> i32 {
    let (c, e) = (color.index(), color.flip().index());
    let mut counter = 0;
    let kf = k.file() as usize;
    let kr = k.relative_rank(color);
    for f in kf.saturating_sub(1)..=(kf + 1).min(7) {
        if pawns.file_counts[c][f] == 0 {
            counter += if pawns.file_counts[e][f] == 0 { w.king_open_file } else { w.king_half_open_file };
        }
    }
    let kfile = Bitboard::file(kf as u8);
    let files = kfile | kfile.east() | kfile.west();
    for p in pawns.pawns[e] & files {
        let pr = p.relative_rank(color);
        if pr > kr {
            counter += w.king_storm[((pr - kr) as usize).min(7)];
        }
    }
    if kr < 7 {
        let own = pawns.pawns[c] & files;
        counter -= w.king_shield_near * (own & Bitboard::relative_rank(color, kr + 1)).count() as i32;
        if kr < 6 {
            counter -= w.king_shield_far * (own & Bitboard::relative_rank(color, kr + 2)).count() as i32;
        }
    }
    counter
}

/// Penalties for an uncastled king while the enemy still has pieces.
pub fn uncastled(pos: &Position, w: &Weights, mat: &MaterialEntry, color: Color) -> i32 {
    if mat.army[color.flip().index()] < DANGER_ARMY {
        return 0;
    }
    let back = if color == Color::White { 0 } else { 7 };
    if pos.king_square(color) != Square::new(4, back) {
        return 0;
    }
    let minors = pos.bb(color, PieceType::Knight) | pos.bb(color, PieceType::Bishop);
    let minors_home = (minors & super::pieces::MINOR_HOMES[color.index()]).count() as i32;
    let mut score = -w.king_uncastled_minor_home * minors_home;
    if pos.castling().bits() & CastleRights::either(color) == 0 {
        score -= w.king_lost_castling;
    }
    score
}

/// The king centralisation weights scaled by every enemy army (0 to 31
/// pawns): `king_center[sq] * (31 - army) / 31`, built once per evaluator.
/// A king reads its centralisation with one load instead of a multiply and
/// a signed division by 31 (same integer arithmetic, so the same values).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScaledKingCenter([[i32; 64]; 32]);

impl ScaledKingCenter {
    pub fn new(w: &Weights) -> ScaledKingCenter {
        ScaledKingCenter(std::array::from_fn(|army| w.king_center.map(|v| v * (31 - army as i32) / 31)))
    }

    /// The centralisation of a king on `index` (a White-view table index)
    /// against an enemy army of `enemy_army` (0 to 31, as
    /// [`super::material::MaterialEntry::army`] holds).
    #[inline(always)]
    pub fn value(&self, enemy_army: i32, index: usize) -> i32 {
        self.0[enemy_army as usize][index]
    }
}

/// Endgame king terms: centralisation and passer escort scaled up as the
/// enemy army shrinks, and the king race to the pawns in pawn endings.
/// `center` is the evaluator's [`ScaledKingCenter`].
#[inline(always)]
pub fn endgame(
    pos: &Position,
    w: &Weights,
    center: &ScaledKingCenter,
    pawns: &PawnEntry,
    mat: &MaterialEntry,
    color: Color,
) -> i32 {
    let enemy_army = mat.army[color.flip().index()];
    if enemy_army == 31 {
        // A full enemy army: every term is scaled to nothing (the pawn
        // race needs both armies gone).
        return 0;
    }
    let score = center.value(enemy_army, table_index(color, pos.king_square(color)));
    // The common case, no passers and no pawn ending, stays inline.
    if pawns.passers[color.index()].is_empty() && (mat.army[color.index()] != 0 || enemy_army != 0) {
        return score;
    }
    score + passer_terms(pos, w, pawns, mat, color)
}

/// [`endgame`]'s passer escort and pawn race, once the enemy army is short
/// of full and there are passers or no army on either side.
fn passer_terms(pos: &Position, w: &Weights, pawns: &PawnEntry, mat: &MaterialEntry, color: Color) -> i32 {
    let enemy = color.flip();
    let enemy_army = mat.army[enemy.index()];
    let k = pos.king_square(color);
    let ek = pos.king_square(enemy);
    let weight = 31 - enemy_army;
    let mut escort = 0;
    for p in pawns.passers[color.index()] {
        let stop = super::pieces::forward_square(color, p).unwrap_or(p);
        let lead = distance(ek, stop) as i32 - distance(k, stop) as i32;
        if lead > 0 {
            escort += w.king_passer_escort * lead;
        }
    }
    let mut score = escort * weight / 31;
    if mat.army[color.index()] == 0 && enemy_army == 0 {
        let all = pos.kind_bb(PieceType::Pawn);
        let n = all.count() as i32;
        if n > 0 {
            let lead: i32 = all.iter().map(|p| distance(ek, p) as i32 - distance(k, p) as i32).sum();
            score += w.king_pawn_race * lead / n;
        }
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The compile-time rings and fronts are the shifts and masks they
    /// replace.
    #[test]
    fn ring_and_front_tables_match_their_definitions() {
        for k in Square::all() {
            let b = Bitboard::from_square(k);
            assert_eq!(ring(k), KING_ATTACKS[k.index()] | b.east().east() | b.west().west(), "{k}");
            for color in Color::ALL {
                let forward_rank = k.relative_rank(color) + 1;
                let front = if forward_rank < 8 {
                    KING_ATTACKS[k.index()] & Bitboard::relative_rank(color, forward_rank)
                } else {
                    Bitboard::EMPTY
                };
                assert_eq!(FRONTS[color.index()][k.index()], front, "{k} {color:?}");
            }
        }
    }
}
