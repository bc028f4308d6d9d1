//! Files and the network: uploads from the working directory (confined to it), downloads saved
//! as evidence, routes that fulfil or abort requests, HAR and trace recording.

use crate::common::*;
use crate::LIMIT;
use a3s_test_driver::{FailureCode, StepDetail};
use a3s_test_lang::ir::Action;

/// `upload` `paths` (an ACL list) to the "Attachment" input.
fn upload(paths: &str) -> String {
    format!("upload {{\n    target = label(\"Attachment\")\n    paths = {paths}\n}}")
}

#[test]
fn uploads_and_downloads_use_real_files() {
    block_on(LIMIT, async {
        let mut page = Page::open().await;
        std::fs::write(page.env.work.path().join("a.txt"), b"12345").unwrap();
        page.ok(&goto("network.html")).await;
        page.ok(&upload(r#"["a.txt"]"#)).await;
        let uploaded = r##"expect {
            target = css("#users")
            rendered_text = "a.txt:5"
        }"##;
        page.ok(uploaded).await;
        page.fails(&upload(r#"["missing.txt"]"#), FailureCode::UploadPath)
            .await;
        // Admission refuses a `..` segment (test.spec.invalid_value); the driver refuses it too.
        let escape =
            refused_by_admission(&upload(r#"["../a.txt"]"#), &upload(r#"["a.txt"]"#), |a| {
                if let Action::Upload { paths, .. } = a {
                    *paths = vec!["../a.txt".into()];
                }
            });
        page.step_outcome(&escape, "upload ../a.txt", Some(FailureCode::UploadPath))
            .await
            .unwrap_err();
        let not_a_file_input = r#"upload {
            target = role("button", "Load users")
            paths = ["a.txt"]
        }"#;
        page.fails(not_a_file_input, FailureCode::TargetNotActionable)
            .await;
        let download = r#"download {
            target = role("link", "Download report")
            path = "downloads/report.txt"
        }"#;
        let out = page.ok(download).await;
        assert_eq!(
            std::fs::read_to_string(page.env.artifact("downloads/report.txt")).unwrap(),
            "quarterly report\n"
        );
        let name =
            detail!(out, StepDetail::Download { suggested_filename, .. } => suggested_filename);
        assert_eq!(name, "report.txt");
        // The same path again replaces the file.
        page.ok(download).await;
        page.close().await;
    });
}

#[test]
fn routes_fulfil_or_abort_and_har_records_traffic() {
    block_on(LIMIT, async {
        let mut page = Page::open().await;
        page.ok(r#"har { operation = "start" }"#).await;
        page.ok(&goto("network.html")).await;
        let load = r#"click { target = role("button", "Load users") }"#;
        let fulfil = r#"network_route {
            pattern = "**/api/users"
            body = "[\"routed\"]"
            status = 200
            content_type = "application/json"
        }"#;
        page.ok(fulfil).await;
        page.ok(load).await;
        page.ok(r#"wait { text = "[\"routed\"]" }"#).await;
        let abort = r#"network_route {
            pattern = "**/api/users"
            abort = true
        }"#;
        page.ok(abort).await;
        page.ok(load).await;
        page.ok(r#"wait { text = "failed" }"#).await;
        page.ok("network_unroute {}").await;
        page.ok(load).await;
        page.ok(r#"wait { text = "real-server" }"#).await;
        let stop = r#"har {
            operation = "stop"
            path = "net.har"
        }"#;
        let out = page.ok(stop).await;
        assert!(detail!(out, StepDetail::HarWritten { entries } => entries) >= 4);
        let har: serde_json::Value =
            serde_json::from_slice(&std::fs::read(page.env.artifact("net.har")).unwrap()).unwrap();
        assert_eq!(har["log"]["version"], "1.2");
        let urls: Vec<&str> = har["log"]["entries"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["request"]["url"].as_str().unwrap())
            .collect();
        assert!(
            urls.iter().any(|u| u.ends_with("/pages/network.html")),
            "{urls:?}"
        );
        assert!(
            urls.iter().filter(|u| u.ends_with("/api/users")).count() >= 3,
            "{urls:?}"
        );
        let again = r#"har {
            operation = "stop"
            path = "again.har"
        }"#;
        page.fails(again, FailureCode::CaptureNotStarted).await;
        page.ok(r#"trace { operation = "start" }"#).await;
        page.ok(load).await;
        let stop = r#"trace {
            operation = "stop"
            path = "trace.json"
        }"#;
        let out = page.ok(stop).await;
        assert!(detail!(out, StepDetail::TraceWritten { events } => events) > 0);
        let trace: serde_json::Value =
            serde_json::from_slice(&std::fs::read(page.env.artifact("trace.json")).unwrap())
                .unwrap();
        assert!(!trace["traceEvents"].as_array().unwrap().is_empty());
        page.close().await;
    });
}
