//! Confined access against real folders: links, FIFOs, hard links and escaping paths are refused
//! before anything outside the anchor is read, written, truncated or created.

use a3s_test_fsroot::{Access, ConfinedPath, Dir, EntryKind, FsError, PRIVATE};
use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

/// A project folder and a folder outside it holding a file without a final newline.
struct Fixture {
    project: tempfile::TempDir,
    outside: tempfile::TempDir,
}

const OUTSIDE_BYTES: &[u8] = b"{\"precious\":true}\nno final newline";

impl Fixture {
    fn new() -> Fixture {
        let f = Fixture {
            project: tempfile::tempdir().unwrap(),
            outside: tempfile::tempdir().unwrap(),
        };
        std::fs::write(f.outside_file(), OUTSIDE_BYTES).unwrap();
        f
    }

    fn root(&self) -> &Path {
        self.project.path()
    }

    fn outside_file(&self) -> std::path::PathBuf {
        self.outside.path().join("file")
    }

    fn anchor(&self) -> Dir {
        Dir::open_anchor(self.root()).unwrap()
    }

    /// The outside folder holds exactly its one file, unchanged.
    fn assert_outside_untouched(&self) {
        assert_eq!(std::fs::read(self.outside_file()).unwrap(), OUTSIDE_BYTES);
        let names: Vec<_> = std::fs::read_dir(self.outside.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["file"]);
    }
}

fn is_symlink_refusal(e: &FsError, link: &Path) -> bool {
    matches!(e, FsError::Symlink { path } if path == link) && e.is_refusal()
}

#[test]
fn a_symlinked_root_folder_is_refused_for_every_operation() {
    let f = Fixture::new();
    let link = f.root().join(".a3s-test");
    symlink(f.outside.path(), &link).unwrap();
    let root = f.anchor();
    let rel = ".a3s-test/file";
    let errors = [
        root.open_dir(".a3s-test").unwrap_err(),
        root.create_dir_all(".a3s-test/agent-sessions").unwrap_err(),
        root.open_file(rel, Access::Read, 0).unwrap_err(),
        root.open_file(rel, Access::Append, PRIVATE).unwrap_err(),
        root.open_file(rel, Access::Replace, PRIVATE).unwrap_err(),
        root.open_file(".a3s-test/new", Access::CreateNew, PRIVATE)
            .unwrap_err(),
        root.read(rel, 1024).unwrap_err(),
        root.write_atomic(rel, b"x", PRIVATE).unwrap_err(),
        root.remove_dir_all(".a3s-test").unwrap_err(),
        ConfinedPath::new(f.root(), rel).read(1024).unwrap_err(),
    ];
    for e in &errors {
        assert!(is_symlink_refusal(e, &link), "{e:?}");
        assert!(e.to_string().contains(&link.display().to_string()), "{e}");
    }
    f.assert_outside_untouched();
}

#[test]
fn a_symlinked_folder_deeper_down_is_refused() {
    let f = Fixture::new();
    std::fs::create_dir_all(f.root().join(".a3s-test/agent-sessions")).unwrap();
    let link = f.root().join(".a3s-test/agent-sessions/s1");
    symlink(f.outside.path(), &link).unwrap();
    let root = f.anchor();
    let e = root
        .create_dir_all(".a3s-test/agent-sessions/s1/artifacts")
        .unwrap_err();
    assert!(is_symlink_refusal(&e, &link), "{e:?}");
    let e = root
        .open_file(".a3s-test/agent-sessions/s1/file", Access::Append, PRIVATE)
        .unwrap_err();
    assert!(is_symlink_refusal(&e, &link), "{e:?}");
    f.assert_outside_untouched();
}

