//! The registry: every benchmark the CLI and `cargo bench` know, by name.
//! Adding one is a file here with a `Spec` and an `ENTRY`, and a line below.

pub mod evalcycles;
pub mod getattacks;
pub mod kingdefects;
pub mod mobility;
pub mod movegen;
pub mod slider;

use crate::suite::Entry;

/// All registered benchmarks, in the order `all` runs them.
pub const REGISTRY: &[Entry] = &[
    slider::ENTRY,
    movegen::ENTRY,
    getattacks::ENTRY,
    kingdefects::ENTRY,
    evalcycles::ENTRY,
    mobility::KNIGHT,
    mobility::BISHOP,
    mobility::ROOK,
    mobility::QUEEN,
];

/// Look a benchmark up by name.
pub fn find(name: &str) -> Option<&'static Entry> {
    REGISTRY.iter().find(|e| e.name == name)
}

/// Names, for error messages.
pub fn names() -> Vec<&'static str> {
    REGISTRY.iter().map(|e| e.name).collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use crate::density::{self, Sizes};
    use engine::Position;
    use std::sync::OnceLock;

    /// Real positions of every density (a small seeded selection from the
    /// default files in positions/: 48 per bucket, 2 per men count).
    pub(crate) fn real_positions() -> &'static [Position] {
        static SET: OnceLock<Vec<Position>> = OnceLock::new();
        SET.get_or_init(|| {
            let dir = crate::cli::default_positions_dir();
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
}
