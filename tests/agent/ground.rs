//! Visual grounding end to end: the real binary, real Chromium, the Test Kit bridge, and the
//! reference provider `a3s-test-ocr-grounding` (Tesseract) started on loopback by the test and
//! owned by it. "Checkout" drawn on a canvas inside one button becomes that button's `@cN`; a
//! word two buttons show is ambiguous; text only in an image stays image-bound advice; a stale
//! observation and a page that changed where the answer's boxes are while the provider looked
//! are refused, a change elsewhere is not.

use crate::support::*;
use serde_json::{json, Value};
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The provider process; its whole group is killed when the test ends however it ends.
pub struct Provider {
    pgid: i32,
    /// `http://127.0.0.1:PORT/ground`.
    pub endpoint: String,
}

impl Drop for Provider {
    fn drop(&mut self) {
        // SAFETY: signals the group this test spawned (its own pgid), nothing else.
        unsafe {
            libc::kill(-self.pgid, libc::SIGKILL);
        }
    }
}

/// The provider binary beside `a3s-test` ([`crate::common::workspace_binary`]).
fn provider_binary() -> PathBuf {
    crate::common::workspace_binary("a3s-test-ocr-grounding")
}

/// Start the OCR provider on a free loopback port, answering as `ocr` / `tesseract`.
pub fn start_provider() -> Provider {
    let mut command = Command::new(provider_binary());
    command
        .args(["--listen", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    let mut child = crate::common::spawn_grouped(&mut command);
    let mut provider = Provider {
        pgid: child.id() as i32,
        endpoint: String::new(),
    };
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = std::io::BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
        let _ = child.wait();
    });
    let line = rx
        .recv_timeout(Duration::from_secs(30))
        .expect("the provider prints its address within 30 s");
    let address = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .to_string();
    provider.endpoint = format!("http://{address}/ground");
    provider
}

/// The project file naming the provider.
pub fn write_project(dir: &Path, endpoint: &str) {
    write_project_with(dir, endpoint, "");
}

/// The project file naming the provider, with `extra` attributes (context options).
pub fn write_project_with(dir: &Path, endpoint: &str, extra: &str) {
    crate::common::write(
        dir,
        ".a3s-test/project.acl",
        format!(
            r#"project "shop" {{
    {extra}
    provider "ocr" {{
        kind = "visual_grounding"
        endpoint = "{endpoint}"
        model = "tesseract"
        timeout_ms = 30000
        max_cost_microusd = 0
    }}
}}
"#
        ),
    );
}

