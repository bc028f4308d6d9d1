//! The tagged form ([`Tagged`]) reads back as exactly the variant written — every variant, any
//! facts — including the pairs the untagged form cannot tell apart.

use super::*;
use proptest::prelude::*;
use serde_json::json;

/// Short text, page-like (quotes, non-ASCII, empty).
fn text() -> impl Strategy<Value = String> {
    ".{0,12}"
}

/// A coordinate JSON writes and reads back exactly (finite, quarter pixels).
fn coord() -> impl Strategy<Value = f64> {
    (-100_000i32..100_000).prop_map(|q| f64::from(q) / 4.0)
}

/// A surface's reading: any JSON a condition could see (integers only: a JSON float may read
/// back one unit in the last place off, which is serde_json's, not the tag's, concern).
fn reading() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        text().prop_map(Value::from),
    ];
    leaf.prop_recursive(2, 8, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Value::from),
            prop::collection::btree_map("[a-z_]{1,6}", inner, 0..3)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn tab() -> impl Strategy<Value = TabEntry> {
    (
        any::<usize>(),
        proptest::option::of(text()),
        proptest::option::of(text()),
        proptest::option::of(text()),
        any::<bool>(),
    )
        .prop_map(|(index, label, url, title, current)| TabEntry {
            index,
            label,
            url,
            title,
            current,
        })
}

fn dialog() -> impl Strategy<Value = DialogStatus> {
    let open = (text(), text(), proptest::option::of(text()), any::<bool>()).prop_map(
        |(kind, message, default_prompt, untrusted)| OpenDialog {
            kind,
            message,
            default_prompt,
            untrusted,
        },
    );
    prop_oneof![
        Just(DialogStatus {
            open: false,
            dialog: None
        }),
        open.prop_map(|d| DialogStatus {
            open: true,
            dialog: Some(d)
        }),
    ]
}

/// Any step detail, every variant reachable.
fn detail() -> impl Strategy<Value = StepDetail> {
    use StepDetail::*;
    let opt = || proptest::option::of(text());
    let modifier = prop::sample::select(Modifier::ALL.to_vec());
    prop_oneof![
        (text(), text(), coord(), coord()).prop_map(|(element, hit, x, y)| Clicked {
            element,
            hit,
            x,
            y
        }),
        (
            text(),
            any::<bool>(),
            proptest::option::of(any::<bool>()),
            opt()
        )
            .prop_map(|(element, changed, verified, hit)| Checked {
                element,
                changed,
                verified,
                hit
            }),
        (text(), any::<usize>()).prop_map(|(element, keys)| Typed { element, keys }),
        (text(), prop::collection::vec(text(), 0..3))
            .prop_map(|(element, selected)| Selected { element, selected }),
        (text(), prop::collection::vec(modifier, 0..3), opt()).prop_map(
            |(key, modifiers, element)| Pressed {
                key,
                modifiers,
                element
            }
        ),
        (text(), proptest::option::of(any::<bool>()), opt()).prop_map(
            |(element, verified, hit)| Element {
                element,
                verified,
                hit
            }
        ),
        (
            (text(), text(), text(), text()),
            proptest::option::of((coord(), coord())),
            proptest::option::of((coord(), coord())),
        )
            .prop_map(|((source, target, source_hit, target_hit), from, to)| {
                Dragged {
                    source,
                    target,
                    source_hit,
                    target_hit,
                    from,
                    to,
                }
            }),
        (coord(), coord(), any::<i64>(), any::<i64>()).prop_map(|(x, y, delta_x, delta_y)| {
            Wheeled {
                x,
                y,
                delta_x,
                delta_y,
            }
        }),
        (text(), any::<u64>(), any::<bool>()).prop_map(|(suggested_filename, bytes, untrusted)| {
            Download {
                suggested_filename,
                bytes,
                untrusted,
            }
        }),
        any::<usize>().prop_map(|bytes| Screenshot { bytes }),
        any::<usize>().prop_map(|chars| Chars { chars }),
        (text(), opt()).prop_map(|(frame, url)| Frame { frame, url }),
        text().prop_map(|url| Url { url }),
        any::<usize>().prop_map(|files| Files { files }),
        prop::collection::vec(tab(), 0..3).prop_map(|tabs| Tabs { tabs }),
        (any::<usize>(), opt()).prop_map(|(index, label)| TabOpened { index, label }),
        any::<usize>().prop_map(|index| TabSwitched { index }),
        (any::<usize>(), any::<usize>()).prop_map(|(closed, open)| TabClosed { closed, open }),
        dialog().prop_map(Dialog),
        (text(), any::<bool>()).prop_map(|(handled, accepted)| DialogHandled { handled, accepted }),
        (any::<u32>(), any::<u32>(), any::<u32>()).prop_map(|(width, height, scale)| Viewport {
            width,
            height,
            scale
        }),
        (text(), any::<usize>()).prop_map(|(pattern, routes)| Routed { pattern, routes }),
        any::<usize>().prop_map(|removed| Unrouted { removed }),
        any::<bool>().prop_map(|recording| HarStarted { recording }),
        any::<usize>().prop_map(|entries| HarWritten { entries }),
        (text(), any::<usize>(), any::<usize>(), any::<usize>()).prop_map(
            |(storage_state, cookies, origins, databases)| StorageStateSaved {
                storage_state,
                cookies,
                origins,
                databases,
            }
        ),
        any::<bool>().prop_map(|tracing| TraceStarted { tracing }),
        any::<usize>().prop_map(|events| TraceWritten { events }),
        (any::<usize>(), any::<usize>(), any::<bool>()).prop_map(
            |(nodes, interactive_nodes, interactive)| Snapshot {
                nodes,
                interactive_nodes,
                interactive
            }
        ),
        (any::<usize>(), any::<usize>())
            .prop_map(|(nodes, interactive)| Accessibility { nodes, interactive }),
        (any::<usize>(), any::<bool>())
            .prop_map(|(messages, cleared)| Console { messages, cleared }),
        (any::<usize>(), any::<bool>())
            .prop_map(|(errors, cleared)| PageErrors { errors, cleared }),
        (any::<u32>(), any::<u32>(), any::<u64>()).prop_map(|(samples, window_ms, waited_ms)| {
            Stable {
                samples,
                window_ms,
                waited_ms,
            }
        }),
        (reading(), any::<u64>()).prop_map(|(observed, waited_ms)| Observed {
            observed,
            waited_ms
        }),
        (any::<u64>(), proptest::option::of(reading())).prop_map(|(waited_ms, observed)| Waited {
            waited_ms,
            observed
        }),
    ]
}

