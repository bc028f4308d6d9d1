//! The human line of each [`DevEvent`]: short, one per moment, ids and statuses verbatim.

use crate::ops::dev::{DevEvent, FindingSource, ServerOrigin};
use a3s_test_ledger::Actor;

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
                ServerOrigin::Attached => "attached to a running server, left running on exit",
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
            sent_by,
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
            let sender = match sent_by {
                Some(Actor::PageScript) => ", sent by page code (not a person)",
                _ => "",
            };
            format!(
                "finding {} from the {via}: {status}, {baseline}{sender}",
                finding_id.as_str()
            )
        }
        DevEvent::Action {
            finding_id,
            request_id,
            outcome,
            status,
            code,
        } => {
            let status = status.map(|s| format!(", now {}", s.as_str()));
            let code = code.as_ref().map(|c| format!(" ({c})"));
            format!(
                "reviewer action {request_id:?} on {finding_id:?}: {outcome}{}{}",
                status.unwrap_or_default(),
                code.unwrap_or_default()
            )
        }
        DevEvent::Refused { finding_id, code } => {
            format!("finding {finding_id:?} refused by the ledger ({code}); it stays in the page")
        }
        DevEvent::Statuses {
            sent,
            applied,
            changes,
        } => {
            let list: Vec<String> = changes
                .iter()
                .map(|c| format!("{} {}", c.finding_id.as_str(), c.status.as_str()))
                .collect();
            format!(
                "statuses: {applied} of {sent} change(s) shown in the page ({})",
                list.join(", ")
            )
        }
        DevEvent::Warning { message } => format!("warning: {message}"),
        DevEvent::Stopping { reason } => {
            format!("stopping ({reason}): the session, then what this command started")
        }
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

#[cfg(test)]
mod tests {
    use super::line;
    use crate::ops::dev::{next_commands, DevEvent, FindingSource, ServerOrigin, StatusChange};
    use a3s_test_ledger::{Actor, FindingId, RepairStatus};

    #[test]
    fn every_event_renders_as_its_line() {
        let id = FindingId::parse("finding-pay").unwrap();
        let events = [
            DevEvent::Ready {
                url: "http://127.0.0.1:5173/".into(),
                session: "dev".into(),
                server: ServerOrigin::Started,
                server_pids: vec![10, 11],
                supervisor_pid: Some(12),
                browser_pid: Some(13),
                channel: "http://127.0.0.1:40211/repairs".into(),
                channel_file: "/app/.a3s-test/dev/dev/channel.json".into(),
                headed: false,
                next: next_commands("dev"),
            },
            DevEvent::Ready {
                url: "http://127.0.0.1:5173/".into(),
                session: "review".into(),
                server: ServerOrigin::Attached,
                server_pids: vec![],
                supervisor_pid: Some(12),
                browser_pid: Some(13),
                channel: "http://127.0.0.1:40211/repairs".into(),
                channel_file: "/app/.a3s-test/dev/review/channel.json".into(),
                headed: true,
                next: next_commands("review"),
            },
            DevEvent::Finding {
                finding_id: id.clone(),
                source: FindingSource::Page,
                status: Some(RepairStatus::Queued),
                baseline: true,
                sent_by: Some(Actor::Human),
            },
            DevEvent::Finding {
                finding_id: id.clone(),
                source: FindingSource::Channel,
                status: Some(RepairStatus::NeedsInput),
                baseline: false,
                sent_by: Some(Actor::PageScript),
            },
            DevEvent::Action {
                finding_id: "f-1".into(),
                request_id: "r-1".into(),
                outcome: "applied".into(),
                status: Some(RepairStatus::Resolved),
                code: None,
            },
            DevEvent::Action {
                finding_id: "f-1".into(),
                request_id: "r-2".into(),
                outcome: "refused".into(),
                status: None,
                code: Some("test.session.repair_invalid_transition".into()),
            },
            DevEvent::Refused {
                finding_id: "bad id".into(),
                code: "test.session.repair_invalid_id".into(),
            },
            DevEvent::Statuses {
                sent: 2,
                applied: 2,
                changes: vec![
                    StatusChange {
                        finding_id: id.clone(),
                        status: RepairStatus::Claimed,
                    },
                    StatusChange {
                        finding_id: id.clone(),
                        status: RepairStatus::Repairing,
                    },
                ],
            },
            DevEvent::Warning {
                message: "drain failed: the page is reloading".into(),
            },
            DevEvent::Stopping {
                reason: "signal".into(),
            },
            DevEvent::Stopped {
                server_left_running: false,
            },
            DevEvent::Stopped {
                server_left_running: true,
            },
        ];
        let text: Vec<String> = events.iter().map(line).collect();
        insta::assert_snapshot!(text.join("\n"));
    }
}
