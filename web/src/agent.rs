//! What agent sessions need from a live context beyond `execute`: a raw snapshot of the current
//! tab's operable controls (accessibility tree + DOM attributes, each with its backend node id and
//! the document it came from) and resolving a target to its backend node id. A snapshot holds at
//! most [`MAX_CONTROLS`] controls, and a very large page is read through the bounded query of
//! `large_page.rs` instead of the whole tree.
//!
//! Why here: refs (`@eN`) are bound to one observation; the session must prove that the durable
//! target it will act through still names the *same* backend node before anything is dispatched.
//! Only the driver can talk to the tab, so it answers those two questions and nothing else; the
//! gates and ref tables live in the runner (`runner/src/session`).

use super::agent_repair::{self, Log};
use super::cdp::COMMAND_BOUND;
use super::context::WebContext;
use super::large_page::LARGE_PAGE_ELEMENTS;
use super::operable::{Candidates, Operable};
use super::review_overlay;
use super::script;
use a3s_test_driver::api::{
    AgentContext, AgentDriver, BrowserProcess, ControlNode, Cut, GroundingCapture, LayoutFacts,
    NetworkFilter, PageContextMethod, PageContextReply, PageSnapshot, PageText, PixelRegion,
    Settled, TargetFacts, TargetPrivacy, MAX_CONTROLS, OPERABLE_ROLES,
};
use a3s_test_driver::privacy;
use a3s_test_driver::{RefProof, StepFailure};
use a3s_test_lang::ir::Target;
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::Duration;
use tokio::time::Instant;

/// Roles whose name is page text worth showing in a full observation.
const TEXT_ROLES: &[&str] = &[
    "heading",
    "StaticText",
    "paragraph",
    "alert",
    "status",
    "img",
];

/// States copied from the accessibility tree.
const STATES: &[&str] = &[
    "focused", "disabled", "checked", "expanded", "selected", "pressed", "required", "invalid",
    "readonly",
];

/// DOM attributes recorded for durable targets.
const ATTRIBUTES: &[&str] = &[
    "id",
    "data-testid",
    "placeholder",
    "name",
    "type",
    "aria-label",
];

/// Of [`ATTRIBUTES`], those whose words could repeat a redacted region's text: not recorded
/// for a node inside one.
const WORDED_ATTRIBUTES: &[&str] = &["placeholder", "name", "aria-label"];

fn str_at(v: &Value, pointer: &str) -> Option<String> {
    v.pointer(pointer).and_then(|x| match x {
        Value::String(s) => Some(s.clone()),
        Value::Null => None,
        other => Some(other.to_string()),
    })
}

impl AgentContext for WebContext {
    /// The current tab's top document: URL and loader id.
    async fn document_identity(&self, deadline: Instant) -> Result<(String, String), StepFailure> {
        let tab = self.tab()?;
        let tree = tab
            .session
            .call("Page.getFrameTree", json!({}), COMMAND_BOUND, deadline)
            .await?;
        let frame = &tree["frameTree"]["frame"];
        let url = str_at(frame, "/url").unwrap_or_default();
        let loader = str_at(frame, "/loaderId").unwrap_or_default();
        Ok((url, loader))
    }