/// The fixture: words drawn on canvases inside buttons (no accessible name: only grounding can
/// tell them apart), the same word on two buttons, text inside an image, with `?tick` a clock
/// below them that redraws every frame, and with `?flicker` the word "Checkout" itself redrawn
/// every frame in a dark shade no earlier frame had.
pub fn page() -> String {
    let sale = "<svg xmlns='http://www.w3.org/2000/svg' width='420' height='90'>\
                <rect width='420' height='90' fill='white'/>\
                <text x='20' y='60' font-family='sans-serif' font-weight='bold' font-size='44'>Summer Sale</text></svg>";
    let sale = sale
        .replace('<', "%3C")
        .replace('>', "%3E")
        .replace('#', "%23");
    format!(
        r##"<!doctype html><html><head><title>Ground</title><style>
body {{ margin: 0; font-family: sans-serif; background: #fff; }}
button {{ display: block; margin: 24px; padding: 4px; border: 2px solid #333; background: #fff; }}
canvas {{ display: block; }}
</style></head><body>
<button data-testid="checkout" id="checkout"><canvas width="240" height="60" data-word="Checkout"></canvas></button>
<button data-testid="remove-first"><canvas width="240" height="60" data-word="Remove"></canvas></button>
<button data-testid="remove-second"><canvas width="240" height="60" data-word="Remove"></canvas></button>
<img alt="" src="data:image/svg+xml,{sale}" width="420" height="90">
<canvas id="clock" width="300" height="60"></canvas>
<p id="state">ready</p>
<script type="module">
import {{ installTestKit }} from "/kit/index.js";
for (const c of document.querySelectorAll("canvas[data-word]")) {{
  const g = c.getContext("2d");
  g.fillStyle = "#fff"; g.fillRect(0, 0, c.width, c.height);
  g.fillStyle = "#000"; g.font = "bold 36px sans-serif"; g.fillText(c.dataset.word, 16, 44);
}}
document.getElementById("checkout").addEventListener("click", () => {{
  document.getElementById("state").textContent = "checked out";
}});
if (location.search.includes("flicker")) {{
  const c = document.querySelector("#checkout canvas"), g = c.getContext("2d");
  let frame = 0;
  const draw = () => {{
    // A dark shade no earlier frame had (it repeats after 32,768 frames): two captures of the
    // word never agree, however many frames lie between them (two alternating shades did, half
    // the time).
    frame += 1;
    const shade = `rgb(${{frame & 31}}, ${{(frame >> 5) & 31}}, ${{(frame >> 10) & 31}})`;
    g.fillStyle = "#fff"; g.fillRect(0, 0, c.width, c.height);
    g.fillStyle = shade; g.font = "bold 36px sans-serif"; g.fillText("Checkout", 16, 44);
    requestAnimationFrame(draw);
  }};
  draw();
}}
if (location.search.includes("tick")) {{
  const g = document.getElementById("clock").getContext("2d");
  const tick = () => {{
    g.fillStyle = "#fff"; g.fillRect(0, 0, 300, 60);
    g.fillStyle = "#000"; g.font = "24px monospace"; g.fillText(String(performance.now()), 8, 40);
    requestAnimationFrame(tick);
  }};
  tick();
}}
installTestKit({{ enabled: true, page: {{ id: "ground" }} }});
</script></body></html>"##
    )
}

/// The page and the built Test Kit (`testkit/dist`, built by `./scripts/setup.sh`).
pub fn pages() -> Vec<(String, String)> {
    let dist = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testkit/dist");
    let entries = std::fs::read_dir(&dist).unwrap_or_else(|e| {
        panic!(
            "{} is missing ({e}): build the Test Kit first with ./scripts/setup.sh",
            dist.display()
        )
    });
    let mut pages: Vec<(String, String)> = entries
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "js"))
        .map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            (
                format!("/kit/{name}"),
                std::fs::read_to_string(e.path()).unwrap(),
            )
        })
        .collect();
    let html = page();
    pages.push(("/".into(), html.clone()));
    pages.push(("/?tick".into(), html.clone()));
    pages.push(("/?flicker".into(), html));
    pages
}

/// Observe until the bridge is seen (it installs when the module has run), bounded.
pub fn observe_with_page_context(d: &Path, session: &str) -> Value {
    let until = Instant::now() + Duration::from_secs(20);
    loop {
        let obs = turn(d, session, &["observe"]);
        if obs["page_context"]["ref_count"].as_u64().unwrap_or(0) >= 3 {
            return obs;
        }
        assert!(Instant::now() < until, "no Page Context within 20 s: {obs}");
    }
}

/// The `@cN` of the button with test id `id`.
fn cref_of(obs: &Value, nth: usize) -> String {
    obs["page_context"]["refs"][nth]["ref"]
        .as_str()
        .unwrap_or_else(|| panic!("no @c #{nth} in {obs}"))
        .to_string()
}

