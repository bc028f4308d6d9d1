//! The repair loop's rules beyond the transition table: idempotent request ids, leases on an
//! injected clock, the changed-files rule, conflict holds, auto-resolve, and the inbox and
//! inspect views (including that generated commands carry validated ids only).

mod common;

use a3s_test_ledger::*;
use common::*;
use RepairStatus::*;

#[test]
fn a_repeated_request_id_is_idempotent_when_identical() {
    let fx = Fixture::new();
    fx.import(&[finding("f1", ""), finding("f2", "")]).unwrap();
    let rid = RequestId::parse("claim-1").unwrap();
    let req = Request {
        finding_id: fid("f1"),
        actor: Actor::Agent,
        request_id: Some(rid.clone()),
        attempt_id: None,
        action: Action::Claim {
            lease_ms: None,
            pinned: None,
        },
    };
    let first = fx.ledger.apply(req.clone()).unwrap();
    let bytes = fx.bytes();
    fx.clock.advance(1000);
    let again = fx.ledger.apply(req.clone()).unwrap();
    assert!(again.replayed && !first.replayed);
    assert_eq!(again.seq, first.seq);
    assert_eq!(again.attempt_id, first.attempt_id);
    assert_eq!(fx.bytes(), bytes, "a replay appends nothing");

    let conflicts = [
        Request {
            action: Action::Claim {
                lease_ms: Some(60_000),
                pinned: None,
            },
            ..req.clone()
        },
        Request {
            finding_id: fid("f2"),
            ..req.clone()
        },
        Request {
            actor: Actor::Human,
            action: Action::Reject { message: None },
            ..req.clone()
        },
    ];
    for c in conflicts {
        let err = fx.ledger.apply(c).unwrap_err();
        assert_eq!(err.code, ErrorCode::IdempotencyConflict);
        assert_eq!(fx.bytes(), bytes);
    }
}

#[test]
fn a_resent_finding_is_a_no_op_and_a_changed_one_refuses_the_batch() {
    let fx = Fixture::new();
    let first = fx.import(&[finding("f1", "")]).unwrap();
    assert_eq!(first.accepted, vec![fid("f1")]);
    let bytes = fx.bytes();
    let again = fx.import(&[finding("f1", "")]).unwrap();
    assert_eq!(again.duplicates, vec![fid("f1")]);
    assert!(again.accepted.is_empty());
    assert_eq!(fx.bytes(), bytes);
    let changed = finding("f1", "").replace("blue", "red");
    let err = fx.import(&[finding("f2", ""), changed]).unwrap_err();
    assert_eq!(err.code, ErrorCode::IdempotencyConflict);
    assert_eq!(fx.bytes(), bytes, "nothing of the batch is recorded");
}

#[test]
fn a_lease_that_expires_before_editing_returns_the_finding_to_the_queue() {
    let fx = Fixture::new();
    fx.import(&[finding("f1", "")]).unwrap();
    let claimed = fx
        .act(
            "f1",
            Actor::Agent,
            Action::Claim {
                lease_ms: Some(60_000),
                pinned: None,
            },
        )
        .unwrap();
    let attempt = claimed.attempt_id.clone().unwrap();
    assert_eq!(claimed.lease.as_ref().unwrap().expires_at_ms, T0 + 60_000);
    fx.clock.advance(59_999);
    assert_eq!(fx.status("f1"), Claimed);
    fx.clock.advance(1);
    // The view shows it expired before any write applies the rule.
    let state = fx.ledger.read().unwrap();
    let inbox = build_inbox(
        &[(fx.session.clone(), Ok(state))],
        fx.clock.now_ms(),
        InboxOptions::new(10, false).unwrap(),
        &RandomRequestIds::default(),
    );
    assert_eq!(inbox.items[0].group, InboxGroup::ExpiredLease);
    assert_eq!(inbox.items[0].next_action.kind, NextActionKind::Claim);
    let err = fx
        .op("f1", Actor::Agent, Some(attempt), progress().1)
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::LeaseExpired);
    assert_eq!(fx.status("f1"), Queued);
    let state = fx.ledger.read().unwrap();
    let last = state.events.last().unwrap();
    assert_eq!(last.op(), Op::Expire);
    assert_eq!(last.actor, Actor::A3sTest);
    // A second worker can now claim it, with a new attempt.
    let second = fx.act("f1", Actor::Agent, claim().1).unwrap();
    assert_ne!(second.attempt_id, claimed.attempt_id);
}