proptest! {
    /// Any detail written tagged reads back as itself (the same variant, the same facts), and
    /// its facts are exactly the untagged object a results file records.
    #[test]
    fn the_tagged_form_reads_back_as_the_variant_written(detail in detail()) {
        let text = serde_json::to_string(&Tagged(detail.clone())).unwrap();
        let back: Tagged = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(&back.0, &detail, "{}", text);
        let wire: Value = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(&wire["facts"], &Value::from(detail));
    }

    /// Any text where a tagged detail is expected is a value or an error, never a panic.
    #[test]
    fn any_text_reads_as_a_tagged_detail_or_an_error(line in ".{0,120}") {
        let _ = serde_json::from_str::<Tagged>(&line);
    }
}

/// The pairs the untagged form reads as one variant keep their own variant when tagged.
#[test]
fn variants_that_print_alike_stay_apart_when_tagged() {
    let alike = [
        StepDetail::Observed {
            observed: json!({ "count": 1 }),
            waited_ms: 3,
        },
        StepDetail::Waited {
            waited_ms: 3,
            observed: Some(json!({ "count": 1 })),
        },
    ];
    let untagged: Vec<Value> = alike.iter().cloned().map(Value::from).collect();
    assert_eq!(untagged[0], untagged[1], "they print the same object");
    for detail in alike {
        let text = serde_json::to_string(&Tagged(detail.clone())).unwrap();
        assert_eq!(serde_json::from_str::<Tagged>(&text).unwrap().0, detail);
    }
    let opened = Tagged(StepDetail::TabOpened {
        index: 1,
        label: None,
    });
    assert_eq!(
        serde_json::to_value(&opened).unwrap(),
        json!({ "kind": "tab_opened", "facts": { "index": 1, "label": null } })
    );
}

/// A tag that names no variant, or facts that do not fit the variant named, are refused.
#[test]
fn a_wrong_tag_or_facts_are_refused() {
    for bad in [
        json!({ "kind": "flew", "facts": {} }),
        json!({ "kind": "typed", "facts": { "element": "x" } }),
        json!({ "kind": "tab_opened", "facts": { "index": 1 } }),
        json!({ "facts": { "index": 1 } }),
        json!({ "index": 1 }),
    ] {
        assert!(
            serde_json::from_value::<Tagged>(bad.clone()).is_err(),
            "{bad}"
        );
    }
}
