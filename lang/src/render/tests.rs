//! Snapshot tests of every renderer on hand-built diagnostics (independent of the parser).

use super::*;
use crate::code::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::span::Span;

const SOURCE: &str = r#"suite "shop" {
    scenario "home" {
        surface = "web"
        navigate "open" { urll = "/" }
        click "go" { target = role("button", "Go") }
        click "go" { target = text("Café — ok") }
    }
}
"#;

fn at(needle: &str, nth: usize) -> Span {
    let start = SOURCE
        .match_indices(needle)
        .nth(nth)
        .map(|(i, _)| i)
        .expect("needle in SOURCE");
    Span::new(start, start + needle.len())
}

fn sample() -> Vec<Diagnostic> {
    vec![
        Diagnostic::error(
            Code::UnknownAttribute,
            "suite.shop.scenario.home.navigate.open.urll",
            at("urll", 0),
            "`navigate` has no attribute `urll`",
        )
        .with_hint("did you mean `url`?"),
        Diagnostic::error(
            Code::DuplicateId,
            "suite.shop.scenario.home.click.go",
            at("\"go\"", 1),
            "step label `go` is used twice in scenario `home`",
        )
        .with_secondary(at("\"go\"", 0), "first used here"),
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(
                Code::InvalidValue,
                "suite.shop.scenario.home.click.go.target",
                at("\"Café — ok\"", 0),
                "a warning after non-ASCII text: 100% sure, a:b,c",
            )
        },
        Diagnostic::error(
            Code::Syntax,
            "",
            Span::new(SOURCE.len(), SOURCE.len()),
            "expected `}` at the end",
        ),
    ]
}

#[test]
fn human_plain() {
    let out = render(
        Format::Human,
        Colour::Never,
        "suites/shop.acl",
        SOURCE,
        &sample(),
    );
    assert!(!out.contains('\u{1b}'), "no escapes without colour");
    insta::assert_snapshot!(out);
}

#[test]
fn human_coloured_has_escapes() {
    let out = render(
        Format::Human,
        Colour::Always,
        "suites/shop.acl",
        SOURCE,
        &sample(),
    );
    assert!(out.contains("\u{1b}["));
    assert!(out.contains("test.spec.unknown_attribute"));
}

#[test]
fn human_without_source() {
    let d = Diagnostic::error(
        Code::Unreadable,
        "",
        Span::new(0, 0),
        "cannot read `missing.acl`: not found",
    );
    insta::assert_snapshot!(render(
        Format::Human,
        Colour::Never,
        "missing.acl",
        "",
        &[d]
    ));
}

#[test]
fn json_lines() {
    let out = render(
        Format::Json,
        Colour::Always,
        "suites/shop.acl",
        SOURCE,
        &sample(),
    );
    for line in out.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("each line is JSON");
        assert!(v["code"]
            .as_str()
            .is_some_and(|c| c.starts_with("test.spec.")));
    }
    insta::assert_snapshot!(out);
}

#[test]
fn json_columns_count_characters() {
    let d = &sample()[2];
    let out = render(
        Format::Json,
        Colour::Never,
        "f.acl",
        SOURCE,
        std::slice::from_ref(d),
    );
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    // `"Café — ok"` is 11 characters but 14 bytes.
    assert_eq!(
        v["end_column"].as_u64().unwrap() - v["column"].as_u64().unwrap(),
        11
    );
    assert_eq!(
        v["byte"]["end"].as_u64().unwrap() - v["byte"]["start"].as_u64().unwrap(),
        14
    );
}

#[test]
fn github_annotations() {
    let out = render(
        Format::Github,
        Colour::Always,
        "suites/a,b:c%.acl",
        SOURCE,
        &sample(),
    );
    insta::assert_snapshot!(out);
}

#[test]
fn github_escaping() {
    assert_eq!(github::escape_data("100%\r\nx:y,z"), "100%25%0D%0Ax:y,z");
    assert_eq!(github::escape_property("a%b\nc:d,e"), "a%25b%0Ac%3Ad%2Ce");
}

#[test]
fn renderers_are_deterministic_and_empty_for_no_diagnostics() {
    for format in Format::ALL {
        assert_eq!(render(*format, Colour::Never, "f.acl", SOURCE, &[]), "");
        let a = render(*format, Colour::Never, "f.acl", SOURCE, &sample());
        let b = render(*format, Colour::Never, "f.acl", SOURCE, &sample());
        assert_eq!(a, b);
        assert_eq!(Format::from_name(format.name()), Some(*format));
    }
}

#[test]
fn spans_past_the_end_or_inside_a_character_do_not_panic() {
    let odd = vec![
        Diagnostic::error(
            Code::Syntax,
            "",
            Span::new(SOURCE.len() + 10, SOURCE.len() + 20),
            "past the end",
        ),
        Diagnostic::error(
            Code::Syntax,
            "",
            Span::new(at("é", 0).start + 1, at("é", 0).start + 1),
            "inside é",
        ),
        Diagnostic::error(Code::Syntax, "", Span::new(0, 0), "at the start"),
    ];
    for format in Format::ALL {
        let out = render(*format, Colour::Never, "f.acl", SOURCE, &odd);
        // Once in the header (human) or the record (json, github); never lost, never a panic.
        assert!(
            out.contains("past the end")
                && out.contains("inside é")
                && out.contains("at the start"),
            "{out}"
        );
    }
}

