"""What a relay learns of a room: nothing but timing and padded sizes.

An eavesdropper subscribed to everything a real Mosquitto lets anyone read (``#``) watches a whole
game of each of the three games, played by headless peers in their own processes who meet by an
invitation: host, lobby, seats, every entry, presence, notices, the end.  Afterwards the test holds
what the eavesdropper captured against what the players know: no room code, no player name, no
game name, no host key or fingerprint, no entry of the log (nor any entry's signature) appears in a
topic or a payload; every topic is opaque and at most seven levels deep; every payload is empty (a
retained message cleared) or exactly one of the seal's sizes.
"""

from __future__ import annotations

import threading
from pathlib import Path

import paho.mqtt.client as paho
import pytest

from protocol.envelope import parse
from protocol.logfile import load
from relay import topics
from relay.fingerprint import fingerprint
from relay.seal import BUCKETS
from tests.relay.helpers import BrokerProcess, Table, finished_fair, start_table

NAMES = ("Wiktoria Podsłuchana", "Zbigniew Tajny")

GAMES = {
    "system-launch": [],
    "collective-conflict": ["--option", "max_rounds=20"],
    "anomaly-maze": ["--option", "round_limit=30"],
}


class Eavesdropper:
    """A plain MQTT client subscribed to ``#``, keeping every message it is sent (from its own thread)."""

    def __init__(self, port: int) -> None:
        self.seen: list[tuple[str, bytes]] = []
        self._lock = threading.Lock()
        self._subscribed = threading.Event()
        self.client = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id="eavesdropper")
        self.client.on_connect = lambda c, *_: c.subscribe("#", qos=1)
        self.client.on_subscribe = lambda *_: self._subscribed.set()
        self.client.on_message = self._keep
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        assert self._subscribed.wait(10), "the eavesdropper could not subscribe"

    def _keep(self, _client: object, _userdata: object, message: paho.MQTTMessage) -> None:
        with self._lock:
            self.seen.append((message.topic, bytes(message.payload)))

    def stop(self) -> list[tuple[str, bytes]]:
        self.client.loop_stop()
        self.client.disconnect()
        with self._lock:
            return list(self.seen)


def _table(relay: str, tmp: Path, game: str, listed: bool = False) -> Table:
    """Host and guest; the guest has the invitation, or, for a listed room, only its code."""
    host = [*GAMES[game], "--name", NAMES[0], *(["--listed"] if listed else [])]
    return start_table(
        relay, tmp, players=2, bot=None, extra=["--timeout-ms", "60000", "-q"], game=game, by_code=listed,
        extra_for={0: host, 1: ["--name", NAMES[1]]},
    )  # fmt: skip


@pytest.mark.parametrize("game", list(GAMES))
def test_an_eavesdropper_on_the_relay_learns_no_move_no_name_no_room_and_only_padded_sizes(
    mosquitto_broker: BrokerProcess, tmp_path: Path, game: str
) -> None:
    seen, table, entries = _play_overheard(mosquitto_broker, tmp_path, game, listed=False)
    _learned_nothing(seen, table, game, entries, listed=False)


def test_a_listed_room_shows_the_relay_its_card_and_nothing_more(
    mosquitto_broker: BrokerProcess, tmp_path: Path
) -> None:
    """The listing shows what the host chose (the game, its name and key, the seats); not the code, the
    guest, or a move."""
    seen, table, entries = _play_overheard(mosquitto_broker, tmp_path, "system-launch", listed=True)
    listing = [payload for topic, payload in seen if _a_listing_card(topic) and payload]
    assert listing and all(NAMES[0].encode() in p and b"system-launch" in p for p in listing), "the card, as chosen"
    _learned_nothing(seen, table, "system-launch", entries, listed=True)


def _play_overheard(
    broker: BrokerProcess, tmp_path: Path, game: str, listed: bool
) -> tuple[list[tuple[str, bytes]], Table, list[bytes]]:
    """A whole game of ``game`` with an eavesdropper on the relay: what it heard, the table, the log."""
    ear = Eavesdropper(broker.port)
    table = _table(broker.address, tmp_path, game, listed)
    try:
        codes = table.wait(240)
    finally:
        table.kill_all()
        seen = ear.stop()
    finished_fair(table, codes)
    entries = load((tmp_path / "peer0" / "game.sealed").read_bytes()).entries
    assert len([1 for _, payload in seen if payload]) >= len(entries), "the eavesdropper heard less than the game"
    return seen, table, entries


def _a_listing_card(topic: str) -> bool:
    return topic.startswith(topics.LOBBY_ROOT) and topic.count("/") == topics.LOBBY_ROOT.count("/")


def _learned_nothing(
    seen: list[tuple[str, bytes]], table: Table, game: str, entries: list[bytes], listed: bool
) -> None:
    """Nothing of the room in any topic or payload but a listed room's public card, and only the seal's sizes."""
    host_key = bytes(parse(entries[0]).body["seats"][0]["sign"])
    words = [table.code, game, game.replace("-", " ").title(), *NAMES, fingerprint(host_key)[:20]]
    secrets = [w.encode() for w in words] + [w.lower().encode() for w in words] + [host_key]
    secrets += [e for e in entries] + [e[-64:] for e in entries]  # every entry, and its signature alone
    for topic, payload in seen:
        assert topic.startswith(topics.ROOT + "/"), topic
        assert listed or not topic.startswith(topics.LOBBY_ROOT), f"an unlisted room in the listing: {topic}"
        assert len(topic.split("/")) <= 7, topic
        if listed and _a_listing_card(topic):
            for secret in (table.code, NAMES[1]):  # the card itself: no code, no guest
                assert secret.encode() not in payload, f"{secret!r} in the listing card"
            assert not any(e in payload for e in entries)
            continue
        for word in words:
            assert word.lower() not in topic.lower(), f"{word!r} in the topic {topic}"
        for kind in ("room", "log", "notice", "presence", "seats", "card", "join", "want", "sync", "rematch"):
            assert f"/{kind}/" not in topic + "/", f"the topic {topic} says what it carries"
        assert not payload or len(payload) in BUCKETS or len(payload) % BUCKETS[-1] == 0, len(payload)
        for secret in secrets:
            assert secret not in payload, f"{secret[:24]!r}… readable in a payload on {topic}"
