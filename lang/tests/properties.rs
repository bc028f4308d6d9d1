//! Property tests of the front end: it never panics or hangs on any input, admission (file and
//! statement mode) always answers (a document or at least one diagnostic), and formatting valid suites is idempotent
//! and keeps their meaning, and `env("NAME")` texts round-trip through print → parse → check
//! while every name outside the variable alphabet is refused at the name; the rows of `each`
//! (object literals) substitute their own values into each instance, through formatting too.

use a3s_test_lang::ir::{Action, AdmittedDocument, EnvVar, ExpectCondition, Target, TextValue};
use a3s_test_lang::parser::{parse, parse_recovering};
use a3s_test_lang::printer::format_source;
use proptest::prelude::*;

mod common;

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 256,
        ..ProptestConfig::default()
    }
}

/// Admission answers: a document with no error, or no document and at least one error.
fn assert_admission_answers(source: &str) {
    let admission = a3s_test_lang::admit(source);
    let has_error = admission.diagnostics.iter().any(|d| d.is_error());
    assert!(
        admission.document.is_some() != has_error,
        "admission must yield a document or an error, not both or neither: {admission:#?}"
    );
    // Statement mode (the agent's door) answers the same way: a step, or at least one error.
    if let Err(diagnostics) = a3s_test_lang::admit_statement(source) {
        assert!(
            diagnostics.iter().any(|d| d.is_error()),
            "a rejected statement has an error: {diagnostics:#?}"
        );
    }
}

/// Pieces of ACL, valid and invalid, that random token soups are made of.
const VOCABULARY: &[&str] = &[
    "suite",
    "scenario",
    "click",
    "navigate",
    "expect",
    "target",
    "url",
    "a",
    "_x9",
    "role",
    "main",
    "\"s\"",
    "'q'",
    "\"esc\\n\\u{41}\"",
    "\"bad\\q\"",
    "\"open",
    "1",
    "-2",
    "3.25",
    "99999999999999999999",
    "true",
    "false",
    "null",
    "{",
    "}",
    "[",
    "]",
    "(",
    ")",
    "=",
    ",",
    "# note\n",
    "// note\n",
    "@",
    "\n",
    " ",
    "\t",
    "é",
    "\u{FEFF}",
    "\"\"",
    "-",
    ".",
];

fn token_soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(VOCABULARY), 0..200)
        .prop_map(|parts| parts.join(" "))
}

/// A hostile file: one soup (without line breaks) repeated on one long line, inside a suite.
fn long_line_soup() -> impl Strategy<Value = String> {
    let pieces: Vec<&str> = VOCABULARY
        .iter()
        .copied()
        .filter(|p| !p.contains('\n'))
        .chain(["\\u{41}", "\u{1b}[2J", "\\", "%", "::"])
        .collect();
    (
        prop::collection::vec(prop::sample::select(pieces), 1..40),
        1usize..120,
    )
        .prop_map(|(parts, times)| {
            format!("suite \"h\" {{\n{}\n}}\n", parts.join("").repeat(times))
        })
}

// ---- valid suites -------------------------------------------------------------------------

/// A generated value, rendered in many equivalent spellings.
#[derive(Debug, Clone)]
enum GenValue {
    Str(String),
    Int(i64),
    Float(i32, u16),
    Bool(bool),
    Null,
    List(Vec<GenValue>),
    Call(&'static str, Vec<GenValue>),
    /// `name = value`, only ever generated as a call argument.
    Named(String, Box<GenValue>),
    /// `/body/flags`: a non-empty body (`/` escaped) and flag letters.
    Regex(String, String),
    /// `{ name = value, … }`: an object (a row of `each`).
    Object(Vec<(String, GenValue)>),
}

#[derive(Debug, Clone)]
enum GenItem {
    Attribute(String, GenValue),
    Block(GenBlock),
}

#[derive(Debug, Clone)]
struct GenBlock {
    kind: String,
    label: Option<String>,
    items: Vec<GenItem>,
}

fn ident() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "suite",
        "scenario",
        "click",
        "navigate",
        "target",
        "url",
        "value",
        "tags",
        "name",
        "x",
        "_y2",
        "dev_server",
    ])
    .prop_map(str::to_string)
}

