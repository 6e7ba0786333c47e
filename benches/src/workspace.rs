//! The workspace this crate was built in, and every program of the
//! workspace's tooling boardbench starts: where the checkout, its
//! positions, its results and its build outputs are; our `engine` binary
//! beside this program; and the one place a `cargo` or `git` command is
//! made (its program, its directory). Callers add their own arguments,
//! environment and error wording.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The workspace root this crate was built in.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("benches/ has a parent").to_path_buf()
}

/// Default positions directory (`positions/`).
pub fn positions_dir() -> PathBuf {
    root().join("positions")
}

/// Default output directory of results (`results/runs`, git-ignored).
pub fn results_dir() -> PathBuf {
    root().join("results").join("runs")
}

/// The workspace's target directory (`target/`), where boardbench keeps
/// its caches and extra builds.
pub fn target_dir() -> PathBuf {
    root().join("target")
}

/// Our engine binary when none is given: `engine` beside this program
/// (cargo builds both into the same target directory).
pub fn engine_beside_this_program() -> Result<PathBuf, String> {
    std::env::current_exe()
        .map_err(|e| format!("cannot locate this program: {e}"))
        .map(|p| p.with_file_name(format!("engine{}", std::env::consts::EXE_SUFFIX)))
}

/// The cargo program: `$CARGO` (set when cargo runs us), else `cargo`.
pub fn cargo_program() -> OsString {
    std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into())
}

/// A cargo command run in `dir` (a checkout's root).
pub fn cargo(dir: &Path) -> Command {
    let mut cmd = Command::new(cargo_program());
    cmd.current_dir(dir);
    cmd
}

/// `git ARGS` in `dir`: its trimmed stdout, or the command and git's
/// message on one line.
pub fn git(dir: &Path, args: &[&str]) -> Result<String, String> {
    let out = Command::new("git").args(args).current_dir(dir).output().map_err(|e| format!("cannot run git: {e}"))?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
    } else {
        Err(format!("git {}: {}", args.join(" "), one_line(&String::from_utf8_lossy(&out.stderr))))
    }
}

/// `git rev-parse HEAD` and whether `git status --porcelain` shows changes
/// to tracked files, in the repository holding `dir` (`None` where git or
/// the repository is missing).
pub fn git_state(dir: &Path) -> (Option<String>, Option<bool>) {
    let commit = git(dir, &["rev-parse", "HEAD"]).ok();
    let dirty = git(dir, &["status", "--porcelain", "--untracked-files=no"]).ok().map(|s| !s.is_empty());
    (commit, dirty)
}

/// `s` with every run of whitespace (newlines included) made one space.
pub fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_root_holds_both_crates_and_the_positions() {
        let r = root();
        assert!(r.join("engine").join("Cargo.toml").is_file(), "{}", r.display());
        assert!(r.join("benches").join("Cargo.toml").is_file());
        assert!(positions_dir().is_dir());
        assert!(results_dir().starts_with(&r) && target_dir().starts_with(&r));
    }

    #[test]
    fn git_failures_are_one_line_naming_the_command() {
        let e = git(&root(), &["rev-parse", "--verify", "--quiet", "no-such-ref-xyz^{commit}"]).unwrap_err();
        assert!(e.starts_with("git rev-parse --verify --quiet no-such-ref-xyz"), "{e}");
        assert!(!e.contains('\n'));
        let dir = tempfile::tempdir().unwrap();
        // Outside any repository: no commit, no dirty flag, no panic.
        assert_eq!(git_state(dir.path()), (None, None));
        assert_eq!(one_line("a\n  b\tc "), "a b c");
    }
}
