//! A program's tree and labels kept from one find to the next, for as long as its AT-SPI events
//! say nothing a find sees has changed.
//!
//! Why: a find read the top-level windows, the tree and each candidate's `labelled-by` relation
//! afresh (five finds a scenario, 16–40 ms each under load) although the step before had changed
//! nothing they answer; pyatspi keeps an event-fed cache. Here a find reuses the last read as
//! long as the program sent no event that can change what a find sees: children added or
//! removed (`object:children-changed`, rows and columns), a name, role or parent changed
//! (`object:property-change`), a window shown, hidden or made modal (`object:state-changed`
//! showing, visible, modal, defunct), or the text of a known label changed. Any such event makes
//! the next find read again; no event is patched into a kept read, so every kept read is one the
//! program answered whole.
//!
//! Never acting on a stale read: a find from a kept read confirms its element with one call to
//! the program (its states: a removed object fails, a dying one is `defunct`), and only then asks
//! the drain whether an event came since the read. The bus delivers a program's messages in the
//! order it sent them, and zbus queues a signal to its subscribers before it hands over a reply
//! that came after it, so once the confirmation's reply is in, every event the program sent
//! before it is queued to the drain; the drain answers a flush only when its queue is empty
//! (`biased` select). What this trusts is that the toolkit sends these events, as pyatspi
//! trusts; a find that matches none or several is decided on a fresh read, never a kept one.

use crate::desktop::CALL_WITHIN;
use crate::error::GuiError;
use crate::tree::Tree;
use futures_util::StreamExt as _;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::{mpsc, oneshot};

/// How many programs' reads a desktop keeps at once; past it the oldest is dropped, its
/// subscription with it (a scenario or an agent session drives one program at a time).
const PROGRAMS: usize = 8;

/// One program's kept reads and the drain of its events.
#[derive(Debug)]
pub(crate) struct Kept {
    /// Bumped by every event that may change what a find sees.
    generation: Arc<AtomicU64>,
    /// The elements that label others: a change of their text changes a find's answer.
    labels: Arc<Mutex<HashSet<String>>>,
    /// Flush requests to the drain, answered once its queue is empty.
    flush: mpsc::UnboundedSender<oneshot::Sender<()>>,
    /// The task that drains the program's event subscription into `generation` and `labels`
    /// (never left to fill: a full zbus queue stops the shared connection's reader); aborted
    /// when this is dropped.
    drain: tokio::task::JoinHandle<()>,
    /// What was read at the current generation: valid while no event came since.
    reads: Mutex<Reads>,
}

/// What was read at one generation.
#[derive(Debug, Default)]
struct Reads {
    /// The generation the reads below were made after.
    generation: u64,
    /// The program's tree as a find read it (`crate::locate`; only a complete read is kept).
    scope: Option<Arc<Tree>>,
    /// The names of each labelled element's labels, by the labelled element's path.
    label_names: HashMap<String, Vec<String>>,
}

impl Drop for Kept {
    fn drop(&mut self) {
        self.drain.abort();
    }
}

/// The kept reads of the programs on one desktop, by bus name. The desktop's [`crate::host::Host`]
/// owns it: the reads, their subscriptions and the connection their drains hold end with the
/// desktop, and two desktops (whose programs may share a unique name) never share one.
#[derive(Debug, Default)]
pub(crate) struct KeptTrees {
    entries: Mutex<Vec<(String, Arc<Kept>)>>,
}

impl KeptTrees {
    /// The kept reads of the program at `bus_name`, subscribing to its events the first time
    /// (so the first read already counts every event after it).
    pub(crate) async fn of(
        &self,
        a11y: &zbus::Connection,
        bus_name: &str,
    ) -> Result<Arc<Kept>, GuiError> {
        {
            let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
            // A drain that ended (its runtime or connection gone) keeps nothing current.
            if let Some((_, kept)) = entries
                .iter()
                .find(|(k, kept)| k == bus_name && !kept.drain.is_finished())
            {
                return Ok(kept.clone());
            }
        }
        let kept = Arc::new(Kept::subscribe(a11y, bus_name).await?);
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        entries.retain(|(k, _)| k != bus_name);
        entries.push((bus_name.to_owned(), kept.clone()));
        if entries.len() > PROGRAMS {
            entries.remove(0);
        }
        Ok(kept)
    }
}

impl Kept {
    async fn subscribe(a11y: &zbus::Connection, bus_name: &str) -> Result<Kept, GuiError> {
        let events = crate::wait::object_events(a11y, bus_name).await?;
        let generation = Arc::new(AtomicU64::new(0));
        let labels = Arc::new(Mutex::new(HashSet::new()));
        let (flush, asks) = mpsc::unbounded_channel();
        let drain = tokio::spawn(drain(events, generation.clone(), labels.clone(), asks));
        Ok(Kept {
            generation,
            labels,
            flush,
            drain,
            reads: Mutex::new(Reads::default()),
        })
    }

    /// The generation now: a read taken after this is kept under it.
    pub(crate) fn generation(&self) -> u64 {
        self.generation.load(Ordering::SeqCst)
    }

    fn reads(&self) -> std::sync::MutexGuard<'_, Reads> {
        self.reads.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The kept read of a find's scope and its generation, when no event has come since.
    pub(crate) fn scope(&self) -> Option<(Arc<Tree>, u64)> {
        let reads = self.reads();
        let scope = reads.scope.clone()?;
        (reads.generation == self.generation()).then_some((scope, reads.generation))
    }

