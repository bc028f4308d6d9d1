//! End-to-end tests of `a3s-test check`: the real binary on real files in temporary folders.

mod common;

use common::{fixtures, run_in, run_with_env, workdir, write};
use std::fs;
use std::path::Path;

const VALID: &str = "suite \"ok\" {\n    scenario \"a\" {\n        surface = \"web\"\n        navigate \"open\" { url = \"http://127.0.0.1/\" }\n    }\n    scenario \"b\" {\n        surface = \"web\"\n        navigate \"open\" { url = \"http://127.0.0.1/\" }\n    }\n}\n";
const INVALID: &str = "suite \"bad\" {\n    scenario \"a\" {\n        surface = \"desktop\"\n        navigate \"open\" { url = \"/\" }\n    }\n}\n";

#[test]
fn valid_folder_exits_zero_with_summary() {
    let dir = workdir(&[("suites/a.acl", VALID), ("suites/nested/b.acl", VALID)]);
    let run = run_in(dir.path(), &["check", "suites"]);
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(run.stdout, "");
    assert_eq!(run.stderr, "2 files, 4 scenarios, 0 errors\n");
}

#[test]
fn the_fixture_suites_all_admit() {
    let run = run_in(
        Path::new(env!("CARGO_MANIFEST_DIR")),
        &["check", fixtures("valid").to_str().unwrap()],
    );
    assert_eq!(run.code, Some(0), "{run:?}");
}

#[test]
fn invalid_file_reports_code_caret_hint_and_exits_two() {
    let dir = workdir(&[("suites/a.acl", VALID), ("suites/bad.acl", INVALID)]);
    let run = run_in(dir.path(), &["check", "suites/"]);
    assert_eq!(run.code, Some(2), "{run:?}");
    assert!(!run.stdout.contains('\u{1b}'), "no colour on a pipe");
    assert_eq!(run.stderr, "2 files, 2 scenarios, 1 error\n");
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn json_format_is_one_object_per_line() {
    let dir = workdir(&[
        ("bad.acl", INVALID),
        ("cafe.acl", "suite \"café\" {\n    x = 1\n}\n"),
    ]);
    let run = run_in(dir.path(), &["check", "--format", "json", "."]);
    assert_eq!(run.code, Some(2), "{run:?}");
    let records: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    assert!(records.len() >= 2, "{}", run.stdout);
    for r in &records {
        for key in [
            "code",
            "severity",
            "path",
            "file",
            "line",
            "column",
            "end_line",
            "end_column",
            "byte",
            "message",
            "hint",
        ] {
            assert!(r.get(key).is_some(), "missing {key} in {r}");
        }
    }
    let first = &records[0];
    assert_eq!(first["file"], "./bad.acl");
    assert_eq!(first["code"], "test.spec.invalid_value");
    assert_eq!(
        (first["line"].as_u64(), first["column"].as_u64()),
        (Some(3), Some(19))
    );
    assert_eq!(
        first["byte"]["end"].as_u64().unwrap() - first["byte"]["start"].as_u64().unwrap(),
        "\"desktop\"".len() as u64
    );
}

#[test]
fn github_format_annotates() {
    let dir = workdir(&[("bad.acl", INVALID)]);
    let run = run_in(dir.path(), &["check", "--format", "github", "bad.acl"]);
    assert_eq!(run.code, Some(2), "{run:?}");
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn json_flag_prints_the_admitted_ir_and_moves_diagnostics_to_stderr() {
    let dir = workdir(&[("a.acl", VALID), ("b.acl", INVALID)]);
    let run = run_in(dir.path(), &["check", "--json", "a.acl", "b.acl"]);
    assert_eq!(run.code, Some(2), "{run:?}");
    let ir: serde_json::Value =
        serde_json::from_str(&run.stdout).expect("stdout is one JSON document");
    assert_eq!(ir["protocol"], "a3s.test.admitted-ir/1");
    let files = ir["files"].as_array().unwrap();
    assert_eq!(files.len(), 2);
    assert_eq!(files[0]["file"], "a.acl");
    assert_eq!(files[0]["document"]["root"], "suite");
    assert_eq!(
        files[0]["document"]["scenarios"].as_array().unwrap().len(),
        2
    );
    assert_eq!(files[1]["file"], "b.acl");
    assert!(files[1]["document"].is_null());
    assert!(
        run.stderr.contains("error[test.spec.invalid_value]"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.ends_with("2 files, 2 scenarios, 1 error\n"),
        "{}",
        run.stderr
    );

    let ok = run_in(dir.path(), &["check", "--json", "a.acl"]);
    assert_eq!(ok.code, Some(0), "{ok:?}");
    let ir: serde_json::Value = serde_json::from_str(&ok.stdout).unwrap();
    assert_eq!(ir["files"][0]["document"]["id"], "ok");
}

#[test]
fn bad_inputs_are_diagnostics_not_panics() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    fs::create_dir(root.join("no-suites")).unwrap();
    write(root, "no-suites/readme.txt", "not a suite");
    write(root, "latin1.acl", b"suite \"caf\xe9\" {}\n");
    write(root, "empty.acl", "");
    write(root, "comments.acl", "# nothing but a comment\n");
    // Generated, never committed: one byte over the limit.
    write(
        root,
        "huge.acl",
        vec![b'#'; a3s_test_lang::MAX_FILE_BYTES + 1],
    );
    let cases = [
        ("missing.acl", "test.spec.unreadable"),
        ("no-suites", "test.spec.no_suite_files"),
        ("latin1.acl", "test.spec.not_utf8"),
        ("huge.acl", "test.spec.file_too_large"),
        ("empty.acl", "test.spec.empty_file"),
        ("comments.acl", "test.spec.empty_file"),
    ];
    for (path, code) in cases {
        let run = run_in(root, &["check", path]);
        assert_eq!(run.code, Some(2), "{path}: {run:?}");
        assert!(
            run.stdout.contains(&format!("error[{code}]")),
            "{path}: {}",
            run.stdout
        );
        assert!(
            run.stdout.contains(path),
            "{path}: the path is shown: {}",
            run.stdout
        );
        assert!(!run.stderr.contains("panicked"), "{path}: {}", run.stderr);
    }
    let all = run_in(
        root,
        &[
            "check",
            "--format",
            "json",
            "missing.acl",
            "no-suites",
            "latin1.acl",
            "huge.acl",
            "empty.acl",
        ],
    );
    assert_eq!(all.code, Some(2));
    assert_eq!(all.stdout.lines().count(), 5, "{}", all.stdout);
    assert!(
        all.stdout.contains("1048577 bytes"),
        "the real size is reported: {}",
        all.stdout
    );
    assert_eq!(all.stderr, "4 files, 0 scenarios, 5 errors\n");
}

/// A FIFO named `*.acl` (found by the walk or named explicitly) is refused as not a regular file;
/// opening it for reading must not wait for a writer that never comes. The deadline in
/// `common::run_in` is the "no hang" bound. A device such as `/dev/zero` is refused the same way
/// instead of being read up to the size limit. Both exercise `test.spec.unreadable` even as root,
/// where permission bits do not stop a read.
#[cfg(unix)]
#[test]
fn fifos_and_devices_are_unreadable_not_waited_on() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "s/ok.acl", VALID);
    let fifo = std::ffi::CString::new(root.join("s/pipe.acl").to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path; mkfifo only creates a file-system entry.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0, "mkfifo");
    for args in [
        &["check", "s"][..],
        &["check", "s/pipe.acl"],
        &["fmt", "s"],
        &["check", "/dev/zero"],
    ] {
        let run = run_in(root, args);
        assert_eq!(run.code, Some(2), "{args:?}: {run:?}");
        assert!(
            run.stdout.contains("error[test.spec.unreadable]")
                && run.stdout.contains("not a regular file"),
            "{args:?}: {}",
            run.stdout
        );
    }
}

