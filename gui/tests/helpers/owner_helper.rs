//! Test helper, not a product binary: for `tests/ownership.rs` and `tests/bad_input.rs`. It
//! starts an owned desktop and a program on it (its arguments, `gnome-calculator` when none),
//! prints `GROUPS=<desktop group> <program group>` once the program is on the accessibility bus
//! (or `ERROR=<code> <message>`), then blocks on its standard input until the test SIGKILLs it or
//! closes it.

use a3s_test_gui::{Desktop, DesktopOptions, ProgramSpec};
use std::io::{Read, Write};

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let desktop = Desktop::start(&DesktopOptions::default())
        .await
        .expect("the desktop starts");
    let mut args = std::env::args_os().skip(1);
    let spec = match args.next() {
        Some(program) => ProgramSpec::new(program, args.collect::<Vec<_>>()),
        None => ProgramSpec::new("gnome-calculator", Vec::<String>::new()),
    };
    let program = match desktop.start_program(&spec).await {
        Ok(program) => program,
        Err(error) => {
            println!("ERROR={} {error}", error.code());
            return;
        }
    };
    println!("GROUPS={} {}", desktop.pgid(), program.pgid());
    std::io::stdout().flush().expect("stdout");
    let _ = std::io::stdin().read(&mut [0u8; 1]);
    drop(program);
    drop(desktop);
}
