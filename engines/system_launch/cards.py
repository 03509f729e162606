"""The 44 cards of System Launch: a fixed table from card identity to kind.

Identities are what mental poker encrypts and what a shown card claims, so the
table is fixed for every peer: identities are grouped by kind in the order of
the rule text (Processor 0–5, RAM 6–11, … Upgrade! 42–43).  Kinds are small
integers so that rule checks are list look-ups, not string compares.
"""

from __future__ import annotations

PROCESSOR, RAM, HARD_DRIVE, GRAPHICS_CARD = 0, 1, 2, 3
ANTIVIRUS, FIREWALL, PASSWORD = 4, 5, 6
CRASH, HACKER_ATTACK, PHISHING, UPGRADE = 7, 8, 9, 10

#: Kind names as they appear in views, logs and the rules page.
KIND_NAMES: tuple[str, ...] = (
    "Processor",
    "RAM",
    "HardDrive",
    "GraphicsCard",
    "Antivirus",
    "Firewall",
    "Password",
    "Crash",
    "HackerAttack",
    "Phishing",
    "Upgrade",
)

#: How many cards of each kind the deck holds (rule text §2, SL-1).
KIND_COUNTS: tuple[int, ...] = (6, 6, 6, 6, 4, 4, 4, 2, 2, 2, 2)

PARTS: frozenset[int] = frozenset({PROCESSOR, RAM, HARD_DRIVE, GRAPHICS_CARD})
PROTECTIONS: frozenset[int] = frozenset({ANTIVIRUS, FIREWALL, PASSWORD})
EVENTS: frozenset[int] = frozenset({CRASH, HACKER_ATTACK, PHISHING, UPGRADE})
#: Events played against another player (Upgrade! is played on oneself).
ATTACKS: frozenset[int] = frozenset({CRASH, HACKER_ATTACK, PHISHING})
#: The protection that cancels each attack.
PROTECTED_BY: dict[int, int] = {CRASH: ANTIVIRUS, HACKER_ATTACK: FIREWALL, PHISHING: PASSWORD}

#: ``CARD_KIND[card]`` is the kind of card identity ``card``.
CARD_KIND: tuple[int, ...] = tuple(kind for kind, count in enumerate(KIND_COUNTS) for _ in range(count))
DECK_SIZE = len(CARD_KIND)

#: Per kind: True for Part and Protection cards (the ones that can be built or upgraded away).
BUILDABLE: tuple[bool, ...] = tuple(kind in PARTS or kind in PROTECTIONS for kind in range(len(KIND_NAMES)))
IS_PART: tuple[bool, ...] = tuple(kind in PARTS for kind in range(len(KIND_NAMES)))
IS_PROTECTION: tuple[bool, ...] = tuple(kind in PROTECTIONS for kind in range(len(KIND_NAMES)))

assert DECK_SIZE == 44


def kind_of(card: int) -> int:
    return CARD_KIND[card]


def card_name(card: int) -> str:
    """Readable name of a card identity, e.g. ``"RAM#7"``."""
    return f"{KIND_NAMES[CARD_KIND[card]]}#{card}"
