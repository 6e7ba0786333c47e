//! `cargo bench --bench cycles`: every registered per-call benchmark with
//! default settings (interleaved arms, density buckets, ladder, controls,
//! core cycles calibrated), then the JSON and plots under results/runs/.
//! `cargo bench --bench cycles -- --quick` for a smoke run; name benchmarks
//! to run only those (perft-bulk and perft-nonbulk are known here too).

mod common;

fn main() {
    let names: Vec<&str> = boardbench::suite::benchmarks::REGISTRY.iter().map(|e| e.name).collect();
    let extra = [common::perft::BULK, common::perft::NONBULK];
    std::process::exit(common::run_named(&names, &extra));
}
