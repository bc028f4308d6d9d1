//! Write the admission benchmark's folder: 8 suite files of 1,200 scenarios × 8 steps each
//! (~0.96 MB, ~48k lines per file, just under the 1 MiB limit).
//!
//! `cargo run --release -p a3s-test-lang --example gen_bench_suites -- <DIR>`; used by
//! `bench/check-folder.sh`.

// This example writes files; the I/O bans in `lang/clippy.toml` are for the library only.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

#[path = "../benches/support/suite_gen.rs"]
mod suite_gen;

fn main() -> std::process::ExitCode {
    let Some(dir) = std::env::args_os().nth(1) else {
        eprintln!("usage: gen_bench_suites <DIR>");
        return std::process::ExitCode::from(2);
    };
    let dir = std::path::PathBuf::from(dir);
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("error: cannot create {}: {e}", dir.display());
        return std::process::ExitCode::from(2);
    }
    for i in 1..=suite_gen::BENCH_FILES {
        let text = suite_gen::suite(&format!("bench-{i}"), suite_gen::BENCH_SCENARIOS);
        let path = dir.join(format!("bench-{i}.acl"));
        if let Err(e) = std::fs::write(&path, &text) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return std::process::ExitCode::from(2);
        }
        println!(
            "{} {} bytes {} lines",
            path.display(),
            text.len(),
            text.lines().count()
        );
    }
    std::process::ExitCode::SUCCESS
}
