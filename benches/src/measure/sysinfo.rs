//! Facts about the machine and the build that a result is meaningless
//! without: CPU model and flags, load average, the rustc that built this
//! binary, and the UTC date (the git commit and dirty flag come from
//! [`crate::workspace::git_state`]). Each returns `None` (or empty) where
//! the fact cannot be read, never a guess.

use std::time::{SystemTime, UNIX_EPOCH};

/// Lines of /proc/cpuinfo for the first CPU (empty where unreadable).
fn cpuinfo_field(name: &str) -> Option<String> {
    let text = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    text.lines()
        .find(|l| l.split(':').next().is_some_and(|k| k.trim() == name))
        .and_then(|l| l.split_once(':'))
        .map(|(_, v)| v.trim().to_string())
}

/// This process's command line as a result records it; an argument that is
/// not UTF-8 (a path) is kept with its bad bytes replaced, never a panic.
pub fn command_line() -> Vec<String> {
    std::env::args_os().map(|a| a.to_string_lossy().into_owned()).collect()
}

/// The CPU model name.
pub fn cpu_model() -> Option<String> {
    cpuinfo_field("model name")
}

/// The CPU flags the kernel reports (empty where unreadable).
pub fn cpu_flags() -> Vec<String> {
    cpuinfo_field("flags").map(|f| f.split_whitespace().map(str::to_string).collect()).unwrap_or_default()
}

/// The 1, 5 and 15 minute load averages.
pub fn load_average() -> Option<[f64; 3]> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    let v: Vec<f64> = text.split_whitespace().take(3).filter_map(|s| s.parse().ok()).collect();
    (v.len() == 3).then(|| [v[0], v[1], v[2]])
}

/// Number of online CPUs.
pub fn cpu_count() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
}

/// The rustc that compiled this crate (recorded by build.rs).
pub fn rustc_version() -> &'static str {
    env!("BOARDBENCH_RUSTC_VERSION")
}

/// Civil date (year, month, day) of a count of days since 1970-01-01
/// (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// Seconds since the epoch as an ISO 8601 UTC timestamp.
pub fn iso8601(secs: u64) -> String {
    let (y, mo, d) = civil_from_days((secs / 86_400) as i64);
    let s = secs % 86_400;
    format!("{y:04}-{mo:02}-{d:02}T{:02}:{:02}:{:02}Z", s / 3600, s / 60 % 60, s % 60)
}

/// Now, as seconds since the epoch.
pub fn now_secs() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(iso8601(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso8601(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(iso8601(1_700_000_000), "2023-11-14T22:13:20Z");
        assert_eq!(iso8601(4_102_444_799), "2099-12-31T23:59:59Z");
    }

    #[test]
    fn machine_facts_read_on_linux() {
        if cfg!(target_os = "linux") {
            assert!(load_average().is_some());
            assert!(!cpu_flags().is_empty());
        }
        assert!(rustc_version().starts_with("rustc "));
    }
}
