#!/usr/bin/env bash
# The tree-sitter grammar with its own CLI (`cargo install tree-sitter-cli --locked`): the
# committed parser is what `grammar.js` generates, the corpus tests pass, and every dogfood suite
# parses without an error. CI builds the committed parser from Rust instead
# (grammar/tree-sitter-acl/tests/agree.rs), as the CLI takes ~10 minutes to install on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/../grammar/tree-sitter-acl"
tree-sitter generate
git diff --exit-code -- src || {
    echo "tree-sitter.sh: src/ is stale; commit what \`tree-sitter generate\` wrote" >&2
    exit 1
}
tree-sitter test
tree-sitter parse --quiet -p . ../../suites/*.acl ../../.a3s-test/project.acl
echo "tree-sitter.sh: grammar up to date, corpus passed, every suite parses"
