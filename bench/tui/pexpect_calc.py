"""The twenty scenarios of `calc.acl`, written the usual pexpect way: a fresh `bc -q` on its
own pseudoterminal per scenario, the same two calculations, each answer waited for with a
regular expression and a timeout, the program ended at the end. `JOBS` scenarios run at once
(threads; each has its own terminal), like `a3s-test run --jobs`. `TUNED=1` removes pexpect's
built-in pauses (50 ms before each send, 100 ms after close) and ends bc with `quit` before
closing, which a tuned pexpect suite does.

Prints `passed N failed M`; exits 1 if any failed.
"""

import concurrent.futures
import os
import sys

import pexpect

TIMEOUT = 10
TUNED = os.environ.get("TUNED") == "1"


def scenario(i: int) -> bool:
    a = i * 7
    b = a + i
    child = pexpect.spawn("bc", ["-q"], encoding="utf-8", timeout=TIMEOUT, dimensions=(24, 80))
    if TUNED:
        child.delaybeforesend = None
        child.delayafterclose = 0
        child.delayafterterminate = 0
        child.ptyproc.delayafterclose = 0
    try:
        child.send(f"{i}*7")
        child.send("\r")
        child.expect(rf"[\r\n]{a}\r\n")
        child.send(f"{a}+{i}")
        child.send("\r")
        child.expect(rf"[\r\n]{b}\r\n")
        if TUNED:
            # End bc the way it ends itself, so close() has nothing to wait for.
            child.send("quit\r")
            child.expect(pexpect.EOF)
        return True
    except (pexpect.TIMEOUT, pexpect.EOF):
        return False
    finally:
        child.close(force=True)


def main() -> int:
    jobs = int(os.environ.get("JOBS", "1"))
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(scenario, range(1, 21)))
    passed = sum(results)
    print(f"passed {passed} failed {len(results) - passed}")
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
