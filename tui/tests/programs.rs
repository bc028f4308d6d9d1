//! Real terminal programs from Debian packages driven through the engine: bc, python3's REPL,
//! vim, less, a program that watches its size, programs that ask the terminal questions.

mod common;

use a3s_test_tui::{Condition, Key, ProgramExit, TerminalSize};
use common::*;
use regex::Regex;

fn key(name: &str) -> Key {
    name.parse().expect("a key name")
}

#[tokio::test]
async fn bc_computes_what_is_typed() {
    let dir = tempfile::tempdir().unwrap();
    let inputrc = dir.path().join("inputrc");
    std::fs::write(&inputrc, "set enable-bracketed-paste on\n").unwrap();
    let mut spec = spec(&["bc", "-q"]);
    spec.env.push(("INPUTRC".into(), inputrc.into()));
    let t = a3s_test_tui::Terminal::spawn(&spec, Default::default()).unwrap();
    // bc shows no prompt; its line editor (readline) turns bracketed paste on once it has put
    // the terminal in raw mode. Keys typed before that meet the terminal's own cooked-mode echo
    // and are echoed again by readline when it reads them — `6*76*7` when the Enter came after
    // — so the keys go in only once bc reads them itself, and the echo is bc's alone.
    t.wait_until(
        |s| s.modes.bracketed_paste,
        "bc's line editor to read keys",
        within(20),
    )
    .await
    .unwrap();
    t.type_text("6*7").unwrap();
    t.press(key("Enter")).unwrap();
    let screen = t
        .wait_for(&Condition::Text("42".into()), within(20))
        .await
        .unwrap();
    assert!(screen.text().starts_with("6*7\n42\n"), "{}", screen.text());
    t.type_text("quit\r").unwrap();
    assert_eq!(t.wait_exit(within(20)).await.unwrap(), ProgramExit::Code(0));
    // The recording is asciicast v2 and holds the whole session.
    let cast = t.recording();
    let mut lines = cast.lines();
    let header: serde_json::Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    assert_eq!(header["version"], 2);
    assert_eq!(header["width"], 80);
    assert_eq!(header["height"], 24);
    let mut output = String::new();
    let mut last = 0.0;
    for line in lines {
        let event: serde_json::Value = serde_json::from_str(line).unwrap();
        let time = event[0].as_f64().unwrap();
        assert!(time >= last, "times never go back");
        last = time;
        assert_eq!(event[1], "o");
        output.push_str(event[2].as_str().unwrap());
    }
    assert!(output.contains("42"), "{output:?}");
}

#[tokio::test]
async fn the_python_repl_answers_and_exits_on_control_d() {
    let t = start(&["python3", "-q"]);
    t.wait_for(&Condition::Text(">>> ".into()), within(20))
        .await
        .unwrap();
    t.type_text("print(6*7)").unwrap();
    t.press(key("Enter")).unwrap();
    // The answer, then the next prompt: only then is the REPL reading again.
    let answered = Regex::new(r"(?m)^42\n>>> $").unwrap();
    t.wait_for(&Condition::Regex(answered), within(20))
        .await
        .unwrap();
    t.press(key("Control+d")).unwrap();
    assert_eq!(t.wait_exit(within(20)).await.unwrap(), ProgramExit::Code(0));
}

#[tokio::test]
async fn vim_inserts_text_and_writes_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("note.txt");
    let t = start(&[
        "vim",
        "-u",
        "NONE",
        "-i",
        "NONE",
        "-N",
        file.to_str().unwrap(),
    ]);
    let screen = t
        .wait_for(&Condition::Text("note.txt".into()), within(20))
        .await
        .unwrap();
    assert!(
        screen.modes.alternate_screen,
        "vim uses the alternate screen"
    );
    t.press(key("i")).unwrap();
    t.type_text("hello from a3s").unwrap();
    t.press(key("Escape")).unwrap();
    t.type_text(":wq").unwrap();
    t.press(key("Enter")).unwrap();
    assert_eq!(t.wait_exit(within(20)).await.unwrap(), ProgramExit::Code(0));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "hello from a3s\n");
}

#[tokio::test]
async fn less_finds_a_searched_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("lines.txt");
    let mut text: String = (1..=200).map(|n| format!("line {n}\n")).collect();
    text.insert_str(text.find("line 150\n").unwrap(), "the needle is here\n");
    std::fs::write(&file, text).unwrap();
    let t = start(&["less", file.to_str().unwrap()]);
    t.wait_for(&Condition::Text("line 1\n".into()), within(20))
        .await
        .unwrap();
    t.type_text("/needle").unwrap();
    t.press(key("Enter")).unwrap();
    let screen = t
        .wait_for(&Condition::Text("the needle is here".into()), within(20))
        .await
        .unwrap();
    assert!(!screen.contains("line 1\n"), "less scrolled to the match");
    // less marks the match in inverse video.
    let row = (0..screen.rows.len())
        .find(|r| screen.row_text(*r).contains("needle"))
        .unwrap();
    let column = screen.row_text(row).find("needle").unwrap();
    assert!(
        screen.rows[row][column].style.inverse,
        "{}",
        screen.styled_text()
    );
    t.press(key("q")).unwrap();
    // Leaving less restores the screen it found.
    t.wait_for(&Condition::NotText("the needle".into()), within(20))
        .await
        .unwrap();
    assert_eq!(t.wait_exit(within(20)).await.unwrap(), ProgramExit::Code(0));
}

