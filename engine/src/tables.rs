//! Small precomputed tables, built at compile time: 0x88 step deltas, the
//! 0x88 difference tables the mailbox code uses to ask "can a piece on
//! `from` reach `to`", and the bitboard leaper, between and line tables.

use crate::bitboard::Bitboard;
use crate::types::Square;

/// 0x88 steps. North (towards rank 8) is -16.
pub const KNIGHT_DELTAS: [i8; 8] = [-33, -31, -18, -14, 14, 18, 31, 33];
pub const KING_DELTAS: [i8; 8] = [-17, -16, -15, -1, 1, 15, 16, 17];
pub const ROOK_DELTAS: [i8; 4] = [-16, 16, 1, -1];
pub const BISHOP_DELTAS: [i8; 4] = [-15, -17, 17, 15];
pub const QUEEN_DELTAS: [i8; 8] = [-16, 16, 1, -1, -15, -17, 17, 15];

/// One square forward for each colour's pawns.
pub const PAWN_PUSH: [i8; 2] = [-16, 16];
/// The two capture steps of each colour's pawns.
pub const PAWN_CAPTURES: [[i8; 2]; 2] = [[-17, -15], [15, 17]];

/// Bits of [`ATTACK_VECTOR`]: which kinds reach a square difference on an
/// empty board.
pub const AV_WHITE_PAWN: u8 = 1;
pub const AV_BLACK_PAWN: u8 = 2;
pub const AV_KNIGHT: u8 = 4;
pub const AV_BISHOP: u8 = 8;
pub const AV_ROOK: u8 = 16;
pub const AV_QUEEN: u8 = 32;
pub const AV_KING: u8 = 64;

/// Indexed by `Square88::diff_index(from, to)`: which piece kinds standing on
/// `from` attack `to` on an empty board.
pub static ATTACK_VECTOR: [u8; 240] = build_attack_vector();

/// Indexed like [`ATTACK_VECTOR`]: the unit 0x88 step from `from` towards
/// `to` when they share a rank, file or diagonal, else 0.
pub static DIFF_STEP: [i8; 240] = build_diff_step();

const fn build_attack_vector() -> [u8; 240] {
    let mut t = [0u8; 240];
    let mut i = 0;
    while i < 8 {
        t[(KNIGHT_DELTAS[i] as i32 + 119) as usize] |= AV_KNIGHT;
        t[(KING_DELTAS[i] as i32 + 119) as usize] |= AV_KING;
        i += 1;
    }
    t[(-17 + 119) as usize] |= AV_WHITE_PAWN;
    t[(-15 + 119) as usize] |= AV_WHITE_PAWN;
    t[(15 + 119) as usize] |= AV_BLACK_PAWN;
    t[(17 + 119) as usize] |= AV_BLACK_PAWN;
    let mut d = 0;
    while d < 8 {
        let step = QUEEN_DELTAS[d] as i32;
        let bit = if d < 4 { AV_ROOK } else { AV_BISHOP };
        let mut k = 1;
        while k < 8 {
            t[(step * k + 119) as usize] |= bit | AV_QUEEN;
            k += 1;
        }
        d += 1;
    }
    t
}

const fn build_diff_step() -> [i8; 240] {
    let mut t = [0i8; 240];
    let mut d = 0;
    while d < 8 {
        let step = QUEEN_DELTAS[d] as i32;
        let mut k = 1;
        while k < 8 {
            t[(step * k + 119) as usize] = step as i8;
            k += 1;
        }
        d += 1;
    }
    t
}

const fn leaper_table(steps: &[(i32, i32)]) -> [Bitboard; 64] {
    let mut t = [Bitboard::EMPTY; 64];
    let mut sq = 0;
    while sq < 64 {
        let (file, row) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut bits = 0u64;
        let mut i = 0;
        while i < steps.len() {
            let (f, r) = (file + steps[i].0, row + steps[i].1);
            if f >= 0 && f < 8 && r >= 0 && r < 8 {
                bits |= 1u64 << (r * 8 + f);
            }
            i += 1;
        }
        t[sq] = Bitboard(bits);
        sq += 1;
    }
    t
}

