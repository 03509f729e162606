"""The headless peer's first steps say the right thing, before anything is sent that the others would wait on.

- The bot is checked against the game before a seat is taken: a host before it opens its room, a joiner
  as soon as the room's card names the game (no request of its own ever reaches the relay); the error
  lists the game's bots.  Without ``--seat-bot`` each game plays with a bot of its own (the README's
  command works for every game).
- A host prints its room and invitation only once its relay answered and its room card is on it: with the
  relay down it hands out nothing, and the card is there for anyone who reads it the moment it is printed.
- A game for one number of players says that number; an unknown game is one sentence with the known ones.
"""

from __future__ import annotations

import asyncio
import os
import re
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from client.headless import peer
from relay import topics
from relay.address import parse_address
from relay.lobby.invitation import parse_invitation
from relay.lobby.retained import lobby_client, read_retained
from relay.mqtt import mqtt_client
from relay.seal import RoomSeal
from tests.relay.helpers import BrokerProcess, Peer, Table, TcpProxy, finished_fair, free_port, wait_for_line
from tests.relay.secure_relay import PASSWORD, USER, SecureRelay, secure_mosquitto


def _retained(address: str, filters: list[str]) -> dict[str, bytes]:
    """What the relay retains on ``filters`` now (the project's own read: ended by a marker of its own)."""

    async def read() -> dict[str, bytes]:
        async with lobby_client(parse_address(address)) as client:
            got = await read_retained(client, filters, "reader" + os.urandom(3).hex(), 5.0)
        return {topic: payload for topic, payload in got.items() if payload}

    return asyncio.run(read())


def _host(relay: str, tmp: Path, game: str, *extra: str) -> Peer:
    args = ["--relay", relay, "--create", game, "--players", "2", "--accept-all", "--state-dir", str(tmp / "host")]
    return Peer(0, [*args, *extra], tmp / "host", tmp / "host.out").start()


