//! Running a whole program as a measured child process: pinned to one core
//! (set in the child before `exec`, so every thread it starts inherits the
//! pin), in its own process group (so a timeout kills its helpers too and
//! no orphan keeps our pipes open), in a working directory of the caller's
//! choosing, with stdout and stderr drained concurrently (no pipe deadlock)
//! and the child's own resource usage (`wait4`: user and system CPU time)
//! next to the wall time, so a run whose CPU share is well below 1 can be
//! recognised as disturbed.
//!
//! A caller may also stop the child early: `stop_when` is checked on the
//! stdout collected so far after every line, and once it holds the child is
//! killed and the run counts as complete (Crafty's `bench` prints the
//! one-thread result and then starts a 2-thread run nobody asked for).
//!
//! The stdin script is written from its own thread while stdout and stderr
//! are drained, so a child that answers a long script with a lot of output
//! cannot deadlock us and the timeout always applies. Each stream is kept
//! whole up to [`OUTPUT_CAP`]; a child that prints more is killed and the
//! run is an error, so a runaway program cannot take the machine's memory.
//! A process the child starts that leaves its group (a daemon) is not
//! killed with it; once the child is gone we stop waiting on the pipes it
//! may still hold.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The most output kept per stream (stdout, stderr). Far above any bench's
/// output (Crafty searching our positions prints 2-3 KB per position, every
/// summary of which is read), so only a runaway program reaches it; it is
/// then killed, since the parsers need the whole output, not a part.
pub const OUTPUT_CAP: usize = 32 << 20;

/// What to run.
pub struct Job<'a> {
    pub program: &'a Path,
    pub args: &'a [String],
    /// Written to the child's stdin, which is then closed.
    pub stdin: Option<&'a str>,
    pub cwd: &'a Path,
    /// Extra environment variables.
    pub env: &'a [(String, String)],
    /// Pin the child (and all its threads) to this core.
    pub core: Option<usize>,
    /// Run the child in the real-time FIFO class (priority 1).
    pub realtime: bool,
    /// A timeout too large to add to the start time means no deadline.
    pub timeout: Duration,
    /// Checked on the stdout so far after each line; when it holds the
    /// child is killed and the run is complete.
    pub stop_when: Option<&'a (dyn Fn(&str) -> bool + Sync)>,
}

/// How the child ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Exited by itself with this status code.
    Exited(i32),
    /// Killed by this signal, not by us.
    Signalled(i32),
    /// We killed it because `stop_when` held.
    Stopped,
    /// We killed it because it ran past the timeout.
    TimedOut,
}

/// A finished run.
#[derive(Clone, Debug)]
pub struct Finished {
    pub stdout: String,
    pub stderr: String,
    pub ending: Ending,
    pub wall: Duration,
    /// User and system CPU time of the child (and its waited-for children).
    pub user: Duration,
    pub system: Duration,
}

impl Finished {
    /// CPU time over wall time: about 1 for a single-threaded program that
    /// had its core to itself.
    pub fn cpu_share(&self) -> f64 {
        let wall = self.wall.as_secs_f64();
        if wall > 0.0 {
            (self.user + self.system).as_secs_f64() / wall
        } else {
            0.0
        }
    }

    /// The last `n` non-empty lines of stdout and stderr, joined with " | "
    /// (for one-line error messages).
    pub fn last_lines(&self, n: usize) -> String {
        last_lines(&self.stdout, &self.stderr, n)
    }
}

/// Longest line [`last_lines`] shows, in characters.
const LINE_SHOWN: usize = 200;

/// The first `max` characters of `text`, and whether anything was cut
/// (messages quote program output, which may be one line of megabytes).
pub fn clip(text: &str, max: usize) -> (&str, bool) {
    match text.char_indices().nth(max) {
        Some((at, _)) => (&text[..at], true),
        None => (text, false),
    }
}

