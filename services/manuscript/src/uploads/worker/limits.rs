//! The OS limits an extraction worker runs under, and what a worker the kernel stopped
//! ran out of. The limits are set on the running worker by its pid (`prlimit`: no code
//! runs between fork and exec, the crate forbids unsafe code) before it is handed the
//! upload; until then it only waits on its stdin.

use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;

use rlimit::Resource;

use crate::config::ManuscriptConfig;

// Linux's signal numbers (the same on x86-64 and arm64).
const SIGABRT: i32 = 6;
const SIGKILL: i32 = 9;
const SIGXCPU: i32 = 24;

/// The limits of one worker.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Its private writable memory (RLIMIT_DATA: the heap, mimalloc's committed pages,
    /// thread stacks). Not the address space (RLIMIT_AS): mimalloc reserves a 1 GiB arena
    /// at start, before the limit is set, and commits pages inside it without a new
    /// mapping, which RLIMIT_AS never sees. RLIMIT_DATA counts each commit (mimalloc
    /// commits with `mprotect`), provided the arena was not committed at start
    /// (`MIMALLOC_ARENA_EAGER_COMMIT=0`, which `parent` gives every worker). mimalloc's
    /// decommit keeps pages writable, so this bounds the worker's peak.
    pub memory_bytes: u64,
    /// Its CPU time: SIGXCPU at this many seconds, SIGKILL a second later.
    pub cpu_secs: u64,
}

impl Limits {
    pub fn of(config: &ManuscriptConfig) -> Self {
        Self {
            memory_bytes: config.extract_memory_bytes(),
            cpu_secs: config.manuscript_extract_cpu_secs,
        }
    }

    /// Sets the limits on process `pid` (a child of this process, of the same user), and
    /// no core file when a limit kills it.
    pub fn apply(&self, pid: u32) -> std::io::Result<()> {
        let pid = i32::try_from(pid).map_err(std::io::Error::other)?;
        let memory = self.memory_bytes;
        rlimit::prlimit(pid, Resource::DATA, Some((memory, memory)), None)?;
        let cpu = self.cpu_secs;
        rlimit::prlimit(pid, Resource::CPU, Some((cpu, cpu.saturating_add(1))), None)?;
        rlimit::prlimit(pid, Resource::CORE, Some((0, 0)), None)
    }
}

/// What a worker that died by a signal ran out of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exhausted {
    Memory,
    Time,
}

/// Which limit stopped a worker that exited with `status`; `None` when none did (it
/// exited by itself, or died of something else).
pub fn exhausted(status: ExitStatus) -> Option<Exhausted> {
    match status.signal()? {
        // Past the CPU limit (SIGKILL at the hard one comes only after an ignored SIGXCPU).
        SIGXCPU => Some(Exhausted::Time),
        // An allocation the address space refused aborts the process; so does a stack
        // overflow. SIGKILL that this process did not send is the kernel's OOM killer.
        SIGABRT | SIGKILL => Some(Exhausted::Memory),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_signal_tells_which_limit_stopped_a_worker() {
        let died = |signal: i32| ExitStatus::from_raw(signal);
        assert_eq!(exhausted(died(SIGXCPU)), Some(Exhausted::Time));
        assert_eq!(exhausted(died(SIGABRT)), Some(Exhausted::Memory));
        assert_eq!(exhausted(died(SIGKILL)), Some(Exhausted::Memory));
        assert_eq!(exhausted(died(15)), None, "SIGTERM is no limit");
        assert_eq!(
            exhausted(ExitStatus::from_raw(2 << 8)),
            None,
            "an exit code"
        );
    }
}
