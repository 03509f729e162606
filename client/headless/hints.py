"""An error as the headless peer's user reads it: the relay layer's sentence, and where on the command line the
missing piece goes.

The relay layer says what a relay wants (a login, a client certificate) in words for any program; this
program's user gives it with options, and an invitation link never carries a login, so the sentence
names the options.
"""

from __future__ import annotations

from relay.errors import CertificateNeeded, LoginNeeded, WrongLogin


def sentence(exc: BaseException) -> str:
    """``exc`` as one sentence for the command line's user (never a password: the relay layer shows none)."""
    if isinstance(exc, LoginNeeded) and not isinstance(exc, WrongLogin):
        where = exc.address or "the relay"
        return (
            f"the relay {where} needs a login: give --user NAME and --password-file FILE (an invitation link "
            "carries no login), or USER:PASSWORD@ before the host in --relay"
        )
    if isinstance(exc, CertificateNeeded):
        return f"{exc}: give --cert FILE (and --key FILE when the key is in a file of its own)"
    return str(exc)
