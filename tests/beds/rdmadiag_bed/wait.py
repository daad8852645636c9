"""Waiting for a condition. The deadline only bounds a hung test: nothing is timed, so a slow
machine (a sanitizer build on two cores) waits longer and still passes."""

import time


def wait_until(what, predicate, timeout=60, interval=0.05, fail=True):
    """Calls `predicate` until it returns something true, and returns that. At the deadline it
    raises AssertionError naming `what`, or with fail=False returns the last (false) answer for
    the caller to report among its other failures."""
    deadline = time.time() + timeout
    while True:
        got = predicate()
        if got:
            return got
        if time.time() > deadline:
            if fail:
                raise AssertionError(f"timed out after {timeout}s waiting for {what}")
            return got
        time.sleep(interval)
