//! The gate's side of the lock-step protocol: start the workers (each
//! build's own `boardbench gate-worker`), wait for their hellos, send each
//! visit, collect the samples, and end the run with a clear one-line error
//! — never a hang — when a worker fails to start, dies, or stops making
//! progress. Dropping [`Workers`] stops and kills every worker.
//!
//! Placement: every worker gets the same environment and arguments but for
//! its slot, and a padding variable that makes the strings the kernel puts
//! on its initial stack the same length, so base and candidate start with
//! the same stack addresses (address randomisation is off in the workers)
//! whatever their binaries' paths or the candidate's extra variables. A
//! worker given `stack_shift` or `heap_offset` is placed apart from the
//! others on purpose (the A/A control's own placement).

use crate::gate::lockstep::page::{page_dir, Page};
use crate::gate::lockstep::protocol::{to_line, Command, Hello, Message, Visit, WORKER_SUBCOMMAND};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command as Process, Stdio};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// The environment variable that pads a worker's initial stack.
pub const PAD_VAR: &str = "BOARDBENCH_GATE_PAD";

/// One worker to start.
#[derive(Clone, Debug)]
pub struct Spec {
    /// "base", "candidate", "A/A control": for messages.
    pub role: String,
    pub program: PathBuf,
    /// Extra environment of this worker.
    pub env: Vec<(String, String)>,
    /// Bytes the initial stack moves down from where the others' starts.
    pub stack_shift: usize,
    /// Bytes of heap set aside before the cases are prepared.
    pub heap_offset: usize,
}

/// How long the gate waits.
#[derive(Copy, Clone, Debug)]
pub struct Limits {
    /// For every hello (preparing the cases takes a few seconds).
    pub hello: Duration,
    /// Least wait for a visit's samples (longer for long visits).
    pub visit: Duration,
}

impl Limits {
    pub const DEFAULT: Limits = Limits { hello: Duration::from_secs(120), visit: Duration::from_secs(30) };
}

/// Lines of a worker's stderr kept for messages.
const STDERR_LINES: usize = 4;

struct Proc {
    role: String,
    child: Child,
    stdin: Option<ChildStdin>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    /// The thread keeping `stderr`'s last lines (done at the worker's end).
    stderr_reader: std::thread::JoinHandle<()>,
}

/// A worker's arguments (its program first) and environment.
type Launch = (Vec<String>, Vec<(String, String)>);

/// What a reader thread saw: a line of worker `k`'s stdout, or its end.
type Seen = (usize, Option<String>);

/// The running workers.
pub struct Workers {
    page: Page,
    procs: Vec<Proc>,
    rx: mpsc::Receiver<Seen>,
    /// Each worker's hello, in slot order.
    pub hellos: Vec<Hello>,
}

/// The string bytes the kernel copies onto a new process's stack for
/// `args` (the program's path first) and `env`: the path once more (as the
/// executed file's name), every argument and every variable, each with its
/// terminating NUL.
fn stack_bytes(args: &[String], env: &[(String, String)]) -> usize {
    let path = args.first().map_or(0, |p| p.len() + 1);
    path + args.iter().map(|a| a.len() + 1).sum::<usize>()
        + env.iter().map(|(k, v)| k.len() + v.len() + 2).sum::<usize>()
}

