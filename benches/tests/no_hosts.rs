//! The repository names no download host: no URL, no `www.` name and no
//! e-mail address in any file it carries, text or binary (a font's name
//! table, a PNG's text chunk). Crafty and the other tools are found
//! through the system's package client by package name, or given as a
//! path; nothing is fetched by address.
//!
//! Two strings are allowed because they are identifiers, not hosts to
//! fetch from: the SVG namespace every plot's root element declares, and
//! Cargo.lock's name for the crates.io registry (cargo's own record of
//! where each package comes from, reached through cargo).
//!
//! The files are git's tracked files where the workspace is a git
//! checkout, else every file below the workspace but build output and
//! run output (`target/`, `results/runs/`, `results/matches/`).

use std::path::{Path, PathBuf};
use std::process::Command;

/// Identifiers that contain a scheme but name nothing to fetch.
const ALLOWED: [&str; 2] = ["http://www.w3.org/2000/svg", "registry+https://github.com/rust-lang/crates.io-index"];

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the workspace root").to_path_buf()
}

/// The files the repository carries, relative to `root`.
fn carried_files(root: &Path) -> Vec<PathBuf> {
    let git = Command::new("git").arg("-C").arg(root).args(["ls-files", "-z"]).output();
    if let Ok(out) = git {
        if out.status.success() && !out.stdout.is_empty() {
            return out
                .stdout
                .split(|&b| b == 0)
                .filter(|p| !p.is_empty())
                .map(|p| PathBuf::from(String::from_utf8_lossy(p).into_owned()))
                .filter(|p| root.join(p).is_file())
                .collect();
        }
    }
    let skip = [Path::new("target"), Path::new(".git"), Path::new("results/runs"), Path::new("results/matches")];
    let mut files = Vec::new();
    let mut stack = vec![PathBuf::new()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(root.join(&dir)).expect("a readable folder") {
            let rel = dir.join(e.expect("a directory entry").file_name());
            if skip.iter().any(|s| rel == *s) || rel.file_name().is_some_and(|n| n == "target") {
                continue;
            }
            if root.join(&rel).is_dir() {
                stack.push(rel);
            } else {
                files.push(rel);
            }
        }
    }
    files
}

fn is_host_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-' || b == b'.'
}

/// Each address in `text`, with its byte offset: a scheme followed by
/// colon and two slashes, a `www.` name, or an e-mail address. The allowed
/// identifiers are blanked out first.
fn addresses(text: &[u8]) -> Vec<(usize, String)> {
    let mut text = text.to_vec();
    for allowed in ALLOWED {
        let a = allowed.as_bytes();
        let mut i = 0;
        while i + a.len() <= text.len() {
            if &text[i..i + a.len()] == a {
                text[i..i + a.len()].fill(b' ');
                i += a.len();
            } else {
                i += 1;
            }
        }
    }
    let lower = text.to_ascii_lowercase();
    let snippet = |from: usize, to: usize| String::from_utf8_lossy(&text[from..to.min(text.len())]).into_owned();
    let mut found = Vec::new();
    for i in 0..lower.len() {
        if lower[i..].starts_with(b"://") {
            let start = (0..i).rev().take_while(|&j| lower[j].is_ascii_alphabetic()).last().unwrap_or(i);
            let end = (i + 3..lower.len()).find(|&j| !is_host_char(lower[j])).unwrap_or(lower.len());
            if start < i && end > i + 3 {
                found.push((start, snippet(start, end)));
            }
        } else if lower[i..].starts_with(b"www.") && (i == 0 || !is_host_char(lower[i - 1])) {
            let end = (i + 4..lower.len()).find(|&j| !is_host_char(lower[j])).unwrap_or(lower.len());
            if end > i + 5 {
                found.push((i, snippet(i, end)));
            }
        } else if lower[i] == b'@' && i > 0 && is_host_char(lower[i - 1]) && lower[i - 1] != b'.' {
            let end = (i + 1..lower.len()).find(|&j| !is_host_char(lower[j])).unwrap_or(lower.len());
            let host = &lower[i + 1..end];
            let tld = host.rsplit(|&b| b == b'.').next().unwrap_or(&[]);
            let dotted = host.contains(&b'.') && host[0].is_ascii_alphanumeric();
            if dotted && tld.len() >= 2 && tld.iter().all(|b| b.is_ascii_alphabetic()) {
                let start = (0..i).rev().take_while(|&j| is_host_char(lower[j])).last().unwrap_or(i);
                found.push((start, snippet(start, end)));
            }
        }
    }
    found
}

/// `s` with `{s}` for a colon and two slashes, `{at}` for an at sign and
/// `{w}` for `www.`: this file's own examples must not be addresses, or
/// the scan of the repository would find them here.
fn spelled(s: &str) -> String {
    s.replace("{s}", ":/\x2f").replace("{at}", "@").replace("{w}", "www.")
}

#[test]
fn the_scanner_finds_urls_www_names_and_mail_addresses_but_not_the_allowed_identifiers() {
    let found = |s: &str| addresses(spelled(s).as_bytes()).into_iter().map(|(_, a)| a).collect::<Vec<_>>();
    assert_eq!(found("see https{s}example.org/x for it"), [spelled("https{s}example.org")]);
    assert_eq!(found("ftp{s}files.example.net"), [spelled("ftp{s}files.example.net")]);
    assert_eq!(found("at {w}example.com."), [spelled("{w}example.com.")]);
    assert_eq!(found("mail me: someone{at}example.org"), [spelled("someone{at}example.org")]);
    assert_eq!(found("git clone git{s}host.example/repo"), [spelled("git{s}host.example")]);
    // The allowed identifiers, Rust patterns, doc links and obfuscated
    // contacts are no addresses.
    assert_eq!(found(r#"<svg xmlns="http://www.w3.org/2000/svg">"#), Vec::<String>::new());
    assert_eq!(found(r#"source = "registry+https://github.com/rust-lang/crates.io-index""#), Vec::<String>::new());
    assert_eq!(found("n @ 1..=3 => x, e.g. [`Foo::bar`], fonts at gnome dot org"), Vec::<String>::new());
    assert_eq!(found("the binding x{at}Some(y) and a.se + m.info"), Vec::<String>::new());
}

#[test]
fn no_file_in_the_repository_names_a_host_to_fetch_from() {
    let root = workspace();
    let files = carried_files(&root);
    assert!(files.len() > 100, "found only {} files below {}", files.len(), root.display());
    let mut offending = Vec::new();
    for rel in &files {
        let bytes = std::fs::read(root.join(rel)).unwrap_or_else(|e| panic!("cannot read {}: {e}", rel.display()));
        for (offset, address) in addresses(&bytes) {
            let line = bytes[..offset].iter().filter(|&&b| b == b'\n').count() + 1;
            offending.push(format!("{}:{line}: {address}", rel.display()));
        }
    }
    assert!(
        offending.is_empty(),
        "the repository must not name a host to fetch from (find tools by package name or take a path):\n{}",
        offending.join("\n")
    );
}
