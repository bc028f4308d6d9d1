//! A Surface Contract's read-only questions about the current page, answered from the agent
//! surface's reads (the operable-control snapshot, target facts, boxes, visible text), so the
//! contract step of a suite and `contract check` read the page exactly as sessions and repair
//! verification do. Nothing here acts on the page.

use super::context::WebContext;
use a3s_test_driver::api::AgentContext;
use a3s_test_driver::page_facts::{Named, PageFacts, PageFactsRequest};
use a3s_test_driver::StepFailure;
use tokio::time::Instant;

/// Answer `request` about `ctx`'s current tab, each read bounded by `deadline`.
pub(crate) async fn read(
    ctx: &WebContext,
    request: &PageFactsRequest,
    deadline: Instant,
) -> Result<PageFacts, StepFailure> {
    let snapshot = ctx.snapshot_controls(deadline).await?;
    let (url, _) = ctx.document_identity(deadline).await?;
    let named = snapshot
        .controls
        .iter()
        .map(|c| Named {
            role: c.role.clone(),
            name: c.name.clone(),
        })
        .chain(snapshot.texts.iter().map(|t| Named {
            role: t.role.clone(),
            name: t.text.clone(),
        }))
        .collect();
    let mut elements = Vec::with_capacity(request.elements.len());
    for target in &request.elements {
        elements.push(ctx.target_facts(target, deadline).await?);
    }
    let mut boxes = Vec::with_capacity(request.boxes.len());
    for target in &request.boxes {
        boxes.push(ctx.layout_facts(None, Some(target), deadline).await?.rect);
    }
    let text = if request.text {
        Some(ctx.page_text(deadline).await?)
    } else {
        None
    };
    Ok(PageFacts {
        url,
        named,
        elements,
        boxes,
        text,
    })
}
