//! Connection slots: at most [`MAX_CONNECTIONS`] connections are served at once, and a
//! connection still waiting for its request head gives its slot up to a newcomer.
//!
//! Why eviction: a slot used to be held for the whole request deadline, so 32 sockets that
//! connect and send nothing made every real POST a 503 for ≈ 10 s. Now, when every slot is
//! taken, the oldest connection that has not yet delivered its head is shut down and the new
//! one takes its place. A real client sends its head at once, so it is in that state only for
//! moments; a connection that has sent its head (it is being served) is never evicted. Only when
//! every slot is serving a request is the newcomer refused with 503.
//!
//! A connection that sent its head but trickles its body is treated the same way once it has
//! taken longer than [`BODY_GRACE`] for it: a real client sends its small JSON body with the head,
//! so 32 clients that each send a head and then one byte a second can no longer hold every slot
//! for the whole request deadline. A connection whose request was read in full is being served
//! and is never evicted.
//!
//! How a connection says how far it got without the handler knowing about slots: the
//! connection thread runs inside [`Slot::serve`], which sets a thread-local marker that
//! `http::Conn::read_head` and `read_body` advance through [`head_read`] and [`body_read`].

use std::cell::RefCell;
use std::net::{Shutdown, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// At most this many connections are served at once.
pub const MAX_CONNECTIONS: usize = 32;
/// Evicted connections whose threads have not yet ended count against this wider bound, so a
/// flood of connects cannot pile up threads either.
const MAX_THREADS: usize = 2 * MAX_CONNECTIONS;
/// How long a connection may take for its body after its head before a newcomer may take its
/// slot.
pub const BODY_GRACE: Duration = Duration::from_secs(1);

/// How far a connection got with its request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Waiting for the request head.
    Head,
    /// The head arrived at this instant; the body is still coming.
    Body(Instant),
    /// The whole request was read: it is being served.
    Served,
}

impl Phase {
    /// Whether a newcomer may take this connection's slot.
    fn evictable(self) -> bool {
        match self {
            Phase::Head => true,
            Phase::Body(since) => since.elapsed() > BODY_GRACE,
            Phase::Served => false,
        }
    }
}

/// A connection's phase, shared by its thread and the slot table.
type Progress = Arc<Mutex<Phase>>;

struct Entry {
    id: u64,
    /// A handle on the socket, to shut it down on eviction.
    stream: TcpStream,
    /// How far the request got.
    progress: Progress,
}

#[derive(Default)]
struct State {
    next_id: u64,
    /// Connections holding a slot, oldest first.
    held: Vec<Entry>,
    /// Connection threads alive (holding a slot or evicted and ending).
    threads: usize,
}

/// The slot table shared by the accept loop and the connection threads.
#[derive(Default, Clone)]
pub struct Slots {
    state: Arc<Mutex<State>>,
}

/// One admitted connection's slot; freed when dropped.
pub struct Slot {
    slots: Slots,
    id: u64,
    progress: Progress,
}

impl Slots {
    /// A slot for `stream`, evicting the oldest connection still reading its head (else the
    /// oldest past [`BODY_GRACE`] in its body) when every slot is taken; `None` when every slot
    /// is serving a request (answer 503).
    pub fn admit(&self, stream: &TcpStream) -> Option<Slot> {
        let handle = stream.try_clone().ok()?;
        let mut state = self.state.lock().expect("slots lock");
        if state.threads >= MAX_THREADS {
            return None;
        }
        if state.held.len() >= MAX_CONNECTIONS {
            let phase = |e: &Entry| *e.progress.lock().expect("phase lock");
            let idle = state
                .held
                .iter()
                .position(|e| phase(e) == Phase::Head)
                .or_else(|| state.held.iter().position(|e| phase(e).evictable()))?;
            let evicted = state.held.remove(idle);
            // Its blocked read returns at once and its thread ends; the thread still counts
            // until then.
            let _ = evicted.stream.shutdown(Shutdown::Both);
        }
        let id = state.next_id;
        state.next_id += 1;
        let progress = Arc::new(Mutex::new(Phase::Head));
        state.held.push(Entry {
            id,
            stream: handle,
            progress: progress.clone(),
        });
        state.threads += 1;
        Some(Slot {
            slots: self.clone(),
            id,
            progress,
        })
    }

