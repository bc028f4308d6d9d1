//! Evidence steps write their files inside the artifact folder (a symlink out of it is refused
//! before anything is written), and failure evidence holds all four files.

use crate::common::*;
use crate::LIMIT;
use a3s_test_driver::{EvidenceKind, FailureCode, StepDetail, SurfaceContext};

/// The JSON file an evidence step wrote.
fn json(env: &Env, rel: &str) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(env.artifact(rel)).unwrap()).unwrap()
}

#[test]
fn evidence_files_are_written_confined_and_fresh() {
    on_page(LIMIT, "console.html", async |page: &mut Page| {
        page.ok(r#"wait { load = "networkidle" }"#).await;
        let out = page.ok(r#"screenshot { path = "shots/page.png" }"#).await;
        let png = std::fs::read(page.env.artifact("shots/page.png")).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        assert_eq!(out.evidence[0].kind, EvidenceKind::Screenshot);
        let out = page.ok(r#"accessibility { path = "ax.json" }"#).await;
        assert!(detail!(out, StepDetail::Accessibility { nodes, .. } => nodes) > 2);
        let ax = json(&page.env, "ax.json");
        assert!(ax.to_string().contains("Break"), "{ax}");
        let interactive = r#"accessibility {
            path = "ax-i.json"
            interactive = true
        }"#;
        page.ok(interactive).await;
        let axi = json(&page.env, "ax-i.json");
        assert_eq!(axi["nodes"][0]["role"], "button", "{axi}");
        page.ok(r#"click { target = role("button", "Break") }"#)
            .await;
        let console = r#"console {
            path = "console.json"
            clear = true
        }"#;
        page.ok(console).await;
        let console = json(&page.env, "console.json");
        let texts: Vec<&str> = console["messages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["text"].as_str().unwrap())
            .collect();
        assert!(
            texts.contains(&"hello 42 Object")
                && texts.contains(&"careful")
                && texts.contains(&"clicked error"),
            "{texts:?}"
        );
        let out = page.ok(r#"console { path = "console.json" }"#).await;
        let messages = detail!(out, StepDetail::Console { messages, .. } => messages);
        assert_eq!(messages, 0, "cleared");
        page.ok(r#"page_errors { path = "errors.json" }"#).await;
        let errors = std::fs::read_to_string(page.env.artifact("errors.json")).unwrap();
        assert!(
            errors.contains("boom at load") && errors.contains("TypeError"),
            "{errors}"
        );
        let out = page.ok("snapshot { interactive = true }").await;
        let interactive =
            detail!(out, StepDetail::Snapshot { interactive_nodes, .. } => interactive_nodes);
        assert!(interactive >= 1);
        // A symlink out of the artifact folder is refused before anything is written.
        let outside = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path(), page.env.artifact("escape")).unwrap();
        page.fails(
            r#"screenshot { path = "escape/x.png" }"#,
            FailureCode::EvidencePathEscape,
        )
        .await;
        assert!(std::fs::read_dir(outside.path()).unwrap().next().is_none());
        // Failure evidence: all four files, each written and non-empty. (How long the capture
        // takes is measured by the `contexts` benchmark, docs/benchmarks.md.)
        let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(5);
        let captured = page
            .ctx
            .capture_failure_evidence(&page.env.artifact_dir("failure"), deadline)
            .await;
        assert_eq!(captured.missing, []);
        let files = captured.files;
        let names: Vec<String> = files
            .iter()
            .map(|f| f.path.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            names,
            [
                "screenshot.png",
                "accessibility.json",
                "console.json",
                "page-errors.json"
            ]
        );
        for file in &files {
            let written = std::fs::metadata(&file.path).unwrap();
            assert!(written.len() > 0, "{} is empty", file.path.display());
        }
    });
}