    /// Snapshot the operable controls of the current tab's top document.
    async fn snapshot_controls(&self, deadline: Instant) -> Result<PageSnapshot, StepFailure> {
        let tab = self.tab()?;
        tab.fail_if_dialog()?;
        // Two independent reads of the document: sent together.
        let (identity, count) = futures_util::future::join(
            self.document_identity(deadline),
            self.element_count(deadline),
        )
        .await;
        let (url, loader_id) = identity?;
        // A very large page is read through one bounded query, never as one whole tree; it
        // answers tags and attributes too.
        if count? > LARGE_PAGE_ELEMENTS {
            let page = self.large_page(deadline).await?;
            return Ok(PageSnapshot {
                url,
                loader_id,
                controls: page.controls,
                texts: page.texts,
                truncated: !page.cut.is_empty(),
                cut: page.cut,
            });
        }
        let mut controls: Vec<ControlNode> = Vec::new();
        let mut texts: Vec<PageText> = Vec::new();
        // Nodes nothing of which may be reported beyond their role (inside a redacted region).
        let hidden_nodes: HashSet<i64>;
        let truncated = {
            // The accessibility tree and the operable-element query are independent reads of
            // the same document: sent together.
            let tree = tab.session.call(
                "Accessibility.getFullAXTree",
                json!({}),
                COMMAND_BOUND,
                deadline,
            );
            let (reply, candidates, overlay, private) = futures_util::future::join4(
                tree,
                self.operable_candidates(deadline),
                self.review_overlay_host(deadline),
                self.private_nodes(deadline),
            )
            .await;
            let mut reply = reply?;
            let mut empty = Vec::new();
            let all = reply["nodes"].as_array_mut().unwrap_or(&mut empty);
            // Private values and regions never reach a control, a text or a name.
            hidden_nodes = privacy::redact_ax(all, &private?).hidden;
            let all = &*all;
            // The Review Overlay is the reviewer's: none of its controls become refs.
            let order = review_overlay::without_overlay(tree_order(all), overlay?);
            let extra = extras(all, &order, &candidates);
            collect(order.into_iter(), &extra, &mut controls, &mut texts)
        };
        // DOM attributes for durable targets; the calls are independent, so they are pipelined.
        let describes = controls.iter().map(|c| {
            tab.session.call(
                "DOM.describeNode",
                json!({ "backendNodeId": c.backend_node_id }),
                COMMAND_BOUND,
                deadline,
            )
        });
        let described = futures_util::future::join_all(describes).await;
        for (control, reply) in controls.iter_mut().zip(described) {
            let Ok(reply) = reply else { continue };
            let node = &reply["node"];
            control.tag = node["nodeName"].as_str().unwrap_or("").to_lowercase();
            let flat = node["attributes"].as_array().cloned().unwrap_or_default();
            // Inside a redacted region only what names no content is kept.
            let hidden = hidden_nodes.contains(&control.backend_node_id);
            for pair in flat.chunks(2) {
                if let [Value::String(k), Value::String(v)] = pair {
                    if ATTRIBUTES.contains(&k.as_str())
                        && !(hidden && WORDED_ATTRIBUTES.contains(&k.as_str()))
                    {
                        control.attributes.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        // A listener or cursor on the page's root elements is delegation, not a control.
        controls.retain(|c| {
            OPERABLE_ROLES.contains(&c.role.as_str()) || !matches!(c.tag.as_str(), "html" | "body")
        });
        Ok(PageSnapshot {
            url,
            loader_id,
            controls,
            texts,
            truncated,
            cut: if truncated {
                vec![Cut::Cap]
            } else {
                Vec::new()
            },
        })
    }

    /// Wait for a quiet page (see `settle.rs`).
    async fn settle(
        &self,
        quiet: Duration,
        cap: Duration,
        deadline: Instant,
    ) -> Result<Settled, StepFailure> {
        self.settle_page(quiet, cap, deadline).await
    }

    /// Enforce a network policy in the browser: every request of every tab (document loads
    /// included) is paused, and those `allow` refuses fail with `BlockedByClient`.
    async fn set_network_filter(
        &mut self,
        allow: NetworkFilter,
        deadline: Instant,
    ) -> Result<(), StepFailure> {
        *self
            .shared
            .network_filter
            .lock()
            .expect("network filter lock") = Some(allow);
        for tab in &self.tabs {
            super::route::apply_patterns(tab, &self.shared, deadline).await?;
        }
        Ok(())
    }

    /// URLs the network filter blocked so far (untrusted: the page chose them).
    fn blocked_requests(&self) -> Vec<String> {
        self.shared.blocked.lock().expect("blocked lock").clone()
    }

    /// The first of `candidates` that names exactly one element of the current frame which is
    /// the node `expected` (any one element when `expected` is `None`); with
    /// `structural_fallback`, a CSS path to `expected` (verified the same way) when no candidate
    /// does. `None`: nothing names that node — the ref is stale.
    ///
    /// Each candidate costs two round trips: the resolver's strict `element` lookup, then its
    /// backend node id with the release of the remote object pipelined behind it. A candidate
    /// that fails to resolve (none, several, an error) is simply not the one.
    async fn target_naming(
        &self,
        expected: Option<i64>,
        candidates: &[Target],
        deadline: Instant,
    ) -> Result<RefProof, StepFailure> {
        for candidate in candidates {
            if self.names(expected, candidate, deadline).await {
                return Ok(RefProof::Named(candidate.clone()));
            }
        }
        let Some(node) = expected else {
            return Ok(RefProof::Unnamed);
        };
        let tab = self.tab()?;
        let Some(found) =
            script::call_on_node(tab, "locate_node", json!({}), node, deadline).await?
        else {
            return Ok(RefProof::Gone);
        };
        if found.get("connected") != Some(&Value::Bool(true)) {
            return Ok(RefProof::Gone);
        }
        Ok(
            match found
                .get("locator")
                .and_then(|l| serde_json::from_value::<Target>(l.clone()).ok())
            {
                Some(locator) => RefProof::Named(locator),
                None => RefProof::Unnamed,
            },
        )
    }

    /// Call a Test Kit bridge method in the current tab's top document.
    async fn page_context_call(
        &self,
        method: PageContextMethod,
        arg: &Value,
        deadline: Instant,
    ) -> Result<PageContextReply, StepFailure> {
        let expression = match method {
            PageContextMethod::WaitForRepairChange => {
                format!("{REPAIR_CHANGE_JS}({BRIDGE}, {arg})")
            }
            _ => format!(
                "{PAGE_CONTEXT_JS}({BRIDGE}, {}, {})",
                Value::String(method.name().into()),
                arg
            ),
        };
        let bound = deadline
            .saturating_duration_since(Instant::now())
            .min(BRIDGE_CALL_BOUND);
        let reply = self
            .evaluate_reply(&expression, true, bound, deadline)
            .await?;
        if reply.get("exceptionDetails").is_some() {
            return Ok(PageContextReply::Threw(
                "evaluating the bridge call threw".into(),
            ));
        }
        let value = reply
            .pointer("/result/value")
            .cloned()
            .unwrap_or(Value::Null);
        if value.get("present") != Some(&Value::Bool(true)) {
            return Ok(PageContextReply::Absent);
        }
        if let Some(e) = value.get("error") {
            let text: String = e.as_str().unwrap_or("error").chars().take(500).collect();
            return Ok(PageContextReply::Threw(text));
        }
        Ok(PageContextReply::Value(
            value.get("value").cloned().unwrap_or(Value::Null),
        ))
    }

    /// The backend node id of the element the Test Kit bridge resolves `node_id` to (`None`
    /// when there is no bridge or the node is gone). Lets a session prove that the locator it
    /// dispatches a `@cN` ref through names the *same* element as the Page Context node.
    async fn page_context_backend_node(
        &self,
        node_id: &str,
        deadline: Instant,
    ) -> Result<Option<i64>, StepFailure> {
        let expression = format!(
            r#"(() => {{ const b = {BRIDGE};
  if (b === undefined || b === null || typeof b.resolve !== "function") return null;
  try {{ const el = b.resolve({}); return el instanceof Element ? el : null; }} catch (e) {{ return null; }}
}})()"#,
            Value::String(node_id.to_string())
        );
        self.backend_node_of(&expression, deadline).await
    }

    /// Console messages of the current tab since its document loaded (bounded).
    fn console_since_load(&self) -> (Vec<Value>, usize) {
        agent_repair::since_load(self, Log::Console)
    }

    /// Uncaught page errors of the current tab since its document loaded (bounded).
    fn page_errors_since_load(&self) -> (Vec<Value>, usize) {
        agent_repair::since_load(self, Log::PageErrors)
    }

    /// A PNG of the current tab's viewport.
    async fn screenshot_png(&self, deadline: Instant) -> Result<Vec<u8>, StepFailure> {
        agent_repair::screenshot(self, deadline).await
    }

    async fn grounding_capture(&self, deadline: Instant) -> Result<GroundingCapture, StepFailure> {
        super::ground_capture::capture(self, deadline).await
    }

    async fn frame_digest(&self, deadline: Instant) -> Result<String, StepFailure> {
        super::ground_capture::frame_digest(self, deadline).await
    }

    async fn frame_region(
        &self,
        region: PixelRegion,
        scale: f64,
        deadline: Instant,
    ) -> Result<Option<Vec<u8>>, StepFailure> {
        super::ground_capture::frame_region(self, region, scale, deadline).await
    }

    /// How many elements `target` names and the facts of the one it names.
    async fn target_facts(
        &self,
        target: &Target,
        deadline: Instant,
    ) -> Result<TargetFacts, StepFailure> {
        agent_repair::target_facts(self, target, deadline).await
    }

    /// Viewport, scroll, the element at a point and a target's box (Layout Mode checks).
    async fn layout_facts(
        &self,
        point: Option<(f64, f64)>,
        target: Option<&Target>,
        deadline: Instant,
    ) -> Result<LayoutFacts, StepFailure> {
        agent_repair::layout_facts(self, point, target, deadline).await
    }

    /// The visible text of the current frame's document.
    async fn page_text(&self, deadline: Instant) -> Result<String, StepFailure> {
        agent_repair::page_text(self, deadline).await
    }

    async fn page_context_hits(
        &self,
        node_ids: &[String],
        points: &[(f64, f64)],
        deadline: Instant,
    ) -> Result<Vec<Option<usize>>, StepFailure> {
        super::ground_hits::hits(self, node_ids, points, deadline).await
    }

    async fn backend_node_hits(
        &self,
        backend_node_ids: &[i64],
        points: &[(f64, f64)],
        deadline: Instant,
    ) -> Result<Vec<Option<usize>>, StepFailure> {
        super::ground_hits::node_hits(self, backend_node_ids, points, deadline).await
    }

    async fn target_privacy(
        &self,
        target: Option<&Target>,
        deadline: Instant,
    ) -> Result<TargetPrivacy, StepFailure> {
        agent_repair::target_privacy(self, target, deadline).await
    }
}

impl WebContext {
    /// True when `target` names exactly one element and (when given) it is node `expected`.
    async fn names(&self, expected: Option<i64>, target: &Target, deadline: Instant) -> bool {
        let Ok(tab) = self.tab() else {
            return false;
        };
        let Ok(object) = script::element_object(tab, target, deadline, None).await else {
            return false;
        };
        let Some(expected) = expected else {
            script::release_object(tab, &object, deadline).await;
            return true;
        };
        script::backend_node_and_release(tab, &object, deadline)
            .await
            .ok()
            .flatten()
            == Some(expected)
    }
}

impl AgentDriver for super::WebDriver {
    fn endpoint(&self) -> &str {
        super::WebDriver::endpoint(self)
    }

