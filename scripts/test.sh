#!/usr/bin/env bash
# Install what is needed (the project with its test extra, and Mosquitto), then run
# ruff, mypy and the whole test suite.  Extra arguments go to pytest.
EXTRAS=test
source "$(dirname "${BASH_SOURCE[0]}")/_venv.sh"
# System programs the tests need: Mosquitto (the real relay), and Xvfb with
# xwininfo (x11-utils) for the test that opens the program on a real display.
need=()
command -v mosquitto >/dev/null 2>&1 || [ -x /usr/sbin/mosquitto ] || need+=(mosquitto)
command -v Xvfb >/dev/null 2>&1 || need+=(xvfb)
command -v xwininfo >/dev/null 2>&1 || need+=(x11-utils)
if [ ${#need[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "Installing with apt-get: ${need[*]}…"
        (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}") >/dev/null
    elif [ -n "${CI:-}" ]; then
        echo "CI needs ${need[*]} and cannot install them (not root, or no apt-get)." >&2
        exit 1
    else
        echo "Note: ${need[*]} not installed; their tests will be skipped (sudo apt-get install ${need[*]})." >&2
    fi
fi
# Mosquitto's Debian package starts a system broker on port 1883; our tests
# start their own brokers on free ports, so it does no harm either way.
# (mosquitto_passwd, for the login tests, comes with the same package.)

# Aedes, the second broker implementation a whole game is played on: npm installs the
# locked version into tests/relay/games/aedes/node_modules (skipped when it is already there).
AEDES_DIR="$(dirname "${BASH_SOURCE[0]}")/../tests/relay/games/aedes"
if [ ! -d "$AEDES_DIR/node_modules/aedes" ]; then
    if command -v npm >/dev/null 2>&1; then
        echo "Installing Aedes with npm…"
        if ! (cd "$AEDES_DIR" && npm ci --no-audit --no-fund --prefer-offline --loglevel=error >/dev/null \
              || npm install --no-audit --no-fund --prefer-offline --loglevel=error >/dev/null); then
            [ -n "${CI:-}" ] && { echo "CI needs Aedes and npm could not install it." >&2; exit 1; }
            echo "Note: Aedes could not be installed; its test will be skipped." >&2
        fi
    elif [ -n "${CI:-}" ]; then
        echo "CI needs Node and npm for the Aedes test (Node 20 or later)." >&2
        exit 1
    else
        echo "Note: npm is not installed; the Aedes test will be skipped." >&2
    fi
fi
# Lint, then the import contracts ([tool.importlinter] in pyproject.toml), then the type check
# (`mypy` alone checks what [tool.mypy] in pyproject.toml names,
# with its cache in .venv), then the tests; set -e (from _venv.sh) stops at the first failure.
.venv/bin/ruff check .
.venv/bin/lint-imports --no-cache
.venv/bin/mypy
export QT_QPA_PLATFORM=offscreen
# Two worker processes (pytest-xdist): most tests wait on relays and child processes, so two
# of them share two cores well; the tests of one xdist_group (the installed program's, which share
# one wheel) go to one worker.  TEST_WORKERS=0 runs everything in this one process.
exec .venv/bin/python -m pytest -n "${TEST_WORKERS:-2}" --dist loadgroup "$@"
