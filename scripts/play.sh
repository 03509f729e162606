#!/usr/bin/env bash
# Install what is needed and run Sealed Table: the desktop program where there
# is a display, otherwise a headless demo game on the embedded relay.
source "$(dirname "${BASH_SOURCE[0]}")/_venv.sh"
exec .venv/bin/sealed-table "$@"