/// A hostile suite cannot drive the terminal or the CI log: control characters in the source,
/// the message, the path and the file name come out as control pictures, and the caret still
/// points at the right characters (offsets are moved past the bytes the pictures add).
#[test]
fn control_characters_are_shown_not_sent() {
    let source = "suite \"x\" {\n    url = \"/\u{1b}[2J\u{7}é\" bad = 1\n}\n";
    let start = source.find("bad").unwrap();
    let diagnostics = vec![Diagnostic::error(
        Code::UnknownAttribute,
        "suite.a\u{1b}]0;pwned\u{7}",
        Span::new(start, start + 3),
        "`suite` has no attribute `bad\u{1b}[31m`",
    )
    .with_hint("remove \u{0}it")];
    for colour in [Colour::Never, Colour::Always] {
        let out = render(
            Format::Human,
            colour,
            "evil\u{1b}.acl",
            source,
            &diagnostics,
        );
        assert!(
            !out.contains("\u{1b}[2J") && !out.contains("\u{1b}]") && !out.contains('\u{7}'),
            "{out}"
        );
        assert!(!out.contains('\u{0}'), "{out}");
        if colour == Colour::Never {
            assert!(!out.contains('\u{1b}'), "{out}");
        } else {
            // Only ariadne's own colour escapes (`ESC [ … m`) remain.
            for rest in out.split('\u{1b}').skip(1) {
                let end = rest.find('m').expect("an SGR sequence ends with m");
                assert!(
                    rest.starts_with('[')
                        && rest[1..end].chars().all(|c| c.is_ascii_digit() || c == ';'),
                    "{out:?}"
                );
            }
        }
        assert!(out.contains("evil␛.acl:2:"), "{out}");
        assert!(out.contains("suite.a␛]0;pwned␇"), "{out}");
    }
    let plain = render(Format::Human, Colour::Never, "x.acl", source, &diagnostics);
    assert!(plain.contains("/␛[2J␇é\" bad = 1"), "{plain}");
    // The caret sits under the middle of `bad`, counted in characters on both rows.
    let lines: Vec<&str> = plain.lines().collect();
    let row = lines.iter().position(|l| l.contains("bad = 1")).unwrap();
    let text: Vec<char> = lines[row].chars().collect();
    let bad = (0..text.len())
        .find(|&i| text[i..].starts_with(&['b', 'a', 'd']))
        .unwrap();
    let caret = lines[row + 1].chars().position(|c| c == '┬').unwrap();
    assert_eq!(caret, bad + 1, "{plain}");
    let github = render(Format::Github, Colour::Never, "x.acl", source, &diagnostics);
    assert!(
        !github.contains('\u{1b}') && !github.contains('\u{0}'),
        "{github}"
    );
}

/// Stand-ins of every width before a span (C0 and DEL: 1 byte → 3, C1: 2 bytes → 3), on earlier
/// lines and on the span's own line: the header column and both carets still name the characters
/// of the original text.
#[test]
fn stand_ins_of_every_width_keep_header_and_carets_on_their_characters() {
    let source =
        "\u{85}\u{7f}\u{1b}\nsuite \"x\" {\n    \u{9b}url\u{7f} = \"\u{0}\" bad = 1 \u{85}two\n}\n";
    let bad = source.find("bad").unwrap();
    let two = source.find("two").unwrap();
    let diagnostics = vec![Diagnostic::error(
        Code::UnknownAttribute,
        "suite.x.bad",
        Span::new(bad, bad + 3),
        "no attribute `bad`",
    )
    .with_secondary(Span::new(two, two + 3), "and here")];
    let plain = render(Format::Human, Colour::Never, "x.acl", source, &diagnostics);
    let line = source.lines().nth(2).unwrap();
    let column = line[..bad - source.find(line).unwrap()].chars().count() + 1;
    assert!(plain.contains(&format!("x.acl:3:{column}")), "{plain}");
    assert!(
        plain.contains("\u{fffd}url␡ = \"␀\" bad = 1 \u{fffd}two"),
        "{plain}"
    );
    let lines: Vec<&str> = plain.lines().collect();
    let row = lines.iter().position(|l| l.contains("bad = 1")).unwrap();
    let text: Vec<char> = lines[row].chars().collect();
    let at = |word: &str| {
        let word: Vec<char> = word.chars().collect();
        (0..text.len())
            .find(|&i| text[i..].starts_with(&word))
            .unwrap()
    };
    let carets: Vec<usize> = lines[row + 1]
        .chars()
        .enumerate()
        .filter(|(_, c)| *c == '┬')
        .map(|(i, _)| i)
        .collect();
    assert_eq!(carets, vec![at("bad") + 1, at("two") + 1], "{plain}");
}
