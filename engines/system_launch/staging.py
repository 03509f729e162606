"""What System Launch offers the staged cheats of the trust layer's simulator.

The simulator (``python -m protocol simulate --cheat``) stages each cheat by the protocol mechanism
it attacks, in every game whose engine produces the kind of pending that mechanism needs: a shuffled
deck for the card-pass cheats, a private delivery (the Hacker Attack) for the cheats on sealing and
on moving a shown hand.  Nothing here changes play.
"""

from __future__ import annotations

from engines.core import ChanceKind, Deal, Decision, PrivateDelivery

#: The kinds of pending this engine produces: a chance by its kind, any other pending by its class.
PENDINGS = frozenset({Decision, Deal, PrivateDelivery, ChanceKind.SECRET_SHUFFLE, ChanceKind.PUBLIC_SEEDED})
