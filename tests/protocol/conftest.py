"""Protocol tests: the toy game is registered for every test here."""

from __future__ import annotations

import tests.protocol.toy_game  # noqa: F401  (registers "toy")
