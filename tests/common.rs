//! Helpers shared by the end-to-end tests: run the real binary with a deadline, fixture paths.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;
use wait_timeout::ChildExt;

/// Deadline for one run of the binary; admission of a few small files takes milliseconds.
pub const DEADLINE: Duration = Duration::from_secs(60);

/// The result of one run.
#[derive(Debug)]
pub struct Run {
    /// Exit code (`None` when killed by a signal).
    pub code: Option<i32>,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

/// Run `a3s-test` with `args` in `dir`, with `NO_COLOR` cleared and a deadline; the child is
/// killed (it is our own direct child) and the test fails if the deadline passes.
pub fn run_in(dir: &Path, args: &[&str]) -> Run {
    run_with_env(dir, args, &[])
}

/// Like [`run_in`] with extra environment variables.
pub fn run_with_env(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    run_program(env!("CARGO_BIN_EXE_a3s-test"), dir, args, env)
}

/// Run `program` with `args` in `dir` (the same deadline and pipes as [`run_in`]).
pub fn run_program(program: &str, dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    let mut command = Command::new(program);
    command
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // Its own process group, so a Ctrl+C in the terminal running the tests is ours to handle.
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    for (k, v) in env {
        command.env(k, v);
    }
    let mut child = command.spawn().expect("spawn a3s-test");
    // Read both pipes on threads so a large output cannot block the child while we wait.
    let mut out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut out, &mut s).map(|_| s)
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut err, &mut s).map(|_| s)
    });
    let status = match child.wait_timeout(DEADLINE).expect("wait for a3s-test") {
        Some(status) => status,
        None => {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{program} {args:?} did not finish within {DEADLINE:?}");
        }
    };
    Run {
        code: status.code(),
        stdout: out.join().expect("stdout thread").expect("stdout utf-8"),
        stderr: err.join().expect("stderr thread").expect("stderr utf-8"),
    }
}

/// `lang/tests/fixtures/<sub>`.
pub fn fixtures(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("lang/tests/fixtures")
        .join(sub)
}

/// Every `*.acl` file directly in `dir`, sorted.
pub fn acl_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "acl"))
        .collect();
    files.sort();
    files
}
