//! EPD: a four-field FEN (optionally followed by the two clock fields) and
//! `;`-separated operations: `bm`, `am`, `id`, `c0`..`c9`, and perft counts
//! `D1`..`D6` in both the `;D1 20` and `; D1 20` spellings.

use super::{FenError, Position};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// What is wrong with one EPD line.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EpdError {
    /// The position fields are bad; `fen` quotes them (at most 100
    /// characters of them).
    #[error("bad FEN {fen:?}: {source}")]
    Fen {
        /// The position fields as written.
        fen: String,
        /// What is wrong with them.
        source: FenError,
    },
    /// A quoted operand without its closing quote.
    #[error("unterminated quoted operand in operation {opcode:?}")]
    UnterminatedQuote {
        /// The operation's opcode.
        opcode: String,
    },
    /// A `bm`, `am`, `id` or perft operation without an operand.
    #[error("operation {opcode:?} has no operand")]
    MissingOperand {
        /// The operation's opcode.
        opcode: String,
    },
    /// A perft count that is not a non-negative integer.
    #[error("perft count {opcode} {value:?}: expected a non-negative integer")]
    PerftCount {
        /// The operation's opcode.
        opcode: String,
        /// The operand as written.
        value: String,
    },
    /// A perft opcode whose depth is not a number.
    #[error("perft depth {opcode}: expected D followed by a depth from 0 to {max}", max = u32::MAX)]
    PerftDepth {
        /// The operation's opcode.
        opcode: String,
    },
    /// An operation that does not start with a letter.
    #[error("operation {found:?} does not start with an opcode")]
    BadOpcode {
        /// The operation as written.
        found: String,
    },
}

/// Reading an EPD file failed.
#[derive(Debug, Error)]
pub enum EpdFileError {
    /// The file could not be read.
    #[error("cannot read EPD file {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why reading failed.
        source: std::io::Error,
    },
    /// A line is not a valid EPD record.
    #[error("{path}:{line}: {source}")]
    Line {
        /// The file.
        path: PathBuf,
        /// The line number, from 1.
        line: usize,
        /// What is wrong with the line.
        source: EpdError,
    },
    /// The file holds no records.
    #[error("EPD file {path} holds no positions")]
    Empty {
        /// The file.
        path: PathBuf,
    },
    /// A line is not UTF-8 text.
    #[error("{path}:{line}: not UTF-8 text (byte {byte:#04x}); EPD files are ASCII")]
    NotText {
        /// The file.
        path: PathBuf,
        /// The line number, from 1.
        line: usize,
        /// The first byte that is not text.
        byte: u8,
    },
}

/// One parsed EPD record.
#[derive(Clone, Debug)]
pub struct Epd {
    position: Position,
    operations: Vec<(String, Vec<String>)>,
}

/// Split operands on whitespace, keeping double-quoted strings whole.
fn operands(opcode: &str, text: &str) -> Result<Vec<String>, EpdError> {
    let mut out = Vec::new();
    let mut chars = text.trim().chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c == '"' {
            chars.next();
            let mut s = String::new();
            loop {
                match chars.next() {
                    Some('"') => break,
                    Some(ch) => s.push(ch),
                    None => return Err(EpdError::UnterminatedQuote { opcode: opcode.to_string() }),
                }
            }
            out.push(s);
        } else {
            let mut s = String::new();
            while let Some(&ch) = chars.peek() {
                if ch.is_whitespace() {
                    break;
                }
                s.push(ch);
                chars.next();
            }
            out.push(s);
        }
    }
    Ok(out)
}

/// Split `text` on `;` outside double quotes.
fn split_operations(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut start, mut quoted) = (0, false);
    for (i, c) in text.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ';' if !quoted => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

/// The next whitespace-delimited token of `s` and the rest after it.
fn next_token(s: &str) -> Option<(&str, &str)> {
    let s = s.trim_start();
    if s.is_empty() {
        return None;
    }
    let end = s.find(|c: char| c.is_whitespace() || c == ';').unwrap_or(s.len());
    if end == 0 {
        return None;
    }
    Some((&s[..end], &s[end..]))
}

