//! Tabs, frames, dialogs and the viewport.

use super::Outcome;
use crate::cdp::COMMAND_BOUND;
use crate::context::{detail, WebContext};
use crate::script;
use crate::steps::navigate;
use crate::tab::{describe_dialog, Tab};
use a3s_test_driver::failure::FailureCode;
use a3s_test_driver::{DialogStatus, OpenDialog, StepDetail, StepEnv, StepFailure, TabEntry};
use a3s_test_lang::ir::{DialogOperation, FrameTarget, TabOperation, TabRef};
use serde_json::{json, Value};
use tokio::time::Instant;

fn find_tab(ctx: &WebContext, tab: &TabRef) -> Result<usize, StepFailure> {
    let found = match tab {
        TabRef::Index(i) => Some(*i as usize).filter(|i| *i < ctx.tabs.len()),
        TabRef::Label(l) => labelled(ctx, l),
    };
    found.ok_or_else(|| {
        StepFailure::new(
            FailureCode::TabNotFound,
            format!("no open tab {} ({} open)", tab_name(tab), ctx.tabs.len()),
        )
    })
}

/// The index of `tab`. An index not open yet is waited for, up to the action timeout: a popup's
/// creation event may arrive after the click that opened it has returned. A label is not (a
/// popup never has one).
async fn wait_for_tab(
    ctx: &mut WebContext,
    tab: &TabRef,
    env: &StepEnv<'_>,
) -> Result<usize, StepFailure> {
    let start = Instant::now();
    let limit = (start + env.action_timeout).min(env.deadline);
    loop {
        match find_tab(ctx, tab) {
            Ok(i) => return Ok(i),
            Err(missing) if matches!(tab, TabRef::Label(_)) => return Err(missing),
            Err(mut missing) => {
                if !ctx.next_target_event(limit, env.deadline).await? {
                    let waited = start.elapsed().as_millis();
                    missing.message = format!("{} (waited {waited} ms)", missing.message);
                    return Err(missing);
                }
            }
        }
    }
}

/// The index of the open tab labelled `label`.
fn labelled(ctx: &WebContext, label: &str) -> Option<usize> {
    ctx.tabs
        .iter()
        .position(|t| t.label.as_deref() == Some(label))
}

fn tab_name(tab: &TabRef) -> String {
    match tab {
        TabRef::Index(i) => format!("#{i}"),
        TabRef::Label(l) => format!("{l:?}"),
    }
}

async fn tab_list(ctx: &WebContext, env: &StepEnv<'_>) -> Result<StepDetail, StepFailure> {
    let targets = ctx
        .cdp
        .call(
            None,
            "Target.getTargets",
            json!({}),
            COMMAND_BOUND,
            env.deadline,
        )
        .await?;
    let infos = targets
        .get("targetInfos")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let tabs = ctx
        .tabs
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let info = infos
                .iter()
                .find(|x| x["targetId"].as_str() == Some(t.target_id.as_str()));
            let field = |key: &str| info.and_then(|x| x[key].as_str()).map(str::to_string);
            TabEntry {
                index: i,
                label: t.label.clone(),
                url: field("url"),
                title: field("title"),
                current: i == ctx.current,
            }
        })
        .collect();
    Ok(StepDetail::Tabs { tabs })
}

/// `tab { operation … }`.
pub(crate) async fn tab(ctx: &mut WebContext, op: &TabOperation, env: &StepEnv<'_>) -> Outcome {
    match op {
        TabOperation::List => Ok(detail(tab_list(ctx, env).await?)),
        TabOperation::New { url, label } => {
            if let Some(l) = label {
                if labelled(ctx, l).is_some() {
                    return Err(StepFailure::new(
                        FailureCode::Unsupported,
                        format!("a tab labelled {l:?} is already open; labels must be unique"),
                    ));
                }
            }
            let mut tab = Tab::create(
                &ctx.cdp,
                &ctx.browser_context_id,
                ctx.viewport,
                &ctx.shared,
                env.deadline,
            )
            .await?;
            tab.label = label.clone();
            ctx.tabs.push(tab);
            ctx.current = ctx.tabs.len() - 1;
            if let Some(url) = url {
                navigate::navigate(ctx, url, env).await?;
            }
            Ok(detail(StepDetail::TabOpened {
                index: ctx.current,
                label: label.clone(),
            }))
        }
        TabOperation::Switch { tab } => {
            let i = wait_for_tab(ctx, tab, env).await?;
            ctx.current = i;
            let t = ctx.tab()?;
            t.session
                .call("Page.bringToFront", json!({}), COMMAND_BOUND, env.deadline)
                .await?;
            Ok(detail(StepDetail::TabSwitched { index: i }))
        }
        TabOperation::Close { tab } => {
            let i = match tab {
                Some(t) => find_tab(ctx, t)?,
                None => {
                    ctx.tab()?;
                    ctx.current
                }
            };
            let id = ctx.tabs[i].target_id.clone();
            ctx.cdp
                .call(
                    None,
                    "Target.closeTarget",
                    json!({ "targetId": id }),
                    COMMAND_BOUND,
                    env.deadline,
                )
                .await?;
            ctx.forget_tab(&id);
            Ok(detail(StepDetail::TabClosed {
                closed: i,
                open: ctx.tabs.len(),
            }))
        }
    }
}