#[test]
fn a_symlinked_final_file_is_refused_and_its_target_kept() {
    let f = Fixture::new();
    std::fs::create_dir(f.root().join(".a3s-test")).unwrap();
    let link = f.root().join(".a3s-test/repairs.jsonl");
    symlink(f.outside_file(), &link).unwrap();
    let root = f.anchor();
    for access in [
        Access::Read,
        Access::Append,
        Access::Replace,
        Access::CreateNew,
    ] {
        let e = root
            .open_file(".a3s-test/repairs.jsonl", access, PRIVATE)
            .unwrap_err();
        assert!(is_symlink_refusal(&e, &link), "{access:?}: {e:?}");
    }
    let e = root
        .write_atomic(".a3s-test/repairs.jsonl", b"new", PRIVATE)
        .unwrap_err();
    assert!(is_symlink_refusal(&e, &link), "{e:?}");
    // Removing the link removes the link only.
    root.remove_file(".a3s-test/repairs.jsonl").unwrap();
    assert!(!link.exists());
    f.assert_outside_untouched();
}

#[test]
fn the_anchor_itself_may_be_a_link_the_person_chose() {
    let f = Fixture::new();
    let chosen = f.root().join("out");
    symlink(f.outside.path(), &chosen).unwrap();
    let anchor = Dir::open_anchor(&chosen).unwrap();
    assert_eq!(anchor.read("file", 1024).unwrap(), OUTSIDE_BYTES);
}

#[test]
fn escaping_paths_are_refused_before_any_call() {
    let f = Fixture::new();
    let root = f.anchor();
    for bad in ["../x", "a/../../x", "/etc/passwd", ".."] {
        let e = root.create_dir_all(bad).unwrap_err();
        assert!(
            matches!(e, FsError::InvalidPath { .. }) && e.is_refusal(),
            "{bad}: {e:?}"
        );
        let e = root.open_file(bad, Access::Append, PRIVATE).unwrap_err();
        assert!(matches!(e, FsError::InvalidPath { .. }), "{bad}: {e:?}");
    }
    let e = root.open_file("", Access::Read, 0).unwrap_err();
    assert!(matches!(e, FsError::InvalidPath { .. }), "{e:?}");
    assert_eq!(std::fs::read_dir(f.root()).unwrap().count(), 0);
}

/// Run `op` on a thread and fail (instead of hanging) when it does not return within the
/// deadline.
fn within_deadline<T: Send + 'static>(op: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(op());
    });
    rx.recv_timeout(Duration::from_secs(20))
        .expect("the operation blocked")
}

#[test]
fn a_fifo_is_refused_without_blocking() {
    let f = Fixture::new();
    let fifo = f.root().join("events.jsonl");
    rustix::fs::mknodat(
        rustix::fs::CWD,
        &fifo,
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o600),
        0,
    )
    .unwrap();
    let root = f.anchor();
    for access in [Access::Read, Access::Append, Access::Replace] {
        let root = root.clone();
        let e =
            within_deadline(move || root.open_file("events.jsonl", access, PRIVATE)).unwrap_err();
        assert!(
            matches!(&e, FsError::NotRegular { kind: "a FIFO", .. }) && e.is_refusal(),
            "{access:?}: {e:?}"
        );
    }
    let root2 = root.clone();
    let e = within_deadline(move || root2.read("events.jsonl", 10)).unwrap_err();
    assert!(matches!(e, FsError::NotRegular { .. }), "{e:?}");
    let e = root
        .write_atomic("events.jsonl", b"x", PRIVATE)
        .unwrap_err();
    assert!(matches!(e, FsError::NotRegular { .. }), "{e:?}");
}

#[test]
fn a_hard_linked_file_is_read_but_never_written_or_truncated() {
    let f = Fixture::new();
    let inside = f.root().join("repairs.jsonl");
    std::fs::hard_link(f.outside_file(), &inside).unwrap();
    let root = f.anchor();
    assert_eq!(root.read("repairs.jsonl", 1024).unwrap(), OUTSIDE_BYTES);
    for access in [Access::Append, Access::Replace] {
        let e = root
            .open_file("repairs.jsonl", access, PRIVATE)
            .unwrap_err();
        assert!(
            matches!(e, FsError::HardLinked { links: 2, .. }) && e.is_refusal(),
            "{e:?}"
        );
    }
    f.assert_outside_untouched();
}

