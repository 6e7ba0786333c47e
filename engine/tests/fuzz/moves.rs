//! Move strings, in SAN and UCI notation, on real positions: no text
//! panics; a move a parser returns is legal, and its own SAN and UCI
//! spellings parse back to it. The same texts as a UCI move list
//! (`position fen ... moves ...`, `0000` among them) leave a consistent
//! position or a message naming the move.

use crate::grammar::{move_token, seed_positions};
use crate::{cases, ensure, run_target, CaseResult};
use engine::movegen::legal_moves;
use engine::tools::san::{parse_move, parse_san, to_san};
use engine::uci::parse_position;
use engine::{Move, Position};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

/// A legal move of `pos` spelled one of several ways (SAN, UCI, with
/// check marks, another case, stray spaces), or none when there is none.
fn spelled(pos: &Position, pick: usize, form: u8, suffix: &str) -> String {
    let legal = legal_moves(pos);
    if legal.is_empty() {
        return String::new();
    }
    let m = legal[pick % legal.len()];
    let san = to_san(pos, m);
    match form % 6 {
        0 => san,
        1 => m.uci().to_string(),
        2 => format!("{san}{suffix}"),
        3 => san.to_ascii_lowercase(),
        4 => format!(" {} ", m.uci().as_str().to_ascii_uppercase()),
        _ => san.replace('x', ""),
    }
}

/// (FEN, text): a real position and a move text for it.
fn position_and_text() -> impl Strategy<Value = (String, String)> {
    let n = seed_positions().len();
    (0..n, any::<usize>(), any::<u8>(), "[+#!?]{0,2}", 0u8..5, move_token(), "\\PC{0,10}").prop_map(
        |(i, pick, form, suffix, kind, token, noise)| {
            let pos = &seed_positions()[i];
            let text = match kind {
                0 | 1 => spelled(pos, pick, form, &suffix),
                2 => token,
                3 => noise,
                _ => format!("{}{}", spelled(pos, pick, form, &suffix), noise.chars().take(2).collect::<String>()),
            };
            (pos.to_fen(), text)
        },
    )
}

fn is_legal(pos: &Position, m: Move) -> bool {
    legal_moves(pos).iter().any(|&x| x == m)
}

fn check_text(pos: &Position, text: &str) -> CaseResult {
    for parsed in [parse_move(pos, text), parse_san(pos, text)] {
        match parsed {
            Ok(m) => {
                ensure(is_legal(pos, m), || format!("{text:?} gave the illegal move {m}"))?;
                let san = to_san(pos, m);
                ensure(parse_move(pos, &san) == Ok(m), || format!("{m}'s SAN {san:?} does not parse back"))?;
                ensure(parse_move(pos, m.uci().as_str()) == Ok(m), || format!("{m}'s UCI does not parse back"))?;
            }
            Err(e) => {
                let message = e.to_string();
                ensure(!message.is_empty() && message.len() <= 3 * text.len() + 2000, || {
                    format!("message {message:?}")
                })?;
            }
        }
    }
    Ok(())
}

#[test]
fn move_strings() {
    run_target("moves", cases(10_000), position_and_text(), |(fen, text)| {
        let pos = Position::from_fen(fen).map_err(|e| TestCaseError::fail(e.to_string()))?;
        check_text(&pos, text)
    });
}

/// A real position and a UCI move list: mostly legal moves played in turn
/// (each a legal move of the position it is played in), with tokens and
/// passes mixed in.
fn move_list() -> impl Strategy<Value = (String, Vec<String>)> {
    let n = seed_positions().len();
    (0..n, vec((0u8..8, any::<usize>(), move_token()), 0..12)).prop_map(|(i, steps)| {
        let mut pos = seed_positions()[i].clone();
        let fen = pos.to_fen();
        let mut texts = Vec::new();
        for (kind, pick, token) in steps {
            let legal = legal_moves(&pos);
            if kind < 6 && !legal.is_empty() {
                let m = legal[pick % legal.len()];
                texts.push(m.uci().to_string());
                pos.make(m);
            } else if kind == 6 {
                texts.push("0000".to_string());
                if !pos.in_check() {
                    pos.make_pass();
                }
            } else {
                texts.push(token);
            }
        }
        (fen, texts)
    })
}

#[test]
fn uci_move_lists() {
    run_target("move-lists", cases(10_000), move_list(), |(fen, texts)| {
        let mut args: Vec<&str> = vec!["fen"];
        args.extend(fen.split(' '));
        args.push("moves");
        args.extend(texts.iter().map(String::as_str));
        match parse_position(&args) {
            Ok(pos) => {
                pos.verify().map_err(|e| TestCaseError::fail(format!("inconsistent after the moves: {e}")))?;
                ensure(!pos.king_attacked(pos.side_to_move().flip()), || "the side not to move is in check".into())
            }
            Err(message) => ensure(message.starts_with("move ") || message.contains("FEN"), || {
                format!("the message names no move: {message}")
            }),
        }
    });
}
