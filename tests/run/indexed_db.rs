//! IndexedDB in the storage state (`save_storage_state { indexed_db = true }`, `docs/acl.md`
//! "Sign in once") through the binary and real Chromium: a set-up scenario's page writes the
//! `notes` database (a Date, typed arrays, a Map, a Set, a BigInt, NaN, a Blob, a Date key, an
//! index, an auto-increment store) and saves the state with `indexed_db = true`; a dependant
//! loads it and its page, reading on load, shows every value back as it was written. Saved
//! without `indexed_db`, the dependant sees no database. A value the state cannot hold fails
//! the save with `test.run.storage_state_unencodable`, naming the store and the kind, not the
//! value, and writes no file; a saved database the browser refuses to restore fails the scenario
//! loading it with `test.run.storage_state_invalid`, naming the store.

use crate::harness::{command, finish, workdir, Finished, FixtureServer, RUN_BOUND};
use serde_json::{json, Value};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// What `indexed-db-read.html` shows when the database came back whole.
const RESTORED: &str = "version=3 title=alpha when=2024-01-02T03:04:05.000Z \
    bytes=Uint8Array[1,2,3,250] tags=red,blue sizes=s:1,m:2 big=12345678901234567890 \
    ratio=NaN beta=Float64Array[0.1,-0] blob=text/plain:hello buffer=ArrayBuffer(4) \
    counters=first,second next=3";

/// `setup` writes the database (`write` is the page's query) and saves the state with
/// `save_attributes`; `reader` depends on it, starts from the state and expects `expected`.
fn suite(write: &str, save_attributes: &str, expected: &str) -> String {
    format!(
        r#"suite "notes" {{
    scenario "setup" {{
        surface = "web"
        navigate "open" {{ url = "/indexed-db-write.html{write}" }}
        expect "written" {{ text = "written" }}
        save_storage_state "save" {{
            path = ".a3s-test/notes.json"
            {save_attributes}
        }}
    }}
    scenario "reader" {{
        surface = "web"
        depends_on = ["setup"]
        storage_state = ".a3s-test/notes.json"
        navigate "open" {{ url = "/indexed-db-read.html" }}
        expect "shown" {{ text = "{expected}" }}
    }}
}}
"#
    )
}

fn run(server: &FixtureServer, work: &Path) -> Finished {
    let args = [
        "notes.acl",
        "--json",
        "--base-url",
        server.base_url.as_str(),
    ];
    let mut child = command("run", &args, work);
    child.env_remove("GITHUB_ACTIONS");
    finish(child.spawn().unwrap(), RUN_BOUND)
}

#[test]
fn a_dependant_reads_back_every_indexed_db_value_the_setup_saved() {
    let server = FixtureServer::start();
    let work = workdir(&[("notes.acl", &suite("", "indexed_db = true", RESTORED))]);
    let done = run(&server, work.path());
    assert_eq!(done.code, 0, "{}\n{}", done.stdout, done.stderr);
    let json = done.json();
    let saved = &json["scenarios"][0]["steps"][2]["detail"];
    assert_eq!(saved["databases"], 1, "{saved}");
    assert_eq!(saved["origins"], 1, "{saved}");

    // The file: private, versioned, and the values in their tagged encoding.
    let state = work.path().join(".a3s-test/notes.json");
    let mode = std::fs::metadata(&state).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    let file: Value = serde_json::from_slice(&std::fs::read(&state).unwrap()).unwrap();
    assert_eq!(file["version"], 2);
    let database = &file["origins"][0]["indexedDB"][0];
    assert_eq!(database["name"], "notes");
    assert_eq!(database["version"], 3);
    for shape in [
        json!({ "type": "date", "value": 1_704_164_645_000.0 }),
        json!({ "type": "typed_array", "kind": "Uint8Array", "bytes": "AQID+g==" }),
        json!({ "type": "special_number", "value": "NaN" }),
        json!({ "type": "big_int", "value": "12345678901234567890" }),
        json!({ "name": "by_title", "keyPath": "title", "unique": true, "multiEntry": false }),
    ] {
        assert!(holds(database, &shape), "{shape} missing from {database}");
    }
}

