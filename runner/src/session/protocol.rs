//! The supervisor's wire protocol: one JSON request line, one JSON answer line, per connection,
//! over the session's Unix socket.
//!
//! Why typed end to end: each request is its own struct implementing [`Call`], whose
//! [`Call::Reply`] is the one type the supervisor answers it with. The supervisor builds that
//! typed reply and serializes it once (as [`Replied`], untagged, so the JSON is exactly the
//! reply's); the client ([`super::client::call`]) reads it back as `R::Reply`. Fields every
//! answer may carry — the requests the network policy blocked, the command to run after an error,
//! whether the supervisor exits — are typed fields of one [`Envelope`], never keys patched into a
//! body by name.
//!
//! Why versioned: a session outlives the CLI turn that started it, so a supervisor started by one
//! build of `a3s-test` may be asked by another. Both lines carry [`PROTOCOL_VERSION`]; a line of
//! another version (or one without a version: the unversioned protocol, [`UNVERSIONED`]) is
//! answered, or read, as a `test.session.supervisor` error naming both versions, never half-read.
//!
//! `serde_json::Value` appears only where a page's own JSON passes through untouched (each place
//! says so): the Test Kit's repair queue items and the ledger's answers handed back to it, the
//! bridge's inspection, the page's control states in an observation, and what an `expect` or
//! `wait` saw (the surface's reading inside a step detail). An error's facts are the typed
//! `ErrorDetail`; an exec's step detail crosses tagged (`a3s_test_driver::detail::Tagged`), so it
//! reads back as the variant the driver reported, not as the first variant its JSON fits.

use super::code::{SessionCode, SessionError};
use super::design_audit::{AdviceShown, AuditCapture, AuditCaptured, ShowAdvice};
use super::ground::{GroundCapture, GroundHits, GroundMap, GroundShot};
use super::page_context::inspect::InspectRequest;
use super::page_context::repair_queue::{ActionBatch, FindingBatch};
use super::page_context::repair_watch::{PageRepairEvent, RepairMark, Waited};
use super::repair_page::layout::LayoutRequest;
use super::repair_page::locate::Located;
use super::repair_page::{
    Captured, LayoutReading, ObserveRequest, PageText, PageVerification, RevisionSeen,
};
use super::reply::{Closing, ExecutedOnWire};
use super::view::{Observation, ViewRequest};
use a3s_test_lang::ir::Target;
use a3s_test_ledger::verification::{Baseline, CandidateRecord, LocatorKind};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The protocol this build speaks. 2: the typed, versioned envelope of this module. 3: an exec
/// answer's step detail is tagged (`{"kind": …, "facts": …}`) instead of the untagged object.
pub const PROTOCOL_VERSION: u32 = 3;

/// The version a line without a `version` field speaks: the untyped `{ok, body, closing}`
/// protocol of builds before versioning.
pub const UNVERSIONED: u32 = 1;

/// The one-line hint every version mismatch ends with.
const RESTART_HINT: &str = "restart the session with this a3s-test (agent abort, then agent start)";

/// How a session ended, as the agent reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FinishStatus {
    /// The goal was reached.
    Passed,
    /// The goal was not reached.
    Failed,
}

/// A request with its one reply type: what [`super::client::call`] sends and what it reads back.
pub trait Call: Into<Request> {
    /// What the supervisor answers this request with when it succeeds.
    type Reply: Reply + Into<Replied>;

    /// The supervisor's typed result of this request as the answer it sends: ties each request
    /// the engine serves to its own reply type at compile time.
    fn answered(result: Result<Self::Reply, SessionError>) -> Result<Replied, SessionError> {
        result.map(Into::into)
    }
}

/// A reply body: serialized once by the supervisor, read back as itself by the client.
pub trait Reply: Serialize + DeserializeOwned {
    /// Take the envelope's blocked requests (untrusted URLs), for the replies that show them to
    /// the agent; the others drop them (nothing prints them).
    fn take_blocked(&mut self, _blocked: Vec<String>) {}
}

