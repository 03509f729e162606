"""scripts/convert_catalogue.py --append: old-format rows join the gettext sources; hand edits stay.

Words written as ``"id": (English, Polish, Russian)`` rows (a branch's block in the old format)
are merged with ``--append``.  The new ids must arrive in the domain's ``texts.py``, both ``.po`` files and
the template, while a row for an id that a person already turned into a plural (or fixed) must
change nothing.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from client.i18n import translations
from client.i18n.catalogues import new_catalog, write

ROOT = Path(__file__).resolve().parents[2]


def converter():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("convert_catalogue", ROOT / "scripts" / "convert_catalogue.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def entries(path: Path, code: str) -> dict[str, object]:
    with path.open("rb") as f:
        return {m.context: m.string for m in read_po(f, locale=code) if m.context}


def test_append_adds_new_rows_and_keeps_hand_edits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys):
    convert = converter()
    domain = translations.Domain("probe", "probe.texts", tmp_path / "locale", tmp_path / "texts.py")
    domain.texts_path.write_text(
        'from client.i18n.declare import declarer\n\nmsg, plural = declarer("probe")\n\n'
        'msg("probe.one", "One")\nmsg("probe.count", "{count} card")\nplural("probe.count", "{count} cards")\n',
        encoding="utf-8",
    )
    plural = {
        "pl": ("{count} karta", "{count} karty", "{count} kart"),
        "ru": ("{count} карта", "{count} карты", "{count} карт"),
    }
    for code in ("pl", "ru"):
        catalog = new_catalog("probe", code)
        catalog.add("One", string={"pl": "Jeden", "ru": "Один"}[code], context="probe.one")
        catalog.add(("{count} card", "{count} cards"), string=plural[code], context="probe.count")
        write(catalog, domain.po_path(code))
    monkeypatch.setattr(convert, "domains", lambda: [domain])
    block = tmp_path / "block.py"
    block.write_text(
        "    # -- older rows --\n"
        '    "probe.old": ("Old", "Stary", "Старый"),\n'
        '    "cc.one": ("1 {kind}", "{kind} ×1", "{kind} ×1"),\n'
        "    # -- helper-branch --\n"
        '    "cc.one": ("1 {kind}", "{kind} ×1", "{kind} ×1"),\n'
        '    "probe.one": ("One", "Jeden", "Один"),\n'
        '    "probe.count": ("{count} cards", "kart: {count}", "карт: {count}"),\n'
        '    "probe.new": ("New {x}", "Nowy {x}", "Новый {x}"),\n',
        encoding="utf-8",
    )

    assert convert.main(["--append", str(block), "--domain", "probe", "--section", "helper-branch"]) == 0
    out, err = capsys.readouterr()
    assert "probe.new" in out and "cc.one: retired" in err
    texts = domain.texts_path.read_text(encoding="utf-8")
    assert texts.endswith("# -- helper-branch " + "-" * 83 + '\nmsg("probe.new", "New {x}")\n')
    assert 'plural("probe.count", "{count} cards")' in texts and texts.count("probe.one") == 1
    assert "probe.old" not in texts and "cc.one" not in texts, "only the branch's own block, never a retired id"
    for code, new in (("pl", "Nowy {x}"), ("ru", "Новый {x}")):
        found = entries(domain.po_path(code), code)
        assert found["probe.new"] == new
        assert found["probe.count"] == plural[code], "a hand-made plural survives the merge"
    assert "probe.new" in domain.pot_path.read_text(encoding="utf-8")

    again = ["--append", str(block), "--domain", "probe", "--section", "helper-branch"]
    assert convert.main(again) == 0  # a second run adds nothing
    assert domain.texts_path.read_text(encoding="utf-8") == texts


def test_the_old_rows_are_read_from_a_whole_module_or_a_bare_block(tmp_path: Path):
    convert = converter()
    module = tmp_path / "messages.py"
    module.write_text(
        '_KINDS = {"a": ("A", "A-pl", "A-ru")}\n'
        "MESSAGES = {\n"
        '    **{f"k.{k}": v for k, v in _KINDS.items()},\n'
        "    # -- the table --\n"
        '    "t.one": ("One", "Jeden", "Один"),\n'
        "}\n",
        encoding="utf-8",
    )
    rows = convert.old_entries(module)
    assert [(r.msg_id, r.english, r.russian, r.section) for r in rows] == [
        ("k.a", "A", "A-ru", ""),
        ("t.one", "One", "Один", "the table"),
    ]
