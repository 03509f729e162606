#!/usr/bin/env bash
# Install what is needed (the project with its test extra, Mosquitto, Xvfb, Aedes), then run ruff,
# the import contracts, mypy and the whole test suite; extra arguments go to pytest.
# `python -m scripts.test` (scripts/test.py) does the work, and does it without a shell on any platform.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
exec "${PYTHON:-python3}" -m scripts.test "$@"