    fn browser_process(&self) -> Option<BrowserProcess> {
        super::WebDriver::browser_process(self)
    }
}

/// Turn accessibility nodes (in document order) into controls and page texts, the nodes of
/// `extra` (backend id → name) being controls too whatever their role (see `operable.rs`);
/// stops at [`MAX_CONTROLS`] controls and returns true when more were left.
///
/// Every text is kept where it stands, repeats included (a grid's axis labels mean something
/// each time), except text inside a listed control or text node: the control's name or value
/// (a textarea's content) already says it. An operable element of `extra` covers its text the
/// same way when it is named (its name is its text); an unnamed one leaves its text listed, as
/// that text is the only thing saying what it holds. Adjacent runs of one block
/// (`Hello <b>you</b>`) are joined into one text ([`join_run`]).
fn collect<'a>(
    nodes: impl Iterator<Item = &'a Value>,
    extra: &HashMap<i64, String>,
    controls: &mut Vec<ControlNode>,
    texts: &mut Vec<PageText>,
) -> bool {
    use std::collections::HashSet;
    // Nodes whose text is already said (a listed control or text, and everything inside it).
    let mut covered: HashSet<&str> = HashSet::new();
    // For an ignored node (a `<b>`, a `<span>`): the nearest ancestor that is not ignored.
    let mut host_of_ignored: HashMap<&str, &str> = HashMap::new();
    // The block the last text run belongs to, while no control came after it.
    let mut last_run: Option<&str> = None;
    for n in nodes {
        let id = n["nodeId"].as_str().unwrap_or("");
        let parent = n["parentId"].as_str();
        let host = parent.map(|p| host_of_ignored.get(p).copied().unwrap_or(p));
        let inside = parent.is_some_and(|p| covered.contains(p));
        if inside {
            covered.insert(id);
        }
        let backend = n.get("backendDOMNodeId").and_then(Value::as_i64);
        if let Some((backend, name)) = backend.and_then(|b| Some((b, extra.get(&b)?))) {
            if controls.len() >= MAX_CONTROLS {
                return true;
            }
            let role = str_at(n, "/role/value")
                .filter(|r| !r.is_empty() && r != "none")
                .unwrap_or_else(|| "generic".into());
            if !name.trim().is_empty() {
                covered.insert(id);
            }
            last_run = None;
            controls.push(control_of(n, backend, role, name.clone()));
            continue;
        }
        if n["ignored"] == Value::Bool(true) {
            if let Some(h) = host {
                host_of_ignored.insert(id, h);
            }
            continue;
        }
        let role = str_at(n, "/role/value").unwrap_or_default();
        let name = str_at(n, "/name/value").unwrap_or_default();
        if !OPERABLE_ROLES.contains(&role.as_str()) {
            let show = !inside
                && texts.len() < TEXT_LIMIT
                && TEXT_ROLES.contains(&role.as_str())
                && !name.trim().is_empty()
                && !name.chars().all(|c| c == '\u{2022}' || c.is_whitespace());
            if show {
                covered.insert(id);
                let joins = role == "StaticText"
                    && host.is_some()
                    && last_run == host
                    && texts.last().is_some_and(|t| {
                        t.role == "StaticText" && t.controls_before == Some(controls.len())
                    });
                match texts.last_mut() {
                    Some(last) if joins => join_run(&mut last.text, &name),
                    _ => texts.push(PageText {
                        role: role.clone(),
                        text: name,
                        controls_before: Some(controls.len()),
                    }),
                }
                last_run = if role == "StaticText" { host } else { None };
            }
            continue;
        }
        let Some(backend) = n.get("backendDOMNodeId").and_then(Value::as_i64) else {
            continue;
        };
        if controls.len() >= MAX_CONTROLS {
            return true;
        }
        covered.insert(id);
        last_run = None;
        controls.push(control_of(n, backend, role, name));
    }
    false
}