/// `inspect`: the Test Kit Page Context, plus a new observation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Inspect {
    /// What to read.
    pub request: InspectRequest,
}

/// `exec`: admit and run one statement.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Exec {
    /// The observation the statement's refs come from (must be the latest).
    pub observation: Option<u64>,
    /// One ACL step block.
    pub statement: String,
    /// Answer with the observation that follows the step, taken in the same turn through the
    /// code path `Observe` uses (an agent turn in one call). Absent: the answer is the step's
    /// alone, and a line without it reads the same.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub then_observe: Option<ViewRequest>,
}

/// Read the page's repair queue without removing anything (`peekRepairBatch`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RepairPeek {
    /// At most this many findings (1..=100).
    pub max: u32,
}

/// Remove exactly these findings from the page's repair queue (`takeRepairBatch`), after the
/// caller appended them to the ledger; answers the removed findings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RepairTake {
    /// The finding ids (at most 100).
    pub ids: Vec<String>,
}

/// Read the reviewer's queued actions without removing them (`peekRepairActions`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RepairActionsPeek {
    /// At most this many actions (1..=100).
    pub max: u32,
}

/// Hand the page the ledger's per-item answers to the actions a drain peeked
/// (`takeRepairActions({answers})`): those with a final answer leave the page's queue, the others
/// stay for the next drain or POST.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RepairActionsTake {
    /// The answers, in the repair endpoint's `actions` answer shape (at most 100). JSON, passed
    /// to the page untouched: an answer to an action that did not validate echoes the page's own
    /// ids as the page sent them (they have no ledger type), and the Test Kit matches on them.
    pub answers: Vec<Value>,
}

/// Write a repair candidate under `dir` and run it with the suite executor in a fresh context of
/// the session's browser, under the session's origin and network policy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RepairProve {
    /// The admitted candidate suite (ACL source).
    pub candidate: String,
    /// Its verification folder, relative to the session folder, below `artifacts/repairs/`.
    pub dir: String,
}

/// Wait (at most `timeout_ms`, ≤ 60 s) for a ready Test Kit revision newer than `after` (any
/// ready one when `None`): the read of a verification's step 1. Answers the revision, or why
/// there was none; decides nothing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WaitRevision {
    /// The revision the page must pass.
    pub after: Option<u64>,
    /// The longest wait in ms.
    pub timeout_ms: u64,
}

/// Resolve `candidates` in order in the page, the first naming exactly one element winning:
/// the read of a verification's step 2 (locators only, never a ref; at most 64).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LocateTarget {
    /// Each candidate with the kind of locator it came from.
    pub candidates: Vec<(LocatorKind, Target)>,
    /// How long the read may take, in ms (at most 20 s).
    pub within_ms: u64,
}

/// Read the page's visible text: the read of a verification's step 3 for page criteria.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReadPageText {
    /// How long the read may take, in ms (at most 20 s).
    pub within_ms: u64,
}

/// Measure a layout finding's destination (and `node`, the element step 2 found again) in the
/// page: the read of a verification's step 3 for layout findings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MeasureLayout {
    /// The check and its destination.
    pub layout: LayoutRequest,
    /// The element found again, when a stable locator names it.
    pub node: Option<Target>,
    /// How long the read may take, in ms (at most 20 s).
    pub within_ms: u64,
}

/// Read the error counts since the document loaded and write the after-evidence (screenshot,
/// bounded Page Context, console, page errors) into `dir` at the same moment: the read of a
/// verification's steps 4–5.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CaptureEvidence {
    /// Session-relative folder below `artifacts/repairs/`.
    pub dir: String,
    /// How long the read may take, in ms (at most 20 s).
    pub within_ms: u64,
}

/// Record a finding's before baseline (console and page errors since the document loaded,
/// screenshot, bounded Page Context) into `dir`. `agent repair-drain` asks for it for every
/// finding it appended from the page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RepairBaseline {
    /// The finding the baseline belongs to.
    pub finding: String,
    /// Session-relative folder, `artifacts/repairs/<finding>/baseline`.
    pub dir: String,
}

