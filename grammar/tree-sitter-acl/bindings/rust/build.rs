//! Compiles the generated parser (`src/parser.c`, committed) so the grammar is usable and
//! testable without the tree-sitter CLI.

fn main() {
    let src = std::path::Path::new("src");
    cc::Build::new()
        .include(src)
        .flag_if_supported("-std=c11")
        .flag_if_supported("-Wno-unused-parameter")
        .file(src.join("parser.c"))
        .compile("tree-sitter-acl");
    println!("cargo:rerun-if-changed=src/parser.c");
}
