//! Waits: re-read an element's value until it matches, woken by the program's AT-SPI events,
//! bounded by a deadline.
//!
//! Why events and re-reads together: an event says *that* something changed, the re-read says
//! *what* it is now (one action can fire several text-changed events, the first with a value on
//! its way). The wait subscribes to the program's object events (text, state, children,
//! property changes — the desktop registered them with the registry before any program started,
//! so toolkits that send only registered events send these) before its first read, so no
//! change falls between a read and the subscription. A re-read also runs when no event came
//! for a while (a toolkit that sends none for this change), backing off from 10 ms to 200 ms.
//! The deadline ends the wait with a coded failure naming the last value seen.

use crate::element::Element;
use crate::error::GuiError;
use atspi::State;
use futures_util::StreamExt as _;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The AT-SPI object events a wait is woken by, registered with the registry by the desktop.
pub const EVENTS: &[&str] = &[
    "object:text-changed",
    "object:state-changed",
    "object:children-changed",
    "object:property-change",
];

/// Ask every program on the bus to send [`EVENTS`]: toolkits that send only registered events
/// (GTK3's bridge) read the list when they start, so the desktop registers before any does.
pub(crate) async fn register(a11y: &zbus::Connection) -> Result<(), GuiError> {
    let registry = atspi::proxy::registry::RegistryProxy::new(a11y)
        .await
        .map_err(|e| GuiError::bus("Registry", e))?;
    for event in EVENTS {
        registry
            .register_event(event)
            .await
            .map_err(|e| GuiError::bus("RegisterEvent", e))?;
    }
    Ok(())
}

/// The object events (`org.a11y.atspi.Event.Object`) the program at `bus_name` sends, from
/// now on; at most 256 queued, so whoever holds the stream must drain it (see [`Wake`]).
pub(crate) async fn object_events(
    a11y: &zbus::Connection,
    bus_name: &str,
) -> Result<zbus::MessageStream, GuiError> {
    let rule = zbus::MatchRule::builder()
        .msg_type(zbus::message::Type::Signal)
        .sender(bus_name)
        .and_then(|b| b.interface("org.a11y.atspi.Event.Object"))
        .map_err(|e| GuiError::bus("AddMatch", e))?
        .build();
    zbus::MessageStream::for_match_rule(rule, a11y, Some(256))
        .await
        .map_err(|e| GuiError::bus("AddMatch", e))
}

/// How a text is compared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TextMatch {
    /// Equal after collapsing whitespace.
    Exact(String),
    /// Holds this text.
    Contains(String),
}

impl TextMatch {
    /// Whether `value` matches.
    pub fn matches(&self, value: &str) -> bool {
        let collapse = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
        match self {
            TextMatch::Exact(want) => collapse(value) == collapse(want),
            TextMatch::Contains(want) => value.contains(want.as_str()),
        }
    }
}

/// What is awaited of an element.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Condition {
    /// Its text (or its name when it has no text).
    Text(TextMatch),
    /// Its accessible name.
    Name(TextMatch),
    /// A state is present (`true`) or absent (`false`).
    State(State, bool),
}

impl Condition {
    /// The condition in words, for messages.
    fn describe(&self, element: &Element) -> String {
        let target = element.describe();
        match self {
            Condition::Text(TextMatch::Exact(t)) => format!("the text of {target} = {t:?}"),
            Condition::Text(TextMatch::Contains(t)) => {
                format!("the text of {target} holding {t:?}")
            }
            Condition::Name(TextMatch::Exact(t)) => format!("the name of {target} = {t:?}"),
            Condition::Name(TextMatch::Contains(t)) => {
                format!("the name of {target} holding {t:?}")
            }
            Condition::State(state, present) => {
                let not = if *present { "" } else { "not " };
                format!("{target} {not}{state:?}")
            }
        }
    }
}

/// A wait that held.
#[derive(Debug, Clone)]
pub struct Waited {
    /// The value that matched.
    pub value: String,
    /// How many reads it took.
    pub reads: u32,
    /// How many of the program's events woke it.
    pub events: u32,
    /// How long it lasted.
    pub took: Duration,
}

/// The first and the longest pause between re-reads when no event comes.
const REREAD_FIRST: Duration = Duration::from_millis(10);
const REREAD_MOST: Duration = Duration::from_millis(200);

