#!/usr/bin/env bash
# Regenerates docs/images/editor-{diagnostics,completion}.png: Neovim with `a3s-test lsp` on a
# broken suite, run by `a3s-test run` as terminal scenarios (their SVG screenshots), turned into
# PNG by headless Chromium. Needs nvim and chromium-headless-shell (scripts/setup.sh installs both).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cargo build --quiet --manifest-path "$repo/Cargo.toml" --bin a3s-test
export PATH="$repo/target/debug:$PATH"
cd "$here"
rm -rf .a3s-test/runs
a3s-test run suites/
for name in diagnostics completion; do
    svg=$(ls .a3s-test/runs/*/editor/"$name"/"$name".svg)
    size=$(grep -o 'width="[0-9]*" height="[0-9]*"' "$svg" | head -1 | tr -dc '0-9 ' | tr ' ' ',' | sed 's/,,*/,/g; s/^,//; s/,$//')
    /usr/lib/chromium/chromium-headless-shell --no-sandbox --hide-scrollbars --window-size="$size" \
        --screenshot="$repo/docs/images/editor-$name.png" "file://$here/$svg" 2>/dev/null
done
rm -rf .a3s-test/runs
echo "make.sh: wrote docs/images/editor-diagnostics.png and editor-completion.png"
