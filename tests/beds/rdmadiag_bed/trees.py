"""Temporary trees: one folder per test run, named after the test, removed afterwards even when
the test fails. Python's tempfile gives each a unique name, so two runs never share one."""

import contextlib
import shutil
import tempfile


def make_tree(name):
    """A new folder rdmadiag-NAME-XXXXXXXX under $TMPDIR; the caller removes it (remove_tree)."""
    return tempfile.mkdtemp(prefix=f"rdmadiag-{name}-")


def remove_tree(path):
    shutil.rmtree(path, ignore_errors=True)


@contextlib.contextmanager
def temp_tree(name):
    """A folder that lasts for the with-block."""
    path = make_tree(name)
    try:
        yield path
    finally:
        remove_tree(path)