#[test]
fn atomic_writes_replace_the_whole_file_with_its_mode_and_leave_no_temporary() {
    let f = Fixture::new();
    let root = f.anchor();
    let dir = root.create_dir_all(".a3s-test/dev/d").unwrap();
    dir.write_atomic("channel.json", b"one", PRIVATE).unwrap();
    dir.write_atomic("channel.json", b"two", 0o644).unwrap();
    let path = f.root().join(".a3s-test/dev/d/channel.json");
    assert_eq!(std::fs::read(&path).unwrap(), b"two");
    let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o644);
    let names: Vec<_> = dir.list().unwrap().into_iter().map(|e| e.name).collect();
    assert_eq!(names, ["channel.json"]);
}

#[test]
fn replace_and_append_write_what_they_say() {
    use std::io::Write;
    let f = Fixture::new();
    let root = f.anchor();
    let mut log = root.open_file("log", Access::Append, PRIVATE).unwrap();
    log.write_all(b"a\n").unwrap();
    let mut log = root.open_file("log", Access::Append, PRIVATE).unwrap();
    log.write_all(b"b\n").unwrap();
    assert_eq!(root.read("log", 100).unwrap(), b"a\nb\n");
    let mode = std::fs::metadata(f.root().join("log"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);
    let mut out = root.open_file("log", Access::Replace, PRIVATE).unwrap();
    out.write_all(b"c").unwrap();
    assert_eq!(root.read("log", 100).unwrap(), b"c");
    let e = root.read("log", 0).unwrap_err();
    assert!(matches!(e, FsError::TooLarge { limit: 0, .. }) && !e.is_refusal());
    let e = root
        .open_file("log", Access::CreateNew, PRIVATE)
        .unwrap_err();
    assert_eq!(e.io_kind(), Some(std::io::ErrorKind::AlreadyExists));
    let e = root.open_file("missing", Access::Read, 0).unwrap_err();
    assert!(e.is_not_found());
}

#[test]
fn exclusive_folders_are_created_once() {
    let f = Fixture::new();
    let root = f.anchor();
    root.create_dir("s1").unwrap();
    let e = root.create_dir("s1").unwrap_err();
    assert_eq!(e.io_kind(), Some(std::io::ErrorKind::AlreadyExists));
    symlink(f.outside.path(), f.root().join("s2")).unwrap();
    let e = root.create_dir("s2").unwrap_err();
    assert!(matches!(e, FsError::Symlink { .. }), "{e:?}");
}

#[test]
fn trees_are_listed_measured_and_removed_without_following_links() {
    let f = Fixture::new();
    let root = f.anchor();
    let run = root.create_dir_all("runs/r1/suite/scenario").unwrap();
    run.write_atomic("shot.png", b"1234", PRIVATE).unwrap();
    symlink(
        f.outside.path(),
        f.root().join("runs/r1/suite/scenario/out"),
    )
    .unwrap();
    symlink(f.outside_file(), f.root().join("runs/r1/suite/scenario/f")).unwrap();
    let mut kinds: Vec<_> = run
        .list()
        .unwrap()
        .into_iter()
        .map(|e| (e.name.into_string().unwrap(), e.kind))
        .collect();
    kinds.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        kinds,
        [
            ("f".to_string(), EntryKind::Symlink),
            ("out".to_string(), EntryKind::Symlink),
            ("shot.png".to_string(), EntryKind::File),
        ]
    );
    assert_eq!(root.open_dir("runs").unwrap().tree_bytes(), 4);
    root.remove_dir_all("runs/r1").unwrap();
    assert!(!f.root().join("runs/r1").exists());
    root.remove_dir_all("runs/r1").unwrap();
    f.assert_outside_untouched();
    // A link in place of the tree is refused, not followed.
    symlink(f.outside.path(), f.root().join("runs/r2")).unwrap();
    let e = root.remove_dir_all("runs/r2").unwrap_err();
    assert!(matches!(e, FsError::Symlink { .. }), "{e:?}");
    f.assert_outside_untouched();
}

