//! The gate's two builds: the base (a git revision checked out in a cached
//! worktree under `target/gate/`) and the candidate (the working tree or a
//! revision), each built with its own cached target directory, one gate at
//! a time (a lock on the cache).

use crate::engines::process;
use crate::workspace::{self, git, one_line};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// A build: where its sources and binaries are.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct BuildInfo {
    /// "base" or "candidate".
    pub role: String,
    /// The commit, or None for the working tree.
    pub commit: Option<String>,
    /// `git describe`-like label for tables.
    pub label: String,
    pub features: Vec<String>,
    /// Extra environment of this build's measuring processes.
    #[serde(default)]
    pub env: Vec<(String, String)>,
    pub source: PathBuf,
    pub target_dir: PathBuf,
    pub build_s: f64,
}

/// The full commit id of `rev` in the repository at `root`.
pub fn resolve_commit(root: &Path, rev: &str) -> Result<String, String> {
    if rev.starts_with('-') || rev.is_empty() {
        return Err(format!("revision {rev:?}: not a revision"));
    }
    git(root, &["rev-parse", "--verify", "--quiet", &format!("{rev}^{{commit}}")])
        .map_err(|_| format!("revision {rev:?}: not a commit in {}", root.display()))
}

/// Check out `commit` (detached) in the cached worktree `dir`.
pub fn prepare_worktree(root: &Path, dir: &Path, commit: &str) -> Result<(), String> {
    if dir.join(".git").exists() && git(dir, &["rev-parse", "--git-dir"]).is_ok() {
        git(dir, &["checkout", "--quiet", "--detach", "--force", commit])?;
        git(dir, &["clean", "--quiet", "-fd"])?;
        return Ok(());
    }
    let _ = git(root, &["worktree", "prune"]);
    if dir.exists() {
        std::fs::remove_dir_all(dir).map_err(|e| format!("cannot remove stale {}: {e}", dir.display()))?;
    }
    let d = dir.to_string_lossy().to_string();
    git(root, &["worktree", "add", "--quiet", "--detach", "--force", &d, commit])?;
    Ok(())
}

/// Run cargo in `src` with `target` as its target directory; the last
/// lines of its output in the error.
fn cargo(src: &Path, target: &Path, args: &[String]) -> Result<(), String> {
    let out = crate::output::children::output(workspace::cargo(src).args(args).env("CARGO_TARGET_DIR", target))
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        let err = String::from_utf8_lossy(&out.stderr);
        let first_error = err.lines().find(|l| l.starts_with("error")).unwrap_or("");
        Err(format!(
            "cargo {} in {} failed: {}",
            args.join(" "),
            src.display(),
            if first_error.is_empty() { process::last_lines("", &err, 2) } else { first_error.to_string() }
        ))
    }
}

/// `--features` for `features` (bare names mean `engine/NAME`).
pub fn feature_args(features: &[String]) -> Vec<String> {
    if features.is_empty() {
        return Vec::new();
    }
    let list: Vec<String> =
        features.iter().map(|f| if f.contains('/') { f.clone() } else { format!("engine/{f}") }).collect();
    vec!["--features".into(), list.join(",")]
}

/// Build `b`'s `boardbench` (and with `callgrind` its `gate_callgrind`
/// bench target); the binary.
pub fn build(b: &mut BuildInfo, callgrind: bool) -> Result<PathBuf, String> {
    let t = Instant::now();
    eprintln!("boardbench gate: building the {} ({}) into {}", b.role, b.label, b.target_dir.display());
    let mut args: Vec<String> =
        ["build", "--release", "-p", "boardbench", "--bin", "boardbench"].map(String::from).into();
    args.extend(feature_args(&b.features));
    cargo(&b.source, &b.target_dir, &args)?;
    if callgrind {
        let mut args: Vec<String> =
            ["bench", "--profile", "release", "-p", "boardbench", "--bench", "gate_callgrind", "--no-run"]
                .map(String::from)
                .into();
        args.extend(feature_args(&b.features));
        cargo(&b.source, &b.target_dir, &args)?;
    }
    b.build_s = t.elapsed().as_secs_f64();
    let bin = b.target_dir.join("release").join(format!("boardbench{}", std::env::consts::EXE_SUFFIX));
    process::check_executable(&bin)?;
    Ok(bin)
}

/// An exclusive lock on the gate's cache directory while a gate runs.
pub struct Lock {
    _file: std::fs::File,
}

impl Lock {
    pub fn take(dir: &Path) -> Result<Lock, String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let path = dir.join(".lock");
        let f = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        #[cfg(unix)]
        {
            use std::os::unix::io::AsRawFd;
            // SAFETY: flock on a file descriptor we own.
            if unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
                return Err(format!("another gate run holds {}", path.display()));
            }
        }
        Ok(Lock { _file: f })
    }
}

/// The registered benchmark names of a build.
pub fn bench_names(bin: &Path) -> Result<Vec<String>, String> {
    let out = crate::output::children::output(Command::new(bin).arg("list"))
        .map_err(|e| format!("cannot run {}: {e}", bin.display()))?;
    if !out.status.success() {
        return Err(format!("{} list failed: {}", bin.display(), one_line(&String::from_utf8_lossy(&out.stderr))));
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(String::from)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_revisions_are_one_line_errors() {
        let root = workspace::root();
        assert!(resolve_commit(&root, "no-such-branch-xyz").unwrap_err().contains("not a commit"));
        assert!(resolve_commit(&root, "--all").unwrap_err().contains("not a revision"));
        if git(&root, &["rev-parse", "HEAD"]).is_ok() {
            assert_eq!(resolve_commit(&root, "HEAD").unwrap().len(), 40);
        }
        assert_eq!(
            feature_args(&["inject-x".into(), "boardbench/y".into()]),
            ["--features", "engine/inject-x,boardbench/y"]
        );
        assert!(feature_args(&[]).is_empty());
    }
}
