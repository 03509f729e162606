"""Who a log line speaks to: the viewer's own actions read "You …", other seats by name.

Every game's log line is a frozen dataclass with a message id (``msg``) and its seats as
``(key, seat)`` pairs, the line's subject first.  The writers describe the game the same way
for everyone; this module turns a line into the viewer's words afterwards, so the choice is made
in one place for every game: when the viewer's seat is the line's subject and the catalogue has
``<msg>.you``, that variant is used; when the viewer is another seat of the line (the target of
an attack, say) and the catalogue has ``<msg>.you_<key>``, that one.  A spectator (``me`` None)
reads every line in the third person.  The variants keep every field of the original, so a
game's line may still name the viewer (Collective Conflict keeps the Network letter).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

from client.i18n import has

#: The suffix of a message's second-person variant (``<msg>.you`` or ``<msg>.you_<seat key>``).
YOU = ".you"


def second_person(line: Any, me: int | None) -> Any:
    """``line`` in the words of seat ``me``: its ``.you`` variant where the viewer is in it and one exists."""
    if me is None or me < 0:
        return line
    seats = getattr(line, "seats", ())
    for position, (key, seat) in enumerate(seats):
        if seat != me:
            continue
        variant = line.msg + YOU if position == 0 else f"{line.msg}{YOU}_{key}"
        if has(variant):
            return dataclasses.replace(line, msg=variant)
    return line


class Voiced:
    """A game's log writer whose lines are spoken to seat ``me`` (:func:`second_person`)."""

    def __init__(self, writer: Any, me: int | None) -> None:
        self.writer = writer
        self.me = me

    def lines(self, entry: Any, knowledge: Any) -> list[Any]:
        return voiced(self.writer.lines(entry, knowledge), self.me)


def voiced(lines: Iterable[Any], me: int | None) -> list[Any]:
    return [second_person(line, me) for line in lines]
