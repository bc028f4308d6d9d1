//! The shape of a finding's `target.layout` (Layout Mode): a placement of a new component or a
//! rearrange of an existing region. The ledger stores the layout verbatim (one canonical JSON
//! form), but checks it against these types first, so a later reader — the agent, verification —
//! can rely on the fields: a catalog component is told apart from a project component of the
//! same name by `componentSource`, and a blank page purpose is absent rather than `""`.

use crate::record::Rect;
use serde::Deserialize;

/// Longest component type or page purpose, in characters (the Test Kit's bound).
pub const MAX_LAYOUT_TEXT_CHARS: usize = 256;

/// Where a placement's `componentType` comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ComponentSource {
    /// A built-in catalog id (kebab-case, such as `date-picker`).
    Catalog,
    /// The name of one of the project's own components, kept exactly as typed.
    Project,
}

/// Where a placed component is shown while reviewing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Canvas {
    /// In the real page.
    Page,
    /// As a wireframe box.
    Wireframe,
}

/// A Layout Mode target, in the Test Kit's shape.
#[derive(Debug, Deserialize)]
#[serde(tag = "mode", rename_all = "snake_case", deny_unknown_fields)]
pub enum Layout {
    /// Place a new component at `destination`.
    #[serde(rename_all = "camelCase")]
    Placement {
        /// A catalog id or a project component name.
        component_type: String,
        /// Which of the two `component_type` is.
        component_source: ComponentSource,
        /// Page or wireframe.
        canvas: Canvas,
        /// What the page is for; absent when the reviewer left it blank.
        #[serde(default)]
        purpose: Option<String>,
        /// Where it goes (viewport CSS px).
        destination: Rect,
    },
    /// Move the region (and node, when known) at `original_region` to `destination`.
    #[serde(rename_all = "camelCase")]
    Rearrange {
        /// Where it is now.
        original_region: Rect,
        /// The node there, when the page could still resolve it.
        #[serde(default)]
        node_id: Option<String>,
        /// Where it goes.
        destination: Rect,
    },
}

fn is_catalog_id(s: &str) -> bool {
    !s.is_empty()
        && s.split('-').all(|part| {
            !part.is_empty()
                && part
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

fn check_rect(name: &str, r: &Rect) -> Result<(), String> {
    let finite = [r.x, r.y, r.width, r.height].iter().all(|v| v.is_finite());
    if !finite || r.width <= 0.0 || r.height <= 0.0 {
        return Err(format!(
            "layout.{name} must be finite with a positive width and height"
        ));
    }
    Ok(())
}

fn check_text(name: &str, s: &str) -> Result<(), String> {
    if s.trim().is_empty() {
        return Err(format!("layout.{name} must not be blank"));
    }
    if s.chars().count() > MAX_LAYOUT_TEXT_CHARS || s.contains('\0') {
        return Err(format!(
            "layout.{name} must be at most {MAX_LAYOUT_TEXT_CHARS} characters without NUL"
        ));
    }
    Ok(())
}

impl Layout {
    /// Parse and check a verbatim `target.layout`; the message names the field at fault.
    pub fn check(raw: &str) -> Result<Layout, String> {
        let layout: Layout =
            serde_json::from_str(raw).map_err(|e| format!("target.layout: {e}"))?;
        match &layout {
            Layout::Placement {
                component_type,
                component_source,
                purpose,
                destination,
                ..
            } => {
                check_text("componentType", component_type)?;
                if *component_source == ComponentSource::Catalog && !is_catalog_id(component_type) {
                    return Err(format!(
                        "layout.componentType {component_type:?} is not a catalog id (kebab-case); \
                         a project component needs \"componentSource\": \"project\""
                    ));
                }
                if let Some(p) = purpose {
                    check_text("purpose", p)
                        .map_err(|e| format!("{e} (leave it out when there is none)"))?;
                }
                check_rect("destination", destination)
            }
            Layout::Rearrange {
                original_region,
                node_id,
                destination,
            } => {
                if node_id
                    .as_ref()
                    .is_some_and(|n| n.is_empty() || n.len() > 128)
                {
                    return Err("layout.nodeId must be 1..=128 bytes".into());
                }
                check_rect("originalRegion", original_region)?;
                check_rect("destination", destination)
            }
        }
        .map(|()| layout)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEST: &str = r#""destination":{"x":0,"y":0,"width":10,"height":10}"#;

    fn placement(extra: &str) -> String {
        format!(r#"{{"mode":"placement","canvas":"page",{extra},{DEST}}}"#)
    }

    #[test]
    fn placements_name_their_component_source_and_may_omit_the_purpose() {
        let ok = [
            placement(r#""componentType":"date-picker","componentSource":"catalog""#),
            placement(
                r#""componentType":" Button ","componentSource":"project","purpose":"Checkout""#,
            ),
            format!(
                r#"{{"mode":"rearrange","originalRegion":{{"x":-5,"y":0,"width":10,"height":10}},"nodeId":"n1",{DEST}}}"#
            ),
        ];
        for raw in ok {
            assert!(Layout::check(&raw).is_ok(), "{raw}");
        }
        match Layout::check(&placement(
            r#""componentType":"button","componentSource":"project""#,
        )) {
            Ok(Layout::Placement {
                component_source,
                purpose,
                ..
            }) => {
                assert_eq!(component_source, ComponentSource::Project);
                assert_eq!(purpose, None);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn bad_layouts_are_refused_with_the_field() {
        let cases = [
            (
                placement(r#""componentType":"button""#),
                "componentSource",
            ),
            (
                placement(r#""componentType":"button","componentSource":"catalog","purpose":"""#),
                "purpose must not be blank",
            ),
            (
                placement(r#""componentType":"Button","componentSource":"catalog""#),
                "not a catalog id",
            ),
            (
                placement(r#""componentType":"  ","componentSource":"project""#),
                "componentType must not be blank",
            ),
            (
                placement(r#""componentType":"a","componentSource":"shop""#),
                "shop",
            ),
            (
                placement(r#""componentType":"a","componentSource":"project","color":"red""#),
                "color",
            ),
            (
                r#"{"mode":"placement","canvas":"page","componentType":"a","componentSource":"project","destination":{"x":0,"y":0,"width":0,"height":10}}"#.to_owned(),
                "destination",
            ),
            (r#"{"mode":"resize"}"#.to_owned(), "resize"),
        ];
        for (raw, want) in cases {
            let e = Layout::check(&raw).unwrap_err();
            assert!(e.contains(want), "{raw}: {e}");
        }
    }
}
