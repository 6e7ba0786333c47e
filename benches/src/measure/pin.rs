//! Placing the measuring thread: pinned to one core with `core_affinity`
//! (default the last core, where less of the kernel's own work lands;
//! `--core N` picks another), and, where permitted, in the real-time FIFO
//! scheduling class so that ordinary processes (other builds on a shared
//! machine) cannot preempt it on that core; the kernel migrates them to the
//! other cores, and its real-time throttling (by default 5% of every second
//! left to others) keeps the machine responsive. A request for a core that
//! does not exist is an error; a pin or priority the OS refuses is recorded
//! as such, never claimed. A child that must not inherit the pin and the
//! real-time class (a build) is started [`unpinned`].

use serde::{Deserialize, Serialize};

/// What was asked for and what happened.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Pinning {
    /// The core the user asked for (`None`: the default, the last core).
    pub requested: Option<usize>,
    /// The core the thread was to be pinned to.
    pub core: Option<usize>,
    /// Whether the OS accepted the pin.
    pub pinned: bool,
    /// The thread's allowed CPUs after pinning, as the kernel reports them
    /// (`Cpus_allowed_list`), or why pinning did not happen.
    pub detail: String,
    /// Whether the thread runs in the real-time FIFO class.
    #[serde(default)]
    pub realtime: bool,
    /// What happened when real time was asked for (or that it was not).
    #[serde(default)]
    pub realtime_detail: String,
}

/// Put the calling thread in SCHED_FIFO at the lowest real-time priority.
/// Returns whether it worked and what happened.
pub fn go_realtime() -> (bool, String) {
    #[cfg(target_os = "linux")]
    {
        let param = libc::sched_param { sched_priority: 1 };
        // SAFETY: plain syscall on the calling thread with a valid parameter.
        let rc = unsafe { libc::sched_setscheduler(0, libc::SCHED_FIFO, &param) };
        if rc == 0 {
            // SAFETY: reads the calling thread's policy.
            let policy = unsafe { libc::sched_getscheduler(0) };
            let ok = policy == libc::SCHED_FIFO;
            (ok, if ok { "SCHED_FIFO priority 1".to_string() } else { format!("policy is {policy} after the change") })
        } else {
            (false, format!("sched_setscheduler(SCHED_FIFO): {}", std::io::Error::last_os_error()))
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        (false, "real-time scheduling is only attempted on Linux".to_string())
    }
}

/// Threads that hold every other core with a real-time `pause` loop while a
/// run measures, so that no ordinary process runs beside the measured one
/// (on a VM whose vCPUs are SMT siblings, a co-runner on the "other" core
/// shares the measured core's caches). Dropped: the threads stop.
pub struct Exclusive {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    threads: Vec<std::thread::JoinHandle<()>>,
    /// Cores actually held (pinned and real-time).
    pub held: Vec<usize>,
}

impl Exclusive {
    /// Hold every core but `keep`. Cores that cannot be pinned or made
    /// real-time are not held (and not listed).
    pub fn hold_all_but(keep: usize) -> Exclusive {
        use std::sync::atomic::{AtomicBool, Ordering};
        use std::sync::{mpsc, Arc};
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, rx) = mpsc::channel();
        let mut threads = Vec::new();
        let ids = core_affinity::get_core_ids().unwrap_or_default();
        for id in ids.into_iter().filter(|c| c.id != keep) {
            let stop = Arc::clone(&stop);
            let tx = tx.clone();
            threads.push(std::thread::spawn(move || {
                let ok = core_affinity::set_for_current(id) && go_realtime().0;
                let _ = tx.send(ok.then_some(id.id));
                if !ok {
                    return;
                }
                while !stop.load(Ordering::Relaxed) {
                    for _ in 0..1000 {
                        std::hint::spin_loop();
                    }
                }
            }));
        }
        drop(tx);
        let mut held: Vec<usize> = rx.iter().flatten().collect();
        held.sort_unstable();
        Exclusive { stop, threads, held }
    }
}

impl Drop for Exclusive {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

/// Calls [`leave_realtime`] when dropped, if it holds `true` (the thread
/// went real-time): back to normal however the measuring function returns.
pub struct LeaveRealtimeOnDrop(pub bool);

impl Drop for LeaveRealtimeOnDrop {
    fn drop(&mut self) {
        if self.0 {
            leave_realtime();
        }
    }
}

/// Back to the normal time-sharing class.
pub fn leave_realtime() {
    #[cfg(target_os = "linux")]
    {
        let param = libc::sched_param { sched_priority: 0 };
        // SAFETY: plain syscall on the calling thread with a valid parameter.
        unsafe {
            libc::sched_setscheduler(0, libc::SCHED_OTHER, &param);
        }
    }
}

/// Let the child `cmd` starts run at normal priority on every core: a
/// child inherits the measuring thread's pin and real-time class, which a
/// build (the eval-time engine) must not keep.
pub fn unpinned(cmd: &mut std::process::Command) -> &mut std::process::Command {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: between fork and exec the closure makes only two system
        // calls on the child itself; it allocates nothing and takes no lock.
        unsafe {
            cmd.pre_exec(|| {
                let param = libc::sched_param { sched_priority: 0 };
                libc::sched_setscheduler(0, libc::SCHED_OTHER, &param);
                let mut all: libc::cpu_set_t = std::mem::zeroed();
                for cpu in 0..libc::CPU_SETSIZE as usize {
                    libc::CPU_SET(cpu, &mut all);
                }
                libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &all);
                Ok(())
            })
        };
    }
    cmd
}

