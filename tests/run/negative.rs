//! Negative suites (`tests/suites-negative/*.acl`): each fails with the code and exit code its
//! first line announces (`# expect: <code> <exit>`), and a product failure comes with a screenshot.

use crate::harness::{run, workdir, FixtureServer, RUN_BOUND};

fn expectation(text: &str) -> (String, i32) {
    let line = text.lines().next().unwrap();
    let rest = line
        .strip_prefix("# expect: ")
        .unwrap_or_else(|| panic!("no `# expect:` line: {line}"));
    let (code, exit) = rest.split_once(' ').unwrap();
    (code.to_string(), exit.trim().parse().unwrap())
}

#[test]
fn every_negative_suite_fails_with_its_announced_code_and_exit_code() {
    let server = FixtureServer::start();
    let dir = crate::harness::repo().join("tests/suites-negative");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "acl"))
        .collect();
    files.sort();
    assert!(files.len() >= 6, "negative suites are missing: {files:?}");
    let mut problems = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let (code, exit) = expectation(&text);
        let work = workdir(&[]);
        let path = file.to_str().unwrap();
        let done = run(
            &[
                "--json",
                "--jobs",
                "1",
                "--base-url",
                &server.base_url,
                path,
            ],
            work.path(),
            RUN_BOUND,
        );
        let json = done.json();
        let failure = &json["scenarios"][0]["failure"];
        let got = failure["code"].as_str().unwrap_or("<none>").to_string();
        if got != code || done.code != exit {
            problems.push(format!(
                "{}: expected {code} / exit {exit}, got {got} / exit {} ({})",
                file.display(),
                done.code,
                failure["message"]
            ));
            continue;
        }
        assert_eq!(json["exit_code"], exit);
        if failure["failure_class"] == "product" {
            let shot = failure["evidence"]
                .as_array()
                .unwrap()
                .iter()
                .find(|e| e["kind"] == "screenshot")
                .unwrap_or_else(|| panic!("{}: no screenshot in {failure}", file.display()));
            let bytes = std::fs::read(shot["path"].as_str().unwrap()).unwrap();
            assert!(
                bytes.starts_with(b"\x89PNG"),
                "{}: the screenshot is a PNG",
                file.display()
            );
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
