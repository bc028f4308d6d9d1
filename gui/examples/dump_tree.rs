//! Print a program's accessibility tree on an owned desktop (role, name, labels, extents, path):
//! `cargo run -p a3s-test-gui --example
//! dump_tree -- PROGRAM ARGS…`. Why: the first thing to look at when a new program is to be
//! driven (which roles, names and labels it exposes).

use a3s_test_gui::tree::{self, Limits};
use a3s_test_gui::{Desktop, DesktopOptions, Element, ProgramSpec};

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let mut args = std::env::args_os().skip(1);
    let Some(program) = args.next() else {
        eprintln!("usage: dump_tree PROGRAM [ARGS…]");
        std::process::exit(2);
    };
    let desktop = Desktop::start(&DesktopOptions::default())
        .await
        .unwrap_or_else(|e| fail(&e));
    let spec = ProgramSpec::new(program, args.collect::<Vec<_>>());
    let program = desktop
        .start_program(&spec)
        .await
        .unwrap_or_else(|e| fail(&e));
    let a11y = desktop.a11y();
    let read = match tree::read_bulk(
        a11y,
        program.bus_name(),
        program.toolkit(a11y).await,
        Limits::default(),
    )
    .await
    {
        Ok(Some(tree)) => tree,
        _ => tree::read(a11y, program.bus_name(), Limits::default())
            .await
            .unwrap_or_else(|e| fail(&e)),
    };
    for node in &read.nodes {
        let element = Element {
            bus_name: program.bus_name().to_owned(),
            path: node.path.clone(),
            role: node.role,
            name: node.name.clone(),
        };
        let labels = element.label_names(a11y).await.unwrap_or_default();
        let extents = element.extents(a11y).await.ok();
        println!(
            "{}{} {:?} labels={labels:?} {:?} {}",
            "  ".repeat(node.depth),
            node.role.name(),
            node.name,
            extents.map(|r| (r.x, r.y, r.width, r.height)),
            node.path
        );
    }
    println!("{} nodes, complete: {}", read.nodes.len(), read.complete);
    // With `A3S_HOLD` set: keep the desktop until stdin closes, so a
    // person can look at it (DISPLAY and AT_SPI_BUS_ADDRESS printed).
    if std::env::var_os("A3S_HOLD").is_some() {
        println!(
            "DISPLAY={} AT_SPI_BUS_ADDRESS={}",
            desktop.display(),
            desktop.a11y_bus()
        );
        let _ = std::io::Read::read(&mut std::io::stdin(), &mut [0u8; 1]);
    }
}

fn fail(error: &a3s_test_gui::GuiError) -> ! {
    eprintln!("{}: {error}", error.code());
    std::process::exit(1);
}
