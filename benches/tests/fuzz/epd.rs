//! Position files as boardbench reads them: `--positions` files (EPD, or
//! Lichess-puzzle CSV) through `density::read_source` and the selection of
//! buckets and ladder from them, and a match's openings file through
//! `Book::load`. Inputs are files of lines taken from the committed
//! position files (FEN and EPD lines with operations, CSV rows, comments,
//! blank lines), each possibly edited, with or without a byte-order mark,
//! CR LF endings, or bytes that are not UTF-8. No file panics; a rejected
//! one gets one line, and what is accepted parses.

use crate::{cases, ensure, run_target};
use boardbench::strength::openings::Book;
use boardbench::suite::density::{count_men, read_source, select, Bucket, Sizes};
use engine::position::epd::Epd;
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select as pick;
use std::path::PathBuf;
use std::sync::OnceLock;

/// Lines of the committed position files, a few from each.
fn pool() -> &'static [String] {
    static POOL: OnceLock<Vec<String>> = OnceLock::new();
    POOL.get_or_init(|| {
        let dir = boardbench::workspace::positions_dir();
        let mut lines = vec![String::new(), "# a comment".to_string(), "   ".to_string()];
        for (file, take) in [
            ("lichess_popular_20k.epd", 40),
            ("endgames_20k.epd", 40),
            ("derived_low_men.epd", 20),
            ("wac.epd", 20),
            ("lichess_puzzles.csv", 20),
        ] {
            let text = std::fs::read_to_string(dir.join(file)).unwrap_or_else(|e| panic!("positions/{file}: {e}"));
            lines.extend(text.lines().take(take).map(str::to_string));
        }
        lines
    })
}

/// A byte edit of a line: kind (replace, remove, insert, cut), offset, byte.
type Edit = (u8, u32, u8);

/// One file: its lines (pool index and byte edits), then how it is framed.
#[derive(Clone, Debug)]
struct File {
    lines: Vec<(usize, Vec<Edit>)>,
    csv: bool,
    bom: bool,
    crlf: bool,
    /// A byte that is not UTF-8 put at this offset.
    not_utf8: Option<u32>,
}

impl File {
    fn bytes(&self) -> Vec<u8> {
        let pool = pool();
        let end: &[u8] = if self.crlf { b"\r\n" } else { b"\n" };
        let mut out = Vec::new();
        if self.bom {
            out.extend_from_slice("\u{feff}".as_bytes());
        }
        for (index, edits) in &self.lines {
            let mut b = pool[index % pool.len()].clone().into_bytes();
            for &(kind, at, byte) in edits {
                let at = at as usize % (b.len() + 1);
                match kind {
                    0 if at < b.len() => b[at] = byte,
                    1 if at < b.len() => {
                        b.remove(at);
                    }
                    2 => b.insert(at, byte),
                    _ => b.truncate(at),
                }
            }
            out.extend_from_slice(&b);
            out.extend_from_slice(end);
        }
        if let Some(at) = self.not_utf8 {
            let at = at as usize % (out.len() + 1);
            out.insert(at, 0xff);
        }
        out
    }
}

fn file() -> impl Strategy<Value = File> {
    // Bytes FEN and EPD are made of, and a few that are not.
    let bytes = b"pnbrqkPNBRQK12345678/ -wb0KQkq-;\",e4=\t#\0x".to_vec();
    let edit = (0u8..4, any::<u32>(), pick(bytes));
    let line = (any::<usize>(), prop_oneof![3 => Just(Vec::new()), 2 => vec(edit, 1..4)]);
    (vec(line, 0..10), any::<bool>(), proptest::bool::weighted(0.1), proptest::bool::weighted(0.2)).prop_flat_map(
        |(lines, csv, bom, crlf)| {
            proptest::option::weighted(0.05, any::<u32>()).prop_map(move |not_utf8| File {
                lines: lines.clone(),
                csv,
                bom,
                crlf,
                not_utf8,
            })
        },
    )
}

fn one_line(e: &str) -> bool {
    !e.is_empty() && !e.contains('\n')
}

#[test]
fn position_files() {
    let dir = tempfile::tempdir().unwrap();
    let epd: PathBuf = dir.path().join("fuzz.epd");
    let csv: PathBuf = dir.path().join("fuzz.csv");
    run_target("position-files", cases(2_000), file(), |f| {
        let path = if f.csv { &csv } else { &epd };
        std::fs::write(path, f.bytes()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let shown = path.display().to_string();
        match read_source(path) {
            Ok(records) => {
                ensure(!records.is_empty(), || "accepted with no positions".into())?;
                for r in &records {
                    ensure(r.position().is_ok() && count_men(&r.text) == Some(r.men), || format!("record {r:?}"))?;
                }
                // Buckets and ladder from it: chosen within their bounds, or
                // one line naming the empty bucket.
                let sizes = Sizes { per_bucket: 3, per_count: 2, seed: records.len() as u64 };
                match select(std::slice::from_ref(path), None, sizes) {
                    Ok(set) => {
                        for (bucket, chosen) in &set.buckets {
                            let (lo, hi) = bucket.men();
                            ensure(!chosen.is_empty() && chosen.len() <= 3, || format!("{bucket}: {}", chosen.len()))?;
                            ensure(chosen.iter().all(|c| (lo..=hi).contains(&c.men)), || format!("{bucket} men"))?;
                        }
                        ensure(set.buckets.len() == Bucket::ALL.len(), || "a bucket is missing".into())?;
                    }
                    Err(e) => {
                        let e = e.to_string();
                        ensure(one_line(&e) && e.starts_with("no positions with "), || format!("select: {e:?}"))?;
                    }
                }
            }
            Err(e) => {
                let e = e.to_string();
                let named = e.starts_with(&format!("{shown}:"))
                    || e.starts_with(&format!("cannot read positions file {shown}: "))
                    || e == format!("positions file {shown} holds no positions");
                ensure(one_line(&e) && named, || format!("read_source: {e:?}"))?;
            }
        }
        match Book::load(path) {
            Ok(book) => {
                for o in &book.openings {
                    ensure(Epd::parse(&o.fen).is_ok(), || format!("opening {:?} does not parse back", o.fen))?;
                }
                Ok(())
            }
            Err(e) => {
                ensure(one_line(&e) && e.starts_with(&format!("openings {shown}")), || format!("openings: {e:?}"))
            }
        }
    });
}
