//! The Grid sessions one run owns, from the moment the Grid answers until they are deleted.
//!
//! Why a registry apart from the drivers: a session exists on the Grid as soon as its
//! `POST /session` is answered, which may be after the executor gave up on the launch (Ctrl+C
//! during the queue wait drops the launch). Each request therefore runs in its own task that
//! records the session here, and `run` calls [`Sessions::release_all`] after every run —
//! success, failure, timeout or Ctrl+C — which waits (bounded) for requests still on their way
//! and deletes every session not yet deleted. A session deleted by its driver's shutdown is
//! forgotten here first, so nothing is deleted twice.

use super::client::{GridClient, GridError, NewSession};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::task::JoinHandle;

/// Bound on one `DELETE /session/{id}` (the Grid stops the browser before answering).
pub const DELETE_BOUND: Duration = Duration::from_secs(10);

/// The sessions of one run, shared by the launcher, the drivers and `run`.
#[derive(Debug, Clone)]
pub struct Sessions {
    client: GridClient,
    inner: Arc<Mutex<Inner>>,
}

#[derive(Debug, Default)]
struct Inner {
    /// Opened and not yet deleted, by id.
    live: BTreeMap<String, NewSession>,
    /// New-session requests still on their way.
    pending: Vec<JoinHandle<()>>,
}

/// What [`Sessions::release_all`] could not do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReleaseFailure(pub String);

impl Sessions {
    /// No session yet.
    pub fn new(client: GridClient) -> Sessions {
        Sessions {
            client,
            inner: Arc::default(),
        }
    }

    /// The Grid's client.
    pub fn client(&self) -> &GridClient {
        &self.client
    }

    /// Ask for a session in a task of its own (recorded here once the Grid answers, whoever
    /// still waits for it); the answer, or why there is none.
    pub async fn open(
        &self,
        capabilities: Arc<serde_json::Map<String, serde_json::Value>>,
        bound: Duration,
    ) -> Result<NewSession, GridError> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let (client, inner) = (self.client.clone(), self.inner.clone());
        let task = tokio::spawn(async move {
            let answer = client.new_session(&capabilities, bound).await;
            if let Ok(session) = &answer {
                if let Ok(mut inner) = inner.lock() {
                    inner.live.insert(session.id.clone(), session.clone());
                }
            }
            let _ = tx.send(answer);
        });
        if let Ok(mut inner) = self.inner.lock() {
            inner.pending.retain(|t| !t.is_finished());
            inner.pending.push(task);
        }
        rx.await
            .unwrap_or_else(|_| Err(GridError::Transport("the request task ended".into())))
    }

    /// Delete one session and forget it.
    pub async fn delete(&self, id: &str) -> Result<(), GridError> {
        let known = self
            .inner
            .lock()
            .map(|mut i| i.live.remove(id).is_some())
            .unwrap_or(false);
        if !known {
            return Ok(());
        }
        self.client.delete_session(id, DELETE_BOUND).await
    }

    /// After the run: wait at most `bound` for requests still on their way, then delete every
    /// session still open, all at once. What failed is returned, one sentence each.
    pub async fn release_all(&self, bound: Duration) -> Vec<ReleaseFailure> {
        let pending = self
            .inner
            .lock()
            .map(|mut i| std::mem::take(&mut i.pending))
            .unwrap_or_default();
        let mut failures = Vec::new();
        let waited = tokio::time::timeout(bound, futures_all(pending)).await;
        if !matches!(waited, Ok(false)) {
            failures.push(ReleaseFailure(format!(
                "a new-session request was still waiting in the Grid's queue after {} ms; \
                 the Grid's own session timeout ends the session it may still get",
                bound.as_millis()
            )));
        }
        let ids: Vec<String> = self
            .inner
            .lock()
            .map(|i| i.live.keys().cloned().collect())
            .unwrap_or_default();
        let deletions = ids
            .iter()
            .map(|id| async move { (id, self.delete(id).await) });
        for (id, result) in futures::future::join_all(deletions).await {
            if let Err(e) = result {
                failures.push(ReleaseFailure(format!(
                    "failed to delete the Grid session {id}: {e}"
                )));
            }
        }
        failures
    }
}

/// Await every task; `true` when one of them panicked or was cancelled.
async fn futures_all(tasks: Vec<JoinHandle<()>>) -> bool {
    let mut aborted = false;
    for task in tasks {
        aborted |= task.await.is_err();
    }
    aborted
}
