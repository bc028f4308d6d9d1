//! Reading the rendered page for a contract: ask the context one [`PageFactsRequest`] per route
//! and hand the answer to [`super::judge`]. `contract check` first loads each route and waits
//! for a quiet page ([`reconcile`]); a suite's `check_contract` step reads the page the scenario
//! is on ([`super::step`]). Nothing here acts on the page beyond that load, and nothing here
//! decides: [`super::judge`] does.

use super::judge::{self, ElementFacts};
use super::report::{ContractReport, ExpectationResult, RouteReport};
use a3s_test_driver::api::{AgentContext, StepEnv, SurfaceContext};
use a3s_test_driver::page_facts::{PageFacts, PageFactsRequest};
use a3s_test_driver::StepFailure;
use a3s_test_lang::ir::{
    Contract, ContractExpectation, ContractRoute, ExpectationKind, Target, TextMatch,
};
use std::time::Duration;

/// How long the page must be quiet (no DOM change, no request) before it is read.
pub const QUIET: Duration = Duration::from_millis(150);
/// The longest wait for a quiet page; after it the page is read as it is.
pub const SETTLE_CAP: Duration = Duration::from_secs(5);

/// Reconcile `contract` against the pages its routes name under `base`, in `ctx`.
pub async fn reconcile<C: AgentContext>(
    ctx: &mut C,
    contract: &Contract,
    base: &url::Url,
    env: &StepEnv<'_>,
) -> Result<ContractReport, StepFailure> {
    let mut routes = Vec::with_capacity(contract.routes.len());
    for route in &contract.routes {
        let url = route_url(base, &route.path).map_err(|e| {
            StepFailure::new(
                a3s_test_driver::FailureCode::NavigationFailed,
                format!("route {} does not join {base}: {e}", route.path),
            )
        })?;
        load(ctx, &url, env).await?;
        let mut report = read_route(ctx, route, env.deadline).await?;
        report.url = url.to_string();
        routes.push(report);
    }
    Ok(ContractReport::new(&contract.id, routes))
}

/// The URL a route is checked at: its path on `base`'s origin.
pub fn route_url(base: &url::Url, path: &str) -> Result<url::Url, url::ParseError> {
    base.join(path)
}

/// Load `url` through the admitted `navigate` step and wait for a quiet page.
async fn load<C: AgentContext>(
    ctx: &mut C,
    url: &url::Url,
    env: &StepEnv<'_>,
) -> Result<(), StepFailure> {
    let statement = format!(
        "navigate {{ url = {} }}",
        a3s_test_lang::printer::string_literal(url.as_str())
    );
    let step = a3s_test_lang::admit_statement(&statement).map_err(|_| {
        StepFailure::new(
            a3s_test_driver::FailureCode::NavigationFailed,
            format!("route URL {url} is not a navigable URL"),
        )
    })?;
    ctx.execute(&step, env).await?;
    ctx.settle(QUIET, SETTLE_CAP, env.deadline).await?;
    Ok(())
}

/// Read `route`'s expectations on the page `ctx` shows now and judge each; the report's URL is
/// the document's.
pub async fn read_route<C: SurfaceContext>(
    ctx: &mut C,
    route: &ContractRoute,
    deadline: tokio::time::Instant,
) -> Result<RouteReport, StepFailure> {
    let request = request(route);
    let facts = ctx.page_facts(&request, deadline).await?;
    Ok(judge_route(route, &facts))
}

/// The questions `route`'s expectations ask: each element's facts, each layout's two boxes,
/// the text when a text expectation needs it.
pub fn request(route: &ContractRoute) -> PageFactsRequest {
    let mut request = PageFactsRequest::default();
    for e in &route.expectations {
        match &e.kind {
            ExpectationKind::Element { role, name, .. } => {
                request.elements.push(role_target(role, name))
            }
            ExpectationKind::Text { .. } => request.text = true,
            ExpectationKind::Layout {
                subject, object, ..
            } => {
                for id in [subject, object] {
                    if let Some((role, name)) = element_of(route, id) {
                        request.boxes.push(role_target(role, name));
                    }
                }
            }
        }
    }
    request
}