#[test]
fn a_deep_tree_is_removed_without_recursion() {
    let f = Fixture::new();
    let root = f.anchor();
    let deep = vec!["d"; 300].join("/");
    root.create_dir_all(format!("t/{deep}")).unwrap();
    root.remove_dir_all("t").unwrap();
    assert!(!f.root().join("t").exists());
}

#[test]
fn files_move_in_but_not_onto_a_link() {
    let f = Fixture::new();
    let root = f.anchor();
    let download = f.root().join("download.bin");
    std::fs::write(&download, b"data").unwrap();
    root.create_dir_all("a").unwrap();
    root.move_into(&download, "a/file.bin").unwrap();
    assert_eq!(root.read("a/file.bin", 10).unwrap(), b"data");
    std::fs::write(&download, b"data").unwrap();
    symlink(f.outside_file(), f.root().join("a/link.bin")).unwrap();
    let e = root.move_into(&download, "a/link.bin").unwrap_err();
    assert!(matches!(e, FsError::Symlink { .. }), "{e:?}");
    f.assert_outside_untouched();
}

#[test]
fn a_file_in_place_of_a_folder_is_refused() {
    let f = Fixture::new();
    std::fs::write(f.root().join(".a3s-test"), b"").unwrap();
    let e = f.anchor().create_dir_all(".a3s-test/runs").unwrap_err();
    assert!(
        matches!(e, FsError::NotDirectory { .. }) && e.is_refusal(),
        "{e:?}"
    );
    let e = f.anchor().open_file(".a3s-test", Access::Read, 0);
    assert!(e.is_ok(), "a regular file opens as a file");
    std::fs::create_dir(f.root().join("folder")).unwrap();
    let e = f.anchor().open_file("folder", Access::Read, 0).unwrap_err();
    assert!(
        matches!(
            e,
            FsError::NotRegular {
                kind: "a folder",
                ..
            }
        ),
        "{e:?}"
    );
}

#[test]
fn a_confined_path_names_its_parts_and_walks_again_on_each_use() {
    let f = Fixture::new();
    let ledger = ConfinedPath::new(f.root(), ".a3s-test/agent-sessions").join("s1/repairs.jsonl");
    assert_eq!(ledger.anchor(), f.root());
    assert_eq!(
        ledger.path(),
        f.root().join(".a3s-test/agent-sessions/s1/repairs.jsonl")
    );
    let (folder, name) = ledger.split().unwrap();
    assert_eq!(name, "repairs.jsonl");
    assert_eq!(folder.relative(), Path::new(".a3s-test/agent-sessions/s1"));
    assert!(ConfinedPath::anchor_only(f.root()).split().is_none());
    folder.create_dir_all().unwrap();
    ledger.write_atomic(b"one\n", PRIVATE).unwrap();
    assert_eq!(ledger.read(100).unwrap(), b"one\n");
    // A link planted after one use is refused by the next.
    std::fs::rename(
        f.root().join(".a3s-test/agent-sessions/s1"),
        f.root().join(".a3s-test/agent-sessions/s1.old"),
    )
    .unwrap();
    symlink(
        f.outside.path(),
        f.root().join(".a3s-test/agent-sessions/s1"),
    )
    .unwrap();
    let e = ledger.read(100).unwrap_err();
    assert!(matches!(e, FsError::Symlink { .. }), "{e:?}");
    let e = ledger.open_file(Access::Append, PRIVATE).unwrap_err();
    assert!(matches!(e, FsError::Symlink { .. }), "{e:?}");
    f.assert_outside_untouched();
}
