//! Reading the rendered page for a contract: load each route, wait for a quiet page, and ask the
//! context read-only questions. Nothing here acts on the page beyond loading the route, and
//! nothing here decides: [`super::judge`] does.

use super::judge::{self, ElementFacts};
use super::report::{ContractReport, ExpectationResult, RouteReport};
use a3s_test_driver::api::{AgentContext, PageSnapshot, StepEnv};
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
        routes.push(route_report(ctx, route, base, env).await?);
    }
    Ok(ContractReport::new(&contract.id, routes))
}

/// The URL a route is checked at: its path on `base`'s origin.
pub fn route_url(base: &url::Url, path: &str) -> Result<url::Url, url::ParseError> {
    base.join(path)
}

async fn route_report<C: AgentContext>(
    ctx: &mut C,
    route: &ContractRoute,
    base: &url::Url,
    env: &StepEnv<'_>,
) -> Result<RouteReport, StepFailure> {
    let url = route_url(base, &route.path).map_err(|e| {
        StepFailure::new(
            a3s_test_driver::FailureCode::NavigationFailed,
            format!("route {} does not join {base}: {e}", route.path),
        )
    })?;
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
    let snapshot = ctx.snapshot_controls(env.deadline).await?;
    let mut page_text = None;
    let mut expectations = Vec::with_capacity(route.expectations.len());
    for e in &route.expectations {
        let (outcome, seen) = match &e.kind {
            ExpectationKind::Element { role, name, state } => {
                let facts = element_facts(ctx, &snapshot, role, name, env).await?;
                judge::element(*state, &facts)
            }
            ExpectationKind::Text { text } => {
                if page_text.is_none() {
                    page_text = Some(judge::collapse(&ctx.page_text(env.deadline).await?));
                }
                judge::text(text, page_text.as_deref().unwrap_or(""))
            }
            ExpectationKind::Layout {
                subject,
                relation,
                object,
            } => {
                let s = element_box(ctx, route, subject, env).await?;
                let o = element_box(ctx, route, object, env).await?;
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
    Ok(RouteReport {
        path: route.path.clone(),
        url: url.to_string(),
        expectations,
    })
}

fn role_target(role: &str, name: &str) -> Target {
    Target::Role {
        role: role.to_string(),
        name: Some(TextMatch::Exact {
            value: name.to_string(),
        }),
    }
}

async fn element_facts<C: AgentContext>(
    ctx: &C,
    snapshot: &PageSnapshot,
    role: &str,
    name: &str,
    env: &StepEnv<'_>,
) -> Result<ElementFacts, StepFailure> {
    let facts = ctx
        .target_facts(&role_target(role, name), env.deadline)
        .await?;
    let seen = snapshot
        .controls
        .iter()
        .map(|c| (c.role.as_str(), c.name.as_str()))
        .chain(
            snapshot
                .texts
                .iter()
                .map(|t| (t.role.as_str(), t.text.as_str())),
        );
    let mut same_role = Vec::new();
    let mut same_name = Vec::new();
    for (r, n) in seen {
        if r == role && n != name && !same_role.iter().any(|s: &String| s == n) {
            same_role.push(n.to_string());
        }
        if r != role && n == name && r != "StaticText" && !same_name.iter().any(|s: &String| s == r)
        {
            same_name.push(r.to_string());
        }
    }
    Ok(ElementFacts {
        matches: facts.matches,
        visible: facts.visible,
        disabled: facts.disabled,
        checked: facts.checked,
        same_role,
        same_name,
    })
}

/// The box of the one element the route's element expectation `id` names.
async fn element_box<C: AgentContext>(
    ctx: &C,
    route: &ContractRoute,
    id: &str,
    env: &StepEnv<'_>,
) -> Result<Option<a3s_test_driver::api::ViewportBox>, StepFailure> {
    let Some(ExpectationKind::Element { role, name, .. }) = route
        .expectations
        .iter()
        .find(|e| e.id == id)
        .map(|e| &e.kind)
    else {
        return Ok(None);
    };
    let facts = ctx
        .layout_facts(None, Some(&role_target(role, name)), env.deadline)
        .await?;
    Ok(facts.rect)
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
            let name = |id: &str| match route
                .expectations
                .iter()
                .find(|x| x.id == id)
                .map(|x| &x.kind)
            {
                Some(ExpectationKind::Element { role, name, .. }) => format!("{role} \"{name}\""),
                _ => id.to_string(),
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
