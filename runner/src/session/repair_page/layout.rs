//! Step 3's Layout Mode check: a placement's destination must be addressable on the repaired
//! page (inside the viewport, with an element other than the page root there), and a rearranged
//! node must now overlap its destination. The node still existing somewhere proves nothing.
//!
//! Why it reads geometry through the driver: the driver's own resolver answers
//! ([`AgentContext::layout_facts`]), so no script the page controls decides the verdict, and
//! nothing acts on the page. The rules themselves are plain numbers in [`super::geometry`].

use super::geometry::{self, Scroll};
use crate::session::code::SessionCode;
use a3s_test_driver::{AgentContext, ViewportBox};
use a3s_test_lang::ir::Target;
use a3s_test_ledger::layout::Layout;
use a3s_test_ledger::record::Rect;
use a3s_test_ledger::verification::{LayoutCheck, LayoutOutcome};
use serde::{Deserialize, Serialize};
use tokio::time::Instant;

/// What a layout finding asks verification to check, from its `target.layout` and
/// `target.regionScroll`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LayoutRequest {
    /// Placement or rearrange.
    pub check: LayoutCheck,
    /// The destination, in viewport CSS px at `region_scroll`.
    pub destination: Rect,
    /// The page scroll the destination was drawn at, when the Test Kit recorded it.
    #[serde(default)]
    pub region_scroll: Option<Scroll>,
}

impl LayoutRequest {
    /// The check a finding's verbatim layout and region scroll ask for; `None` when it has no
    /// (valid) layout. A scroll in another shape is ignored (the destination is taken as drawn
    /// at the current scroll).
    pub fn of_target(layout: Option<&str>, region_scroll: Option<&str>) -> Option<LayoutRequest> {
        let (check, destination) = match Layout::check(layout?).ok()? {
            Layout::Placement { destination, .. } => (LayoutCheck::Placement, destination),
            Layout::Rearrange { destination, .. } => (LayoutCheck::Rearrange, destination),
        };
        let region_scroll = region_scroll
            .and_then(|raw| serde_json::from_str::<Scroll>(raw).ok())
            .filter(|s| s.x.is_finite() && s.y.is_finite());
        Some(LayoutRequest {
            check,
            destination,
            region_scroll,
        })
    }
}

/// The outcome and, when it failed, its code and message.
pub type Checked = (LayoutOutcome, Option<(SessionCode, String)>);

fn rect_of(b: ViewportBox) -> Rect {
    Rect {
        x: b.x,
        y: b.y,
        width: b.width,
        height: b.height,
    }
}

/// Run the check. `node` is the element step 2 found again (`None` when there was none or it
/// came through a replacement that is not stable).
pub async fn check<C: AgentContext>(
    ctx: &C,
    req: &LayoutRequest,
    node: Option<&Target>,
    deadline: Instant,
) -> Checked {
    let mut outcome = LayoutOutcome {
        check: req.check,
        in_viewport: false,
        occupant: None,
        overlap_px: None,
        passed: false,
    };
    let code = match req.check {
        LayoutCheck::Placement => SessionCode::RepairLayoutUnaddressable,
        LayoutCheck::Rearrange => SessionCode::RepairLayoutNotMoved,
    };
    let target = match (req.check, node) {
        (LayoutCheck::Rearrange, None) => {
            let why = "no locator or declared replacement names the rearranged node, so its \
                       position cannot be checked";
            return (outcome, Some((code, why.into())));
        }
        (LayoutCheck::Rearrange, Some(t)) => Some(t),
        (LayoutCheck::Placement, _) => None,
    };
    let facts = match ctx.layout_facts(None, target, deadline).await {
        Ok(f) => f,
        Err(e) => {
            let why = format!("the page's layout could not be read: {}", e.message);
            return (outcome, Some((code, why)));
        }
    };
    let now = Scroll {
        x: facts.scroll_x,
        y: facts.scroll_y,
    };
    let destination = geometry::shifted(&req.destination, req.region_scroll, now);
    let visible = geometry::visible_part(&destination, facts.viewport_width, facts.viewport_height);
    outcome.in_viewport = visible.is_some();
    let failure = match req.check {
        LayoutCheck::Rearrange => {
            let area = facts
                .rect
                .map_or(0.0, |b| geometry::overlap_area(&rect_of(b), &destination));
            outcome.overlap_px = Some(area.floor() as u64);
            outcome.passed = area > 0.0;
            (!outcome.passed).then(|| match facts.rect {
                None => "the rearranged node no longer resolves to one element".to_string(),
                Some(b) => format!(
                    "the rearranged node's box ({:.0},{:.0} {:.0}×{:.0}) does not overlap its \
                     destination ({:.0},{:.0} {:.0}×{:.0})",
                    b.x,
                    b.y,
                    b.width,
                    b.height,
                    destination.x,
                    destination.y,
                    destination.width,
                    destination.height
                ),
            })
        }
        LayoutCheck::Placement => match visible {
            None => Some(format!(
                "the destination ({:.0},{:.0} {:.0}×{:.0}) is outside the {:.0}×{:.0} viewport",
                destination.x,
                destination.y,
                destination.width,
                destination.height,
                facts.viewport_width,
                facts.viewport_height
            )),
            Some(part) => {
                let point = geometry::centre(&part);
                match ctx.layout_facts(Some(point), None, deadline).await {
                    Ok(f) => outcome.occupant = f.occupant,
                    Err(e) => {
                        let why = format!("the page's layout could not be read: {}", e.message);
                        return (outcome, Some((code, why)));
                    }
                }
                outcome.passed = outcome.occupant.is_some();
                (!outcome.passed).then(|| {
                    format!(
                        "nothing but the page root is at the destination's centre ({:.0},{:.0})",
                        point.0, point.1
                    )
                })
            }
        },
    };
    (outcome, failure.map(|m| (code, m)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_layout_request_is_built_from_the_findings_layout_and_scroll() {
        let placement = r#"{"mode":"placement","componentType":"date-picker","componentSource":"catalog","canvas":"page","destination":{"x":10,"y":20,"width":30,"height":40}}"#;
        let req = LayoutRequest::of_target(Some(placement), Some(r#"{"x":0,"y":120}"#)).unwrap();
        assert_eq!(req.check, LayoutCheck::Placement);
        assert_eq!(req.destination.width, 30.0);
        assert_eq!(req.region_scroll, Some(Scroll { x: 0.0, y: 120.0 }));
        let rearrange = r#"{"mode":"rearrange","originalRegion":{"x":0,"y":0,"width":5,"height":5},"destination":{"x":1,"y":2,"width":3,"height":4}}"#;
        let req = LayoutRequest::of_target(Some(rearrange), Some("\"bogus\"")).unwrap();
        assert_eq!(
            (req.check, req.region_scroll),
            (LayoutCheck::Rearrange, None)
        );
        assert_eq!(LayoutRequest::of_target(None, None), None);
        assert_eq!(LayoutRequest::of_target(Some("{}"), None), None);
    }
}
