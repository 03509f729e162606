"""The shared core of every engine: the contract, encoding, seeded chance."""

from engines.core.bots import Bot, RandomBot
from engines.core.encoding import EncodingError, canonical_encode, decode, state_hash
from engines.core.pending import Chance, ChanceKind, Deal, Decision, GameOver, Pending, PrivateDelivery, RevealOwed
from engines.core.referee import Referee, RefereeError
from engines.core.registry import GameSpec, get, names, register
from engines.core.seeded import SeededStream, derive_outcome
from engines.core.state import TABLE, Action, GameState, IllegalAction, Knowledge, Publication

__all__ = [
    "TABLE",
    "Action",
    "Bot",
    "Chance",
    "ChanceKind",
    "Deal",
    "Decision",
    "EncodingError",
    "GameOver",
    "GameSpec",
    "GameState",
    "IllegalAction",
    "Knowledge",
    "Pending",
    "PrivateDelivery",
    "Publication",
    "RandomBot",
    "Referee",
    "RefereeError",
    "RevealOwed",
    "SeededStream",
    "canonical_encode",
    "decode",
    "derive_outcome",
    "get",
    "names",
    "register",
    "state_hash",
]
