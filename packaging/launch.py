"""The bundle's one program: ``sealed-table [COMMAND] ...``.

A bundle has no Python to run ``python -m`` with, so what the wheel installs as several commands is
one executable here, told apart by its first word:

- ``sealed-table [--headless ...]``: the desktop program (``sealed-table``; the demo without a display);
- ``sealed-table relay ...``: a relay for a LAN party (``sealed-table-relay``);
- ``sealed-table peer ...``: a bot in a seat over a relay (``python -m client.headless``);
- ``sealed-table verify FILE ...``: audit a saved game (``python -m protocol verify``);
- ``sealed-table check``: is everything the program needs in the bundle (``python -m client.tools.check``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable


def _desktop(argv: list[str]) -> int:
    from client.__main__ import main

    return main(argv)


def _relay(argv: list[str]) -> int:
    from relay.__main__ import main

    return main(argv)


def _peer(argv: list[str]) -> int:
    from client.headless.peer import main

    return main(argv)


def _verify(argv: list[str]) -> int:
    from protocol.__main__ import main

    return main(["verify", *argv])


def _check(argv: list[str]) -> int:
    from client.tools.check import main

    return main(argv)


COMMANDS: dict[str, Callable[[list[str]], int]] = {"relay": _relay, "peer": _peer, "verify": _verify, "check": _check}


def main(argv: list[str]) -> int:
    if argv and argv[0] in COMMANDS:
        return COMMANDS[argv[0]](argv[1:])
    return _desktop(argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