/// Wait (at most `timeout_ms`, ≤ 60 s) until the page's repair queue changed after `since`
/// (`subscribeRepairs`). Without `since` it answers at once with the current mark. `a3s-test
/// dev` drains after each change instead of polling. Any other client preempts the wait.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RepairWait {
    /// The mark of the last answer (`None`: answer at once).
    pub since: Option<RepairMark>,
    /// The longest wait in ms.
    pub timeout_ms: u64,
}

/// Mirror ledger status changes in the page (`applyRepairEvent`, one call per event); answers
/// how many the page applied. Events the page does not know (other pages' findings) are skipped.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RepairApply {
    /// The events, as the Test Kit takes them (at most 100).
    pub events: Vec<PageRepairEvent>,
}

/// Close the session with a verdict.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Finish {
    /// Passed or failed.
    pub status: FinishStatus,
    /// What happened, in the agent's words (stored as untrusted text).
    pub summary: String,
    /// Write the session's trace (`trace.json`, `trace.html`) into the session folder
    /// ([`super::trace`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub trace: bool,
}

/// Close the session without a verdict.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Abort {
    /// Why.
    pub reason: Option<String>,
}

/// One turn: every request, tagged by `op` (the shape `events.jsonl` logs it in).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Request {
    /// Observe the page: the outline within a byte budget, or a diff, optionally after the
    /// page settled.
    Observe(ViewRequest),
    /// See [`Inspect`].
    Inspect(Inspect),
    /// See [`Exec`].
    Exec(Exec),
    /// See [`RepairPeek`].
    RepairPeek(RepairPeek),
    /// See [`RepairTake`].
    RepairTake(RepairTake),
    /// See [`RepairActionsPeek`].
    RepairActionsPeek(RepairActionsPeek),
    /// See [`RepairActionsTake`].
    RepairActionsTake(RepairActionsTake),
    /// See [`RepairProve`].
    RepairProve(RepairProve),
    /// See [`RepairBaseline`].
    RepairBaseline(RepairBaseline),
    /// See [`RepairWait`].
    RepairWait(RepairWait),
    /// See [`RepairApply`].
    RepairApply(RepairApply),
    /// Steps 1–5 of a repair verification against this page in one turn (the pipeline's
    /// `observe_page` over the in-process page).
    RepairObserve(ObserveRequest),
    /// See [`WaitRevision`].
    WaitRevision(WaitRevision),
    /// See [`LocateTarget`].
    LocateTarget(LocateTarget),
    /// See [`ReadPageText`].
    ReadPageText(ReadPageText),
    /// See [`MeasureLayout`].
    MeasureLayout(MeasureLayout),
    /// See [`CaptureEvidence`].
    CaptureEvidence(CaptureEvidence),
    /// See [`GroundCapture`].
    GroundCapture(GroundCapture),
    /// See [`GroundMap`].
    GroundMap(GroundMap),
    /// See [`AuditCapture`]: the screenshot and forensic Page Context of one revision.
    AuditCapture(AuditCapture),
    /// See [`ShowAdvice`]: a design review's advice for the page's Review Overlay.
    ShowAdvice(ShowAdvice),
    /// See [`Finish`].
    Finish(Finish),
    /// See [`Abort`].
    Abort(Abort),
}

impl Request {
    /// The request's `op` as the protocol and the turn log name it (`observe`, `repair_peek` …).
    pub fn op(&self) -> String {
        serde_json::to_value(self)
            .ok()
            .and_then(|v| v.get("op").and_then(Value::as_str).map(str::to_string))
            .unwrap_or_default()
    }
}

/// Each request struct: its variant of [`Request`] and its reply type.
macro_rules! calls {
    ($($call:ty => $variant:ident, $reply:ty;)*) => {$(
        impl From<$call> for Request {
            fn from(call: $call) -> Request {
                Request::$variant(call)
            }
        }
        impl Call for $call {
            type Reply = $reply;
        }
    )*};
}