fn string_value() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec![
            'a', 'Z', ' ', '"', '\'', '\\', '\n', '\r', '\t', 'é', '☺', '\u{1}', '#', '/', '{', '}',
        ]),
        0..12,
    )
    .prop_map(|chars| chars.into_iter().collect())
}

/// A regular expression body: never empty, never starting with `/`, slashes escaped.
fn regex_body() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec![
            "a", "Z", " ", "\\/", "\\d", "^", "$", "[0-9]", "é", "\"", "#", "(",
        ]),
        1..6,
    )
    .prop_map(|parts| parts.concat())
}

fn value() -> impl Strategy<Value = GenValue> {
    let leaf = prop_oneof![
        string_value().prop_map(GenValue::Str),
        any::<i64>().prop_map(GenValue::Int),
        (any::<i32>(), any::<u16>()).prop_map(|(w, f)| GenValue::Float(w, f)),
        any::<bool>().prop_map(GenValue::Bool),
        Just(GenValue::Null),
        (
            regex_body(),
            prop::sample::select(vec!["", "i", "ms", "Zq"])
        )
            .prop_map(|(body, flags)| GenValue::Regex(body, flags.to_string())),
    ];
    leaf.prop_recursive(3, 24, 5, |inner| {
        let argument = prop_oneof![
            3 => inner.clone(),
            1 => (ident(), inner.clone()).prop_map(|(n, v)| GenValue::Named(n, Box::new(v))),
        ];
        prop_oneof![
            prop::collection::vec((ident(), inner.clone()), 0..4).prop_map(GenValue::Object),
            prop::collection::vec(inner, 0..5).prop_map(GenValue::List),
            (
                prop::sample::select(vec!["role", "css", "text", "main", "ref", "within", "env"]),
                prop::collection::vec(argument, 0..3)
            )
                .prop_map(|(name, args)| GenValue::Call(name, args)),
        ]
    })
}

fn block() -> impl Strategy<Value = GenBlock> {
    let attribute = (ident(), value())
        .prop_map(|(n, v)| GenItem::Attribute(n, v))
        .boxed();
    let leaf = (
        ident(),
        prop::option::of(string_value()),
        prop::collection::vec(attribute.clone(), 0..3),
    )
        .prop_map(|(kind, label, items)| GenBlock { kind, label, items });
    leaf.prop_recursive(3, 20, 4, move |inner| {
        (
            ident(),
            prop::option::of(string_value()),
            prop::collection::vec(
                prop_oneof![attribute.clone(), inner.prop_map(GenItem::Block)],
                0..4,
            ),
        )
            .prop_map(|(kind, label, items)| GenBlock { kind, label, items })
    })
}

/// Renders generated trees as text, taking layout decisions (spacing, quotes, escapes, trailing
/// commas, comments) from a stream of random bytes.
struct Render {
    entropy: Vec<u8>,
    at: usize,
    out: String,
    comments: usize,
}

impl Render {
    fn pick(&mut self, n: u8) -> u8 {
        let b = self
            .entropy
            .get(self.at % self.entropy.len().max(1))
            .copied()
            .unwrap_or(0);
        self.at += 1;
        b % n
    }

    fn space(&mut self) {
        match self.pick(8) {
            7 => {
                self.comments += 1;
                self.out
                    .push_str(&format!(" # anywhere {}\n", self.comments));
            }
            0 => self.out.push('\n'),
            1 => self.out.push_str("\n\n    "),
            2 => self.out.push_str("  "),
            3 => self.out.push('\t'),
            _ => self.out.push(' '),
        }
    }

    /// Maybe a comment; always ends the line when one is written.
    fn maybe_comment(&mut self) {
        if self.pick(5) == 0 {
            self.comments += 1;
            let marker = if self.pick(2) == 0 { "#" } else { "//" };
            self.out
                .push_str(&format!(" {marker} note {} {{ \"x\" ] \n", self.comments));
        }
    }

