//! The context's network log for `wait { request = … }` / `wait { response = … }`: every request
//! sent and response received in any tab, in arrival order, with a sequence number.
//!
//! Why a log with a mark instead of a listener the wait installs: the response a click causes may
//! arrive before the click step returns, before any later step could start listening. Every
//! action (any step but a network wait) moves the mark to the end of the log as it begins
//! ([`NetworkLog::arm`]); a network wait searches from the mark and then waits for new entries, so
//! "click, then wait for the response" sees a response that came during the click. Consecutive
//! network waits share the mark of the action before them. The log keeps the last
//! [`CAPACITY`] entries (a wait never looks further back than its action anyway).

use crate::route::UrlMatcher;
use a3s_test_lang::ir::{NetworkEvent, NetworkWait};
use std::collections::VecDeque;
use tokio::sync::watch;

/// Entries kept; older ones are dropped.
pub(crate) const CAPACITY: usize = 4096;

/// One request or response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct NetEntry {
    /// Which one.
    pub event: NetworkEvent,
    /// The request's URL (a response's, for a response).
    pub url: String,
    /// A response's status.
    pub status: Option<u16>,
}

/// The log, its mark and a change signal.
#[derive(Debug)]
pub(crate) struct NetworkLog {
    entries: VecDeque<NetEntry>,
    /// Sequence number of `entries[0]`.
    first: u64,
    /// Where the current action began.
    mark: u64,
    /// Bumped on every entry.
    changed: watch::Sender<u64>,
}

impl Default for NetworkLog {
    fn default() -> Self {
        NetworkLog {
            entries: VecDeque::new(),
            first: 0,
            mark: 0,
            changed: watch::channel(0).0,
        }
    }
}

/// What a search found: the entry that matched, or the entries of the right kind whose URL
/// matched but not the status (for the failure message).
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Search {
    /// This entry matched.
    Found(NetEntry),
    /// Nothing matched; these URL matches had another status.
    Missing(Vec<NetEntry>),
}

impl NetworkLog {
    /// Append one entry and wake the waits.
    pub(crate) fn push(&mut self, entry: NetEntry) {
        if self.entries.len() == CAPACITY {
            self.entries.pop_front();
            self.first += 1;
        }
        self.entries.push_back(entry);
        self.changed.send_modify(|n| *n += 1);
    }

    /// An action begins: later network waits look from here.
    pub(crate) fn arm(&mut self) {
        self.mark = self.first + self.entries.len() as u64;
    }

    /// A receiver woken by every later entry.
    pub(crate) fn subscribe(&self) -> watch::Receiver<u64> {
        self.changed.subscribe()
    }

    /// The first entry since the mark that `wait` (with its pattern compiled as `matcher`) takes.
    pub(crate) fn search(&self, wait: &NetworkWait, matcher: &UrlMatcher) -> Search {
        let skip = self.mark.saturating_sub(self.first) as usize;
        let mut near = Vec::new();
        for entry in self.entries.iter().skip(skip) {
            if entry.event != wait.event || !matcher.matches(&entry.url) {
                continue;
            }
            match wait.status {
                Some(want) if entry.status != Some(want) => near.push(entry.clone()),
                _ => return Search::Found(entry.clone()),
            }
        }
        Search::Missing(near)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use a3s_test_lang::ir::UrlPattern;

    fn entry(event: NetworkEvent, url: &str, status: Option<u16>) -> NetEntry {
        NetEntry {
            event,
            url: url.to_string(),
            status,
        }
    }

    fn wait(event: NetworkEvent, glob: &str, status: Option<u16>) -> (NetworkWait, UrlMatcher) {
        let pattern = UrlPattern::Glob(glob.to_string());
        let matcher = UrlMatcher::new(&pattern);
        (
            NetworkWait {
                event,
                pattern,
                status,
            },
            matcher,
        )
    }

    #[test]
    fn a_wait_sees_what_came_since_the_action_began_and_nothing_before() {
        let mut log = NetworkLog::default();
        log.push(entry(
            NetworkEvent::Response,
            "http://h/api/cart",
            Some(200),
        ));
        log.arm();
        let (w, m) = wait(NetworkEvent::Response, "**/api/cart", Some(200));
        assert_eq!(log.search(&w, &m), Search::Missing(vec![]));
        log.push(entry(NetworkEvent::Request, "http://h/api/cart", None));
        log.push(entry(
            NetworkEvent::Response,
            "http://h/api/cart",
            Some(500),
        ));
        let missing = log.search(&w, &m);
        assert_eq!(
            missing,
            Search::Missing(vec![entry(
                NetworkEvent::Response,
                "http://h/api/cart",
                Some(500)
            )])
        );
        log.push(entry(
            NetworkEvent::Response,
            "http://h/api/cart",
            Some(200),
        ));
        assert!(matches!(log.search(&w, &m), Search::Found(e) if e.status == Some(200)));
        let (r, m) = wait(NetworkEvent::Request, "**/api/*", None);
        assert!(matches!(log.search(&r, &m), Search::Found(e) if e.event == NetworkEvent::Request));
    }

    #[test]
    fn the_log_keeps_its_capacity_and_the_mark_stays_in_sequence() {
        let mut log = NetworkLog::default();
        for i in 0..CAPACITY + 10 {
            log.push(entry(NetworkEvent::Request, &format!("http://h/{i}"), None));
        }
        assert_eq!(log.entries.len(), CAPACITY);
        log.arm();
        log.push(entry(NetworkEvent::Request, "http://h/last", None));
        let (w, m) = wait(NetworkEvent::Request, "**/*", None);
        assert!(matches!(log.search(&w, &m), Search::Found(e) if e.url == "http://h/last"));
    }
}
