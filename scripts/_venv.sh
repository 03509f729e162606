# Sourced by developers (EXTRAS=test source scripts/_venv.sh): make .venv and install the project into
# it; `python -m scripts.devenv [EXTRAS]` does the work, and does it without a shell on any platform.
# Re-running is cheap: pip skips what is already satisfied.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
"${PYTHON:-python3}" -m scripts.devenv "${EXTRAS:-}" >/dev/null
