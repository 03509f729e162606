"""Taking a kept seat again: the same keys, secret and peer id on the same relay, the bots restarted."""

from __future__ import annotations

from client.net import tasks
from client.net.address import parse_relay_address
from client.net.bots import RUNNING_BOTS, LocalBot
from client.net.errors import NetError
from client.net.game import NetGame
from client.net.lan import lan_relay_address, start_lan_relay
from client.store.kept_seats import SavedSeat
from client.store.seat_log import SeatLog, SeatLogDamaged, check
from protocol.crypto.signing import SigningKey
from protocol.session import PeerSession
from relay.transport.room import monotonic_ms


async def resume_online(seat: SavedSeat, name: str, think_ms: int = 0) -> NetGame:
    """:func:`resume_seat`, after starting this machine's LAN relay again when the room was on it.

    The others' transports keep calling the relay's address; a relay back on the same port is found
    by them, and every peer puts back the entries it holds (the embedded relay keeps nothing).
    """
    if seat.lan_port and lan_relay_address() is None:
        await start_lan_relay(name, ports=(seat.lan_port,))
    return resume_seat(seat, think_ms)


def resume_seat(seat: SavedSeat, think_ms: int = 0) -> NetGame:
    """A NetGame for a kept seat: the same keys, secret, peer id and pinned creator, on the same relay.

    The transport feeds the seat's own log (:mod:`client.store.seat_log`) to the session first and
    then reads the room's retained log back, before the player is asked anything, and puts back
    what the relay lost; so the seat carries on where it was, never asked again for a position it
    signed: first at the relay the game last moved to, if it moved.  A seat log that does not verify
    is refused (NetError ``seat-log-damaged``) and left as it is.  The bots this machine played in the
    room come back with it, unless they still play in this program.
    """
    address = parse_relay_address(seat.moved_to or seat.relay)
    fallbacks = tuple(dict.fromkeys(r for r in [seat.relay, *seat.fallbacks] if r != str(address)))

    def session_for(number: int, key: SigningKey, secret: bytes) -> PeerSession:
        session = PeerSession.join(seat.room, number, key, secret, creator=seat.creator)
        if seat.genesis:
            session.receive(seat.genesis, monotonic_ms())
        return session

    journal = _own_log(seat)
    try:
        key = SigningKey.from_private_bytes(seat.sign)
        bot_keys = [(bot, SigningKey.from_private_bytes(bot.sign)) for bot in seat.bots]
        net_game = NetGame(session_for(seat.seat, key, seat.secret), address, seat.peer)
    except ValueError as exc:
        raise NetError("resume-failed", room=seat.room, reason=str(exc)) from None
    net_game.saved, net_game.journal = seat, journal
    net_game.fallbacks, net_game.signing_key = fallbacks, key
    net_game.lan = bool(seat.lan_port)
    for kept, bot_key in bot_keys:
        running = RUNNING_BOTS.get(kept.peer)
        if running is not None and running.running:
            net_game.bots.append(running)
            continue
        bot = LocalBot(kept.kind, kept.name, bot_key, kept.secret, kept.peer)
        play = bot.play(session_for(kept.seat, bot_key, kept.secret), address, think_ms, fallbacks, journal=journal)
        bot.task = tasks.spawn(play, tasks.ignore, tasks.ignore)
        net_game.bots.append(bot)
    return net_game


def _own_log(seat: SavedSeat) -> SeatLog | None:
    """The kept seat's own log, checked entry by entry (None for a seat kept without a folder)."""
    if seat.folder is None:
        return None
    try:
        journal = SeatLog.open(seat.folder)
        check(journal.records, seat.room, seat.creator, journal.path)
    except SeatLogDamaged as exc:
        raise NetError("seat-log-damaged", room=seat.room, reason=str(exc)) from None
    except OSError as exc:
        raise NetError("resume-failed", room=seat.room, reason=exc.strerror or str(exc)) from None
    return journal
