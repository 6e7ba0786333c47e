//! FEN: no input panics; an accepted FEN is well-formed by a separate
//! reading of the syntax (python-chess's, plus the stricter points the
//! parser documents), gives a consistent position that prints back to
//! itself, and both move generators agree on it to depth 2; a rejected
//! one gets a short message.

use crate::grammar::fen_text;
use crate::{cases, ensure, run_target};
use engine::movegen::{BitboardGen, MailboxGen};
use engine::sliders::Magic;
use engine::tools::perft::perft;
use engine::Position;

/// Whether `text` is FEN syntax the parser may accept: 4 to 6 fields; 8
/// ranks of 8 squares, pieces from `pnbrqkPNBRQK`, counts 1 to 8 never
/// two in a row; `w` or `b`; `-` or castling letters each at most once,
/// White's (`KQ`) before Black's (`kq`); `-` or an en-passant square on
/// rank 3 or 6; clocks of plain digits, at most 65535, fullmove at least 1.
/// Written independently of the parser, as the reference it is checked
/// against.
pub fn well_formed(text: &str) -> bool {
    let fields: Vec<&str> = text.split_ascii_whitespace().collect();
    if !(4..=6).contains(&fields.len()) {
        return false;
    }
    let ranks: Vec<&str> = fields[0].split('/').collect();
    let ranks_ok = ranks.len() == 8
        && ranks.iter().all(|rank| {
            let (mut squares, mut after_digit) = (0, false);
            for c in rank.chars() {
                match c {
                    '1'..='8' if !after_digit => {
                        squares += c as u32 - '0' as u32;
                        after_digit = true;
                    }
                    'p' | 'n' | 'b' | 'r' | 'q' | 'k' | 'P' | 'N' | 'B' | 'R' | 'Q' | 'K' => {
                        squares += 1;
                        after_digit = false;
                    }
                    _ => return false,
                }
            }
            squares == 8
        });
    let side_ok = matches!(fields[1], "w" | "b");
    let castling = fields[2];
    let castling_ok = castling == "-" || {
        let white_end = castling.find(['k', 'q']).unwrap_or(castling.len());
        let (white, black) = castling.split_at(white_end);
        let letters_ok = |s: &str, allowed: &str| {
            s.chars().all(|c| allowed.contains(c)) && s.chars().enumerate().all(|(i, c)| !s[..i].contains(c))
        };
        !castling.is_empty() && letters_ok(white, "KQ") && letters_ok(black, "kq")
    };
    let ep = fields[3];
    let ep_ok = ep == "-"
        || (ep.len() == 2 && matches!(ep.as_bytes()[0], b'a'..=b'h') && matches!(ep.as_bytes()[1], b'3' | b'6'));
    let number = |s: &str, lo: u32| {
        s.bytes().all(|b| b.is_ascii_digit()) && s.parse::<u32>().is_ok_and(|n| n >= lo && n <= 65535)
    };
    let clocks_ok = fields.get(4).map_or(true, |h| number(h, 0)) && fields.get(5).map_or(true, |f| number(f, 1));
    ranks_ok && side_ok && castling_ok && ep_ok && clocks_ok
}

#[test]
fn fen() {
    run_target("fen", cases(20_000), fen_text(), |text| match Position::from_fen(text) {
        Ok(pos) => {
            ensure(well_formed(text), || "accepted, but not well-formed FEN".into())?;
            pos.verify().map_err(|e| proptest::test_runner::TestCaseError::fail(format!("inconsistent: {e}")))?;
            let fen = pos.to_fen();
            let again = Position::from_fen(&fen);
            ensure(again.as_ref().is_ok_and(|p| p.to_fen() == fen), || format!("printed as {fen:?}: {again:?}"))?;
            let mailbox = perft::<MailboxGen>(&mut pos.clone(), 2, false);
            let bitboard = perft::<BitboardGen<Magic>>(&mut pos.clone(), 2, true);
            ensure(mailbox == bitboard, || format!("perft 2: mailbox {mailbox}, bitboard {bitboard} on {fen}"))
        }
        Err(e) => {
            let message = e.to_string();
            ensure(!message.is_empty() && message.len() <= text.len() + 200, || format!("message {message:?}"))
        }
    });
}

#[test]
fn the_reference_syntax_check_itself() {
    for good in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "4k3/8/8/8/8/8/8/4K2R w K -",
        "r3k2r/8/8/8/8/8/8/R3K2R b QKqk e3 12 40",
    ] {
        assert!(well_formed(good), "{good}");
    }
    for bad in [
        "3k4/44/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w kK - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w KK - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - e4 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 0",
        "4k3/8/8/8/8/8/8/4K3 w - - +1 1",
        "4k3/8/8/8/8/8/8/4K3 x - - 0 1",
        "4k3/8/8/8/8/8/8/4K9 w - - 0 1",
        "4k3/8/8/8/8/8/8 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w -",
    ] {
        assert!(!well_formed(bad), "{bad}");
    }
}
