//! Passed pawns beyond the pawn hash: the race against a bare king (rule of
//! the square, with an escorting king), evaluated before the lazy exit; and,
//! after the pieces, the terms that need full attack information: the stop
//! square blockaded or controlled, king distances, and piece superiority.

use super::attacks::AttackView;
use super::material::MaterialEntry;
use super::pawns::PawnEntry;
use super::pieces::forward_square;
use super::weights::Weights;
use crate::position::Position;
use crate::tables::distance;
use crate::types::{Color, PieceType, Square};

/// The bonus for an unstoppable passer of `color` when the enemy has a bare
/// king (no pieces): counted once, for the first passer found unstoppable.
#[inline(always)]
pub fn race(pos: &Position, w: &Weights, pawns: &PawnEntry, mat: &MaterialEntry, color: Color) -> i32 {
    if mat.pieces[color.flip().index()] != 0 || pawns.passers[color.index()].is_empty() {
        return 0;
    }
    race_against_bare_king(pos, w, pawns, color)
}

/// [`race`] once the enemy has a bare king and `color` has passers (rare:
/// kept out of line so the common exit stays inline).
#[inline(never)]
fn race_against_bare_king(pos: &Position, w: &Weights, pawns: &PawnEntry, color: Color) -> i32 {
    let enemy = color.flip();
    let ek = pos.king_square(enemy);
    let k = pos.king_square(color);
    let tempo = (pos.side_to_move() == enemy) as i32;
    for p in pawns.passers[color.index()] {
        let r = p.relative_rank(color) as i32;
        let queening = Square::new(p.file(), if color == Color::White { 7 } else { 0 });
        // Moves to promote; a pawn on its start rank may move two squares.
        let moves = 7 - r - (r == 1) as i32;
        let path = super::pawns::ahead(color, p);
        let blocked = (path & pos.occupied()).is_nonempty();
        let outside_square = !blocked && distance(ek, queening) as i32 - tempo > moves;
        let escorted = distance(k, queening) <= 1 && !path.has(k) && distance(ek, queening) as i32 - tempo > 1;
        if outside_square || escorted {
            return w.passer_unstoppable;
        }
    }
    0
}

/// Passer terms of `color` with full attack information.
#[inline(always)]
pub fn with_attacks<V: AttackView>(
    pos: &Position,
    view: &V,
    w: &Weights,
    pawns: &PawnEntry,
    mat: &MaterialEntry,
    color: Color,
) -> i32 {
    // Most positions have no passers: that exit stays inline.
    if pawns.passers[color.index()].is_empty() {
        return 0;
    }
    passer_terms(pos, view, w, pawns, mat, color)
}

/// [`with_attacks`] for a side that has passers.
fn passer_terms<V: AttackView>(
    pos: &Position,
    view: &V,
    w: &Weights,
    pawns: &PawnEntry,
    mat: &MaterialEntry,
    color: Color,
) -> i32 {
    let enemy = color.flip();
    let enemy_army = mat.army[enemy.index()];
    let k = pos.king_square(color);
    let ek = pos.king_square(enemy);
    let more_pieces = mat.pieces[color.index()] > mat.pieces[enemy.index()];
    let mut score = 0;
    let passers = pawns.passers[color.index()];
    // Stop squares the enemy controls against a pawn arriving there.
    let held = view.controlled(pos, enemy, passers.forward(color), PieceType::Pawn.value());
    for p in passers {
        let r = p.relative_rank(color) as usize;
        let Some(stop) = forward_square(color, p) else { continue };
        if pos.color_bb(enemy).has(stop) {
            score -= w.passer_blockaded[r];
        } else if !held.has(stop) {
            score += w.passer_stop_free[r];
        }
        let lead = distance(ek, stop) as i32 - distance(k, stop) as i32;
        score += w.passer_king_distance[r] * lead * (31 - enemy_army) / 31;
        if more_pieces {
            score += w.passer_more_pieces;
        }
    }
    score
}
