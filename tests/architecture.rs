//! The shape of the workspace, read from `cargo metadata`: the driver contract is its own crate,
//! each surface (Web, terminal, desktop) is one crate beside it, and the runner — suites and
//! agent sessions — depends on the contract only. A surface crate named by the runner, or one
//! surface reaching into another, fails here before it can spread.

use serde_json::Value;
use std::collections::BTreeSet;
use std::process::Command;

/// The crates that implement one surface behind the driver contract, injected by the binary.
const SURFACES: &[&str] = &["a3s-test-web", "a3s-test-tui", "a3s-test-gui"];

/// Surface crates still being built: held to every rule but injection, which comes with their
/// driver; a crate moves to [`SURFACES`] when the binary injects it.
const SURFACES_IN_PROGRESS: &[&str] = &[];

/// Every surface crate, injected or not.
fn all_surfaces() -> impl Iterator<Item = &'static &'static str> {
    SURFACES.iter().chain(SURFACES_IN_PROGRESS)
}

/// Each workspace package's name and the names of its normal (non-dev, non-build) dependencies.
fn normal_dependencies() -> Vec<(String, BTreeSet<String>)> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let metadata: Value = serde_json::from_slice(&out.stdout).expect("cargo metadata is JSON");
    metadata["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .map(|p| {
            let deps = p["dependencies"]
                .as_array()
                .expect("dependencies")
                .iter()
                .filter(|d| d["kind"].is_null())
                .map(|d| d["name"].as_str().unwrap().to_string())
                .collect();
            (p["name"].as_str().unwrap().to_string(), deps)
        })
        .collect()
}

fn deps_of<'a>(all: &'a [(String, BTreeSet<String>)], name: &str) -> &'a BTreeSet<String> {
    &all.iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("{name} is a workspace package"))
        .1
}

#[test]
fn the_runner_ledger_and_contract_name_no_surface_crate() {
    let all = normal_dependencies();
    for core in [
        "a3s-test-runner",
        "a3s-test-driver",
        "a3s-test-ledger",
        "a3s-test-lang",
    ] {
        let deps = deps_of(&all, core);
        let named: Vec<_> = all_surfaces().filter(|s| deps.contains(**s)).collect();
        assert!(named.is_empty(), "{core} depends on {named:?}");
    }
}

#[test]
fn each_surface_stands_on_the_contract_and_on_no_other_surface() {
    let all = normal_dependencies();
    for surface in all_surfaces() {
        let deps = deps_of(&all, surface);
        assert!(deps.contains("a3s-test-driver"), "{surface}: {deps:?}");
        let others: Vec<_> = all_surfaces().filter(|s| deps.contains(**s)).collect();
        assert!(others.is_empty(), "{surface} depends on {others:?}");
    }
    // The binary is where the surfaces are injected: it has them all.
    let binary = deps_of(&all, "a3s-test");
    for surface in SURFACES {
        assert!(binary.contains(*surface), "the binary injects {surface}");
    }
}
