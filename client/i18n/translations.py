"""The gettext catalogues: one domain for the shared screens and one per game, read with Babel.

Where the files are::

    client/i18n/locale/sealed_table.pot                       the shared domain's template
    client/i18n/locale/<lang>/LC_MESSAGES/sealed_table.po     its Polish and Russian catalogues
    client/games/<game>/locale/<game>.pot                     each game's template
    client/games/<game>/locale/<lang>/LC_MESSAGES/<game>.po   and its catalogues

The domains are found through :mod:`client.registry`, so a new game's folder brings its own.
The English source is in each domain's ``texts.py`` (:mod:`client.i18n.declare`); a catalogue entry
is ``msgctxt`` = message id, ``msgid`` = the English text, ``msgstr`` = the translation (or
``msgstr[0..2]`` for a plural).  The ``.po`` files are compiled at start, in memory (Babel's
``read_po`` and ``write_mo`` into a buffer, then :class:`gettext.GNUTranslations`), so a
translator's edit shows on the next start with no build step; ``python -m client.i18n.catalogues
compile`` writes ``.mo`` files for anyone who wants them.  Nothing here imports Qt.
"""

from __future__ import annotations

import gettext
import importlib
import io
import string
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from client.i18n.declare import CLASHES, DECLARED, ORPHAN_PLURALS, Declaration
from client.registry import GAMES, game_package

if TYPE_CHECKING:
    from babel.messages.catalog import Message

LANGUAGES = ("en", "pl", "ru")
SOURCE_LANGUAGE = "en"
#: The languages with catalogues (English is the source, in the code).
TRANSLATED = tuple(code for code in LANGUAGES if code != SOURCE_LANGUAGE)
SHARED_DOMAIN = "sealed_table"
#: Each language's plural rule, as gettext writes it (the header every catalogue must carry).
PLURAL_FORMS = {
    "pl": "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
    "ru": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
}
_HERE = Path(__file__).resolve().parent
#: The folder of the ``client`` package (a game's package path is relative to its parent).
_ROOT = _HERE.parents[1]


@dataclass(frozen=True)
class Domain:
    """A gettext domain: its name, the module declaring its English texts, its locale folder."""

    name: str
    texts_module: str
    locale_dir: Path
    #: The file of ``texts_module`` (what Babel extracts from).
    texts_path: Path

    @property
    def pot_path(self) -> Path:
        return self.locale_dir / f"{self.name}.pot"

    def po_path(self, code: str) -> Path:
        return self.locale_dir / code / "LC_MESSAGES" / f"{self.name}.po"


def domains() -> list[Domain]:
    """The shared domain, then one per game in the registry's order."""
    found = [Domain(SHARED_DOMAIN, "client.i18n.texts", _HERE / "locale", _HERE / "texts.py")]
    for game in GAMES:
        package = game_package(game)
        name = package.rsplit(".", 1)[1]
        folder = _ROOT.joinpath(*package.split("."))
        found.append(Domain(name, f"{package}.texts", folder / "locale", folder / "texts.py"))
    return found


@cache
def declarations() -> dict[str, Declaration]:
    """Every declared message by id (the domains' ``texts.py`` imported once)."""
    for domain in domains():
        importlib.import_module(domain.texts_module)
    return DECLARED


