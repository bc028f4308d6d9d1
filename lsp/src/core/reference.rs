//! The block reference: one row per block kind, read from `docs/acl.md` §5.2 at build time.
//!
//! The documentation is the one source: hover shows the row of the block under the cursor and
//! completion orders a block's required attributes (bold in the table) first. A test checks the
//! rows against the checker's tables ([`a3s_test_lang::checker::catalog`]), so the two cannot
//! drift apart.

use std::sync::LazyLock;

/// `docs/acl.md`, compiled in.
const ACL_MD: &str = include_str!("../../../docs/acl.md");

/// One row of the block reference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// The block kind (`click`), as written in the table's first column.
    pub kind: &'static str,
    /// `step` for the step of a name another block shares (`check`), else empty.
    pub qualifier: &'static str,
    /// Attribute names in table order, each with whether it is required.
    pub attributes: Vec<(&'static str, bool)>,
    /// True when the attribute list ends with `…` (the conditions of §8/§9 complete it).
    pub open_ended: bool,
    /// What the block does.
    pub summary: &'static str,
}

static ROWS: LazyLock<Vec<Row>> = LazyLock::new(|| parse(ACL_MD));

/// Every row of the table, in documentation order.
pub fn rows() -> &'static [Row] {
    &ROWS
}

/// The row of block `kind` whose parent block is `parent` (`check` is a project check inside
/// `verification` and a step elsewhere).
pub fn row(kind: &str, parent: Option<&str>) -> Option<&'static Row> {
    let qualifier = if kind == "check" && parent != Some("verification") {
        "step"
    } else {
        ""
    };
    ROWS.iter()
        .find(|r| r.kind == kind && r.qualifier == qualifier)
}

/// A target function's row of `docs/acl.md` §3: the forms as written and what they find.
pub fn target_form(name: &str) -> Option<(&'static str, &'static str)> {
    let start = ACL_MD.find("## 3. Targets")?;
    let end = start + ACL_MD[start..].find("\n## 4.")?;
    let call = format!("`{name}(");
    ACL_MD[start..end]
        .lines()
        .filter(|l| l.starts_with("| `"))
        .find(|l| l.contains(&call))
        .and_then(|l| l.trim_matches('|').split_once(" | "))
        .map(|(form, finds)| (form.trim(), finds.trim()))
}

/// Parse the table under `### 5.2 Block reference`.
fn parse(text: &'static str) -> Vec<Row> {
    let Some(start) = text.find("### 5.2 Block reference") else {
        return Vec::new();
    };
    text[start..]
        .lines()
        .skip_while(|l| !l.starts_with("| `"))
        .take_while(|l| l.starts_with('|'))
        .filter_map(parse_row)
        .collect()
}

fn parse_row(line: &'static str) -> Option<Row> {
    let cells: Vec<&'static str> = line.trim_matches('|').split(" | ").map(str::trim).collect();
    let [name, attributes, summary] = cells[..] else {
        return None;
    };
    let (kind, rest) = name.strip_prefix('`')?.split_once('`')?;
    let qualifier = rest.trim().trim_start_matches('(').trim_end_matches(')');
    let mut open_ended = false;
    let attributes = attributes
        .split(", ")
        .filter(|a| *a != "—")
        .filter(|a| {
            let ellipsis = *a == "…";
            open_ended |= ellipsis;
            !ellipsis
        })
        .map(
            |a| match a.strip_prefix("**").and_then(|a| a.strip_suffix("**")) {
                Some(required) => (required, true),
                None => (a, false),
            },
        )
        .collect();
    Some(Row {
        kind,
        qualifier,
        attributes,
        open_ended,
        summary,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use a3s_test_lang::checker::catalog;
    use a3s_test_lang::ir::ActionKind;

    /// The place a row's block is written, for the catalog.
    fn chain(row: &Row) -> Vec<&'static str> {
        match (row.kind, row.qualifier) {
            ("suite" | "library" | "project", _) => vec![row.kind],
            ("scenario" | "before_each" | "after_each" | "steps", _) => vec!["suite", row.kind],
            (
                "dev_server" | "browser" | "tui" | "gui" | "grid" | "provider" | "verification",
                _,
            ) => {
                vec!["project", row.kind]
            }
            ("check", "") => vec!["project", "verification", "check"],
            ("contract", _) => vec!["contract"],
            ("source" | "route" | "decision", _) => vec!["contract", row.kind],
            ("element" | "text" | "layout", _) => vec!["contract", "route", row.kind],
            ("position", _) => vec!["suite", "scenario", "click", "position"],
            _ => vec!["suite", "scenario", row.kind],
        }
    }

    #[test]
    fn every_step_kind_has_a_row() {
        for kind in ActionKind::ALL {
            assert!(
                row(kind.name(), Some("scenario")).is_some(),
                "{}",
                kind.name()
            );
        }
        assert!(row("use", Some("scenario")).is_some());
        assert_eq!(row("check", Some("verification")).unwrap().qualifier, "");
    }

    #[test]
    fn every_target_function_has_a_form() {
        for name in a3s_test_lang::checker::TARGET_FUNCTIONS {
            assert!(target_form(name).is_some(), "{name}");
        }
        assert!(target_form("main").is_some());
    }

    #[test]
    fn rows_list_the_attributes_the_checker_accepts() {
        for row in rows() {
            let accepted = catalog::attributes(&chain(row));
            let listed: Vec<&str> = row.attributes.iter().map(|(n, _)| *n).collect();
            for name in &listed {
                assert!(accepted.contains(name), "`{}` lists `{name}`", row.kind);
            }
            if !row.open_ended {
                let mut a = accepted.clone();
                let mut l = listed.clone();
                a.sort_unstable();
                l.sort_unstable();
                assert_eq!(l, a, "attributes of `{}`", row.kind);
            }
        }
        assert!(rows().len() > 45);
    }
}
