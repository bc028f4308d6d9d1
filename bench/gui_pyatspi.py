#!/usr/bin/python3
"""The pyatspi side of bench/gui-vs-pyatspi.sh: one calculator scenario each time a line comes on
stdin (answered with a line once done; "ready" first), so the Rust side's scenarios and these
alternate under the same load, on the desktop the Rust side owns (DISPLAY and AT_SPI_BUS_ADDRESS
come from it): start Qt5's calculator
example, wait until it is on the accessibility bus, find the display and the buttons 7, ×, 6, =
by walking the tree, click each at its centre with real pointer events (the registry's XTest),
poll the display until it shows the step's value, stop the program. At the end of its input it
prints where its time went.

Run by gui/examples/bench_gui.rs with /usr/bin/python3 (Debian's python3-pyatspi)."""

import os
import subprocess
import sys
import time

import pyatspi

CALCULATOR = sys.argv[1]
STEPS = [("7", "7"), ("×", "7"), ("6", "6"), ("=", "42")]
WITHIN = 10.0


def application(pid):
    """The calculator's application on the bus, by its process id (bounded)."""
    until = time.monotonic() + WITHIN
    while time.monotonic() < until:
        desktop = pyatspi.Registry.getDesktop(0)
        for app in desktop:
            if app is not None and app.get_process_id() == pid:
                return app
        time.sleep(0.01)
    raise SystemExit("the calculator did not appear on the bus")


def walk(node, out):
    for child in node:
        if child is not None:
            out.append(child)
            walk(child, out)
    return out


def text_of(node):
    return node.queryText().getText(0, -1)


PHASES = {"start": 0.0, "steps": 0.0, "stop": 0.0}


def scenario():
    lap = time.monotonic()
    process = subprocess.Popen([CALCULATOR], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        app = application(process.pid)
        PHASES["start"] += time.monotonic() - lap
        lap = time.monotonic()
        nodes = walk(app, [])
        display = [n for n in nodes if n.getRoleName() == "text"][0]
        for name, after in STEPS:
            nodes = walk(app, [])
            button = [n for n in nodes if n.getRoleName() == "push button" and n.name == name][0]
            extents = button.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
            x, y = extents.x + extents.width // 2, extents.y + extents.height // 2
            pyatspi.Registry.generateMouseEvent(x, y, "b1c")
            until = time.monotonic() + WITHIN
            while text_of(display) != after:
                if time.monotonic() > until:
                    raise SystemExit(f"the display did not show {after}")
                time.sleep(0.002)
        PHASES["steps"] += time.monotonic() - lap
    finally:
        lap = time.monotonic()
        process.kill()
        process.wait()
        PHASES["stop"] += time.monotonic() - lap


each = []
print("ready", flush=True)
for _ in sys.stdin:
    lap = time.monotonic()
    scenario()
    each.append(f"{(time.monotonic() - lap) * 1000:.0f}")
    print("done", flush=True)
split = ", ".join(f"{name} {seconds * 1000:.0f}" for name, seconds in PHASES.items())
print(f"pyatspi: {len(each)} scenarios ({split})")
print(f"pyatspi: each scenario, ms: {' '.join(each)}")
