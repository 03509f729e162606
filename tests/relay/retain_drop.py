"""A relay that forwards one entry but keeps no copy of it: a TCP proxy that reads the MQTT packets a
client sends and, once armed, clears the RETAIN flag of the next PUBLISH on a matching topic.

The broker then delivers that entry to everyone subscribed, as usual, but its retained log never
holds it: what a relay restarted without storage, or one that lies, does to an entry.  The proxy
can also cut the client off right after that packet, before the broker's acknowledgement or the
entry's echo reaches it, and refuse it until :meth:`restore` (its machine "crashed" then).
"""

from __future__ import annotations

import re
import socket
import threading

from protocol.envelope import peek
from relay.seal import RoomSeal
from tests.relay.helpers import TcpProxy

PUBLISH = 3
RETAIN = 0x01


def _packets(buffer: bytearray) -> list[bytes]:
    """Whole MQTT packets taken off the front of ``buffer`` (what is left is an unfinished one)."""
    out = []
    while len(buffer) >= 2:
        length, shift, at = 0, 0, 1
        while True:
            if at >= len(buffer):
                return out
            byte = buffer[at]
            length |= (byte & 0x7F) << shift
            at += 1
            if not byte & 0x80:
                break
            shift += 7
        if len(buffer) < at + length:
            return out
        out.append(bytes(buffer[: at + length]))
        del buffer[: at + length]
    return out


def _publish(packet: bytes) -> tuple[str, bytes, int] | None:
    """(topic, payload, offset of the remaining length's end) of a PUBLISH packet, else None."""
    if packet[0] >> 4 != PUBLISH:
        return None
    at = 1
    while packet[at] & 0x80:
        at += 1
    at += 1
    size = int.from_bytes(packet[at : at + 2], "big")
    topic = packet[at + 2 : at + 2 + size].decode("utf-8", "replace")
    body = at + 2 + size + (2 if (packet[0] >> 1) & 3 else 0)
    return topic, packet[body:], at


class RetainDropper(TcpProxy):
    """127.0.0.1:port → the broker; :meth:`arm` makes the next matching PUBLISH live-only (and maybe the last)."""

    def __init__(self, target_port: int) -> None:
        self._pattern: re.Pattern[str] | None = None
        self._cut_after = False
        self._type: str | None = None
        self._seal: RoomSeal | None = None
        #: (topic, payload) of the PUBLISH whose copy the broker was kept from retaining.
        self.dropped: tuple[str, bytes] | None = None
        self.fired = threading.Event()
        super().__init__(target_port)

    def arm(
        self, topic: str, cut_after: bool = False, entry_type: str | None = None, seal: RoomSeal | None = None
    ) -> None:
        """The next PUBLISH on a topic matching ``topic`` (a regex), of an entry of ``entry_type`` if given,
        is not retained; cut the client off then.  With ``seal`` (the room's), topics and payloads are
        read inside it, and :attr:`dropped` holds the logical topic and the plain payload."""
        self.dropped, self._cut_after, self._type, self._seal = None, cut_after, entry_type, seal
        self.fired.clear()
        self._pattern = re.compile(topic)

    def _from_client(self, data: bytes, pending: bytearray, broker: socket.socket) -> bool:
        """The client's packets, read whole, go on to the broker (the armed one rewritten); False after the cut."""
        pending += data
        for packet in _packets(pending):
            broker.sendall(self._rewrite(packet))
            if self.fired.is_set() and self._cut_after:
                self._cut_after = False
                self.cut()  # and refuse every new connection until restore()
                return False
        return True

    def _rewrite(self, packet: bytes) -> bytes:
        found = _publish(packet)
        pattern = self._pattern
        if found is not None and self._seal is not None:
            opened = self._seal.open(found[0], found[1])
            found = (opened[0], opened[1], found[2]) if opened is not None else None
        if found is None or pattern is None or not packet[0] & RETAIN or not pattern.search(found[0]):
            return packet
        head = peek(found[1])
        if self._type is not None and (head is None or head.type != self._type):
            return packet
        self._pattern = None
        self.dropped = (found[0], found[1])
        self.fired.set()
        return bytes([packet[0] & ~RETAIN]) + packet[1:]