/// Wait until `condition` holds for `element`, within `within`.
pub async fn until(
    a11y: &zbus::Connection,
    element: &Element,
    condition: &Condition,
    within: Duration,
) -> Result<Waited, GuiError> {
    let mut wake = Wake::subscribe(a11y, &element.bus_name, within).await?;
    loop {
        let (value, holds) = read(a11y, element, condition).await?;
        if holds {
            return Ok(wake.waited(value));
        }
        if !wake.next().await {
            return Err(GuiError::WaitTimeout {
                what: condition.describe(element),
                last: value,
                waited_ms: wake.elapsed().as_millis(),
            });
        }
    }
}

/// The pacing of one wait: the program's object events wake it, a re-read also comes when no
/// event came for a while, and the deadline ends it. Subscribed before the first read, so no
/// change falls between a read and the subscription.
///
/// The subscription is drained by a task of its own into a counter and a wake-up, never left
/// to fill: zbus's subscription queues are bounded and a full one stops the connection's reader,
/// so the replies of every other call on the shared accessibility connection would wait behind
/// it — mousepad (GTK3) sends hundreds of events while a read of its tree is in flight.
pub(crate) struct Wake {
    woken: Arc<AtomicU32>,
    event: Arc<tokio::sync::Notify>,
    drain: tokio::task::JoinHandle<()>,
    started: Instant,
    deadline: Instant,
    pause: Duration,
    reads: u32,
}

impl Drop for Wake {
    fn drop(&mut self) {
        self.drain.abort();
    }
}

impl Wake {
    /// Subscribe to the object events of the program at `bus_name`; the deadline is `within`
    /// from now.
    pub(crate) async fn subscribe(
        a11y: &zbus::Connection,
        bus_name: &str,
        within: Duration,
    ) -> Result<Wake, GuiError> {
        let started = Instant::now();
        let mut events = object_events(a11y, bus_name).await?;
        let woken = Arc::new(AtomicU32::new(0));
        let event = Arc::new(tokio::sync::Notify::new());
        let drain = tokio::spawn({
            let (woken, event) = (woken.clone(), event.clone());
            async move {
                while events.next().await.is_some() {
                    woken.fetch_add(1, Ordering::Relaxed);
                    // A permit is kept when no read is waiting: the next wait returns at once.
                    event.notify_one();
                }
            }
        });
        Ok(Wake {
            woken,
            event,
            drain,
            started,
            deadline: started + within,
            pause: REREAD_FIRST,
            reads: 1,
        })
    }

    /// Wait until the next read is due: an event came, or the pause passed. False once the
    /// deadline has passed (no read is due any more).
    pub(crate) async fn next(&mut self) -> bool {
        let now = Instant::now();
        if now >= self.deadline {
            return false;
        }
        let sleep_until = (now + self.pause).min(self.deadline);
        tokio::select! {
            _ = self.event.notified() => self.pause = REREAD_FIRST,
            _ = tokio::time::sleep_until(sleep_until.into()) => {
                self.pause = (self.pause * 2).min(REREAD_MOST);
            }
        }
        self.reads += 1;
        true
    }

    /// Notified at each event (a permit is kept when nobody waits): for a wait paced by
    /// something else, `crate::ready::poll`.
    pub(crate) fn woken(&self) -> &tokio::sync::Notify {
        &self.event
    }

    /// How long the wait has lasted.
    pub(crate) fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// The wait held with `value`.
    pub(crate) fn waited(&self, value: String) -> Waited {
        Waited {
            value,
            reads: self.reads,
            events: self.woken.load(Ordering::Relaxed),
            took: self.started.elapsed(),
        }
    }
}

/// Read the value the condition is about; whether it holds.
async fn read(
    a11y: &zbus::Connection,
    element: &Element,
    condition: &Condition,
) -> Result<(String, bool), GuiError> {
    Ok(match condition {
        Condition::Text(want) => {
            let text = element.read_text(a11y).await?;
            let holds = want.matches(&text);
            (text, holds)
        }
        Condition::Name(want) => {
            let name = element.read_name(a11y).await?;
            let holds = want.matches(&name);
            (name, holds)
        }
        Condition::State(state, present) => {
            let has = element.read_states(a11y).await?.contains(*state);
            (has.to_string(), has == *present)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_collapses_whitespace_and_contains_does_not_need_the_whole() {
        assert!(TextMatch::Exact("42".into()).matches(" 42\n"));
        assert!(!TextMatch::Exact("42".into()).matches("420"));
        assert!(TextMatch::Contains("42".into()).matches("= 42"));
        assert!(!TextMatch::Contains("43".into()).matches("= 42"));
    }
}