impl Epd {
    /// Parse one EPD line.
    pub fn parse(line: &str) -> Result<Epd, EpdError> {
        let mut rest = line;
        let mut fields = Vec::with_capacity(6);
        while fields.len() < 4 {
            match next_token(rest) {
                Some((tok, r)) => {
                    fields.push(tok);
                    rest = r;
                }
                None => break,
            }
        }
        if fields.is_empty() {
            return Err(fen_error(&fields, &[], FenError::Empty));
        }
        if fields.len() < 4 {
            return Err(fen_error(&fields, &[], FenError::FieldCount { found: fields.len() }));
        }
        // Optional clocks: two numbers before the first operation.
        let mut clocks = [None, None];
        if let Some((h, r1)) = next_token(rest) {
            if h.bytes().all(|b| b.is_ascii_digit()) {
                if let Some((f, r2)) = next_token(r1) {
                    if f.bytes().all(|b| b.is_ascii_digit()) {
                        clocks = [Some(h), Some(f)];
                        rest = r2;
                    }
                }
            }
        }
        let position = Position::from_fields(fields[0], fields[1], fields[2], fields[3], clocks[0], clocks[1])
            .map_err(|e| fen_error(&fields, &clocks, e))?;
        let mut operations = Vec::new();
        for op in split_operations(rest) {
            let op = op.trim();
            if op.is_empty() {
                continue;
            }
            let (opcode, operand_text) = op.split_at(op.find(char::is_whitespace).unwrap_or(op.len()));
            if !opcode.chars().next().is_some_and(|c| c.is_ascii_alphabetic()) {
                return Err(EpdError::BadOpcode { found: op.to_string() });
            }
            let ops = operands(opcode, operand_text)?;
            if ops.is_empty() && matches!(opcode, "bm" | "am" | "id") || opcode.starts_with('D') && ops.is_empty() {
                return Err(EpdError::MissingOperand { opcode: opcode.to_string() });
            }
            if is_perft_opcode(opcode) {
                if opcode[1..].parse::<u32>().is_err() {
                    return Err(EpdError::PerftDepth { opcode: opcode.to_string() });
                }
                if ops.len() != 1 || ops[0].parse::<u64>().is_err() {
                    return Err(EpdError::PerftCount { opcode: opcode.to_string(), value: ops.join(" ") });
                }
            }
            operations.push((opcode.to_string(), ops));
        }
        Ok(Epd { position, operations })
    }

    /// The position (its clocks from the record, or 0 and 1).
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The position as FEN.
    pub fn fen(&self) -> String {
        self.position.to_fen()
    }

    /// Operands of the first operation named `opcode`.
    pub fn operation(&self, opcode: &str) -> Option<&[String]> {
        self.operations.iter().find(|(o, _)| o == opcode).map(|(_, v)| v.as_slice())
    }

    /// Every operation with its operands, in the record's order.
    pub fn operations(&self) -> &[(String, Vec<String>)] {
        &self.operations
    }

    /// The first `id` operand, if any.
    pub fn id(&self) -> Option<&str> {
        self.operation("id").and_then(|v| v.first()).map(String::as_str)
    }

    /// `bm` moves as written (usually SAN).
    pub fn best_moves(&self) -> &[String] {
        self.operation("bm").unwrap_or(&[])
    }

    /// `am` moves as written (usually SAN).
    pub fn avoid_moves(&self) -> &[String] {
        self.operation("am").unwrap_or(&[])
    }

    /// Comment `c0`..`c9`, operands joined by spaces.
    pub fn comment(&self, n: u8) -> Option<String> {
        self.operation(&format!("c{n}")).map(|v| v.join(" "))
    }

    /// Expected perft counts `(depth, nodes)`, sorted by depth.
    pub fn perft_counts(&self) -> Vec<(u32, u64)> {
        let mut v: Vec<(u32, u64)> = self
            .operations
            .iter()
            .filter(|(o, _)| is_perft_opcode(o))
            .filter_map(|(o, ops)| Some((o[1..].parse().ok()?, ops.first()?.parse().ok()?)))
            .collect();
        v.sort();
        v
    }
}

/// [`EpdError::Fen`] quoting the position fields and any clocks.
fn fen_error(fields: &[&str], clocks: &[Option<&str>], source: FenError) -> EpdError {
    let text = fields.iter().copied().chain(clocks.iter().flatten().copied()).collect::<Vec<_>>().join(" ");
    let fen = match text.char_indices().nth(100) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text,
    };
    EpdError::Fen { fen, source }
}

fn is_perft_opcode(op: &str) -> bool {
    op.len() >= 2 && op.starts_with('D') && op[1..].bytes().all(|b| b.is_ascii_digit())
}

