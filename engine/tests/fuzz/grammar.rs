//! Input strategies shared by the targets: real positions as seeds, byte
//! mutations of a seed, FEN-shaped text built field by field, move tokens
//! and numbers.

use engine::position::epd::Epd;
use engine::Position;
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use std::path::PathBuf;
use std::sync::OnceLock;

/// Lines of the real EPD files in `positions/` (a spread of each).
pub fn seed_lines() -> &'static [String] {
    static LINES: OnceLock<Vec<String>> = OnceLock::new();
    LINES.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../positions");
        let mut lines = Vec::new();
        for (file, step) in [
            ("perftsuite.epd", 8),
            ("perft_tricky.epd", 1),
            ("wac.epd", 10),
            ("sts.epd", 50),
            ("arasan2024.epd", 5),
            ("endgames_20k.epd", 200),
            ("lichess_popular_20k.epd", 200),
        ] {
            let text = std::fs::read_to_string(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
            let real = text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#'));
            lines.extend(real.step_by(step).map(str::to_string));
        }
        lines
    })
}

/// The positions of [`seed_lines`].
pub fn seed_positions() -> &'static [Position] {
    static POSITIONS: OnceLock<Vec<Position>> = OnceLock::new();
    POSITIONS.get_or_init(|| {
        seed_lines().iter().map(|l| Epd::parse(l).unwrap_or_else(|e| panic!("{l}: {e}")).position().clone()).collect()
    })
}

/// The FEN fields (four, or six with the clocks) of a seed line.
pub fn seed_fens() -> &'static [String] {
    static FENS: OnceLock<Vec<String>> = OnceLock::new();
    FENS.get_or_init(|| seed_positions().iter().map(Position::to_fen).collect())
}

/// Characters a mutation inserts: what FEN, EPD and UCI are made of, and a
/// few that are not.
pub const FEN_ALPHABET: &[u8] = b"pnbrqkPNBRQK0123456789/ wb-KQkqabcdefgh~x;\"D.+#=\t";

/// Up to four edits of `seed`: replace, delete or insert a byte (from
/// `alphabet`, or any byte), swap two, truncate, or repeat a slice. Bytes
/// that stop being UTF-8 are replaced, as a line read lossily would be.
pub fn mutated(seeds: &'static [String], alphabet: &'static [u8]) -> impl Strategy<Value = String> {
    (0..seeds.len(), vec((0u8..8, any::<u16>(), any::<u16>(), any::<u8>()), 1..5)).prop_map(move |(i, edits)| {
        let mut b = seeds[i].as_bytes().to_vec();
        for (kind, at, at2, byte) in edits {
            let n = b.len();
            let at = at as usize % (n + 1);
            let letter = alphabet[byte as usize % alphabet.len()];
            match kind {
                0 if at < n => b[at] = letter,
                1 if at < n => {
                    b.remove(at);
                }
                2 => b.insert(at, letter),
                3 if n > 1 => b.swap(at % n, at2 as usize % n),
                4 => b.truncate(at),
                5 if at < n => {
                    let end = (at + 1 + at2 as usize % 12).min(n);
                    let slice = b[at..end].to_vec();
                    b.splice(end..end, slice);
                }
                6 => b.insert(at, byte),
                _ => b.push(letter),
            }
        }
        String::from_utf8_lossy(&b).into_owned()
    })
}

/// Bytes of any value, read lossily.
pub fn noise(max_len: usize) -> impl Strategy<Value = String> {
    vec(any::<u8>(), 0..max_len).prop_map(|b| String::from_utf8_lossy(&b).into_owned())
}

