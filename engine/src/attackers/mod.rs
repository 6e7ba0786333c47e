//! "Who attacks this square" in both representations, side by side:
//! `mailbox` scans the piece lists with the 0x88 difference table and walks
//! slider rays square by square; `bitboard` intersects leaper tables and
//! slider probes with the piece bitboards.

pub mod bitboard;
pub mod mailbox;

pub use bitboard::is_attacked_bitboard;
pub use mailbox::is_attacked_mailbox;

use crate::tables::{AV_BISHOP, AV_BLACK_PAWN, AV_KING, AV_KNIGHT, AV_QUEEN, AV_ROOK, AV_WHITE_PAWN};

/// The difference-table bit of each piece code (0 for empty).
pub(crate) static PIECE_VECTOR_BIT: [u8; 14] = [
    0,
    0,
    AV_WHITE_PAWN,
    AV_BLACK_PAWN,
    AV_KNIGHT,
    AV_KNIGHT,
    AV_BISHOP,
    AV_BISHOP,
    AV_ROOK,
    AV_ROOK,
    AV_QUEEN,
    AV_QUEEN,
    AV_KING,
    AV_KING,
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use crate::sliders::{FastSliders, Magic};
    use crate::types::{Color, Square};

    #[test]
    fn both_forms_agree_on_suite_positions() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            crate::position::START_FEN,
        ] {
            let pos = Position::from_fen(fen).unwrap();
            for sq in Square::all() {
                for by in Color::ALL {
                    let m = is_attacked_mailbox(&pos, sq.to_88(), by);
                    assert_eq!(m, is_attacked_bitboard::<FastSliders>(&pos, sq, by), "{fen} {sq} {by:?}");
                    assert_eq!(m, is_attacked_bitboard::<Magic>(&pos, sq, by));
                }
            }
        }
    }
}
