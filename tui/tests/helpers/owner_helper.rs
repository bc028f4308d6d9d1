//! Test helper, not a product binary: for `tests/ownership.rs`. It starts `sh -c 'sleep 300 &
//! sleep 300'` on a terminal, prints `PID=<the program's pid = its group>`, then blocks on its
//! standard input until the test SIGKILLs it, so no drop ever runs.

use a3s_test_tui::{ProgramSpec, Terminal, TerminalOptions};
use std::io::{Read, Write};

fn main() {
    let spec = ProgramSpec::new("sh", ["-c", "sleep 300 & sleep 300"]);
    let terminal = Terminal::spawn(&spec, TerminalOptions::default()).expect("the program starts");
    println!("PID={}", terminal.pid());
    std::io::stdout().flush().expect("stdout");
    let _ = std::io::stdin().read(&mut [0u8; 1]);
    drop(terminal);
}
