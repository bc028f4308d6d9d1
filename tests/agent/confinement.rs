//! A session's files never reach outside the project (issue 27, item 4): a link in place of
//! `.a3s-test` or `agent-sessions` refuses `agent start` (`test.session.unsafe_path`) before a
//! browser starts or a byte is written; a running session keeps writing into the folder it
//! opened, so an `artifacts/` swapped for a link receives nothing; and a session folder swapped
//! for a link is refused by every turn. The folder a link points to stays byte-identical.

use crate::support::*;
use std::os::unix::fs::symlink;
use std::path::Path;

const UNSAFE: &str = "test.session.unsafe_path";

/// A folder outside the project with one file in it.
struct Outside(tempfile::TempDir);

impl Outside {
    fn new() -> Outside {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("keep.txt"), b"outside, no final newline").unwrap();
        Outside(dir)
    }

    fn path(&self) -> &Path {
        self.0.path()
    }

    fn assert_untouched(&self) {
        let names: Vec<_> = std::fs::read_dir(self.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["keep.txt"], "nothing was created outside");
        assert_eq!(
            std::fs::read(self.path().join("keep.txt")).unwrap(),
            b"outside, no final newline"
        );
    }
}

#[test]
fn a_linked_state_or_sessions_folder_refuses_agent_start_before_any_browser() {
    for linked in [".a3s-test", ".a3s-test/agent-sessions"] {
        let (server, dir, url) = page_and_project("<button>Go</button>");
        let d = dir.path();
        let outside = Outside::new();
        let link = d.join(linked);
        std::fs::create_dir_all(link.parent().unwrap()).unwrap();
        symlink(outside.path(), &link).unwrap();
        let v = refused(
            d,
            &["agent", "start", &url, "--session", "s1", "--json"],
            UNSAFE,
        );
        // The path is named as the project folder was given (here the working folder).
        let message = error_message(&v);
        assert!(message.contains(&format!("{linked}`")), "{message}");
        refused(d, &["agent", "list", "--json"], UNSAFE);
        assert!(server.hits().is_empty(), "no browser opened the page");
        outside.assert_untouched();
    }
}

#[test]
fn a_running_session_never_writes_through_a_link_swapped_into_its_folder() {
    let (_server, dir, url) = page_and_project("<button>Go</button>");
    let d = dir.path();
    let groups = start(d, "live", &url, &[]);
    let session = d.join(".a3s-test/agent-sessions/live");
    let outside = Outside::new();

    // `artifacts/` becomes a link: the supervisor holds the folder it opened, so the screenshot
    // lands in the real folder (now `artifacts.real/`), not where the link points.
    std::fs::rename(session.join("artifacts"), session.join("artifacts.real")).unwrap();
    symlink(outside.path(), session.join("artifacts")).unwrap();
    turn(
        d,
        "live",
        &["exec", "screenshot \"shot\" { path = \"shot.png\" }"],
    );
    assert!(session.join("artifacts.real/shot.png").is_file());
    outside.assert_untouched();

    // The session folder itself becomes a link: every turn refuses it before reading a byte.
    let moved = d.join(".a3s-test/agent-sessions/live.real");
    std::fs::rename(&session, &moved).unwrap();
    symlink(&moved, &session).unwrap();
    let v = refused_turn(d, "live", &["observe"], UNSAFE);
    assert!(
        error_message(&v).contains(".a3s-test/agent-sessions/live`"),
        "{v}"
    );
    std::fs::remove_file(&session).unwrap();
    std::fs::rename(&moved, &session).unwrap();

    let aborted = turn(d, "live", &["abort"]);
    assert_eq!(aborted["cleanup_verified"], true);
    assert_gone(groups);
    outside.assert_untouched();
}
