//! Tabs, frames, dialogs and the viewport.

use crate::failure::FailureCode;
use crate::web::cdp::COMMAND_BOUND;
use crate::web::context::{detail, WebContext};
use crate::web::script;
use crate::web::steps::navigate;
use crate::web::tab::{describe_dialog, Tab};
use crate::{StepEnv, StepFailure, StepOutput};
use a3s_test_lang::ir::{DialogOperation, FrameTarget, TabOperation, TabRef};
use serde_json::{json, Value};

fn find_tab(ctx: &WebContext, tab: &TabRef) -> Result<usize, StepFailure> {
    let found = match tab {
        TabRef::Index(i) => (*i as usize) < ctx.tabs.len(),
        TabRef::Label(l) => ctx
            .tabs
            .iter()
            .any(|t| t.label.as_deref() == Some(l.as_str())),
    };
    if !found {
        return Err(StepFailure::new(
            FailureCode::TabNotFound,
            format!("no open tab {} ({} open)", tab_name(tab), ctx.tabs.len()),
        ));
    }
    Ok(match tab {
        TabRef::Index(i) => *i as usize,
        TabRef::Label(l) => ctx
            .tabs
            .iter()
            .position(|t| t.label.as_deref() == Some(l.as_str()))
            .expect("found"),
    })
}

fn tab_name(tab: &TabRef) -> String {
    match tab {
        TabRef::Index(i) => format!("#{i}"),
        TabRef::Label(l) => format!("{l:?}"),
    }
}

async fn tab_list(ctx: &WebContext, env: &StepEnv<'_>) -> Result<Value, StepFailure> {
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
    let list: Vec<Value> = ctx
        .tabs
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let info = infos
                .iter()
                .find(|x| x["targetId"].as_str() == Some(t.target_id.as_str()));
            json!({
                "index": i,
                "label": t.label,
                "url": info.map(|x| x["url"].clone()).unwrap_or(Value::Null),
                "title": info.map(|x| x["title"].clone()).unwrap_or(Value::Null),
                "current": i == ctx.current,
            })
        })
        .collect();
    Ok(json!({ "tabs": list }))
}

/// `tab { operation … }`.
pub(crate) async fn tab(
    ctx: &mut WebContext,
    op: &TabOperation,
    env: &StepEnv<'_>,
) -> Result<StepOutput, StepFailure> {
    match op {
        TabOperation::List => Ok(detail(tab_list(ctx, env).await?)),
        TabOperation::New { url, label } => {
            if let Some(l) = label {
                if ctx
                    .tabs
                    .iter()
                    .any(|t| t.label.as_deref() == Some(l.as_str()))
                {
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
            Ok(detail(json!({ "index": ctx.current, "label": label })))
        }
        TabOperation::Switch { tab } => {
            let i = find_tab(ctx, tab)?;
            ctx.current = i;
            let t = ctx.tab()?;
            t.session
                .call("Page.bringToFront", json!({}), COMMAND_BOUND, env.deadline)
                .await?;
            Ok(detail(json!({ "index": i })))
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
            Ok(detail(json!({ "closed": i, "open": ctx.tabs.len() })))
        }
    }
}

/// `frame { target }`: later steps act in a same-origin iframe's document, or the top one.
pub(crate) async fn frame(
    ctx: &mut WebContext,
    target: &FrameTarget,
    env: &StepEnv<'_>,
) -> Result<StepOutput, StepFailure> {
    match target {
        FrameTarget::Main => {
            ctx.tab_mut()?.frames.clear();
            Ok(detail(json!({ "frame": "main" })))
        }
        FrameTarget::Css { selector } => {
            let tab = ctx.tab()?;
            let r = script::call(
                tab,
                "frame_check",
                json!({ "selector": selector }),
                COMMAND_BOUND,
                env.deadline,
            )
            .await?;
            ctx.tab_mut()?.frames.push(selector.clone());
            Ok(detail(
                json!({ "frame": selector, "url": r.get("url").cloned().unwrap_or(Value::Null) }),
            ))
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
) -> Result<StepOutput, StepFailure> {
    let tab = ctx.tab()?;
    let open = tab.dialog();
    let (accept, text) = match op {
        DialogOperation::Status => {
            return Ok(detail(match open {
                Some(d) => json!({ "open": true, "type": d.kind, "message": d.message,
                                   "default_prompt": d.default_prompt, "untrusted": true }),
                None => json!({ "open": false }),
            }))
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
    Ok(detail(
        json!({ "handled": describe_dialog(&info), "accepted": accept }),
    ))
}

/// `viewport { width height scale }` for the current tab (and tabs opened later).
pub(crate) async fn viewport(
    ctx: &mut WebContext,
    width: u32,
    height: u32,
    scale: Option<u32>,
    env: &StepEnv<'_>,
) -> Result<StepOutput, StepFailure> {
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
    Ok(detail(
        json!({ "width": width, "height": height, "scale": scale.unwrap_or(1) }),
    ))
}