/// `frame { target }`: later steps act in a same-origin iframe's document, or the top one.
pub(crate) async fn frame(
    ctx: &mut WebContext,
    target: &FrameTarget,
    env: &StepEnv<'_>,
) -> Outcome {
    match target {
        FrameTarget::Main => {
            ctx.tab_mut()?.frames.clear();
            Ok(detail(StepDetail::Frame {
                frame: "main".to_string(),
                url: None,
            }))
        }
        FrameTarget::Css { selector } => {
            let tab = ctx.tab()?;
            let args = json!({ "selector": selector });
            let r = script::call(tab, "frame_check", args, COMMAND_BOUND, env.deadline).await?;
            ctx.tab_mut()?.frames.push(selector.clone());
            Ok(detail(StepDetail::Frame {
                frame: selector.clone(),
                url: r.get("url").and_then(Value::as_str).map(str::to_string),
            }))
        }
        FrameTarget::Ref { reference } => Err(StepFailure::new(
            FailureCode::Unsupported,
            format!("frame ref(\"{reference}\") is only meaningful in an agent session; use css()"),
        )),
    }
}

/// `dialog { operation … }`.
pub(crate) async fn dialog(
    ctx: &mut WebContext,
    op: &DialogOperation,
    env: &StepEnv<'_>,
) -> Outcome {
    let tab = ctx.tab()?;
    let open = tab.dialog();
    let (accept, text) = match op {
        DialogOperation::Status => {
            let dialog = open.map(|d| OpenDialog {
                kind: d.kind,
                message: d.message,
                default_prompt: d.default_prompt,
                untrusted: true,
            });
            return Ok(detail(StepDetail::Dialog(DialogStatus {
                open: dialog.is_some(),
                dialog,
            })));
        }
        DialogOperation::Accept { text } => (true, text.clone()),
        DialogOperation::Dismiss => (false, None),
    };
    let Some(info) = open else {
        return Err(StepFailure::new(
            FailureCode::NoDialog,
            "no JavaScript dialog is open",
        ));
    };
    let mut params = json!({ "accept": accept });
    if let Some(text) = &text {
        params["promptText"] = json!(text);
    }
    tab.session
        .call(
            "Page.handleJavaScriptDialog",
            params,
            COMMAND_BOUND,
            env.deadline,
        )
        .await?;
    tab.state.dialog.send_replace(None);
    // Keys a press put down before the dialog opened come up now that input reaches the page.
    crate::input::release_modifiers(tab, env.deadline).await?;
    Ok(detail(StepDetail::DialogHandled {
        handled: describe_dialog(&info),
        accepted: accept,
    }))
}

/// `viewport { width height scale }` for the current tab (and tabs opened later).
pub(crate) async fn viewport(
    ctx: &mut WebContext,
    width: u32,
    height: u32,
    scale: Option<u32>,
    env: &StepEnv<'_>,
) -> Outcome {
    let tab = ctx.tab()?;
    let params = json!({
        "width": width, "height": height, "deviceScaleFactor": scale.unwrap_or(1), "mobile": false,
    });
    tab.session
        .call(
            "Emulation.setDeviceMetricsOverride",
            params,
            COMMAND_BOUND,
            env.deadline,
        )
        .await?;
    ctx.viewport = (width, height);
    Ok(detail(StepDetail::Viewport {
        width,
        height,
        scale: scale.unwrap_or(1),
    }))
}
