//! The `--ui` options of `observe`, `inspect` and an action's `--observe`: ask the Test Kit for
//! its UI understanding within a node and time budget, shown as read-only `@uN` facts. Defined
//! once and flattened wherever a view is asked for, so the flags, fields and bounds agree on the
//! command line and over MCP.

use super::bounded::Bounded;
use a3s_test_runner::session::ui::{UiBudget, DEFAULT_UI_NODES, DEFAULT_UI_TIME_MS};
use schemars::JsonSchema;
use serde::Deserialize;

/// UI understanding options.
#[derive(Debug, Clone, Default, PartialEq, clap::Args, Deserialize, JsonSchema)]
pub struct UiOptions {
    /// Also show the Test Kit's UI understanding as read-only `@uN` facts (overlaps, clips,
    /// motion, clusters, layout and scroll containers, changes); needs the Test Kit bridge.
    #[arg(long)]
    #[serde(default)]
    pub ui: bool,
    /// With ui: the most layout nodes the page reads (default 200, at most 1000).
    #[arg(long, value_name = "N", requires = "ui")]
    pub ui_nodes: Option<Bounded<u32, 1, 1000>>,
    /// With ui: the most milliseconds the page spends on it (default 32, at most 100).
    #[arg(long, value_name = "MS", requires = "ui")]
    pub ui_time_ms: Option<Bounded<u32, 1, 100>>,
}

impl UiOptions {
    /// The budget asked for, or `None` without `ui`; a budget without `ui` is refused, not
    /// ignored.
    pub fn budget(&self) -> Result<Option<UiBudget>, String> {
        if !self.ui {
            if self.ui_nodes.is_some() || self.ui_time_ms.is_some() {
                return Err("ui_nodes and ui_time_ms need ui".into());
            }
            return Ok(None);
        }
        Ok(Some(UiBudget {
            nodes: self.ui_nodes.map_or(DEFAULT_UI_NODES, Into::into),
            time_ms: self.ui_time_ms.map_or(DEFAULT_UI_TIME_MS, Into::into),
        }))
    }
}