/// Append a text run to the one before it: separate elements (`<span>Ann</span><span>@ann</span>`)
/// are separate words unless the page put whitespace or punctuation at the seam.
fn join_run(text: &mut String, run: &str) {
    let seam = text.ends_with(char::is_whitespace)
        || run.starts_with(char::is_whitespace)
        || run.starts_with([',', '.', ';', ':', '!', '?', ')']);
    if !seam {
        text.push(' ');
    }
    text.push_str(run);
}

/// Most page-text entries a snapshot keeps (a full observation lists up to 400).
const TEXT_LIMIT: usize = 1_000;

fn control_of(n: &Value, backend: i64, role: String, name: String) -> ControlNode {
    let mut states = BTreeMap::new();
    for p in n["properties"].as_array().into_iter().flatten() {
        let key = p["name"].as_str().unwrap_or("");
        let value = p.pointer("/value/value").cloned().unwrap_or(Value::Null);
        // "false"/false for states that are off by default is noise in a compact view.
        let off = matches!(&value, Value::Bool(false)) || value.as_str() == Some("false");
        if off && !matches!(key, "checked" | "expanded" | "pressed" | "selected") {
            continue;
        }
        if STATES.contains(&key) {
            states.insert(key.to_string(), value);
        }
    }
    let named_by_label = n
        .pointer("/name/sources")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .any(|src| {
            src.get("value").is_some()
                && src.get("superseded") != Some(&Value::Bool(true))
                && src["nativeSource"]
                    .as_str()
                    .is_some_and(|k| k.starts_with("label"))
        });
    ControlNode {
        named_by_label,
        backend_node_id: backend,
        role,
        name,
        value: str_at(n, "/value/value").filter(|s| !s.is_empty()),
        states,
        tag: String::new(),
        attributes: BTreeMap::new(),
    }
}

