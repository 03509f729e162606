"""What Anomaly Maze offers the staged cheats of the trust layer's simulator.

The simulator (``python -m protocol simulate --cheat``) stages each cheat by the protocol mechanism
it attacks, in every game whose engine produces the kind of pending that mechanism needs: the die
of an attack is an interactive chance (a commit-reveal round among the seats), which the dice-share
cheats attack.  Nothing here changes play.
"""

from __future__ import annotations

from engines.core import ChanceKind, Decision

#: The kinds of pending this engine produces: a chance by its kind, any other pending by its class.
PENDINGS = frozenset({Decision, ChanceKind.PUBLIC_SEEDED, ChanceKind.INTERACTIVE})
