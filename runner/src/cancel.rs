//! A cancellation token shared by the signal handler and the executor.
//!
//! Why not a crate: the executor needs only "has cancel been asked?" and "wait until it is",
//! which a `tokio::sync::watch` channel gives with no extra dependency.

use tokio::sync::watch;

/// Cloneable; cancelling one clone cancels all.
#[derive(Debug, Clone)]
pub struct CancelToken {
    tx: std::sync::Arc<watch::Sender<bool>>,
    rx: watch::Receiver<bool>,
}

impl Default for CancelToken {
    fn default() -> Self {
        Self::new()
    }
}

impl CancelToken {
    /// A token that is not cancelled.
    pub fn new() -> Self {
        let (tx, rx) = watch::channel(false);
        CancelToken {
            tx: std::sync::Arc::new(tx),
            rx,
        }
    }

    /// Ask everything holding a clone to stop.
    pub fn cancel(&self) {
        self.tx.send_replace(true);
    }

    /// True once cancelled.
    pub fn is_cancelled(&self) -> bool {
        *self.rx.borrow()
    }

    /// Resolves once cancelled (immediately if already).
    pub async fn cancelled(&self) {
        let mut rx = self.rx.clone();
        // `wait_for` only errs when the sender is gone, and this token holds the sender.
        let _ = rx.wait_for(|c| *c).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn clones_share_state() {
        let a = CancelToken::new();
        let b = a.clone();
        assert!(!b.is_cancelled());
        let waiter = tokio::spawn(async move { b.cancelled().await });
        a.cancel();
        tokio::time::timeout(std::time::Duration::from_secs(5), waiter)
            .await
            .unwrap()
            .unwrap();
        assert!(a.is_cancelled());
    }
}
