//! Knights, bishops, rooks and queens: the non-mobility terms (outposts,
//! tropism, files, passers on the file, good and bad bishops, closed
//! positions, early queen), and the scoring of what the mobility routines
//! report. Read-only over the position and the pawn entry: identical for
//! every mobility implementation.

use super::mobility::PieceMobility;
use super::pawns::{ahead, table_index, PawnEntry};
use super::weights::Weights;
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::tables::distance;
use crate::types::{CastleRights, Color, PieceType, Square};

/// Closedness: rammed pairs plus half the unmoved pawns, capped at 15.
#[inline(always)]
pub fn closedness(pawns: &PawnEntry) -> usize {
    (pawns.rammed as usize + pawns.unmoved as usize / 2).min(15)
}

/// Squares ahead of `sq` on the adjacent files (where enemy pawns could
/// come from to attack it).
#[inline(always)]
fn adjacent_ahead(color: Color, sq: Square) -> Bitboard {
    let a = ahead(color, sq);
    a.east() | a.west()
}

/// The square one step forward for `color`, if on the board.
#[inline(always)]
pub fn forward_square(color: Color, sq: Square) -> Option<Square> {
    let i = sq.index() as i32 + if color == Color::White { -8 } else { 8 };
    (0..64).contains(&i).then(|| Square::from_index(i as usize))
}

#[inline(always)]
pub fn knight(pos: &Position, w: &Weights, pawns: &PawnEntry, color: Color, sq: Square) -> i32 {
    let (c, e) = (color.index(), color.flip().index());
    let enemy_king = pos.king_square(color.flip());
    let mut score = w.knight_square[table_index(color, sq)] + w.knight_closed[closedness(pawns)];
    let enemy_mobile_pawns = pawns.pawns[e] & !pawns.stationary[e];
    let rank = sq.relative_rank(color);
    if (3..=6).contains(&rank) && (enemy_mobile_pawns & adjacent_ahead(color, sq)).is_empty() {
        let mut outpost = w.knight_outpost[distance(sq, enemy_king) as usize];
        if pawns.attacks[c].has(sq) {
            outpost += w.knight_outpost_supported;
        }
        if pos.bishops_on_shade(color.flip(), sq.shade()) > 0 {
            outpost /= 2;
        }
        score += outpost;
    } else {
        score += w.knight_tropism[distance(sq, enemy_king) as usize];
    }
    if forward_square(color, sq).is_some_and(|f| (pawns.pawns[e] & pawns.stationary[e]).has(f)) {
        score += w.knight_blockade;
    }
    if pawns.file_counts[c][sq.file() as usize] == 0 {
        score += w.knight_no_own_pawn_on_file;
    }
    score
}

pub fn knight_mobility(w: &Weights, m: &PieceMobility) -> i32 {
    w.knight_mobility[(m.mobility as usize).min(8)]
}

/// The part of a bishop's score that depends on the pawns alone, for a
/// bishop of `color` on squares of `shade` (0 light, 1 dark): own stationary
/// pawns on its colour by square, own transient pawns on its colour, enemy
/// transient pawns defended on its colour, closedness. Kept in the pawn
/// hash entry ([`PawnEntry::bishop_pawns`]), so an evaluation reads it.
pub fn bishop_pawn_terms(w: &Weights, pawns: &PawnEntry, color: Color, shade: usize) -> i32 {
    let (c, e) = (color.index(), color.flip().index());
    let shade = if shade == 0 { Bitboard::LIGHT_SQUARES } else { Bitboard::DARK_SQUARES };
    let mut score = 0;
    for p in pawns.pawns[c] & pawns.stationary[c] & shade {
        score -= w.bishop_bad_pawn_square[table_index(color, p)];
    }
    score -= w.bishop_own_transient_pawn * (pawns.pawns[c] & !pawns.stationary[c] & shade).count() as i32;
    let defended_enemy_transient = pawns.pawns[e] & !pawns.stationary[e] & pawns.attacks[e] & shade;
    score -= w.bishop_defended_enemy_transient_pawn * defended_enemy_transient.count() as i32;
    score - w.bishop_closed * closedness(pawns) as i32
}

#[inline(always)]
pub fn bishop(pos: &Position, w: &Weights, pawns: &PawnEntry, color: Color, sq: Square) -> i32 {
    let e = color.flip().index();
    let mut score = w.bishop_square[table_index(color, sq)] + pawns.bishop_pawns[color.index()][sq.shade()];
    let rank = sq.relative_rank(color);
    if (3..=6).contains(&rank) && (pawns.pawns[e] & adjacent_ahead(color, sq)).is_empty() {
        score += w.bishop_outpost[distance(sq, pos.king_square(color.flip())) as usize];
    }
    score
}

/// Bishop mobility and best single ray.
pub fn bishop_mobility(w: &Weights, m: &PieceMobility) -> (i32, i32) {
    (w.bishop_mobility[(m.mobility as usize).min(13)], w.bishop_best_ray[(m.best_ray as usize).min(7)])
}