/// Judge `route` against the answers to [`request`]`(route)`.
pub fn judge_route(route: &ContractRoute, facts: &PageFacts) -> RouteReport {
    let page_text = facts
        .text
        .as_deref()
        .map(judge::collapse)
        .unwrap_or_default();
    let mut elements = facts.elements.iter();
    let mut boxes = facts.boxes.iter();
    let mut expectations = Vec::with_capacity(route.expectations.len());
    for e in &route.expectations {
        let (outcome, seen) = match &e.kind {
            ExpectationKind::Element { role, name, state } => {
                let one = elements.next();
                judge::element(*state, &element_facts(facts, one, role, name))
            }
            ExpectationKind::Text { text } => judge::text(text, &page_text),
            ExpectationKind::Layout {
                subject,
                relation,
                object,
            } => {
                let mut next_box = |id: &str| {
                    element_of(route, id)
                        .and_then(|_| boxes.next().copied())
                        .flatten()
                };
                let s = next_box(subject);
                let o = next_box(object);
                judge::layout(*relation, (subject, s), (object, o))
            }
        };
        expectations.push(ExpectationResult {
            id: e.id.clone(),
            expected: expected(route, e),
            outcome,
            seen,
            evidence: e.evidence.clone(),
        });
    }
    RouteReport {
        path: route.path.clone(),
        url: facts.url.clone(),
        expectations,
    }
}

fn role_target(role: &str, name: &str) -> Target {
    Target::Role {
        role: role.to_string(),
        name: Some(TextMatch::Exact {
            value: name.to_string(),
        }),
    }
}

/// The role and name of the route's element expectation `id`.
fn element_of<'a>(route: &'a ContractRoute, id: &str) -> Option<(&'a str, &'a str)> {
    match route
        .expectations
        .iter()
        .find(|e| e.id == id)
        .map(|e| &e.kind)
    {
        Some(ExpectationKind::Element { role, name, .. }) => Some((role, name)),
        _ => None,
    }
}

/// One element expectation's facts: the target's answer and what else the page names.
fn element_facts(
    facts: &PageFacts,
    one: Option<&a3s_test_driver::api::TargetFacts>,
    role: &str,
    name: &str,
) -> ElementFacts {
    let mut same_role = Vec::new();
    let mut same_name = Vec::new();
    for named in &facts.named {
        let (r, n) = (named.role.as_str(), named.name.as_str());
        if r == role && n != name && !same_role.iter().any(|s: &String| s == n) {
            same_role.push(n.to_string());
        }
        if r != role && n == name && r != "StaticText" && !same_name.iter().any(|s: &String| s == r)
        {
            same_name.push(r.to_string());
        }
    }
    ElementFacts {
        matches: one.map_or(0, |f| f.matches),
        visible: one.is_some_and(|f| f.visible),
        disabled: one.is_some_and(|f| f.disabled),
        checked: one.and_then(|f| f.checked),
        same_role,
        same_name,
    }
}

/// What an expectation expects, in one line.
fn expected(route: &ContractRoute, e: &ContractExpectation) -> String {
    match &e.kind {
        ExpectationKind::Element { role, name, state } => match state {
            Some(s) => format!("{role} \"{name}\" {}", s.as_str()),
            None => format!("{role} \"{name}\""),
        },
        ExpectationKind::Text { text } => format!("text \"{text}\""),
        ExpectationKind::Layout {
            subject,
            relation,
            object,
        } => {
            let name = |id: &str| match element_of(route, id) {
                Some((role, name)) => format!("{role} \"{name}\""),
                None => id.to_string(),
            };
            format!(
                "{} {} {}",
                name(subject),
                relation.as_str().replace('_', " "),
                name(object)
            )
        }
    }
}
