#!/usr/bin/env python3
"""Turn the old tuple catalogues (``"id": (English, Polish, Russian)``) into gettext sources.

    python scripts/convert_catalogue.py                 # the one-shot conversion of the whole tree
    python scripts/convert_catalogue.py --append FILE [--section BRANCH] [--domain NAME]
                                                        # merge old-format rows into the new files

The one-shot conversion reads ``client/messages.py`` (the shared screens) and each game's
``client/<game>/messages.py`` (found through ``client/registry.py``) and writes, per domain, the
English declarations ``texts.py`` (``msg("id", "English")``, see ``client/i18n/declare.py``), the
Polish and Russian ``.po`` catalogues and the ``.pot`` template.  It refuses to overwrite a
``texts.py`` that exists (hand edits live there): use ``--append`` then.

``--append FILE`` reads every ``"id": (en, pl, ru)`` entry in FILE (a whole old ``messages.py``
or just a block of entries, e.g. the one a branch added under ``# -- <branch> --``) and adds
the ids that no domain declares yet: a ``msg`` line at the end of the domain's ``texts.py``
(under the block's section comment) and an entry in each ``.po``; the template is extracted
again.  Ids already declared are left as they are, so hand edits (plurals, fixes) survive; an
id whose English differs from the declared one is named on stderr for a person to look at.
The domain is the FILE's folder (``client/games/<game>/messages.py`` → that game, else the shared
one), or ``--domain NAME``; ``--section BRANCH`` takes only the rows under ``# -- BRANCH --``
(a branch's block in a whole old file).  Ids in :data:`RETIRED` are never brought back.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import runpy
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from client.i18n.catalogues import extract, new_catalog, read, template, update, write  # noqa: E402  (after the path)
from client.i18n.translations import SHARED_DOMAIN, TRANSLATED, Domain, domains  # noqa: E402

SECTION = re.compile(r"^\s*#\s*--\s*(.*?)\s*-*\s*$")
#: Ids retired on purpose after the conversion (an old file still has them: --append must not bring them back).
RETIRED = frozenset({"cc.one"})  # the reserve counts are plurals now ("1 Runner", "Runner: 1 jednostka")


@dataclass(frozen=True)
class Entry:
    """One old catalogue row and the section comment it stood under."""

    msg_id: str
    english: str
    polish: str
    russian: str
    section: str = ""

    def translation(self, code: str) -> str:
        return {"pl": self.polish, "ru": self.russian}[code]


def _sections(source: str) -> list[tuple[int, str]]:
    """(line number, title) of each ``# -- title --`` comment."""
    return [(n, m.group(1)) for n, line in enumerate(source.splitlines(), 1) if (m := SECTION.match(line))]


def _section_at(sections: list[tuple[int, str]], line: int) -> str:
    title = ""
    for n, name in sections:
        if n > line:
            break
        title = name
    return title


def _literal_rows(tree: ast.AST) -> list[tuple[int, str, tuple[str, str, str]]]:
    """Every ``"id": ("en", "pl", "ru")`` of every dict display, by line."""
    rows = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Dict):
            continue
        for key, value in zip(node.keys, node.values, strict=True):
            if not (isinstance(key, ast.Constant) and isinstance(key.value, str) and isinstance(value, ast.Tuple)):
                continue
            try:
                texts = ast.literal_eval(value)
            except ValueError:
                continue
            if len(texts) == 3 and all(isinstance(t, str) for t in texts):
                rows.append((key.lineno, key.value, texts))
    return sorted(rows)


def old_entries(path: Path) -> list[Entry]:
    """The rows of an old catalogue file or block, in file order.

    A self-contained game module (rows built by comprehensions too) is run for its ``MESSAGES``;
    anything else (the shared module, a bare block of rows) is read as literals.
    """
    source = path.read_text(encoding="utf-8")
    try:
        tree = ast.parse(source)
    except SyntaxError:  # a bare block of rows: make it a dict display
        source = "{\n" + source + "\n}\n"
        tree = ast.parse(source)
    sections = _sections(source)
    rows = _literal_rows(tree)
    where = {msg_id: line for line, msg_id, _ in rows}
    table: dict[str, tuple[str, str, str]] = {msg_id: texts for _, msg_id, texts in rows}
    try:
        messages = runpy.run_path(str(path)).get("MESSAGES")
    except Exception:
        messages = None
    if isinstance(messages, dict):
        table = dict(messages)
    entries, section = [], ""
    for msg_id, texts in table.items():
        if msg_id in where:
            section = _section_at(sections, where[msg_id])
        entries.append(Entry(msg_id, *texts, section=section))
    return entries