/// Pin the calling thread. `Err` only for a core that does not exist.
pub fn pin(requested: Option<usize>) -> Result<Pinning, String> {
    let Some(ids) = core_affinity::get_core_ids().filter(|v| !v.is_empty()) else {
        if let Some(c) = requested {
            return Err(format!("--core {c}: this OS does not report its cores, cannot pin"));
        }
        return Ok(Pinning {
            requested,
            core: None,
            pinned: false,
            detail: "core list unavailable on this OS".to_string(),
            realtime: false,
            realtime_detail: "not requested".to_string(),
        });
    };
    let core = choose_among(&ids, requested)?;
    let id = ids.into_iter().find(|c| c.id == core).expect("core is in the list");
    let pinned = core_affinity::set_for_current(id);
    let allowed = allowed_cpus();
    let detail = match (&allowed, pinned) {
        (Some(list), true) => format!("Cpus_allowed_list: {list}"),
        (None, true) => "pinned; allowed-CPU list unreadable".to_string(),
        (_, false) => "the OS refused the affinity change".to_string(),
    };
    // Trust the kernel's list over the call's return value.
    let pinned = pinned && allowed.as_deref().is_none_or(|l| l == core.to_string());
    Ok(Pinning {
        requested,
        core: Some(core),
        pinned,
        detail,
        realtime: false,
        realtime_detail: "not requested".to_string(),
    })
}

/// The core to run on: `requested` if this process may run there, else an
/// error naming the cores it may use; by default the last of them (core 0
/// takes most interrupts). The cores are those of this process's affinity
/// mask, not all the machine's: under `taskset -c 1` or in a container
/// limited to some CPUs, only those.
pub fn choose_core(requested: Option<usize>) -> Result<usize, String> {
    match core_affinity::get_core_ids().filter(|v| !v.is_empty()) {
        Some(ids) => choose_among(&ids, requested),
        None => Err(match requested {
            Some(c) => format!("--core {c}: this OS does not report its cores, cannot pin"),
            None => "this OS does not report its cores, cannot pin".to_string(),
        }),
    }
}

fn choose_among(ids: &[core_affinity::CoreId], requested: Option<usize>) -> Result<usize, String> {
    let mut available: Vec<usize> = ids.iter().map(|c| c.id).collect();
    available.sort_unstable();
    match requested {
        Some(c) if !available.contains(&c) => {
            Err(format!("--core {c}: no such core (this process may run on cores {available:?})"))
        }
        Some(c) => Ok(c),
        None => Ok(*available.last().expect("non-empty")),
    }
}

/// `Cpus_allowed_list` of the calling thread (Linux).
fn allowed_cpus() -> Option<String> {
    let text = std::fs::read_to_string("/proc/thread-self/status").ok()?;
    text.lines().find_map(|l| l.strip_prefix("Cpus_allowed_list:")).map(|s| s.trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn realtime_is_reported_truthfully() {
        std::thread::spawn(|| {
            let (ok, detail) = go_realtime();
            // SAFETY: reads the calling thread's policy.
            #[cfg(target_os = "linux")]
            assert_eq!(ok, unsafe { libc::sched_getscheduler(0) } == libc::SCHED_FIFO, "{detail}");
            leave_realtime();
            #[cfg(target_os = "linux")]
            assert_eq!(unsafe { libc::sched_getscheduler(0) }, libc::SCHED_OTHER);
        })
        .join()
        .unwrap();
    }

    #[test]
    fn a_missing_core_is_an_error() {
        let e = pin(Some(100_000)).expect_err("no such core");
        assert!(e.contains("no such core"), "{e}");
    }

    #[test]
    fn default_pins_the_last_core_in_a_thread() {
        // In a thread of its own so the test harness's threads stay unpinned.
        let p = std::thread::spawn(|| pin(None).unwrap()).join().unwrap();
        if cfg!(target_os = "linux") {
            assert_eq!(p.core, Some(crate::measure::sysinfo::cpu_count() - 1));
            assert!(p.pinned, "{p:?}");
            assert_eq!(p.detail, format!("Cpus_allowed_list: {}", p.core.unwrap()));
        }
    }
}