/// Whether `shape` is `value` or somewhere inside it.
fn holds(value: &Value, shape: &Value) -> bool {
    value == shape
        || match value {
            Value::Array(items) => items.iter().any(|v| holds(v, shape)),
            Value::Object(fields) => fields.values().any(|v| holds(v, shape)),
            _ => false,
        }
}

#[test]
fn without_indexed_db_the_dependant_starts_with_no_database() {
    let server = FixtureServer::start();
    let work = workdir(&[("notes.acl", &suite("", "", "notes: none"))]);
    let done = run(&server, work.path());
    assert_eq!(done.code, 0, "{}\n{}", done.stdout, done.stderr);
    let saved = &done.json()["scenarios"][0]["steps"][2]["detail"];
    assert!(saved.get("databases").is_none(), "{saved}");
    let bytes = std::fs::read(work.path().join(".a3s-test/notes.json")).unwrap();
    let file: Value = serde_json::from_slice(&bytes).unwrap();
    assert!(file["origins"][0].get("indexedDB").is_none(), "{file}");
}

#[test]
fn a_value_the_state_cannot_hold_fails_the_save_naming_its_store_and_writes_nothing() {
    let server = FixtureServer::start();
    let work = workdir(&[("notes.acl", &suite("?odd", "indexed_db = true", RESTORED))]);
    let done = run(&server, work.path());
    assert_eq!(done.code, 2, "{}\n{}", done.stdout, done.stderr);
    let json = done.json();
    let failure = &json["scenarios"][0]["failure"];
    assert_eq!(
        failure["code"], "test.run.storage_state_unencodable",
        "{failure}"
    );
    let message = failure["message"].as_str().unwrap();
    assert!(
        message.contains("\"notes\"/\"blobs\"") && message.contains("a String"),
        "{message}"
    );
    assert_eq!(json["scenarios"][1]["status"], "skipped");
    assert!(!work.path().join(".a3s-test/notes.json").exists());
    for out in [&done.stdout, &done.stderr] {
        assert!(!out.contains("boxed-secret"), "the value was printed");
    }
}

#[test]
fn a_saved_database_the_browser_refuses_fails_the_scenario_loading_it_naming_its_store() {
    // A record without the `id` its store's key path names: IndexedDB refuses to put it.
    let server = FixtureServer::start();
    let state = json!({
        "version": 2,
        "cookies": [],
        "origins": [{
            "origin": server.base_url,
            "localStorage": [],
            "indexedDB": [{
                "name": "notes", "version": 3,
                "objectStores": [{
                    "name": "items", "keyPath": "id", "autoIncrement": false, "indexes": [],
                    "records": [{
                        "key": { "type": "number", "value": 1.0 },
                        "value": { "type": "object", "entries": [
                            { "name": "title", "value": { "type": "string", "value": "kept-secret" } }
                        ] }
                    }]
                }]
            }]
        }]
    });
    let source = r#"suite "notes" {
    scenario "reader" {
        surface = "web"
        storage_state = ".a3s-test/notes.json"
        navigate "open" { url = "/indexed-db-read.html" }
    }
}
"#;
    let work = workdir(&[
        ("notes.acl", source),
        (".a3s-test/notes.json", &state.to_string()),
    ]);
    let done = run(&server, work.path());
    assert_eq!(done.code, 2, "{}\n{}", done.stdout, done.stderr);
    let failure = &done.json()["scenarios"][0]["failure"];
    assert_eq!(
        failure["code"], "test.run.storage_state_invalid",
        "{failure}"
    );
    let message = failure["message"].as_str().unwrap();
    assert!(message.contains("\"notes\"/\"items\""), "{message}");
    assert!(!done.stdout.contains("kept-secret") && !done.stderr.contains("kept-secret"));
}
