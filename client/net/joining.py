"""Joining a room: the host's signed card shown first, then a seat asked for, and the game once it starts.

Coroutines for the asyncio loop that qasync runs on Qt's event loop: the window never freezes
while a relay is tried, and every failure reaches the player as a :class:`~client.net.errors.NetError`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from client.i18n import tr
from client.net.address import RelayAddress, parse_relay_address, parse_room_code
from client.net.errors import NetError, relay_failure
from client.net.game import NetGame
from client.net.hosting import StatusFn
from client.net.probe import probe_relay
from client.net.seat_card import new_peer_id, new_seat
from client.store.kept_seats import SavedSeat
from protocol.session import PeerSession
from relay.lobby.door import ListedRoom
from relay.lobby.join import join_room, peek_room
from relay.lobby.messages import LobbyCard


async def peek_online(address_text: str, code: str, fingerprint: str = "") -> LobbyCard:
    """The room's signed card (host's name, key fingerprint, game, seats, answer time), before asking for a seat."""
    address = parse_relay_address(address_text)
    await probe_relay(address)
    try:
        return await peek_room(str(address), code, fingerprint or None)
    except asyncio.CancelledError:
        raise
    except Exception as exc:
        raise relay_failure(exc, address, code) from None


async def join_online(
    address_text: str | RelayAddress,
    room_text: str,
    name: str,
    status: StatusFn | None = None,
    identity_dir: Path | None = None,
    *,
    seat: int | None = None,
    on_update: Callable[[LobbyCard, int | None], None] | None = None,
    fingerprint: str = "",
    fallbacks: tuple[str, ...] = (),
    token: str = "",
    listed: ListedRoom | None = None,
) -> NetGame:
    """Join room ``room_text`` on the relay at ``address_text`` (``seat``: the seat asked for, 0-based).

    ``fingerprint`` pins the host (from the invitation, or from the card the player was shown): only a
    room card, seat list and genesis signed by that host's keys are believed.  ``token`` is the
    invitation link's secret: the request proves it, so no stranger's requests crowd it out.  Returns the NetGame once
    the host starts the game; ``on_update(lobby card, our seat)`` hears every change of the room while
    we wait (our seat is None while the host has not let us in).  Cancelling the coroutine withdraws
    the request (the seat is freed).
    """
    address = parse_relay_address(address_text)
    code = parse_room_code(room_text) if listed is None else ""  # a stranger at a listed room's door learns it
    await probe_relay(address)
    key, secret, card = new_seat(name, identity_dir)
    peer = new_peer_id()
    if status:
        status(tr("lobby.waiting_seat", code=code))
    try:
        seated = await join_room(
            address,
            listed or code,
            peer,
            name,
            card,
            timeout=3600.0,
            key=key,
            host_key=fingerprint or None,
            token=token,
            seat=seat,
            until_started=True,
            on_update=on_update,
        )
    except NetError:
        raise
    except asyncio.CancelledError:
        raise
    except Exception as exc:  # the relay layer's own errors become sentences
        raise relay_failure(exc, address, code, seat) from None
    if seated.creator is None:
        raise NetError("relay-failed", address=str(address), reason="the host's seat list names no seat 1")
    code = seated.lobby.code
    session = PeerSession.join(code, seated.seat, key, secret, creator=seated.creator)
    net_game = NetGame(session, address, peer)
    lobby = seated.lobby
    keep = SavedSeat(
        room=code,
        seat=seated.seat,
        game=lobby.game,
        relay=str(address),
        peer=peer,
        creator=bytes(seated.creator),
        sign=key.private_bytes(),
        secret=secret,
        timeout_ms=lobby.timeout_ms,
        names=list(lobby.names),
        fallbacks=list(fallbacks),
    )
    net_game.fallbacks, net_game.signing_key = tuple(fallbacks), key
    net_game.keep(keep, identity_dir)
    return net_game
