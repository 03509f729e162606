"""A rematch of a finished network game: the same players, a fresh room on the same relay, the same seats.

From the report, each player answers "Play again" or "No thanks" (signed answers on the finished
room's topics, :mod:`relay.lobby.rematch`).  This machine answers for its own seat and, with the same
answer, for the bot seats it plays.  When every seat said yes:

- the machine that holds seat 0 (the player who hosted, or whose bot sat there: seat 0 writes the
  genesis) opens an unlisted room on the same relay with the same game, seats and answer time,
  sits where it sat, seats its bots again, lets in only the seat cards whose keys the answers
  named (each in its old seat), announces the room's code and key, and starts the game;
- every other machine joins that room in its old seat, pinning the announced key.

A "No thanks" from anyone ends it for everyone, and says who.  The result is a new
:class:`~client.net.game.NetGame`, handed to ``on_started`` (the main window opens its table).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from client.i18n import tr
from client.net import tasks
from client.net.address import RelayAddress, key_fingerprint, parse_relay_address
from client.net.errors import NetError
from client.net.game import NetGame
from client.net.hosting import Hosting
from client.net.joining import join_online
from client.store.identity import signing_key
from protocol.crypto.signing import SigningKey
from relay.lobby.messages import JoinRequest
from relay.lobby.rematch import NewRoom, RematchChannel


class Rematch:
    """One finished network game's rematch, as this machine takes part in it."""

    def __init__(
        self,
        game: NetGame,
        name: str,
        identity_dir: Path | None = None,
        think_ms: int = 0,
        on_change: Callable[[], None] | None = None,
        on_started: Callable[[NetGame], object] | None = None,
    ) -> None:
        table = game.session.table
        if table is None or game.relay is None:
            raise ValueError("a rematch needs a network game that began")
        self.game = game
        self.name = name
        self.identity_dir = identity_dir
        self.think_ms = think_ms
        self.on_change = on_change
        self.on_started = on_started
        self.players = table.n
        self.names = [seat.name for seat in table.seats]
        self.timeout_ms = table.timeout_ms
        #: The seats this machine answers for, with the keys that signed them in the finished game.
        self.keys: dict[int, SigningKey] = {game.human: _own_key(game)}
        #: The bot seats this machine plays, and which bot plays each (the rematch seats them again).
        self._bots: dict[int, str] = {}
        for bot in game.bots:
            if bot.session is not None and bot.session.seat is not None:
                self.keys[bot.session.seat] = bot.key
                self._bots[bot.session.seat] = bot.kind
        #: The key of the seat card this player brings to the new room (the user's own: see client.store.identity).
        self.next_key = signing_key(identity_dir).public_bytes()
        self.channel = rematch_channel(
            game.relay, table.room, table.game_id, [seat.sign for seat in table.seats], self._changed
        )
        #: "", "opening" (hosting the new room), "joining", "started" or "failed".
        self.phase = ""
        self.failure = ""
        self._task: asyncio.Task[None] | None = None
        self._work: asyncio.Task[NetGame] | None = None

    # -- the player's answers -------------------------------------------------------------------
    def start(self) -> None:
        """Listen for the others' answers (from the moment the report shows)."""
        if self._task is None:
            self._task = tasks.spawn(self.channel.run(), tasks.ignore, tasks.ignore)

    def accept(self) -> None:
        for seat, key in self.keys.items():
            self.channel.answer(key, seat, True, self.next_key)

    def decline(self) -> None:
        self.channel.answer(self.keys[self.game.human], self.game.human, False, self.next_key)

    def stop(self) -> None:
        """Stop listening, and tell nobody about it any more."""
        self.on_change = self.on_started = None
        self.channel.stop()
        if self._work is not None and not self._work.done():
            self._work.cancel()

    def leave(self) -> None:
        """The player left the report (back to the lobby): an open offer gets their "no", then we stop.

        Without it the others could all say yes and wait for someone who is gone.
        """
        if self.can_answer() and self.answered(self.game.human) is not False:
            self.on_change = self.on_started = None
            self.decline()
            self.channel.finish()
            return
        self.stop()

    # -- what is known --------------------------------------------------------------------------
    @property
    def hosting(self) -> bool:
        """Whether this machine holds seat 0 (it opens the new room)."""
        return 0 in self.keys

    def answered(self, seat: int) -> bool | None:
        got = self.channel.answers.get(seat)
        return None if got is None else got.accept

    def declined_by(self) -> int | None:
        return next((s for s in range(self.players) if self.answered(s) is False), None)

    def everyone_said_yes(self) -> bool:
        return all(self.answered(s) is True for s in range(self.players))

    def can_answer(self) -> bool:
        """Whether "Play again" / "No thanks" still mean something here."""
        return not self.phase and self.declined_by() is None and not self.everyone_said_yes()

    def status(self) -> str:
        """Where the rematch stands, in words ("" when nobody has asked for one)."""
        if self.phase == "failed":
            return tr("rematch.failed", reason=self.failure)
        declined = self.declined_by()
        if declined is not None:
            if declined == self.game.human:
                return tr("rematch.you_declined")
            return tr("rematch.declined", name=self.names[declined])
        if self.everyone_said_yes():
            if self.hosting:
                return tr("rematch.opening")
            room = self.channel.new_room
            if room is not None:
                return tr("rematch.joining", code=room.code)
            return tr("rematch.waiting_host", name=self.names[0])
        if self.answered(self.game.human):
            waiting = [self.names[s] for s in range(self.players) if self.answered(s) is None]
            return tr("rematch.waiting", names=", ".join(waiting))
        asking = [self.names[s] for s in range(self.players) if self.answered(s)]
        return tr("rematch.offer", names=", ".join(asking)) if asking else ""

    # -- the new game ---------------------------------------------------------------------------
    def _changed(self) -> None:
        if not self.phase and self.everyone_said_yes():
            if self.hosting:
                self._begin("opening", self._open())
            elif self.channel.new_room is not None:
                self._begin("joining", self._join(self.channel.new_room))
        if self.on_change is not None:
            self.on_change()

    def _begin(self, phase: str, work: Coroutine[Any, Any, NetGame]) -> None:
        self.phase = phase
        self._work = tasks.spawn(work, self._started, self._failed)

    def _started(self, new_game: NetGame) -> None:
        self.phase = "started"
        self.channel.stop()
        if self.on_started is not None:
            self.on_started(new_game)

    def _failed(self, exc: BaseException) -> None:
        self.phase = "failed"
        self.failure = exc.message() if isinstance(exc, NetError) else str(exc) or type(exc).__name__
        if self.on_change is not None:
            self.on_change()

    def _admit(self, request: JoinRequest) -> bool:
        """Only the players of the finished game, each in the seat it had, with the key its answer named."""
        seat = request.seat
        if seat is None or not 0 < seat < self.players or seat in self.keys:
            return False
        answer = self.channel.answers.get(seat)
        return answer is not None and answer.accept and request.sign_key == answer.key

    async def _open(self) -> NetGame:
        game = self.game
        if game.relay is None:
            raise ValueError("a rematch is offered only for network games")
        room = Hosting(
            parse_relay_address(game.relay),
            game.game,
            self.players,
            self.name,
            self.identity_dir,
            self.think_ms,
            bot_names=self.names,  # Hosting names a bot at seat s after names[s]: the same names again
            listed=False,
            timeout_ms=self.timeout_ms,
            admit=self._admit,
        )
        if game.human != 0:
            await room.take_seat(game.human)
        for seat, kind in sorted(self._bots.items()):
            await room.set_bot(seat, kind)

        def changed() -> None:
            if room.can_start():
                room.start()  # every seat is held by the same players again (bots need the word)

        room.on_change = changed
        run = asyncio.ensure_future(room.run())
        opened = asyncio.ensure_future(room.room_host.opened.wait())
        try:
            await asyncio.wait({run, opened}, return_when=asyncio.FIRST_COMPLETED)
            if opened.done():
                self.channel.announce(self.keys[0], room.code, room.key.public_bytes())
            return await run
        except BaseException:
            run.cancel()
            raise
        finally:
            opened.cancel()

    async def _join(self, room: NewRoom) -> NetGame:
        game = self.game
        if game.relay is None:
            raise ValueError("a rematch is offered only for network games")
        return await join_online(
            game.relay,
            room.code,
            self.name,
            None,
            self.identity_dir,
            seat=game.human,
            fingerprint=key_fingerprint(room.host_key),
        )


def rematch_channel(
    relay: str | RelayAddress,
    room: str,
    game_id: bytes,
    seat_keys: list[bytes],
    on_change: Callable[[], None] | None = None,
) -> RematchChannel:
    """The signed rematch talk of a finished room (:class:`relay.lobby.rematch.RematchChannel`)."""
    return RematchChannel(relay, room, game_id, seat_keys, on_change)


def _own_key(game: NetGame) -> SigningKey:
    """The key that signed this machine's seat in the finished game."""
    key = game.session.signing_key
    if key is None:
        raise ValueError("a rematch needs a seat of the finished game")
    return key
