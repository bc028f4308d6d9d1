#!/usr/bin/env bash
# The desktop surface's benchmarks (docs/benchmarks.md): observe of mousepad's tree, click →
# change seen on gnome-calculator, and ten Qt5-calculator scenarios beside the same steps in
# Python pyatspi (bench/gui_pyatspi.py, Debian python3-pyatspi) on the same owned desktop.
# Needs what scripts/setup.sh installs (xvfb, at-spi2-core, mousepad, gnome-calculator,
# qtbase5-examples, python3-pyatspi).
#
# Usage: bench/gui-vs-pyatspi.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo run --release -q -p a3s-test-gui --example bench_gui
