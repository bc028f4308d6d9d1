#!/usr/bin/env bash
# One-time set-up for a fresh machine: Chromium, the terminal and desktop programs tests drive (Debian
# packages), the Test Kit's npm packages, the React + Vite example app, axe-core for one
# accessibility test, the Selenium Grid server jar (with Java and ChromeDriver) for the Grid tests, and a build of the a3s-test binary. Safe to run again: each step is skipped when already done.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
[ -x /usr/lib/chromium/chromium-headless-shell ] || need_apt+=(chromium-headless-shell)
[ -x /usr/lib/chromium/chromium ] || need_apt+=(chromium)
# Real terminal programs the terminal engine's tests drive (tui/tests).
for program in bc less vim dialog; do
    command -v "$program" >/dev/null || need_apt+=("$program")
done
# The desktop surface's tests (gui/tests): a headless X server, the accessibility bus and
# registry, a GTK4 program, xprop/xwininfo to look at a desktop by hand, and xmessage (the
# window another program puts over a button in gui/tests/input.rs).
[ -x /usr/bin/Xvfb ] || need_apt+=(xvfb)
[ -x /usr/libexec/at-spi-bus-launcher ] && [ -x /usr/libexec/at-spi2-registryd ] || need_apt+=(at-spi2-core)
command -v gnome-calculator >/dev/null || need_apt+=(gnome-calculator)
command -v xprop >/dev/null && command -v xmessage >/dev/null || need_apt+=(x11-utils)
# Tesseract: the reference visual grounding provider (providers/ocr-grounding) reads screenshots
# with it in its own tests and in the agent grounding tests (tests/agent/ground.rs).
command -v tesseract >/dev/null || need_apt+=(tesseract-ocr)
# More subjects (gui/tests/apps.rs, gui/tests/bad_input.rs): GTK3 programs and Qt5's calculator
# example; pyatspi for the side-by-side benchmark (bench/gui_pyatspi.py).
command -v mousepad >/dev/null || need_apt+=(mousepad)
command -v yad >/dev/null || need_apt+=(yad)
# A GTK3 program that sets accessible ids (tests/fixtures/gui/ids.py: automation_id, select).
/usr/bin/python3 -c "import gi; gi.require_version('Gtk', '3.0')" 2>/dev/null || need_apt+=(python3-gi gir1.2-gtk-3.0)
# A GTK4 drop-down and a Qt5 combo box and list for `select` (tests/fixtures/gui/choices4.py,
# tests/fixtures/gui/choices_qt.py).
/usr/bin/python3 -c "import gi; gi.require_version('Gtk', '4.0')" 2>/dev/null || need_apt+=(python3-gi gir1.2-gtk-4.0)
/usr/bin/python3 -c 'import PyQt5.QtWidgets' 2>/dev/null || need_apt+=(python3-pyqt5)
[ -x /usr/lib/x86_64-linux-gnu/qt5/examples/widgets/widgets/calculator/calculator ] || need_apt+=(qtbase5-examples)
/usr/bin/python3 -c 'import pyatspi' 2>/dev/null || need_apt+=(python3-pyatspi)
# Neovim: its built-in LSP client drives `a3s-test lsp` end to end (tests/lsp.rs).
command -v nvim >/dev/null || need_apt+=(neovim)
# A real Selenium Grid 4 for `run --grid` (tests/run/grid.rs): Java for the server jar, and the
# ChromeDriver matching Debian's Chromium.
command -v java >/dev/null || need_apt+=(openjdk-17-jre-headless)
command -v chromedriver >/dev/null || need_apt+=(chromium-driver)
if [ ${#need_apt[@]} -gt 0 ]; then
    echo "setup: installing ${need_apt[*]} (apt)"
    sudo_cmd=""
    [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

if [ -f testkit/package-lock.json ]; then
    echo "setup: npm ci (testkit)"
    (cd testkit && npm ci --no-audit --no-fund --loglevel=error)
    echo "setup: building the Test Kit and its demo app"
    (cd testkit && npm run --silent build && npm run --silent build:demo)
fi

if [ -f examples/react-vite/package-lock.json ]; then
    echo "setup: npm ci (examples/react-vite: links the Test Kit built above)"
    (cd examples/react-vite && npm ci --no-audit --no-fund --loglevel=error)
fi

if [ -f tests/fixtures/axe/package-lock.json ]; then
    echo "setup: npm ci (tests/fixtures/axe: axe-core for the HTML report's accessibility test)"
    (cd tests/fixtures/axe && npm ci --no-audit --no-fund --loglevel=error)
fi

if [ -f tests/fixtures/selenium/package-lock.json ]; then
    echo "setup: npm ci (tests/fixtures/selenium: the Selenium Grid server jar for the --grid tests)"
    (cd tests/fixtures/selenium && npm ci --no-audit --no-fund --loglevel=error)
fi

if [ -f editors/vscode/package-lock.json ]; then
    echo "setup: npm ci (editors/vscode: the VS Code extension's client and vsce)"
    (cd editors/vscode && npm ci --no-audit --no-fund --loglevel=error)
fi

echo "setup: cargo build"
cargo build --workspace --quiet
echo "setup: done — try: cargo run -- run suites/"
