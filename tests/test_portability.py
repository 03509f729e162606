"""The program's code runs on Windows and macOS too: no POSIX-only module or call on a path they run.

A scan of the four layers' code (docs/ARCHITECTURE.md, "Installing, and the platforms"): no import of
a module Windows lacks (``fcntl``, ``termios``, ``pwd``, ``grp``, ``resource``...), no call of an
``os`` function Windows lacks (``os.fchmod``, ``os.fork``, ``os.killpg``...) unless the module first
asks ``hasattr(os, NAME)``, no ``signal.signal`` (the asyncio loop's ``add_signal_handler``, whose
Windows ``NotImplementedError`` is caught, is the one way), and every loop made to speak MQTT a
selector loop (a bare ``asyncio.run``, or qasync's ``QEventLoop``, is Windows' proactor loop, which
paho-mqtt cannot use).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("engines", "protocol", "relay", "client")
POSIX_MODULES = {"fcntl", "termios", "tty", "pty", "pwd", "grp", "resource", "posix", "crypt", "syslog"}
POSIX_OS = {
    "fchmod", "fchown", "chown", "lchown", "fork", "forkpty", "killpg", "setsid", "getuid", "geteuid",
    "getgid", "getegid", "setuid", "setgid", "getpgid", "setpgid", "sync", "mkfifo", "pipe2", "sched_getaffinity",
}  # fmt: skip


def problems(tree: ast.AST) -> list[str]:
    """What in ``tree`` would not run on Windows, one line each (with its line number)."""
    asked = {
        node.args[1].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "hasattr"
        and len(node.args) == 2 and isinstance(node.args[1], ast.Constant)
    }  # fmt: skip
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            found += [f"{node.lineno}: imports {n}" for n in names if n.split(".")[0] in POSIX_MODULES]
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.value.id == "os" and node.attr in POSIX_OS and node.attr not in asked:
                found.append(f"{node.lineno}: os.{node.attr} without hasattr(os, {node.attr!r})")
            if node.value.id == "signal" and node.attr == "signal":
                found.append(f"{node.lineno}: signal.signal (use the loop's add_signal_handler)")
            if node.value.id == "asyncio" and node.attr == "run":
                found.append(f"{node.lineno}: asyncio.run (use relay.event_loop.run: a selector loop)")
            if node.value.id == "qasync" and node.attr == "QEventLoop":
                found.append(f"{node.lineno}: qasync.QEventLoop (a proactor on Windows: use QSelectorEventLoop)")
    return found


def test_the_scan_is_not_blind():
    code = "import os, fcntl\nimport signal, asyncio\nos.fchmod(1, 0)\nsignal.signal(2, None)\nasyncio.run(f())\n"
    code += "loop = qasync.QEventLoop(app)\n"
    guarded = "import os\nif hasattr(os, 'geteuid') and os.geteuid() == 0: pass\n"
    assert len(problems(ast.parse(code))) == 5
    assert problems(ast.parse(guarded)) == []


def test_no_posix_only_call_in_the_program():
    found = []
    for layer in LAYERS:
        for path in sorted((ROOT / layer).rglob("*.py")):
            found += [f"{path.relative_to(ROOT)}:{p}" for p in problems(ast.parse(path.read_text(encoding="utf-8")))]
    assert found == []