#[tokio::test]
async fn a_resize_reaches_the_program_as_sigwinch() {
    let script = "import os,signal,sys\n\
        signal.signal(signal.SIGWINCH, lambda *a: print('resized', *os.get_terminal_size(), flush=True))\n\
        print('size', *os.get_terminal_size(), flush=True)\n\
        sys.stdin.read()\n";
    let t = start(&["python3", "-c", script]);
    t.wait_for(&Condition::Text("size 80 24".into()), within(20))
        .await
        .unwrap();
    t.resize(TerminalSize::new(100, 30).unwrap()).unwrap();
    let screen = t
        .wait_for(&Condition::Text("resized 100 30".into()), within(20))
        .await
        .unwrap();
    assert_eq!(screen.size, TerminalSize::new(100, 30).unwrap());
    assert_eq!(screen.rows.len(), 30);
    assert_eq!(screen.rows[0].len(), 100);
    // The recording says so too.
    assert!(
        t.recording().contains(r#""r","100x30"]"#),
        "{}",
        t.recording()
    );
}

/// A program that asks its terminal questions and prints the answers it got.
const ASKS: &str = r#"
import os, sys, tty, termios
fd = sys.stdin.fileno()
old = termios.tcgetattr(fd)
tty.setraw(fd)
def ask(question, end):
    os.write(1, question)
    answer = b''
    while not answer.endswith(end):
        answer += os.read(fd, 1)
    return answer
da = ask(b'\x1b[c', b'c')
cpr = ask(b'\x1b[3;5H\x1b[6n', b'R')
termios.tcsetattr(fd, termios.TCSADRAIN, old)
print('\r\nDA', da[1:].decode(), 'CPR', cpr[1:].decode())
"#;

#[tokio::test]
async fn device_attributes_and_cursor_position_queries_are_answered() {
    let t = start(&["python3", "-c", ASKS]);
    let answered = Regex::new(r"DA \[\?[0-9;]+c CPR \[3;5R").unwrap();
    t.wait_for(&Condition::Regex(answered), within(20))
        .await
        .unwrap();
    assert_eq!(t.wait_exit(within(20)).await.unwrap(), ProgramExit::Code(0));
}

/// Echoes what it reads in raw mode, after writing `argv[1]` (mode sequences) and `ready`.
const ECHO: &str = r#"
import os, sys, tty
tty.setraw(0)
os.write(1, sys.argv[1].encode() + b'ready\r\n')
data = b''
while not data.endswith(b'.'):
    data += os.read(0, 1024)
os.write(1, ('got ' + repr(data) + '\r\n').encode())
"#;

async fn echoed(modes: &str, send: impl FnOnce(&a3s_test_tui::Terminal)) -> String {
    let t = start(&["python3", "-c", ECHO, modes]);
    t.wait_for(&Condition::Text("ready".into()), within(20))
        .await
        .unwrap();
    send(&t);
    t.type_text(".").unwrap();
    let screen = t
        .wait_for(&Condition::Text("got ".into()), within(20))
        .await
        .unwrap();
    let text = screen.text();
    text[text.find("got ").unwrap() + 4..]
        .lines()
        .next()
        .unwrap()
        .to_string()
}

#[tokio::test]
async fn arrows_honour_application_cursor_mode() {
    let normal = echoed("", |t| t.press(key("Up")).unwrap()).await;
    assert_eq!(normal, r"b'\x1b[A.'");
    let application = echoed("\x1b[?1h", |t| t.press(key("Up")).unwrap()).await;
    assert_eq!(application, r"b'\x1bOA.'");
}

#[tokio::test]
async fn a_paste_is_bracketed_only_when_the_program_asks() {
    let plain = echoed("", |t| t.paste("a\nb").unwrap()).await;
    assert_eq!(plain, r"b'a\rb.'");
    let bracketed = echoed("\x1b[?2004h", |t| t.paste("a\nb\x1b[201~c").unwrap()).await;
    assert_eq!(bracketed, r"b'\x1b[200~a\rbc\x1b[201~.'");
}

#[tokio::test]
async fn control_alt_and_function_keys_send_xterm_bytes() {
    let sent = echoed("", |t| {
        for name in [
            "Control+a",
            "Alt+x",
            "F1",
            "F5",
            "PageDown",
            "Tab",
            "Backspace",
        ] {
            t.press(key(name)).unwrap();
        }
    })
    .await;
    assert_eq!(sent, r"b'\x01\x1bx\x1bOP\x1b[15~\x1b[6~\t\x7f.'");
}

#[tokio::test]
async fn dialog_menu_selects_with_arrow_keys() {
    let dir = tempfile::tempdir().unwrap();
    let choice = dir.path().join("choice");
    // dialog writes its choice to stderr, which is the terminal: the shell keeps it in a file.
    let script =
        r#"dialog --menu Pick 12 40 3 a Apple b Banana c Cherry 2>"$0"; echo "chose $(cat "$0")""#;
    let t = start(&["sh", "-c", script, choice.to_str().unwrap()]);
    t.wait_for(&Condition::Text("Cherry".into()), within(20))
        .await
        .unwrap();
    t.press(key("Down")).unwrap();
    t.press(key("Down")).unwrap();
    t.press(key("Enter")).unwrap();
    t.wait_for(&Condition::Text("chose c".into()), within(20))
        .await
        .unwrap();
    assert_eq!(t.wait_exit(within(20)).await.unwrap(), ProgramExit::Code(0));
}