calls! {
    ViewRequest => Observe, Observation;
    Inspect => Inspect, Observation;
    Exec => Exec, ExecutedOnWire;
    RepairPeek => RepairPeek, FindingBatch;
    RepairTake => RepairTake, FindingBatch;
    RepairActionsPeek => RepairActionsPeek, ActionBatch;
    RepairActionsTake => RepairActionsTake, ActionBatch;
    RepairProve => RepairProve, CandidateRecord;
    RepairBaseline => RepairBaseline, Baseline;
    RepairWait => RepairWait, Waited;
    RepairApply => RepairApply, u32;
    ObserveRequest => RepairObserve, PageVerification;
    WaitRevision => WaitRevision, RevisionSeen;
    LocateTarget => LocateTarget, Located;
    ReadPageText => ReadPageText, PageText;
    MeasureLayout => MeasureLayout, LayoutReading;
    CaptureEvidence => CaptureEvidence, Captured;
    GroundCapture => GroundCapture, GroundShot;
    GroundMap => GroundMap, GroundHits;
    AuditCapture => AuditCapture, AuditCaptured;
    ShowAdvice => ShowAdvice, AdviceShown;
    Finish => Finish, Closing;
    Abort => Abort, Closing;
}

/// Any reply, as the supervisor serializes it: untagged, so each is exactly its own JSON and the
/// client, which knows what it asked, reads it as that request's [`Call::Reply`].
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Replied {
    /// `observe`, `inspect`.
    Observation(Box<Observation>),
    /// `exec`.
    Executed(Box<ExecutedOnWire>),
    /// `repair_peek`, `repair_take`.
    Findings(FindingBatch),
    /// `repair_actions_peek`, `repair_actions_take`.
    Actions(ActionBatch),
    /// `repair_prove`.
    Candidate(Box<CandidateRecord>),
    /// `repair_baseline`.
    Baseline(Box<Baseline>),
    /// `repair_wait`.
    Waited(Waited),
    /// `repair_apply`: how many events the page applied.
    Applied(u32),
    /// `repair_observe`.
    Verification(Box<PageVerification>),
    /// `wait_revision`.
    Revision(RevisionSeen),
    /// `locate_target`.
    Located(Box<Located>),
    /// `read_page_text`.
    PageText(PageText),
    /// `measure_layout`.
    Layout(Box<LayoutReading>),
    /// `capture_evidence`.
    Captured(Box<Captured>),
    /// `ground_capture`.
    GroundShot(Box<GroundShot>),
    /// `ground_map`.
    GroundHits(GroundHits),
    /// `audit_capture`.
    AuditCaptured(Box<AuditCaptured>),
    /// `show_advice`.
    AdviceShown(AdviceShown),
    /// `finish`, `abort`.
    Closing(Box<Closing>),
}

impl Replied {
    /// The observation the turn took, when it took one (for the turn log).
    pub fn observation(&self) -> Option<u64> {
        match self {
            Replied::Observation(o) => Some(o.observation),
            Replied::Executed(e) => e.observation.as_ref().map(|o| o.observation),
            _ => None,
        }
    }
}

/// Each reply type: its variant of [`Replied`] (boxed when large) and whether it shows the
/// blocked requests.
macro_rules! replies {
    ($($reply:ty => $variant:ident $(, $boxed:ident)?;)*) => {$(
        impl From<$reply> for Replied {
            fn from(reply: $reply) -> Replied {
                Replied::$variant($($boxed::new)?(reply))
            }
        }
    )*};
}

replies! {
    Observation => Observation, Box;
    ExecutedOnWire => Executed, Box;
    FindingBatch => Findings;
    ActionBatch => Actions;
    CandidateRecord => Candidate, Box;
    Baseline => Baseline, Box;
    Waited => Waited;
    u32 => Applied;
    PageVerification => Verification, Box;
    RevisionSeen => Revision;
    Located => Located, Box;
    PageText => PageText;
    LayoutReading => Layout, Box;
    Captured => Captured, Box;
    GroundShot => GroundShot, Box;
    GroundHits => GroundHits;
    AuditCaptured => AuditCaptured, Box;
    AdviceShown => AdviceShown;
    Closing => Closing, Box;
}