    fn string(&mut self, s: &str) {
        let quote = if self.pick(2) == 0 { '"' } else { '\'' };
        self.out.push(quote);
        for c in s.chars() {
            let force_unicode = self.pick(8) == 0;
            match c {
                _ if force_unicode => self.out.push_str(&format!("\\u{{{:x}}}", c as u32)),
                '\\' => self.out.push_str("\\\\"),
                '\n' => self.out.push_str("\\n"),
                '\r' => self.out.push_str("\\r"),
                '"' | '\'' if c == quote => {
                    self.out.push('\\');
                    self.out.push(c);
                }
                '"' | '\'' if self.pick(2) == 0 => {
                    self.out.push('\\');
                    self.out.push(c);
                }
                '\t' if self.pick(2) == 0 => self.out.push_str("\\t"),
                c => self.out.push(c),
            }
        }
        self.out.push(quote);
    }

    fn value(&mut self, v: &GenValue) {
        match v {
            GenValue::Str(s) => self.string(s),
            GenValue::Int(i) => self.out.push_str(&i.to_string()),
            GenValue::Float(w, f) => self.out.push_str(&format!("{w}.{f}")),
            GenValue::Bool(b) => self.out.push_str(&b.to_string()),
            GenValue::Null => self.out.push_str("null"),
            GenValue::List(items) => {
                self.out.push('[');
                self.elements(items);
                self.out.push(']');
            }
            GenValue::Call(name, args) => {
                self.out.push_str(name);
                self.out.push('(');
                self.elements(args);
                self.out.push(')');
            }
            GenValue::Named(name, value) => {
                self.out.push_str(name);
                self.space();
                self.out.push('=');
                self.space();
                self.value(value);
            }
            GenValue::Regex(body, flags) => {
                self.out.push('/');
                self.out.push_str(body);
                self.out.push('/');
                self.out.push_str(flags);
            }
            GenValue::Object(entries) => {
                self.out.push('{');
                for (i, (name, value)) in entries.iter().enumerate() {
                    self.space();
                    self.out.push_str(name);
                    self.space();
                    self.out.push('=');
                    self.space();
                    self.value(value);
                    if i + 1 < entries.len() || self.pick(2) == 0 {
                        self.out.push(',');
                        self.maybe_comment();
                    }
                }
                self.space();
                self.out.push('}');
            }
        }
    }

    fn elements(&mut self, items: &[GenValue]) {
        for (i, item) in items.iter().enumerate() {
            self.space();
            self.value(item);
            if i + 1 < items.len() || self.pick(2) == 0 {
                self.out.push(',');
                self.maybe_comment();
            }
        }
        self.space();
    }

    fn block(&mut self, b: &GenBlock) {
        self.out.push_str(&b.kind);
        self.space();
        if let Some(label) = &b.label {
            self.string(label);
            self.space();
        }
        self.out.push('{');
        self.maybe_comment();
        for item in &b.items {
            self.space();
            self.maybe_comment();
            match item {
                GenItem::Attribute(name, value) => {
                    self.out.push_str(name);
                    self.space();
                    self.out.push('=');
                    self.space();
                    self.value(value);
                }
                GenItem::Block(inner) => self.block(inner),
            }
            self.maybe_comment();
        }
        self.space();
        self.out.push('}');
        self.maybe_comment();
    }
}

fn valid_document() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(block(), 1..3),
        prop::collection::vec(any::<u8>(), 1..64),
    )
        .prop_map(|(blocks, entropy)| {
            let mut r = Render {
                entropy,
                at: 0,
                out: String::new(),
                comments: 0,
            };
            r.maybe_comment();
            for b in &blocks {
                r.space();
                r.block(b);
            }
            r.out
        })
}

// ---- text values that read the environment ------------------------------------------------

/// A text value as a suite writes it: a literal, or `env("NAME")`.
#[derive(Debug, Clone)]
enum GenText {
    Literal(String),
    Env(String),
}

