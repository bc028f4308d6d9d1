//! End-to-end tests of `a3s-test fmt`: rewriting, `--check`, syntax errors, atomic replacement.

mod common;
#[path = "../lang/benches/support/suite_gen.rs"]
mod suite_gen;

use a3s_test_lang::printer::format_source;
use common::{run_in, workdir};
use std::fs;
use std::path::{Path, PathBuf};

const MESSY: &str = "# keep me\nsuite \"x\" {\nscenario \"a\" {\n      surface   =   \"web\"\nnavigate \"o\" {   url = \"/\"   }   // trailing\n}\n}\n";
const BROKEN: &str =
    "suite \"x\" {\n  scenario \"a\" {\n    navigate \"o\" { url \"/\" }\n  }\n}\n";

/// A temporary folder holding `name` with `text`, and that file's path.
fn one_file(name: &str, text: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = workdir(&[(name, text)]);
    let file = dir.path().join(name);
    (dir, file)
}

/// [`one_file`] with its permission bits set to `mode`.
#[cfg(unix)]
fn one_file_with_mode(name: &str, text: &str, mode: u32) -> (tempfile::TempDir, PathBuf) {
    use std::os::unix::fs::PermissionsExt;
    let (dir, file) = one_file(name, text);
    fs::set_permissions(&file, fs::Permissions::from_mode(mode)).unwrap();
    (dir, file)
}

/// The permission bits of `file`.
#[cfg(unix)]
fn mode_of(file: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    fs::metadata(file).unwrap().permissions().mode() & 0o777
}

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn rewrites_to_the_canonical_layout_and_is_idempotent() {
    let (dir, file) = one_file("s.acl", MESSY);
    let expected = format_source(MESSY).expect("MESSY parses");
    assert_ne!(expected, MESSY, "the fixture must need formatting");

    let first = run_in(dir.path(), &["fmt", "s.acl"]);
    assert_eq!(first.code, Some(0), "{first:?}");
    assert_eq!(first.stdout, "reformatted s.acl\n");
    assert_eq!(fs::read_to_string(&file).unwrap(), expected);
    assert!(
        expected.contains("# keep me") && expected.contains("// trailing"),
        "comments survive: {expected}"
    );
    assert_eq!(
        names(dir.path()),
        ["s.acl"],
        "no temporary file is left behind"
    );

    let second = run_in(dir.path(), &["fmt", "s.acl"]);
    assert_eq!(second.code, Some(0), "{second:?}");
    assert_eq!(second.stdout, "");
    assert_eq!(second.stderr, "1 file: 0 reformatted, 1 unchanged\n");
}

#[test]
fn check_mode_lists_changes_exits_one_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("s")).unwrap();
    fs::write(dir.path().join("s/messy.acl"), MESSY).unwrap();
    let canonical = format_source(MESSY).unwrap();
    fs::write(dir.path().join("s/tidy.acl"), &canonical).unwrap();
    let before = fs::metadata(dir.path().join("s/messy.acl"))
        .unwrap()
        .modified()
        .unwrap();

    let run = run_in(dir.path(), &["fmt", "--check", "s"]);
    assert_eq!(run.code, Some(1), "{run:?}");
    assert_eq!(run.stdout, "would reformat s/messy.acl\n");
    assert_eq!(run.stderr, "2 files: 1 would be reformatted, 1 unchanged\n");
    assert_eq!(
        fs::read_to_string(dir.path().join("s/messy.acl")).unwrap(),
        MESSY
    );
    assert_eq!(
        fs::metadata(dir.path().join("s/messy.acl"))
            .unwrap()
            .modified()
            .unwrap(),
        before
    );

    let tidy = run_in(dir.path(), &["fmt", "--check", "s/tidy.acl"]);
    assert_eq!(tidy.code, Some(0), "{tidy:?}");
}

#[test]
fn files_with_syntax_errors_are_left_untouched_and_reported() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("broken.acl"), BROKEN).unwrap();
    fs::write(dir.path().join("messy.acl"), MESSY).unwrap();
    let run = run_in(dir.path(), &["fmt", "."]);
    assert_eq!(run.code, Some(2), "{run:?}");
    assert_eq!(
        fs::read_to_string(dir.path().join("broken.acl")).unwrap(),
        BROKEN
    );
    assert!(
        run.stdout.contains("error[test.spec.syntax]"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("./broken.acl:3:"), "{}", run.stdout);
    // The other file is still formatted.
    assert!(
        run.stdout.contains("reformatted ./messy.acl"),
        "{}",
        run.stdout
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("messy.acl")).unwrap(),
        format_source(MESSY).unwrap()
    );
    assert!(
        run.stderr
            .starts_with("2 files: 1 reformatted, 0 unchanged, 1 not formatted"),
        "{}",
        run.stderr
    );

    let json = run_in(
        dir.path(),
        &["fmt", "--check", "--format", "json", "broken.acl"],
    );
    assert_eq!(json.code, Some(2), "errors win over --check's 1");
    let record: serde_json::Value =
        serde_json::from_str(json.stdout.lines().next().unwrap()).unwrap();
    assert_eq!(record["code"], "test.spec.syntax");
}

