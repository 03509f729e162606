"""Cheats on sealed values: opened as another value, never opened, or hiding a rule they decide.

A sealed value is committed in a decision and opened later (``RevealOwed``), or at the end in the
seat's secrets.  These mechanisms need a game's knowledge to have their chance (which value to open
as which, which decisions a secret-dependent rule forbids, how to steer legal play toward a reveal),
so each game declares its instances in its own engine folder (``engines/<game>/staging.py``) and the
catalogue makes one cheat of each (:func:`declared`).  They are caught as any game's are: an opening
is checked against its commitment first, a silent seat is voted gone, and the end-of-game audit
replays every decision with full knowledge.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from engines.core import Action, GameState, Knowledge, RevealOwed
from protocol.events import Event
from protocol.sim.cheats.base import Cheater
from protocol.sim.cheats.generic import Withhold
from protocol.table import Expect

#: How a cheater narrows its legal actions toward its chance: ``steer(state, seat, knowledge, legal)``.
Steering = Callable[[GameState, int, Knowledge, list[Action]], list[Action]]


def _all(state: GameState, seat: int, knowledge: Knowledge, legal: list[Action]) -> list[Action]:
    return legal


class Steered(Cheater):
    """A cheater that steers its own choices (always legal ones) toward its chance to cheat.

    ``legal_actions`` offers the bot the game's preferred subset of the legal actions; the
    subset is a function of the state, so the decision passes ``submit``'s check.
    """

    needs = RevealOwed
    steer: ClassVar[Steering] = staticmethod(_all)

    def legal_actions(self) -> list[Action]:
        legal = super().legal_actions()
        if self.staged or not legal or self.table is None:
            return legal
        return type(self).steer(self.my_table.state, self.my_seat, self.knowledge, legal)


class FalseOpening(Steered):
    """Opens a sealed value of the kind ``what`` that holds ``sealed`` as ``claim`` instead."""

    stages = "false-reveal"
    what: ClassVar[str] = ""
    sealed: ClassVar[Any] = None
    claim: ClassVar[Any] = None

    def _write(self, exp: Expect, type_: str, body: dict[str, Any]) -> None:
        p = self.my_table.state.pending() if self.table is not None else None
        lie = type_ == "reveal" and not self.staged
        if lie and isinstance(p, RevealOwed) and p.what == self.what and body["value"] == self.sealed:
            self.staged = True
            body = dict(body, value=self.claim)
            probe = self.my_table.state.clone()
            try:
                probe.push(self.my_seat, ("reveal", p.secret, self.claim))
                body["hash"] = probe.hash()
            except Exception:
                pass  # the lie is refused on its face; the commitment check comes first anyway
        super()._write(exp, type_, body)


class WithheldReveal(Steered, Withhold):
    """Steers toward owing a reveal, then never opens it."""

    stages = "withhold"

    def _owed(self, exp: Expect) -> bool:
        return exp.type == "reveal"


class SecretRuleBreach(Steered):
    """Takes a decision the public rules allow and its own sealed values forbid, where the game says one may be.

    The public check cannot see the breach (it does not know the sealed values); the
    end-of-game audit replays the decision with full knowledge.
    """

    stages = "illegal-action"
    among: ClassVar[Callable[[Action], bool]] = staticmethod(lambda action: True)

    def submit(self, action: Action, *, settle: bool = True) -> list[Event]:
        table = self.table
        if not self.staged and table is not None and self.seat is not None:
            breach = self._breach()
            if breach is not None:
                self.staged = True
                exp = table.expected()
                assert exp is not None  # its own decision is due: legal_actions offered one
                probe = table.state.clone()
                probe.push(self.my_seat, breach)
                body = {"action": breach, "commits": {}, "keys": {}, "memo": b"", "hash": probe.hash()}
                self._write(exp, "action", body)
                self._pump()
                return self.take_events()
        return super().submit(action, settle=settle)

    def _breach(self) -> Action | None:
        """A decision the public rules allow and this seat's own knowledge forbids, if any."""
        state = self.my_table.state
        own = set(state.legal_actions(self.my_seat, self.knowledge))
        public = state.legal_actions(self.my_seat, Knowledge(self.my_seat))
        for action in public:
            if type(self).among(action) and action not in own:
                return tuple(action)
        return None


class HiddenSecretRuleBreach(SecretRuleBreach):
    """Breaks the rule as above, then opens its sealed values otherwise in its end-of-game secrets (``final``).

    With that opening the full-knowledge replay would find the decision legal; the audit
    checks every opening against its commitment first.
    """

    stages = "false-reveal"
    final: ClassVar[Mapping[Any, Any]] = {}

    def _secrets_body(self) -> dict[str, Any]:
        body = super()._secrets_body()
        if self.staged:
            sealed = body["sealed"].items()
            body["sealed"] = {sid: [salt, self.final.get(value, value)] for sid, (salt, value) in sealed}
        return body


#: The mechanisms a game may declare instances of, by the name it declares them with.
MECHANISMS: dict[str, type[Steered]] = {
    "false-opening": FalseOpening,
    "withheld-reveal": WithheldReveal,
    "secret-rule-breach": SecretRuleBreach,
    "hidden-secret-rule-breach": HiddenSecretRuleBreach,
}
#: The settings each mechanism takes (every one of them is required).
SETTINGS: dict[type[Steered], frozenset[str]] = {
    FalseOpening: frozenset({"what", "sealed", "claim", "steer"}),
    WithheldReveal: frozenset({"steer"}),
    SecretRuleBreach: frozenset({"among", "steer"}),
    HiddenSecretRuleBreach: frozenset({"among", "steer", "final"}),
}
CALLABLE = frozenset({"steer", "among"})


def declared(name: str, mechanism: str, text: str, settings: Mapping[str, Any]) -> type[Steered]:
    """The cheat a game declares: ``mechanism`` with ``settings``, listed as ``name`` doing ``text``."""
    base = MECHANISMS.get(mechanism)
    if base is None:
        raise ValueError(f"cheat {name!r}: no mechanism {mechanism!r}; known: {', '.join(sorted(MECHANISMS))}")
    if set(settings) != SETTINGS[base]:
        raise ValueError(f"cheat {name!r}: {mechanism} takes {sorted(SETTINGS[base])}, not {sorted(settings)}")
    values = {key: staticmethod(value) if key in CALLABLE else value for key, value in settings.items()}
    title = "".join(part.title() for part in name.split("-"))
    return type(title, (base,), {"kind": name, "text": text, **values})
