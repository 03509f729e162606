"""The English source of every message, declared in code where Babel can extract it.

A domain's ``texts.py`` (``client/i18n/texts.py`` for the shared screens,
``client/games/<game>/texts.py`` for each game) is a list of declarations::

    msg, plural = declarer("system_launch")
    msg("table.system", "System")
    msg("table.hand", "Hand: {count} card")
    plural("table.hand", "Hand: {count} cards")

The message id becomes the gettext context (``msgctxt``) and the English text the ``msgid``, so
translators see the English sentence in their usual tools while the code keeps its stable ids
(``tr("table.system")``).  A message where a count meets a noun gets its English plural on the
next line; Babel's Python extractor reads both, and :func:`client.i18n.catalogues.extract_texts` joins
them into one plural entry (as the keyword ``nmsg:1c,2,3`` would), so every line of a
``texts.py`` has the same shape.  Nothing here imports Qt: the translator's
command and ``scripts/convert_catalogue.py`` read declarations without a display.

After an edit to a ``texts.py`` run ``python -m client.i18n.catalogues extract`` and ``update``, then
translate what ``check`` names (``client/README.md``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Declaration:
    """One message: its id, the domain whose catalogues translate it, and its English forms."""

    msg_id: str
    domain: str
    singular: str
    #: The English plural (``None``: the message has no count; English chooses by ``count == 1``).
    plural: str | None = None


#: Every declared message by id, in declaration order (ids are unique across domains).
DECLARED: dict[str, Declaration] = {}
#: Ids declared twice (a programming error the catalogue check reports, never a crash on screen).
CLASHES: list[tuple[str, str, str]] = []
#: ``plural`` lines whose id has no ``msg`` line before it in the same domain: (id, domain).
ORPHAN_PLURALS: list[tuple[str, str]] = []


def _declare(declaration: Declaration) -> None:
    earlier = DECLARED.get(declaration.msg_id)
    if earlier is not None:
        CLASHES.append((declaration.msg_id, earlier.domain, declaration.domain))
        return
    DECLARED[declaration.msg_id] = declaration


def declarer(domain: str) -> tuple[Callable[[str, str], None], Callable[[str, str], None]]:
    """The ``msg`` and ``plural`` functions of one domain's ``texts.py``."""

    def msg(msg_id: str, english: str) -> None:
        _declare(Declaration(msg_id, domain, english))

    def plural(msg_id: str, english_plural: str) -> None:
        singular = DECLARED.get(msg_id)
        if singular is None or singular.domain != domain:
            ORPHAN_PLURALS.append((msg_id, domain))
            return
        DECLARED[msg_id] = replace(singular, plural=english_plural)

    return msg, plural
