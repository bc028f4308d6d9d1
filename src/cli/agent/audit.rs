//! `a3s-test agent audit`: how a design review prints — one line per finding, most important
//! first, with what it targets and the numbers it rests on — and how its refusals do (a session
//! refusal as every session command's; a provider's as its `test.provider.*` code, exit 1).

use super::render::Failure;
use crate::cli::exit::Exit;
use crate::ops::audit::{AuditError, Audited};
use a3s_test_provider::design::AdviceTarget;
use a3s_test_runner::session::design_audit::AdviceDelivery;
use std::process::ExitCode;

impl Failure for AuditError {
    fn code(&self) -> String {
        match self {
            AuditError::Session(e) => Failure::code(e),
            AuditError::Provider(e) => e.code.to_string(),
        }
    }
    fn message(&self) -> &str {
        match self {
            AuditError::Session(e) => Failure::message(e),
            AuditError::Provider(e) => &e.message,
        }
    }
    /// A provider that gave no usable advice: 1, like a step that ran and failed (the page is
    /// untouched); a session refusal: its own exit.
    fn exit(&self) -> ExitCode {
        match self {
            AuditError::Session(e) => Failure::exit(e),
            AuditError::Provider(_) => Exit::Failed.into(),
        }
    }
    fn next(&self) -> Option<&str> {
        match self {
            AuditError::Session(e) => Failure::next(e),
            AuditError::Provider(e) => Some(e.hint()),
        }
    }
}

/// The report as text: a header, then `[priority] dimension — title (target; measurements)`.
pub fn human(v: &Audited) -> String {
    let r = &v.report;
    let mut out = format!(
        "design review of revision {} by {} ({}): {} finding{} (advice, untrusted)\n",
        r.revision,
        r.provider,
        r.model,
        r.findings.len(),
        if r.findings.len() == 1 { "" } else { "s" }
    );
    for f in &r.findings {
        let target = match &f.target {
            AdviceTarget::Page => "page".to_string(),
            AdviceTarget::Node { node_id } => format!("node {node_id}"),
            AdviceTarget::Region {
                x,
                y,
                width,
                height,
            } => format!("region {x:.0},{y:.0} {width:.0}×{height:.0}"),
        };
        let numbers: Vec<String> = f
            .measurements
            .iter()
            .map(|m| match m.guideline {
                Some(g) => format!("{} {} (guideline {g})", m.name, m.value),
                None => format!("{} {}", m.name, m.value),
            })
            .collect();
        out.push_str(&format!(
            "[{:?}] {:?} — {} ({target}{}{})\n",
            f.priority,
            f.dimension,
            f.title,
            if numbers.is_empty() { "" } else { "; " },
            numbers.join(", ")
        ));
    }
    match &v.overlay {
        Some(shown) => out.push_str(match shown.delivery {
            AdviceDelivery::Shown => "the page's Review Overlay shows it under Advice\n",
            AdviceDelivery::Stale => "not shown: the page changed since it was captured\n",
            AdviceDelivery::Unsupported => "not shown: the page's Test Kit has no showAdvice\n",
        }),
        None => out.push_str("kept off the page (--no-overlay)\n"),
    }
    out
}
