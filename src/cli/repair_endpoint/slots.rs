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
//! How a connection says its head arrived without the handler knowing about slots: the
//! connection thread runs inside [`Slot::serve`], which sets a thread-local marker that
//! `http::Conn::read_head` flips through [`head_read`].

use std::cell::RefCell;
use std::net::{Shutdown, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// At most this many connections are served at once.
pub const MAX_CONNECTIONS: usize = 32;
/// Evicted connections whose threads have not yet ended count against this wider bound, so a
/// flood of connects cannot pile up threads either.
const MAX_THREADS: usize = 2 * MAX_CONNECTIONS;

struct Entry {
    id: u64,
    /// A handle on the socket, to shut it down on eviction.
    stream: TcpStream,
    /// Set once the request head has been read.
    head_read: Arc<AtomicBool>,
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
    head_read: Arc<AtomicBool>,
}

impl Slots {
    /// A slot for `stream`, evicting the oldest connection still reading its head when every
    /// slot is taken; `None` when every slot is serving a request (answer 503).
    pub fn admit(&self, stream: &TcpStream) -> Option<Slot> {
        let handle = stream.try_clone().ok()?;
        let mut state = self.state.lock().expect("slots lock");
        if state.threads >= MAX_THREADS {
            return None;
        }
        if state.held.len() >= MAX_CONNECTIONS {
            let idle = state
                .held
                .iter()
                .position(|e| !e.head_read.load(Ordering::SeqCst))?;
            let evicted = state.held.remove(idle);
            // Its blocked read returns at once and its thread ends; the thread still counts
            // until then.
            let _ = evicted.stream.shutdown(Shutdown::Both);
        }
        let id = state.next_id;
        state.next_id += 1;
        let head_read = Arc::new(AtomicBool::new(false));
        state.held.push(Entry {
            id,
            stream: handle,
            head_read: head_read.clone(),
        });
        state.threads += 1;
        Some(Slot {
            slots: self.clone(),
            id,
            head_read,
        })
    }

    /// Connections holding a slot now.
    #[cfg(test)]
    fn held(&self) -> usize {
        self.state.lock().expect("slots lock").held.len()
    }
}

thread_local! {
    static CURRENT: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

impl Slot {
    /// Run `serve` (the whole connection) on this thread as the slot's connection, then free it.
    pub fn serve(self, serve: impl FnOnce()) {
        CURRENT.with(|c| *c.borrow_mut() = Some(self.head_read.clone()));
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

/// Mark the current thread's connection as being served: it can no longer be evicted.
pub fn head_read() {
    CURRENT.with(|c| {
        if let Some(flag) = c.borrow().as_ref() {
            flag.store(true, Ordering::SeqCst);
        }
    });
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
        // Every slot serving a request: the newcomer is refused.
        for slot in &held {
            slot.head_read.store(true, Ordering::SeqCst);
        }
        newcomer.head_read.store(true, Ordering::SeqCst);
        let (_c2, server) = pair(&listener);
        assert!(slots.admit(&server).is_none());
        drop(held.pop());
        let (_c3, server) = pair(&listener);
        assert!(slots.admit(&server).is_some());
    }
}
