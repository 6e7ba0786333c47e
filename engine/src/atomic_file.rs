//! Writing a file so that an interrupted run never leaves it half written:
//! the bytes go to a temporary file beside it, are synced, and the
//! temporary file is renamed over the old one. Both the engine (weights
//! tables) and the measurement suite (results, baselines) write this way.

use std::io::Write;
use std::path::Path;

/// Write `bytes` to `path` atomically: `.<name>.<pid>.tmp` beside it,
/// synced to disk, then renamed over `path` (and the directory synced, so
/// the rename itself survives a power loss where the file system allows).
/// On an error the temporary file is removed and `path` keeps its old
/// contents.
/// (`Weights::save` and boardbench's `report` tests cover both outcomes.)
pub fn write(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let name = path.file_name().ok_or_else(|| {
        std::io::Error::new(std::io::ErrorKind::InvalidInput, format!("{} names no file", path.display()))
    })?;
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let tmp = dir.join(format!(".{}.{}.tmp", name.to_string_lossy(), std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)?;
        // Best effort: not every file system lets a directory be synced.
        if let Ok(d) = std::fs::File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}