/// Ignored-node reasons that mean the element cannot be seen or reached.
const HIDDEN_REASONS: &[&str] = &[
    "notRendered",
    "notVisible",
    "ariaHiddenElement",
    "ariaHiddenSubtree",
    "inertElement",
    "inertSubtree",
];

/// True when the accessibility node `n` is ignored for a reason in [`HIDDEN_REASONS`].
fn hidden(n: &Value) -> bool {
    n["ignoredReasons"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|r| {
            r["name"]
                .as_str()
                .is_some_and(|k| HIDDEN_REASONS.contains(&k))
        })
}

/// Longest text an operable element without a name is named by, in characters.
const EXTRA_NAME: usize = 120;
/// Most accessibility nodes read to name one such element.
const EXTRA_NAME_NODES: usize = 200;

/// The candidates of `operable.rs` that are controls, each with its name: visible, not the
/// document, not already an operable role, and (for [`Operable::Leaf`]) containing no other
/// operable element. Named by their accessible name, else by the text they contain.
fn extras(nodes: &[Value], order: &[&Value], candidates: &Candidates) -> HashMap<i64, String> {
    if candidates.is_empty() {
        return HashMap::new();
    }
    let id_of = |n: &Value| n.get("nodeId").and_then(Value::as_str).map(str::to_owned);
    let index: HashMap<String, usize> = nodes
        .iter()
        .enumerate()
        .filter_map(|(i, n)| Some((id_of(n)?, i)))
        .collect();
    let role_of = |n: &Value| str_at(n, "/role/value").unwrap_or_default();
    let backend_of = |n: &Value| n.get("backendDOMNodeId").and_then(Value::as_i64);
    let operable = |n: &Value| {
        (n["ignored"] != Value::Bool(true) && OPERABLE_ROLES.contains(&role_of(n).as_str()))
            || backend_of(n).is_some_and(|b| candidates.contains_key(&b))
    };
    // Whether some strict descendant is operable: children come after their parent in
    // document order, so the reversed order sees every child first.
    let mut contains: HashMap<String, bool> = HashMap::new();
    for n in order.iter().rev() {
        let id = id_of(n).unwrap_or_default();
        let below = contains.get(&id).copied().unwrap_or(false);
        if below || operable(n) {
            if let Some(parent) = n.get("parentId").and_then(Value::as_str) {
                contains.insert(parent.to_owned(), true);
            }
        }
    }
    let mut out = HashMap::new();
    for n in order {
        let Some(backend) = backend_of(n) else {
            continue;
        };
        let Some(kind) = candidates.get(&backend) else {
            continue;
        };
        let role = role_of(n);
        if OPERABLE_ROLES.contains(&role.as_str()) || role == "RootWebArea" {
            continue;
        }
        let hidden = hidden(n);
        let id = id_of(n).unwrap_or_default();
        if hidden || (*kind == Operable::Leaf && contains.get(&id).copied().unwrap_or(false)) {
            continue;
        }
        let own = str_at(n, "/name/value").unwrap_or_default();
        let name = if own.trim().is_empty() {
            subtree_text(nodes, &index, n)
        } else {
            own
        };
        out.insert(backend, name);
    }
    out
}

