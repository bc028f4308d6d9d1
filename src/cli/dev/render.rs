//! The human line of each [`DevEvent`]: short, one per moment, ids and statuses verbatim.

use crate::ops::dev::{DevEvent, FindingSource, ServerOrigin};

/// One line (the ready event spans a few, so the next commands stand out).
pub fn line(event: &DevEvent) -> String {
    match event {
        DevEvent::Ready {
            url,
            session,
            server,
            channel,
            headed,
            next,
            ..
        } => {
            let server = match server {
                ServerOrigin::Started => "started",
                ServerOrigin::Attached => "attached to a running server (left running on exit)",
            };
            let window = if *headed { "headed" } else { "headless" };
            let mut text = format!(
                "a3s-test dev: {url} ({server}), session {session} ({window} browser), channel {channel}\n\
                 waiting for findings; an agent runs next:"
            );
            for command in next {
                text.push_str("\n  ");
                text.push_str(command);
            }
            text
        }
        DevEvent::Finding {
            finding_id,
            source,
            status,
            baseline,
        } => {
            let via = match source {
                FindingSource::Page => "page",
                FindingSource::Channel => "dev server",
            };
            let status = status.map(|s| s.as_str()).unwrap_or("unknown");
            let baseline = if *baseline {
                "baseline recorded"
            } else {
                "no baseline"
            };
            format!(
                "finding {} from the {via}: {status}, {baseline}",
                finding_id.as_str()
            )
        }
        DevEvent::Refused { finding_id, code } => {
            format!("finding {finding_id:?} refused by the ledger ({code}); it stays in the page")
        }
        DevEvent::Statuses { sent, applied } => {
            format!("statuses: {applied} of {sent} change(s) shown in the page")
        }
        DevEvent::Warning { message } => format!("warning: {message}"),
        DevEvent::Stopping { reason } => format!("stopping ({reason}): session, then dev server"),
        DevEvent::Stopped {
            server_left_running,
        } => {
            if *server_left_running {
                "stopped; the dev server this command did not start is still running".into()
            } else {
                "stopped".into()
            }
        }
    }
}