impl GenText {
    fn value(&self) -> GenValue {
        match self {
            GenText::Literal(s) => GenValue::Str(s.clone()),
            GenText::Env(name) => GenValue::Call("env", vec![GenValue::Str(name.clone())]),
        }
    }

    fn expected(&self) -> TextValue {
        match self {
            GenText::Literal(s) => TextValue::literal(s.as_str()),
            GenText::Env(name) => {
                TextValue::Env(EnvVar::new(name.as_str()).expect("generated valid"))
            }
        }
    }
}

/// A valid variable name, up to the 128-byte limit.
fn env_name() -> impl Strategy<Value = String> {
    "[A-Za-z_][A-Za-z0-9_]{0,127}"
}

fn gen_text() -> impl Strategy<Value = GenText> {
    prop_oneof![
        string_value().prop_map(GenText::Literal),
        env_name().prop_map(GenText::Env),
    ]
}

/// One step that takes a text value: `fill`, `type`, `insert_text` or `expect { value }`.
fn text_step(index: usize, kind: u8, text: &GenText) -> GenBlock {
    let attribute = |name: &str, value: GenValue| GenItem::Attribute(name.to_string(), value);
    let target = || {
        attribute(
            "target",
            GenValue::Call("css", vec![GenValue::Str("#f".into())]),
        )
    };
    let (kind, items) = match kind % 4 {
        0 => ("fill", vec![target(), attribute("value", text.value())]),
        1 => ("type", vec![attribute("value", text.value()), target()]),
        // `insert_text` refuses an empty literal, so a literal gets a visible character.
        2 => (
            "insert_text",
            vec![attribute(
                "value",
                match text {
                    GenText::Literal(s) => GenValue::Str(format!("x{s}")),
                    GenText::Env(_) => text.value(),
                },
            )],
        ),
        _ => ("expect", vec![attribute("value", text.value()), target()]),
    };
    GenBlock {
        kind: kind.to_string(),
        label: Some(format!("s{index}")),
        items,
    }
}

/// A suite whose steps type and compare generated texts, and the text each step must admit to.
fn text_suite() -> impl Strategy<Value = (String, Vec<TextValue>)> {
    (
        prop::collection::vec((any::<u8>(), gen_text()), 1..6),
        prop::collection::vec(any::<u8>(), 1..64),
    )
        .prop_map(|(steps, entropy)| {
            let mut items = vec![GenItem::Attribute(
                "surface".into(),
                GenValue::Str("web".into()),
            )];
            let mut expected = Vec::new();
            for (i, (kind, text)) in steps.iter().enumerate() {
                items.push(GenItem::Block(text_step(i, *kind, text)));
                expected.push(match (kind % 4, text) {
                    (2, GenText::Literal(s)) => TextValue::literal(format!("x{s}")),
                    _ => text.expected(),
                });
            }
            let suite = GenBlock {
                kind: "suite".into(),
                label: Some("env".into()),
                items: vec![GenItem::Block(GenBlock {
                    kind: "scenario".into(),
                    label: Some("sc".into()),
                    items,
                })],
            };
            let mut r = Render {
                entropy,
                at: 0,
                out: String::new(),
                comments: 0,
            };
            r.block(&suite);
            (r.out, expected)
        })
}

/// The text value of each step of an admitted suite, in order.
fn admitted_texts(source: &str) -> Vec<TextValue> {
    let admission = a3s_test_lang::admit(source);
    let Some(AdmittedDocument::Suite(suite)) = admission.document else {
        panic!(
            "not admitted: {:#?}
{source}",
            admission.diagnostics
        );
    };
    suite.scenarios[0]
        .steps
        .iter()
        .map(|step| match &step.action {
            Action::Fill { value, .. }
            | Action::Type { value, .. }
            | Action::InsertText { value } => value.clone(),
            Action::Expect { expectation } => match &expectation.condition {
                ExpectCondition::Value { value, .. } => value.clone(),
                other => panic!("unexpected condition {other:?}"),
            },
            other => panic!("unexpected step {other:?}"),
        })
        .collect()
}