impl Reply for Observation {
    fn take_blocked(&mut self, blocked: Vec<String>) {
        self.blocked_requests = blocked;
    }
}

impl Reply for ExecutedOnWire {
    fn take_blocked(&mut self, blocked: Vec<String>) {
        self.blocked_requests = blocked;
    }
}

impl Reply for Closing {
    fn take_blocked(&mut self, blocked: Vec<String>) {
        self.blocked_requests = blocked;
    }
}

impl Reply for FindingBatch {}
impl Reply for ActionBatch {}
impl Reply for CandidateRecord {}
impl Reply for Baseline {}
impl Reply for Waited {}
impl Reply for u32 {}
impl Reply for PageVerification {}
impl Reply for RevisionSeen {}
impl Reply for Located {}
impl Reply for PageText {}
impl Reply for LayoutReading {}
impl Reply for Captured {}
impl Reply for GroundShot {}
impl Reply for GroundHits {}
impl Reply for AuditCaptured {}
impl Reply for AdviceShown {}

/// A request line: the version the client speaks and what it asks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RequestLine {
    /// [`PROTOCOL_VERSION`] of the client.
    pub version: u32,
    /// The request.
    pub request: Request,
}

impl RequestLine {
    /// `request` in this build's protocol.
    pub fn new(request: Request) -> Self {
        RequestLine {
            version: PROTOCOL_VERSION,
            request,
        }
    }

    /// Read a request line (the supervisor's side). A line of another version is
    /// `test.session.supervisor` naming both versions; one that is not a request of this version
    /// is `test.session.schema`.
    pub fn read(line: &str) -> Result<Request, SessionError> {
        let invalid = |e: serde_json::Error| {
            SessionError::new(SessionCode::Schema, format!("invalid request: {e}"))
        };
        let theirs = serde_json::from_str::<Probe>(line)
            .map_err(invalid)?
            .version();
        if theirs != PROTOCOL_VERSION {
            return Err(SessionError::new(
                SessionCode::Supervisor,
                format!(
                    "this a3s-test speaks session protocol version {theirs} but the session's \
                     supervisor speaks version {PROTOCOL_VERSION}; {RESTART_HINT}"
                ),
            ));
        }
        serde_json::from_str::<RequestLine>(line)
            .map(|l| l.request)
            .map_err(invalid)
    }
}

/// Just the version of a line, whatever else it holds.
#[derive(Deserialize)]
struct Probe {
    #[serde(default)]
    version: Option<u32>,
}

impl Probe {
    fn version(&self) -> u32 {
        self.version.unwrap_or(UNVERSIONED)
    }
}

/// A refused or failed turn: the error and the command that gets the agent further.
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    /// The error.
    pub error: SessionError,
    /// The command to run next, when one would help (`super::next::after_error`).
    pub next: Option<String>,
}

/// An answer line: the reply (or the refusal) and the fields any answer carries.
#[derive(Debug, Clone, PartialEq)]
pub struct Envelope<T> {
    /// [`PROTOCOL_VERSION`] of the supervisor.
    pub version: u32,
    /// The reply, or why there is none.
    pub outcome: Result<T, Refusal>,
    /// True when the supervisor exits after this answer.
    pub closing: bool,
    /// Requests the network policy blocked since the last answer (untrusted URLs).
    pub blocked_requests: Vec<String>,
}

impl<T> Envelope<T> {
    /// A successful answer.
    pub fn reply(reply: T) -> Self {
        Envelope {
            version: PROTOCOL_VERSION,
            outcome: Ok(reply),
            closing: false,
            blocked_requests: Vec::new(),
        }
    }

    /// A refusal or failure.
    pub fn error(error: SessionError, next: Option<String>) -> Self {
        Envelope {
            version: PROTOCOL_VERSION,
            outcome: Err(Refusal { error, next }),
            closing: false,
            blocked_requests: Vec::new(),
        }
    }
}