/// The last `n` non-empty lines of `stdout` then `stderr`, joined by " | ".
pub fn last_lines(stdout: &str, stderr: &str, n: usize) -> String {
    // From the end, and each line shortened: the output may be up to
    // OUTPUT_CAP, in one line or millions.
    let pick = |s: &str| -> Vec<String> {
        let mut v: Vec<String> = s
            .lines()
            .rev()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .take(n)
            .map(|l| match clip(l, LINE_SHOWN) {
                (kept, true) => format!("{kept}..."),
                (whole, false) => whole.to_string(),
            })
            .collect();
        v.reverse();
        v
    };
    let mut all = pick(stdout);
    all.extend(pick(stderr));
    if all.is_empty() {
        "(no output)".to_string()
    } else {
        all[all.len().saturating_sub(n)..].join(" | ")
    }
}

/// Whether `path` is an existing regular file we may execute; the reason
/// when it is not.
pub fn check_executable(path: &Path) -> Result<(), String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if !meta.is_file() {
        return Err(format!("{}: not a regular file", path.display()));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if meta.permissions().mode() & 0o111 == 0 {
            return Err(format!("{}: not executable (no x permission)", path.display()));
        }
    }
    Ok(())
}

/// Where `path` names a program: a bare name (no `/`) that is not a file
/// here is looked up in `$PATH`; the result is absolute, so it still works
/// from another working directory. Checked with [`check_executable`].
pub fn resolve_program(path: &Path) -> Result<PathBuf, String> {
    let bare = path.components().count() == 1 && !path.as_os_str().to_string_lossy().contains('/');
    if bare && !path.is_file() {
        if let Some(found) = std::env::var_os("PATH")
            .iter()
            .flat_map(std::env::split_paths)
            .map(|d| d.join(path))
            .find(|p| check_executable(p).is_ok())
        {
            return Ok(found);
        }
    }
    check_executable(path)?;
    std::path::absolute(path).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(target_os = "linux")]
fn wait_child(pid: libc::pid_t) -> std::io::Result<(libc::c_int, libc::rusage)> {
    loop {
        let mut status: libc::c_int = 0;
        // SAFETY: rusage is plain old data; wait4 fills it.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: waits for our own child, writing into valid locals.
        let rc = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if rc == pid {
            return Ok((status, usage));
        }
        let e = std::io::Error::last_os_error();
        if e.kind() != std::io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

#[cfg(target_os = "linux")]
fn tv(t: libc::timeval) -> Duration {
    Duration::from_secs(t.tv_sec.max(0) as u64) + Duration::from_micros(t.tv_usec.max(0) as u64)
}

/// Run `job` to completion (or until stopped or timed out). A stream
/// longer than [`OUTPUT_CAP`] is an error.
#[cfg(target_os = "linux")]
pub fn run(job: &Job) -> Result<Finished, String> {
    run_capped(job, OUTPUT_CAP)
}

/// What a reader thread tells the deadline loop.
#[cfg(target_os = "linux")]
enum Signal {
    /// `stop_when` held.
    Stop,
    /// This stream passed the output cap.
    Overflow(&'static str),
}

/// How long the readers keep draining a stream after the child is gone
/// while data still comes (from a process that escaped its group).
#[cfg(target_os = "linux")]
const DRAIN_GRACE: Duration = Duration::from_secs(1);

/// One end of a pipe to the child that stops waiting once the child is
/// gone (`gone` set): a process it started that left its group (`setsid`,
/// a daemon) is not killed with the group and may hold the pipe open
/// forever. Until then it blocks like the pipe; afterwards it takes only
/// what is already there (for at most [`DRAIN_GRACE`]), then reads as the
/// end of the stream, or fails to write.
#[cfg(target_os = "linux")]
struct UntilGone<'a, P> {
    pipe: P,
    gone: &'a std::sync::OnceLock<Instant>,
}

#[cfg(target_os = "linux")]
impl<P: std::os::fd::AsRawFd> UntilGone<'_, P> {
    /// Whether the pipe is ready for `events` (or closed, or in error: the
    /// read or write then says so); `false` once the child is gone and it
    /// is not.
    fn ready(&self, events: libc::c_short) -> bool {
        loop {
            let gone = self.gone.get();
            if gone.is_some_and(|t| t.elapsed() > DRAIN_GRACE) {
                return false;
            }
            let mut fd = libc::pollfd { fd: self.pipe.as_raw_fd(), events, revents: 0 };
            // Short waits, so that the child's end is noticed.
            let wait_ms = if gone.is_some() { 0 } else { 20 };
            // SAFETY: one valid pollfd, for a descriptor we own.
            let r = unsafe { libc::poll(&mut fd, 1, wait_ms) };
            if r > 0 || (r < 0 && std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted) {
                return true;
            }
            if r == 0 && gone.is_some() {
                return false;
            }
        }
    }
}

#[cfg(target_os = "linux")]
impl<P: Read + std::os::fd::AsRawFd> Read for UntilGone<'_, P> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.ready(libc::POLLIN) {
            self.pipe.read(buf)
        } else {
            Ok(0)
        }
    }
}

