"""The player's long-term signing key, kept in the user's config directory.

The design gives every user one Ed25519 key for all their games; it signs the seat card a
player hands to a room's host, so the genesis names it.  The file holds the 32-byte private
seed, readable by the owner only (:mod:`client.store.private`); a damaged file is replaced by a
new key (the old games stay verifiable: their logs carry the public key).  Per-game secrets are
fresh for each game and never stored here.
"""

from __future__ import annotations

import secrets
from pathlib import Path

from client.store.private import write_private
from client.store.settings import config_dir
from protocol.crypto.signing import SigningKey

KEY_FILE = "identity.key"


def signing_key(directory: Path | None = None) -> SigningKey:
    """Load (or make and keep) the user's signing key.  Raises OSError when a new key cannot be kept."""
    path = (directory or config_dir()) / KEY_FILE
    try:
        seed = path.read_bytes()
        if len(seed) == 32:
            return SigningKey.generate(seed)
    except OSError:
        pass
    seed = secrets.token_bytes(32)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_private(path, seed)
    return SigningKey.generate(seed)
