//! The old mobility: walk each ray square by square on the 0x88 board. On
//! every visited square the piece first ORs its current bit into its own
//! colour's attack word, then a per-colour case table indexed by the piece
//! code there decides what happens (`Case` below; the table is in
//! ARCHITECTURE.md, "Evaluation"). The current bit starts as
//! the direct bit and becomes the x-ray bit after the first pass-through
//! blocker; squares past it keep counting under the same rules. That
//! per-square table dispatch is the cost the migration removes.
//!
//! With `MIRROR` (only in mixed per-piece configurations) the walk also
//! records its squares in the accumulators.

use super::{MobilityInputs, PieceMobility, THROUGH_ENEMY, THROUGH_FRIEND};
use crate::bitboard::Bitboard;
use crate::eval::attacks::{
    Accumulators, BISHOP_XRAY, MINOR_BIT, QUEEN_BIT, QUEEN_XRAY, ROOK_BIT, ROOK_XRAY, UNSAFE_FOR_MINOR,
    UNSAFE_FOR_QUEEN, UNSAFE_FOR_ROOK,
};
use crate::position::Position;
use crate::tables::{ATTACK_VECTOR, AV_KING, BISHOP_DELTAS, KNIGHT_DELTAS, ROOK_DELTAS};
use crate::types::{Color, Piece, PieceType, Square, Square88};

/// What a walking piece does on a square, by what stands there.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Case {
    /// Empty: count if safe, continue.
    Empty,
    /// Count if safe, stop.
    CountIfSafeStop,
    /// Count, stop.
    CountStop,
    /// Count, continue as x-ray (an enemy piece the walk passes).
    CountThrough,
    /// No count, continue as x-ray (a friendly battery partner).
    FriendThrough,
    /// A friendly rook met by a rook: connected bonus, continue as x-ray.
    FriendRook,
    /// A friendly pawn met by a bishop: count if it is not stationary, stop.
    FriendPawn,
    /// No count, stop.
    Stop,
}

/// Build a per-colour case table: `enemy[k]` / `friend[k]` for each kind.
const fn table(enemy: [Case; 6], friend: [Case; 6]) -> [[Case; 14]; 2] {
    let mut t = [[Case::Stop; 14]; 2];
    let mut c = 0;
    while c < 2 {
        t[c][0] = Case::Empty;
        let mut k = 0;
        while k < 6 {
            // Piece code (k + 1) << 1 | colour; the walker's colour is c.
            t[c][((k + 1) << 1) | c] = friend[k];
            t[c][((k + 1) << 1) | (c ^ 1)] = enemy[k];
            k += 1;
        }
        c += 1;
    }
    t
}

use Case::*;

// Enemy / friendly pieces in order P, N, B, R, Q, K.
static ROOK_CASES: [[Case; 14]; 2] = table(
    [CountIfSafeStop, CountIfSafeStop, CountIfSafeStop, CountStop, CountThrough, CountThrough],
    [Stop, Stop, Stop, FriendRook, FriendThrough, Stop],
);
static BISHOP_CASES: [[Case; 14]; 2] = table(
    [CountIfSafeStop, CountStop, CountStop, CountThrough, CountThrough, CountThrough],
    [FriendPawn, Stop, FriendThrough, Stop, FriendThrough, Stop],
);
/// The queen on a rank or file: friendly rooks and queens are passed.
static QUEEN_LINE_CASES: [[Case; 14]; 2] = table(
    [CountIfSafeStop, CountIfSafeStop, CountIfSafeStop, CountIfSafeStop, CountStop, CountStop],
    [Stop, Stop, Stop, FriendThrough, FriendThrough, Stop],
);
/// The queen on a diagonal: friendly bishops and queens are passed.
static QUEEN_DIAGONAL_CASES: [[Case; 14]; 2] = table(
    [CountIfSafeStop, CountIfSafeStop, CountIfSafeStop, CountIfSafeStop, CountStop, CountStop],
    [Stop, Stop, FriendThrough, Stop, FriendThrough, Stop],
);

#[inline(always)]
fn safe(pos: &Position, sq: Square88, enemy: Color, mask: u32) -> bool {
    pos.attack_word(sq, enemy) & mask == 0
}

/// Walk one ray; returns the mobility counted along it.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn walk_ray<const MIRROR: bool>(
    pos: &mut Position,
    acc: &mut Accumulators,
    inp: &MobilityInputs,
    color: Color,
    from: Square88,
    delta: i8,
    cases: &[Case; 14],
    bits: (u32, u32),
    unsafe_mask: u32,
    m: &mut PieceMobility,
) -> u8 {
    let enemy = color.flip();
    let enemy_king = pos.king_square88(enemy);
    let mut bit = bits.0;
    let mut count = 0u8;
    let mut to = from.offset(delta);
    while to.is_on_board() {
        pos.add_attack_bits(to, color, bit);
        if MIRROR {
            acc.record(color, bit, Bitboard::from_square(to.to_64()));
        }
        if bits.0 == QUEEN_BIT && ATTACK_VECTOR[Square88::diff_index(enemy_king, to)] & AV_KING != 0 {
            m.king_walks += 1;
        }
        let piece = pos.piece_at(to);
        match cases[piece.index()] {
            Empty => count += safe(pos, to, enemy, unsafe_mask) as u8,
            CountIfSafeStop => {
                count += safe(pos, to, enemy, unsafe_mask) as u8;
                break;
            }
            CountStop => {
                count += 1;
                break;
            }
            CountThrough => {
                count += 1;
                bit = bits.1;
                m.through |= THROUGH_ENEMY;
            }
            FriendThrough => {
                bit = bits.1;
                m.through |= THROUGH_FRIEND;
            }
            FriendRook => {
                if to.rank() == from.rank() {
                    m.connected_rank += 1;
                } else {
                    m.connected_file += 1;
                }
                bit = bits.1;
                m.through |= THROUGH_FRIEND;
            }
            FriendPawn => {
                count += !inp.stationary[color.index()].has(to.to_64()) as u8;
                break;
            }
            Stop => break,
        }
        to = to.offset(delta);
    }
    count
}

