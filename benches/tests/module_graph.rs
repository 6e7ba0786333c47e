//! The library's modules import each other without cycles: neither between
//! its top-level products (`workspace`, `output`, `measure`, `suite`,
//! `gate`, `engines`) nor between any two of its files.
//!
//! The graph is read from the source, not from the compiler: every path
//! that starts with `crate::`, `super::` or `self::` in code (comments,
//! strings and character literals are skipped; `use` trees with braces are
//! expanded) is an edge from the file it appears in to the deepest module
//! file the path names. `mod` declarations are not edges. The binary
//! (`main.rs`) sits above everything and is left out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module path, e.g. `["gate", "timing", "analysis"]` (the crate root is
/// empty).
type Module = Vec<String>;

/// Every `.rs` file under `dir` but `main.rs`, with its module path.
fn modules(src: &Path) -> Vec<(Module, PathBuf)> {
    let mut out = Vec::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).expect("a readable source folder") {
            let p = e.expect("a directory entry").path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            if p.extension().is_none_or(|x| x != "rs") {
                continue;
            }
            let rel = p.strip_prefix(src).expect("below src");
            let mut parts: Vec<String> = rel.iter().map(|s| s.to_string_lossy().into_owned()).collect();
            let file = parts.pop().expect("a file name");
            match file.as_str() {
                "main.rs" if parts.is_empty() => continue,
                "lib.rs" if parts.is_empty() => {}
                "mod.rs" => {}
                f => parts.push(f.trim_end_matches(".rs").to_string()),
            }
            out.push((parts, p));
        }
    }
    out.sort();
    out
}

/// `text` with comments, string literals and character literals blanked
/// out (newlines kept), so only code is searched for paths.
/// `c[i]`, or NUL past the end.
fn at(c: &[char], i: usize) -> char {
    c.get(i).copied().unwrap_or('\0')
}