#[cfg(target_os = "linux")]
impl<P: Write + std::os::fd::AsRawFd> Write for UntilGone<'_, P> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.ready(libc::POLLOUT) {
            // A pipe that polls writable takes PIPE_BUF bytes without
            // blocking; more could block for good on a reader that never
            // reads.
            self.pipe.write(&buf[..buf.len().min(libc::PIPE_BUF)])
        } else {
            Err(std::io::Error::new(std::io::ErrorKind::BrokenPipe, "the child is gone"))
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.pipe.flush()
    }
}

/// Read `from` to its end into `into`, at most `cap` bytes; `false` once
/// more than that came (reading stops there).
#[cfg(target_os = "linux")]
fn read_capped(from: &mut impl Read, into: &mut Vec<u8>, cap: usize) -> bool {
    // One byte past the cap tells an over-long stream from one exactly at it.
    let _ = from.take(cap as u64 + 1).read_to_end(into);
    into.len() <= cap
}

/// [`run`] keeping at most `cap` bytes of each stream.
#[cfg(target_os = "linux")]
fn run_capped(job: &Job, cap: usize) -> Result<Finished, String> {
    use std::os::unix::process::CommandExt;
    let name = job.program.display().to_string();
    let mut cmd = Command::new(job.program);
    cmd.args(job.args)
        .current_dir(job.cwd)
        .stdin(if job.stdin.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in job.env {
        cmd.env(k, v);
    }
    let core = job.core;
    let realtime = job.realtime;
    // SAFETY: only async-signal-safe calls (setpgid, sched_setaffinity,
    // sched_setscheduler) between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            if libc::setpgid(0, 0) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            if let Some(c) = core {
                let mut set: libc::cpu_set_t = std::mem::zeroed();
                libc::CPU_SET(c, &mut set);
                if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            if realtime {
                let p = libc::sched_param { sched_priority: 1 };
                if libc::sched_setscheduler(0, libc::SCHED_FIFO, &p) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }
    let started = Instant::now();
    let mut child = crate::output::children::spawn(&mut cmd).map_err(|e| format!("cannot start {name}: {e}"))?;
    let pid = child.id() as libc::pid_t;
    let out = Arc::new(Mutex::new(String::new()));
    let err = Arc::new(Mutex::new(String::new()));
    let (tx, rx) = mpsc::channel::<Signal>();
    // Set once the child has been waited for and its group killed.
    let gone = std::sync::OnceLock::new();
    let mut stdout = UntilGone { pipe: child.stdout.take().expect("piped"), gone: &gone };
    let mut stderr = UntilGone { pipe: child.stderr.take().expect("piped"), gone: &gone };
    let stdin = child.stdin.take().map(|pipe| UntilGone { pipe, gone: &gone });
    std::thread::scope(|s| {
        let out_c = Arc::clone(&out);
        let tx_out = tx.clone();
        let stop_when = job.stop_when;
        let out_reader = s.spawn(move || {
            let mut reader = BufReader::new(&mut stdout);
            let mut line = Vec::new();
            let (mut stopped, mut total) = (false, 0usize);
            loop {
                line.clear();
                // Bounded, so a line with no end cannot outgrow the cap either.
                let left = (cap - total) as u64 + 1;
                match (&mut reader).take(left).read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(n) if total + n > cap => {
                        // Kept up to the cap, for the error's last lines.
                        line.truncate(cap - total);
                        out_c.lock().expect("not poisoned").push_str(&String::from_utf8_lossy(&line));
                        let _ = tx_out.send(Signal::Overflow("stdout"));
                        break;
                    }
                    Ok(n) => {
                        total += n;
                        let mut o = out_c.lock().expect("not poisoned");
                        o.push_str(&String::from_utf8_lossy(&line));
                        if !stopped && stop_when.is_some_and(|f| f(&o)) {
                            stopped = true;
                            let _ = tx_out.send(Signal::Stop);
                        }
                    }
                }
            }
        });
        let err_c = Arc::clone(&err);
        let tx_err = tx.clone();
        let err_reader = s.spawn(move || {
            let mut buf = Vec::new();
            if !read_capped(&mut stderr, &mut buf, cap) {
                buf.truncate(cap);
                let _ = tx_err.send(Signal::Overflow("stderr"));
            }
            err_c.lock().expect("not poisoned").push_str(&String::from_utf8_lossy(&buf));
        });
        // Written while the readers drain the child's output, so neither
        // side can block the other, and the deadline below applies.
        if let (Some(text), Some(mut pipe)) = (job.stdin, stdin) {
            s.spawn(move || {
                // A child that exits (or is killed) before reading all of
                // its input closes the pipe: not an error by itself; its
                // exit status or the timeout tells.
                let _ = pipe.write_all(text.as_bytes());
            });
        }
        let (wtx, wrx) = mpsc::channel();
        s.spawn(move || {
            let r = wait_child(pid);
            crate::output::children::forget(pid as u32);
            let _ = wtx.send((r, started.elapsed()));
        });
        drop(tx);
        // Wait for the exit, a stop request, too much output, or the
        // deadline (none when the timeout does not fit in an Instant).
        let deadline = started.checked_add(job.timeout);
        let mut ending = None;
        let mut overflow = None;
        let waited = loop {
            if let Ok(w) = wrx.try_recv() {
                break w;
            }
            let left = deadline.map_or(Duration::MAX, |d| d.saturating_duration_since(Instant::now()));
            let decided = ending.is_some() || overflow.is_some();
            if left.is_zero() && !decided {
                ending = Some(Ending::TimedOut);
                // SAFETY: signals our child's own process group.
                unsafe { libc::kill(-pid, libc::SIGKILL) };
                continue;
            }
            match rx.recv_timeout(left.min(Duration::from_millis(5)).max(Duration::from_millis(1))) {
                Ok(signal) if !decided => {
                    match signal {
                        Signal::Stop => ending = Some(Ending::Stopped),
                        Signal::Overflow(stream) => overflow = Some(stream),
                    }
                    // SAFETY: as above.
                    unsafe { libc::kill(-pid, libc::SIGKILL) };
                }
                _ => {}
            }
        };
        // Helpers of the child may still hold the pipes: end the group.
        // SAFETY: as above; the group may already be gone.
        unsafe { libc::kill(-pid, libc::SIGKILL) };
        // One that left the group may hold them still: stop waiting on it.
        let _ = gone.set(Instant::now());
        // A child that exits right after printing too much can be waited
        // for before a reader has seen the excess: ask them once they end.
        let _ = (out_reader.join(), err_reader.join());
        if ending.is_none() && overflow.is_none() {
            overflow = rx.try_iter().find_map(|signal| match signal {
                Signal::Overflow(stream) => Some(stream),
                Signal::Stop => None,
            });
        }
        let ((status, usage), wall) = match waited {
            (Ok(x), wall) => (x, wall),
            (Err(e), _) => return Err(format!("waiting for {name}: {e}")),
        };
        let ending = ending.unwrap_or_else(|| {
            if libc::WIFEXITED(status) {
                Ending::Exited(libc::WEXITSTATUS(status))
            } else {
                Ending::Signalled(libc::WTERMSIG(status))
            }
        });
        Ok((ending, overflow, wall, tv(usage.ru_utime), tv(usage.ru_stime)))
    })
    .and_then(|(ending, overflow, wall, user, system)| {
        let f = Finished {
            stdout: std::mem::take(&mut *out.lock().expect("not poisoned")),
            stderr: std::mem::take(&mut *err.lock().expect("not poisoned")),
            ending,
            wall,
            user,
            system,
        };
        match overflow {
            None => Ok(f),
            Some(stream) => Err(format!(
                "{name} printed more than {} on {stream} (killed: no bench prints that much); last lines: {}",
                if cap.is_multiple_of(1 << 20) { format!("{} MiB", cap >> 20) } else { format!("{cap} bytes") },
                f.last_lines(3)
            )),
        }
    })
}

