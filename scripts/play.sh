#!/usr/bin/env bash
# Install what is needed and run Sealed Table: the desktop program where there is a display, otherwise
# a headless demo game on the embedded relay.  `python -m scripts.play` (scripts/play.py) does the work,
# and does it without a shell on any platform.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
exec "${PYTHON:-python3}" -m scripts.play "$@"
