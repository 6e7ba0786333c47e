//! A run stopped part-way leaves nothing half-written: real
//! `boardbench getattacksbench --quick` runs, killed with SIGINT and with
//! SIGKILL at several points (while choosing positions, while measuring,
//! while the plots are drawn, while the JSON is written), leave in the
//! output folder only whole results (every visible JSON a readable report,
//! every plot folder complete and named by its JSON, no empty file); after
//! SIGINT the run has removed its own temporaries and said so in one line,
//! and the next run removes what the SIGKILLed ones left.

use boardbench::suite::report::{read_report, RunReport};
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// When the signal is sent.
#[derive(Copy, Clone, Debug, PartialEq)]
enum Point {
    /// This long after the start.
    After(Duration),
    /// As soon as the run's staged plot folder exists (plots being drawn).
    PlotFolder,
    /// As soon as a staged JSON file exists (about to be put in place).
    Json,
}

fn start(out: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_boardbench"))
        .args(["getattacksbench", "--quick", "--out"])
        .arg(out)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs")
}

fn hidden_names(out: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    v.sort();
    v
}

/// Wait for `point` (or the run's end); whether the point was reached.
fn wait_for(child: &mut Child, out: &Path, point: Point) -> bool {
    let started = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return false;
        }
        let reached = match point {
            Point::After(d) => started.elapsed() >= d,
            Point::PlotFolder => hidden_names(out).iter().any(|n| n.ends_with(".tmp") && out.join(n).is_dir()),
            Point::Json => hidden_names(out).iter().any(|n| n.contains(".json.") && n.ends_with(".tmp")),
        };
        if reached {
            return true;
        }
        assert!(started.elapsed() < Duration::from_secs(120), "{point:?} never came");
        std::thread::sleep(Duration::from_micros(100));
    }
}

/// Run, signal at `point`; the exit status, stderr, and whether the signal
/// reached the run before it finished.
fn run_and_signal(out: &Path, point: Point, signal: libc::c_int) -> (ExitStatus, String, bool) {
    let mut child = start(out);
    let reached = wait_for(&mut child, out, point);
    if reached {
        // SAFETY: signals our own child, which has not been waited for yet.
        assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, signal) }, 0);
    }
    let done = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&done.stderr).into_owned();
    let stopped = done.status.signal() == Some(signal);
    assert!(stopped || done.status.success(), "{point:?}: {:?}\n{err}", done.status);
    (done.status, err, stopped)
}

/// Every visible entry of `out` is whole: each JSON a readable report with
/// its plots present, each plot folder named by a JSON and holding exactly
/// its plots, no empty file. The reports found.
fn check_whole(out: &Path) -> Vec<RunReport> {
    let mut reports = Vec::new();
    let mut folders = Vec::new();
    for e in std::fs::read_dir(out).unwrap() {
        let e = e.unwrap();
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        let path = e.path();
        if path.is_dir() {
            folders.push(name);
            continue;
        }
        assert!(name.ends_with(".json"), "unexpected {name}");
        let report = read_report(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        for b in &report.benchmarks {
            assert!(!b.plots.is_empty(), "{name}: {} has no plots", b.name);
            for p in &b.plots {
                check_plot(&out.join(p));
            }
        }
        reports.push(report);
    }
    for folder in folders {
        let json = out.join(format!("{folder}.json"));
        let report = read_report(&json).unwrap_or_else(|e| panic!("plot folder {folder} without its JSON: {e}"));
        let mut listed: Vec<String> = report.benchmarks.iter().flat_map(|b| b.plots.clone()).collect();
        listed.sort();
        let mut present: Vec<String> = std::fs::read_dir(out.join(&folder))
            .unwrap()
            .map(|e| format!("{folder}/{}", e.unwrap().file_name().to_string_lossy()))
            .collect();
        present.sort();
        assert_eq!(present, listed, "{folder}");
    }
    reports
}

/// A plot file is whole: a decodable PNG, or an SVG document to its end.
fn check_plot(path: &Path) {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(!bytes.is_empty(), "{} is empty", path.display());
    match path.extension().and_then(|e| e.to_str()) {
        Some("png") => {
            let image = image::load_from_memory_with_format(&bytes, image::ImageFormat::Png)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert_eq!((image.width(), image.height()), (1000, 640), "{}", path.display());
        }
        Some("svg") => {
            let text = String::from_utf8(bytes).unwrap();
            assert!(text.trim_end().ends_with("</svg>"), "{} is cut short", path.display());
        }
        _ => panic!("unexpected plot {}", path.display()),
    }
}

#[test]
fn killed_runs_leave_only_whole_results() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path();
    let points = [
        Point::After(Duration::from_millis(150)),
        Point::After(Duration::from_millis(800)),
        Point::PlotFolder,
        Point::Json,
    ];
    let mut stopped_at = Vec::new();
    let mut finished = 0;
    for signal in [libc::SIGINT, libc::SIGKILL] {
        for point in points {
            let (status, err, stopped) = run_and_signal(out, point, signal);
            if stopped {
                stopped_at.push((signal, point));
            } else {
                finished += 1;
            }
            if signal == libc::SIGINT && stopped {
                // The run cleaned up and said so, in one line, the last.
                assert!(hidden_names(out).is_empty(), "{point:?}: {:?}", hidden_names(out));
                let last = err.lines().last().unwrap_or_default();
                assert!(
                    last.starts_with("boardbench: interrupted by SIGINT; stopped,")
                        && last.ends_with("nothing half-written left"),
                    "{point:?}: {err}"
                );
                assert_eq!(status.signal(), Some(libc::SIGINT));
            }
            assert!(!err.contains("panicked"), "{point:?}: {err}");
            check_whole(out);
        }
    }
    // Plots take long enough to be caught being drawn.
    for signal in [libc::SIGINT, libc::SIGKILL] {
        assert!(stopped_at.contains(&(signal, Point::PlotFolder)), "{stopped_at:?}");
    }
    let left = hidden_names(out);
    eprintln!("stopped at {stopped_at:?}, {finished} finished first; SIGKILL left {left:?}");

    // The next run removes the killed runs' temporaries and finishes whole.
    let done = start(out).wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&done.stderr);
    assert!(done.status.success(), "{err}");
    if !left.is_empty() {
        assert!(err.contains(&format!("removed {} unfinished temporar", left.len())), "{err}");
    }
    assert!(hidden_names(out).is_empty(), "{:?}", hidden_names(out));
    let reports = check_whole(out);
    assert!(reports.len() >= 2, "the last run's JSON and latest.json");
}

