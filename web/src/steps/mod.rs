//! One module per family of web steps (`docs/acl.md` §5–§9). Each function runs one admitted step
//! against the current tab of a [`super::context::WebContext`].

/// What every step returns: its output, or the failure that ended it.
pub(crate) type Outcome = Result<a3s_test_driver::StepOutput, a3s_test_driver::StepFailure>;

pub(crate) mod drag;
pub(crate) mod evidence;
pub(crate) mod files;
pub(crate) mod keyboard;
pub(crate) mod navigate;
pub(crate) mod network;
pub(crate) mod observe;
pub(crate) mod pointer;
pub(crate) mod request;
pub(crate) mod snapshot;
pub(crate) mod tabs;
