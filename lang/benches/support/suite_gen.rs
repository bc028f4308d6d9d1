//! Deterministic generator of large, valid ACL suites for the admission benchmark and the
//! round-trip tests.
//!
//! A generated suite has `scenarios` scenarios of eight steps each, cycling through the common
//! step kinds (navigation, actions, waits and several `expect` forms) with distinct labels, so the
//! checker does real work: id uniqueness, target parsing, key chords, condition selection. The
//! benchmark's file shape, 1,200 scenarios, lands just under the 1 MiB file limit (~0.9 MB,
//! ~47k lines). No randomness: the same arguments always give the same text.

#![allow(dead_code)]

use std::fmt::Write;

/// Scenarios per benchmark file.
pub const BENCH_SCENARIOS: usize = 1_200;
/// Files in the benchmark folder.
pub const BENCH_FILES: usize = 8;

/// A suite `id` holding `scenarios` scenarios × 8 steps.
pub fn suite(id: &str, scenarios: usize) -> String {
    let mut s = String::with_capacity(scenarios * 800 + 128);
    let _ = writeln!(
        s,
        "# Generated benchmark suite {id}: {scenarios} scenarios x 8 steps."
    );
    let _ = writeln!(s, "suite \"{id}\" {{");
    s.push_str("    version = 1\n    base_url = \"http://127.0.0.1:4173\"\n");
    for i in 0..scenarios {
        scenario(&mut s, i);
    }
    s.push_str("}\n");
    s
}

/// Appends one step numbered `n`.
type StepWriter = fn(&mut String, usize);

fn scenario(s: &mut String, i: usize) {
    let _ = writeln!(s, "\n    scenario \"s-{i:05}\" {{");
    let _ = writeln!(s, "        name = \"Scenario {i}: shopper flow\"");
    s.push_str("        surface = \"web\"\n");
    let _ = writeln!(s, "        tags = [\"bench\", \"g{}\"]", i % 7);
    let steps: [StepWriter; 8] = [
        navigate,
        click,
        fill,
        wait,
        press,
        expect_visible,
        expect_text,
        expect_value,
    ];
    for (k, step) in steps.iter().enumerate() {
        s.push('\n');
        step(s, i * 8 + k);
    }
    s.push_str("    }\n");
}

fn navigate(s: &mut String, n: usize) {
    let _ = writeln!(
        s,
        "        navigate \"open-{n}\" {{\n            url = \"/items/{n}\"\n        }}"
    );
}

fn click(s: &mut String, n: usize) {
    let target = match n % 4 {
        0 => format!("role(\"button\", \"Add {n}\")"),
        1 => format!("testid(\"add-{n}\")"),
        2 => format!("text(\"Add item {n}\", true)"),
        _ => format!("css(\"#add-{n}\")"),
    };
    let _ = writeln!(
        s,
        "        click \"add-{n}\" {{\n            target = {target}\n        }}"
    );
}

fn fill(s: &mut String, n: usize) {
    let _ = writeln!(
        s,
        "        fill \"email-{n}\" {{\n            target = label(\"Email\")\n            value = \"u{n}@shop.test\"\n        }}"
    );
}

fn wait(s: &mut String, n: usize) {
    let _ = writeln!(
        s,
        "        wait \"ready-{n}\" {{\n            text = \"Item {n} added\"\n        }}"
    );
}

fn press(s: &mut String, n: usize) {
    let key = ["Enter", "Tab", "Control+a", "Shift+ArrowDown"][n % 4];
    let _ = writeln!(
        s,
        "        press \"key-{n}\" {{\n            key = \"{key}\"\n        }}"
    );
}

fn expect_visible(s: &mut String, n: usize) {
    let _ = writeln!(
        s,
        "        expect \"shown-{n}\" {{\n            visible = role(\"status\", \"Cart {n}\")\n        }}"
    );
}

fn expect_text(s: &mut String, n: usize) {
    let _ = writeln!(
        s,
        "        expect \"text-{n}\" {{\n            text = \"Total {n}\"\n        }}"
    );
}

fn expect_value(s: &mut String, n: usize) {
    let _ = writeln!(
        s,
        "        expect \"value-{n}\" {{\n            target = placeholder(\"Qty\")\n            value = \"{}\"\n        }}",
        n % 9 + 1
    );
}