/// A name `env()` must refuse: drawn from characters around the valid alphabet, kept only when
/// it breaks a rule.
fn bad_env_name() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::collection::vec(
            prop::sample::select(vec![
                'A', 'z', '_', '0', '9', '-', ' ', '.', '$', 'é', '"', '\\', '\n'
            ]),
            0..10,
        )
        .prop_map(|c| c.into_iter().collect::<String>()),
        (129usize..300).prop_map(|n| "A".repeat(n)),
    ]
    .prop_filter("an invalid name", |name| {
        EnvVar::new(name.as_str()).is_err()
    })
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn env_values_round_trip_through_print_parse_and_check((source, expected) in text_suite()) {
        // Admitted as written, with each text where it was written.
        prop_assert_eq!(admitted_texts(&source), expected.clone(), "source:\n{}", source);
        // Formatted, the same texts again.
        let formatted = format_source(&source).expect("a valid suite formats");
        prop_assert_eq!(admitted_texts(&formatted), expected.clone(), "formatted:\n{}", formatted);
        // Each text printed from the IR (`TextValue`'s ACL form) reads back as itself.
        for text in &expected {
            let statement = format!("fill {{\n target = css(\"#f\")\n value = {text}\n}}");
            let step = a3s_test_lang::admit_statement(&statement).expect("a printed text admits");
            prop_assert_eq!(
                step.action,
                Action::Fill { target: Target::Css { selector: "#f".into() }, value: text.clone() }
            );
        }
    }

    #[test]
    fn invalid_env_names_are_refused_at_the_name(name in bad_env_name()) {
        let literal = a3s_test_lang::printer::string_literal(&name);
        let source = format!(
            "suite \"s\" {{\n scenario \"sc\" {{\n surface = \"web\"\n insert_text \"i\" {{ value = env({literal}) }}\n }}\n}}\n"
        );
        let diagnostics = a3s_test_lang::admit(&source).diagnostics;
        prop_assert_eq!(diagnostics.len(), 1, "{:#?}", diagnostics);
        prop_assert_eq!(diagnostics[0].code, a3s_test_lang::Code::InvalidEnvName);
        prop_assert_eq!(&source[diagnostics[0].span.range()], literal.as_str());
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        let source = String::from_utf8_lossy(&bytes);
        let _ = parse(&source);
        let _ = format_source(&source);
        let _ = a3s_test_lang::admit_bytes(&bytes);
        assert_admission_answers(&source);
    }

    #[test]
    fn random_token_soups_never_panic(source in token_soup()) {
        let (_, diagnostics) = parse(&source);
        for d in &diagnostics {
            prop_assert!(d.span.end <= source.len(), "span past the end: {d:?}");
            prop_assert!(source.is_char_boundary(d.span.start) && source.is_char_boundary(d.span.end));
        }
        let _ = format_source(&source);
        assert_admission_answers(&source);
    }

    #[test]
    fn fast_path_and_recovering_parser_agree_exactly(source in prop_oneof![valid_document(), token_soup()]) {
        // Same tree (spans included) and the same diagnostics, whichever path parsed the file.
        prop_assert_eq!(parse(&source), parse_recovering(&source), "source:\n{}", source);
    }

    #[test]
    fn generated_documents_parse_and_format_canonically(source in valid_document()) {
        let (_, diagnostics) = parse(&source);
        prop_assert!(diagnostics.is_empty(), "{diagnostics:#?}\n{source}");
        let formatted = format_source(&source).expect("a valid document formats");
        let again = format_source(&formatted).expect("formatted output formats");
        prop_assert_eq!(&again, &formatted, "not idempotent; source:\n{}", source);
        common::assert_same_meaning(&source, &formatted);
    }
}