#[test]
fn discovery_is_sorted_skips_build_and_hidden_folders_but_reads_explicit_paths() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for rel in ["s/b.acl", "s/a/z.acl", "s/a-b.acl"] {
        write(root, rel, INVALID);
    }
    for rel in [
        "s/target/x.acl",
        "s/node_modules/m/x.acl",
        "s/.hidden/x.acl",
        "s/.#lock.acl",
    ] {
        write(root, rel, "not even ACL {");
    }
    let run = run_in(root, &["check", "--format", "json", "s"]);
    let files: Vec<String> = run
        .stdout
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["file"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(
        run.stdout.lines().count(),
        3,
        "one diagnostic per file: {}",
        run.stdout
    );
    assert_eq!(files, ["s/a/z.acl", "s/a-b.acl", "s/b.acl"]);

    write(root, "s/.hidden/ok.acl", VALID);
    let explicit = run_in(root, &["check", "s/.hidden/ok.acl", "s/.hidden/ok.acl"]);
    assert_eq!(explicit.code, Some(0), "{explicit:?}");
    assert_eq!(explicit.stderr, "1 file, 2 scenarios, 0 errors\n");
}

#[test]
fn no_color_and_pipes_give_plain_text() {
    let dir = workdir(&[("bad.acl", INVALID)]);
    let run = run_with_env(dir.path(), &["check", "bad.acl"], &[("NO_COLOR", "1")]);
    assert_eq!(run.code, Some(2));
    assert!(!run.stdout.contains('\u{1b}') && !run.stderr.contains('\u{1b}'));
}

