//! Several outputs that appear together or not at all: each file and
//! folder is written under its temporary name in the target directory,
//! and [`Staging::commit`] renames them all into place at the end, files
//! first and folders last, under one lock (an interrupt stops the process
//! before the first rename or after the last). Dropped uncommitted, a
//! staging removes its temporaries; a process killed outright leaves them
//! for the next run to sweep ([`super::temporaries`]).

use super::temporaries::{self, temp_name};
use super::{sync_dir, write_temporary, WriteError};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// A temporary and the path it will have.
struct Staged {
    temporary: PathBuf,
    target: PathBuf,
}

/// Outputs of one directory, written but not yet in place.
pub struct Staging {
    dir: PathBuf,
    files: Vec<Staged>,
    folders: Vec<Staged>,
}

impl Staging {
    /// Outputs into `dir` (created if need be; dead runs' temporaries
    /// there are removed).
    pub fn new(dir: &Path) -> Result<Staging, WriteError> {
        std::fs::create_dir_all(dir).map_err(|e| WriteError { path: dir.to_path_buf(), reason: e.to_string() })?;
        temporaries::sweep_once(dir);
        Ok(Staging { dir: dir.to_path_buf(), files: Vec::new(), folders: Vec::new() })
    }

    /// Stage the folder `name`: the temporary folder to write its contents
    /// into (write them with [`super::write_atomic`] there, so that each
    /// file is whole when the folder is renamed).
    pub fn folder(&mut self, name: &str) -> Result<PathBuf, WriteError> {
        let target = self.dir.join(name);
        let temporary = self.dir.join(temp_name(OsStr::new(name)));
        temporaries::create_dir(&temporary).map_err(|e| WriteError { path: target.clone(), reason: e.to_string() })?;
        self.folders.push(Staged { temporary: temporary.clone(), target });
        Ok(temporary)
    }

    /// Stage the file `name` holding `bytes` (written and synced now); the
    /// path it will have.
    pub fn file(&mut self, name: &str, bytes: &[u8]) -> Result<PathBuf, WriteError> {
        let target = self.dir.join(name);
        let temporary = self.dir.join(temp_name(OsStr::new(name)));
        write_temporary(&temporary, bytes).map_err(|e| WriteError { path: target.clone(), reason: e.to_string() })?;
        self.files.push(Staged { temporary, target: target.clone() });
        Ok(target)
    }

    /// Rename everything into place: files in the order staged, then
    /// folders. On a failure the outputs not yet renamed are removed.
    pub fn commit(mut self) -> Result<(), WriteError> {
        let pairs: Vec<(PathBuf, PathBuf)> =
            self.files.iter().chain(&self.folders).map(|s| (s.temporary.clone(), s.target.clone())).collect();
        let result = temporaries::rename_all(&pairs);
        sync_dir(&self.dir);
        match result {
            Ok(()) => {
                self.files.clear();
                self.folders.clear();
                Ok(())
            }
            // `drop` removes what is left.
            Err((path, e)) => Err(WriteError { path, reason: e.to_string() }),
        }
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        for s in self.files.iter().chain(&self.folders) {
            if s.temporary.symlink_metadata().is_ok() {
                temporaries::discard(&s.temporary);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> =
            std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        v.sort();
        v
    }

    #[test]
    fn nothing_appears_before_the_commit_and_all_of_it_after() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let mut s = Staging::new(d).unwrap();
        let folder = s.folder("run").unwrap();
        crate::output::write_atomic(&folder.join("a.svg"), b"<svg/>").unwrap();
        let json = s.file("run.json", b"{}").unwrap();
        assert_eq!(json, d.join("run.json"));
        // Only hidden temporaries so far.
        assert!(names(d).iter().all(|n| n.starts_with('.') && n.ends_with(".tmp")), "{:?}", names(d));
        assert_eq!(names(d).len(), 2);
        s.commit().unwrap();
        assert_eq!(names(d), ["run", "run.json"]);
        assert_eq!(names(&d.join("run")), ["a.svg"]);
    }

    #[test]
    fn an_uncommitted_staging_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::write(d.join("latest.json"), b"old").unwrap();
        {
            let mut s = Staging::new(d).unwrap();
            let folder = s.folder("run").unwrap();
            crate::output::write_atomic(&folder.join("a.png"), b"png").unwrap();
            s.file("latest.json", b"new").unwrap();
        }
        assert_eq!(names(d), ["latest.json"]);
        assert_eq!(std::fs::read(d.join("latest.json")).unwrap(), b"old");
    }
}