proptest! {
    // Fewer cases: each renders up to 101 diagnostics of a file of up to ~20 KB, three times.
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn rendering_is_bounded_by_input_and_diagnostics(source in long_line_soup()) {
        use a3s_test_lang::render::{render, Colour, Format};
        let diagnostics = a3s_test_lang::admit(&source).diagnostics;
        prop_assert!(diagnostics.len() <= a3s_test_lang::diagnostic::MAX_DIAGNOSTICS + 1);
        for format in Format::ALL {
            let out = render(*format, Colour::Never, "h.acl", &source, &diagnostics);
            // Each diagnostic costs a bounded excerpt plus what its message quotes of the input.
            let bound = 8 * source.len() + 4096 * diagnostics.len();
            prop_assert!(
                out.len() <= bound,
                "{}: {} bytes for {} bytes of input and {} diagnostics",
                format.name(),
                out.len(),
                source.len(),
                diagnostics.len()
            );
        }
    }

    #[test]
    fn each_row_substitutes_its_own_values_and_keeps_escapes(
        rows in prop::collection::vec(("[a-z][a-z0-9_-]{0,8}", "[A-Za-z0-9._~-]{0,12}"), 1..5)
    ) {
        // Unique instance ids: the first key's values.
        let mut seen = std::collections::HashSet::new();
        prop_assume!(rows.iter().all(|(id, _)| seen.insert(id.clone())));
        let literal = a3s_test_lang::printer::string_literal;
        let each: Vec<String> = rows
            .iter()
            .map(|(id, note)| format!("{{ who = {}, note = {} }}", literal(id), literal(note)))
            .collect();
        let source = format!(
            "suite \"s\" {{\n scenario \"c\" {{\n surface = \"web\"\n each = [{}]\n navigate \"n\" {{ url = \"/${{who}}?n=${{note}}&k=$${{who}}\" }}\n }}\n}}\n",
            each.join(", ")
        );
        let Some(AdmittedDocument::Suite(suite)) = a3s_test_lang::admit(&source).document else {
            return Err(TestCaseError::fail(format!("not admitted:\n{source}")));
        };
        prop_assert_eq!(suite.scenarios.len(), rows.len());
        for ((id, note), scenario) in rows.iter().zip(&suite.scenarios) {
            prop_assert_eq!(&scenario.id, &format!("c[{id}]"));
            prop_assert_eq!(
                &scenario.steps[0].action,
                &Action::Navigate { url: format!("/{id}?n={note}&k=${{who}}") }
            );
        }
        // Formatting keeps every instance as it was.
        let formatted = format_source(&source).expect("a valid suite formats");
        let Some(AdmittedDocument::Suite(again)) = a3s_test_lang::admit(&formatted).document else {
            return Err(TestCaseError::fail(format!("formatted is not admitted:\n{formatted}")));
        };
        let shape = |s: &a3s_test_lang::ir::Suite| -> Vec<(String, Action)> {
            s.scenarios.iter().map(|c| (c.id.clone(), c.steps[0].action.clone())).collect()
        };
        prop_assert_eq!(shape(&again), shape(&suite));
    }
}

/// A `request` expectation's path segment: a member name of any characters, or an index.
fn json_path_segment() -> impl Strategy<Value = a3s_test_lang::ir::PathSegment> {
    use a3s_test_lang::ir::PathSegment;
    prop_oneof![
        "[a-z_-]{1,8}".prop_map(PathSegment::Key),
        any::<String>().prop_map(PathSegment::Key),
        (0usize..1_000_000_000).prop_map(PathSegment::Index),
    ]
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn json_paths_print_and_parse_back(segments in prop::collection::vec(json_path_segment(), 0..8)) {
        let path = a3s_test_lang::ir::JsonPath(segments);
        let text = path.to_string();
        if text.len() <= a3s_test_lang::ir::MAX_JSON_PATH {
            prop_assert_eq!(a3s_test_lang::ir::JsonPath::parse(&text), Ok(path), "{}", text);
        }
    }

    #[test]
    fn json_path_parsing_never_panics_and_errors_point_inside(text in any::<String>()) {
        if let Err(e) = a3s_test_lang::ir::JsonPath::parse(&text) {
            prop_assert!(e.at <= text.len().max(a3s_test_lang::ir::MAX_JSON_PATH));
        }
    }
}
