//! A scenario's place in a run (`ir::Organisation`): `depends_on`, `storage_state` and the
//! annotations, read in one call so the suite checker names them once
//! (the attributes are listed in `suite.rs`'s scenario schema, after `tags`).

use super::annotations::annotations;
use super::context::Ctx;
use super::dependencies::DependencyGraph;
use super::fields::Fields;
use super::storage::state_path;
use super::values::optional;
use crate::ir::Organisation;

/// Read scenario `id`'s organisation from its `fields` (its dependencies also go into `graph`).
pub(super) fn organisation(
    ctx: &mut Ctx,
    fields: &Fields<'_>,
    suite: Option<&str>,
    id: Option<&str>,
    graph: &mut DependencyGraph,
) -> Option<Organisation> {
    let depends_on = match fields.get("depends_on") {
        Some(attr) => graph.depends_on(ctx, suite, id, attr),
        None => Some(Vec::new()),
    };
    let storage_state = optional(fields.get("storage_state").map(|a| state_path(ctx, a)));
    let annotations = annotations(ctx, fields);
    Some(Organisation {
        depends_on: depends_on?,
        storage_state: storage_state?,
        annotations: annotations?,
    })
}
