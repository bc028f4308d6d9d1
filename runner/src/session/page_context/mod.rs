//! The Rust side of the Test Kit Page Context protocol (`@a3s-lab/testkit`): everything the
//! session trusts from a page's bridge is re-validated here before it is used. [`diff`] checks
//! every rule of `a3s.test.page-context-diff/1`; [`fingerprint`] turns private node ids into
//! domain-separated digests so raw ids never reach a session file; [`handshake`] decides whether
//! a bridge is absent, compatible or incompatible. All three are pure (no I/O, no browser).

pub mod diff;
pub mod fingerprint;
pub mod handshake;
pub mod inspect;
pub mod live;
pub mod refs;