#[test]
fn a_lease_that_expires_after_editing_began_needs_input() {
    for status in [Repairing, Verifying] {
        let fx = Fixture::new();
        fx.import(&[finding("f1", "")]).unwrap();
        fx.drive("f1", status);
        let attempt = fx.active_attempt("f1");
        fx.clock.advance(lease::DEFAULT_LEASE_MS);
        let err = fx.op("f1", Actor::Agent, attempt, fail().1).unwrap_err();
        assert_eq!(err.code, ErrorCode::LeaseExpired);
        assert_eq!(fx.status("f1"), NeedsInput, "from {status}");
    }
}

#[test]
fn progress_renews_the_lease_and_lengths_are_bounded() {
    let fx = Fixture::new();
    fx.import(&[finding("f1", "")]).unwrap();
    fx.act("f1", Actor::Agent, claim().1).unwrap();
    fx.clock.advance(200_000);
    let p = fx
        .act(
            "f1",
            Actor::Agent,
            Action::Progress {
                message: None,
                lease_ms: Some(lease::MAX_LEASE_MS),
            },
        )
        .unwrap();
    assert_eq!(
        p.lease.unwrap().expires_at_ms,
        T0 + 200_000 + lease::MAX_LEASE_MS
    );
    let err = fx
        .act(
            "f1",
            Actor::Agent,
            Action::Progress {
                message: None,
                lease_ms: Some(lease::MAX_LEASE_MS + 1),
            },
        )
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidLease);
}

#[test]
fn verification_must_repeat_the_exact_changed_files() {
    let fx = Fixture::new();
    fx.import(&[finding("f1", "")]).unwrap();
    fx.drive("f1", Verifying);
    let before = fx.bytes();
    let mut reversed = files();
    reversed.reverse();
    for wrong in [reversed, vec![], vec![files()[0].clone()]] {
        let err = fx
            .act(
                "f1",
                Actor::A3sTest,
                Action::VerifyStart {
                    changed_files: wrong,
                    lease_ms: None,
                },
            )
            .unwrap_err();
        assert_eq!(err.code, ErrorCode::ChangeMismatch);
        assert_eq!(fx.bytes(), before);
    }
    let err = fx
        .act(
            "f1",
            Actor::A3sTest,
            Action::VerifyResult {
                record: Box::new(record(true)),
                changed_files: vec![],
                auto_resolve: None,
            },
        )
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::ChangeMismatch);
    assert_eq!(fx.status("f1"), Verifying);
    fx.act("f1", Actor::A3sTest, verify_start().1).unwrap();
}

#[test]
fn a_verification_lease_covers_the_checks_it_runs() {
    const CHECKS_MS: u64 = 20 * 60 * 1000;
    let start = |lease_ms| Action::VerifyStart {
        changed_files: files(),
        lease_ms,
    };
    // A3S Test asks for a lease as long as its checks may take: a verdict recorded 20 minutes
    // later (past the default lease, and past the longest an agent can ask for) still lands.
    let fx = Fixture::new();
    fx.import(&[finding("f1", "")]).unwrap();
    fx.drive("f1", Verifying);
    let started = fx
        .act("f1", Actor::A3sTest, start(Some(CHECKS_MS + 60_000)))
        .unwrap();
    let lease = started.lease.expect("a verifying finding holds a lease");
    assert_eq!(lease.expires_at_ms, fx.clock.now_ms() + CHECKS_MS + 60_000);
    fx.clock.advance(CHECKS_MS);
    let done = fx.act("f1", Actor::A3sTest, verify(true).1).unwrap();
    assert_eq!(done.to, ReviewReady);
    // With the default lease the same wait lets it lapse: the expiry rule moves the finding on
    // and the verdict has nothing left to record.
    let fx = Fixture::new();
    fx.import(&[finding("f1", "")]).unwrap();
    fx.drive("f1", Verifying);
    fx.act("f1", Actor::A3sTest, start(None)).unwrap();
    fx.clock.advance(CHECKS_MS);
    assert!(fx.act("f1", Actor::A3sTest, verify(true).1).is_err());
    assert_eq!(fx.status("f1"), NeedsInput);
    // The length is bounded like every other lease.
    let fx = Fixture::new();
    fx.import(&[finding("f1", "")]).unwrap();
    fx.drive("f1", Verifying);
    let err = fx
        .act(
            "f1",
            Actor::A3sTest,
            start(Some(lease::MAX_VERIFY_LEASE_MS + 1)),
        )
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidLease);
}

#[test]
fn an_explicit_empty_change_list_is_kept_and_must_be_repeated() {
    let fx = Fixture::new();
    fx.import(&[finding("f1", "")]).unwrap();
    fx.drive("f1", Repairing);
    fx.act(
        "f1",
        Actor::Agent,
        Action::Complete {
            summary: None,
            changed_files: vec![],
            lease_ms: None,
            replacement: None,
        },
    )
    .unwrap();
    let err = fx.act("f1", Actor::A3sTest, verify_start().1).unwrap_err();
    assert_eq!(err.code, ErrorCode::ChangeMismatch);
    fx.act(
        "f1",
        Actor::A3sTest,
        Action::VerifyStart {
            changed_files: vec![],
            lease_ms: None,
        },
    )
    .unwrap();
}

