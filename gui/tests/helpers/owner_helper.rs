//! Test helper, not a product binary: for `tests/ownership.rs`. It starts an owned desktop and
//! `gnome-calculator` on it, prints `GROUPS=<desktop group> <program group>`, then blocks on its
//! standard input until the test SIGKILLs it, so no drop ever runs.

use a3s_test_gui::{Desktop, DesktopOptions, ProgramSpec};
use std::io::{Read, Write};

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let desktop = Desktop::start(&DesktopOptions::default())
        .await
        .expect("the desktop starts");
    let program = desktop
        .start_program(&ProgramSpec::new("gnome-calculator", Vec::<String>::new()))
        .await
        .expect("the calculator starts");
    println!("GROUPS={} {}", desktop.pgid(), program.pgid());
    std::io::stdout().flush().expect("stdout");
    let _ = std::io::stdin().read(&mut [0u8; 1]);
    drop(program);
    drop(desktop);
}
