"""Shared test set-up: Qt offscreen, and where the Mosquitto binary is."""

from __future__ import annotations

import ast
import gc
import os
import shutil
import sys
from typing import Any

import pytest

from tests.display import x_display  # noqa: F401  (the fixture of the tests on a real X display)

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# No animation and no sound in tests unless a test turns them on (client/ui/motion.py, client/ui/sound.py).
os.environ.setdefault("SEALED_TABLE_MOTION", "off")
os.environ.setdefault("SEALED_TABLE_SOUND", "off")


if sys.version_info < (3, 12):
    # CPython 3.11 keeps the AST constructor's recursion depth in one global: a garbage collection
    # during ast.parse can run a finalizer that logs a traceback, and 3.11's traceback module itself
    # calls ast.parse (for its ^^^ carets), so the outer parse ends with "SystemError: AST constructor
    # recursion depth mismatch" (python/cpython#106905).  Pytest parses the source of a failing test
    # to show it, so one failure could abort the whole run.  No collection during a parse, one retry.
    _parse = ast.parse

    def _parse_without_collection(*args: Any, **kwargs: Any) -> Any:
        for attempt in (1, 2):
            enabled = gc.isenabled()
            gc.disable()
            try:
                return _parse(*args, **kwargs)
            except SystemError:
                if attempt == 2:
                    raise
            finally:
                if enabled:
                    gc.enable()
        raise AssertionError("unreachable")

    ast.parse = _parse_without_collection


def mosquitto_binary() -> str | None:
    return shutil.which("mosquitto") or ("/usr/sbin/mosquitto" if os.access("/usr/sbin/mosquitto", os.X_OK) else None)


@pytest.fixture(scope="session")
def mosquitto_path() -> str:
    """The mosquitto binary; in CI its absence is a failure, elsewhere a skip."""
    path = mosquitto_binary()
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("CI must have Mosquitto (scripts/test.sh installs it with apt-get)")
        pytest.skip("mosquitto is not installed")
    return path
