#!/usr/bin/env bash
# Install what is needed and run Sealed Table: the desktop program where there
# is a display, otherwise a headless demo game on the embedded relay.
source "$(dirname "${BASH_SOURCE[0]}")/_venv.sh"
# On X11, Qt's window plugin needs system libraries that a minimal Linux lacks:
# install them (as root, with apt-get) or say the one command that does.
if [ -n "${DISPLAY:-}" ] && [[ " $* " != *" --headless "* ]]; then
    .venv/bin/python -m client.qtdeps --install || exit 1
fi
exec .venv/bin/sealed-table "$@"
