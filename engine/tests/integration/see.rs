//! SEE through both attacker builders: the five reference exchanges
//! (ARCHITECTURE.md, "Old and new routines"; via the library and via
//! `engine see`), identical `seescores` listings for
//! ecm.epd and wac.epd, and what `see` says about quiet moves.

use crate::cli::{engine, json, positions};
use engine::attackers::{BitboardAttackers, MailboxAttackers};
use engine::movegen::legal_moves;
use engine::position::epd::load_file;
use engine::see::{see, see_bitboard};
use engine::sliders::{FastSliders, Magic};
use engine::{Move, Position};
use std::path::Path;
use std::process::Output;

/// The reference exchanges: FEN, move, SEE (White to move).
const REFERENCES: [(&str, &str, i32); 5] = [
    ("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - -", "e1e5", 100),
    ("1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - -", "d3e5", -200),
    ("3rk3/3r4/8/3p4/8/8/3Q4/3RK3 w - -", "d2d5", -875),
    ("5k2/4n3/8/3p4/1B6/8/3R4/4K3 w - -", "d2d5", 100),
    ("5k2/4n3/8/3p4/8/8/3R4/4K3 w - -", "d2d5", -400),
];

fn stdout_of(out: &Output) -> String {
    assert!(out.status.success(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn legal(pos: &Position, uci: &str) -> Move {
    *legal_moves(pos).iter().find(|m| m.uci().as_str() == uci).unwrap_or_else(|| panic!("{uci} illegal"))
}

#[test]
fn reference_values_through_both_builders() {
    for (fen, uci, expected) in REFERENCES {
        let pos = Position::from_fen(fen).unwrap();
        let m = legal(&pos, uci);
        assert!(m.is_capture());
        assert_eq!(see::<MailboxAttackers>(&pos, m), expected, "mailbox {fen} {uci}");
        assert_eq!(see::<BitboardAttackers<Magic>>(&pos, m), expected, "bitboard-magic {fen} {uci}");
        assert_eq!(see::<BitboardAttackers<FastSliders>>(&pos, m), expected, "bitboard-fast {fen} {uci}");
        assert_eq!(see_bitboard::<Magic>(&pos, m), expected, "bitboard SEE, magic {fen} {uci}");
        assert_eq!(see_bitboard::<FastSliders>(&pos, m), expected, "bitboard SEE, fast {fen} {uci}");
    }
}

#[test]
fn reference_values_through_the_cli() {
    for (fen, uci, expected) in REFERENCES {
        for attackers in ["mailbox", "bitboard"] {
            let v = json(&engine(&["see", "--fen", fen, "--move", uci, "--attackers", attackers, "--json"]));
            assert_eq!(v["see"], expected, "{attackers} {fen} {uci}");
            assert_eq!(v["capture"], true);
        }
        let text = stdout_of(&engine(&["see", "--fen", fen, "--move", uci, "--sliders", "magic"]));
        assert_eq!(text.trim(), expected.to_string());
    }
}

/// A quiet move is the exchange on its destination with the mover standing
/// there, starting from a gain of 0.
#[test]
fn quiet_moves_have_a_defined_see() {
    let fen = "4k3/8/2p5/8/8/8/8/3QK3 w - -";
    for attackers in ["mailbox", "bitboard"] {
        let v = json(&engine(&["see", "--fen", fen, "--move", "d1d5", "--attackers", attackers, "--json"]));
        assert_eq!(v["see"], -975);
        assert_eq!(v["capture"], false);
        let v = json(&engine(&["see", "--fen", fen, "--move", "d1d4", "--attackers", attackers, "--json"]));
        assert_eq!(v["see"], 0);
    }
}

/// `seescores` lists SEE of every legal capture; the two builders (and both
/// slider implementations), and SEE on bitboards end to end, must print
/// byte-identical listings.
#[test]
fn seescores_identical_for_both_builders_on_ecm_and_wac() {
    for file in ["ecm.epd", "wac.epd"] {
        let path = positions(file);
        let path = path.as_str();
        let mailbox = stdout_of(&engine(&["seescores", path, "--attackers", "mailbox"]));
        let bitboard = stdout_of(&engine(&["seescores", path, "--attackers", "bitboard"]));
        let magic = stdout_of(&engine(&["seescores", path, "--attackers", "bitboard", "--sliders", "magic"]));
        assert_eq!(mailbox, bitboard, "{file}: mailbox and bitboard listings differ");
        assert_eq!(mailbox, magic, "{file}: mailbox and bitboard-magic listings differ");
        let native = stdout_of(&engine(&["seescores", path, "--attackers", "native"]));
        assert_eq!(mailbox, native, "{file}: mailbox lists and bitboard SEE listings differ");

        // One line per legal capture, each `id move see`.
        let records = load_file(Path::new(&positions(file))).unwrap();
        let captures: usize =
            records.iter().map(|e| legal_moves(e.position()).iter().filter(|m| m.is_capture()).count()).sum();
        assert!(captures > 500, "{file}: only {captures} captures");
        assert_eq!(mailbox.lines().count(), captures, "{file}");
        let mut values = std::collections::BTreeSet::new();
        for line in mailbox.lines() {
            let fields: Vec<&str> = line.split(' ').collect();
            assert_eq!(fields.len(), 3, "{line}");
            values.insert(fields[2].parse::<i32>().unwrap_or_else(|_| panic!("{line}")));
        }
        // Not a constant: wins, even trades and losses all occur.
        assert!(values.iter().any(|&v| v > 0) && values.contains(&0) && values.iter().any(|&v| v < 0));

        let v = json(&engine(&["seescores", path, "--attackers", "mailbox", "--json"]));
        assert_eq!(v["captures"], captures);
        assert_eq!(v["positions"], records.len());
    }
}

/// The recapture bound on the captures of real positions (the suites and a
/// sample of games): both forms agree, and SEE is negative wherever they
/// say the capture loses.
#[test]
fn recapture_bound_on_real_positions() {
    use engine::see::{loses_to_recapture_bitboard, loses_to_recapture_mailbox};
    let (mut captures, mut decided) = (0, 0);
    for file in ["ecm.epd", "wac.epd", "sts.epd", "bk.epd", "arasan2024.epd", "lichess_popular_20k.epd"] {
        for epd in load_file(Path::new(&positions(file))).unwrap() {
            let pos = epd.position();
            for &m in legal_moves(pos).iter().filter(|m| m.is_capture()) {
                let old = loses_to_recapture_mailbox(pos, m);
                assert_eq!(old, loses_to_recapture_bitboard::<FastSliders>(pos, m), "{} {m}", pos.to_fen());
                if old {
                    assert!(see::<MailboxAttackers>(pos, m) < 0, "{} {m}", pos.to_fen());
                }
                captures += 1;
                decided += old as u32;
            }
        }
    }
    assert!(captures > 30_000 && decided > 10_000, "{decided} of {captures} captures decided");
}
