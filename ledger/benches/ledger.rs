//! Benchmarks of the repair ledger (run: `cargo bench -p a3s-test-ledger`).
//!
//! 1. Inbox over ~100,000 events across 100 sessions (budget: ≤ 200 ms): one session ledger
//!    of ~1,000 events is written through the real API (mixed statuses, live leases), copied
//!    to 100 session folders, then read + folded + ranked by `read_sessions` + `build_inbox`.
//! 2. Append throughput with fsync: raw single-event appends, full `Ledger::apply` operations
//!    (lock, read, fold, check, append, fsync) on a ~1,000-event ledger, and 100-finding intakes.
//!
//! Files live under `target/` (a real disk), not a tmpfs, so fsync costs what it costs.

// The tests' verification record (one check, one proven candidate) is the bench's too.
#[path = "../tests/common/mod.rs"]
mod common;

use a3s_test_ledger::store::{LedgerWriter, StoreLimits};
use a3s_test_ledger::*;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

const SESSIONS: usize = 100;
const FINDINGS: usize = 320;

fn finding(id: &str) -> String {
    format!(
        r#"{{"id":"{id}","createdAt":"2026-01-01T00:00:00Z","target":{{"kind":"node","nodeIds":["n-{id}","n-{id}-b"]}},"instruction":"Make the {id} button use the brand blue and align it with the form's left edge","successCriteria":["the button is blue",{{"kind":"target_text","equals":"Save"}}],"intent":"fix","severity":"important","status":"queued","context":{{"untrusted":true,"contextRevision":12,"route":"/settings","page":{{"url":"http://localhost:5173/settings","title":"Settings"}},"viewport":{{"width":1280,"height":800,"dpr":1}},"locators":[{{"kind":"role","role":"button","name":"Save"}},{{"kind":"testId","value":"save"}}],"sourceHints":[{{"span":"src/Settings.tsx:42:7","confidence":0.92,"origin":"boundary_hint","relation":"exact"}}]}}}}"#
    )
}

fn doc(ids: impl Iterator<Item = String>) -> Vec<u8> {
    let items: Vec<String> = ids.map(|i| finding(&i)).collect();
    common::doc(&items).into_bytes()
}

struct Seq(u64);
impl Seq {
    fn rid(&mut self) -> RequestId {
        self.0 += 1;
        RequestId::parse(&format!("r{}", self.0)).unwrap()
    }
}

/// Write one realistic session ledger through the API; returns its event count.
fn build_session(ledger: &Ledger) -> usize {
    for chunk in (0..FINDINGS).collect::<Vec<_>>().chunks(100) {
        let findings = parse_document(&doc(chunk.iter().map(|i| format!("f{i}")))).unwrap();
        ledger.intake(findings, Actor::Human).unwrap();
    }
    let mut seq = Seq(0);
    let files = vec!["src/Settings.tsx".to_owned(), "src/theme.css".to_owned()];
    for i in 0..FINDINGS {
        let id = FindingId::parse(&format!("f{i}")).unwrap();
        let mut attempt = None;
        let mut run = |actor: Actor, action: Action, attempt: &mut Option<AttemptId>| {
            let applied = ledger
                .apply(Request {
                    finding_id: id.clone(),
                    actor,
                    request_id: (actor != Actor::A3sTest).then(|| seq.rid()),
                    attempt_id: if action.op().needs_attempt(actor) {
                        attempt.clone()
                    } else {
                        None
                    },
                    action,
                })
                .unwrap();
            if applied.op == Op::Claim {
                *attempt = applied.attempt_id;
            }
        };
        let claim = Action::Claim {
            pinned: None,
            lease_ms: Some(900_000),
        };
        let progress = Action::Progress {
            message: Some("editing Settings.tsx".into()),
            lease_ms: Some(900_000),
        };
        let complete = Action::Complete {
            summary: Some("used the brand token".into()),
            changed_files: files.clone(),
            lease_ms: Some(900_000),
            replacement: None,
        };
        let steps: Vec<(Actor, Action)> = match i % 6 {
            0 => vec![],
            1 => vec![(Actor::Agent, claim)],
            2 => vec![(Actor::Agent, claim), (Actor::Agent, progress)],
            3 => vec![
                (Actor::Agent, claim),
                (Actor::Agent, progress),
                (Actor::Agent, complete),
            ],
            4 => vec![
                (Actor::Agent, claim),
                (Actor::Agent, progress),
                (Actor::Agent, complete),
                (
                    Actor::A3sTest,
                    Action::VerifyStart {
                        changed_files: files.clone(),
                        lease_ms: None,
                    },
                ),
                (
                    Actor::A3sTest,
                    Action::VerifyResult {
                        record: Box::new(common::record(true)),
                        changed_files: files.clone(),
                        auto_resolve: None,
                    },
                ),
                (Actor::Human, Action::Accept { message: None }),
            ],
            _ => vec![(Actor::Human, Action::Reject { message: None })],
        };
        for (actor, action) in steps {
            run(actor, action, &mut attempt);
        }
    }
    ledger.read().unwrap().events.len()
}