#[cfg(not(target_os = "linux"))]
pub fn run(_job: &Job) -> Result<Finished, String> {
    Err("running baselines is only supported on Linux".to_string())
}

/// A fresh directory under the system temp directory, removed on drop.
pub struct TempDir {
    path: PathBuf,
}

impl TempDir {
    pub fn new(prefix: &str) -> Result<TempDir, String> {
        use std::sync::atomic::{AtomicU64, Ordering};
        static SEQ: AtomicU64 = AtomicU64::new(0);
        let base = std::env::temp_dir();
        for _ in 0..100 {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.subsec_nanos())
                .unwrap_or(0);
            let path =
                base.join(format!("{prefix}-{}-{}-{nanos:x}", std::process::id(), SEQ.fetch_add(1, Ordering::Relaxed)));
            // Listed as a temporary: an interrupt removes it.
            match crate::output::temporaries::create_dir(&path) {
                Ok(()) => return Ok(TempDir { path }),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(format!("cannot create a temporary directory in {}: {e}", base.display())),
            }
        }
        Err(format!("cannot create a temporary directory in {}", base.display()))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        crate::output::temporaries::discard(&self.path);
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    fn sh(script: &str, timeout: Duration, stop: Option<&(dyn Fn(&str) -> bool + Sync)>) -> Finished {
        sh_with(script, "hello\n", timeout, stop, None).unwrap()
    }