/// The text under `node` (its static-text descendants, in order), at most [`EXTRA_NAME`]
/// characters, reading at most [`EXTRA_NAME_NODES`] nodes.
fn subtree_text(nodes: &[Value], index: &HashMap<String, usize>, node: &Value) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut length = 0;
    let mut stack: Vec<&Value> = vec![node];
    let mut read = 0;
    while let Some(n) = stack.pop() {
        read += 1;
        if read > EXTRA_NAME_NODES || length > EXTRA_NAME {
            break;
        }
        if str_at(n, "/role/value").as_deref() == Some("StaticText") {
            let text = str_at(n, "/name/value").unwrap_or_default();
            let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
            if !text.is_empty() {
                length += text.chars().count() + 1;
                parts.push(text);
            }
            continue;
        }
        let children: Vec<&Value> = n["childIds"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|c| c.as_str().and_then(|id| index.get(id)))
            .map(|&i| &nodes[i])
            .collect();
        stack.extend(children.into_iter().rev());
    }
    let joined = parts.join(" ");
    if joined.chars().count() <= EXTRA_NAME {
        joined
    } else {
        let mut out: String = joined.chars().take(EXTRA_NAME - 1).collect();
        out.push('…');
        out
    }
}

/// The nodes of a `getFullAXTree` reply in document (depth-first) order (borrowed, not copied:
/// the tree of a large page is big).
fn tree_order(nodes: &[Value]) -> Vec<&Value> {
    use std::collections::HashMap;
    let index: HashMap<&str, usize> = nodes
        .iter()
        .enumerate()
        .filter_map(|(i, n)| n.get("nodeId").and_then(Value::as_str).map(|id| (id, i)))
        .collect();
    let Some(root) = nodes.iter().position(|n| n.get("parentId").is_none()) else {
        return nodes.iter().collect();
    };
    let mut out = Vec::with_capacity(nodes.len());
    let mut seen = vec![false; nodes.len()];
    let mut stack = vec![root];
    while let Some(i) = stack.pop() {
        if std::mem::replace(&mut seen[i], true) {
            continue;
        }
        out.push(&nodes[i]);
        let children: Vec<usize> = nodes[i]["childIds"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|c| c.as_str().and_then(|id| index.get(id)).copied())
            .collect();
        stack.extend(children.into_iter().rev());
    }
    // Nodes not reachable from the root keep their reply order, after the tree.
    out.extend(nodes.iter().zip(seen).filter(|(_, s)| !s).map(|(n, _)| n));
    out
}