@cache
def _compiled(code: str, domain: str) -> gettext.NullTranslations:
    """``domain``'s catalogue for language ``code``, compiled in memory (NullTranslations if missing)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    path = next(d for d in domains() if d.name == domain).po_path(code)
    try:
        with path.open("rb") as f:
            catalog = read_po(f, locale=code, domain=domain)
    except (OSError, ValueError):
        return gettext.NullTranslations()
    buffer = io.BytesIO()
    write_mo(buffer, catalog)  # fuzzy entries are left out: they fall back to English
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def _count(params: dict[str, object]) -> int:
    value = params.get("count")
    return value if isinstance(value, int) else 2


def text(code: str, msg_id: str, params: dict[str, object]) -> str:
    """The message ``msg_id`` in language ``code``, fields filled; English where untranslated.

    An unknown id is a programming error, but a player should never see a crash for it: the id
    itself is shown.  A plural message chooses its form by ``params["count"]`` and the
    catalogue's plural rule.
    """
    declaration = declarations().get(msg_id)
    if declaration is None:
        return msg_id
    singular, plural = declaration.singular, declaration.plural
    if code not in TRANSLATED:
        words = singular if plural is None or _count(params) == 1 else plural
    else:
        catalogue = _compiled(code, declaration.domain)
        if plural is None:
            words = catalogue.pgettext(msg_id, singular)
        else:
            words = catalogue.npgettext(msg_id, singular, plural, _count(params))
    if params:
        try:
            return words.format(**params)
        except (KeyError, IndexError, ValueError):
            return words
    return words


# -- the check (a test and ``python -m client.i18n.catalogues check`` run it) ------------------------
def fields(words: str) -> set[str]:
    """The ``{name}`` fields of a message text."""
    try:
        return {name for _, name, _, _ in string.Formatter().parse(words) if name}
    except ValueError:
        return {"<unbalanced braces>"}


def check() -> list[str]:
    """Every problem of the catalogues, one sentence each (empty: every message in every language).

    A message lacking a language, a plural form or a field of its English text, an entry left
    fuzzy or obsolete, a wrong plural rule, an id declared twice: each is one line.
    """
    from babel.messages.pofile import read_po

    problems = [f"{i}: declared in {a} and again in {b}" for i, a, b in CLASHES]
    problems += [f"{i}: a plural line in {d} without its msg line before it" for i, d in ORPHAN_PLURALS]
    declared = declarations()
    for declaration in declared.values():
        if declaration.plural is not None and fields(declaration.singular) != fields(declaration.plural):
            problems.append(f"{declaration.msg_id}: the English singular and plural have different fields")
    for domain in domains():
        mine = {i: d for i, d in declared.items() if d.domain == domain.name}
        for code in TRANSLATED:
            path = domain.po_path(code)
            try:
                with path.open("rb") as f:
                    catalog = read_po(f, locale=code, domain=domain.name)
            except (OSError, ValueError) as exc:
                problems.append(f"{path}: cannot be read ({exc})")
                continue
            if catalog.plural_forms != PLURAL_FORMS[code]:
                problems.append(f"{path}: Plural-Forms is {catalog.plural_forms!r}, not {PLURAL_FORMS[code]!r}")
            entries = {m.context: m for m in catalog if m.id and m.context}
            for msg_id in sorted(set(entries) - set(mine)):
                problems.append(f"{path}: {msg_id} is not declared in {domain.texts_module}")
            for msg_id, declaration in mine.items():
                problems += _entry_problems(code, declaration, entries.get(msg_id), catalog.num_plurals)
    return problems


def _entry_problems(code: str, declaration: Declaration, entry: Message | None, nplurals: int) -> list[str]:
    where = f"{declaration.msg_id} [{code}]"
    if entry is None:
        return [f"{where}: no translation"]
    english = declaration.singular if declaration.plural is None else (declaration.singular, declaration.plural)
    if entry.id != english:
        return [f"{where}: the catalogue translates {entry.id!r}, the code says {english!r}"]
    if entry.fuzzy:
        return [f"{where}: marked fuzzy (the English changed: check the translation, then drop the flag)"]
    forms = [entry.string] if isinstance(entry.string, str) else list(entry.string or ())
    if len(forms) != (1 if declaration.plural is None else nplurals):
        return [f"{where}: {len(forms)} forms, the message needs {1 if declaration.plural is None else nplurals}"]
    wanted = fields(declaration.singular)
    problems = []
    for i, form in enumerate(forms):
        if not form.strip():
            problems.append(f"{where}: form {i} is empty")
        elif fields(form) != wanted:  # every form, "one" included: Russian's form 0 also says 21, 31, …
            problems.append(f"{where}: form {i} has fields {sorted(fields(form))}, the English {sorted(wanted)}")
    return problems
