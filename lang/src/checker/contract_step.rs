//! The `check_contract` step (`docs/acl.md` §5, `docs/contracts.md` §4): reconcile one route of
//! a reviewed Surface Contract against the page a scenario is on.
//!
//! `lang` reads no file, so only the shape is judged here: `path` is a relative `.acl` path
//! (resolved against the suite file's folder by the runner, which admits the contract and
//! reports `test.spec.contract_file` at this attribute's span when it cannot), `route` a path
//! starting with `/`.

use super::context::{Annotate, Ctx};
use super::fields::Fields;
use super::values::string;
use crate::code::Code;
use crate::ir::{Action, ContractCheck};

/// The attributes of `check_contract`.
pub(super) const SCHEMA: &[&str] = &["path", "route"];

/// `check_contract "label" { path = "contract.acl" route = "/checkout" }`.
pub(super) fn step(ctx: &mut Ctx, fields: &Fields<'_>) -> Option<Action> {
    let path = fields.required(ctx, "path").and_then(|attr| {
        let path = string(ctx, attr)?;
        let problem = if path.is_empty() {
            Some("is empty")
        } else if path.starts_with('/') || path.contains('\\') {
            Some("is not a relative path with `/` separators")
        } else if path.chars().any(char::is_control) {
            Some("holds a control character")
        } else if !path.ends_with(".acl") {
            Some("does not name an `.acl` file")
        } else {
            None
        };
        if let Some(problem) = problem {
            let shown: String = path.chars().take(64).collect();
            ctx.error_in(
                Code::ContractFile,
                "path",
                attr.value.span,
                format!("contract path \"{shown}\" {problem}"),
            );
            return None;
        }
        Some((path.to_string(), attr.value.span))
    });
    let route = match fields.get("route") {
        None => Some(None),
        Some(attr) => string(ctx, attr).and_then(|route| {
            if route.starts_with('/') && !route.chars().any(char::is_control) {
                Some(Some((route.to_string(), attr.value.span)))
            } else {
                let shown: String = route.chars().take(64).collect();
                ctx.error_in(
                    Code::ContractFile,
                    "route",
                    attr.value.span,
                    format!("contract route \"{shown}\" is not a path starting with `/`"),
                )
                .hint(
                    "name a route of the contract as written in it, e.g. `route = \"/checkout\"`",
                );
                None
            }
        }),
    };
    let ((path, path_span), route) = (path?, route?);
    Some(Action::CheckContract {
        check: Box::new(ContractCheck {
            path,
            path_span,
            route_span: route.as_ref().map(|(_, span)| *span),
            route: route.map(|(r, _)| r),
            contract: None,
        }),
    })
}