def py(text: str) -> str:
    """A double-quoted Python literal of ``text`` (JSON's escapes are Python's)."""
    return json.dumps(text, ensure_ascii=False)


def declaration_lines(entries: list[Entry], fallback: str = "") -> list[str]:
    """``msg`` lines, each section's comment before its first row (``fallback`` for rows without one)."""
    lines: list[str] = []
    current = None
    for entry in entries:
        title = entry.section or fallback
        if title and title != current:
            lines.append(f"# -- {title} " + "-" * max(3, 96 - len(title)))
        current = title
        lines.append(f"msg({py(entry.msg_id)}, {py(entry.english)})")
    return lines


def texts_module(domain: Domain, entries: list[Entry]) -> str:
    """A domain's ``texts.py``: a one-line docstring (the format is :mod:`client.i18n.declare`'s) and the rows."""
    shared = domain.name == SHARED_DOMAIN
    up = "." if shared else ".."
    about = "the shared screens" if shared else f"``client/{domain.name}/``"
    where = domain.locale_dir.relative_to(ROOT).as_posix()
    head = (
        f'"""English source of the gettext domain ``{domain.name}`` ({about}; translations in ``{where}/``)."""\n\n'
        f"from __future__ import annotations\n\nfrom {up}declare import declarer\n\n"
        f"msg, plural = declarer({py(domain.name)})\n\n"
    )
    return head + "\n".join(declaration_lines(entries)) + "\n"


def po_entries(catalog: object, entries: list[Entry], code: str) -> None:
    for entry in entries:
        catalog.add(entry.english, string=entry.translation(code), context=entry.msg_id)  # type: ignore[attr-defined]


def old_files() -> list[tuple[Domain, Path]]:
    found = []
    for domain in domains():
        folder = ROOT / "client" if domain.name == SHARED_DOMAIN else ROOT / "client" / domain.name
        found.append((domain, folder / "messages.py"))
    return found


def convert_all() -> int:
    for domain, _old in old_files():
        if domain.texts_path.exists():
            print(f"{domain.texts_path} exists: not overwritten (use --append FILE)", file=sys.stderr)
            return 1
    for domain, path in old_files():
        entries = old_entries(path)
        domain.texts_path.write_text(texts_module(domain, entries), encoding="utf-8")
        for code in TRANSLATED:
            catalog = new_catalog(domain.name, code)
            po_entries(catalog, entries, code)
            write(catalog, domain.po_path(code))
        write(template(domain), domain.pot_path)
        print(f"{domain.name}: {len(entries)} messages from {path.relative_to(ROOT)}")
    return 0


def domain_for(path: Path, name: str | None) -> Domain:
    by_name = {d.name: d for d in domains()}
    if name is not None:
        return by_name[name]
    folder = path.resolve().parent.name
    return by_name.get(folder, by_name[SHARED_DOMAIN])


def append(path: Path, name: str | None, section: str | None = None) -> int:
    domain = domain_for(path, name)
    # What every domain declares now, read from the files (Babel's extraction), not from imports.
    declared = {m.context: m.id for d in domains() if d.texts_path.exists() for m in template(d) if m.context}
    new: list[Entry] = []
    for entry in old_entries(path):
        if section is not None and entry.section != section:
            continue
        if entry.msg_id in RETIRED:
            print(f"{entry.msg_id}: retired after the conversion, not added", file=sys.stderr)
            continue
        known = declared.get(entry.msg_id)
        if known is None:
            new.append(entry)
        elif isinstance(known, str) and known != entry.english:
            print(f"{entry.msg_id}: declared as {known!r}, the block says {entry.english!r}", file=sys.stderr)
    if not new:
        print(f"{path}: nothing new for {domain.name}")
        return 0
    with domain.texts_path.open("a", encoding="utf-8") as f:
        f.write("\n" + "\n".join(declaration_lines(new, f"appended from {path.name}")) + "\n")
    for code in TRANSLATED:
        po = domain.po_path(code)
        catalog = read(po, code, domain.name) if po.exists() else new_catalog(domain.name, code)
        po_entries(catalog, new, code)
        write(catalog, po)
    extract([domain])  # the template again, and the .po files in its order with its locations
    update([domain])
    print(f"{domain.name}: {len(new)} messages appended from {path}: {', '.join(e.msg_id for e in new)}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--append", type=Path, metavar="FILE", help="merge the old-format rows of FILE")
    parser.add_argument("--domain", help="with --append: the domain to add them to (default: FILE's folder)")
    parser.add_argument("--section", help="with --append: only the rows under this '# -- NAME --' comment")
    args = parser.parse_args(argv)
    if args.append is not None:
        return append(args.append, args.domain, args.section)
    return convert_all()


if __name__ == "__main__":
    sys.exit(main())
