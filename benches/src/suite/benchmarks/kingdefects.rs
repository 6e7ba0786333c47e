//! kingdefectsbench: `CountKingSafetyDefects` (ARCHITECTURE.md, "Old and
//! new routines") for both sides,
//! the old piece-list walk with the 0x88 difference table against the
//! bitboard form (per-type "reaches the king zone" masks intersected with
//! the enemy pieces). One call counts both kings' defects of one position,
//! including the early exit when the enemy lacks attacking material.

use crate::measure::context::Context;
use crate::suite::benchmark::run_spec;
use crate::suite::spec::{ArmSpec, Entry, Spec};
use engine::defects::{BitboardDefects, DefectCounter, MailboxDefects};
use engine::types::Color;
use engine::Position;

#[inline(always)]
fn both<D: DefectCounter>(pos: &mut Position) -> u64 {
    let w = D::count(pos, Color::White);
    let b = D::count(pos, Color::Black);
    // Small non-negative counts: pack them, nudged so no position sums to 0.
    let pack = |d: engine::defects::KingDefects| (d.count as u64 & 0xFF) | ((d.pointing as u64 & 0xFF) << 8);
    1 + (pack(w) | (pack(b) << 16))
}

fn mailbox(pos: &mut Position) -> u64 {
    both::<MailboxDefects>(pos)
}

fn bitboard(pos: &mut Position) -> u64 {
    both::<BitboardDefects>(pos)
}

fn prepare(pos: &Position) -> Position {
    let mut p = pos.clone();
    p.clear_history();
    p
}

/// The benchmark.
pub fn spec() -> Spec<Position> {
    Spec {
        name: "kingdefectsbench",
        about: "king-safety defects (CountKingSafetyDefects), both sides: mailbox vs bitboard",
        call: "both kings' defect counts (count and pointing) of one position",
        prepare,
        arms: vec![ArmSpec { name: "mailbox", routine: mailbox }, ArmSpec { name: "bitboard", routine: bitboard }],
        must_agree: true,
    }
}

pub const ENTRY: Entry = Entry {
    name: "kingdefectsbench",
    about: "king-safety defects, both sides: mailbox / bitboard",
    run: |ctx: &Context, set| run_spec(ctx, spec(), set),
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arms_agree_on_real_positions() {
        let set = crate::suite::benchmarks::tests::real_positions();
        let spec = spec();
        let mut seen = std::collections::HashSet::new();
        for pos in set {
            let mut p = prepare(pos);
            let want = (spec.arms[0].routine)(&mut p);
            for a in &spec.arms {
                assert_eq!((a.routine)(&mut p), want, "{} on {}", a.name, pos.to_fen());
            }
            seen.insert(want);
        }
        // The checksum tells positions apart (counts and pointing vary).
        assert!(seen.len() >= 8, "{seen:?}");
    }
}
