//! A check dies with its owner: `kill -9` of the process running it (which no handler can catch)
//! leaves nothing of the check running — its main process gets the parent-death signal and its
//! group's watchdog stops the rest, a background grandchild included.

mod repair {
    use a3s_test_driver::process::{self, ProcessInfo, Signal};
    use std::path::Path;
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    /// Wait up to `within` for `done`, looking again every few milliseconds.
    fn wait_for(within: Duration, mut done: impl FnMut() -> bool) -> bool {
        let deadline = Instant::now() + within;
        while !done() {
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        true
    }

    fn pid_in(file: &Path) -> Option<i32> {
        std::fs::read_to_string(file).ok()?.trim().parse().ok()
    }

    /// Gone: no such process, or a zombie its new parent has yet to reap.
    fn gone(pid: i32) -> bool {
        ProcessInfo::read(pid).is_none_or(|p| p.is_zombie())
    }

    #[test]
    fn a_running_check_dies_with_its_owner_even_on_sigkill() {
        let root = tempfile::tempdir().unwrap();
        let session = tempfile::tempdir().unwrap();
        let mut owner = Command::new(env!("CARGO_BIN_EXE_a3s-test-check-owner"))
            .arg(root.path())
            .arg(session.path())
            .stdin(Stdio::null())
            .spawn()
            .unwrap();
        let (main_file, child_file) = (root.path().join("main.pid"), root.path().join("child.pid"));
        let started = wait_for(Duration::from_secs(30), || {
            main_file.exists() && child_file.exists()
        });
        if !started {
            process::signal(owner.id() as i32, Signal::KILL);
            let _ = owner.wait();
            panic!("the check did not start within 30 s");
        }
        let main = pid_in(&main_file).unwrap();
        let child = pid_in(&child_file).unwrap();
        assert!(
            !gone(main) && !gone(child),
            "both run while their owner lives"
        );
        process::signal(owner.id() as i32, Signal::KILL);
        owner.wait().unwrap();
        assert!(
            wait_for(Duration::from_secs(10), || gone(main) && gone(child)),
            "the check's main process {main} and grandchild {child} must die with their owner"
        );
    }
}
