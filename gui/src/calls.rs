//! Many calls to one program, at most [`IN_FLIGHT`] at a time, answers in the order asked.
//!
//! Why not all at once: a toolkit's accessibility bridge answers calls one at a time on its
//! main loop, so hundreds sent together (every node of a GTK3 file chooser's level, or a
//! `labelled-by` question to each of its nodes) queue in the program, and the last ones wait
//! longer than a call's bound (`desktop::CALL_WITHIN`, 5 s) on a loaded machine — the step then
//! fails as a bus timeout although the program answers. A window of calls in flight keeps the
//! round trips overlapped and each call's wait short.

use futures_util::StreamExt as _;
use std::future::Future;

/// How many calls to one program are in flight at most.
pub(crate) const IN_FLIGHT: usize = 16;

/// Run `calls` with at most [`IN_FLIGHT`] pending; their outputs in the order given. The calls
/// are collected first so the returned future holds only them (a lazy iterator's closure would
/// make it less general than a `Send` caller needs).
pub(crate) fn in_order<F: Future>(
    calls: impl IntoIterator<Item = F>,
) -> impl Future<Output = Vec<F::Output>> {
    let calls: Vec<F> = calls.into_iter().collect();
    futures_util::stream::iter(calls)
        .buffered(IN_FLIGHT)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[tokio::test]
    async fn answers_come_in_order_with_at_most_the_window_in_flight() {
        let (now, most) = (AtomicUsize::new(0), AtomicUsize::new(0));
        let calls = (0..100).map(|i| {
            let (now, most) = (&now, &most);
            async move {
                let in_flight = now.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(in_flight, Ordering::SeqCst);
                // Later calls finish first, so order is not kept by accident.
                tokio::task::yield_now().await;
                if i % 2 == 0 {
                    tokio::task::yield_now().await;
                }
                now.fetch_sub(1, Ordering::SeqCst);
                i
            }
        });
        let answers = in_order(calls).await;
        assert_eq!(answers, (0..100).collect::<Vec<_>>());
        assert_eq!(most.load(Ordering::SeqCst), IN_FLIGHT);
    }
}
