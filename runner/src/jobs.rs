//! How many scenarios this machine can run at once (`--jobs`).
//!
//! Each job is a browser context with its own renderer: past a few per core they only queue for
//! the CPU, and past the memory they make the kernel swap or kill the browser. Asked for far more
//! (`--jobs 1000` on two cores), contexts then miss their own command bounds and the run reports
//! load as failures. So the number of jobs is capped at [`PER_CORE`] per core and one per
//! [`MIB_PER_CONTEXT`] of available memory, whichever is smaller (at least 1); a request above
//! the cap runs at the cap and says so.

/// Jobs per CPU core at most.
pub const PER_CORE: usize = 8;

/// Memory one job's context is given, MiB (a renderer of a typical app page with its share of
/// the browser; a 100-context run measured about 25 MiB each, so this leaves room for heavy pages).
pub const MIB_PER_CONTEXT: u64 = 128;

/// The cap and what it was derived from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JobsCap {
    /// The most jobs this machine runs at once.
    pub cap: usize,
    /// CPU cores available to this process.
    pub cores: usize,
    /// Available memory, MiB (`None` when it could not be read: then only cores count).
    pub available_mib: Option<u64>,
}

impl JobsCap {
    /// The cap for `cores` cores and `available_mib` MiB of available memory.
    pub fn from_machine(cores: usize, available_mib: Option<u64>) -> JobsCap {
        let by_cores = cores.max(1).saturating_mul(PER_CORE);
        let by_memory = available_mib.map_or(usize::MAX, |m| (m / MIB_PER_CONTEXT) as usize);
        JobsCap {
            cap: by_cores.min(by_memory).max(1),
            cores,
            available_mib,
        }
    }

    /// This machine's cap: its available cores and `MemAvailable` from `/proc/meminfo`.
    pub fn of_this_machine() -> JobsCap {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let available = std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|text| available_mib(&text));
        JobsCap::from_machine(cores, available)
    }

    /// The jobs to run for a request of `asked`, and the line that says so when it is capped.
    pub fn apply(&self, asked: usize) -> (usize, Option<String>) {
        if asked <= self.cap {
            return (asked, None);
        }
        let memory = match self.available_mib {
            Some(m) => format!(", {m} MiB available / {MIB_PER_CONTEXT} MiB per context"),
            None => String::new(),
        };
        let line = format!(
            "--jobs {asked} is more than this machine runs at once; running {} ({} cores × \
             {PER_CORE}{memory})",
            self.cap, self.cores
        );
        (self.cap, Some(line))
    }
}

/// `MemAvailable` of a `/proc/meminfo` text, in MiB.
fn available_mib(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_is_the_smaller_of_cores_and_memory_and_at_least_one() {
        assert_eq!(JobsCap::from_machine(2, Some(24 * 1024)).cap, 16);
        assert_eq!(JobsCap::from_machine(64, Some(2048)).cap, 16);
        assert_eq!(JobsCap::from_machine(2, None).cap, 16);
        assert_eq!(JobsCap::from_machine(0, Some(10)).cap, 1);
        let cap = JobsCap::from_machine(2, Some(24 * 1024));
        assert_eq!(cap.apply(4), (4, None));
        let (jobs, line) = cap.apply(1000);
        assert_eq!(jobs, 16);
        let line = line.unwrap();
        assert!(line.starts_with("--jobs 1000 is more than"), "{line}");
        assert!(
            line.contains("running 16 (2 cores × 8, 24576 MiB available"),
            "{line}"
        );
    }

    #[test]
    fn available_memory_is_read_from_meminfo() {
        let text = "MemTotal:       24576000 kB\nMemFree:  100 kB\nMemAvailable:   20480000 kB\n";
        assert_eq!(available_mib(text), Some(20000));
        assert_eq!(available_mib("MemTotal: 1 kB\n"), None);
    }
}