#[test]
fn a_declared_replacement_is_kept_with_its_attempt_and_bounded() {
    let fx = Fixture::new();
    fx.import(&[finding("f1", "")]).unwrap();
    fx.drive("f1", Repairing);
    let complete_with = |replacement: &str| Action::Complete {
        summary: None,
        changed_files: files(),
        lease_ms: None,
        replacement: Some(replacement.into()),
    };
    for bad in ["", "role(\"button\")\ncss(\"x\")", &"x".repeat(4097)] {
        let err = fx.act("f1", Actor::Agent, complete_with(bad)).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidInput, "{bad:?}");
    }
    assert_eq!(
        fx.status("f1"),
        Repairing,
        "a refused completion changes nothing"
    );
    fx.act(
        "f1",
        Actor::Agent,
        complete_with(r#"role("button", "Pay")"#),
    )
    .unwrap();
    let record = fx.inspect("f1").unwrap();
    let attempt = record.attempts.last().unwrap();
    assert_eq!(
        attempt.replacement.as_deref(),
        Some(r#"role("button", "Pay")"#)
    );
    // The ledger line carries it; a completion without one leaves the field out entirely.
    let text = String::from_utf8(fx.bytes()).unwrap();
    assert!(
        text.contains(r#""replacement":"role(\"button\", \"Pay\")""#),
        "{text}"
    );
}

#[test]
fn rejecting_a_verified_repair_needs_a_reason_and_cancelling_does_not() {
    let fx = Fixture::new();
    fx.import(&[finding("f1", ""), finding("f2", "")]).unwrap();
    fx.drive("f1", ReviewReady);
    let before = fx.bytes();
    for message in [None, Some("  ".to_string())] {
        let err = fx
            .act("f1", Actor::Human, Action::Reject { message })
            .unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidInput);
        assert!(err.message.contains("reason"), "{}", err.message);
        assert_eq!(fx.bytes(), before);
    }
    let reason = Some("the button is still too small".to_string());
    let dismissed = fx
        .act("f1", Actor::Human, Action::Reject { message: reason })
        .unwrap();
    assert_eq!(dismissed.to, Dismissed);
    // Withdrawing a finding nobody repaired yet needs no reason.
    let cancelled = fx
        .act("f2", Actor::Human, Action::Reject { message: None })
        .unwrap();
    assert_eq!(cancelled.to, Cancelled);
}

#[test]
fn declared_conflicts_hold_both_queued_findings() {
    let fx = Fixture::new();
    let r = fx
        .import(&[
            conflicting("f1", "f2"),
            finding("f2", ""),
            finding("f3", ""),
        ])
        .unwrap();
    assert_eq!(r.held.len(), 2);
    assert_eq!(fx.status("f1"), NeedsInput);
    assert_eq!(fx.status("f2"), NeedsInput);
    assert_eq!(fx.status("f3"), Queued);
    // Across batches: a later finding declaring a conflict with a queued one.
    fx.import(&[conflicting("f4", "f3")]).unwrap();
    assert_eq!(fx.status("f3"), NeedsInput);
    assert_eq!(fx.status("f4"), NeedsInput);
}

#[test]
fn conflicts_are_never_inferred_from_instruction_text() {
    let fx = Fixture::new();
    let f2 = finding("f2", "").replace(
        "Make the f2 button blue",
        "this conflicts_with f1; relations: conflicts with f1",
    );
    let r = fx.import(&[finding("f1", ""), f2]).unwrap();
    assert!(r.held.is_empty());
    assert_eq!(fx.status("f1"), Queued);
    assert_eq!(fx.status("f2"), Queued);
}

#[test]
fn a_conflict_with_a_finding_that_is_not_queued_holds_nothing() {
    let fx = Fixture::new();
    fx.import(&[finding("f1", "")]).unwrap();
    fx.drive("f1", Repairing);
    fx.import(&[conflicting("f2", "f1")]).unwrap();
    assert_eq!(fx.status("f2"), Queued);
    assert_eq!(fx.status("f1"), Repairing);
}

#[test]
fn overlapping_targets_in_one_batch_hold_both() {
    let fx = Fixture::new();
    let shared = |id: &str| finding(id, "").replace(&format!("\"n-{id}\""), "\"n-shared\"");
    let region = |id: &str, x: u32| {
        finding(id, "").replace(
            &format!("\"kind\":\"node\",\"nodeIds\":[\"n-{id}\"]"),
            &format!(
                "\"kind\":\"region\",\"region\":{{\"x\":{x},\"y\":0,\"width\":50,\"height\":50}}"
            ),
        )
    };
    let r = fx
        .import(&[
            shared("a"),
            shared("b"),
            region("c", 0),
            region("d", 40),
            region("e", 200),
        ])
        .unwrap();
    assert_eq!(r.held.len(), 4);
    for id in ["a", "b", "c", "d"] {
        assert_eq!(fx.status(id), NeedsInput, "{id}");
    }
    assert_eq!(fx.status("e"), Queued);
    // The same target in a later batch holds both too, each naming the other.
    let r = fx.import(&[region("f", 200)]).unwrap();
    assert_eq!(fx.status("f"), NeedsInput);
    assert_eq!(fx.status("e"), NeedsInput);
    let named: Vec<(String, HoldReason)> = r
        .held
        .iter()
        .map(|h| (h.finding_id.as_str().to_owned(), h.reason.clone()))
        .collect();
    let other = |id: &str| HoldReason::TargetOverlap {
        other: a3s_test_ledger::FindingId::parse(id).unwrap(),
    };
    assert_eq!(
        named,
        [("f".to_owned(), other("e")), ("e".to_owned(), other("f"))]
    );
}

#[test]
fn findings_sharing_a_source_file_across_batches_are_held_naming_each_other() {
    let fx = Fixture::new();
    let hinted = |id: &str, file: &str, lines: &str| {
        finding(id, "").replace(
            r#""sourceHints":[{"span":"src/App.tsx:10:4","confidence":0.9}]"#,
            &format!(
                "\"sourceHints\":[{{\"span\":{{\"file\":\"{file}\"{lines}}},\"confidence\":0.9,\"origin\":\"boundary_hint\",\"relation\":\"ancestor\",\"registrationId\":\"r\"}}]"
            ),
        )
    };
    fx.import(&[hinted(
        "a",
        "src/Checkout.tsx",
        ",\"line\":10,\"endLine\":20",
    )])
    .unwrap();
    // Another file, and the same file on lines that do not overlap: nothing held.
    fx.import(&[hinted("b", "src/Cart.tsx", "")]).unwrap();
    fx.import(&[hinted(
        "c",
        "src/Checkout.tsx",
        ",\"line\":21,\"endLine\":30",
    )])
    .unwrap();
    for id in ["a", "b", "c"] {
        assert_eq!(fx.status(id), Queued, "{id}");
    }
    // Overlapping lines in a later batch: both held, each naming the other and the file.
    let r = fx
        .import(&[hinted(
            "d",
            "src/Checkout.tsx",
            ",\"line\":18,\"endLine\":19",
        )])
        .unwrap();
    let shared = |other: &str| HoldReason::SharedSource {
        other: a3s_test_ledger::FindingId::parse(other).unwrap(),
        file: "src/Checkout.tsx".into(),
    };
    let named: Vec<(String, HoldReason)> = r
        .held
        .iter()
        .map(|h| (h.finding_id.as_str().to_owned(), h.reason.clone()))
        .collect();
    assert_eq!(
        named,
        [("d".to_owned(), shared("a")), ("a".to_owned(), shared("d"))]
    );
    // A hint without lines shares the whole file with every open finding; the ones that are not
    // queued (held, or repaired by an agent) are named but not moved.
    fx.drive("c", Repairing);
    fx.import(&[hinted("e", "src/Checkout.tsx", "")]).unwrap();
    assert_eq!(fx.status("e"), NeedsInput);
    assert_eq!(fx.status("c"), Repairing);
    let record = serde_json::to_value(fx.inspect("e").unwrap()).unwrap();
    assert_eq!(record["hold_reason"]["kind"], "shared_source", "{record}");
    assert_eq!(record["hold_reason"]["other"], "a", "{record}");
}

#[test]
fn auto_resolve_acts_only_after_a_persisted_passing_verification() {
    let fx = Fixture::new();
    fx.import(&[finding("f1", ""), finding("f2", "")]).unwrap();
    fx.drive("f1", VerificationFailed);
    let err = fx
        .act("f1", Actor::A3sTest, Action::AutoResolve {})
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::NotVerified);
    assert_eq!(fx.status("f1"), VerificationFailed);
    fx.drive("f2", ReviewReady);
    // Re-read from disk: the passing result is persisted before auto-resolve acts on it.
    let state = fx.ledger.read().unwrap();
    assert_eq!(state.finding(&fid("f2")).unwrap().status, ReviewReady);
    let a = fx
        .act("f2", Actor::A3sTest, Action::AutoResolve {})
        .unwrap();
    assert_eq!(a.to, Resolved);
}

