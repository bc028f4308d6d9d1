//! A write deadline per response for `serve`'s connections.
//!
//! hyper bounds how long a request head may take to arrive, but not how long writing the answer
//! may take: a client that asks for a large file and then stops reading fills the socket buffers,
//! and the connection (with its slot of [`super::MAX_CONNECTIONS`] and the file in memory) would
//! wait for it forever. [`WriteDeadline`] wraps the stream: the first write after a read starts a
//! clock, and a write that is still not done when the deadline passes fails with `TimedOut`, which
//! makes hyper drop the connection. Any bytes read (the next request on a keep-alive connection)
//! stop the clock, so the deadline counts per response, not per connection.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::Sleep;

/// A stream whose writes of one response must finish within a deadline.
#[derive(Debug)]
pub struct WriteDeadline<S> {
    inner: S,
    limit: Duration,
    /// Running while a response is being written; `None` between responses.
    clock: Option<Pin<Box<Sleep>>>,
}

impl<S> WriteDeadline<S> {
    /// Wrap `inner`; each response must be written within `limit` of its first byte.
    pub fn new(inner: S, limit: Duration) -> Self {
        WriteDeadline {
            inner,
            limit,
            clock: None,
        }
    }

    /// Start the clock if no response is being written yet, and fail once it has run out.
    fn check(&mut self, cx: &mut Context<'_>) -> io::Result<()> {
        let limit = self.limit;
        let clock = self
            .clock
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        match clock.as_mut().poll(cx) {
            Poll::Ready(()) => Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client did not read the response in time",
            )),
            Poll::Pending => Ok(()),
        }
    }

    /// Run one write-side operation under the clock.
    fn guarded<T>(
        &mut self,
        cx: &mut Context<'_>,
        op: impl FnOnce(Pin<&mut S>, &mut Context<'_>) -> Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>>
    where
        S: Unpin,
    {
        match op(Pin::new(&mut self.inner), cx) {
            Poll::Pending => match self.check(cx) {
                Ok(()) => Poll::Pending,
                Err(e) => Poll::Ready(Err(e)),
            },
            ready => {
                // Start the clock at the response's first write even when it did not block.
                if self.clock.is_none() {
                    self.clock = Some(Box::pin(tokio::time::sleep(self.limit)));
                }
                ready
            }
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for WriteDeadline<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        if matches!(polled, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            // A new request: the previous response is done.
            self.clock = None;
        }
        polled
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for WriteDeadline<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.guarded(cx, |s, cx| s.poll_write(cx, buf))
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        self.guarded(cx, |s, cx| s.poll_write_vectored(cx, bufs))
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.guarded(cx, |s, cx| s.poll_flush(cx))
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.guarded(cx, |s, cx| s.poll_shutdown(cx))
    }
}
