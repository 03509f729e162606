"""Fixed-size padding of sealed plaintexts: a ciphertext's length must not tell its content.

An AEAD ciphertext is exactly as long as its plaintext plus nonce and tag, so
unpadded a sealed Collective Conflict identity is 71 bytes for ``"decoy"`` and 76
for ``"mothership"``: an eavesdropper on the relay would read every identity from
the length alone.  Every plaintext is therefore framed as a 4-byte length, the
bytes, and zeros up to a size that depends only on public facts: by default
the next multiple of :data:`PAD_BLOCK`, which every sealed value of our games
(a few dozen bytes per sealed value, 32 bytes per card key) stays inside
whatever it is, or a size the caller fixes from public counts (``size``).
The padding is inside the authenticated plaintext, so nobody can strip or
change it unnoticed; :func:`unpad` refuses anything but zeros after the text.
"""

from __future__ import annotations

PAD_BLOCK = 256
LENGTH_BYTES = 4


class PaddingError(ValueError):
    """A plaintext too long for the size asked for, or a padded text that is not well formed."""


def padded_size(length: int, block: int = PAD_BLOCK) -> int:
    """The padded size of a plaintext of ``length`` bytes: a whole number of blocks, never empty."""
    return block * ((length + LENGTH_BYTES + block - 1) // block)


def pad(plaintext: bytes, size: int | None = None) -> bytes:
    """``len || plaintext || zeros`` of exactly ``size`` bytes (default :func:`padded_size`)."""
    total = padded_size(len(plaintext)) if size is None else size
    if isinstance(total, bool) or not isinstance(total, int) or total < len(plaintext) + LENGTH_BYTES:
        raise PaddingError(f"a plaintext of {len(plaintext)} bytes does not fit in {total!r} padded bytes")
    head = len(plaintext).to_bytes(LENGTH_BYTES, "big")
    return head + bytes(plaintext) + bytes(total - LENGTH_BYTES - len(plaintext))


def unpad(padded: bytes) -> bytes:
    """The plaintext inside a padded text; :class:`PaddingError` unless the frame is exact."""
    if len(padded) < LENGTH_BYTES:
        raise PaddingError("the padded text is shorter than its length field")
    length = int.from_bytes(padded[:LENGTH_BYTES], "big")
    end = LENGTH_BYTES + length
    if end > len(padded) or any(padded[end:]):
        raise PaddingError("the padded text's length field or padding is malformed")
    return bytes(padded[LENGTH_BYTES:end])