/// The Test Kit bridge: looked up under its global symbol, never through page-chosen code paths.
pub(crate) const BRIDGE: &str = r#"window[Symbol.for("a3s.test.page-context")]"#;

/// Calls one method of the bridge `b` by name with one JSON argument (`b` is `BRIDGE`, passed in
/// by the caller's expression).
const PAGE_CONTEXT_JS: &str = r#"(async (b, method, arg) => {
  if (b === undefined || b === null) return { present: false };
  if (typeof b[method] !== "function") return { present: true, error: "the bridge has no " + method + "()" };
  try { return { present: true, value: await b[method](arg) }; }
  catch (e) { return { present: true, error: String((e && e.message) || e).slice(0, 500) }; }
})"#;

/// Waits for a change of the page's repair queue through `subscribeRepairs`. One subscription
/// per document keeps a counter under its own symbol (`epoch` is random per document, so a reload
/// is seen); the call answers `{epoch, count}` at once when the counter is past `arg.since` of
/// the same epoch, else at the next change or after `arg.timeoutMs` (at most 60 s).
const REPAIR_CHANGE_JS: &str = r#"(async (b, arg) => {
  if (b === undefined || b === null) return { present: false };
  if (typeof b.subscribeRepairs !== "function") return { present: true, error: "the bridge has no subscribeRepairs()" };
  const key = Symbol.for("a3s.test.dev.repair-changes");
  let w = window[key];
  if (w === undefined) {
    w = { epoch: Math.random().toString(16).slice(2), count: 0, waiters: new Set() };
    try {
      b.subscribeRepairs(() => { w.count += 1; for (const f of w.waiters) f(); w.waiters.clear(); });
    } catch (e) { return { present: true, error: String((e && e.message) || e).slice(0, 500) }; }
    Object.defineProperty(window, key, { value: w });
  }
  const since = arg && arg.since;
  const now = () => ({ present: true, value: { epoch: w.epoch, count: w.count } });
  if (!since || since.epoch !== w.epoch || w.count > since.count) return now();
  const ms = Math.min(Math.max(Number(arg.timeoutMs) || 0, 0), 60000);
  return await new Promise((resolve) => {
    const done = () => { clearTimeout(t); w.waiters.delete(done); resolve(now()); };
    const t = setTimeout(done, ms);
    w.waiters.add(done);
  });
})"#;

/// The longest one bridge call may take (the scenario deadline still wins): the Test Kit accepts
/// waits of up to 300 s (`MAX_TIMEOUT_MS` in `testkit/src/timeouts.ts`, e.g. `waitForDiff`'s
/// `timeoutMs`), plus 10 s for the snapshot that follows the wait and the round trip. A longer
/// call means the page is wedged; a dialog opened meanwhile fails it at once instead.
const BRIDGE_CALL_BOUND: Duration = Duration::from_secs(310);

#[cfg(test)]
mod tests {
    use super::*;

