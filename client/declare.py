"""The English source of every message, declared in code where Babel can extract it.

A domain's ``texts.py`` (``client/texts.py`` for the shared screens, ``client/<game>/texts.py``
for each game) is a list of declarations::

    msg, nmsg = declarer("system_launch")
    msg("table.system", "System")
    nmsg("table.hand", "Hand: {count} card", "Hand: {count} cards")

The message id becomes the gettext context (``msgctxt``) and the English text the ``msgid``, so
translators see the English sentence in their usual tools while the code keeps its stable ids
(``tr("table.system")``).  Babel extracts the declarations with the keywords ``msg:1c,2`` and
``nmsg:1c,2,3`` (see :mod:`client.catalogues`).  Nothing here imports Qt: the translator's
command and the converter read declarations without a display.

After an edit to a ``texts.py`` run ``python -m client.catalogues extract`` and ``update``, then
translate what ``check`` names (``client/README.md``).  The files were written first by
``scripts/convert_catalogue.py`` from the old tuple catalogues.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


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


def _declare(declaration: Declaration) -> None:
    earlier = DECLARED.get(declaration.msg_id)
    if earlier is not None:
        CLASHES.append((declaration.msg_id, earlier.domain, declaration.domain))
        return
    DECLARED[declaration.msg_id] = declaration


def declarer(domain: str) -> tuple[Callable[[str, str], None], Callable[[str, str, str], None]]:
    """The ``msg`` and ``nmsg`` functions of one domain's ``texts.py``."""

    def msg(msg_id: str, english: str) -> None:
        _declare(Declaration(msg_id, domain, english))

    def nmsg(msg_id: str, singular: str, plural: str) -> None:
        _declare(Declaration(msg_id, domain, singular, plural))

    return msg, nmsg