    /// Connections holding a slot now.
    #[cfg(test)]
    fn held(&self) -> usize {
        self.state.lock().expect("slots lock").held.len()
    }
}

thread_local! {
    static CURRENT: RefCell<Option<Progress>> = const { RefCell::new(None) };
}

impl Slot {
    /// Run `serve` (the whole connection) on this thread as the slot's connection, then free it.
    pub fn serve(self, serve: impl FnOnce()) {
        CURRENT.with(|c| *c.borrow_mut() = Some(self.progress.clone()));
        serve();
        CURRENT.with(|c| *c.borrow_mut() = None);
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut state = self.slots.state.lock().expect("slots lock");
        state.held.retain(|e| e.id != self.id);
        state.threads -= 1;
    }
}

/// Advance the current thread's connection to `phase`.
fn advance(phase: Phase) {
    CURRENT.with(|c| {
        if let Some(progress) = c.borrow().as_ref() {
            *progress.lock().expect("phase lock") = phase;
        }
    });
}

/// The current thread's connection delivered its head: its body has [`BODY_GRACE`] to arrive.
pub fn head_read() {
    advance(Phase::Body(Instant::now()));
}

/// The current thread's connection delivered its whole request: it is being served and can no
/// longer be evicted.
pub fn body_read() {
    advance(Phase::Served);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;
    use std::net::TcpListener;

    fn pair(listener: &TcpListener) -> (TcpStream, TcpStream) {
        let client = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let (server, _) = listener.accept().unwrap();
        (client, server)
    }

    #[test]
    fn idle_connections_are_evicted_oldest_first_and_busy_ones_never() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let slots = Slots::default();
        let mut clients = Vec::new();
        let mut held = Vec::new();
        for _ in 0..MAX_CONNECTIONS {
            let (client, server) = pair(&listener);
            held.push(slots.admit(&server).expect("a free slot"));
            clients.push(client);
        }
        // Full of idle connections: a newcomer evicts the oldest, whose peer sees the close.
        let (_c, server) = pair(&listener);
        let newcomer = slots.admit(&server).expect("an idle one is evicted");
        assert_eq!(slots.held(), MAX_CONNECTIONS);
        let mut byte = [0u8; 1];
        assert_eq!(
            clients[0].read(&mut byte).unwrap(),
            0,
            "the oldest idle one is closed"
        );
        // Every slot in its body, just begun: the newcomer is refused; once one of them has
        // trickled past the grace, it gives its slot up.
        let set = |slot: &Slot, phase: Phase| *slot.progress.lock().unwrap() = phase;
        for slot in held.iter().chain([&newcomer]) {
            set(slot, Phase::Body(Instant::now()));
        }
        let (_c2, server) = pair(&listener);
        assert!(slots.admit(&server).is_none());
        let long_ago = Instant::now().checked_sub(2 * BODY_GRACE).unwrap();
        set(&held[1], Phase::Body(long_ago));
        let (_c4, server) = pair(&listener);
        let replaced = slots.admit(&server).expect("a trickling body is evicted");
        assert_eq!(
            clients[1].read(&mut byte).unwrap(),
            0,
            "the trickler is closed"
        );
        // Every slot serving a request: the newcomer is refused.
        for slot in held.iter().chain([&newcomer, &replaced]) {
            set(slot, Phase::Served);
        }
        let (_c5, server) = pair(&listener);
        assert!(slots.admit(&server).is_none());
        drop(held.pop());
        let (_c3, server) = pair(&listener);
        assert!(slots.admit(&server).is_some());
    }
}
