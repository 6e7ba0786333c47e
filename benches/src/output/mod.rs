//! Where results go: files written atomically (a temporary file in the same
//! directory, synced, then renamed over the target, so an interrupted run
//! never destroys the last good result), a run's several outputs staged
//! and renamed into place together ([`staging`]), temporaries named after
//! their writer so that those of a run that died are removed by the next
//! ([`temporaries`]), SIGINT and SIGTERM ending a run and the processes
//! it started ([`children`]) without leaving anything half-written
//! ([`interrupt`]), an output directory checked
//! before anything is measured (and a run's own directory removed again
//! when the run wrote nothing there, [`RunDir`]), and stdout written as a
//! Unix tool writes it.

pub mod children;
pub mod interrupt;
pub mod staging;
pub mod temporaries;

use std::io::Write;
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

/// Write `bytes` to `path` atomically: to a temporary beside it
/// ([`temporaries::temp_name`]), synced, then renamed over `path` (and the
/// directory synced, so the rename itself survives a power loss where the
/// file system allows). On an error the temporary is removed and `path`
/// keeps its old contents. The first write into a directory removes the
/// temporaries that dead runs left there.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    let err = |e: std::io::Error| WriteError { path: path.to_path_buf(), reason: e.to_string() };
    let name =
        path.file_name().ok_or_else(|| err(std::io::Error::new(std::io::ErrorKind::InvalidInput, "names no file")))?;
    let dir = parent_of(path);
    temporaries::sweep_once(dir);
    let temporary = dir.join(temporaries::temp_name(name));
    write_temporary(&temporary, bytes).map_err(err)?;
    if let Err((_, e)) = temporaries::rename_all(&[(temporary.clone(), path.to_path_buf())]) {
        temporaries::discard(&temporary);
        return Err(err(e));
    }
    sync_dir(dir);
    Ok(())
}

/// The directory `path` is in (`.` for a bare name).
fn parent_of(path: &Path) -> &Path {
    path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."))
}

/// Create the listed temporary `temporary` holding `bytes`, synced; removed
/// again on an error.
fn write_temporary(temporary: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let result = temporaries::create_file(temporary).and_then(|mut f| {
        f.write_all(bytes)?;
        f.sync_all()
    });
    if result.is_err() {
        temporaries::discard(temporary);
    }
    result
}

/// Best effort: not every file system lets a directory be synced.
fn sync_dir(dir: &Path) {
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
}

/// Make sure `dir` exists and is writable, before anything is measured;
/// temporaries that dead runs left there are removed.
pub fn check_writable(dir: &Path) -> Result<(), WriteError> {
    let err = |e: std::io::Error| WriteError { path: dir.to_path_buf(), reason: e.to_string() };
    std::fs::create_dir_all(dir).map_err(err)?;
    temporaries::sweep_once(dir);
    let probe = dir.join(temporaries::temp_name(std::ffi::OsStr::new("boardbench-probe")));
    write_temporary(&probe, b"probe").map_err(err)?;
    temporaries::discard(&probe);
    Ok(())
}

/// A directory a run makes for its own results (a match's, a cut list's):
/// [`check_writable`] on it, and, when the run ends having written nothing
/// there (an engine that would not start, a bad input found after the
/// check), the directory it made is removed again, so a failed start
/// leaves no empty result directory behind. A directory that was there
/// before, or that holds anything, is left as it is.
#[must_use = "the directory is removed again when this is dropped, if still empty"]
pub struct RunDir {
    /// The directory, when this run made it.
    made: Option<PathBuf>,
}

impl RunDir {
    /// Check that `dir` is writable, making it if it is missing.
    pub fn claim(dir: &Path) -> Result<RunDir, WriteError> {
        let existed = dir.exists();
        check_writable(dir)?;
        Ok(RunDir { made: (!existed).then(|| dir.to_path_buf()) })
    }
}

impl Drop for RunDir {
    fn drop(&mut self) {
        if let Some(dir) = &self.made {
            // Removes only an empty directory: never a result.
            let _ = std::fs::remove_dir(dir);
        }
    }
}

/// Largest file [`read_back`] reads: far above any result boardbench writes
/// (a full run's JSON is a few MiB).
pub const MAX_READ_BACK: u64 = 256 << 20;

/// Read back a file boardbench wrote (a run report, a reference) or that
/// one names (a suite file): only a regular file, of at most
/// [`MAX_READ_BACK`] bytes, so that a path to a device, a pipe or a huge
/// file is an error, not an endless read. The error is the reason alone;
/// the caller names the file.
pub fn read_back(path: &Path) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let meta = file.metadata().map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err(if meta.is_dir() { "a directory, not a file".into() } else { "not a regular file".into() });
    }
    if meta.len() > MAX_READ_BACK {
        return Err(format!("{} bytes, larger than any result ({MAX_READ_BACK} at most)", meta.len()));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    // The file may grow while it is read: never past the limit.
    file.take(MAX_READ_BACK + 1).read_to_end(&mut bytes).map_err(|e| e.to_string())?;
    if bytes.len() as u64 > MAX_READ_BACK {
        return Err(format!("larger than any result ({MAX_READ_BACK} bytes at most)"));
    }
    Ok(bytes)
}

/// `text` on one line: line breaks and other control characters escaped
/// (a parser's message may quote them from the input it rejects).
pub fn one_line(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            s.extend(c.escape_default());
        } else {
            s.push(c);
        }
    }
    s
}

/// Write `text` to stdout. A reader that has gone away (`| head` that has
/// read enough, `| true`) ends the output quietly, as a Unix tool does;
/// any other failure is an error, never the panic `print!` makes of it.
pub fn print_out(text: &str) -> Result<(), String> {
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
    fn only_regular_files_of_bounded_size_are_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.json");
        std::fs::write(&path, b"{}").unwrap();
        assert_eq!(read_back(&path).unwrap(), b"{}");
        assert_eq!(read_back(dir.path()).unwrap_err(), "a directory, not a file");
        // Endless, or blocking: refused before reading.
        assert_eq!(read_back(Path::new("/dev/zero")).unwrap_err(), "not a regular file");
        assert!(read_back(&dir.path().join("missing")).unwrap_err().contains("No such file"));
        let big = std::fs::File::create(dir.path().join("big")).unwrap();
        big.set_len(MAX_READ_BACK + 1).unwrap();
        assert!(read_back(&dir.path().join("big")).unwrap_err().contains("larger than any result"));
    }

    #[test]
    fn messages_are_kept_to_one_line() {
        assert_eq!(one_line("unknown variant `a\nb\r`\t!"), "unknown variant `a\\nb\\r`\\t!");
        assert_eq!(one_line("plain, é"), "plain, é");
    }

    #[test]
    fn a_run_directory_left_empty_is_removed_and_any_other_kept() {
        let dir = tempfile::tempdir().unwrap();
        let fresh = dir.path().join("matches/run-1");
        drop(RunDir::claim(&fresh).unwrap());
        assert!(!fresh.exists(), "made and left empty: removed");
        assert!(dir.path().join("matches").is_dir(), "its parent stays");
        let written = dir.path().join("run-2");
        let claim = RunDir::claim(&written).unwrap();
        write_atomic(&written.join("match.json"), b"{}").unwrap();
        drop(claim);
        assert!(written.join("match.json").is_file(), "a result is never removed");
        let existing = dir.path().join("existing");
        std::fs::create_dir(&existing).unwrap();
        drop(RunDir::claim(&existing).unwrap());
        assert!(existing.is_dir(), "a directory that was there before stays, even empty");
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
