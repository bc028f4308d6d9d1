//! A reference visual grounding provider for A3S Test: `a3s.test.visual-grounding/1` served on
//! loopback, a text query found on the screenshot by Tesseract's word boxes.
//!
//! Why it exists: the provider boundary (`a3s-test-provider`) needs a real provider for its
//! tests and docs — real recognition on real screenshots — and deployments need an example of
//! one. It is not part of core: A3S Test only ever reaches it over HTTP, as it would any model.
//! [`tesseract`] runs the program (bounded, owned) and [`tsv`] reads its output — both reusable
//! for any image; [`phrase`] finds a query among the words; [`ground`] answers one request;
//! [`serve`] is the HTTP server.

pub mod ground;
pub mod phrase;
pub mod serve;
pub mod tesseract;
pub mod tsv;
