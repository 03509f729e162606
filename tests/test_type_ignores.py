"""Where the type checker is told to look away, the code says which error and why.

mypy itself refuses an ignore without an error code (``ignore-without-code`` in
``pyproject.toml``) and one that is no longer needed (``warn_unused_ignores``); the reason
is ours: a comment after the ignore, so a reader knows why the type could not say it.
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("engines", "protocol", "relay", "client")
IGNORE = re.compile(r"#\s*type:\s*ignore")
EXPLAINED = re.compile(r"#\s*type:\s*ignore\[[-a-z, ]+\]\s+#\s*\S")


def unexplained(source: str, name: str) -> list[str]:
    """Each comment of ``source`` that silences the type checker without a code and a reason."""
    found = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT and IGNORE.search(tok.string) and not EXPLAINED.search(tok.string):
            found.append(f"{name}:{tok.start[0]}: {tok.string}")
    return found


def test_every_type_ignore_names_its_error_and_says_why():
    found = []
    for layer in LAYERS:
        for path in sorted((ROOT / layer).rglob("*.py")):
            found += unexplained(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    assert found == []


def test_the_check_tells_a_bare_or_silent_ignore_from_an_explained_one():
    source = (
        "a = f()  # type: ignore\n"
        "b = g()  # type: ignore[arg-type]\n"
        "c = h()  # type: ignore[arg-type]  # the library's stubs say str; it takes bytes too\n"
        's = "# type: ignore inside a string is no comment"\n'
    )
    assert unexplained(source, "m") == ["m:1: # type: ignore", "m:2: # type: ignore[arg-type]"]
