//! The gate's positions: selected from the default files, written as one
//! EPD file the measuring processes of both builds read back.

use crate::output::write_atomic;
use crate::suite::density::{self, PositionSet, Sizes};
use crate::workspace;
use std::path::Path;

/// Positions from a file the gate wrote: every bucket, no ladder.
pub fn positions_from(file: &Path, per_bucket: usize) -> Result<PositionSet, String> {
    density::select(&[file.to_path_buf()], None, Sizes { per_bucket, per_count: 0, ..Sizes::default() })
        .map_err(|e| e.to_string())
}

/// Write every bucket's positions of `set` as an EPD file.
pub fn write_positions(path: &Path, set: &PositionSet) -> Result<(), String> {
    let mut text = String::from("# positions of the commit gate, by bucket (written by boardbench gate)\n");
    for (_, chosen) in &set.buckets {
        for c in chosen {
            text.push_str(&c.position.to_fen());
            text.push('\n');
        }
    }
    write_atomic(path, text.as_bytes()).map_err(|e| e.to_string())
}

/// `per_bucket` positions of every bucket from the default files in
/// positions/ (the suite's seeded selection), no ladder.
pub fn select_positions(per_bucket: usize) -> Result<PositionSet, String> {
    let dir = workspace::positions_dir();
    density::select(&density::default_sources(&dir), None, Sizes { per_bucket, per_count: 0, ..Sizes::default() })
        .map_err(|e| e.to_string())
}