    /// Keep `tree`, read after the generation was `at`.
    pub(crate) fn keep_scope(&self, tree: Arc<Tree>, at: u64) {
        let mut reads = self.reads();
        if reads.generation != at {
            *reads = Reads {
                generation: at,
                ..Reads::default()
            };
        }
        reads.scope = Some(tree);
    }

    /// The kept names of the labels of the element at `path`, read at generation `at`.
    pub(crate) fn label_names(&self, path: &str, at: u64) -> Option<Vec<String>> {
        let reads = self.reads();
        (reads.generation == at)
            .then(|| reads.label_names.get(path).cloned())
            .flatten()
    }

    /// Keep the names of the labels of the element at `path`, read at generation `at`.
    pub(crate) fn keep_label_names(&self, path: &str, names: Vec<String>, at: u64) {
        let mut reads = self.reads();
        if reads.generation == at {
            reads.label_names.insert(path.to_owned(), names);
        }
    }

    /// Count changes of the text of the elements at `paths` from now on: they label others.
    /// Called before their text is read, so no change falls between the read and the watch.
    pub(crate) fn watch_labels<'p>(&self, paths: impl IntoIterator<Item = &'p str>) {
        let mut labels = self.labels.lock().unwrap_or_else(|e| e.into_inner());
        labels.extend(paths.into_iter().map(str::to_owned));
    }

    /// Whether no event came since generation `at`. Ask it only after a call to the program
    /// returned: the drain has then been handed every event the program sent before the reply.
    /// The drain's answer is bounded like a bus call ([`CALL_WITHIN`]): one late (its task
    /// starved on a loaded machine) counts as "changed", and the find reads again.
    pub(crate) async fn unchanged_since(&self, at: u64) -> bool {
        let (tx, rx) = oneshot::channel();
        if self.flush.send(tx).is_err() {
            return false;
        }
        match tokio::time::timeout(CALL_WITHIN, rx).await {
            Ok(Ok(())) => self.generation() == at,
            Ok(Err(_)) | Err(_) => false,
        }
    }
}

/// Count the events that may change a find's answer until the subscription ends; answer each
/// flush only when no event is waiting.
async fn drain(
    mut events: zbus::MessageStream,
    generation: Arc<AtomicU64>,
    labels: Arc<Mutex<HashSet<String>>>,
    mut asks: mpsc::UnboundedReceiver<oneshot::Sender<()>>,
) {
    loop {
        tokio::select! {
            biased;
            event = events.next() => {
                let changes = match &event {
                    Some(Ok(message)) => changes_finds(message, &labels),
                    _ => true,
                };
                if changes {
                    generation.fetch_add(1, Ordering::SeqCst);
                }
                if event.is_none() {
                    return;
                }
            }
            ask = asks.recv() => match ask {
                Some(ask) => {
                    let _ = ask.send(());
                }
                None => return,
            },
        }
    }
}

/// Whether an object event may change what a find sees (see the module doc).
fn changes_finds(message: &zbus::Message, labels: &Mutex<HashSet<String>>) -> bool {
    let header = message.header();
    let Some(member) = header.member() else {
        return true;
    };
    let kind = || kind_of(message);
    match member.as_str() {
        "ChildrenChanged" | "ModelChanged" | "RowInserted" | "RowDeleted" | "RowReordered"
        | "ColumnInserted" | "ColumnDeleted" | "ColumnReordered" => true,
        // A value or a description is no part of a find's answer; a name, role or parent is.
        "PropertyChange" => !matches!(
            kind().as_deref(),
            Some("accessible-value" | "accessible-description")
        ),
        // States are read live, except whether a window is up and modal (a find's scope).
        "StateChanged" => matches!(
            kind().as_deref(),
            None | Some("showing" | "visible" | "modal" | "defunct")
        ),
        "TextChanged" => header.path().is_none_or(|path| {
            labels
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .contains(path.as_str())
        }),
        _ => false,
    }
}

/// An event's kind: the first field of its body (`accessible-name`, `showing` …).
fn kind_of(message: &zbus::Message) -> Option<String> {
    let body = message.body();
    let fields: zbus::zvariant::Structure<'_> = body.deserialize().ok()?;
    match fields.fields().first()? {
        zbus::zvariant::Value::Str(kind) => Some(kind.as_str().to_owned()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use zbus::zvariant::Value;

    /// An object event as a toolkit sends it: kind, two details, any data, properties.
    fn event(member: &str, path: &str, kind: &str) -> zbus::Message {
        zbus::Message::signal(path, "org.a11y.atspi.Event.Object", member)
            .unwrap()
            .build(&(
                kind,
                0i32,
                0i32,
                Value::from(0i32),
                HashMap::<&str, Value>::new(),
            ))
            .unwrap()
    }

    #[test]
    fn only_events_that_change_what_a_find_sees_make_the_kept_read_stale() {
        let labels = Mutex::new(HashSet::from(["/label".to_owned()]));
        let stale = |member, path, kind| changes_finds(&event(member, path, kind), &labels);
        assert!(stale("ChildrenChanged", "/box", "add"));
        assert!(stale("PropertyChange", "/button", "accessible-name"));
        assert!(stale("PropertyChange", "/button", "accessible-parent"));
        assert!(!stale("PropertyChange", "/slider", "accessible-value"));
        assert!(stale("StateChanged", "/dialog", "showing"));
        assert!(stale("StateChanged", "/dialog", "modal"));
        assert!(!stale("StateChanged", "/button", "focused"));
        assert!(!stale("StateChanged", "/button", "pressed"));
        assert!(stale("TextChanged", "/label", "insert"));
        assert!(!stale("TextChanged", "/display", "insert"));
        assert!(!stale("BoundsChanged", "/button", ""));
    }
}
