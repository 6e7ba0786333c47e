//! movegenbench: legal move generation, the old 0x88 piece-list generator
//! against the bitboard generator (with magic and with PEXT slider
//! attacks). One call generates every legal move of one position.

use crate::measure::context::Context;
use crate::suite::benchmark::run_spec;
use crate::suite::spec::{ArmSpec, Entry, Spec};
use engine::movegen::{BitboardGen, MailboxGen, MoveGen};
use engine::sliders::Magic;
use engine::{MoveList, Position};

#[inline(always)]
fn generate<G: MoveGen>(pos: &mut Position) -> u64 {
    let mut list = MoveList::new();
    G::legal(pos, &mut list);
    list.len() as u64
}

fn mailbox(pos: &mut Position) -> u64 {
    generate::<MailboxGen>(pos)
}

fn bitboard_magic(pos: &mut Position) -> u64 {
    generate::<BitboardGen<Magic>>(pos)
}

#[cfg(target_feature = "bmi2")]
fn bitboard_pext(pos: &mut Position) -> u64 {
    generate::<BitboardGen<engine::sliders::Pext>>(pos)
}

fn prepare(pos: &Position) -> Position {
    let mut p = pos.clone();
    p.clear_history();
    p
}

/// The benchmark.
pub fn spec() -> Spec<Position> {
    #[allow(unused_mut)]
    let mut arms = vec![
        ArmSpec { name: "mailbox", routine: mailbox },
        ArmSpec { name: "bitboard-magic", routine: bitboard_magic },
    ];
    #[cfg(target_feature = "bmi2")]
    arms.push(ArmSpec { name: "bitboard-pext", routine: bitboard_pext });
    Spec {
        name: "movegenbench",
        about: "legal move generation: 0x88 mailbox vs bitboard",
        call: "all legal moves of one position",
        prepare,
        arms,
        must_agree: true,
    }
}

pub const ENTRY: Entry = Entry {
    name: "movegenbench",
    about: "legal move generation: mailbox / bitboard",
    run: |ctx: &Context, set| run_spec(ctx, spec(), set),
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arms_agree() {
        let mut pos = Position::startpos();
        let spec = spec();
        for a in &spec.arms {
            assert_eq!((a.routine)(&mut pos), 20, "{}", a.name);
        }
    }
}