fn code_only(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < c.len() {
        if c[i] == '/' && at(&c, i + 1) == '/' {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if c[i] == '/' && at(&c, i + 1) == '*' {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && at(&c, i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && at(&c, i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if c[i] == 'r'
            && (at(&c, i + 1) == '"' || (at(&c, i + 1) == '#' && (at(&c, i + 2) == '"' || at(&c, i + 2) == '#')))
            && (i == 0 || !(c[i - 1].is_alphanumeric() || c[i - 1] == '_'))
        {
            // A raw string: r"...", r#"..."#, ...
            let mut hashes = 0;
            i += 1;
            while c[i] == '#' {
                hashes += 1;
                i += 1;
            }
            i += 1; // the opening quote
            loop {
                if i >= c.len() {
                    break;
                }
                if c[i] == '"' && (1..=hashes).all(|k| at(&c, i + k) == '#') {
                    i += 1 + hashes;
                    break;
                }
                i += 1;
            }
            out.push_str("\"\"");
        } else if c[i] == '"' {
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else if c[i] == '\''
            && (at(&c, i + 2) == '\'' || (at(&c, i + 1) == '\\' && (at(&c, i + 3) == '\'' || at(&c, i + 1) == '\\')))
        {
            // A character literal ('a', '\n', '\''), not a lifetime.
            i += 1;
            if c[i] == '\\' {
                i += 1;
            }
            while i < c.len() && c[i] != '\'' {
                i += 1;
            }
            i += 1;
            out.push_str("' '");
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// Tokens of code: identifiers, `::`, and single punctuation characters.
fn tokens(code: &str) -> Vec<String> {
    let c: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        if c[i].is_alphanumeric() || c[i] == '_' {
            let start = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            out.push(c[start..i].iter().collect());
        } else if c[i] == ':' && c.get(i + 1) == Some(&':') {
            out.push("::".to_string());
            i += 2;
        } else {
            if !c[i].is_whitespace() {
                out.push(c[i].to_string());
            }
            i += 1;
        }
    }
    out
}

/// The paths of a use tree starting at `t[*at]` (just after `prefix::`),
/// each appended to `out`; `at` ends after the tree.
fn use_tree(t: &[String], at: &mut usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
    if t.get(*at).map(String::as_str) == Some("{") {
        *at += 1;
        loop {
            match t.get(*at).map(String::as_str) {
                None => return,
                Some("}") => {
                    *at += 1;
                    return;
                }
                Some(",") => *at += 1,
                Some(_) => use_tree(t, at, prefix.clone(), out),
            }
        }
    }
    let mut path = prefix;
    while let Some(tok) = t.get(*at) {
        if tok == "*" {
            *at += 1;
            break;
        }
        if !tok.chars().all(|ch| ch.is_alphanumeric() || ch == '_') {
            break;
        }
        path.push(tok.clone());
        *at += 1;
        if t.get(*at).map(String::as_str) != Some("::") {
            break;
        }
        *at += 1;
        if t.get(*at).map(String::as_str) == Some("{") {
            use_tree(t, at, path.clone(), out);
            return;
        }
    }
    out.push(path);
}

/// Every path in `code` that starts at `crate`, `super` or `self`, made
/// absolute for a file whose module is `module` (inline modules such as
/// `mod tests { ... }` taken into account for `super` and `self`).
fn paths(code: &str, module: &Module) -> Vec<Vec<String>> {
    let t = tokens(code);
    let mut out = Vec::new();
    // Inline modules: (name, brace depth inside it).
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < t.len() {
        match t[i].as_str() {
            "{" => {
                depth += 1;
                i += 1;
            }
            "}" => {
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
                i += 1;
            }
            "mod" if t.get(i + 2).map(String::as_str) == Some("{") => {
                inline.push((t[i + 1].clone(), depth + 1));
                i += 2;
            }
            head @ ("crate" | "super" | "self")
                if t.get(i + 1).map(String::as_str) == Some("::") && (i == 0 || t[i - 1] != "::") =>
            {
                let here: Module = module.iter().cloned().chain(inline.iter().map(|(n, _)| n.clone())).collect();
                let mut base: Vec<String> = match head {
                    "crate" => Vec::new(),
                    "self" => here,
                    _ => here[..here.len().saturating_sub(1)].to_vec(),
                };
                i += 2;
                // super::super::...
                while t.get(i).map(String::as_str) == Some("super") && t.get(i + 1).map(String::as_str) == Some("::") {
                    base.pop();
                    i += 2;
                }
                use_tree(&t, &mut i, base, &mut out);
            }
            _ => i += 1,
        }
    }
    out
}

/// The deepest module of `known` that `path` lies in.
fn module_of(path: &[String], known: &BTreeSet<Module>) -> Module {
    (0..=path.len()).rev().map(|n| path[..n].to_vec()).find(|m| known.contains(m)).unwrap_or_default()
}

/// The library's import graph between files: module → modules it uses.
fn file_graph(src: &Path) -> BTreeMap<Module, BTreeSet<Module>> {
    let files = modules(src);
    let known: BTreeSet<Module> = files.iter().map(|(m, _)| m.clone()).collect();
    let mut graph = BTreeMap::new();
    for (m, p) in &files {
        let text = std::fs::read_to_string(p).expect("a readable source file");
        let used: BTreeSet<Module> = paths(&code_only(&text), m)
            .iter()
            .map(|p| module_of(p, &known))
            .filter(|u| u != m && !u.is_empty())
            .collect();
        graph.insert(m.clone(), used);
    }
    graph
}

/// The same graph between top-level modules (the crate root left out).
fn top_graph(files: &BTreeMap<Module, BTreeSet<Module>>) -> BTreeMap<String, BTreeSet<String>> {
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (m, used) in files {
        let Some(top) = m.first() else { continue };
        let entry = g.entry(top.clone()).or_default();
        for u in used {
            if u[0] != *top {
                entry.insert(u[0].clone());
            }
        }
    }
    g
}

/// A cycle of `graph`, if it has one: its nodes in order, the first again
/// at the end.
fn find_cycle<N: Ord + Clone>(graph: &BTreeMap<N, BTreeSet<N>>) -> Option<Vec<N>> {
    // 0 unvisited, 1 on the current path, 2 done.
    fn visit<N: Ord + Clone>(
        n: &N,
        graph: &BTreeMap<N, BTreeSet<N>>,
        state: &mut BTreeMap<N, u8>,
        path: &mut Vec<N>,
    ) -> Option<Vec<N>> {
        state.insert(n.clone(), 1);
        path.push(n.clone());
        for m in graph.get(n).into_iter().flatten() {
            match state.get(m).copied().unwrap_or(0) {
                1 => {
                    let from = path.iter().position(|x| x == m).expect("on the path");
                    let mut cycle = path[from..].to_vec();
                    cycle.push(m.clone());
                    return Some(cycle);
                }
                0 => {
                    if let Some(c) = visit(m, graph, state, path) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        path.pop();
        state.insert(n.clone(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for n in graph.keys() {
        if state.get(n).copied().unwrap_or(0) == 0 {
            if let Some(c) = visit(n, graph, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn top_level_products_import_each_other_without_cycles() {
    let files = file_graph(&src());
    let top = top_graph(&files);
    // The graph was read: the products are there and use what they must.
    for (from, to) in [("suite", "measure"), ("suite", "workspace"), ("engines", "suite"), ("gate", "engines")] {
        assert!(top.get(from).is_some_and(|u| u.contains(to)), "no edge {from} -> {to} found: {top:?}");
    }
    if let Some(c) = find_cycle(&top) {
        panic!("import cycle between top-level modules: {}\n{top:#?}", c.join(" -> "));
    }
    // The foundations import nothing of the crate.
    for leaf in ["workspace", "output", "measure"] {
        assert!(top.get(leaf).is_some_and(BTreeSet::is_empty), "{leaf} imports {:?}", top.get(leaf));
    }
}

#[test]
fn files_import_each_other_without_cycles() {
    let files = file_graph(&src());
    assert!(files.values().map(BTreeSet::len).sum::<usize>() > 100, "too few imports found: {files:?}");
    let name = |m: &Module| if m.is_empty() { "crate".to_string() } else { m.join("::") };
    if let Some(c) = find_cycle(&files) {
        let c: Vec<String> = c.iter().map(name).collect();
        panic!("import cycle between files: {}", c.join(" -> "));
    }
}

#[test]
fn the_reader_finds_paths_and_cycles() {
    let m: Module = vec!["gate".into(), "timing".into()];
    let code = code_only(
        r#"
        //! Docs naming crate::nowhere are not code.
        use crate::measure::{clock::{Clock, Reading}, stats};
        use super::verdict::Verdict;
        fn f() { let s = "crate::in_a_string"; let c = '{'; crate::suite::run::execute(); }
        mod tests { use super::*; use self::inner::X; }
        "#,
    );
    let found: BTreeSet<String> = paths(&code, &m).iter().map(|p| p.join("::")).collect();
    let want = [
        "measure::clock::Clock",
        "measure::clock::Reading",
        "measure::stats",
        "gate::verdict::Verdict",
        "suite::run::execute",
        "gate::timing",
        "gate::timing::tests::inner::X",
    ];
    assert_eq!(found, want.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>());
    let known: BTreeSet<Module> =
        [vec![], vec!["measure".to_string()], vec!["measure".to_string(), "clock".to_string()]].into_iter().collect();
    let p: Vec<String> = ["measure", "clock", "Clock"].map(String::from).to_vec();
    assert_eq!(module_of(&p, &known), ["measure", "clock"]);
    // A cycle is found; a graph without one passes.
    let g = |edges: &[(&str, &str)]| {
        let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (a, b) in edges {
            g.entry(a.to_string()).or_default().insert(b.to_string());
            g.entry(b.to_string()).or_default();
        }
        g
    };
    assert_eq!(
        find_cycle(&g(&[("a", "b"), ("b", "c"), ("c", "a")])),
        Some(["a", "b", "c", "a"].map(String::from).to_vec())
    );
    assert_eq!(find_cycle(&g(&[("a", "b"), ("a", "c"), ("b", "c")])), None);
}
