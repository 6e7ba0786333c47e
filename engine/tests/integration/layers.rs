//! The engine library's layers: each top-level module imports only from
//! the layers below it (ARCHITECTURE.md, "Layers"), so the core never
//! reaches up into the search or the tooling and no two modules import each
//! other. Read from the source: every `crate::name` outside comments and
//! test modules must name a lower layer or the module itself.

use std::path::Path;

/// The layers, bottom first; modules on one line are one layer and may not
/// import each other.
const LAYERS: [&[&str]; 13] = [
    &["rng", "tsc", "atomic_file", "large_pages", "inject"],
    &["types"],
    &["bitboard", "fixed_vec"],
    &["moves"],
    &["tables"],
    &["sliders"],
    &["position"],
    &["attackers"],
    &["movegen", "see", "defects"],
    &["eval"],
    &["search"],
    &["uci"],
    &["tools"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

/// The source of `text` that the library compiles outside tests: without
/// the trailing `#[cfg(test)] mod tests` and without comment lines.
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(i) => &text[..i],
        None => text,
    };
    text.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n")
}

/// Every `crate::name` in `code` (also `$crate::name`, as macros write it).
fn crate_paths(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        out.push(name);
    }
    out
}

fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_module_imports_only_from_lower_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut paths = Vec::new();
    files(&src, &mut paths);
    let mut checked = 0;
    let mut wrong = Vec::new();
    for path in paths {
        let relative = path.strip_prefix(&src).unwrap();
        let top = relative.components().next().unwrap().as_os_str().to_str().unwrap().trim_end_matches(".rs");
        // The binary and the crate root are not layers.
        if matches!(top, "lib" | "main" | "cli") {
            continue;
        }
        let own = layer_of(top).unwrap_or_else(|| panic!("{top} is in no layer: add it to LAYERS"));
        for name in crate_paths(&code(&std::fs::read_to_string(&path).unwrap())) {
            if name == top {
                continue;
            }
            match layer_of(&name) {
                Some(layer) if layer < own => checked += 1,
                // Re-exports at the crate root (`crate::Position`) and the
                // crate's macros are not modules.
                None => {}
                Some(_) => wrong.push(format!("{} uses crate::{name}", relative.display())),
            }
        }
    }
    assert!(wrong.is_empty(), "imports up or across a layer:\n{}", wrong.join("\n"));
    assert!(checked > 100, "only {checked} imports checked: is the source where it was?");
}

#[test]
fn an_upward_import_is_caught() {
    // `position` reaching into `eval` is the kind of import the test above
    // must refuse.
    let names = crate_paths(&code("use crate::eval::attacks;\n// crate::search in a comment\nfn f() {}"));
    assert_eq!(names, ["eval"]);
    assert!(layer_of("eval") > layer_of("position"));
}