impl Workers {
    /// Start one worker per spec with `common` arguments (positions,
    /// cores, benchmarks), in `cwd`; wait for every hello.
    pub fn start(specs: &[Spec], common: &[String], cwd: &Path, limits: Limits) -> Result<Workers, String> {
        let page = Page::create(&page_dir(cwd), specs.len())?;
        let parent = std::process::id().to_string();
        // Address randomisation is switched off in each worker before it
        // starts (below), so no worker re-executes itself.
        let base_env: Vec<(String, String)> = std::env::vars().filter(|(k, _)| k != PAD_VAR).collect();
        let plan: Vec<Launch> = specs
            .iter()
            .enumerate()
            .map(|(k, s)| {
                let mut args = vec![s.program.display().to_string(), WORKER_SUBCOMMAND.to_string()];
                args.extend(["--page".into(), page.path().display().to_string(), "--slot".into(), k.to_string()]);
                args.extend(["--parent".into(), parent.clone(), "--heap-offset".into(), s.heap_offset.to_string()]);
                args.extend(common.iter().cloned());
                let mut env: Vec<(String, String)> =
                    base_env.iter().filter(|(k, _)| !s.env.iter().any(|(x, _)| x == k)).cloned().collect();
                env.extend(s.env.iter().cloned());
                (args, env)
            })
            .collect();
        let longest = plan.iter().map(|(a, e)| stack_bytes(a, e)).max().unwrap_or(0);
        let (tx, rx) = mpsc::channel();
        let mut workers = Workers { page, procs: Vec::new(), rx, hellos: Vec::new() };
        for (k, (s, (args, mut env))) in specs.iter().zip(plan).enumerate() {
            // Same string bytes for all, then the worker's own shift; 16
            // more so that no pad is empty.
            let pad = longest - stack_bytes(&args, &env) + 16 + s.stack_shift;
            env.push((PAD_VAR.to_string(), "x".repeat(pad)));
            let mut cmd = Process::new(&s.program);
            cmd.args(&args[1..])
                .env_clear()
                .envs(env)
                .current_dir(cwd)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
            #[cfg(unix)]
            {
                use std::os::unix::process::CommandExt;
                cmd.process_group(0);
            }
            #[cfg(target_os = "linux")]
            {
                use std::os::unix::process::CommandExt;
                // SAFETY: between fork and exec, two system calls on the
                // child itself; nothing allocated, no lock taken.
                unsafe {
                    cmd.pre_exec(|| {
                        let persona = libc::personality(0xffff_ffff);
                        if persona != -1 {
                            libc::personality((persona | libc::ADDR_NO_RANDOMIZE) as libc::c_ulong);
                        }
                        Ok(())
                    })
                };
            }
            let mut child = crate::output::children::spawn(&mut cmd)
                .map_err(|e| format!("cannot start the {} worker {}: {e}", s.role, s.program.display()))?;
            let stdout = child.stdout.take().expect("piped");
            let stderr = child.stderr.take().expect("piped");
            let tail = Arc::new(Mutex::new(VecDeque::new()));
            let tx = tx.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(stdout).lines() {
                    match line {
                        Ok(l) => {
                            if tx.send((k, Some(l))).is_err() {
                                return;
                            }
                        }
                        Err(_) => break,
                    }
                }
                let _ = tx.send((k, None));
            });
            let keep = Arc::clone(&tail);
            let stderr_reader = std::thread::spawn(move || {
                for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                    let mut t = keep.lock().unwrap_or_else(|p| p.into_inner());
                    if t.len() == STDERR_LINES {
                        t.pop_front();
                    }
                    t.push_back(line);
                }
            });
            let stdin = child.stdin.take();
            workers.procs.push(Proc { role: s.role.clone(), child, stdin, stderr: tail, stderr_reader });
        }
        let mut hellos: Vec<Option<Hello>> = vec![None; specs.len()];
        let since = Instant::now();
        let deadline = since + limits.hello;
        while hellos.iter().any(Option::is_none) {
            let (k, line) = workers.next(since, deadline, "before saying hello")?;
            match serde_json::from_str::<Message>(&line) {
                Ok(Message::Hello(h)) if hellos[k].is_none() => hellos[k] = Some(h),
                _ => {
                    return Err(format!(
                        "the {} worker said {:?} instead of hello: is {} a boardbench with the lock-step gate?",
                        workers.procs[k].role,
                        crate::engines::process::clip(&line, 80).0,
                        specs[k].program.display()
                    ))
                }
            }
        }
        workers.hellos = hellos.into_iter().map(|h| h.expect("every hello")).collect();
        Ok(workers)
    }

    /// The next line any worker printed, or why there is none: a worker
    /// that ended (its status and last words), or nothing from any worker
    /// since `since` by the deadline.
    fn next(&mut self, since: Instant, deadline: Instant, during: &str) -> Result<(usize, String), String> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.rx.recv_timeout(left) {
            Ok((k, Some(line))) => Ok((k, line)),
            Ok((k, None)) => Err(self.ended(k, during)),
            Err(_) => {
                let cursors: Vec<String> =
                    self.procs.iter().enumerate().map(|(k, p)| format!("{} {}", p.role, self.page.cursor(k))).collect();
                Err(format!(
                    "no word from the workers for {:.0} s {during} (samples finished: {}); stopped them",
                    since.elapsed().as_secs_f64(),
                    cursors.join(", ")
                ))
            }
        }
    }

    /// Worker `k` closed its stdout: how it ended, in one line.
    fn ended(&mut self, k: usize, during: &str) -> String {
        let p = &mut self.procs[k];
        let pid = p.child.id();
        // It closed its output: it has exited or is about to.
        let mut status = None;
        for _ in 0..100 {
            if let Ok(Some(s)) = p.child.try_wait() {
                status = Some(s);
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let how = match status {
            Some(s) => describe_exit(s),
            None => "closed its output".to_string(),
        };
        // Its last words may still be in the pipe: a moment for the reader.
        for _ in 0..50 {
            if p.stderr_reader.is_finished() {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let last: Vec<String> = p.stderr.lock().unwrap_or_else(|e| e.into_inner()).iter().cloned().collect();
        let words = if last.is_empty() { String::new() } else { format!("; its last words: {}", last.join(" | ")) };
        format!("the {} worker (pid {pid}) {how} {during}{words}", p.role)
    }

    /// Run one visit of case `label`: `visits[k]` to worker k, who must
    /// send back `expect[k]` samples within `limit`. Each worker's samples.
    pub fn visit(
        &mut self,
        label: &str,
        visits: &[Visit],
        expect: &[usize],
        limit: Duration,
    ) -> Result<Vec<Vec<f64>>, String> {
        self.page.reset_steps();
        for (k, v) in visits.iter().enumerate() {
            self.send(k, &Command::Visit(v.clone()))?;
        }
        let mut got: Vec<Option<Vec<f64>>> = vec![None; visits.len()];
        let since = Instant::now();
        let deadline = since + limit;
        let during = format!("while measuring {label}");
        while got.iter().any(Option::is_none) {
            let (k, line) = self.next(since, deadline, &during)?;
            match serde_json::from_str::<Message>(&line) {
                Ok(Message::Samples { case, units }) if case == visits[k].case && got[k].is_none() => {
                    if units.len() != expect[k] {
                        return Err(format!(
                            "the {} worker sent {} samples of {label}, not {}: does its build speak this protocol?",
                            self.procs[k].role,
                            units.len(),
                            expect[k]
                        ));
                    }
                    got[k] = Some(units);
                }
                _ => {
                    return Err(format!(
                        "the {} worker said {:?} {during}",
                        self.procs[k].role,
                        crate::engines::process::clip(&line, 80).0
                    ))
                }
            }
        }
        Ok(got.into_iter().map(|u| u.expect("every worker's samples")).collect())
    }

    fn send(&mut self, k: usize, c: &Command) -> Result<(), String> {
        let line = format!("{}\n", to_line(c));
        let ok =
            self.procs[k].stdin.as_mut().is_some_and(|s| s.write_all(line.as_bytes()).and_then(|()| s.flush()).is_ok());
        if ok {
            Ok(())
        } else {
            Err(self.ended(k, "when sent a command"))
        }
    }

    /// Samples worker `k` has finished so far (from the page).
    pub fn cursor(&self, k: usize) -> u64 {
        self.page.cursor(k)
    }

    /// Ask every worker to quit, and wait for them (a moment; then they
    /// are killed on drop).
    pub fn finish(mut self) {
        for k in 0..self.procs.len() {
            let _ = self.send(k, &Command::Quit);
            self.procs[k].stdin = None;
        }
        let until = Instant::now() + Duration::from_secs(2);
        for p in self.procs.iter_mut() {
            while Instant::now() < until {
                if let Ok(Some(_)) = p.child.try_wait() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        }
    }
}

impl Drop for Workers {
    fn drop(&mut self) {
        self.page.request_stop();
        for p in self.procs.iter_mut() {
            p.stdin = None;
            if let Ok(None) = p.child.try_wait() {
                #[cfg(unix)]
                // SAFETY: kills the worker's own process group (it leads it).
                unsafe {
                    libc::kill(-(p.child.id() as libc::pid_t), libc::SIGKILL)
                };
                let _ = p.child.kill();
            }
            let _ = p.child.wait();
            crate::output::children::forget(p.child.id());
        }
    }
}

/// "exited with status N" or "was killed by signal N".
fn describe_exit(s: std::process::ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = s.signal() {
            return format!("was killed by signal {sig}");
        }
    }
    match s.code() {
        Some(c) => format!("exited with status {c}"),
        None => "ended".to_string(),
    }
}

/// Check that `bin` (the `role` build, `label`) has a worker of this
/// protocol; a base that predates the lock-step gate has none.
pub fn check_protocol(role: &str, label: &str, bin: &Path) -> Result<(), String> {
    use crate::gate::lockstep::page::PROTOCOL;
    use crate::gate::lockstep::protocol::protocol_line;
    let out = Process::new(bin)
        .args([WORKER_SUBCOMMAND, "--protocol"])
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run the {role} build {}: {e}", bin.display()))?;
    let said = String::from_utf8_lossy(&out.stdout);
    let said = said.trim();
    if out.status.success() && said == protocol_line(PROTOCOL) {
        return Ok(());
    }
    let why =
        if out.status.success() { format!("its worker speaks {said:?}") } else { "it has no gate worker".to_string() };
    Err(format!(
        "the {role} ({label}) cannot take part in the lock-step timing check: {why}, the gate needs \
         protocol {PROTOCOL} (a revision that predates the lock-step gate); choose a later --base, or pass --no-timing"
    ))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use crate::gate::lockstep::protocol::{Hello, Message};
    use crate::gate::lockstep::schedule::Pairing;
    use std::os::unix::fs::PermissionsExt;

    /// Waits short enough for a test.
    const QUICK: Limits = Limits { hello: Duration::from_secs(2), visit: Duration::from_secs(2) };

    /// An executable shell script `name` in `dir` running `body`.
    fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
        let p = dir.join(name);
        std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
        p
    }

    fn spec(role: &str, program: PathBuf) -> Spec {
        Spec { role: role.into(), program, env: vec![], stack_shift: 0, heap_offset: 0 }
    }

    /// A worker's hello line with no cases.
    fn hello_line() -> String {
        to_line(&Message::Hello(Hello {
            protocol: 1,
            pid: 1,
            unit: "ticks".into(),
            units_per_us: 1000.0,
            aslr: "off".into(),
            pinned: true,
            realtime: false,
            heap_offset: 0,
            ready_s: 0.0,
            cases: vec![],
        }))
    }

    fn start(dir: &Path, specs: &[Spec]) -> Result<Workers, String> {
        Workers::start(specs, &[], dir, QUICK).inspect(|w| assert_eq!(w.hellos.len(), specs.len()))
    }

    #[test]
    fn a_worker_that_cannot_start_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let fine = script(dir.path(), "fine", &format!("echo '{}'\nexec sleep 60", hello_line()));
        let err = start(dir.path(), &[spec("base", fine), spec("candidate", dir.path().join("no-such-program"))])
            .err()
            .expect("a missing program cannot start");
        assert!(err.starts_with("cannot start the candidate worker"), "{err}");
        assert!(err.contains("no-such-program"), "{err}");
    }

    #[test]
    fn a_worker_that_dies_before_its_hello_is_named_with_its_last_words() {
        let dir = tempfile::tempdir().unwrap();
        let dies = script(dir.path(), "dies", "echo 'error: positions: no such file' >&2\nexit 3");
        let t = Instant::now();
        let err = start(dir.path(), &[spec("base", dies)]).err().expect("a worker that dies cannot pass");
        assert!(t.elapsed() < Duration::from_secs(5), "took {:?}", t.elapsed());
        assert!(err.starts_with("the base worker (pid "), "{err}");
        assert!(err.contains("exited with status 3 before saying hello"), "{err}");
        assert!(err.contains("its last words: error: positions: no such file"), "{err}");
    }

    #[test]
    fn a_worker_that_never_says_hello_ends_the_run_at_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let fine = script(dir.path(), "fine", &format!("echo '{}'\nexec sleep 60", hello_line()));
        let mute = script(dir.path(), "mute", "exec sleep 60");
        let t = Instant::now();
        let err = start(dir.path(), &[spec("base", fine), spec("A/A control", mute)]).err().expect("no hello");
        assert!(t.elapsed() >= QUICK.hello && t.elapsed() < QUICK.hello * 3, "took {:?}", t.elapsed());
        assert!(err.starts_with("no word from the workers for 2 s before saying hello"), "{err}");
        // Something that is not a hello is refused at once.
        let chatty = script(dir.path(), "chatty", "echo 'id name Stockfish'\nexec sleep 60");
        let err = start(dir.path(), &[spec("candidate", chatty)]).err().expect("not a hello");
        assert!(err.contains("the candidate worker said \"id name Stockfish\" instead of hello"), "{err}");
    }

    #[test]
    fn a_worker_that_dies_or_stalls_during_a_visit_ends_the_run() {
        let dir = tempfile::tempdir().unwrap();
        let hello = hello_line();
        // Reads its visit and waits for the others forever.
        let waits = script(dir.path(), "waits", &format!("echo '{hello}'\nread visit\nexec sleep 60"));
        // Reads its visit and dies.
        let dies = script(dir.path(), "dies", &format!("echo '{hello}'\nread visit\necho 'killed' >&2\nexit 9"));
        let visit = Visit { case: 0, reps: 1, warm: 1, cycles: 4, offset: 0, pairing: Pairing::Turns };
        let visits = [visit.clone(), visit];
        let mut w = start(dir.path(), &[spec("base", waits.clone()), spec("candidate", dies)]).unwrap();
        let t = Instant::now();
        let err = w.visit("sliderbench opening magic", &visits, &[4, 4], QUICK.visit).expect_err("a worker died");
        assert!(t.elapsed() < QUICK.visit, "took {:?}", t.elapsed());
        assert!(err.starts_with("the candidate worker (pid "), "{err}");
        assert!(err.contains("exited with status 9 while measuring sliderbench opening magic"), "{err}");
        assert!(err.contains("its last words: killed"), "{err}");
        // Both alive, neither answers: the visit's limit ends it.
        let mut w = start(dir.path(), &[spec("base", waits.clone()), spec("candidate", waits)]).unwrap();
        let t = Instant::now();
        let err = w.visit("sliderbench opening magic", &visits, &[4, 4], QUICK.visit).expect_err("no samples");
        assert!(t.elapsed() >= QUICK.visit && t.elapsed() < QUICK.visit * 3, "took {:?}", t.elapsed());
        assert!(err.starts_with("no word from the workers for 2 s while measuring sliderbench opening magic"), "{err}");
        assert!(err.contains("(samples finished: base 0, candidate 0)"), "{err}");
    }
}
