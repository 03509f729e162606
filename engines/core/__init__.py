"""The shared core of every engine: the contract, encoding, seeded chance."""

from .bots import Bot, RandomBot
from .encoding import EncodingError, canonical_encode, decode, state_hash
from .pending import Chance, ChanceKind, Deal, Decision, GameOver, Pending, PrivateDelivery, RevealOwed
from .referee import Referee, RefereeError
from .registry import GameSpec, get, names, register
from .seeded import SeededStream, derive_outcome
from .state import TABLE, Action, GameState, IllegalAction, Knowledge, Publication

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