impl<T: Reply> Envelope<T> {
    /// Read an answer line (the client's side). A line of another version (or without one) is
    /// `test.session.supervisor` naming both versions with a hint; so is a line that is not an
    /// answer of this version at all.
    pub fn read(line: &str) -> Result<Self, SessionError> {
        let supervisor = |m: String| SessionError::new(SessionCode::Supervisor, m);
        let probe = serde_json::from_str::<Probe>(line).map_err(|e| {
            supervisor(format!(
                "unreadable supervisor answer (session protocol version {PROTOCOL_VERSION} \
                 expected): {e}; {RESTART_HINT}"
            ))
        })?;
        let theirs = probe.version();
        if theirs != PROTOCOL_VERSION {
            return Err(supervisor(format!(
                "the session's supervisor speaks session protocol version {theirs} and this \
                 a3s-test speaks version {PROTOCOL_VERSION}; {RESTART_HINT}"
            )));
        }
        let wire: Wire<T> = serde_json::from_str(line).map_err(|e| {
            supervisor(format!(
                "the supervisor's answer does not fit session protocol version \
                 {PROTOCOL_VERSION}: {e}"
            ))
        })?;
        let outcome = match (wire.reply, wire.error) {
            (Some(reply), None) => Ok(reply),
            (None, Some(error)) => Err(Refusal {
                error,
                next: wire.next,
            }),
            _ => {
                return Err(supervisor(
                    "the supervisor's answer carries neither exactly one reply nor one error"
                        .into(),
                ))
            }
        };
        Ok(Envelope {
            version: wire.version,
            outcome,
            closing: wire.closing,
            blocked_requests: wire.blocked_requests,
        })
    }

    /// The reply with the blocked requests it shows, or the error with its next command (in the
    /// detail, where the CLI prints it).
    pub fn into_result(self) -> Result<T, SessionError> {
        match self.outcome {
            Ok(mut reply) => {
                reply.take_blocked(self.blocked_requests);
                Ok(reply)
            }
            Err(Refusal { error, next }) => Err(match next {
                Some(next) => error.with_next(next),
                None => error,
            }),
        }
    }
}

impl<T: Serialize> Envelope<T> {
    /// The answer as one line (without the newline).
    pub fn to_line(&self) -> Vec<u8> {
        let (reply, error, next) = match &self.outcome {
            Ok(reply) => (Some(reply), None, None),
            Err(r) => (None, Some(&r.error), r.next.as_deref()),
        };
        let wire = WireOut {
            version: self.version,
            reply,
            error,
            next,
            closing: self.closing,
            blocked_requests: &self.blocked_requests,
        };
        serde_json::to_vec(&wire).expect("answers serialize")
    }
}

/// The answer to a request of another protocol version: this version's error envelope, plus the
/// `ok`/`body` fields an unversioned client reads, so it too shows the error instead of a parse
/// failure.
pub fn foreign_answer(error: &SessionError) -> Vec<u8> {
    #[derive(Serialize)]
    struct Foreign<'a> {
        version: u32,
        error: &'a SessionError,
        closing: bool,
        ok: bool,
        body: &'a SessionError,
    }
    let answer = Foreign {
        version: PROTOCOL_VERSION,
        error,
        closing: false,
        ok: false,
        body: error,
    };
    serde_json::to_vec(&answer).expect("errors serialize")
}

/// An answer as it is read: exactly one of `reply` and `error` (checked in [`Envelope::read`]).
#[derive(Deserialize)]
struct Wire<T> {
    version: u32,
    reply: Option<T>,
    #[serde(default)]
    error: Option<SessionError>,
    #[serde(default)]
    next: Option<String>,
    closing: bool,
    #[serde(default)]
    blocked_requests: Vec<String>,
}

/// An answer as it is written.
#[derive(Serialize)]
struct WireOut<'a, T> {
    version: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    reply: Option<&'a T>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a SessionError>,
    #[serde(skip_serializing_if = "Option::is_none")]
    next: Option<&'a str>,
    closing: bool,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    blocked_requests: &'a [String],
}

#[cfg(test)]
mod tests;
