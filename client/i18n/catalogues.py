"""``python -m client.i18n.catalogues extract|update|compile|check``: the translator's command, on Babel.

- ``extract``: each domain's template (``.pot``) from its ``texts.py`` (Babel's Python extractor
  through :func:`extract_texts`: the message id is the context, the English the ``msgid``, and a
  ``plural`` line the ``msgid_plural``);
- ``update``: each ``.po`` merged with its template (new messages added empty, changed English
  marked fuzzy with the old translation kept as a hint, removed messages kept as ``#~``);
- ``compile``: each ``.po`` to a ``.mo`` beside it (the program itself compiles in memory at start);
- ``check``: every message in every language with every plural form and the English fields
  (exit 1 and one line per problem otherwise; a test runs the same check).

The ``.po`` files open in any gettext tool (Poedit, Lokalize, Weblate); run ``extract`` and
``update`` after changing a ``texts.py``, ``check`` before committing.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Collection, Iterable, Iterator, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any, cast

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file, extract_python
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from client.i18n.translations import PLURAL_FORMS, TRANSLATED, Domain, check, domains

#: Babel's keyword spec for what :func:`extract_texts` yields.
KEYWORDS = {"msg": ((1, "c"), 2), "nmsg": ((1, "c"), 2, 3)}
#: Headers carry no changing dates: git keeps the history, and a re-run leaves files unchanged.
FIXED_DATE = datetime(2026, 1, 1, tzinfo=UTC)
_ROOT = Path(__file__).resolve().parents[2]
LANGUAGE_NAMES = {"pl": "Polish", "ru": "Russian"}


def new_catalog(domain: str, code: str | None = None) -> Catalog:
    """An empty catalogue (a template when ``code`` is None) with this project's headers."""
    what = f"{LANGUAGE_NAMES[code]} translation" if code else "Translation template"
    catalog = Catalog(
        locale=code,
        domain=domain,
        header_comment=(
            f"# {what} of Sealed Table, gettext domain {domain}.\n"
            "# The English source is the domain's texts.py; see client/README.md for the commands."
        ),
        project="Sealed Table",
        version="0.1",
        copyright_holder="the Sealed Table developers",
        msgid_bugs_address="the Sealed Table issue tracker",
        creation_date=FIXED_DATE,
        revision_date=FIXED_DATE,
        last_translator="the Sealed Table developers",
        language_team=code or "",
        fuzzy=False,
    )
    if code is not None:
        set_plural_forms(catalog, code)
    return catalog


def set_plural_forms(catalog: Catalog, code: str) -> None:
    """The gettext plural rule of ``code`` (Babel would write CLDR's equivalent in another spelling)."""
    catalog.mime_headers = [("Plural-Forms", PLURAL_FORMS[code])]  # read as a .po header would be
    catalog.revision_date = FIXED_DATE


def read(path: Path, code: str, domain: str) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=code, domain=domain)


def write(catalog: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        write_po(f, catalog, width=100, include_lineno=False, sort_output=False)


def extract_texts(
    fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: Collection[str], options: Mapping[str, Any]
) -> Iterator[tuple[Any, ...]]:
    """Babel extraction method for a ``texts.py``: ``msg`` calls, each joined with its ``plural`` line.

    Babel's own Python extractor reads the calls; a message with a plural comes out as
    ``nmsg(id, singular, plural)`` (spec ``1c,2,3``), the others as ``msg(id, English)``.  Also
    usable from ``pybabel extract -F`` with ``[client.i18n.catalogues:extract_texts: **/texts.py]``.
    """
    singulars: list[tuple[int, tuple[str, ...], list[str]]] = []
    plurals: dict[str, str] = {}
    # Babel's stubs type these items as (lineno, message, comments, context); extract_python yields, and
    # Babel's extract() reads, (lineno, funcname, arguments, comments): hence Any here.
    names = {"msg": None, "plural": None}
    calls: Iterable[tuple[Any, ...]] = extract_python(fileobj, names, comment_tags, cast(Any, options))
    for line, name, args, comments in calls:
        texts = tuple(a for a in (args if isinstance(args, tuple) else (args,)) if isinstance(a, str))
        if name == "plural" and len(texts) == 2:
            plurals[texts[0]] = texts[1]
        elif name == "msg" and len(texts) == 2:
            singulars.append((line, texts, list(comments)))
    for line, (msg_id, english), comments in singulars:
        if msg_id in plurals:
            yield line, "nmsg", (msg_id, english, plurals[msg_id]), comments
        else:
            yield line, "msg", (msg_id, english), comments


def template(domain: Domain) -> Catalog:
    """The domain's template, extracted from its ``texts.py`` in declaration order."""
    catalog = new_catalog(domain.name)
    path = domain.texts_path
    where = path.relative_to(_ROOT).as_posix() if path.is_relative_to(_ROOT) else path.name
    method = cast(Any, extract_texts)  # see extract_texts: Babel's stubs and Babel's code disagree on the items
    for _line, message, comments, context in extract_from_file(
        method, domain.texts_path, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",), strip_comment_tags=True
    ):
        catalog.add(message, locations=[(where, 0)], auto_comments=comments, context=context)  # (no line numbers)
    return catalog


def extract(selected: Iterable[Domain]) -> None:
    for domain in selected:
        write(template(domain), domain.pot_path)
        print(domain.pot_path)


def update(selected: Iterable[Domain]) -> None:
    for domain in selected:
        pot = template(domain)
        for code in TRANSLATED:
            path = domain.po_path(code)
            catalog = read(path, code, domain.name) if path.exists() else new_catalog(domain.name, code)
            catalog.update(pot, update_header_comment=False)
            set_plural_forms(catalog, code)
            write(catalog, path)
            print(path)


def compile_mo(selected: Iterable[Domain]) -> int:
    failed = 0
    for domain in selected:
        for code in TRANSLATED:
            path = domain.po_path(code)
            catalog = read(path, code, domain.name)
            for message, errors in catalog.check():
                failed += 1
                for error in errors:
                    print(f"{path}: {message.context}: {error}", file=sys.stderr)
            with path.with_suffix(".mo").open("wb") as f:
                write_mo(f, catalog)
            print(path.with_suffix(".mo"))
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m client.i18n.catalogues", description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("extract", "update", "compile", "check"))
    parser.add_argument("--domain", action="append", help="only this domain (repeatable; default: all)")
    args = parser.parse_args(argv)
    selected = [d for d in domains() if not args.domain or d.name in args.domain]
    if args.command == "extract":
        extract(selected)
    elif args.command == "update":
        update(selected)
    elif args.command == "compile":
        return compile_mo(selected)
    else:
        problems = check()
        for line in problems:
            print(line, file=sys.stderr)
        print(f"{len(problems)} problems" if problems else "every message in every language")
        return 1 if problems else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
