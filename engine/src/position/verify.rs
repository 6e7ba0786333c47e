//! `verify()`: rebuild every derived field from the mailbox and compare,
//! naming the first field that differs. Tests run it after every
//! make/unmake; it is the net under the three board primitives.

use super::{Position, MAX_NON_PAWNS, MAX_PAWNS};
use crate::bitboard::Bitboard;
use crate::types::{Color, PieceType, Square88};
use std::fmt;

/// The first inconsistent field found by [`Position::verify`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifyError {
    /// The field, as named in [`Position`].
    pub field: &'static str,
    /// The stored and the rebuilt value.
    pub detail: String,
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "position inconsistent in `{}`: {}", self.field, self.detail)
    }
}

impl std::error::Error for VerifyError {}

fn check<T: PartialEq + fmt::Debug>(field: &'static str, stored: T, rebuilt: T) -> Result<(), VerifyError> {
    if stored == rebuilt {
        Ok(())
    } else {
        Err(VerifyError { field, detail: format!("stored {stored:?}, rebuilt from the mailbox {rebuilt:?}") })
    }
}

impl Position {
    /// Check every derived field against the mailbox.
    pub fn verify(&self) -> Result<(), VerifyError> {
        let mut by_type = [[Bitboard::EMPTY; 6]; 2];
        let mut type_count = [[0u8; 6]; 2];
        let mut material = [0i32; 2];
        let mut shades = [[0u8; 2]; 2];
        let mut material_key = 0u64;
        for sq in Square88::all() {
            let p = self.piece_at(sq);
            if p.is_empty() {
                continue;
            }
            let (c, k) = (p.color().index(), p.kind());
            by_type[c][k.index()] = by_type[c][k.index()].with(sq.to_64());
            type_count[c][k.index()] += 1;
            if k != PieceType::Pawn {
                material[c] += k.value();
            }
            if k == PieceType::Bishop {
                shades[c][sq.to_64().shade()] += 1;
            }
            material_key += super::material_unit(p.color(), k, sq.to_64().shade());
        }
        check("by_type", self.by_type, by_type)?;
        check("type_count", self.type_count, type_count)?;
        check("non_pawn_material", self.non_pawn_material, material)?;
        check("bishop_shades", self.bishop_shades, shades)?;
        check("material_key", self.material_key, material_key)?;
        let by_color = [0, 1].map(|c| by_type[c].iter().fold(Bitboard::EMPTY, |a, &b| a | b));
        check("by_color", self.by_color, by_color)?;
        check("occupied", self.occupied, by_color[0] | by_color[1])?;

        for color in Color::ALL {
            let c = color.index();
            check("pawn_count", self.pawn_count[c], type_count[c][0])?;
            let non_pawns: u8 = type_count[c][1..].iter().sum();
            check("piece_count", self.piece_count[c], non_pawns)?;
            if self.pawn_count[c] as usize > MAX_PAWNS || self.piece_count[c] as usize > MAX_NON_PAWNS {
                return Err(VerifyError { field: "piece_count", detail: "list overflow".into() });
            }
            for (i, &sq) in self.pawn_list(color).iter().enumerate() {
                check("pawn_list", self.piece_at(sq).is(color, PieceType::Pawn), true)?;
                check("list_index", self.list_index(sq), i)?;
            }
            for (i, &sq) in self.piece_list(color).iter().enumerate() {
                let p = self.piece_at(sq);
                check("piece_list", !p.is_empty() && p.color() == color && p.kind() != PieceType::Pawn, true)?;
                check("piece_list king at index 0", p.kind() == PieceType::King, i == 0)?;
                check("list_index", self.list_index(sq), i)?;
            }
        }
        check("pawn_key", self.state.pawn_key, self.compute_pawn_key())?;
        check("key", self.state.key, self.compute_key())?;
        if let Some(ep) = self.state.ep {
            check("ep rank", ep.relative_rank(self.side), 5)?;
        }
        Ok(())
    }
}
