//! EPD lines and files: no input panics; an accepted line gives a
//! consistent position, its perft counts are the `D` operations it holds,
//! and its `bm`/`am` moves go through the SAN parser without a panic
//! (legal where they parse); a rejected line or file gets a short message
//! naming the line. Every real suite in `positions/` parses.

use crate::grammar::{mutated, noise, seed_fens, seed_lines, structured_fen, FEN_ALPHABET};
use crate::{cases, ensure, run_target};
use engine::movegen::legal_moves;
use engine::position::epd::{load_file, Epd};
use engine::tools::san::parse_move;
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use std::path::PathBuf;

fn opcode() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => select(vec!["bm", "am", "id", "c0", "c9", "D1", "D6", "acd", "pv", "hmvc"]).prop_map(str::to_string),
        1 => "D[0-9]{1,12}",
        1 => "[A-Za-z][A-Za-z0-9_]{0,4}",
        1 => "[0-9\"-]{1,3}",
    ]
}

fn operand() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => "([KQRBN]?[a-h]?[1-8]?x?[a-h][1-8](=?[QRBNK])?|O-O(-O)?|0-0)[+#!?]{0,2}",
        2 => "[0-9]{1,20}",
        1 => "-[0-9]{1,3}",
        2 => "\"[ -~&&[^\"]]{0,20}\"?",
        1 => "[a-h][1-8][a-h][1-8]",
    ]
}

/// An EPD line: a FEN part (real or built) and operations, or a mutated
/// real line, or noise.
fn epd_line() -> impl Strategy<Value = String> {
    let operation = (opcode(), vec(operand(), 0..4)).prop_map(|(op, args)| format!("{op} {}", args.join(" ")));
    let fen_part = prop_oneof![
        select(seed_fens().to_vec()).prop_map(|f| f.split(' ').take(4).collect::<Vec<_>>().join(" ")),
        structured_fen(),
    ];
    let separator = prop_oneof![Just(";"), Just("; "), Just(" ;")];
    prop_oneof![
        3 => mutated(seed_lines(), FEN_ALPHABET),
        3 => (fen_part, vec(operation, 0..5), separator, prop_oneof![Just(""), Just(";")]).prop_map(
            |(fen, ops, sep, end)| format!("{fen} {}{end}", ops.join(sep))
        ),
        1 => "[ -~]{0,100}",
        1 => noise(100),
    ]
}

#[test]
fn epd_lines() {
    run_target("epd", cases(10_000), epd_line(), |line| match Epd::parse(line) {
        Ok(epd) => {
            let pos = epd.position();
            pos.verify().map_err(|e| proptest::test_runner::TestCaseError::fail(format!("inconsistent: {e}")))?;
            for (depth, nodes) in epd.perft_counts() {
                let held = epd.operations().iter().any(|(op, args)| {
                    op.strip_prefix('D').and_then(|d| d.parse::<u32>().ok()) == Some(depth)
                        && args.first().and_then(|n| n.parse::<u64>().ok()) == Some(nodes)
                });
                ensure(held, || format!("perft count D{depth} {nodes} is no operation of the line"))?;
            }
            let (_, _) = (epd.id(), epd.comment(0));
            for text in epd.best_moves().iter().chain(epd.avoid_moves()) {
                if let Ok(m) = parse_move(pos, text) {
                    ensure(legal_moves(pos).iter().any(|&x| x == m), || format!("{text} gave illegal {m}"))?;
                }
            }
            Ok(())
        }
        Err(e) => {
            let message = e.to_string();
            ensure(!message.is_empty() && message.len() <= line.len() + 300, || format!("message {message:?}"))
        }
    });
}

#[test]
fn epd_files() {
    let dir = std::env::temp_dir().join(format!("boardbench-fuzz-epd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("fuzz.epd");
    // Whole files: a few lines each, comments and blank lines among them,
    // written as bytes so that invalid UTF-8 reaches the reader.
    let file = vec(prop_oneof![4 => epd_line(), 1 => Just(String::new()), 1 => "#[ -~]{0,20}"], 0..6);
    run_target(
        "epd-file",
        (cases(25_000) / 50).max(1),
        (file, any::<bool>(), vec(any::<u8>(), 0..3)),
        |(lines, crlf, tail)| {
            let mut bytes = lines.join(if *crlf { "\r\n" } else { "\n" }).into_bytes();
            bytes.extend_from_slice(tail);
            std::fs::write(&path, &bytes).unwrap();
            match load_file(&path) {
                Ok(records) => {
                    ensure(!records.is_empty(), || "an empty file was accepted".into())?;
                    for r in &records {
                        r.position().verify().map_err(|e| proptest::test_runner::TestCaseError::fail(e.to_string()))?;
                    }
                    Ok(())
                }
                Err(e) => {
                    let message = e.to_string();
                    ensure(message.contains("fuzz.epd"), || format!("the message names no file: {message}"))
                }
            }
        },
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_real_suite_parses() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../positions");
    for file in [
        "perftsuite.epd",
        "perft_tricky.epd",
        "perft_marcel.epd",
        "wac.epd",
        "ecm.epd",
        "bk.epd",
        "sts.epd",
        "arasan2024.epd",
        "lichess_popular_20k.epd",
        "endgames_20k.epd",
        "derived_low_men.epd",
    ] {
        let records = load_file(&dir.join(file)).unwrap_or_else(|e| panic!("{e}"));
        for r in &records {
            r.position().verify().unwrap();
        }
    }
}
