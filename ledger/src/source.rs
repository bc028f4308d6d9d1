//! The source files a finding maps to, read from the page's `context.sourceHints`.
//!
//! Source hints are page data: the Test Kit's guess (framework adapter, source map or a boundary
//! hint) of which file rendered the target. The slice planner uses them to decide whether a
//! change stayed local, so they are validated here before use: a hint whose file is not a plain
//! workspace-relative path, whose confidence is out of range or whose shape is unknown is
//! dropped, never half-trusted. The mappings grant no file authority; nothing is opened.

use crate::record::Finding;
use crate::validate::validate_changed_file;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

/// The most source mappings kept per finding (the rest are ignored).
pub const MAX_SOURCE_MAPPINGS: usize = 32;

/// Where a source mapping came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MappingOrigin {
    /// A framework adapter's component registration.
    FrameworkAdapter,
    /// A source map of the generated bundle.
    SourceMap,
    /// A boundary hint the application declared.
    BoundaryHint,
    /// Generated code.
    Generated,
}

/// How the mapped source relates to the target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MappingRelation {
    /// The source renders the target itself.
    Exact,
    /// The source renders an ancestor of the target.
    Ancestor,
}

/// One validated source mapping of a finding's target.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SourceMapping {
    /// The workspace-relative file.
    pub file: String,
    /// The 1-based line, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// The last line of the span, when the hint names one (conflict holds compare ranges).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_line: Option<u32>,
    /// The Test Kit's confidence, 0..=1.
    pub confidence: f64,
    /// Where the mapping came from.
    pub origin: MappingOrigin,
    /// Exact or ancestor.
    pub relation: MappingRelation,
}

#[derive(Deserialize)]
struct Span {
    file: String,
    line: Option<u32>,
    #[serde(rename = "endLine")]
    end_line: Option<u32>,
}

#[derive(Deserialize)]
struct Hint {
    span: Span,
    confidence: f64,
    origin: MappingOrigin,
    relation: MappingRelation,
}

#[derive(Deserialize)]
struct Ctx {
    #[serde(rename = "sourceHints", default)]
    source_hints: Vec<Box<RawValue>>,
}

/// The validated source mappings in a page context (`context.sourceHints`), in the page's order.
/// Bad hints are skipped one by one; a context without hints has none.
pub fn source_mappings(context: Option<&RawValue>) -> Vec<SourceMapping> {
    let Some(ctx) = context.and_then(|c| serde_json::from_str::<Ctx>(c.get()).ok()) else {
        return Vec::new();
    };
    ctx.source_hints
        .iter()
        .filter_map(|raw| serde_json::from_str::<Hint>(raw.get()).ok())
        .filter(|h| (0.0..=1.0).contains(&h.confidence))
        .filter_map(|h| {
            let file = h.span.file.strip_prefix("./").unwrap_or(&h.span.file);
            validate_changed_file(file).ok()?;
            Some(SourceMapping {
                file: file.to_owned(),
                line: h.span.line,
                end_line: h.span.end_line,
                confidence: h.confidence,
                origin: h.origin,
                relation: h.relation,
            })
        })
        .take(MAX_SOURCE_MAPPINGS)
        .collect()
}

/// The distinct source files a finding maps to, in the page's order: the slice planner's
/// `source_files`.
pub fn source_files(finding: &Finding) -> Vec<String> {
    let mut files: Vec<String> = Vec::new();
    for m in source_mappings(finding.context.as_deref()) {
        if !files.contains(&m.file) {
            files.push(m.file);
        }
    }
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(json: &str) -> Box<RawValue> {
        RawValue::from_string(json.to_owned()).unwrap()
    }

    #[test]
    fn valid_hints_map_and_bad_ones_are_dropped() {
        let ctx = raw(r#"{"untrusted":true,"sourceHints":[
            {"span":{"file":"src/Checkout.tsx","line":12,"column":3},"confidence":0.6,"origin":"boundary_hint","relation":"ancestor","registrationId":"checkout"},
            {"span":{"file":"./src/Button.tsx"},"confidence":1,"origin":"framework_adapter","relation":"exact","registrationId":"b"},
            {"span":{"file":"/etc/passwd"},"confidence":1,"origin":"source_map","relation":"exact","registrationId":"x"},
            {"span":{"file":"../up.ts"},"confidence":1,"origin":"source_map","relation":"exact","registrationId":"x"},
            {"span":{"file":"src/a.ts"},"confidence":7,"origin":"source_map","relation":"exact","registrationId":"x"},
            {"span":{"file":"src/b.ts"},"confidence":1,"origin":"guess","relation":"exact","registrationId":"x"},
            {"span":{"file":"src/Checkout.tsx"},"confidence":0.9,"origin":"source_map","relation":"exact","registrationId":"y"},
            "not a hint"
        ]}"#);
        let maps = source_mappings(Some(&ctx));
        let files: Vec<&str> = maps.iter().map(|m| m.file.as_str()).collect();
        assert_eq!(
            files,
            vec!["src/Checkout.tsx", "src/Button.tsx", "src/Checkout.tsx"]
        );
        assert_eq!(maps[0].line, Some(12));
        assert_eq!(maps[0].origin, MappingOrigin::BoundaryHint);
    }

    #[test]
    fn no_context_or_no_hints_maps_nothing() {
        assert!(source_mappings(None).is_empty());
        assert!(source_mappings(Some(&raw(r#"{"untrusted":true}"#))).is_empty());
        assert!(source_mappings(Some(&raw(r#"{"sourceHints":"x"}"#))).is_empty());
    }
}
