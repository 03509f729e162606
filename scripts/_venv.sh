# Sourced by play.sh and test.sh: make .venv and install the project into it.
# Re-running is cheap: pip skips what is already satisfied.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
py="${PYTHON:-python3}"
"$py" -c 'import sys; sys.exit(sys.version_info < (3, 11))' || {
    echo "Sealed Table needs Python 3.11 or newer (found: $("$py" --version 2>&1))." >&2
    exit 1
}
if [ ! -x .venv/bin/python ]; then
    "$py" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip >/dev/null
target="."
if [ -n "${EXTRAS:-}" ]; then
    target=".[${EXTRAS}]"
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e "$target"
