//! Random play: a million make/unmake steps from varied positions, with
//! `verify()` (every derived field and both Zobrist keys rebuilt from the
//! mailbox) after each step, and the exact starting FEN after unwinding.

use engine::movegen::{legal_moves, MailboxGen, MoveGen};
use engine::position::epd::load_file;
use engine::rng::Rng;
use engine::{MoveList, Position};
use std::path::PathBuf;

fn start_positions() -> Vec<Position> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../positions");
    let mut v: Vec<Position> = Vec::new();
    for file in ["perftsuite.epd", "perft_tricky.epd"] {
        v.extend(load_file(&dir.join(file)).unwrap().iter().map(|e| e.position().clone()));
    }
    for file in ["lichess_popular_20k.epd", "endgames_20k.epd"] {
        v.extend(load_file(&dir.join(file)).unwrap().iter().step_by(97).map(|e| e.position().clone()));
    }
    v
}

#[test]
fn a_million_verified_make_unmake_steps() {
    let starts = start_positions();
    let mut rng = Rng::new(0xC0FFEE);
    let mut steps = 0u64;
    let mut games = 0;
    while steps < 1_000_000 {
        let mut pos = starts[rng.index(starts.len())].clone();
        let fen = pos.to_fen();
        let mut depth = 0;
        for _ in 0..200 {
            // Alternate generators so both feed make().
            let mut list = MoveList::new();
            if rng.chance(1, 2) {
                MailboxGen::legal(&pos, &mut list);
            } else {
                list = legal_moves(&pos);
            }
            let back = depth > 0 && (list.is_empty() || rng.chance(1, 4));
            if back {
                pos.unmake();
                depth -= 1;
            } else if list.is_empty() {
                break;
            } else if !pos.in_check() && rng.chance(1, 20) {
                pos.make_null();
                depth += 1;
            } else {
                pos.make(list[rng.index(list.len())]);
                depth += 1;
            }
            steps += 1;
            if let Err(e) = pos.verify() {
                panic!("after step {steps} from {fen}: {e}\n{}", pos.diagram());
            }
            assert_eq!(pos.key(), pos.compute_key());
            assert_eq!(pos.pawn_key(), pos.compute_pawn_key());
        }
        while depth > 0 {
            pos.unmake();
            depth -= 1;
            steps += 1;
            pos.verify().unwrap();
        }
        assert_eq!(pos.to_fen(), fen, "unwinding did not restore the start");
        games += 1;
    }
    assert!(games > 1000);
}

#[test]
fn transpositions_share_a_key() {
    // 1. Nf3 Nf6 2. Nc3 Nc6 and 1. Nc3 Nc6 2. Nf3 Nf6 reach one position.
    let play = |moves: &[&str]| {
        let mut pos = Position::startpos();
        for m in moves {
            let mv = *legal_moves(&pos).iter().find(|x| x.to_string() == *m).unwrap();
            pos.make(mv);
        }
        pos
    };
    let a = play(&["g1f3", "g8f6", "b1c3", "b8c6"]);
    let b = play(&["b1c3", "b8c6", "g1f3", "g8f6"]);
    assert_eq!(a.key(), b.key());
    // A double push with no pawn able to capture leaves no en-passant key.
    let c = play(&["e2e4"]);
    assert!(c.ep_square().is_none());
    let d = play(&["e2e4", "g8f6", "e4e5", "d7d5"]);
    assert!(d.ep_square().is_some(), "exd6 is possible");
    let e = play(&["g1f3", "g8f6", "f3g1", "f6g8"]);
    assert_eq!(e.key(), Position::startpos().key());
    let mut r = e.clone();
    for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
        let mv = *legal_moves(&r).iter().find(|x| x.to_string() == m).unwrap();
        r.make(mv);
    }
    assert!(r.is_repetition());
}
