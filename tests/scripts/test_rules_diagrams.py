"""The rules pages' diagrams are the engines' own answers: the committed pictures equal a fresh drawing."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _script():
    spec = importlib.util.spec_from_file_location("rules_diagrams", ROOT / "scripts" / "rules_diagrams.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_committed_diagrams_match_the_engines():
    assert _script().main(["--check"]) == 0, "run: python scripts/rules_diagrams.py"


def test_a_stale_diagram_is_reported(tmp_path):
    script = _script()
    assert script.main(["--out", str(tmp_path)]) == 0
    assert script.main(["--check", "--out", str(tmp_path)]) == 0
    (tmp_path / "cc-runner.svg").write_text("<svg/>", encoding="utf-8")
    assert script.main(["--check", "--out", str(tmp_path)]) == 1


def test_the_runner_diagram_marks_exactly_the_engines_destinations():
    """Drawn marks equal the engine's destinations, and a Runner's ring hole stays unmarked."""
    script = _script()
    units, src = script.CC_DIAGRAMS["cc-runner"]
    first, second = script._cc_moves(units, src)
    assert (1, 0) not in first and not second  # the hole inside the ring: too narrow to slide in
    svg = (ROOT / "client" / "rules" / "img" / "cc-runner.svg").read_text(encoding="utf-8")
    assert len(re.findall(r'<circle [^>]*fill="#1f8a4c"', svg)) == len(first) > 6


def test_every_diagram_is_used_by_the_pages():
    used = set()
    for page in (ROOT / "client" / "rules").glob("*.??.md"):
        used |= set(re.findall(r"\]\(img/([^)]+)\)", page.read_text(encoding="utf-8")))
    assert used == set(_script().diagrams())
