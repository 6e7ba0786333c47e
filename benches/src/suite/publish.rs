//! A finished run's outputs, whole or not at all: the plots of every
//! benchmark into the run's folder `<run id>/`, the report as
//! `<run id>.json` and `latest.json`, all staged under temporary names in
//! the output directory and renamed into place together at the end, the
//! JSON files first and the plot folder last
//! ([`crate::output::staging`]).

use crate::output::staging::Staging;
use crate::suite::plot;
use crate::suite::report::RunReport;
use std::path::{Path, PathBuf};

/// Where a run's outputs went.
pub struct Published {
    /// `<out>/<run id>.json`.
    pub json: PathBuf,
    /// Every plot file, at its final path.
    pub plots: Vec<PathBuf>,
}

/// Draw the plots of `report` (unless `with_plots` is false), record them
/// in each benchmark's `plots` (relative to `out`), and put the plots and
/// the JSON in place in `out`.
pub fn publish(out: &Path, run_id: &str, report: &mut RunReport, with_plots: bool) -> Result<Published, String> {
    let mut staging = Staging::new(out).map_err(|e| e.to_string())?;
    let mut plots = Vec::new();
    if with_plots {
        let folder = staging.folder(run_id).map_err(|e| e.to_string())?;
        for b in &mut report.benchmarks {
            let files = plot::plots_for(b, &folder)?;
            // Relative to the JSON's directory, so a results folder can move.
            let names: Vec<PathBuf> =
                files.iter().filter_map(|f| f.file_name()).map(|n| Path::new(run_id).join(n)).collect();
            b.plots = names.iter().map(|n| n.display().to_string()).collect();
            plots.extend(names.iter().map(|n| out.join(n)));
        }
    }
    let json = serde_json::to_vec_pretty(report).map_err(|e| format!("run report: {e}"))?;
    let path = staging.file(&format!("{run_id}.json"), &json).map_err(|e| e.to_string())?;
    staging.file("latest.json", &json).map_err(|e| e.to_string())?;
    staging.commit().map_err(|e| e.to_string())?;
    Ok(Published { json: path, plots })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite::report::read_report;

    #[test]
    fn a_published_run_has_its_json_plots_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path();
        let mut r = crate::suite::report::tests::sample_report();
        let done = publish(out, "20260101T000000Z-abc", &mut r, true).unwrap();
        assert_eq!(done.json, out.join("20260101T000000Z-abc.json"));
        assert_eq!(read_report(&done.json).unwrap(), r);
        assert_eq!(read_report(&out.join("latest.json")).unwrap(), r);
        let plots = &r.benchmarks[0].plots;
        assert!(!plots.is_empty() && plots.len() == done.plots.len(), "{plots:?}");
        for (p, full) in plots.iter().zip(&done.plots) {
            assert!(p.starts_with("20260101T000000Z-abc/"), "{p}");
            assert_eq!(&out.join(p), full);
            assert!(std::fs::metadata(full).unwrap().len() > 1000, "{p}");
        }
        let mut names: Vec<String> =
            std::fs::read_dir(out).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        names.sort();
        assert_eq!(names, ["20260101T000000Z-abc", "20260101T000000Z-abc.json", "latest.json"]);

        // Without plots: no folder, an empty list.
        let other = tempfile::tempdir().unwrap();
        let done = publish(other.path(), "run", &mut r, false).unwrap();
        assert!(done.plots.is_empty());
        assert_eq!(std::fs::read_dir(other.path()).unwrap().count(), 2);
    }
}
