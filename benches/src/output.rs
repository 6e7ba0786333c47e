//! Where results go: files written atomically (a temporary file in the same
//! directory, synced, then renamed over the target, so an interrupted run
//! never destroys the last good result), an output directory checked
//! before anything is measured, and stdout written as a Unix tool writes it.

use std::path::{Path, PathBuf};

/// Why a result could not be written.
#[derive(Debug)]
pub struct WriteError {
    pub path: PathBuf,
    pub reason: String,
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot write {}: {}", self.path.display(), self.reason)
    }
}

impl std::error::Error for WriteError {}

/// Write `bytes` to `path` atomically ([`engine::atomic_file::write`]): on
/// failure `path` keeps its old contents.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    engine::atomic_file::write(path, bytes).map_err(|e| WriteError { path: path.to_path_buf(), reason: e.to_string() })
}

/// Make sure `dir` exists and is writable, before anything is measured.
pub fn check_writable(dir: &Path) -> Result<(), WriteError> {
    let err = |e: std::io::Error| WriteError { path: dir.to_path_buf(), reason: e.to_string() };
    std::fs::create_dir_all(dir).map_err(err)?;
    let probe = dir.join(format!(".boardbench-probe.{}.tmp", std::process::id()));
    std::fs::write(&probe, b"probe").map_err(err)?;
    std::fs::remove_file(&probe).map_err(err)?;
    Ok(())
}

/// Write `text` to stdout. A reader that has gone away (`| head` that has
/// read enough, `| true`) ends the output quietly, as a Unix tool does;
/// any other failure is an error, never the panic `print!` makes of it.
pub fn print_out(text: &str) -> Result<(), String> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(format!("cannot write to stdout: {e}")),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_whole_or_not_at_all() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("latest.json");
        write_atomic(&path, b"first").unwrap();
        write_atomic(&path, b"second").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"second");
        // No temp file is left behind.
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, vec![std::ffi::OsString::from("latest.json")]);
        // A failing write (target is a directory) leaves nothing half-written
        // and no temp file.
        let sub = dir.path().join("sub");
        std::fs::create_dir(&sub).unwrap();
        std::fs::write(sub.join("keep"), b"x").unwrap();
        assert!(write_atomic(&sub, b"third").is_err());
        assert_eq!(std::fs::read(sub.join("keep")).unwrap(), b"x");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names.len(), 2, "{names:?}");
        assert_eq!(std::fs::read(&path).unwrap(), b"second");
    }

    #[test]
    fn unwritable_directory_is_reported() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("plain-file");
        std::fs::write(&file, b"x").unwrap();
        // A directory below a regular file cannot be created.
        let e = check_writable(&file.join("out")).unwrap_err();
        assert!(e.to_string().starts_with("cannot write"), "{e}");
        check_writable(&dir.path().join("new/deeper")).unwrap();
    }
}
