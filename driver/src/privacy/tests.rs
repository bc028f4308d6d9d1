use super::*;
use serde_json::json;

#[test]
fn the_rule_names_password_hidden_card_and_code_fields() {
    let r = RULE;
    assert!(r.is_sensitive("input", Some("password"), None));
    assert!(r.is_sensitive("input", Some(" PASSWORD "), None));
    assert!(r.is_sensitive("input", Some("hidden"), None));
    for token in [
        "cc-number",
        "cc-csc",
        "cc-exp",
        "cc-exp-month",
        "cc-name",
        "one-time-code",
        "current-password",
        "new-password",
        "section-pay billing CC-NUMBER",
    ] {
        assert!(
            r.is_sensitive("input", Some("text"), Some(token)),
            "{token}"
        );
    }
    assert!(r.is_sensitive("select", None, Some("cc-exp-month")));
    assert!(r.is_sensitive("textarea", None, Some("one-time-code")));
    assert!(!r.is_sensitive("input", Some("text"), Some("name")));
    assert!(!r.is_sensitive("input", Some("email"), Some("email")));
    assert!(
        !r.is_sensitive("textarea", Some("password"), None),
        "type only for input"
    );
    assert!(!r.is_sensitive("div", Some("password"), Some("cc-number")));
    let json: Value = serde_json::from_str(&r.to_json()).unwrap();
    assert_eq!(json["marker"], REDACTED);
    assert_eq!(json["autocomplete_prefixes"], json!(["cc-"]));
}

/// A small tree: root → form(10) → [label text, card field(11) → inner text, region(12) →
/// [static text(13)], button(14) named after the region's text].
fn tree() -> Vec<Value> {
    vec![
        json!({"nodeId": "1", "childIds": ["2"], "role": {"value": "RootWebArea"}, "name": {"value": "Shop"}}),
        json!({"nodeId": "2", "parentId": "1", "backendDOMNodeId": 10, "childIds": ["3", "4", "6", "8"],
               "role": {"value": "form"}, "name": {"value": ""}}),
        json!({"nodeId": "3", "parentId": "2", "role": {"value": "StaticText"}, "name": {"value": "Card number"}}),
        json!({"nodeId": "4", "parentId": "2", "backendDOMNodeId": 11, "childIds": ["5"],
               "role": {"value": "textbox"}, "name": {"value": "Card number"},
               "value": {"type": "string", "value": "4242 4242 4242 4242"}}),
        json!({"nodeId": "5", "parentId": "4", "role": {"value": "StaticText"}, "name": {"value": "4242 4242 4242 4242"}}),
        json!({"nodeId": "6", "parentId": "2", "backendDOMNodeId": 12, "childIds": ["7"],
               "role": {"value": "generic"}, "name": {"value": ""},
               "properties": [{"name": "roledescription", "value": {"type": "string", "value": "Ada Lovelace"}}]}),
        json!({"nodeId": "7", "parentId": "6", "backendDOMNodeId": 13, "role": {"value": "StaticText"},
               "name": {"value": "Ada Lovelace"}}),
        json!({"nodeId": "8", "parentId": "2", "backendDOMNodeId": 14, "role": {"value": "button"},
               "name": {"value": "Pay as Ada Lovelace"}}),
    ]
}

fn private() -> PrivateNodes {
    PrivateNodes {
        value_only: [11].into(),
        regions: [12].into(),
        scale: 1.0,
        ..PrivateNodes::default()
    }
}

#[test]
fn a_region_hides_its_subtree_and_a_control_its_value() {
    let mut nodes = tree();
    let done = redact_ax(&mut nodes, &private());
    let all = serde_json::to_string(&nodes).unwrap();
    assert!(!all.contains("4242"), "{all}");
    assert!(!all.contains("Ada Lovelace"), "{all}");
    // The field keeps its name, loses its value and inner text.
    assert_eq!(nodes[3]["name"]["value"], "Card number");
    assert_eq!(nodes[3]["value"]["value"], REDACTED);
    assert_eq!(nodes[4]["name"]["value"], REDACTED);
    // The region and what it holds.
    assert_eq!(nodes[6]["name"]["value"], REDACTED);
    assert_eq!(nodes[5]["properties"][0]["value"]["value"], REDACTED);
    // Elsewhere, the region's text is cut out of a name; the rest stays.
    assert_eq!(nodes[7]["name"]["value"], "Pay as [redacted]");
    assert_eq!(nodes[2]["name"]["value"], "Card number");
    assert_eq!(nodes[0]["name"]["value"], "Shop");
    assert_eq!(done.hidden, [12, 13].into());
    assert_eq!(done.value_only, [11].into());
}

