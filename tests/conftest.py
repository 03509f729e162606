"""Shared test set-up: Qt offscreen, and where the Mosquitto binary is."""

from __future__ import annotations

import os
import shutil

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# No animation and no sound in tests unless a test turns them on (client/motion.py, client/sound.py).
os.environ.setdefault("SEALED_TABLE_MOTION", "off")
os.environ.setdefault("SEALED_TABLE_SOUND", "off")


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