/// A board of random men with a king of each colour placed last (one may
/// land on the other, leaving a side without a king), written rank by
/// rank; `split` writes some runs of empty squares as two digits (`44`),
/// and `bad_rank` replaces one rank with arbitrary text.
fn placement() -> impl Strategy<Value = String> {
    let man = prop_oneof![12 => Just(' '), 2 => Just('p'), 2 => Just('P'), 1 => select(b"nbrqNBRQ".to_vec()).prop_map(char::from)];
    (
        vec(man, 64),
        0usize..64,
        0usize..64,
        prop_oneof![6 => Just(false), 1 => Just(true)],
        prop_oneof![6 => Just(None), 1 => (0usize..8, "[pnbrqkPNBRQK0-9~x]{0,10}").prop_map(Some)],
        prop_oneof![12 => Just(8usize), 1 => 6usize..11],
    )
        .prop_map(|(mut board, white_king, black_king, split, bad_rank, rank_count)| {
            board[white_king] = 'K';
            board[black_king] = 'k';
            let mut ranks: Vec<String> = board
                .chunks(8)
                .map(|row| {
                    let mut s = String::new();
                    let mut empty = 0;
                    for &c in row.iter().chain([&'!']) {
                        if c == ' ' {
                            empty += 1;
                            continue;
                        }
                        if empty > 0 {
                            if split && empty > 1 {
                                s.push_str(&format!("{}{}", empty / 2, empty - empty / 2));
                            } else {
                                s.push_str(&empty.to_string());
                            }
                            empty = 0;
                        }
                        if c != '!' {
                            s.push(c);
                        }
                    }
                    s
                })
                .collect();
            if let Some((i, text)) = bad_rank {
                ranks[i] = text;
            }
            ranks.resize(rank_count, "8".to_string());
            ranks.join("/")
        })
}

/// FEN built field by field: mostly well-formed fields, each sometimes
/// malformed.
pub fn structured_fen() -> impl Strategy<Value = String> {
    (
        placement(),
        prop_oneof![4 => Just("w".to_string()), 4 => Just("b".to_string()), 1 => "[a-zA-Z-]{0,2}"],
        prop_oneof![
            3 => Just("-".to_string()),
            4 => "K?Q?k?q?".prop_map(|s| if s.is_empty() { "-".to_string() } else { s }),
            1 => "[KQkqA-Ha-h-]{1,5}"
        ],
        prop_oneof![4 => Just("-".to_string()), 2 => "[a-h][36]", 1 => "[a-z][0-9]{1,2}"],
        prop_oneof![
            2 => Just(String::new()),
            4 => " [0-9]{1,2} [1-9][0-9]{0,2}",
            1 => " [0-9+.-]{0,6}( [0-9+.-]{0,6})?",
            1 => Just(" 0 0".to_string())
        ],
        prop_oneof![8 => Just(" ".to_string()), 1 => "[ \t]{1,3}"],
    )
        .prop_map(|(placement, side, castling, ep, clocks, sep)| {
            format!("{placement}{sep}{side}{sep}{castling}{sep}{ep}{clocks}")
        })
}

/// Text for the FEN parser: mutated real FENs, FENs built field by field,
/// FEN-alphabet soup, printable Unicode and raw bytes.
pub fn fen_text() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => mutated(seed_fens(), FEN_ALPHABET),
        4 => structured_fen(),
        1 => "[pnbrqkPNBRQK0-9/ wb\\-KQkqa-h~]{0,90}",
        1 => "\\PC{0,60}",
        1 => noise(90),
    ]
}

/// A move token as UCI GUIs send them, or something that looks like one.
pub fn move_token() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => "[a-h][1-8][a-h][1-8][qrbn]?",
        2 => select(vec!["e2e4", "d2d4", "g1f3", "e7e5", "d7d5", "g8f6", "e1g1", "e8c8", "e7e8q", "a7a8n", "b1c3"])
            .prop_map(str::to_string),
        1 => Just("0000".to_string()),
        1 => "[a-zA-Z0-9=+#-]{0,6}",
    ]
}

/// A number token: small, negative, too large for any integer, or not
/// quite a number.
pub fn number_token() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[0-9]{1,3}",
        1 => "-[0-9]{1,4}",
        1 => "[0-9]{8,25}",
        1 => Just("0".to_string()),
        1 => "[0-9a-z+.-]{0,5}",
    ]
}
