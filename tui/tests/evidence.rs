//! The evidence formats of a fixed program output, snapshotted: the styled text and the SVG
//! screenshot (colours, bold, italic, underline, inverse, the cursor; markup in the program's
//! output escaped).

mod common;

use a3s_test_tui::Condition;
use common::*;

/// Fixed output with every style the formats show, and text that looks like markup.
const PAINT: &str = r#"
import sys
sys.stdout.write(
    '\x1b[1;31mbold red\x1b[0m plain \x1b[3;4;32mitalic under\x1b[0m \x1b[7minverse\x1b[0m\r\n'
    '\x1b[38;5;208morange\x1b[0m \x1b[48;2;10;20;30m rgb bg \x1b[0m </text><script>alert(1)</script> & "q"\r\n'
    'wide: 漢字 done'
)
sys.stdout.flush()
sys.stdin.read()
"#;

#[tokio::test]
async fn styled_text_and_svg_of_a_fixed_output() {
    let t = start_with(&["python3", "-c", PAINT], sized(48, 4));
    let screen = t
        .wait_for(&Condition::Text("done".into()), within(20))
        .await
        .unwrap();
    insta::assert_snapshot!("styled_text", screen.styled_text());
    let svg = a3s_test_tui::svg::render(&screen);
    assert!(
        !svg.contains("<script"),
        "program output never becomes markup"
    );
    insta::assert_snapshot!("svg", svg);
}
