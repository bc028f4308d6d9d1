//! The Rust side of the Test Kit Page Context protocol (`@a3s-lab/testkit`): everything the
//! session trusts from a page's bridge is re-validated here before it is used. [`diff`] checks
//! every rule of `a3s.test.page-context-diff/1`; [`fingerprint`] turns private node ids into
//! domain-separated digests so raw ids never reach a session file; [`handshake`] decides whether
//! a bridge is absent, compatible or incompatible; [`inspect`] checks an `agent inspect` request
//! and [`refs`] builds and keeps `@cN` refs. Those five are pure (no I/O, no browser). [`live`]
//! is the one that drives the browser: it calls the page's bridge and hands every answer to the
//! pure checks above before the session uses it; [`repair_queue`] reads and drains the page's
//! repair queue for `agent repair-drain`.

pub mod diff;
pub mod fingerprint;
pub mod handshake;
pub mod inspect;
pub mod live;
pub mod refs;
pub mod repair_queue;
pub mod repair_watch;
