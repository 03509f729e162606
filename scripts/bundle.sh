#!/usr/bin/env bash
# Build the standalone program into dist/sealed-table/ with PyInstaller (scripts/bundle.py says how).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
exec "${PYTHON:-python3}" -m scripts.bundle "$@"