#[test]
fn nothing_private_changes_nothing() {
    let mut nodes = tree();
    let done = redact_ax(&mut nodes, &PrivateNodes::default());
    assert_eq!(nodes, tree());
    assert_eq!(done, Redacted::default());
}

#[test]
fn short_secrets_are_not_searched_for_elsewhere() {
    let mut nodes = vec![
        json!({"nodeId": "1", "childIds": ["2", "3"], "role": {"value": "RootWebArea"}, "name": {"value": "a page"}}),
        json!({"nodeId": "2", "parentId": "1", "backendDOMNodeId": 5, "role": {"value": "textbox"},
               "name": {"value": "PIN"}, "value": {"value": "7a"}}),
        json!({"nodeId": "3", "parentId": "1", "role": {"value": "heading"}, "name": {"value": "7a page"}}),
    ];
    let p = PrivateNodes {
        value_only: [5].into(),
        ..PrivateNodes::default()
    };
    redact_ax(&mut nodes, &p);
    assert_eq!(nodes[1]["value"]["value"], REDACTED);
    assert_eq!(nodes[2]["name"]["value"], "7a page");
}

#[test]
fn scrub_replaces_longest_secrets_first() {
    let secrets = vec!["4242 4242".to_string(), "4242".to_string()];
    assert_eq!(
        scrub("card 4242 4242 and 4242", &secrets).as_deref(),
        Some("card [redacted] and [redacted]")
    );
    assert_eq!(scrub("nothing here", &secrets), None);
}

fn png_of(width: u32, height: u32, rgba: [u8; 4]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut e = png::Encoder::new(&mut out, width, height);
    e.set_color(png::ColorType::Rgba);
    e.set_depth(png::BitDepth::Eight);
    let mut w = e.write_header().unwrap();
    let data: Vec<u8> = (0..width * height).flat_map(|_| rgba).collect();
    w.write_image_data(&data).unwrap();
    w.finish().unwrap();
    out
}

fn pixels(bytes: &[u8]) -> (u32, Vec<u8>) {
    let mut r = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .unwrap();
    let mut buf = vec![0; r.output_buffer_size().unwrap()];
    let info = r.next_frame(&mut buf).unwrap();
    (info.width, buf)
}

#[test]
fn a_mask_covers_exactly_the_scaled_rectangle() {
    let white = [255, 255, 255, 255];
    let png = png_of(8, 6, white);
    let rect = CssRect {
        x: 1.0,
        y: 1.0,
        width: 2.0,
        height: 1.0,
    };
    let masked = mask_png(&png, &[rect], 2.0).unwrap();
    let (width, px) = pixels(&masked);
    let at = |x: u32, y: u32| {
        let i = ((y * width + x) * 4) as usize;
        [px[i], px[i + 1], px[i + 2], px[i + 3]]
    };
    for y in 0..6 {
        for x in 0..8 {
            let inside = (2..6).contains(&x) && (2..4).contains(&y);
            assert_eq!(at(x, y), if inside { MASK } else { white }, "({x},{y})");
        }
    }
}

#[test]
fn a_mask_outside_the_image_leaves_the_bytes_alone() {
    let png = png_of(4, 4, [0, 0, 0, 255]);
    let off = CssRect {
        x: 10.0,
        y: 10.0,
        width: 5.0,
        height: 5.0,
    };
    assert_eq!(mask_png(&png, &[off], 1.0).unwrap(), png);
    assert!(matches!(
        mask_png(b"not a png", &[off], 1.0),
        Err(MaskError::Decode(_))
    ));
}