#[inline(always)]
pub fn rook(pos: &Position, w: &Weights, pawns: &PawnEntry, color: Color, sq: Square) -> i32 {
    let (c, e) = (color.index(), color.flip().index());
    let enemy_king = pos.king_square(color.flip());
    let file = sq.file();
    let file_bb = Bitboard::file(file);
    let mut score = w.rook_square[table_index(color, sq)];
    if pawns.file_counts[c][file as usize] == 0 {
        score += if pawns.file_counts[e][file as usize] == 0 { w.rook_open_file } else { w.rook_half_open_file };
        score += w.rook_file_near_king[(file as i32 - enemy_king.file() as i32).unsigned_abs() as usize];
    }
    if (pawns.passers[e] & file_bb).is_nonempty() {
        score += w.rook_enemy_passer_file;
    }
    // The most advanced own passer on the file.
    let own_passers = pawns.passers[c] & file_bb;
    if own_passers.is_nonempty() {
        let passer = if color == Color::White { own_passers.lsb() } else { own_passers.msb() };
        let pr = passer.relative_rank(color) as usize;
        if sq.relative_rank(color) < passer.relative_rank(color) {
            score += w.rook_behind_own_passer[pr];
        } else {
            score -= w.rook_in_front_of_own_passer[pr];
        }
    }
    if sq.relative_rank(color) >= 6 && enemy_king.relative_rank(color) == 7 {
        score += w.rook_seventh;
    }
    score + w.rook_pawns[pos.kind_bb(PieceType::Pawn).count().min(16) as usize]
}

/// The rook mobility weights scaled by every enemy army (0 to 31 pawns):
/// `rook_mobility[m] * (62 - army) / 31`, built once per evaluator. A rook
/// then reads its scaled weight with one load instead of a multiply and a
/// signed division by 31 (same integer arithmetic, so the same values).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScaledRookMobility([[i32; 15]; 32]);

impl ScaledRookMobility {
    pub fn new(w: &Weights) -> ScaledRookMobility {
        ScaledRookMobility(std::array::from_fn(|army| w.rook_mobility.map(|v| v * (62 - army as i32) / 31)))
    }

    /// The row for rooks facing an enemy army of `enemy_army` (0 to 31, as
    /// [`super::material::MaterialEntry::army`] holds).
    #[inline(always)]
    pub fn facing(&self, enemy_army: i32) -> &[i32; 15] {
        &self.0[enemy_army as usize]
    }
}

/// Rook mobility (scaled up as the enemy army shrinks: `scaled` is the
/// [`ScaledRookMobility`] row for the enemy's army), best ray, connected
/// rooks, and the trapped-rook penalty.
pub fn rook_mobility(
    pos: &Position,
    w: &Weights,
    scaled: &[i32; 15],
    color: Color,
    sq: Square,
    m: &PieceMobility,
) -> (i32, i32, i32, i32) {
    let mobility = scaled[(m.mobility as usize).min(14)];
    let best = w.rook_best_ray[(m.best_ray as usize).min(7)];
    let connected = w.rook_connected_rank * m.connected_rank as i32 + w.rook_connected_file * m.connected_file as i32;
    // Boxed in (only a rook with little mobility is looked at): rook and
    // king on the back rank, the rook in the corner beyond the king, and no
    // castling right left to free it.
    let boxed = || {
        let king = pos.king_square(color);
        let king_side = sq.file() > king.file();
        let right = if king_side { CastleRights::king_side(color) } else { CastleRights::queen_side(color) };
        sq.relative_rank(color) == 0
            && king.relative_rank(color) == 0
            && ((king.file() >= 4 && king_side) || (king.file() <= 3 && !king_side))
            && !pos.castling().has(right)
    };
    let trapped = if m.mobility <= 3 && boxed() { -w.rook_trapped } else { 0 };
    (mobility, best, connected, trapped)
}

/// The knights' and bishops' start squares (b, c, f, g on the back rank).
pub const MINOR_HOMES: [Bitboard; 2] = [Bitboard(0x66 << 56), Bitboard(0x66)];

#[inline(always)]
pub fn queen(pos: &Position, w: &Weights, color: Color, sq: Square) -> i32 {
    let mut score = w.queen_square[table_index(color, sq)];
    let back = if color == Color::White { 0 } else { 7 };
    let home = Square::new(3, back);
    let king_home = pos.king_square(color) == Square::new(4, back);
    let castling_pending = king_home && pos.castling().bits() & CastleRights::either(color) != 0;
    let early = sq != home && castling_pending && {
        let minors = pos.bb(color, PieceType::Knight) | pos.bb(color, PieceType::Bishop);
        (minors & MINOR_HOMES[color.index()]).is_nonempty()
    };
    if early {
        let minors = pos.bb(color, PieceType::Knight) | pos.bb(color, PieceType::Bishop);
        score -= w.queen_early * (minors & MINOR_HOMES[color.index()]).count() as i32;
    } else {
        score += w.queen_tropism[distance(sq, pos.king_square(color.flip())) as usize];
    }
    score
}

/// Queen mobility and the walked squares next to the enemy king.
pub fn queen_mobility(w: &Weights, m: &PieceMobility) -> (i32, i32) {
    (w.queen_mobility[(m.mobility as usize).min(27)], w.queen_king_ring_walk * m.king_walks as i32)
}