/// CPU time (user + system) of this process so far: unlike wall time, it does not grow when
/// other programs compete for the two cores.
fn cpu_time() -> Duration {
    rusage(libc::RUSAGE_SELF)
}

/// CPU time of the calling thread only.
fn thread_cpu_time() -> Duration {
    rusage(libc::RUSAGE_THREAD)
}

fn rusage(who: libc::c_int) -> Duration {
    // SAFETY: getrusage fills a zeroed struct we own.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(who, &mut u) };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(u.ru_utime) + tv(u.ru_stime)
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "?".into())
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

fn main() {
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target");
    std::fs::create_dir_all(&base).unwrap();
    let dir = tempfile::Builder::new()
        .prefix("ledger-bench-")
        .tempdir_in(&base)
        .unwrap();
    // A3S_BENCH_KEEP=1 keeps the generated ledgers for profiling.
    let kept = std::env::var_os("A3S_BENCH_KEEP").map(|_| dir.path().to_owned());
    let root = dir.path();
    let clock = Arc::new(SystemClock);

    // Build one session through the API and time the full operation path while doing so.
    let first = SessionId::parse("s000").unwrap();
    let ledger = Ledger::open(root, &first, clock.clone());
    let t = Instant::now();
    let per_session = build_session(&ledger);
    let build_time = t.elapsed();
    let source = ledger.path().to_owned();
    for i in 1..SESSIONS {
        let s = SessionId::parse(&format!("s{i:03}")).unwrap();
        let path = session_dir(root, &s).join(LEDGER_FILE).path();
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::copy(&source, &path).unwrap();
    }
    let bytes = std::fs::metadata(&source).unwrap().len() as usize * SESSIONS;
    let total_events = per_session * SESSIONS;

    let ids = RandomRequestIds::default();
    let limits = StoreLimits::default();
    let mut runs = Vec::new();
    let mut items = 0;
    let cpu_before = cpu_time();
    for _ in 0..15 {
        let t = Instant::now();
        let ledgers = read_sessions(root, None, &limits).unwrap();
        let inbox = build_inbox(
            &ledgers,
            clock.now_ms(),
            InboxOptions::new(100, false).unwrap(),
            &ids,
        );
        runs.push(t.elapsed());
        items = inbox.total;
        assert!(inbox.warnings.is_empty());
    }
    let inbox_cpu = (cpu_time() - cpu_before) / 15;
    let inbox_median = median(runs.clone());
    let inbox_max = *runs.iter().max().unwrap();
    // The same work on one thread: what reading + folding costs without any scheduling.
    let sessions: Vec<SessionId> = (0..SESSIONS)
        .map(|i| SessionId::parse(&format!("s{i:03}")).unwrap())
        .collect();
    let mut serial_cpu = Vec::new();
    let serial_runs: Vec<Duration> = (0..5)
        .map(|_| {
            let t = Instant::now();
            let c = thread_cpu_time();
            let ledgers: Vec<_> = sessions
                .iter()
                .flat_map(|s| read_sessions(root, Some(s), &limits).unwrap())
                .collect();
            let _ = build_inbox(
                &ledgers,
                clock.now_ms(),
                InboxOptions::new(100, false).unwrap(),
                &ids,
            );
            serial_cpu.push(thread_cpu_time() - c);
            t.elapsed()
        })
        .collect();
    let single = SessionId::parse("s050").unwrap();
    let single_runs: Vec<Duration> = (0..15)
        .map(|_| {
            let t = Instant::now();
            let ledgers = read_sessions(root, Some(&single), &limits).unwrap();
            let _ = build_inbox(
                &ledgers,
                clock.now_ms(),
                InboxOptions::new(20, false).unwrap(),
                &ids,
            );
            t.elapsed()
        })
        .collect();

    // Raw appends: one event per write + fdatasync.
    let raw_ledger = Ledger::at_path(
        a3s_test_fsroot::ConfinedPath::new(root, std::path::Path::new("raw").join(LEDGER_FILE)),
        clock.clone(),
    );
    raw_ledger
        .intake(
            parse_document(&doc(std::iter::once("f0".to_owned()))).unwrap(),
            Actor::Human,
        )
        .unwrap();
    let state = raw_ledger.read().unwrap();
    let template = serde_json::to_string(&state.events[0]).unwrap();
    drop(state);
    let (mut writer, events) = LedgerWriter::open(raw_ledger.location(), limits).unwrap();
    let first = events.len() as u64 + 1;
    const RAW: usize = 500;
    let t = Instant::now();
    for (i, seq) in (first..).take(RAW).enumerate() {
        let line = template
            .replace("\"seq\":1", &format!("\"seq\":{seq}"))
            .replace("\"f0\"", &format!("\"g{i}\""));
        let ev: Event = serde_json::from_str(&line).unwrap();
        writer.append(vec![ev]).unwrap();
    }
    let raw_time = t.elapsed();
    drop(writer);

    // Full operations on a ~1,000-event ledger (progress renewals on live attempts).
    let state = ledger.read().unwrap();
    let targets: Vec<(FindingId, AttemptId)> = state
        .findings
        .iter()
        .filter(|f| f.status == RepairStatus::Repairing)
        .filter_map(|f| Some((f.id.clone(), f.lease.as_ref()?.attempt_id.clone())))
        .collect();
    drop(state);
    const OPS: usize = 200;
    let mut seq = Seq(1_000_000);
    let t = Instant::now();
    for i in 0..OPS {
        let (id, attempt) = &targets[i % targets.len()];
        ledger
            .apply(Request {
                finding_id: id.clone(),
                actor: Actor::Agent,
                request_id: Some(seq.rid()),
                attempt_id: Some(attempt.clone()),
                action: Action::Progress {
                    message: None,
                    lease_ms: Some(900_000),
                },
            })
            .unwrap();
    }
    let op_time = t.elapsed();

    // Batch intakes: 100 findings per append.
    let batch_ledger = Ledger::at_path(
        a3s_test_fsroot::ConfinedPath::new(root, std::path::Path::new("batch").join(LEDGER_FILE)),
        clock.clone(),
    );
    const BATCHES: usize = 20;
    let t = Instant::now();
    for b in 0..BATCHES {
        let findings = parse_document(&doc((0..100).map(|i| format!("b{b}-{i}")))).unwrap();
        batch_ledger.intake(findings, Actor::Human).unwrap();
    }
    let batch_time = t.elapsed();

    let rate = |n: usize, d: Duration| format!("{:.0}/s", n as f64 / d.as_secs_f64());
    println!("## Repair ledger\n");
    println!(
        "Inbox: {SESSIONS} sessions x {per_session} events = {total_events} events ({:.1} MiB), \
         {items} open findings ranked, limit 100.\n",
        bytes as f64 / 1024.0 / 1024.0
    );
    println!(
        "Machine: {} cores, load average {} when measured.\n",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        load_average()
    );
    println!("| measurement | result |");
    println!("| --- | --- |");
    println!(
        "| inbox, all {SESSIONS} sessions (read + fold + rank), median of 15 | {} (max {}; budget 200 ms) |",
        ms(inbox_median),
        ms(inbox_max)
    );
    println!(
        "| inbox, all {SESSIONS} sessions, CPU time per run (user + system, all threads) | {} |",
        ms(inbox_cpu)
    );
    println!(
        "| inbox, all {SESSIONS} sessions on one thread, median of 5 | {} wall, {} thread CPU |",
        ms(median(serial_runs)),
        ms(median(serial_cpu))
    );
    println!(
        "| inbox, one session of {per_session} events, median of 15 | {} |",
        ms(median(single_runs))
    );
    println!(
        "| raw append, 1 event per write + fdatasync ({RAW} appends) | {} per append, {} |",
        ms(raw_time / RAW as u32),
        rate(RAW, raw_time)
    );
    println!(
        "| full operation on a {}-event ledger: lock, read, fold, check, append, fdatasync ({OPS} progress ops) | {} per op, {} |",
        per_session,
        ms(op_time / OPS as u32),
        rate(OPS, op_time)
    );
    println!(
        "| intake of 100 findings in one append ({BATCHES} batches) | {} per batch, {} findings |",
        ms(batch_time / BATCHES as u32),
        rate(BATCHES * 100, batch_time)
    );
    println!(
        "| building one {per_session}-event session through the API (setup) | {} |",
        ms(build_time)
    );
    if let Some(path) = kept {
        std::mem::forget(dir);
        eprintln!("kept {}", path.display());
    }
    assert!(
        inbox_median <= Duration::from_millis(200),
        "inbox over budget: {}",
        ms(inbox_median)
    );
}