    /// `script` run by /bin/sh with `stdin`, keeping at most `cap` bytes a
    /// stream (`None`: through [`run`], with its own cap).
    fn sh_with(
        script: &str,
        stdin: &str,
        timeout: Duration,
        stop: Option<&(dyn Fn(&str) -> bool + Sync)>,
        cap: Option<usize>,
    ) -> Result<Finished, String> {
        let dir = TempDir::new("bb-proc-test").unwrap();
        let args = vec!["-c".to_string(), script.to_string()];
        let job = Job {
            program: Path::new("/bin/sh"),
            args: &args,
            stdin: Some(stdin),
            cwd: dir.path(),
            env: &[],
            core: Some(0),
            realtime: false,
            timeout,
            stop_when: stop,
        };
        match cap {
            Some(cap) => run_capped(&job, cap),
            None => run(&job),
        }
    }

    /// `f()`, failing the test if it has not returned within `limit`
    /// (a deadlocked run would otherwise hang the test instead).
    fn within<T: Send + 'static>(limit: Duration, f: impl FnOnce() -> T + Send + 'static) -> T {
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(f());
        });
        rx.recv_timeout(limit).unwrap_or_else(|_| panic!("no result within {limit:?}: deadlocked"))
    }

    #[test]
    fn captures_both_streams_status_and_cwd() {
        let f = sh("read x; echo out:$x; pwd; echo err >&2; exit 7", Duration::from_secs(10), None);
        assert_eq!(f.ending, Ending::Exited(7));
        assert!(f.stdout.starts_with("out:hello\n"), "{:?}", f.stdout);
        assert!(f.stdout.contains("bb-proc-test"), "runs in the given directory: {:?}", f.stdout);
        assert_eq!(f.stderr, "err\n");
        let pwd = f.stdout.lines().nth(1).unwrap();
        assert_eq!(f.last_lines(3), format!("out:hello | {pwd} | err"));
    }

    #[test]
    fn pins_the_child() {
        let f = sh("grep Cpus_allowed_list /proc/self/status", Duration::from_secs(10), None);
        assert!(f.stdout.trim().ends_with(":\t0"), "{:?}", f.stdout);
    }

    #[test]
    fn timeout_kills_the_whole_group() {
        let t = Instant::now();
        // The backgrounded sleep inherits stdout: only a group kill ends it.
        let f = sh("sleep 30 & echo started; wait", Duration::from_millis(300), None);
        assert_eq!(f.ending, Ending::TimedOut);
        assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
        assert_eq!(f.stdout, "started\n");
    }

    #[test]
    fn a_helper_that_left_the_group_does_not_hold_the_run() {
        // `setsid` puts the sleep in a session of its own, out of reach of
        // the group kill, holding stdout, stderr and the unread stdin.
        // (Through fd 3: sh gives a background job /dev/null for stdin.)
        let script = "exec 3<&0; setsid sleep 30 <&3 3<&- & exec 3<&-; echo started; echo warn >&2; sleep 0.2; exit 3";
        let long_stdin = "x".repeat(1 << 20);
        let f = within(Duration::from_secs(10), move || {
            sh_with(script, &long_stdin, Duration::from_secs(20), None, None).unwrap()
        });
        assert_eq!(f.ending, Ending::Exited(3));
        assert_eq!(f.stdout, "started\n");
        assert_eq!(f.stderr, "warn\n");
    }

    #[test]
    fn long_stdin_answered_with_long_output_does_not_deadlock() {
        // 400 KB of input, 4 KB of output per line read: both pipes fill
        // unless stdin is written while the output is drained.
        let stdin = format!("{}\n", "p".repeat(999)).repeat(400);
        let script = "s=$(head -c 4096 /dev/zero | tr '\\0' x); n=0; \
                      while read -r l; do n=$((n+1)); echo \"$s\"; done; echo \"lines $n\"";
        let f = within(Duration::from_secs(120), move || {
            sh_with(script, &stdin, Duration::from_secs(60), None, None).unwrap()
        });
        assert_eq!(f.ending, Ending::Exited(0), "{}", f.last_lines(2));
        assert!(f.stdout.ends_with("\nlines 400\n"), "{}", f.last_lines(2));
        assert_eq!(f.stdout.len(), 400 * 4097 + "lines 400\n".len());
    }

    #[test]
    fn timeout_applies_while_stdin_is_unread() {
        // The child never reads its 512 KB of input and never exits.
        let t = Instant::now();
        let stdin = "x".repeat(512 << 10);
        let f = within(Duration::from_secs(60), move || {
            sh_with("sleep 30", &stdin, Duration::from_millis(300), None, None).unwrap()
        });
        assert_eq!(f.ending, Ending::TimedOut);
        assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
    }

    #[test]
    fn a_child_that_exits_without_reading_its_input_is_no_error() {
        let f = sh_with("echo done; exit 3", &"x".repeat(1 << 20), Duration::from_secs(30), None, None);
        let f = f.unwrap();
        assert_eq!((f.ending, f.stdout.as_str()), (Ending::Exited(3), "done\n"));
    }

    #[test]
    fn a_timeout_past_the_clocks_range_means_no_deadline() {
        for timeout in [Duration::MAX, Duration::from_secs(u64::MAX), Duration::from_secs(i64::MAX as u64)] {
            let f = sh("read x; echo $x", timeout, None);
            assert_eq!((f.ending, f.stdout.as_str()), (Ending::Exited(0), "hello\n"));
        }
    }

    #[test]
    fn output_past_the_cap_is_an_error() {
        const MIB: usize = 1 << 20;
        let t = Instant::now();
        let capped = |script: &str| sh_with(script, "", Duration::from_secs(60), None, Some(MIB));
        // Exactly the cap is kept whole, on either stream.
        let f = capped("head -c 1048576 /dev/zero | tr '\\0' x").unwrap();
        assert_eq!((f.stdout.len(), f.ending), (MIB, Ending::Exited(0)));
        let f = capped("head -c 1048576 /dev/zero | tr '\\0' x >&2").unwrap();
        assert_eq!(f.stderr.len(), MIB);
        // One byte more, in lines or in one line that never ends, is not.
        let e = capped("yes").unwrap_err();
        assert!(e.starts_with("/bin/sh printed more than 1 MiB on stdout (killed"), "{e}");
        assert!(e.ends_with("last lines: y | y | y"), "{e}");
        let e = capped("head -c 1048577 /dev/zero | tr '\\0' x").unwrap_err();
        assert!(e.contains("more than 1 MiB on stdout"), "{e}");
        // Only the start of a long line is quoted.
        assert!(e.ends_with(&format!("last lines: {}...", "x".repeat(LINE_SHOWN))), "{}", e.len());
        let e = capped("echo start; yes >&2").unwrap_err();
        assert!(e.contains("more than 1 MiB on stderr"), "{e}");
        // Stopped by the cap, not by the timeout.
        assert!(t.elapsed() < Duration::from_secs(30), "{:?}", t.elapsed());
        // `run` itself keeps OUTPUT_CAP.
        let e = sh_with(
            &format!("head -c {} /dev/zero | tr '\\0' x", OUTPUT_CAP + 1),
            "",
            Duration::from_secs(60),
            None,
            None,
        );
        assert!(e.unwrap_err().contains(&format!("more than {} MiB on stdout", OUTPUT_CAP >> 20)));
    }

    #[test]
    fn stop_when_ends_the_run_early() {
        let t = Instant::now();
        let stop = |s: &str| s.contains("result 42");
        let f = sh("echo result 42; sleep 30; echo never", Duration::from_secs(60), Some(&stop));
        assert_eq!(f.ending, Ending::Stopped);
        assert!(t.elapsed() < Duration::from_secs(10));
        assert_eq!(f.stdout, "result 42\n");
    }

    #[test]
    fn cpu_time_is_the_childs_own() {
        // CPU time consumed does not depend on the machine's load; wall time does.
        let busy = sh("i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done", Duration::from_secs(60), None);
        assert!(busy.user + busy.system >= Duration::from_millis(20), "{busy:?}");
        assert!(busy.cpu_share() > 0.0 && busy.cpu_share() <= 1.05, "{}", busy.cpu_share());
        let idle = sh("sleep 0.3", Duration::from_secs(60), None);
        assert!(idle.wall >= Duration::from_millis(300));
        assert!(idle.cpu_share() < 0.2, "{}", idle.cpu_share());
    }

    #[test]
    fn executability_is_checked() {
        let dir = TempDir::new("bb-exec-test").unwrap();
        let f = dir.path().join("plain");
        std::fs::write(&f, "#!/bin/sh\n").unwrap();
        assert!(check_executable(&f).unwrap_err().contains("not executable"));
        assert!(check_executable(&dir.path().join("missing")).unwrap_err().contains("No such file"));
        assert!(check_executable(dir.path()).unwrap_err().contains("not a regular file"));
        assert!(check_executable(Path::new("/bin/sh")).is_ok());
        // Bare names are found in $PATH; relative paths become absolute.
        assert!(resolve_program(Path::new("sh")).unwrap().is_absolute());
        assert!(resolve_program(Path::new("tests/fixtures/fake-engine.sh")).unwrap().is_absolute());
        assert!(resolve_program(Path::new("no-such-program-xyz")).unwrap_err().contains("No such file"));
    }

    #[test]
    fn last_lines_joins_the_tail() {
        assert_eq!(last_lines("a\nb\n\nc\n", "", 2), "b | c");
        assert_eq!(last_lines("a\n", "x\ny\n", 2), "x | y");
        assert_eq!(last_lines("", "", 3), "(no output)");
        let long = "é".repeat(LINE_SHOWN + 1);
        assert_eq!(last_lines(&long, "", 1), format!("{}...", "é".repeat(LINE_SHOWN)));
    }
}
