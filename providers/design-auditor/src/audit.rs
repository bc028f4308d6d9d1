//! One review: check the screenshot against its digest, run every measurement of the asked
//! dimensions, order the advice by priority and keep at most `max_findings`.

use crate::image::{Image, ImageError};
use crate::measure::{self, Page};
use a3s_test_provider::design::{
    DesignAuditReport, DesignFinding, DesignReviewRequest, MAX_FINDINGS,
};
use a3s_test_provider::grounding::Usage;

/// Who this auditor says it is.
#[derive(Debug, Clone)]
pub struct Identity {
    /// The provider name (the project's block label).
    pub provider: String,
    /// The model name (the block's `model`).
    pub model: String,
}

/// Review `request`; the report, or why the screenshot cannot be used.
pub fn review(
    identity: &Identity,
    request: &DesignReviewRequest,
) -> Result<DesignAuditReport, ImageError> {
    let image = Image::decode(&request.screenshot.png_base64, &request.screenshot.sha256)?;
    let page = Page::new(&request.page_context, &image);
    let mut advice = Vec::new();
    advice.extend(measure::contrast::check(&page));
    advice.extend(measure::targets::check(&page));
    advice.extend(measure::spacing::check(&page));
    advice.extend(measure::typescale::check(&page));
    advice.extend(measure::alignment::check(&page));
    advice.retain(|a| request.dimensions.contains(&a.dimension));
    // Most important first; the order within a priority is the measurements' (document order).
    advice.sort_by_key(|a| std::cmp::Reverse(a.priority));
    advice.truncate((request.max_findings as usize).min(MAX_FINDINGS));
    let findings: Vec<DesignFinding> = advice
        .into_iter()
        .enumerate()
        .map(|(i, a)| {
            let id = format!("{}-{}", dimension_slug(a.dimension), i + 1);
            a.into_finding(id)
        })
        .collect();
    Ok(DesignAuditReport {
        provider: identity.provider.clone(),
        model: identity.model.clone(),
        revision: request.revision,
        screenshot_sha256: request.screenshot.sha256.to_ascii_lowercase(),
        usage: Usage {
            input_units: 1 + request.page_context.nodes.len() as u64,
            output_units: findings.len() as u64,
        },
        findings,
        cost_microusd: 0,
    })
}

fn dimension_slug(d: a3s_test_provider::design::Dimension) -> &'static str {
    use a3s_test_provider::design::Dimension::*;
    match d {
        Hierarchy => "hierarchy",
        Composition => "composition",
        Spacing => "spacing",
        Typography => "typography",
        Colour => "colour",
        Consistency => "consistency",
        InteractionClarity => "interaction",
        ContentClarity => "content",
        ResponsiveComposition => "responsive",
    }
}