#[test]
fn grounding_maps_drawn_text_onto_the_one_node_the_page_shows_there() {
    let provider = start_provider();
    let pages = pages();
    let pages: Vec<(&str, &str)> = pages
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let server = Server::start(&pages);
    let dir = project();
    let d = dir.path();
    write_project(d, &provider.endpoint);
    let groups = start(d, "ground", &server.url(), &[]);
    let obs = observe_with_page_context(d, "ground");
    let id = obs["observation"].as_u64().unwrap();
    let checkout_ref = cref_of(&obs, 0);

    // One place, on one button: that button's @cN of this observation, with its test id.
    let g = turn(d, "ground", &["ground", "Checkout"]);
    assert_eq!(g["authority"], "advisory", "{g}");
    assert_eq!(g["outcome"], "located", "{g}");
    assert_eq!(g["ref"], checkout_ref.as_str(), "{g}");
    assert_eq!(g["locator"], r#"testid("checkout")"#, "{g}");
    assert_eq!(g["observation"], id);
    assert_eq!(g["provider"], "ocr");
    assert_eq!(
        (g["image"]["width"].as_u64(), g["image"]["height"].as_u64()),
        (Some(1280), Some(720))
    );
    let place = &g["places"][0];
    assert_eq!(place["box"]["text"], "Checkout", "{g}");
    assert!(place["box"]["confidence"].as_f64().unwrap() > 0.5, "{g}");
    // Grounding did not end the observation: the ref acts in the very next turn.
    let clicked = turn(
        d,
        "ground",
        &["click", &checkout_ref, "--observation", &id.to_string()],
    );
    assert_eq!(clicked["status"], "passed", "{clicked}");
    let after = observe_with_page_context(d, "ground");
    assert!(after.to_string().contains("checked out"), "{after}");

    // The same word on two buttons: two places on two nodes, no ref.
    let g = turn(d, "ground", &["ground", "remove", "--trigger", "canvas"]);
    assert_eq!(g["outcome"], "ambiguous", "{g}");
    assert!(g.get("ref").is_none(), "{g}");
    let hits: Vec<&str> = g["places"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["hit"]["ref"].as_str().unwrap())
        .collect();
    assert_eq!(hits.len(), 2, "{g}");
    assert_ne!(hits[0], hits[1], "{g}");
    assert_eq!(g["trigger"], "canvas");

    // Text inside an image that no Test Kit node holds: advice in image pixels only.
    let g = turn(
        d,
        "ground",
        &["ground", "Summer Sale", "--trigger", "image-only"],
    );
    assert_eq!(g["outcome"], "image_bound", "{g}");
    assert!(g.get("ref").is_none(), "{g}");
    assert_eq!(g["places"].as_array().unwrap().len(), 1, "{g}");
    assert!(g["places"][0].get("hit").is_none(), "{g}");

    // Nowhere on the screenshot.
    let g = turn(d, "ground", &["ground", "Basket"]);
    assert_eq!(g["outcome"], "not_found", "{g}");

    // An observation that is no longer the latest is refused before the provider is asked.
    let old = turn(d, "ground", &["observe"])["observation"]
        .as_u64()
        .unwrap();
    turn(d, "ground", &["observe"]);
    let r = refused_turn(
        d,
        "ground",
        &["ground", "Checkout", "--observation", &old.to_string()],
        "test.session.stale_ref",
    );
    assert!(error_message(&r).contains("not the latest"), "{r}");

    // The word the answer is about redrawn while the provider looks: the answer is about
    // pixels that are gone.
    turn(d, "ground", &["navigate", "/?flicker"]);
    observe_with_page_context(d, "ground");
    let r = refused_turn(
        d,
        "ground",
        &["ground", "Checkout"],
        "test.session.screenshot_changed",
    );
    assert!(error_message(&r).contains("ground again"), "{r}");
    assert!(
        error_message(&r).contains("in the region of the answer's boxes"),
        "{r}"
    );

    // A clock redrawn every frame below the buttons, outside every box of the answer: the page
    // still shows what the answer is about, and the proof says where it was made.
    turn(d, "ground", &["navigate", "/?tick"]);
    let obs = observe_with_page_context(d, "ground");
    let g = turn(d, "ground", &["ground", "Checkout"]);
    assert_eq!(g["outcome"], "located", "{g}");
    assert_eq!(g["ref"], cref_of(&obs, 0).as_str(), "{g}");
    let b = &g["places"][0]["box"];
    let proof = &g["proof"];
    assert_eq!(proof["area"], "region", "{g}");
    let (x, y) = (proof["x"].as_f64().unwrap(), proof["y"].as_f64().unwrap());
    let (w, h) = (
        proof["width"].as_f64().unwrap(),
        proof["height"].as_f64().unwrap(),
    );
    assert!(
        x <= b["x"].as_f64().unwrap() && y <= b["y"].as_f64().unwrap(),
        "{g}"
    );
    assert!(
        x + w >= b["x"].as_f64().unwrap() + b["width"].as_f64().unwrap()
            && y + h >= b["y"].as_f64().unwrap() + b["height"].as_f64().unwrap(),
        "{g}"
    );
    // The word, not the page: far smaller than the 1280×720 viewport.
    assert!(w * h < 1280.0 * 720.0 / 20.0, "{g}");
    // An answer that names no place is about the whole picture: proven on the whole viewport,
    // where the clock changes — refused.
    let r = refused_turn(
        d,
        "ground",
        &["ground", "Basket"],
        "test.session.screenshot_changed",
    );
    assert!(error_message(&r).contains("in the viewport"), "{r}");

    ok(
        d,
        &[
            "agent",
            "finish",
            "--session",
            "ground",
            "--status",
            "passed",
            "--summary",
            "grounded",
            "--json",
        ],
    );
    assert_gone(groups);
}

/// On an emulated phone the screenshot's pixels are not CSS pixels: a box's centre is divided by
/// the image pixels per CSS pixel before the page is asked, and the answer still names the
/// button.
#[test]
fn image_pixels_become_css_pixels_at_the_screenshots_scale() {
    let provider = start_provider();
    let pages = pages();
    let pages: Vec<(&str, &str)> = pages
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let server = Server::start(&pages);
    let dir = project();
    let d = dir.path();
    write_project_with(d, &provider.endpoint, r#"device = "iPhone SE""#);
    let groups = start(d, "dpr", &server.url(), &[]);
    let obs = observe_with_page_context(d, "dpr");
    let g = turn(d, "dpr", &["ground", "Checkout"]);
    assert_eq!(g["outcome"], "located", "{g}");
    assert_eq!(g["ref"], cref_of(&obs, 0).as_str(), "{g}");
    // 320 device-independent pixels at a ratio of 2, showing a page laid out 980 CSS pixels
    // wide (it has no viewport meta): 640 image pixels for 980 CSS pixels.
    assert_eq!(g["image"]["width"], 640, "{g}");
    let scale = g["image"]["scale"].as_f64().unwrap();
    assert!((scale - 640.0 / 980.0).abs() < 1e-9, "{g}");
    let b = &g["places"][0]["box"];
    let centre_x = b["x"].as_f64().unwrap() + b["width"].as_f64().unwrap() / 2.0;
    let css_x = g["places"][0]["centre_css"][0].as_f64().unwrap();
    assert!((css_x - centre_x / scale).abs() < 1e-9, "{g}");
    // A page drawn at another scale than its device pixel ratio has no viewport region that is a
    // region of the image: the whole frame is proven instead.
    assert_eq!(g["proof"]["area"], "viewport", "{g}");
    ok(d, &["agent", "abort", "--session", "dpr", "--json"]);
    assert_gone(groups);
}

/// At a device pixel ratio of 2 (a desktop HiDPI screen) the screenshot has twice the CSS
/// pixels each way: the box's centre is halved before the page is asked.
#[test]
fn a_hidpi_screenshot_is_read_at_twice_the_css_pixels() {
    let provider = start_provider();
    let pages = pages();
    let pages: Vec<(&str, &str)> = pages
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let server = Server::start(&pages);
    let dir = project();
    let d = dir.path();
    write_project_with(d, &provider.endpoint, r#"device = "Desktop Chrome HiDPI""#);
    let groups = start(d, "hidpi", &server.url(), &[]);
    let obs = observe_with_page_context(d, "hidpi");
    let g = turn(d, "hidpi", &["ground", "Checkout"]);
    assert_eq!(g["outcome"], "located", "{g}");
    assert_eq!(g["ref"], cref_of(&obs, 0).as_str(), "{g}");
    assert_eq!(g["image"]["width"], 2560, "{g}");
    assert_eq!(g["image"]["scale"], 2.0, "{g}");
    // At the device pixel ratio a clip of the viewport is the same pixels as the screenshot's
    // region: the proof is the boxes' region.
    assert_eq!(g["proof"]["area"], "region", "{g}");
    let b = &g["places"][0]["box"];
    let centre_y = b["y"].as_f64().unwrap() + b["height"].as_f64().unwrap() / 2.0;
    assert_eq!(
        g["places"][0]["centre_css"][1].as_f64().unwrap(),
        centre_y / 2.0,
        "{g}"
    );
    ok(d, &["agent", "abort", "--session", "hidpi", "--json"]);
    assert_gone(groups);
}

#[test]
fn a_provider_that_is_not_there_is_a_coded_refusal() {
    let pages = pages();
    let pages: Vec<(&str, &str)> = pages
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let server = Server::start(&pages);
    let dir = project();
    let d = dir.path();
    // A port nothing listens on: bound, then released.
    let (listener, origin) = crate::common::loopback();
    drop(listener);
    write_project(d, &format!("{origin}/ground"));
    let groups = start(d, "absent", &server.url(), &[]);
    observe_with_page_context(d, "absent");
    let r = refused_turn(
        d,
        "absent",
        &["ground", "Checkout"],
        "test.session.provider",
    );
    assert!(
        error_message(&r).starts_with("test.provider.connect"),
        "{r}"
    );
    let r = refused_turn(
        d,
        "absent",
        &["ground", "Checkout", "--provider", "vision"],
        "test.session.provider",
    );
    assert!(
        error_message(&r).contains("test.provider.not_configured"),
        "{r}"
    );
    ok(d, &["agent", "abort", "--session", "absent", "--json"]);
    assert_gone(groups);
}

#[test]
fn test_ground_over_mcp_answers_with_a_ref_of_the_latest_observation() {
    let provider = start_provider();
    let pages = pages();
    let pages: Vec<(&str, &str)> = pages
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let server = Server::start(&pages);
    let dir = project();
    let d = dir.path();
    write_project(d, &provider.endpoint);
    let mcp = crate::mcp_pipe::McpClient::start(d, &[], TURN);
    let (started, err) = mcp.result(
        "test_session_start",
        json!({ "url": server.url(), "session": "mcp-ground" }),
    );
    assert!(!err, "{started}");
    let until = Instant::now() + Duration::from_secs(20);
    let obs = loop {
        let (obs, err) = mcp.result("test_observe", json!({ "session": "mcp-ground" }));
        assert!(!err, "{obs}");
        if obs["page_context"]["ref_count"].as_u64().unwrap_or(0) >= 3 {
            break obs;
        }
        assert!(Instant::now() < until, "no Page Context within 20 s: {obs}");
    };
    let (g, err) = mcp.result(
        "test_ground",
        json!({ "session": "mcp-ground", "query": "Checkout", "observation": obs["observation"] }),
    );
    assert!(!err, "{g}");
    assert_eq!(g["authority"], "advisory", "{g}");
    assert_eq!(g["outcome"], "located", "{g}");
    assert_eq!(g["ref"], obs["page_context"]["refs"][0]["ref"], "{g}");
    // A trigger outside the protocol's four is refused by the tool's schema, before any turn.
    let bad = mcp
        .call(
            "test_ground",
            json!({ "session": "mcp-ground", "query": "Checkout", "trigger": "guess" }),
        )
        .unwrap_err();
    assert_eq!(bad["code"], -32602, "{bad}");
    assert_eq!(bad["data"]["field"], "/trigger", "{bad}");
    let (closed, err) = mcp.result("test_abort", json!({ "session": "mcp-ground" }));
    assert!(!err, "{closed}");
    assert_eq!(closed["cleanup_verified"], true, "{closed}");
}

/// The fixture without the Test Kit: the same drawn words, and no bridge to name nodes.
fn plain_page() -> String {
    let page = page()
        .replace(r#"import { installTestKit } from "/kit/index.js";"#, "")
        .replace(
            r#"installTestKit({ enabled: true, page: { id: "ground" } });"#,
            "",
        );
    assert!(!page.contains("installTestKit"), "{page}");
    page
}

/// Without a Test Kit bridge, a box lands on an `@eN` control of the observation: the page's own
/// topmost element at the box's centre, walked up to the control, proves it.
#[test]
fn without_the_test_kit_a_box_becomes_the_e_ref_the_page_shows_there() {
    let provider = start_provider();
    let html = plain_page();
    let server = Server::start(&[("/", html.as_str())]);
    let dir = project();
    let d = dir.path();
    write_project(d, &provider.endpoint);
    let groups = start(d, "plain", &server.url(), &[]);
    let obs = turn(d, "plain", &["observe"]);
    assert!(
        obs.get("page_context")
            .is_none_or(|p| p["ref_count"].as_u64().unwrap_or(0) == 0),
        "{obs}"
    );
    let buttons: Vec<String> = refs(&obs)
        .iter()
        .filter(|r| r["role"] == "button")
        .map(|r| r["ref"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(buttons.len(), 3, "{obs}");
    let id = obs["observation"].as_u64().unwrap().to_string();

    let g = turn(d, "plain", &["ground", "Checkout"]);
    assert_eq!(g["outcome"], "located", "{g}");
    assert_eq!(g["ref"], buttons[0].as_str(), "{g}");
    assert_eq!(g["authority"], "advisory", "{g}");
    let clicked = turn(d, "plain", &["click", &buttons[0], "--observation", &id]);
    assert_eq!(clicked["status"], "passed", "{clicked}");
    let after = turn(d, "plain", &["observe"]);
    assert!(after.to_string().contains("checked out"), "{after}");

    let g = turn(d, "plain", &["ground", "remove"]);
    assert_eq!(g["outcome"], "ambiguous", "{g}");
    let hits: Vec<&str> = g["places"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["hit"]["ref"].as_str().unwrap())
        .collect();
    assert_eq!(hits, [buttons[1].as_str(), buttons[2].as_str()], "{g}");

    let g = turn(d, "plain", &["ground", "Summer Sale"]);
    assert_eq!(g["outcome"], "image_bound", "{g}");
    assert!(g["places"][0].get("hit").is_none(), "{g}");

    ok(d, &["agent", "abort", "--session", "plain", "--json"]);
    assert_gone(groups);
}