/// Knight targets of each square.
pub static KNIGHT_ATTACKS: [Bitboard; 64] =
    leaper_table(&[(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]);

/// King targets of each square.
pub static KING_ATTACKS: [Bitboard; 64] =
    leaper_table(&[(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]);

/// Squares attacked by a pawn of each colour on each square (row -1 is
/// towards rank 8, White's forward).
pub static PAWN_ATTACKS: [[Bitboard; 64]; 2] = [leaper_table(&[(-1, -1), (1, -1)]), leaper_table(&[(-1, 1), (1, 1)])];

const fn line_tables() -> ([[Bitboard; 64]; 64], [[Bitboard; 64]; 64]) {
    let mut between = [[Bitboard::EMPTY; 64]; 64];
    let mut line = [[Bitboard::EMPTY; 64]; 64];
    let dirs: [(i32, i32); 8] = [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1)];
    let mut a = 0;
    while a < 64 {
        let (fa, ra) = ((a % 8) as i32, (a / 8) as i32);
        let mut d = 0;
        while d < 8 {
            let (df, dr) = dirs[d];
            // The full line through `a` in this direction and its opposite.
            let mut full = 1u64 << a;
            let (mut f, mut r) = (fa + df, ra + dr);
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                full |= 1u64 << (r * 8 + f);
                f += df;
                r += dr;
            }
            let (mut f, mut r) = (fa - df, ra - dr);
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                full |= 1u64 << (r * 8 + f);
                f -= df;
                r -= dr;
            }
            let mut gap = 0u64;
            let (mut f, mut r) = (fa + df, ra + dr);
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                let b = (r * 8 + f) as usize;
                between[a][b] = Bitboard(gap);
                line[a][b] = Bitboard(full);
                gap |= 1u64 << b;
                f += df;
                r += dr;
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
}

static LINE_TABLES: ([[Bitboard; 64]; 64], [[Bitboard; 64]; 64]) = line_tables();

/// Squares strictly between `a` and `b` when they share a line, else empty.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    LINE_TABLES.0[a.index()][b.index()]
}

/// The whole rank, file or diagonal through `a` and `b` (edge to edge), or
/// empty when they share none.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    LINE_TABLES.1[a.index()][b.index()]
}

/// Chebyshev (king-step) distance.
#[inline(always)]
pub fn distance(a: Square, b: Square) -> u8 {
    DISTANCE[a.index()][b.index()]
}

/// [`distance`] for every pair of squares: one load instead of two
/// subtractions, two absolute values and a max in the evaluation's terms.
static DISTANCE: [[u8; 64]; 64] = {
    let mut t = [[0u8; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            let df = (a % 8) as i32 - (b % 8) as i32;
            let dr = (a / 8) as i32 - (b / 8) as i32;
            let (df, dr) = (df.abs(), dr.abs());
            t[a][b] = if df > dr { df } else { dr } as u8;
            b += 1;
        }
        a += 1;
    }
    t
};

const fn build_rays() -> [[Bitboard; 64]; 8] {
    // (file step, row step) for each QUEEN_DELTAS entry; row 0 is rank 8.
    let steps: [(i32, i32); 8] = [(0, -1), (0, 1), (1, 0), (-1, 0), (1, -1), (-1, -1), (1, 1), (-1, 1)];
    let mut t = [[Bitboard::EMPTY; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 64 {
            let (mut f, mut r) = ((sq % 8) as i32 + steps[d].0, (sq / 8) as i32 + steps[d].1);
            let mut bits = 0u64;
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                bits |= 1u64 << (r * 8 + f);
                f += steps[d].0;
                r += steps[d].1;
            }
            t[d][sq] = Bitboard(bits);
            sq += 1;
        }
        d += 1;
    }
    t
}

/// `RAYS[dir][sq]`: the squares from `sq` (exclusive) to the edge in `dir`,
/// the eight directions in [`QUEEN_DELTAS`] order: N, S, E, W (rook rays,
/// indices 0..4), then NE, NW, SE, SW (bishop rays, 4..8).
pub static RAYS: [[Bitboard; 64]; 8] = build_rays();

/// Rook moves from each square on an empty board: the squares a rook-like
/// piece could ever attack from there. Lets check and attacker tests skip
/// the slider probe when no enemy rook or queen is on a line with the square.
pub static ROOK_LINES: [Bitboard; 64] = pseudo_attacks(0);

/// Bishop moves from each square on an empty board (see [`ROOK_LINES`]).
pub static BISHOP_LINES: [Bitboard; 64] = pseudo_attacks(4);

/// The union of rays `first..first + 4` from every square.
const fn pseudo_attacks(first: usize) -> [Bitboard; 64] {
    let rays = build_rays();
    let mut t = [Bitboard::EMPTY; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut bits = 0u64;
        let mut d = first;
        while d < first + 4 {
            bits |= rays[d][sq].0;
            d += 1;
        }
        t[sq] = Bitboard(bits);
        sq += 1;
    }
    t
}

/// Indexed like [`ATTACK_VECTOR`]: the direction index from `from` towards
/// `to` when they share a line, else 8.
static DIFF_DIRECTION: [u8; 240] = {
    let mut t = [8u8; 240];
    let mut d = 0;
    while d < 8 {
        let step = QUEEN_DELTAS[d] as i32;
        let mut k = 1;
        while k < 8 {
            t[(step * k + 119) as usize] = d as u8;
            k += 1;
        }
        d += 1;
    }
    t
};

/// Direction index from `from` towards `to` (see [`RAYS`]), or `None` when
/// they share no line.
#[inline(always)]
pub fn direction(from: Square, to: Square) -> Option<usize> {
    let d = SQUARE_DIRECTION[from.index()][to.index()];
    (d < 8).then_some(d as usize)
}

/// [`DIFF_DIRECTION`] by pairs of 64-index squares, so [`direction`] needs
/// no 0x88 conversion (SEE's x-ray and pin tests, the mobility chains).
static SQUARE_DIRECTION: [[u8; 64]; 64] = {
    let mut t = [[8u8; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            let from = (a / 8) * 16 + a % 8;
            let to = (b / 8) * 16 + b % 8;
            t[a][b] = DIFF_DIRECTION[to + 119 - from];
            b += 1;
        }
        a += 1;
    }
    t
};