/// Start time of process `pid` (clock ticks since boot), field 22 of
/// `/proc/<pid>/stat`.
fn start_ticks(pid: u32) -> u64 {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let rest = &text[text.rfind(')').unwrap() + 1..];
    rest.split_whitespace().nth(22 - 3).unwrap().parse().unwrap()
}

/// A run removes the temporaries of dead writers only: one of a live
/// process stays, one of a process that has ended goes, and so does one
/// whose process id now belongs to a process started later.
#[test]
fn only_dead_writers_temporaries_are_removed() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path();
    let mut live = Command::new("sleep").arg("60").spawn().unwrap();
    let live_start = start_ticks(live.id());
    let mut dead = Command::new("sleep").arg("60").spawn().unwrap();
    let dead_start = start_ticks(dead.id());
    dead.kill().unwrap();
    dead.wait().unwrap();
    let keep = format!(".20260101T000000Z-abc.json.{}-{live_start}.tmp", live.id());
    let keep_folder = format!(".20260101T000000Z-abc.{}-{live_start}.tmp", live.id());
    let gone = [
        format!(".20260101T000000Z-def.json.{}-{dead_start}.tmp", dead.id()),
        format!(".latest.json.{}-{}.tmp", live.id(), live_start + 1),
        format!(".20260101T000000Z-def.{}-{dead_start}.tmp", dead.id()),
    ];
    std::fs::write(out.join(&keep), b"{").unwrap();
    std::fs::create_dir(out.join(&keep_folder)).unwrap();
    for g in &gone[..2] {
        std::fs::write(out.join(g), b"{").unwrap();
    }
    std::fs::create_dir(out.join(&gone[2])).unwrap();
    std::fs::write(out.join(&gone[2]).join("getattacksbench-men.png"), b"").unwrap();

    let done = Command::new(env!("CARGO_BIN_EXE_boardbench"))
        .args(["getattacksbench", "--quick", "--no-plots", "--rounds", "2", "--out"])
        .arg(out)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&done.stderr);
    assert!(done.status.success(), "{err}");
    let mut want = vec![keep.clone(), keep_folder.clone()];
    want.sort();
    assert_eq!(hidden_names(out), want, "{err}");
    let line = err.lines().find(|l| l.contains("unfinished temporar")).unwrap_or_default();
    assert!(line.starts_with("boardbench: warning: removed 3 unfinished temporaries of runs that died"), "{err}");
    live.kill().unwrap();
    live.wait().unwrap();
}

/// Every file below `dir` (paths relative to it) with its bytes.
fn snapshot(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut files = std::collections::BTreeMap::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(d) = pending.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let path = e.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else {
                let name = path.strip_prefix(dir).unwrap().display().to_string();
                files.insert(name, std::fs::read(&path).unwrap());
            }
        }
    }
    files
}

