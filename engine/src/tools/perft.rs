//! Perft: count the leaf nodes of the legal move tree to a fixed depth, the
//! standard proof that a move generator and make/unmake are exact.

use crate::movegen::MoveGen;
use crate::moves::{Move, MoveList};
use crate::position::Position;

/// Leaf count of the tree of depth `depth`. With `bulk`, the last ply is
/// counted by [`MoveGen::count`] instead of making each move.
pub fn perft<G: MoveGen>(pos: &mut Position, depth: u32, bulk: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    if bulk && depth == 1 {
        return G::count(pos);
    }
    let mut list = MoveList::new();
    G::legal(pos, &mut list);
    let mut nodes = 0;
    for &m in list.iter() {
        pos.make(m);
        nodes += perft::<G>(pos, depth - 1, bulk);
        pos.unmake();
    }
    nodes
}

/// Per-root-move counts, in generation order.
pub fn divide<G: MoveGen>(pos: &mut Position, depth: u32, bulk: bool) -> Vec<(Move, u64)> {
    let mut list = MoveList::new();
    G::legal(pos, &mut list);
    let mut out = Vec::with_capacity(list.len());
    for &m in list.iter() {
        pos.make(m);
        let n = if depth <= 1 { 1 } else { perft::<G>(pos, depth - 1, bulk) };
        pos.unmake();
        out.push((m, n));
    }
    out
}