/// The squares beyond `through` on the ray from `from` through it, to the
/// edge. Empty when the two share no line.
#[inline(always)]
pub fn ray_beyond(from: Square, through: Square) -> Bitboard {
    match direction(from, through) {
        Some(d) => RAYS[d][through.index()],
        None => Bitboard::EMPTY,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{Color, PieceType, Square88};

    /// The [`ATTACK_VECTOR`] bit of a piece kind (pawns by colour).
    const fn attack_vector_bit(color: Color, kind: PieceType) -> u8 {
        match kind {
            PieceType::Pawn => match color {
                Color::White => AV_WHITE_PAWN,
                Color::Black => AV_BLACK_PAWN,
            },
            PieceType::Knight => AV_KNIGHT,
            PieceType::Bishop => AV_BISHOP,
            PieceType::Rook => AV_ROOK,
            PieceType::Queen => AV_QUEEN,
            PieceType::King => AV_KING,
        }
    }

    /// Can a `kind` of `color` on `from` reach `to` on an empty board?
    fn reaches_on_empty_board(color: Color, kind: PieceType, from: Square88, to: Square88) -> bool {
        ATTACK_VECTOR[Square88::diff_index(from, to)] & attack_vector_bit(color, kind) != 0
    }

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn leapers() {
        assert_eq!(KNIGHT_ATTACKS[sq("a1").index()].count(), 2);
        assert_eq!(KNIGHT_ATTACKS[sq("d4").index()].count(), 8);
        assert_eq!(KING_ATTACKS[sq("h8").index()].count(), 3);
        assert!(PAWN_ATTACKS[0][sq("e4").index()].has(sq("d5")));
        assert!(PAWN_ATTACKS[1][sq("e4").index()].has(sq("f3")));
    }

    #[test]
    fn lines() {
        assert_eq!(between(sq("a1"), sq("a8")).count(), 6);
        assert_eq!(between(sq("a1"), sq("h8")).count(), 6);
        assert!(between(sq("a1"), sq("b3")).is_empty());
        assert!(between(sq("a1"), sq("a2")).is_empty());
        assert_eq!(line(sq("c3"), sq("e5")).count(), 8);
        assert!(line(sq("c3"), sq("e6")).is_empty());
    }

    #[test]
    fn rays_and_directions() {
        assert_eq!(RAYS[0][sq("a1").index()].count(), 7);
        assert!(RAYS[0][sq("a1").index()].has(sq("a8")));
        assert_eq!(direction(sq("a1"), sq("a5")), Some(0));
        assert_eq!(direction(sq("a1"), sq("h8")), Some(4));
        assert_eq!(direction(sq("a1"), sq("b3")), None);
        assert_eq!(ray_beyond(sq("a1"), sq("c3")).count(), 5);
        assert!(ray_beyond(sq("a1"), sq("c3")).has(sq("h8")) && !ray_beyond(sq("a1"), sq("c3")).has(sq("c3")));
        for (d, rays) in RAYS.iter().enumerate() {
            for s in Square::all() {
                for t in rays[s.index()] {
                    assert_eq!(direction(s, t), Some(d));
                }
            }
        }
        // Off every ray: no direction (the square itself included).
        for s in Square::all() {
            for t in Square::all() {
                let on_a_ray = RAYS.iter().any(|rays| rays[s.index()].has(t));
                assert_eq!(direction(s, t).is_some(), on_a_ray, "{s} {t}");
            }
        }
    }

    #[test]
    fn distance_is_the_king_step_count() {
        for a in Square::all() {
            for b in Square::all() {
                let df = (a.file() as i32 - b.file() as i32).abs();
                let dr = (a.rank() as i32 - b.rank() as i32).abs();
                assert_eq!(distance(a, b) as i32, df.max(dr), "{a} {b}");
            }
        }
        assert_eq!(distance(sq("a1"), sq("h8")), 7);
        assert_eq!(distance(sq("e4"), sq("f6")), 2);
    }

    #[test]
    fn attack_vector_matches_bitboard_geometry() {
        for from in Square::all() {
            for to in Square::all() {
                if from == to {
                    continue;
                }
                let (f88, t88) = (from.to_88(), to.to_88());
                let knight = KNIGHT_ATTACKS[from.index()].has(to);
                assert_eq!(reaches_on_empty_board(Color::White, PieceType::Knight, f88, t88), knight);
                let king = KING_ATTACKS[from.index()].has(to);
                assert_eq!(reaches_on_empty_board(Color::White, PieceType::King, f88, t88), king);
                let on_line = line(from, to).is_nonempty();
                assert_eq!(reaches_on_empty_board(Color::White, PieceType::Queen, f88, t88), on_line);
                let pawn = PAWN_ATTACKS[1][from.index()].has(to);
                assert_eq!(reaches_on_empty_board(Color::Black, PieceType::Pawn, f88, t88), pawn);
            }
        }
    }
}