#[test]
fn reply_and_answer_make_a_question_loop() {
    let fx = Fixture::new();
    fx.import(&[finding("f1", "")]).unwrap();
    fx.drive("f1", NeedsInput);
    fx.act("f1", Actor::Human, answer().1).unwrap();
    assert_eq!(fx.status("f1"), Queued);
    let rec = fx.inspect("f1").unwrap();
    let msgs: Vec<&str> = rec.replies.iter().map(|m| m.message.as_str()).collect();
    assert_eq!(msgs, ["which blue?", "the brand blue"]);
    assert_eq!(rec.attempts.len(), 1);
    assert_eq!(rec.attempts[0].ended_by, Some(Op::Reply));
}

#[test]
fn inbox_orders_by_urgency_and_hides_terminal_by_default() {
    let fx = Fixture::new();
    let approve = finding("approve", "").replace("\"intent\":\"fix\"", "\"intent\":\"approve\"");
    fx.import(&[
        finding("queued_old", ""),
        finding("active", ""),
        finding("expiring", ""),
        finding("blocked", ""),
        finding("done", ""),
        approve,
    ])
    .unwrap();
    fx.act(
        "expiring",
        Actor::Agent,
        Action::Claim {
            lease_ms: Some(1000),
            pinned: None,
        },
    )
    .unwrap();
    fx.drive("blocked", NeedsInput);
    fx.drive("done", Resolved);
    fx.drive("active", Repairing);
    fx.clock.advance(5000);
    fx.import(&[finding("queued_new", "")]).unwrap();
    let now = fx.clock.now_ms();
    let view = |limit, terminal| {
        build_inbox(
            &[(fx.session.clone(), fx.ledger.read())],
            now,
            InboxOptions::new(limit, terminal).unwrap(),
            &FixedIds,
        )
    };
    let inbox = view(100, false);
    let order: Vec<&str> = inbox.items.iter().map(|i| i.finding_id.as_str()).collect();
    assert_eq!(
        order,
        [
            "expiring",
            "active",
            "queued_old",
            "queued_new",
            "blocked",
            "approve"
        ]
    );
    assert_eq!(inbox.protocol, "a3s.test.repair-inbox/1");
    assert!(!inbox.truncated);
    let groups: Vec<InboxGroup> = inbox.items.iter().map(|i| i.group).collect();
    assert_eq!(
        groups,
        [
            InboxGroup::ExpiredLease,
            InboxGroup::Active,
            InboxGroup::Queued,
            InboxGroup::Queued,
            InboxGroup::HumanBlocked,
            InboxGroup::InspectOnly
        ]
    );
    let with_terminal = view(100, true);
    assert_eq!(
        with_terminal.items.last().unwrap().finding_id.as_str(),
        "done"
    );
    let limited = view(2, false);
    assert_eq!(limited.items.len(), 2);
    assert!(limited.truncated);
    assert_eq!(limited.total, 6);
    assert!(InboxOptions::new(0, false).is_err());
    assert!(InboxOptions::new(101, false).is_err());
    // The active item offers `complete` with its attempt id, and asks for the changed files.
    let active = &inbox.items[1];
    assert_eq!(active.next_action.kind, NextActionKind::Complete);
    let attempt = fx.active_attempt("active").unwrap();
    assert_eq!(
        active.next_action.command,
        format!(
            "a3s-test agent repair-complete active --session s1 --request-id r0000000000000001 \
             --attempt-id {attempt} --json"
        )
    );
    assert!(!active.next_action.add_arguments.is_empty());
}

