//! `engine kingdefects`: both sides' king-safety defect count and pointing
//! count, for one FEN or every position of an EPD file, with either
//! implementation.

use super::see::{record_name, write_stdout};
use super::{load_epd, parse_fen, print_json, CliResult, ImplArg};
use clap::{ArgGroup, Args};
use engine::defects::{both_sides, BitboardDefects, KingDefects, MailboxDefects};
use engine::Position;
use serde_json::{json, Value};
use std::path::PathBuf;

#[derive(Args)]
#[command(group(ArgGroup::new("input").required(true).args(["fen", "file"])))]
pub struct KingDefectsArgs {
    /// One position.
    #[arg(long)]
    fen: Option<String>,
    /// An EPD file: one line per position.
    file: Option<PathBuf>,
    /// Implementation.
    #[arg(long = "impl", value_enum, default_value = "bitboard")]
    implementation: ImplArg,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// Both sides' defects with the implementation chosen once.
type DefectsFn = fn(&Position) -> [KingDefects; 2];

fn side_json(d: KingDefects) -> Value {
    json!({"count": d.count, "pointing": d.pointing})
}

pub fn kingdefects(a: KingDefectsArgs) -> CliResult {
    let (count, name): (DefectsFn, &str) = match a.implementation {
        ImplArg::Mailbox => (both_sides::<MailboxDefects>, "mailbox"),
        ImplArg::Bitboard => (both_sides::<BitboardDefects>, "bitboard"),
    };
    if let Some(fen) = &a.fen {
        let [w, b] = count(&parse_fen(fen)?);
        if a.json {
            print_json(&json!({"impl": name, "white": side_json(w), "black": side_json(b)}));
        } else {
            println!("white count {} pointing {}", w.count, w.pointing);
            println!("black count {} pointing {}", b.count, b.pointing);
        }
        return Ok(());
    }
    // clap's group guarantees one of the two.
    let Some(file) = &a.file else { return Ok(()) };
    let records = load_epd(file)?;
    let mut rows = Vec::with_capacity(records.len());
    let mut out = String::new();
    for (i, epd) in records.iter().enumerate() {
        let id = record_name(epd.id(), i + 1);
        let [w, b] = count(epd.position());
        if a.json {
            rows.push(json!({"id": id, "white": side_json(w), "black": side_json(b)}));
        } else {
            out.push_str(&format!("{id} {} {} {} {}\n", w.count, w.pointing, b.count, b.pointing));
        }
    }
    if a.json {
        print_json(&json!({"impl": name, "positions": rows}));
        Ok(())
    } else {
        write_stdout(&out)
    }
}
