"""The cheat catalogue: each cheat is one peer that breaks the protocol in one way.

A cheater is a :class:`PeerSession` subclass that behaves honestly until its chance comes
(after the opening seed exchange), stages its cheat once, and then carries on.  The simulator
runs it among honest peers; every honest peer must name the cheater's seat (or, for the two-seat
ejections, read the game contested: a result for nobody, see :func:`staged_label`).

The catalogue names no game.  The cheats of :mod:`.generic` can be staged in any game; those of
:mod:`.dice`, :mod:`.binding`, :mod:`.silence` and :mod:`.cards` each need a kind of pending (or a
number of seats), and are offered for the games whose engine declares it (:mod:`.games`); the
cheats that need a game's own knowledge are the instances of :mod:`.sealed`'s mechanisms that a
game declares in its engine folder.
"""

from __future__ import annotations

from protocol.events import CONTESTED
from protocol.sim.cheats.base import Cheater
from protocol.sim.cheats.binding import BINDING
from protocol.sim.cheats.cards import CARDS
from protocol.sim.cheats.dice import DICE
from protocol.sim.cheats.games import Offer, offers
from protocol.sim.cheats.generic import GENERIC, TamperedSave, Withhold
from protocol.sim.cheats.sealed import declared
from protocol.sim.cheats.silence import SILENCE

__all__ = [
    "CATALOGUE",
    "CHEATS",
    "GAME_CATALOGUE",
    "Cheater",
    "TamperedSave",
    "Withhold",
    "staged_kind",
    "staged_label",
]

#: The cheats any game offers: name -> what the cheater does (listed without a game).
CATALOGUE: dict[str, str] = {cls.kind: cls.text for cls in GENERIC}
#: The cheats that need what only some games offer, said in protocol terms (``needs``, ``seats``).
MECHANISMS: tuple[type[Cheater], ...] = (*DICE, *BINDING, *SILENCE, *CARDS)


def stageable(cheat: type[Cheater], offer: Offer) -> bool:
    """Whether a game with ``offer`` gives ``cheat`` its chance: the pending it needs, the seats it needs."""
    if cheat.needs is not None and cheat.needs not in offer.pendings:
        return False
    return cheat.seats is None or offer.min_players <= cheat.seats <= offer.max_players


def _game_cheats() -> tuple[dict[str, type[Cheater]], dict[str, tuple[tuple[str, ...], str]]]:
    """Every cheat that needs something of a game, and (the games it can be staged in, what it does)."""
    known = offers()
    cheats: dict[str, type[Cheater]] = {}
    listed: dict[str, tuple[tuple[str, ...], str]] = {}
    for cheat in MECHANISMS:
        cheats[cheat.kind] = cheat
        listed[cheat.kind] = (tuple(o.game for o in known if stageable(cheat, o)), cheat.text)
    for o in known:
        for name, (mechanism, text, settings) in o.cheats.items():
            if name in cheats or name in CATALOGUE:
                raise ValueError(f"{o.game} declares cheat {name!r}, which is already in the catalogue")
            cheats[name] = declared(name, mechanism, text, settings)
            listed[name] = ((o.game,), text)
    return cheats, listed


_DECLARED, GAME_CATALOGUE = _game_cheats()
#: Every cheat by name: those any game offers, then those some games offer.
CHEATS: dict[str, type[Cheater]] = {cls.kind: cls for cls in GENERIC} | _DECLARED


def staged_kind(cheat: str) -> str:
    """The verdict kind ``cheat`` stages (what ``classify`` must call the honest peers' verdicts).

    The kind names what the evidence proves, where it is not the cheat's own name: a failing
    shuffle proof shows a false shuffle pass, not whether a card was substituted or a pair
    tagged; a seat that goes silent, in a two-seat game after a claim too, is caught withholding.
    """
    if cheat not in CHEATS:
        raise KeyError(f"unknown cheat {cheat!r}")
    return CHEATS[cheat].stages or cheat


def staged_label(cheat: str, cheater: int) -> str:
    """What ``classify`` must call the honest peers' verdicts when ``cheater`` stages ``cheat``.

    ``<kind> by seat N``, naming the cheater; a contested claim names nobody, so its label is the
    kind alone (the two-seat ejections end so: the ejector's voided claim contests the honest
    seat's claim once the ejector falls silent).
    """
    kind = staged_kind(cheat)
    return kind if kind == CONTESTED else f"{kind} by seat {cheater}"