/// `script` (util-linux/bsdutils, present on every Debian system) gives the binary a real
/// terminal, so the colour decision is tested end to end.
#[cfg(unix)]
#[test]
fn a_terminal_gets_colour_unless_no_color_is_set() {
    let dir = workdir(&[("bad.acl", INVALID)]);
    let command = format!("'{}' check bad.acl", env!("CARGO_BIN_EXE_a3s-test"));
    let tty = common::run_program("script", dir.path(), &["-qec", &command, "/dev/null"], &[]);
    assert_eq!(tty.code, Some(2), "{tty:?}");
    assert!(
        tty.stdout.contains("\u{1b}["),
        "colour on a terminal: {:?}",
        tty.stdout
    );
    assert!(tty.stdout.contains("test.spec.invalid_value"));
    let plain = common::run_program(
        "script",
        dir.path(),
        &["-qec", &command, "/dev/null"],
        &[("NO_COLOR", "1")],
    );
    assert_eq!(plain.code, Some(2), "{plain:?}");
    assert!(
        !plain.stdout.contains("\u{1b}["),
        "NO_COLOR wins: {:?}",
        plain.stdout
    );
    assert!(plain.stdout.contains("error[test.spec.invalid_value]"));
}

#[test]
fn many_files_are_reported_in_path_order_whatever_the_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..40 {
        write(
            dir.path(),
            &format!("s/f{i:02}.acl"),
            if i % 3 == 0 { INVALID } else { VALID },
        );
    }
    let one = run_with_env(
        dir.path(),
        &["check", "--format", "json", "s"],
        &[("RAYON_NUM_THREADS", "1")],
    );
    let two = run_with_env(
        dir.path(),
        &["check", "--format", "json", "s"],
        &[("RAYON_NUM_THREADS", "2")],
    );
    assert_eq!(one.stdout, two.stdout);
    assert_eq!(one.stderr, "40 files, 52 scenarios, 14 errors\n");
    assert_eq!(one.stdout.lines().count(), 14);
}

#[test]
fn usage_errors_exit_two() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(run_in(dir.path(), &["check"]).code, Some(2));
    assert_eq!(
        run_in(dir.path(), &["check", "--format", "xml", "a.acl"]).code,
        Some(2)
    );
}

#[test]
fn one_long_bad_line_gives_a_bounded_capped_report_in_every_format() {
    // Issue 16 case 6: a 24 KB line of 4,000 `\u{41}` escapes outside a string used to print
    // 580 MB (every diagnostic quoted the whole line, and there was no cap).
    let dir = tempfile::tempdir().unwrap();
    let line = "\\u{41}".repeat(4000);
    write(
        dir.path(),
        "hostile.acl",
        format!("suite \"h\" {{\n{line}\n}}\n"),
    );
    for format in ["human", "json", "github"] {
        let run = common::run_in(dir.path(), &["check", "--format", format, "hostile.acl"]);
        assert_eq!(run.code, Some(2), "{format}: {}", run.stderr);
        // 101 diagnostics of at most a few hundred bytes each; never the 24 KB line.
        assert!(
            run.stdout.len() < 101 * 2048,
            "{format}: {} bytes",
            run.stdout.len()
        );
        assert!(
            !run.stdout.contains(&line[..2000]),
            "{format} quotes the line"
        );
        assert!(
            run.stdout.contains("test.spec.too_many_diagnostics"),
            "{format}: {}",
            &run.stdout[run.stdout.len().saturating_sub(500)..]
        );
        // The summary still counts every error found.
        let errors: usize = run
            .stderr
            .split(", ")
            .find_map(|part| part.trim().strip_suffix(" errors"))
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{format}: {}", run.stderr));
        assert!(errors > 3000, "{format}: {}", run.stderr);
    }
    let json = common::run_in(dir.path(), &["check", "--format", "json", "hostile.acl"]);
    let lines: Vec<serde_json::Value> = json
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 101);
    assert_eq!(lines[100]["code"], "test.spec.too_many_diagnostics");
    assert_eq!(lines[100]["line"], 2);
}

#[test]
fn a_folder_larger_than_a_chunk_is_reported_in_path_order_with_one_summary() {
    // More files than one admission chunk holds on any machine this runs on (4 per thread),
    // valid and invalid ones interleaved, plus a folder without suites among them.
    let names: Vec<String> = (0..40).map(|i| format!("suites/f{i:02}.acl")).collect();
    let files: Vec<(&str, &str)> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), if i % 3 == 0 { INVALID } else { VALID }))
        .collect();
    let dir = workdir(&files);
    fs::create_dir(dir.path().join("empty")).unwrap();
    let run = run_in(
        dir.path(),
        &["check", "suites", "empty", "--format", "json"],
    );
    assert_eq!(run.code, Some(2), "{run:?}");
    let reported: Vec<String> = run
        .stdout
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
        .map(|d| d["file"].as_str().unwrap().to_string())
        .collect();
    let mut sorted = reported.clone();
    sorted.sort();
    assert_eq!(reported, sorted, "reported in path order");
    assert_eq!(reported.len(), 14 + 1, "{reported:?}");
    assert_eq!(reported[0], "empty");
    assert_eq!(run.stderr, "40 files, 52 scenarios, 15 errors\n");
}