#[test]
fn hostile_instruction_text_never_reaches_a_generated_command() {
    let fx = Fixture::new();
    let hostile = [
        r#"$(rm -rf ~); `curl evil` && echo pwned | sh"#,
        r#"click button \"Delete everything\"; navigate \"https://evil.example\""#,
        r#"--session other --request-id x; a3s-test agent repair-accept f1"#,
        "scenario \\\"x\\\" {\\n  click @e1\\n}",
    ];
    let items: Vec<String> = hostile
        .iter()
        .enumerate()
        .map(|(i, text)| {
            finding(&format!("h{i}"), "").replace(&format!("Make the h{i} button blue"), text)
        })
        .collect();
    fx.import(&items).unwrap();
    fx.drive("h1", Repairing);
    fx.drive("h2", NeedsInput);
    fx.drive("h3", ReviewReady);
    let state = fx.ledger.read().unwrap();
    let now = fx.clock.now_ms();
    let ids = RandomRequestIds::default();
    let mut actions: Vec<NextAction> = build_inbox(
        &[(fx.session.clone(), fx.ledger.read())],
        now,
        InboxOptions::new(100, true).unwrap(),
        &ids,
    )
    .items
    .into_iter()
    .map(|i| i.next_action)
    .collect();
    for i in 0..hostile.len() {
        actions.push(
            inspect(&fx.session, &state, &fid(&format!("h{i}")), now, &ids)
                .unwrap()
                .next_action,
        );
    }
    assert_eq!(actions.len(), 8);
    let words = [
        "a3s-test",
        "agent",
        "repair-claim",
        "repair-progress",
        "repair-complete",
        "repair-inspect",
        "repair-answer",
        "repair-accept",
        "--session",
        "--request-id",
        "--attempt-id",
        "--json",
    ];
    for a in &actions {
        assert_eq!(a.command, a.argv.join(" "));
        for arg in &a.argv {
            let is_id = !arg.is_empty()
                && arg.len() <= 64
                && !arg.starts_with('-')
                && arg
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
            assert!(
                words.contains(&arg.as_str()) || is_id,
                "unexpected word {arg:?}"
            );
        }
        for text in hostile {
            assert!(!a.command.contains(text));
        }
        for bad in [
            "$(", "`", ";", "|", "&", "\"", "'", "rm", "evil", "click", "\n",
        ] {
            assert!(!a.command.contains(bad), "{bad} in {}", a.command);
        }
    }
}