def test_a_host_with_a_bot_its_game_lacks_stops_before_its_room_with_the_bots_it_has(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    down = f"127.0.0.1:{free_port()}"  # the bot is checked first: the relay is not even asked
    args = ["--relay", down, "--create", "anomaly-maze", "--players", "2", "--accept-all", "--seat-bot", "greedy"]
    assert peer.main([*args, "--state-dir", str(tmp_path / "s")]) == 2
    out, err = capsys.readouterr()
    assert "invitation" not in out
    assert "error: Anomaly Maze has no bot 'greedy'; its bots are random, easy, normal, hard" in err, err


@pytest.mark.timeout(90)
def test_a_joiner_with_a_bot_the_game_lacks_never_asks_for_a_seat(
    any_broker: BrokerProcess, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    host = _host(any_broker.address, tmp_path, "anomaly-maze", "--seat-bot", "normal")
    try:
        code = wait_for_line(host.out, r"^room ([A-Z]{6})$").group(1)
        invitation = wait_for_line(host.out, r"^invitation (sealed\S+)$").group(1)
        joiner = ["--join", invitation, "--seat-bot", "greedy", "--state-dir", str(tmp_path / "joiner")]
        assert peer.main(joiner) == 2
        err = capsys.readouterr().err
        assert "error: Anomaly Maze has no bot 'greedy'; its bots are random, easy, normal, hard" in err, err
        # No request of its own on the relay: the host never seated it, and nobody waits for it.
        assert _retained(any_broker.address, [topics.join_filter(code)]) == {}
        assert host.proc is not None and host.proc.poll() is None, host.text()
    finally:
        host.kill()


@pytest.mark.timeout(120)
def test_the_readme_command_plays_anomaly_maze_with_its_own_bot(any_broker: BrokerProcess, tmp_path: Path) -> None:
    """No ``--seat-bot``: the game's own bot plays each seat, to the end, fair."""
    host = _host(any_broker.address, tmp_path, "anomaly-maze", "--option", "round_limit=60")
    peers = [host]
    try:
        invitation = wait_for_line(host.out, r"^invitation (sealed\S+)$").group(1)
        args = ["--join", invitation, "--state-dir", str(tmp_path / "guest")]
        peers.append(Peer(1, args, tmp_path / "guest", tmp_path / "guest.out").start())
        codes = [p.wait(100) for p in peers]
    finally:
        for p in peers:
            p.kill()
    finished_fair(Table(peers), codes)


def test_a_host_whose_relay_is_down_hands_out_no_invitation(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    port = free_port()
    args = ["--relay", f"127.0.0.1:{port}", "--create", "system-launch", "--players", "2", "--accept-all"]
    assert peer.main([*args, "--state-dir", str(tmp_path / "s")]) == 2
    out, err = capsys.readouterr()
    assert "invitation" not in out and "room " not in out, out
    assert f"error: relay 127.0.0.1:{port}: nobody answers" in err, err


class HeldProxy(TcpProxy):
    """A proxy that holds what clients send until :attr:`released` is set; :attr:`asked` is set when they first do."""

    def __init__(self, target_port: int) -> None:
        self.asked = threading.Event()
        self.released = threading.Event()
        super().__init__(target_port)

    def _from_client(self, data: bytes, pending: bytearray, broker: socket.socket) -> bool:
        self.asked.set()
        self.released.wait(30)
        return super()._from_client(data, pending, broker)


async def _stored(address: str, topic: str, seal: RoomSeal) -> list[str]:
    """The topics the relay holds retained on ``topic`` this moment (not what is published after we subscribed)."""
    marker = topics.sync("test", "reader" + os.urandom(3).hex())
    held: list[str] = []
    async with mqtt_client(parse_address(address), "reader", seal=seal) as client:
        await client.publish(marker, b"m", qos=1, retain=True)
        await client.subscribe([(topic, 1), (marker, 1)])
        async for message in client.messages:
            if message.topic.value == marker:
                break
            if message.retain and message.payload:
                held.append(message.topic.value)
        await client.publish(marker, b"", qos=1, retain=True)
    return held


@pytest.mark.timeout(60)
def test_the_room_card_is_on_the_relay_when_the_invitation_is_printed(
    any_broker: BrokerProcess, tmp_path: Path
) -> None:
    proxy = HeldProxy(any_broker.port)
    host = _host(proxy.address, tmp_path, "system-launch")
    try:
        assert proxy.asked.wait(30), host.text()
        assert "invitation" not in host.text(), "an invitation before its relay answered"
        proxy.released.set()
        code = wait_for_line(host.out, r"^room ([A-Z]{6})$").group(1)
        link = wait_for_line(host.out, r"^invitation (sealed\S+)$").group(1)
        # A guest started the moment the invitation is handed out finds the room's card stored.
        seal = RoomSeal(code, parse_invitation(link).fingerprint)
        assert asyncio.run(_stored(any_broker.address, topics.room_card(code), seal)) == [topics.room_card(code)]
    finally:
        host.kill()
        proxy.close()


@pytest.mark.parametrize(
    ("game", "players", "said"),
    [
        ("anomaly-maze", "3", "error: Anomaly Maze is for 2 players, not 3\n"),
        ("system-launch", "7", "error: System Launch is for 2–6 players, not 7\n"),
        (
            "system-lanch",
            "2",
            "error: there is no game 'system-lanch'; the games are anomaly-maze, collective-conflict, system-launch\n",
        ),
    ],
)
def test_a_game_or_its_players_that_cannot_be_are_one_sentence(
    game: str, players: str, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    down = f"127.0.0.1:{free_port()}"  # checked before the relay is asked
    args = ["--relay", down, "--create", game, "--players", players, "--accept-all", "--state-dir", str(tmp_path)]
    assert peer.main(args) == 2
    err = capsys.readouterr().err
    assert re.search(r"^error: .*$", err, re.M) is not None
    assert err.endswith(said), err


def test_an_unknown_bot_names_the_games_bots(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    down = f"127.0.0.1:{free_port()}"
    args = ["--relay", down, "--create", "system-launch", "--players", "2", "--accept-all", "--seat-bot", "grredy"]
    assert peer.main([*args, "--state-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.endswith("error: System Launch has no bot 'grredy'; its bots are random, greedy, memory\n"), err


@pytest.fixture
def secure(mosquitto_path: str, tmp_path: Path) -> Iterator[SecureRelay]:
    relay = secure_mosquitto(mosquitto_path, tmp_path / "relay")
    relay.broker.start()
    yield relay
    relay.broker.stop()


@pytest.mark.timeout(120)
def test_a_guest_with_a_link_gives_its_login_by_name(
    secure: SecureRelay, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The link carries no login: the guest names its user with ``--user``, the password in ``--password-file``."""
    password = tmp_path / "password"
    password.write_text(PASSWORD + "\n")
    relay = f"mqtt://{USER}@127.0.0.1:{secure.broker.port}"
    host = _host(relay, tmp_path, "system-launch", "--password-file", str(password))
    peers = [host]
    try:
        link = wait_for_line(host.out, r"^invitation (sealed\S+)$").group(1)
        assert f"{USER}@" not in link
        # A password without a user name: said before anything is sent, with where the name goes.
        assert peer.main(["--join", link, "--password-file", str(password), "--state-dir", str(tmp_path / "a")]) == 2
        err = capsys.readouterr().err
        assert "error: --password-file needs a user name: give --user NAME" in err, err
        # No login at all: the sentence says where it goes when the relay came in a link.
        assert peer.main(["--join", link, "--state-dir", str(tmp_path / "b")]) == 2
        err = capsys.readouterr().err
        assert "needs a login" in err and "give --user NAME and --password-file FILE" in err, err
        assert "invitation link carries no login" in err, err
        args = ["--join", link, "--user", USER, "--password-file", str(password), "--state-dir", str(tmp_path / "c")]
        peers.append(Peer(1, args, tmp_path / "c", tmp_path / "c.out").start())
        codes = [p.wait(100) for p in peers]
    finally:
        for p in peers:
            p.kill()
    finished_fair(Table(peers), codes)
    assert all(PASSWORD not in p.text() for p in peers)
