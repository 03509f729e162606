"""scripts/qtdeps.py and the sound cues: what Qt Multimedia lacks is named (or installed as root), and
the program starts either way (sound by default, silent where it cannot play)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from scripts import qtdeps

NO_PULSE = "\tlibpulse.so.0 => not found\n\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x7f)\n"


def _qt(tmp_path: Path, multimedia: bool) -> Path:
    root = tmp_path / "Qt"
    (root / "lib").mkdir(parents=True)
    (root / "plugins" / "platforms").mkdir(parents=True)
    if multimedia:
        (root / "lib" / "libQt6Multimedia.so.6").write_bytes(b"")
    return root


def test_what_qt_multimedia_lacks_maps_to_its_debian_package(tmp_path, monkeypatch):
    monkeypatch.setattr(qtdeps, "_ldd", lambda path: NO_PULSE)
    root = _qt(tmp_path, multimedia=True)
    assert qtdeps.missing_for_sound(root) == ["libpulse.so.0"]
    assert qtdeps.packages_for(["libpulse.so.0"]) == (["libpulse0"], [])
    assert qtdeps.missing_for_sound(_qt(tmp_path / "bare", multimedia=False)) == [], "no Addons: nothing to ask"


@pytest.mark.parametrize("root_user", [False, True])
def test_a_machine_without_the_sound_library_still_starts_the_program(tmp_path, monkeypatch, capsys, root_user):
    root = _qt(tmp_path, multimedia=True)
    monkeypatch.setattr(qtdeps, "qt_root", lambda: root)
    monkeypatch.setattr(qtdeps, "_ldd", lambda path: NO_PULSE if "Multimedia" in str(path) else "")
    monkeypatch.setattr(qtdeps, "_loadable", lambda soname: True)
    monkeypatch.setattr(qtdeps, "_can_install", lambda: root_user)
    ran: list[list[str]] = []
    def run(cmd: list[str], **kw: object) -> subprocess.CompletedProcess[str]:  # apt-get is not run here
        ran.append(cmd)
        return subprocess.CompletedProcess(cmd, 0)

    monkeypatch.setattr(qtdeps.subprocess, "run", run)
    assert qtdeps.main(["--install"]) == 0, "the window can open: the program starts, silent"
    said = capsys.readouterr().err
    assert "sudo apt-get install -y --no-install-recommends libpulse0" in said
    assert any("libpulse0" in cmd for cmd in ran) == root_user