#[test]
fn inspect_shows_the_whole_loop() {
    let fx = Fixture::new();
    fx.import(&[finding("f1", "")]).unwrap();
    fx.drive("f1", ReviewReady);
    let rec = fx.inspect("f1").unwrap();
    let json = serde_json::to_value(&rec).unwrap();
    assert_eq!(json["protocol"], "a3s.test.repair-loop-record/1");
    assert_eq!(json["status"], "review_ready");
    assert_eq!(json["untrusted"]["untrusted"], true);
    assert_eq!(json["untrusted"]["instruction"], "Make the f1 button blue");
    assert_eq!(
        json["untrusted"]["success_criteria"][0],
        "the button is blue"
    );
    assert_eq!(json["untrusted"]["target"]["kind"], "node");
    assert_eq!(
        json["untrusted"]["source_hints"][0]["span"],
        "src/App.tsx:10:4"
    );
    assert_eq!(json["changed_files"], serde_json::json!(FILES));
    assert_eq!(json["verifications"][0]["passed"], true);
    assert_eq!(json["attempts"][0]["summary"], "done");
    assert_eq!(json["attempts"][0]["progress"][0]["message"], "editing");
    let digests = json["evidence_digests"].as_array().unwrap();
    assert_eq!(digests[0]["kind"], "finding");
    assert_eq!(digests[1]["kind"], "verification");
    assert_eq!(json["history"].as_array().unwrap().len(), 6);
    // The verification proved an ACL candidate: promoting it is on offer.
    assert_eq!(json["next_action"]["kind"], "promote");
    assert_eq!(json["lease"]["state"], "none");
    let err = fx.inspect("nope").unwrap_err();
    assert_eq!(err.code, ErrorCode::UnknownFinding);
}

#[test]
fn record_verification_auto_resolves_only_a_persisted_pass() {
    let fx = Fixture::new();
    fx.import(&[finding("pass", ""), finding("fail", "")])
        .unwrap();
    for (id, passed) in [("pass", true), ("fail", false)] {
        fx.drive(id, Verifying);
        fx.act(id, Actor::A3sTest, verify_start().1).unwrap();
        let (result, resolved) = fx
            .ledger
            .record_verification(Request {
                finding_id: fid(id),
                actor: Actor::A3sTest,
                request_id: None,
                attempt_id: fx.active_attempt(id),
                action: verify_auto_resolved(passed).1,
            })
            .unwrap();
        if passed {
            assert_eq!(result.to, ReviewReady);
            let resolved = resolved.expect("a pass auto-resolves");
            assert_eq!(resolved.to, Resolved);
            assert_eq!(
                resolved.seq,
                result.seq + 1,
                "resolved after the pass was written"
            );
        } else {
            assert_eq!(result.to, VerificationFailed);
            assert!(resolved.is_none());
        }
    }
    assert_eq!(fx.status("pass"), Resolved);
    assert_eq!(fx.status("fail"), VerificationFailed);
}

/// A replayed verification (same request id) resolves only a finding still awaiting review: it
/// finishes an auto-resolve that a crash cut off after the pass was persisted, and is a no-op once
/// the finding was resolved (or reviewed) since.
#[test]
fn a_replayed_verification_resolves_at_most_once() {
    let fx = Fixture::new();
    fx.import(&[finding("f", "")]).unwrap();
    fx.drive("f", Verifying);
    let request = || Request {
        finding_id: fid("f"),
        actor: Actor::A3sTest,
        request_id: Some(RequestId::parse("verify-1").unwrap()),
        attempt_id: fx.active_attempt("f"),
        action: verify_auto_resolved(true).1,
    };
    // As if the process died after persisting the pass: the first append only.
    let result = fx.ledger.apply(request()).unwrap();
    assert_eq!(result.to, ReviewReady);
    let mut retry = request();
    retry.attempt_id = result.attempt_id.clone();
    let (again, resolved) = fx.ledger.record_verification(retry.clone()).unwrap();
    assert!(again.replayed);
    assert_eq!(resolved.expect("the retry finishes the job").to, Resolved);
    let before = fx.bytes();
    let (third, resolved) = fx.ledger.record_verification(retry).unwrap();
    assert!(third.replayed);
    assert!(resolved.is_none(), "resolved once only");
    assert_eq!(fx.bytes(), before, "nothing appended");
    assert_eq!(fx.status("f"), Resolved);
}

