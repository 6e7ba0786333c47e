//! Zobrist keys: a random 64-bit word per (piece, square), castling state,
//! en-passant file and side to move, generated at compile time from a fixed
//! seed. The full key hashes everything; the pawn key hashes pawns only.

use crate::rng::splitmix;
use crate::types::{CastleRights, Piece, Square};

struct Keys {
    piece_square: [[u64; 64]; Piece::TABLE_SIZE],
    castling: [u64; 16],
    ep_file: [u64; 8],
    black_to_move: u64,
}

const fn build() -> Keys {
    let mut state = 0x5A0B_81D5_7C0F_FEE5u64;
    let mut keys =
        Keys { piece_square: [[0; 64]; Piece::TABLE_SIZE], castling: [0; 16], ep_file: [0; 8], black_to_move: 0 };
    // Codes 0 and 1 are not pieces; their rows stay zero.
    let mut p = 2;
    while p < Piece::TABLE_SIZE {
        let mut sq = 0;
        while sq < 64 {
            let (s, v) = splitmix(state);
            state = s;
            keys.piece_square[p][sq] = v;
            sq += 1;
        }
        p += 1;
    }
    let mut c = 1;
    while c < 16 {
        let (s, v) = splitmix(state);
        state = s;
        keys.castling[c] = v;
        c += 1;
    }
    let mut f = 0;
    while f < 8 {
        let (s, v) = splitmix(state);
        state = s;
        keys.ep_file[f] = v;
        f += 1;
    }
    let (_, v) = splitmix(state);
    keys.black_to_move = v;
    keys
}

static KEYS: Keys = build();

#[inline(always)]
pub fn piece_square(piece: Piece, sq: Square) -> u64 {
    KEYS.piece_square[piece.index()][sq.index()]
}

/// Key of a castling state; `NONE` hashes to zero.
#[inline(always)]
pub fn castling(rights: CastleRights) -> u64 {
    KEYS.castling[rights.bits() as usize]
}

#[inline(always)]
pub fn ep_file(file: u8) -> u64 {
    KEYS.ep_file[file as usize & 7]
}

#[inline(always)]
pub fn black_to_move() -> u64 {
    KEYS.black_to_move
}