#[test]
fn bad_inputs_exit_two_and_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("latin1.acl"), b"suite \"caf\xe9\" {}\n").unwrap();
    fs::create_dir(dir.path().join("empty")).unwrap();
    let run = run_in(dir.path(), &["fmt", "latin1.acl", "missing.acl", "empty"]);
    assert_eq!(run.code, Some(2), "{run:?}");
    for code in ["not_utf8", "unreadable", "no_suite_files"] {
        assert!(
            run.stdout.contains(&format!("error[test.spec.{code}]")),
            "{code}: {}",
            run.stdout
        );
    }
    assert_eq!(
        fs::read(dir.path().join("latin1.acl")).unwrap(),
        b"suite \"caf\xe9\" {}\n"
    );
}

/// A read-only file is refused with `test.spec.unwritable` and left byte-identical. The atomic
/// rename needs only a writable directory (and root ignores mode bits), so the refusal rests on
/// the file's mode, which makes this test meaningful whoever runs it.
#[cfg(unix)]
#[test]
fn a_read_only_file_is_unwritable_and_left_unchanged() {
    let (dir, file) = one_file_with_mode("ro.acl", MESSY, 0o444);
    let run = run_in(dir.path(), &["fmt", "ro.acl"]);
    assert_eq!(run.code, Some(2), "{run:?}");
    assert!(
        run.stdout.contains("error[test.spec.unwritable]") && run.stdout.contains("read-only"),
        "{}",
        run.stdout
    );
    assert_eq!(fs::read_to_string(&file).unwrap(), MESSY);
    assert_eq!(mode_of(&file), 0o444);
    assert_eq!(names(dir.path()), ["ro.acl"], "no temporary file is left");
    // `--check` only reads, so a read-only file is fine there.
    let check = run_in(dir.path(), &["fmt", "--check", "ro.acl"]);
    assert_eq!(check.code, Some(1), "{check:?}");
}

#[cfg(unix)]
#[test]
fn rewriting_keeps_the_file_mode() {
    let (dir, file) = one_file_with_mode("s.acl", MESSY, 0o600);
    assert_eq!(run_in(dir.path(), &["fmt", "s.acl"]).code, Some(0));
    assert_eq!(mode_of(&file), 0o600);
}

/// Ctrl+C during `fmt`: no new rewrite starts, those in flight finish, nothing is half-written and
/// no temporary file is left; exit 130. The signal is sent as soon as the first rewrite is under
/// way (its temporary file appears), with 40 files of ~1 MB still to go, so it lands mid-run.
#[cfg(unix)]
#[test]
fn ctrl_c_leaves_every_file_whole_and_no_temporary_file() {
    use std::process::{Command, Stdio};
    use std::time::Duration;
    use wait_timeout::ChildExt;

    let dir = tempfile::tempdir().unwrap();
    let canonical = suite_gen::suite("big", 1200);
    let messy = canonical.replace("\n    ", "\n  ");
    assert_ne!(messy, canonical);
    let count = 40;
    for i in 0..count {
        fs::write(dir.path().join(format!("s{i:02}.acl")), &messy).unwrap();
    }
    let mut child = common::spawn_grouped(
        Command::new(env!("CARGO_BIN_EXE_a3s-test"))
            .args(["fmt", "."])
            .current_dir(dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null()),
    );
    // Wait (with a deadline) for the first rewrite to start, then interrupt.
    // Looked at every millisecond: a rewrite is short.
    let writing = common::wait_until_every(Duration::from_millis(1), common::DEADLINE, || {
        let writing = names(dir.path()).iter().any(|n| n.starts_with(".a3s-fmt-"));
        assert!(
            writing || child.try_wait().unwrap().is_none(),
            "fmt finished before it could be interrupted"
        );
        writing
    });
    assert!(writing, "no rewrite started");
    // SAFETY: signals the child this test spawned.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let status = match child.wait_timeout(common::DEADLINE).unwrap() {
        Some(status) => status,
        None => {
            let _ = child.kill();
            panic!("fmt did not stop after Ctrl+C");
        }
    };
    assert_eq!(status.code(), Some(130), "{status:?}");
    let files = names(dir.path());
    assert_eq!(files.len(), count, "no temporary file is left: {files:?}");
    let formatted = format_source(&messy).unwrap();
    let mut rewritten = 0;
    for name in files {
        let text = fs::read_to_string(dir.path().join(&name)).unwrap();
        if text == formatted {
            rewritten += 1;
        } else {
            assert_eq!(text, messy, "{name} is neither the old nor the new text");
        }
    }
    assert!(rewritten < count, "the interrupt stopped the run early");
}

/// The committed dogfood suites and the project configuration are in the canonical layout
/// (`a3s-test fmt --check` passes on them), so `fmt` on the repository is a no-op.
#[test]
fn the_committed_suites_are_canonical() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let run = run_in(root, &["fmt", "--check", "suites", ".a3s-test/project.acl"]);
    assert_eq!(
        run.code,
        Some(0),
        "run `a3s-test fmt suites .a3s-test/project.acl`:\n{}{}",
        run.stdout,
        run.stderr
    );
}
