//! Address-space layout randomisation: off, or on again for a child.
//!
//! With randomisation on, every process places its stack, heap and shared
//! libraries at new addresses, so the same loop meets different cache-set
//! and 4 KiB-aliasing conflicts from one process to the next: a
//! per-process bias of a few percent on routines of a few dozen cycles,
//! which no amount of sampling inside the process averages away.
//!
//! Two ways to live with it. A single process that must be repeatable
//! (`boardbench nps` and its engines) runs with it off:
//! [`reexec_without_randomisation`] (Linux `personality(ADDR_NO_RANDOMIZE)`,
//! which needs no privilege and is inherited by children) re-executes the
//! program once so the fixed layout applies; `BOARDBENCH_ASLR=on` keeps
//! randomisation. The suite instead measures every benchmark in several
//! processes, each with randomisation switched back on
//! ([`randomise_child`]) and a random placement of its own
//! ([`crate::measure::placement`]), so the layout's effect shows up as
//! spread between processes and lands in the interval instead of in a
//! bias nobody sees.

use serde::{Deserialize, Serialize};

/// Set in the re-executed process, so a failed switch cannot loop.
const REEXEC_GUARD: &str = "BOARDBENCH_ASLR_REEXEC";
/// `on` keeps randomisation for this process and its children.
pub const OPT_OUT: &str = "BOARDBENCH_ASLR";

/// Whether addresses are randomised in this process.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Aslr {
    On,
    Off,
    /// Not Linux, or the kernel would not say.
    #[default]
    Unknown,
}

impl Aslr {
    /// The name the JSON and the summary line use.
    pub fn name(self) -> &'static str {
        match self {
            Aslr::On => "on",
            Aslr::Off => "off",
            Aslr::Unknown => "unknown",
        }
    }
}

/// This process's persona flags, `None` where the kernel would not say.
#[cfg(target_os = "linux")]
fn persona() -> Option<libc::c_int> {
    // SAFETY: 0xffffffff only queries the persona; nothing changes.
    let p = unsafe { libc::personality(0xffff_ffff) };
    (p != -1).then_some(p)
}

/// This process's state.
pub fn state() -> Aslr {
    #[cfg(target_os = "linux")]
    {
        let Some(persona) = persona() else {
            return Aslr::Unknown;
        };
        // Off for this process, or for the whole system.
        let system_off =
            || std::fs::read_to_string("/proc/sys/kernel/randomize_va_space").is_ok_and(|s| s.trim() == "0");
        if persona & libc::ADDR_NO_RANDOMIZE != 0 || system_off() {
            Aslr::Off
        } else {
            Aslr::On
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        Aslr::Unknown
    }
}

/// If this process runs with randomised addresses, switch randomisation off
/// and execute the same program with the same arguments again; returns
/// (leaving everything as it was) when randomisation is already off, when
/// `BOARDBENCH_ASLR=on`, after a re-execution, or when the switch or the
/// exec fails: measuring with randomisation is worse, not wrong.
pub fn reexec_without_randomisation() {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        if std::env::var_os(REEXEC_GUARD).is_some()
            || std::env::var(OPT_OUT).is_ok_and(|v| v.eq_ignore_ascii_case("on"))
            || state() != Aslr::On
        {
            return;
        }
        let Some(persona) = persona() else {
            return;
        };
        // SAFETY: sets this process's persona flags, keeping the others.
        if unsafe { libc::personality((persona | libc::ADDR_NO_RANDOMIZE) as libc::c_ulong) } == -1 {
            return;
        }
        let mut args = std::env::args_os();
        let arg0 = args.next().unwrap_or_default();
        // `exec` only returns on failure; then carry on as we are.
        let _ = std::process::Command::new("/proc/self/exe").arg0(arg0).args(args).env(REEXEC_GUARD, "1").exec();
    }
}

/// Start the child `cmd` runs with address-space randomisation on (where
/// the system allows it), whatever this process's state: the persona flag
/// is cleared between fork and exec, and [`OPT_OUT`] is set so the child
/// does not switch it off again.
pub fn randomise_child(cmd: &mut std::process::Command) -> &mut std::process::Command {
    cmd.env(OPT_OUT, "on");
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: between fork and exec the closure makes two personality()
        // system calls on the child itself; it allocates nothing and takes
        // no lock.
        unsafe {
            cmd.pre_exec(|| {
                let p = libc::personality(0xffff_ffff);
                if p != -1 && p & libc::ADDR_NO_RANDOMIZE != 0 {
                    libc::personality((p & !libc::ADDR_NO_RANDOMIZE) as libc::c_ulong);
                }
                Ok(())
            })
        };
    }
    cmd
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_is_known_on_linux_and_serialises_lowercase() {
        if cfg!(target_os = "linux") {
            assert_ne!(state(), Aslr::Unknown);
        }
        assert_eq!(serde_json::to_string(&Aslr::Off).unwrap(), "\"off\"");
        assert_eq!(serde_json::from_str::<Aslr>("\"on\"").unwrap(), Aslr::On);
        for a in [Aslr::On, Aslr::Off, Aslr::Unknown] {
            assert_eq!(serde_json::to_string(&a).unwrap(), format!("\"{}\"", a.name()));
        }
    }
}