    /// A tiny accessibility tree: root → [generic card "" → text "Open card", generic wrap →
    /// button "Inner", generic hidden].
    fn tree() -> Vec<Value> {
        vec![
            json!({ "nodeId": "1", "role": { "value": "RootWebArea" }, "childIds": ["2", "4", "6"], "backendDOMNodeId": 1 }),
            json!({ "nodeId": "2", "parentId": "1", "ignored": true, "role": { "value": "none" }, "childIds": ["3"], "backendDOMNodeId": 10 }),
            json!({ "nodeId": "3", "parentId": "2", "role": { "value": "StaticText" }, "name": { "value": "Open  card" }, "backendDOMNodeId": 11 }),
            json!({ "nodeId": "4", "parentId": "1", "role": { "value": "generic" }, "childIds": ["5"], "backendDOMNodeId": 20 }),
            json!({ "nodeId": "5", "parentId": "4", "role": { "value": "button" }, "name": { "value": "Inner" }, "backendDOMNodeId": 21 }),
            json!({ "nodeId": "6", "parentId": "1", "ignored": true, "ignoredReasons": [{ "name": "notRendered" }], "role": { "value": "generic" }, "backendDOMNodeId": 30 }),
        ]
    }

    #[test]
    fn operable_elements_become_controls_named_by_their_text() {
        let nodes = tree();
        let order = tree_order(&nodes);
        let candidates: Candidates = [
            (1, Operable::Leaf),
            (10, Operable::Leaf),
            (20, Operable::Leaf),
            (30, Operable::Always),
        ]
        .into_iter()
        .collect();
        let extra = extras(&nodes, &order, &candidates);
        // The card is named by its text; the container of a button, the document and a hidden
        // element are not controls.
        assert_eq!(extra.len(), 1, "{extra:?}");
        assert_eq!(extra[&10], "Open card");
        let mut controls = Vec::new();
        let truncated = collect(order.into_iter(), &extra, &mut controls, &mut Vec::new());
        assert!(!truncated);
        let listed: Vec<(&str, &str)> = controls
            .iter()
            .map(|c| (c.role.as_str(), c.name.as_str()))
            .collect();
        assert_eq!(listed, [("generic", "Open card"), ("button", "Inner")]);
        // A draggable container stays a control even around other controls.
        let always: Candidates = [(20, Operable::Always)].into_iter().collect();
        let nodes = tree();
        let extra = extras(&nodes, &tree_order(&nodes), &always);
        assert_eq!(extra[&20], "");
    }

    fn node(id: &str, parent: Option<&str>, role: &str, name: &str) -> Value {
        let mut n = json!({ "nodeId": id, "role": { "value": role }, "name": { "value": name } });
        if let Some(p) = parent {
            n["parentId"] = json!(p);
        }
        n
    }

    #[test]
    fn texts_keep_their_place_and_repeats_but_not_what_a_control_or_heading_says() {
        let mut textarea = node("5", Some("1"), "textbox", "Note");
        textarea["backendDOMNodeId"] = json!(50);
        textarea["value"] = json!({ "value": "said once" });
        let mut ignored_b = node("9", Some("8"), "generic", "");
        ignored_b["ignored"] = json!(true);
        let nodes = vec![
            node("1", None, "RootWebArea", "page"),
            node("2", Some("1"), "heading", "Title"),
            node("3", Some("2"), "StaticText", "Title"),
            node("4p", Some("1"), "generic", ""),
            node("4", Some("4p"), "StaticText", "1"),
            node("4q", Some("1"), "generic", ""),
            node("4b", Some("4q"), "StaticText", "1"),
            textarea,
            node("6", Some("5"), "StaticText", "said once"),
            node("8", Some("1"), "paragraph", ""),
            node("8a", Some("8"), "StaticText", "Hello "),
            ignored_b,
            node("9a", Some("9"), "StaticText", "world"),
            node("8c", Some("8"), "StaticText", ", again"),
            node("8d", Some("8"), "StaticText", "Ann"),
            node("8e", Some("8"), "StaticText", "@ann"),
        ];
        let (mut controls, mut texts) = (Vec::new(), Vec::new());
        assert!(!collect(
            nodes.iter(),
            &HashMap::new(),
            &mut controls,
            &mut texts
        ));
        assert_eq!(controls.len(), 1);
        assert_eq!(controls[0].value.as_deref(), Some("said once"));
        let got: Vec<(&str, &str, Option<usize>)> = texts
            .iter()
            .map(|t| (t.role.as_str(), t.text.as_str(), t.controls_before))
            .collect();
        assert_eq!(
            got,
            vec![
                ("heading", "Title", Some(0)),
                ("StaticText", "1", Some(0)),
                ("StaticText", "1", Some(0)),
                ("StaticText", "Hello world, again Ann @ann", Some(1)),
            ]
        );
    }
}