/// Read every record of an EPD file; blank lines and lines starting with
/// `#` are skipped. The first bad line stops the read with its line number.
pub fn load_file(path: &Path) -> Result<Vec<Epd>, EpdFileError> {
    let bytes = std::fs::read(path).map_err(|source| EpdFileError::Io { path: path.to_path_buf(), source })?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let bad = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        let line = 1 + bytes[..bad].iter().filter(|&&b| b == b'\n').count();
        EpdFileError::NotText { path: path.to_path_buf(), line, byte: bytes[bad] }
    })?;
    // A byte-order mark (some Windows editors write one) is not part of the
    // first line.
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_matches(|c: char| c.is_whitespace() || c == '\0');
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let epd =
            Epd::parse(line).map_err(|source| EpdFileError::Line { path: path.to_path_buf(), line: i + 1, source })?;
        out.push(epd);
    }
    if out.is_empty() {
        return Err(EpdFileError::Empty { path: path.to_path_buf() });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perft_spellings() {
        let a = Epd::parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D3 8902").unwrap();
        assert_eq!(a.perft_counts(), vec![(1, 20), (2, 400), (3, 8902)]);
        assert_eq!(a.fen(), super::super::START_FEN);
        let b = Epd::parse("3k1b2/p4r2/1P6/P1p1pnpP/2P5/R4B1R/6N1/4K3 b - - 0 1; D1 27; D2 820").unwrap();
        assert_eq!(b.perft_counts(), vec![(1, 27), (2, 820)]);
        let c = Epd::parse("k7/6p1/8/8/8/8/7P/K7 b - - 0 1; D6 55338").unwrap();
        assert_eq!(c.perft_counts(), vec![(6, 55338)]);
    }

    #[test]
    fn opcodes() {
        let e = Epd::parse(
            r#"1kr5/3n4/q3p2p/p2n2p1/PppB1P2/5BP1/1P2Q2P/3R2K1 w - - bm f5; id "STS(v1.0) Undermine.001"; c0 "f5=10, Be5+=2"; c9 "f4f5 d4e5";"#,
        )
        .unwrap();
        assert_eq!(e.best_moves(), ["f5"]);
        assert_eq!(e.id(), Some("STS(v1.0) Undermine.001"));
        assert_eq!(e.comment(0).as_deref(), Some("f5=10, Be5+=2"));
        assert_eq!(e.comment(9).as_deref(), Some("f4f5 d4e5"));
        let am = Epd::parse("4k3/8/8/8/8/8/8/4K2R w K - am Rh8+ Kf2; id \"x;y\";").unwrap();
        assert_eq!(am.avoid_moves(), ["Rh8+", "Kf2"]);
        assert_eq!(am.id(), Some("x;y"));
        assert_eq!(am.fen(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        let bare = Epd::parse("rnbqkb1r/pp2pppp/3p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R b KQkq -  ").unwrap();
        assert!(bare.operations().is_empty());
    }

    #[test]
    fn bad_epd_lines() {
        type Expected = fn(&EpdError) -> bool;
        let cases: Vec<(&str, Expected)> = vec![
            ("", |e| matches!(e, EpdError::Fen { source: FenError::Empty, .. })),
            ("4k3/8/8/8/8/8/8/4K3 w -", |e| {
                matches!(e, EpdError::Fen { source: FenError::FieldCount { found: 3 }, .. })
            }),
            ("4k3/8/8/8/8/8/8/4K3 w - - id \"open", |e| matches!(e, EpdError::UnterminatedQuote { .. })),
            ("4k3/8/8/8/8/8/8/4K3 w - - ;D1 x", |e| matches!(e, EpdError::PerftCount { .. })),
            ("4k3/8/8/8/8/8/8/4K3 w - - ;D1 -5", |e| matches!(e, EpdError::PerftCount { .. })),
            ("4k3/8/8/8/8/8/8/4K3 w - - ;D99999999999 5", |e| matches!(e, EpdError::PerftDepth { .. })),
            ("4k3/8/8/8/8/8/8/4K3 w - - ;D2", |e| matches!(e, EpdError::MissingOperand { .. })),
            ("4k3/8/8/8/8/8/8/4K3 w - - bm;", |e| matches!(e, EpdError::MissingOperand { .. })),
            ("4k3/8/8/8/8/8/8/4K3 w - - 5x; id \"a\"", |e| matches!(e, EpdError::BadOpcode { .. })),
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 0 ;D1 5", |e| {
                matches!(e, EpdError::Fen { source: FenError::FullmoveNumber { .. }, .. })
            }),
            ("4k3/8/8/8/8/8/8/4K9 w - - bm Kd1;", |e| {
                matches!(e, EpdError::Fen { source: FenError::RankLength { .. }, .. })
            }),
        ];
        for (line, expected) in cases {
            let e = Epd::parse(line).expect_err(line);
            assert!(expected(&e), "{line:?} gave {e:?}");
        }
        // A bad position is quoted in the message.
        let e = Epd::parse("3k4/44/8/8/8/8/8/4K3 w - - 0 1 bm Kd1;").unwrap_err();
        assert_eq!(
            e.to_string(),
            "bad FEN \"3k4/44/8/8/8/8/8/4K3 w - - 0 1\": piece placement: rank 7 has two digits in a row (\"44\"); \
             write one count per run of empty squares"
        );
    }

    #[test]
    fn files_with_a_byte_order_mark_or_bad_bytes() {
        let dir = std::env::temp_dir().join(format!("epd-bytes-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("x.epd");
        std::fs::write(&path, "\u{feff}4k3/8/8/8/8/8/8/4K3 w - - ;D1 5\n").unwrap();
        assert_eq!(load_file(&path).unwrap().len(), 1);
        std::fs::write(&path, b"4k3/8/8/8/8/8/8/4K3 w - - ;D1 5\n4k3/8/8/8/8/8/8/4K3 w - - id \"\xe9\";\n").unwrap();
        let e = load_file(&path).unwrap_err();
        assert!(matches!(e, EpdFileError::NotText { line: 2, byte: 0xe9, .. }), "{e}");
        assert!(e.to_string().ends_with("x.epd:2: not UTF-8 text (byte 0xe9); EPD files are ASCII"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
