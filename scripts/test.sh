#!/usr/bin/env bash
# Install what is needed (the project with its test extra, and Mosquitto) and
# run the whole test suite.  Extra arguments go to pytest.
EXTRAS=test
source "$(dirname "${BASH_SOURCE[0]}")/_venv.sh"
if ! command -v mosquitto >/dev/null 2>&1 && [ ! -x /usr/sbin/mosquitto ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "Installing Mosquitto with apt-get…"
        (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mosquitto) >/dev/null
    elif [ -n "${CI:-}" ]; then
        echo "CI needs Mosquitto and cannot install it (not root, or no apt-get)." >&2
        exit 1
    else
        echo "Note: Mosquitto is not installed; its tests will be skipped (sudo apt-get install mosquitto)." >&2
    fi
fi
# Mosquitto's Debian package starts a system broker on port 1883; our tests
# start their own brokers on free ports, so it does no harm either way.
.venv/bin/ruff check .
export QT_QPA_PLATFORM=offscreen
exec .venv/bin/python -m pytest "$@"
