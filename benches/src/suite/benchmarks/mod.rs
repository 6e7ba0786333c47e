//! The registry: every benchmark, by name, in one list ([`REGISTRY`]).
//! Everything that runs benchmarks is made from it: the `boardbench`
//! subcommands ([`runnables`]), `all`, `run NAMES` and `list`; the cycles,
//! criterion and callgrind bench targets; the commit gate. Adding a
//! benchmark is a file here with a `Spec` and an `Entry`, and one line in
//! the `registry!` below (`file: [ENTRY]`); nothing else names it.

use crate::suite::spec::Entry;

/// `module: [ENTRY, ...]` per line: declares each benchmark's module and
/// lists its entries in [`REGISTRY`], in order.
macro_rules! registry {
    ($($module:ident: [$($entry:ident),+ $(,)?]),+ $(,)?) => {
        $(pub mod $module;)+

        /// All registered benchmarks, in the order `all` runs them.
        pub const REGISTRY: &[Entry] = &[$($($module::$entry),+),+];
    };
}

registry! {
    slider: [ENTRY],
    movegen: [ENTRY],
    getattacks: [ENTRY],
    kingdefects: [ENTRY],
    evalcycles: [ENTRY],
    mobility: [KNIGHT, BISHOP, ROOK, QUEEN],
}

/// Look a benchmark up by name.
pub fn find(name: &str) -> Option<&'static Entry> {
    REGISTRY.iter().find(|e| e.name == name)
}

/// Names, for error messages.
pub fn names() -> Vec<&'static str> {
    REGISTRY.iter().map(|e| e.name).collect()
}

/// A name the command line runs (`boardbench NAME`): one benchmark, or a
/// family, the benchmarks named `FAMILY-PART` run together by `FAMILY`
/// (`mobilitybench` for `mobilitybench-knight` and the other piece types).
#[derive(Clone, Debug, PartialEq)]
pub struct Runnable {
    pub name: &'static str,
    pub about: String,
    /// The benchmarks it runs, in registry order.
    pub members: Vec<&'static str>,
}

/// Every runnable name, in registry order: each family just before its
/// first member.
pub fn runnables() -> Vec<Runnable> {
    let mut out: Vec<Runnable> = Vec::new();
    for e in REGISTRY {
        if let Some((family, _)) = e.name.split_once('-') {
            if !out.iter().any(|r| r.name == family) {
                let members: Vec<&'static str> = REGISTRY
                    .iter()
                    .map(|x| x.name)
                    .filter(|n| n.split_once('-').is_some_and(|(f, _)| f == family))
                    .collect();
                let parts: Vec<&str> = members.iter().filter_map(|n| n.split_once('-').map(|(_, p)| p)).collect();
                out.push(Runnable {
                    name: family,
                    about: format!("every {family}-* benchmark ({})", parts.join(", ")),
                    members,
                });
            }
        }
        out.push(Runnable { name: e.name, about: e.about.to_string(), members: vec![e.name] });
    }
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use crate::suite::density::{self, Sizes};
    use engine::Position;
    use std::sync::OnceLock;

    /// Real positions of every density (a small seeded selection from the
    /// default files in positions/: 48 per bucket, 2 per men count).
    pub(crate) fn real_positions() -> &'static [Position] {
        static SET: OnceLock<Vec<Position>> = OnceLock::new();
        SET.get_or_init(|| {
            let dir = crate::workspace::positions_dir();
            let set = density::select(
                &density::default_sources(&dir),
                Some(&dir.join(density::DERIVED_FILE)),
                Sizes { per_bucket: 48, per_count: 2, ..Sizes::default() },
            )
            .expect("the default positions load");
            let buckets = set.buckets.iter().flat_map(|(_, v)| v);
            buckets.chain(set.ladder.iter().flat_map(|(_, v)| v)).map(|c| c.position.clone()).collect()
        })
    }

    #[test]
    fn registry_names_are_unique() {
        let mut names = super::names();
        let n = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), n);
    }

    #[test]
    fn every_benchmark_and_family_is_runnable_by_name() {
        let r = super::runnables();
        let names: Vec<&str> = r.iter().map(|x| x.name).collect();
        // Each benchmark once, alone; a family never clashes with one.
        for e in super::REGISTRY {
            let found: Vec<&super::Runnable> = r.iter().filter(|x| x.name == e.name).collect();
            assert_eq!(found.len(), 1, "{}", e.name);
            assert_eq!(found[0].members, [e.name]);
        }
        let mobility = r.iter().find(|x| x.name == "mobilitybench").expect("the mobility family");
        assert_eq!(
            mobility.members,
            ["mobilitybench-knight", "mobilitybench-bishop", "mobilitybench-rook", "mobilitybench-queen"]
        );
        assert!(mobility.about.contains("knight, bishop, rook, queen"), "{}", mobility.about);
        let at = |n: &str| names.iter().position(|x| *x == n).unwrap();
        assert!(at("mobilitybench") + 1 == at("mobilitybench-knight"));
        let mut unique = names.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), names.len());
    }
}