/// A quick run interrupted with SIGINT (while measuring, while the plots
/// are drawn, while the JSON is written) in a folder that already holds
/// the last good run and a `baseline.json`: those stay byte for byte, no
/// temporary is left, and `latest.json` is either still the last good run
/// or, where the signal came while the new run was being put in place, a
/// whole new one beside its own plots.
#[test]
fn an_interrupted_run_keeps_the_last_good_result_and_the_baseline() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path();
    let first = Command::new(env!("CARGO_BIN_EXE_boardbench"))
        .args(["getattacksbench", "--quick", "--rounds", "2", "--out"])
        .arg(out)
        .output()
        .unwrap();
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    std::fs::copy(out.join("latest.json"), out.join("baseline.json")).unwrap();
    let good = snapshot(out);
    assert!(good.keys().filter(|k| k.ends_with(".png") || k.ends_with(".svg")).count() >= 2, "{:?}", good.keys());
    assert_eq!(good.keys().filter(|k| k.ends_with(".json")).count(), 3, "{:?}", good.keys());

    let points = [
        Point::After(Duration::from_millis(300)),
        Point::After(Duration::from_millis(1500)),
        Point::PlotFolder,
        Point::Json,
    ];
    // The plots take milliseconds to draw; on a loaded machine the poll may
    // see their folder only once the run has finished, so that point is
    // tried a few times until a signal lands while they are drawn.
    const PLOT_TRIES: usize = 5;
    let mut stopped_at = Vec::new();
    let tries = points.iter().flat_map(|&p| vec![p; if p == Point::PlotFolder { PLOT_TRIES } else { 1 }]);
    for point in tries {
        if point == Point::PlotFolder && stopped_at.contains(&point) {
            continue;
        }
        let before = snapshot(out);
        let (_, err, stopped) = run_and_signal(out, point, libc::SIGINT);
        if stopped {
            stopped_at.push(point);
        }
        assert!(!err.contains("panicked"), "{point:?}: {err}");
        assert!(hidden_names(out).is_empty(), "{point:?}: {:?}", hidden_names(out));
        let after = snapshot(out);
        // Everything there before is still there, unchanged, but latest.json.
        for (name, bytes) in &before {
            if name != "latest.json" {
                assert!(after.get(name) == Some(bytes), "{point:?}: {name} changed or went\n{err}");
            }
        }
        assert_eq!(after.get("baseline.json"), good.get("baseline.json"), "{point:?}");
        let new: Vec<&String> = after.keys().filter(|k| !before.contains_key(*k)).collect();
        if after.get("latest.json") == before.get("latest.json") {
            assert!(new.is_empty(), "{point:?}: {new:?} appeared, latest.json did not change\n{err}");
        } else {
            // Put in place before the signal took effect: whole, and named.
            let json: Vec<&&String> = new.iter().filter(|k| k.ends_with(".json")).collect();
            assert_eq!(json.len(), 1, "{point:?}: {new:?}");
            assert_eq!(after.get(json[0].as_str()), after.get("latest.json"), "{point:?}");
        }
        check_whole(out);
    }
    // The run was caught while measuring and while drawing its plots.
    assert!(stopped_at.contains(&points[0]) && stopped_at.contains(&Point::PlotFolder), "{stopped_at:?}");
    // The last good run itself, whatever happened after it.
    let last = snapshot(out);
    for (name, bytes) in good.iter().filter(|(n, _)| *n != "latest.json") {
        assert_eq!(last.get(name), Some(bytes), "{name}");
    }
}

/// Whether process `pid` has ended (gone, or a zombie nobody has reaped).
fn ended(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(text) => text[text.rfind(')').unwrap() + 1..].split_whitespace().next() == Some("Z"),
    }
}

/// An interrupted run ends the processes it started, though they run in
/// process groups of their own (which a terminal's Ctrl-C does not
/// reach): an `nps` run whose "engine" sleeps is stopped with SIGINT, and
/// the engine goes with it.
#[test]
fn an_interrupted_run_ends_its_child_processes() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let pids = dir.path().join("pids");
    let engine = dir.path().join("sleeping-engine.sh");
    std::fs::write(&engine, format!("#!/bin/sh\necho $$ >> '{}'\nexec sleep 120\n", pids.display())).unwrap();
    std::fs::set_permissions(&engine, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = dir.path().join("out");
    let mut child = Command::new(env!("CARGO_BIN_EXE_boardbench"))
        .args(["nps", "--crafty"])
        .arg(&engine)
        .arg("--engine")
        .arg(&engine)
        .args(["--engine-profile", "bitboard", "--runs", "1", "--no-plots", "--out"])
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let engine_pid: u32 = loop {
        if let Some(pid) = std::fs::read_to_string(&pids).ok().and_then(|t| t.lines().next()?.trim().parse().ok()) {
            break pid;
        }
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut err).unwrap();
            panic!("nps ended ({status:?}) before starting the engine: {err}");
        }
        assert!(started.elapsed() < Duration::from_secs(60), "the engine never started");
        std::thread::sleep(Duration::from_millis(10));
    };
    assert!(!ended(engine_pid));
    // SAFETY: signals our own child, not yet waited for.
    assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) }, 0);
    let done = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.status.signal(), Some(libc::SIGINT), "{err}");
    assert!(err.contains("1 child process ended"), "{err}");
    let gone = Instant::now();
    while !ended(engine_pid) {
        assert!(gone.elapsed() < Duration::from_secs(5), "the engine {engine_pid} outlived the run");
        std::thread::sleep(Duration::from_millis(10));
    }
    // Nothing half-written where the results go.
    if out.exists() {
        assert!(hidden_names(&out).is_empty(), "{:?}", hidden_names(&out));
    }
}
