//! Bakes the magic and PEXT slider attack tables into the binary, so they are
//! built once, deterministically, and cost nothing at start-up.

#[path = "src/sliders/gen.rs"]
#[allow(dead_code)]
mod gen;
#[path = "src/sliders/magic_numbers.rs"]
mod magic_numbers;

use std::fmt::Write as _;

fn emit(out: &mut String, name: &str, entries: &[gen::SliderEntry], base: usize) {
    writeln!(out, "pub(crate) static {name}: [SliderEntry; 64] = [").unwrap();
    for e in entries {
        writeln!(
            out,
            "    SliderEntry {{ mask: {:#x}, magic: {:#x}, shift: {}, offset: {} }},",
            e.mask,
            e.magic,
            e.shift,
            e.offset + base
        )
        .unwrap();
    }
    out.push_str("];\n");
}

fn emit_table(out: &mut String, name: &str, rook: &[u64], bishop: &[u64]) {
    writeln!(out, "pub(crate) static {name}: [u64; {}] = [", rook.len() + bishop.len()).unwrap();
    for (i, v) in rook.iter().chain(bishop).enumerate() {
        write!(out, "{v:#x},").unwrap();
        if i % 8 == 7 {
            out.push('\n');
        }
    }
    out.push_str("];\n");
}

/// The layout probe (`scripts/layout-sweep.sh`): with
/// `BOARDBENCH_LAYOUT_PAD=N` set at build time, every copy of the
/// evaluation starts with a jump over N bytes (`cfg(layout_pad)`), so its
/// code sits N bytes further along against cache-line and fetch
/// boundaries. Unset, the build has none of it.
fn layout_pad() {
    println!("cargo::rustc-check-cfg=cfg(layout_pad)");
    println!("cargo:rerun-if-env-changed=BOARDBENCH_LAYOUT_PAD");
    if let Ok(v) = std::env::var("BOARDBENCH_LAYOUT_PAD") {
        let Some(n) = v.trim().parse::<u32>().ok().filter(|&n| n <= 4096) else {
            panic!("BOARDBENCH_LAYOUT_PAD={v:?}: not a number of bytes from 0 to 4096");
        };
        println!("cargo:rustc-cfg=layout_pad");
        println!("cargo:rustc-env=BOARDBENCH_LAYOUT_PAD_BYTES={n}");
    }
}

fn main() {
    layout_pad();
    println!("cargo:rerun-if-changed=src/sliders/gen.rs");
    println!("cargo:rerun-if-changed=src/sliders/magic_numbers.rs");
    let mut out = String::new();
    let (rook_m, rook_mt) = gen::build_table(&gen::ROOK_DIRS, Some(&magic_numbers::ROOK_MAGICS));
    let (bishop_m, bishop_mt) = gen::build_table(&gen::BISHOP_DIRS, Some(&magic_numbers::BISHOP_MAGICS));
    let (rook_p, rook_pt) = gen::build_table(&gen::ROOK_DIRS, None);
    let (bishop_p, bishop_pt) = gen::build_table(&gen::BISHOP_DIRS, None);
    emit(&mut out, "ROOK_MAGIC", &rook_m, 0);
    emit(&mut out, "BISHOP_MAGIC", &bishop_m, rook_mt.len());
    emit_table(&mut out, "MAGIC_ATTACKS", &rook_mt, &bishop_mt);
    emit(&mut out, "ROOK_PEXT", &rook_p, 0);
    emit(&mut out, "BISHOP_PEXT", &bishop_p, rook_pt.len());
    emit_table(&mut out, "PEXT_ATTACKS", &rook_pt, &bishop_pt);
    let path = std::path::Path::new(&std::env::var("OUT_DIR").unwrap()).join("slider_tables.rs");
    std::fs::write(path, out).unwrap();
}
