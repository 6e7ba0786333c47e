//! scripts/install-git-hook.sh in a scratch repository: the hook it
//! installs runs scripts/gate.sh with the right revisions, blocks on a
//! failing gate, and is skipped by BOARDBENCH_SKIP_GATE=1. (A stand-in
//! scripts/gate.sh records its arguments and exits with a chosen status;
//! the real gate is proved by the runs reported in benches/docs/gate.md.)

use std::path::Path;
use std::process::{Command, Output, Stdio};

fn run(dir: &Path, cmd: &str, args: &[&str], envs: &[(&str, &str)], stdin: &str) -> Output {
    let mut c = Command::new(cmd);
    c.args(args).current_dir(dir).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    c.env_remove("BOARDBENCH_SKIP_GATE").env_remove("BOARDBENCH_GATE_ARGS");
    for (k, v) in envs {
        c.env(k, v);
    }
    let mut child = c.spawn().unwrap();
    use std::io::Write;
    // A child that exits without reading (a skipped hook) closes the pipe
    // first: a failed write is not the test's business.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().unwrap()
}

fn git(dir: &Path, args: &[&str]) -> String {
    let o = run(
        dir,
        "git",
        args,
        &[
            ("GIT_AUTHOR_NAME", "t"),
            ("GIT_AUTHOR_EMAIL", "t@t"),
            ("GIT_COMMITTER_NAME", "t"),
            ("GIT_COMMITTER_EMAIL", "t@t"),
        ],
        "",
    );
    assert!(o.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).trim().to_string()
}

/// A repository with the installer and a stand-in gate.sh; two commits.
fn scratch() -> (tempfile::TempDir, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("scripts")).unwrap();
    let installer = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/install-git-hook.sh");
    std::fs::copy(&installer, d.join("scripts/install-git-hook.sh")).unwrap();
    let fake = "#!/bin/sh\necho \"$@\" >>\"$(dirname \"$0\")/../gate-args.txt\"\nexit \"${FAKE_GATE_STATUS:-0}\"\n";
    std::fs::write(d.join("scripts/gate.sh"), fake).unwrap();
    run(d, "chmod", &["+x", "scripts/gate.sh", "scripts/install-git-hook.sh"], &[], "");
    std::fs::write(d.join(".gitignore"), "gate-args.txt\n").unwrap();
    git(d, &["init", "-q", "-b", "main"]);
    git(d, &["add", "."]);
    git(d, &["commit", "-q", "-m", "one"]);
    let one = git(d, &["rev-parse", "HEAD"]);
    std::fs::write(d.join("x.txt"), "x").unwrap();
    git(d, &["add", "x.txt"]);
    git(d, &["commit", "-q", "-m", "two"]);
    let two = git(d, &["rev-parse", "HEAD"]);
    (dir, one, two)
}

fn args_seen(d: &Path) -> String {
    std::fs::read_to_string(d.join("gate-args.txt")).unwrap_or_default()
}

#[test]
fn pre_push_hook_gates_pushed_commits_and_can_be_skipped() {
    let (dir, one, two) = scratch();
    let d = dir.path();
    let o = run(d, "scripts/install-git-hook.sh", &[], &[], "");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("BOARDBENCH_SKIP_GATE=1 git push"));
    let hook = d.join(".git/hooks/pre-push");
    let zero = "0".repeat(40);
    // A push updating a branch from `one` to `two`: gated against `one`.
    let line = format!("refs/heads/main {two} refs/heads/main {one}\n");
    let o = run(d, hook.to_str().unwrap(), &["origin", "url"], &[], &line);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(args_seen(d), format!("--base {one} --candidate {two}\n"));
    // A failing gate blocks the push with its status and says how to skip.
    let o = run(d, hook.to_str().unwrap(), &["origin", "url"], &[("FAKE_GATE_STATUS", "3")], &line);
    assert_eq!(o.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&o.stderr).contains("BOARDBENCH_SKIP_GATE=1"));
    let o = run(d, hook.to_str().unwrap(), &["origin", "url"], &[("FAKE_GATE_STATUS", "4")], &line);
    assert_eq!(o.status.code(), Some(4));
    assert!(String::from_utf8_lossy(&o.stderr).contains("too noisy"));
    // Skipped once: the gate does not run at all.
    std::fs::remove_file(d.join("gate-args.txt")).unwrap();
    let o = run(
        d,
        hook.to_str().unwrap(),
        &["origin", "url"],
        &[("BOARDBENCH_SKIP_GATE", "1"), ("FAKE_GATE_STATUS", "3")],
        &line,
    );
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("skipped"));
    assert_eq!(args_seen(d), "");
    // A new branch: against its merge base with main (here `two` itself:
    // nothing new, not gated); a deletion: nothing to gate.
    let new = format!("refs/heads/topic {two} refs/heads/topic {zero}\nrefs/heads/old {zero} refs/heads/old {one}\n");
    let o = run(d, hook.to_str().unwrap(), &["origin", "url"], &[], &new);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(args_seen(d), "");
    // Extra flags reach the gate.
    let o = run(d, hook.to_str().unwrap(), &["origin", "url"], &[("BOARDBENCH_GATE_ARGS", "--no-callgrind")], &line);
    assert!(o.status.success());
    assert_eq!(args_seen(d), format!("--base {one} --candidate {two} --no-callgrind\n"));
    // Reinstalling over our own hook is fine.
    assert!(run(d, "scripts/install-git-hook.sh", &["pre-push"], &[], "").status.success());
}

#[test]
fn pre_commit_hook_and_foreign_hooks() {
    let (dir, _, _) = scratch();
    let d = dir.path();
    let hooks = d.join(".git/hooks");
    std::fs::create_dir_all(&hooks).unwrap();
    std::fs::write(hooks.join("pre-commit"), "#!/bin/sh\nexit 0\n").unwrap();
    // Someone else's hook is not replaced without --force.
    let o = run(d, "scripts/install-git-hook.sh", &["pre-commit"], &[], "");
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--force"));
    let o = run(d, "scripts/install-git-hook.sh", &["pre-commit", "--force"], &[], "");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read_to_string(hooks.join("pre-commit.bak")).unwrap(), "#!/bin/sh\nexit 0\n");
    // The real thing: `git commit` runs the hook, which gates against HEAD.
    std::fs::write(d.join("y.txt"), "y").unwrap();
    git(d, &["add", "y.txt"]);
    let env = [
        ("GIT_AUTHOR_NAME", "t"),
        ("GIT_AUTHOR_EMAIL", "t@t"),
        ("GIT_COMMITTER_NAME", "t"),
        ("GIT_COMMITTER_EMAIL", "t@t"),
    ];
    let mut e = env.to_vec();
    e.push(("FAKE_GATE_STATUS", "3"));
    let o = run(d, "git", &["commit", "-q", "-m", "three"], &e, "");
    assert!(!o.status.success(), "a failing gate blocks the commit");
    assert_eq!(args_seen(d), "--base HEAD\n");
    let mut e = env.to_vec();
    e.extend([("FAKE_GATE_STATUS", "3"), ("BOARDBENCH_SKIP_GATE", "1")]);
    let o = run(d, "git", &["commit", "-q", "-m", "three"], &e, "");
    assert!(o.status.success(), "skipped once: {}", String::from_utf8_lossy(&o.stderr));
    // Bad usage.
    assert_eq!(run(d, "scripts/install-git-hook.sh", &["post-merge"], &[], "").status.code(), Some(2));
}