/// Knights: eight targets, minor bit on each.
pub fn knight<const MIRROR: bool>(
    pos: &mut Position,
    acc: &mut Accumulators,
    _: &MobilityInputs,
    color: Color,
    sq: Square,
) -> PieceMobility {
    let from = sq.to_88();
    let enemy = color.flip();
    let mut m = PieceMobility::default();
    for &d in &KNIGHT_DELTAS {
        let to = from.offset(d);
        if !to.is_on_board() {
            continue;
        }
        pos.add_attack_bits(to, color, MINOR_BIT);
        if MIRROR {
            acc.record(color, MINOR_BIT, Bitboard::from_square(to.to_64()));
        }
        let p = pos.piece_at(to);
        if p.is_empty() || p == Piece::new(enemy, PieceType::Pawn) {
            m.mobility += safe(pos, to, enemy, UNSAFE_FOR_MINOR) as u8;
        } else if p.color() == enemy {
            m.mobility += 1;
        }
    }
    m
}

/// Bishops: walk each diagonal, classifying every square by the case table.
pub fn bishop<const MIRROR: bool>(
    pos: &mut Position,
    acc: &mut Accumulators,
    inp: &MobilityInputs,
    color: Color,
    sq: Square,
) -> PieceMobility {
    let from = sq.to_88();
    let cases = &BISHOP_CASES[color.index()];
    let mut m = PieceMobility::default();
    for &d in &BISHOP_DELTAS {
        let n = walk_ray::<MIRROR>(
            pos,
            acc,
            inp,
            color,
            from,
            d,
            cases,
            (MINOR_BIT, BISHOP_XRAY),
            UNSAFE_FOR_MINOR,
            &mut m,
        );
        m.mobility += n;
        m.best_ray = m.best_ray.max(n);
    }
    m
}

/// Rooks: walk each line, classifying every square by the case table.
pub fn rook<const MIRROR: bool>(
    pos: &mut Position,
    acc: &mut Accumulators,
    inp: &MobilityInputs,
    color: Color,
    sq: Square,
) -> PieceMobility {
    let from = sq.to_88();
    let cases = &ROOK_CASES[color.index()];
    let mut m = PieceMobility::default();
    for &d in &ROOK_DELTAS {
        let n =
            walk_ray::<MIRROR>(pos, acc, inp, color, from, d, cases, (ROOK_BIT, ROOK_XRAY), UNSAFE_FOR_ROOK, &mut m);
        m.mobility += n;
        m.best_ray = m.best_ray.max(n);
    }
    m
}

/// Queens: walk all eight rays, classifying every square by the case table.
pub fn queen<const MIRROR: bool>(
    pos: &mut Position,
    acc: &mut Accumulators,
    inp: &MobilityInputs,
    color: Color,
    sq: Square,
) -> PieceMobility {
    let from = sq.to_88();
    let mut m = PieceMobility::default();
    let lines = &QUEEN_LINE_CASES[color.index()];
    let diagonals = &QUEEN_DIAGONAL_CASES[color.index()];
    for &d in &ROOK_DELTAS {
        m.mobility +=
            walk_ray::<MIRROR>(pos, acc, inp, color, from, d, lines, (QUEEN_BIT, QUEEN_XRAY), UNSAFE_FOR_QUEEN, &mut m);
    }
    for &d in &BISHOP_DELTAS {
        m.mobility += walk_ray::<MIRROR>(
            pos,
            acc,
            inp,
            color,
            from,
            d,
            diagonals,
            (QUEEN_BIT, QUEEN_XRAY),
            UNSAFE_FOR_QUEEN,
            &mut m,
        );
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_tables_follow_design_4_1() {
        let w = Color::White.index();
        let p = |c, k| Piece::new(c, k).index();
        use Color::{Black as B, White as W};
        use PieceType::*;
        assert_eq!(ROOK_CASES[w][0], Empty);
        assert_eq!(ROOK_CASES[w][p(B, Queen)], CountThrough);
        assert_eq!(ROOK_CASES[w][p(B, Rook)], CountStop);
        assert_eq!(ROOK_CASES[w][p(W, Rook)], FriendRook);
        assert_eq!(ROOK_CASES[w][p(W, King)], Stop);
        assert_eq!(BISHOP_CASES[w][p(W, Pawn)], FriendPawn);
        assert_eq!(BISHOP_CASES[w][p(B, Rook)], CountThrough);
        assert_eq!(BISHOP_CASES[w][p(B, Knight)], CountStop);
        assert_eq!(QUEEN_LINE_CASES[w][p(W, Bishop)], Stop);
        assert_eq!(QUEEN_DIAGONAL_CASES[w][p(W, Bishop)], FriendThrough);
        assert_eq!(QUEEN_LINE_CASES[w][p(B, King)], CountStop);
        let b = Color::Black.index();
        assert_eq!(ROOK_CASES[b][p(W, Queen)], CountThrough);
        assert_eq!(ROOK_CASES[b][p(B, Rook)], FriendRook);
    }
}
