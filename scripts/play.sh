#!/usr/bin/env bash
# Install what is needed and run Sealed Table: the desktop program where there
# is a display, otherwise a headless demo game on the embedded relay.
source "$(dirname "${BASH_SOURCE[0]}")/_venv.sh"
# On X11, Qt's window plugin needs system libraries that a minimal Linux lacks:
# install them (as root, with apt-get) or say the one command that does.
if [ -n "${DISPLAY:-}" ] && [[ " $* " != *" --headless "* ]]; then
    # The sound cues play through Qt Multimedia (PySide6-Addons, about 175 MB, once), of exactly
    # the installed PySide6's version so that nothing else moves; without it the program is silent.
    qt="$(.venv/bin/python -c 'import importlib.metadata as m; print(m.version("PySide6-Essentials"))')"
    .venv/bin/python -m pip install --quiet --disable-pip-version-check "PySide6-Addons==$qt" \
        || echo "Note: Qt Multimedia could not be installed; the program plays no sound." >&2
    .venv/bin/python scripts/qtdeps.py --install || exit 1
fi
exec .venv/bin/sealed-table "$@"
