//! The Layout Mode check of a repair verification in real Chromium, through the real
//! supervisor: `RepairObserve` with a rearrange finding fails with
//! `repair_layout_not_moved` while the node still sits at its original region and passes once
//! the page moved it into the destination; a placement whose destination holds nothing but the
//! page root fails with `repair_layout_unaddressable` and passes once a component is there.

use crate::page_server::{AppServer, ENDPOINT_PATH};
use crate::support::*;
use a3s_test_ledger::record::Rect;
use a3s_test_ledger::verification::LayoutCheck;
use a3s_test_runner::session::repair_page::layout::LayoutRequest;
use a3s_test_runner::session::repair_page::locate::PageLocator;
use a3s_test_runner::session::repair_page::{ObserveRequest, PageVerification};
use std::path::Path;

const SESSION: &str = "lay";

/// Absolutely placed parts only, so no block box spans a destination by accident: a card at
/// (20,20), and a button that moves the card to (300,300) and places a picker at (600,20).
fn page() -> String {
    format!(
        r#"<!doctype html><html><head><title>Layout</title>
<style>body {{ margin: 0 }} .abs {{ position: absolute; width: 100px; height: 40px }}</style></head><body>
<button class="abs" data-testid="card" id="card" style="left: 20px; top: 20px">Card</button>
<button class="abs" id="move" style="left: 20px; top: 120px">Move</button>
<script type="module">
import {{ installTestKit }} from "/kit/index.js";
installTestKit({{ enabled: true, page: {{ id: "layout" }}, repairEndpoint: "{ENDPOINT_PATH}" }});
document.getElementById("move").addEventListener("click", () => {{
  const card = document.getElementById("card");
  card.style.left = "300px";
  card.style.top = "300px";
  const picker = document.createElement("div");
  picker.className = "abs";
  picker.id = "picker";
  picker.style.left = "600px";
  picker.style.top = "20px";
  picker.textContent = "Date";
  document.body.append(picker);
}});
</script></body></html>"#
    )
}

fn rect(x: f64, y: f64, width: f64, height: f64) -> Rect {
    Rect {
        x,
        y,
        width,
        height,
    }
}

fn observe(root: &Path, dir: &str, check: LayoutCheck, destination: Rect) -> PageVerification {
    let request = ObserveRequest {
        after_revision: None,
        revision_timeout_ms: 10_000,
        locators: vec![PageLocator::TestId {
            value: "card".into(),
        }],
        replacement: None,
        criteria: Vec::new(),
        baseline: None,
        layout: Some(LayoutRequest {
            check,
            destination,
            region_scroll: None,
        }),
        dir: format!("artifacts/repairs/finding-layout/{dir}/verify"),
    };
    repair_observe(root, SESSION, request)
}

#[test]
fn layout_findings_pass_only_when_the_page_moved_or_placed_something_there() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let app = AppServer::start(&page());
    let _guard = start_session(root, &app.origin, SESSION);
    let destination = rect(300.0, 300.0, 100.0, 40.0);
    let empty = rect(600.0, 20.0, 100.0, 40.0);

    // The node still sits at its original region: existing is not proof of a move.
    let stayed = observe(root, "a1", LayoutCheck::Rearrange, destination);
    assert_eq!(
        failure_code(&stayed),
        Some((
            "criteria".into(),
            "test.session.repair_layout_not_moved".into()
        )),
        "{stayed:?}"
    );
    let layout = stayed.page.layout.as_ref().unwrap();
    assert_eq!((layout.passed, layout.overlap_px), (false, Some(0)));
    assert_eq!(
        stayed.page.evidence.len(),
        5,
        "evidence is captured anyway (its UI understanding too)"
    );

    // Nothing but the page root is at the placement's destination.
    let unplaced = observe(root, "a2", LayoutCheck::Placement, empty);
    assert_eq!(
        failure_code(&unplaced),
        Some((
            "criteria".into(),
            "test.session.repair_layout_unaddressable".into()
        )),
        "{unplaced:?}"
    );
    let layout = unplaced.page.layout.as_ref().unwrap();
    assert!(
        layout.in_viewport && layout.occupant.is_none(),
        "{layout:?}"
    );

    // A destination below the viewport is not addressable either.
    let below = observe(
        root,
        "a3",
        LayoutCheck::Placement,
        rect(0.0, 50_000.0, 10.0, 10.0),
    );
    assert!(
        !below.page.layout.as_ref().unwrap().in_viewport,
        "{below:?}"
    );
    assert_eq!(
        failure_code(&below).unwrap().1,
        "test.session.repair_layout_unaddressable"
    );

    // The "repair" lands: the card moves into the destination and a picker is placed.
    ok_json(
        root,
        &[
            "agent",
            "exec",
            r##"click { target = css("#move") }"##,
            "--session",
            SESSION,
            "--json",
        ],
    );
    let moved = observe(root, "a4", LayoutCheck::Rearrange, destination);
    assert_eq!(moved.failure, None, "{moved:?}");
    let layout = moved.page.layout.as_ref().unwrap();
    assert!(layout.passed && layout.in_viewport, "{layout:?}");
    assert_eq!(layout.overlap_px, Some(4000));
    let placed = observe(root, "a5", LayoutCheck::Placement, empty);
    assert_eq!(placed.failure, None, "{placed:?}");
    let occupant = placed
        .page
        .layout
        .as_ref()
        .unwrap()
        .occupant
        .clone()
        .unwrap();
    assert!(
        occupant.contains("picker") || occupant.contains("Date") || occupant.contains("div"),
        "{occupant}"
    );
}