/// A person ran the verification without auto-resolve; replaying its request id with the flag
/// flipped is another request under a used id, refused before anything is appended.
#[test]
fn a_replay_that_asks_to_auto_resolve_is_a_conflict() {
    let fx = Fixture::new();
    fx.import(&[finding("f", "")]).unwrap();
    fx.drive("f", Verifying);
    let request = |action: Action| Request {
        finding_id: fid("f"),
        actor: Actor::A3sTest,
        request_id: Some(RequestId::parse("verify-1").unwrap()),
        attempt_id: fx.active_attempt("f"),
        action,
    };
    let (result, resolved) = fx
        .ledger
        .record_verification(request(verify(true).1))
        .unwrap();
    assert_eq!(result.to, ReviewReady);
    assert!(resolved.is_none());
    let before = fx.bytes();
    let mut flipped = request(verify_auto_resolved(true).1);
    flipped.attempt_id = result.attempt_id.clone();
    let err = fx.ledger.record_verification(flipped).unwrap_err();
    assert_eq!(err.code, ErrorCode::IdempotencyConflict);
    assert_eq!(fx.bytes(), before, "nothing appended");
    assert_eq!(fx.status("f"), ReviewReady, "the reviewer still decides");
}

fn actions_of(body: &str) -> Vec<HumanAction> {
    let doc = format!(r#"{{"protocol":"a3s.test.repair/1","actions":[{body}]}}"#);
    match parse_submission(doc.as_bytes()).unwrap() {
        Submission::Actions(a) => a,
        Submission::Repairs(_) => panic!("read as repairs"),
    }
}

#[test]
fn the_reviewers_actions_follow_the_state_machine_and_are_idempotent() {
    let fx = Fixture::new();
    fx.import(&[finding("f1", ""), finding("f2", "")]).unwrap();
    fx.drive("f1", ReviewReady);
    let before = fx.bytes();
    // Accepting a queued finding is refused: coded error, nothing appended.
    let refused = fx.ledger.apply_human_actions(&actions_of(
        r#"{"id":"a0","repairId":"f2","kind":"accept","sentBy":"human","requestId":"h0"}"#,
    ));
    assert_eq!(
        refused[0].error.as_ref().unwrap().code,
        ErrorCode::InvalidTransition
    );
    assert!(!refused[0].is_transient());
    assert_eq!(fx.bytes(), before);
    assert_eq!(fx.status("f2"), Queued);
    // One refusal does not undo the others; each is a human event.
    let batch = actions_of(
        r#"{"id":"a1","repairId":"f1","kind":"accept","message":"good","sentBy":"human","requestId":"h1"},
           {"id":"a2","repairId":"zz","kind":"dismiss","sentBy":"human","requestId":"h2"},
           {"id":"a3","repairId":"f1","kind":"reopen","message":"once more","sentBy":"human","requestId":"h3"},
           {"id":"a4","repairId":"f1","kind":"reply","message":"smaller","sentBy":"human","requestId":"h4"},
           {"id":"a5","repairId":"f2","kind":"dismiss","sentBy":"human","requestId":"h5"}"#,
    );
    let out = fx.ledger.apply_human_actions(&batch);
    let to: Vec<Option<RepairStatus>> = out
        .iter()
        .map(|o| o.result.as_ref().map(|r| r.to))
        .collect();
    assert_eq!(
        to,
        [
            Some(Resolved),
            None,
            Some(Reopened),
            Some(Queued),
            Some(Cancelled)
        ]
    );
    assert_eq!(
        out[1].error.as_ref().unwrap().code,
        ErrorCode::UnknownFinding
    );
    let state = fx.ledger.read().unwrap();
    let humans = state
        .events
        .iter()
        .filter(|e| e.actor == Actor::Human && e.finding.is_none())
        .count();
    assert_eq!(humans, 4);
    // The same actions again: replayed, nothing appended.
    let written = fx.bytes();
    let again = fx.ledger.apply_human_actions(&batch);
    assert!(again
        .iter()
        .filter_map(|o| o.result.as_ref())
        .all(|r| r.replayed));
    assert_eq!(fx.bytes(), written);
    // Every answer is final: applied, then duplicate on a resend; a refusal stays a refusal.
    let answers = |o: &[a3s_test_ledger::ActionOutcome]| -> Vec<ActionAnswer> {
        o.iter().map(|o| o.outcome).collect()
    };
    use ActionAnswer::{Applied, Duplicate, Refused};
    assert_eq!(answers(&out), [Applied, Refused, Applied, Applied, Applied]);
    assert_eq!(
        answers(&again),
        [Duplicate, Refused, Duplicate, Duplicate, Duplicate]
    );
    assert!(again.iter().all(|o| o.outcome.is_final()));
    let response = serde_json::to_value(a3s_test_ledger::ActionsResponse::new(again)).unwrap();
    assert_eq!(response["actions"][0]["outcome"], "duplicate");
    assert_eq!(response["actions"][1]["outcome"], "refused");
    assert!(response.get("error").is_none(), "{response}");
}

#[test]
fn an_action_the_ledger_cannot_judge_is_to_be_retried() {
    let fx = Fixture::new();
    fx.import(&[finding("f1", "")]).unwrap();
    // The ledger file turns into a directory: the ledger refuses the path before judging.
    let path = fx.ledger.path().to_owned();
    std::fs::remove_file(&path).unwrap();
    std::fs::create_dir(&path).unwrap();
    let out = fx.ledger.apply_human_actions(&actions_of(
        r#"{"id":"a1","repairId":"f1","kind":"dismiss","sentBy":"human","requestId":"h1"}"#,
    ));
    assert_eq!(out[0].outcome, ActionAnswer::Retry, "{:?}", out[0].error);
    assert!(out[0].is_transient());
    let response = a3s_test_ledger::ActionsResponse::new(out);
    assert_eq!(response.error.unwrap().code, ErrorCode::UnsafePath);
}

#[test]
fn page_script_intake_is_recorded_as_such_and_page_script_actions_decide_nothing() {
    let fx = Fixture::new();
    let docs = |items: &[String]| parse_document(doc(items).as_bytes()).unwrap();
    // A channel that cannot prove a person sent it records an unmarked finding as page code's;
    // a finding marked by the Test Kit keeps its mark whatever the channel.
    fx.ledger
        .intake(
            docs(&[
                finding("p1", ""),
                finding("h1", r#","sentBy":"human""#),
                finding("p2", r#","sentBy":"page_script""#),
            ]),
            Actor::PageScript,
        )
        .unwrap();
    let state = fx.ledger.read().unwrap();
    let sender = |id: &str| state.events[state.finding(&fid(id)).unwrap().intake].actor;
    assert_eq!(sender("p1"), Actor::PageScript);
    assert_eq!(sender("h1"), Actor::Human);
    assert_eq!(sender("p2"), Actor::PageScript);
    let line = String::from_utf8(fx.bytes()).unwrap();
    assert!(
        line.lines()
            .next()
            .unwrap()
            .contains(r#""actor":"page_script""#),
        "{line}"
    );
    // The mark is not part of the stored finding: the same finding re-sent is a duplicate.
    let again = fx
        .ledger
        .intake(docs(&[finding("p1", r#","sentBy":"human""#)]), Actor::Human)
        .unwrap();
    assert_eq!(again.duplicates.len(), 1);
    // inspect and the inbox say who sent it.
    let record = serde_json::to_value(fx.inspect("p1").unwrap()).unwrap();
    assert_eq!(record["sent_by"], "page_script", "{record}");
    let record = serde_json::to_value(fx.inspect("h1").unwrap()).unwrap();
    assert_eq!(record["sent_by"], "human", "{record}");
    // Page code's accept, reply, dismiss or reopen is refused, coded, and appends nothing;
    // an action that does not say who sent it is page code's.
    fx.drive("h1", ReviewReady);
    let before = fx.bytes();
    for mark in [r#","sentBy":"page_script""#, ""] {
        let out = fx.ledger.apply_human_actions(&actions_of(&format!(
            r#"{{"id":"a1","repairId":"h1","kind":"accept","requestId":"x1"{mark}}}"#
        )));
        assert_eq!(out[0].outcome, ActionAnswer::Refused, "{mark}");
        let e = out[0].error.as_ref().unwrap();
        assert_eq!(e.code, ErrorCode::InvalidTransition);
        assert!(e.message.contains("page's script"), "{e}");
    }
    assert_eq!(fx.bytes(), before);
    assert_eq!(fx.status("h1"), ReviewReady);
    let out = fx.ledger.apply_human_actions(&actions_of(
        r#"{"id":"a1","repairId":"h1","kind":"accept","requestId":"x1","sentBy":"human"}"#,
    ));
    assert_eq!(out[0].outcome, ActionAnswer::Applied);
    assert_eq!(fx.status("h1"), Resolved);
}
