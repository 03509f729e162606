"""Every signature is bound to one game; keys are checked where they enter; bounds hold.

Attacks staged here, each against honest peers of real sessions:

- a seat leaves after a Hacker Attack style delivery; a third seat tries every
  32-byte value of the leave notice as a key to the delivery the leaver received;
- seat cards with a low-order X25519 key or a small-order Ed25519 key; a key that
  got past validation makes a sealing seat's session fail (it must not raise, and must
  name the key's holder);
- the entries and a leave notice of an earlier game in the same room code (same
  seat keys) are replayed into a new game; one seat signs a second entry for one seq
  on another chain;
- bounds: a 1 ms timeout in a genesis, a flood of large entries before the genesis,
  booleans where integers are meant.
"""

from __future__ import annotations

import pytest

from engines.core import RandomBot, SeededStream
from protocol.crypto.signing import SigningKey, verify
from protocol.envelope import parse
from protocol.events import CheatDetected, Rejected
from protocol.schema import check_body
from protocol.session import PeerSession
from protocol.sim.network import classify, play
from protocol.table import SeatInfo
from tests.protocol.helpers import _byte_strings, _opens_with

GAME = "toy"


def _keys(seed: bytes, players: int) -> list[SigningKey]:
    return [SigningKey.generate(SeededStream(seed, f"sign/{s}").token(32)) for s in range(players)]


def _secrets(seed: bytes, players: int, label: str) -> list[bytes]:
    return [SeededStream(seed, f"{label}/secret/{s}").token(32) for s in range(players)]


def _room(room: str, keys: list[SigningKey], secrets: list[bytes], cards: list[SeatInfo] | None = None):
    """Sessions for every seat of a toy game (seat 0 creates), nothing delivered yet."""
    cards = cards or [PeerSession.seat_card(f"p{s}", k, x) for s, (k, x) in enumerate(zip(keys, secrets, strict=True))]
    peers = [PeerSession.create(room, GAME, {}, cards, keys[0], secrets[0])]
    peers += [
        PeerSession.join(room, s, keys[s], secrets[s], creator=keys[0].public_bytes()) for s in range(1, len(keys))
    ]
    return peers


class Driver:
    """Lockstep delivery among ``peers``; records every message sent (the relay's view)."""

    def __init__(self, peers: list[PeerSession], prefer: dict[int, tuple] | None = None) -> None:
        self.peers = peers
        self.wire: list[bytes] = []
        self.prefer = prefer or {}
        self.bots = [RandomBot(s, b"binding") for s in range(len(peers))]
        self.events: list = []

    def inject(self, data: bytes) -> None:
        for peer in self.peers:
            self.events += peer.receive(data, 0)

    def run(self, until=None, rounds: int = 20_000) -> None:
        for _ in range(rounds):
            if until is not None and until():
                return
            moved = False
            for s, peer in enumerate(self.peers):
                for out in peer.take_outgoing() + peer.take_notices():
                    self.wire.append(out.data)
                    for t, other in enumerate(self.peers):
                        if t != s:
                            self.events += other.receive(out.data, 0)
                    moved = True
            if moved:
                continue
            for s, peer in enumerate(self.peers):
                if peer.finished or peer.table is None or peer.left:
                    continue
                exp = peer.table.expected()
                if exp is not None and exp.writer == s and exp.type == "action":
                    legal = peer.legal_actions()
                    wanted = [a for a in legal if a[: len(self.prefer.get(s, ()))] == self.prefer.get(s)]
                    choice = (
                        wanted[0] if wanted and self.prefer.get(s) else self.bots[s].choose(peer.state, None, legal)
                    )
                    self.events += peer.submit(choice)
                    moved = True
                    break
            if not moved:
                return


def _assert_fair(peers: list[PeerSession], events: list) -> None:
    cheats = [e for e in events if isinstance(e, CheatDetected)]
    assert not cheats, cheats
    for peer in peers:
        assert peer.finished and peer.verdict is not None and peer.verdict.fair, peer.verdict


# -- replays from an earlier game in the same room code ----------------------------------------
SEED = b"binding/replay"


def _earlier_game(leave_at: int | None = None) -> list[bytes]:
    """Game A in room "reused": played to its end (or seat 2 leaves at entry ``leave_at``); its wire."""
    keys = _keys(SEED, 3)
    peers = _room("reused", keys, _secrets(SEED, 3, "A"))
    driver = Driver(peers)
    if leave_at is not None:
        driver.run(until=lambda: peers[0].table is not None and peers[0].table.head >= leave_at)
        peers[2].leave()
    driver.run()
    return driver.wire


def _later_game() -> tuple[list[PeerSession], Driver]:
    """Game B in the same room, the same seats with the same long-term keys, fresh per-game secrets."""
    peers = _room("reused", _keys(SEED, 3), _secrets(SEED, 3, "B"))
    return peers, Driver(peers)


def test_entries_of_an_earlier_game_in_the_same_room_frame_nobody():
    old = _earlier_game()
    peers, driver = _later_game()
    for data in old:  # a relay that kept the old game's retained messages hands them out first...
        driver.inject(data)
    driver.run(until=lambda: peers[0].table.head >= 8)
    for data in old:  # ...and again mid-game
        driver.inject(data)
    driver.run()
    _assert_fair(peers, driver.events)
    assert any(isinstance(e, Rejected) and e.code == "wrong-game" for e in driver.events)


def test_a_leave_notice_of_an_earlier_game_does_not_remove_its_seat():
    old = _earlier_game(leave_at=10)
    leaves = [d for d in old if parse(d).type == "leave"]
    assert len(leaves) == 1 and parse(leaves[0]).seat == 2
    peers, driver = _later_game()
    driver.run(until=lambda: peers[0].table.head >= 6)
    driver.inject(leaves[0])
    driver.run()
    _assert_fair(peers, driver.events)
    assert all(2 not in peer.table.gone for peer in peers)


def test_a_second_entry_on_another_chain_is_not_an_equivocation():
    from protocol.envelope import seal

    keys = _keys(SEED, 3)
    peers, driver = _later_game()
    first = peers[0].take_outgoing()  # the genesis and seat 0's first seed commitment
    for peer in peers[1:]:
        peer.receive(first[0].data, 0)
    game_id = peers[1].table.game_id
    commit = parse(first[1].data)

    def stray(env):
        """``env`` signed again by its author, for this game, chained to no entry of this log."""
        return seal(
            keys[env.seat], "reused", env.seq, bytes(range(32)), env.seat, env.type, dict(env.body), game=game_id
        )

    driver.inject(stray(commit).data)  # before the real entry: it waits in the buffer beside it
    for out in first[1:]:
        driver.inject(out.data)
    driver.run(until=lambda: peers[0].table.head >= 6)
    driver.inject(stray(peers[0].table.log[2]).data)  # after the real entry was applied
    driver.run()
    _assert_fair(peers, driver.events)






def test_a_leave_notice_does_not_open_the_delivery_the_leaver_received():
    keys, secrets = _keys(b"binding/leave", 3), _secrets(b"binding/leave", 3, "L")
    peers = _room("leave-room", keys, secrets)
    driver = Driver(peers, prefer={1: ("peek", 2), 0: ("pass",), 2: ("pass",)})
    received = lambda: [d for d in peers[0].table.deliveries if d[2] == 1] if peers[0].table else []  # noqa: E731
    driver.run(until=lambda: bool(received()))
    assert received(), "no delivery to seat 1 was made"
    driver.run(until=lambda: peers[0].table.expected() is None or peers[0].table.expected().writer != 2)
    events = peers[1].leave()
    assert not any(isinstance(e, Rejected) for e in events)
    notice = next(parse(o.data) for o in peers[1].take_notices() if parse(o.data).type == "leave")
    third = peers[0].table
    candidates = set(_byte_strings(notice.body))
    assert candidates, "the leave notice publishes no key at all"
    for delivery in received():
        assert not any(_opens_with(c, delivery, third) for c in candidates), "the victim's hand is readable"
    # The game goes on without the leaver, and the audit still checks every delivery that was made.
    driver.inject(notice.data)
    driver.run()
    for peer in (peers[0], peers[2]):
        assert peer.finished and peer.verdict is not None and peer.verdict.fair, peer.verdict


class FalseDelivery(PeerSession):
    """Seals one false key into the delivery it owes (the target cannot open that card)."""

    def _seal_to(self, target, seq, plain, size=None):
        if target == self.seat:  # its own memos stay honest
            return super()._seal_to(target, seq, plain, size)
        import hashlib

        from engines.core import canonical_encode, decode
        from protocol.crypto.group import scalar_from

        keys = [list(pair) for pair in decode(plain)["keys"]]
        keys[0][1] = scalar_from(hashlib.sha512(b"a false delivered key").digest())
        return super()._seal_to(target, seq, canonical_encode({"keys": keys}), size)


def test_the_audit_still_opens_every_delivery_and_names_a_false_one():
    keys, secrets = _keys(b"binding/false", 3), _secrets(b"binding/false", 3, "F")
    cards = [PeerSession.seat_card(f"p{s}", k, x) for s, (k, x) in enumerate(zip(keys, secrets, strict=True))]
    peers = [PeerSession.create("false-room", GAME, {}, cards, keys[0], secrets[0])]
    peers.append(PeerSession.join("false-room", 1, keys[1], secrets[1], creator=keys[0].public_bytes()))
    peers.append(FalseDelivery("false-room", 2, keys[2], secrets[2], creator=keys[0].public_bytes()))
    driver = Driver(peers, prefer={1: ("peek", 2)})
    driver.run()
    assert any(d[1] == 2 for d in peers[0].table.deliveries)
    for peer in peers[:2]:
        assert peer.verdict is not None and not peer.verdict.fair and peer.verdict.seat == 2, peer.verdict


class FalseDeliveryKey(PeerSession):
    """Delivers honestly, then publishes another key than its box's for it at the end."""

    def _delivery_keys(self):
        return {seq: bytes(range(7, 39)) for seq in super()._delivery_keys()}


def test_a_published_delivery_key_that_is_not_the_boxs_names_its_seat():
    keys, secrets = _keys(b"binding/falsekey", 3), _secrets(b"binding/falsekey", 3, "K")
    cards = [PeerSession.seat_card(f"p{s}", k, x) for s, (k, x) in enumerate(zip(keys, secrets, strict=True))]
    peers = [PeerSession.create("fk-room", GAME, {}, cards, keys[0], secrets[0])]
    peers.append(PeerSession.join("fk-room", 1, keys[1], secrets[1], creator=keys[0].public_bytes()))
    peers.append(FalseDeliveryKey("fk-room", 2, keys[2], secrets[2], creator=keys[0].public_bytes()))
    driver = Driver(peers, prefer={1: ("peek", 2)})
    driver.run()
    assert any(d[1] == 2 for d in peers[0].table.deliveries)
    for peer in peers[:2]:
        verdict = peer.verdict
        assert verdict is not None and verdict.seat == 2 and "delivery key" in verdict.reason, verdict


# -- invalid keys in seat cards ----------------------------------------------------------------
IDENTITY = (1).to_bytes(32, "little")


def test_the_one_verifier_refuses_what_anybody_can_sign_for_a_small_order_key():
    # R = identity, S = 0: the cofactorless equation holds for the identity key and any message.
    assert not verify(IDENTITY, b"any move at all", IDENTITY + bytes(32))
    key = SigningKey.generate(bytes(range(32)))
    assert verify(key.public_bytes(), b"m", key.sign(b"m"))


@pytest.mark.parametrize(
    ("field", "bad"),
    [("box", bytes(32)), ("box", (1).to_bytes(32, "little")), ("sign", IDENTITY), ("sign", bytes(32))],
)
def test_a_seat_card_with_an_invalid_key_is_refused_before_the_game(field, bad):
    keys, secrets = _keys(b"binding/cards", 3), _secrets(b"binding/cards", 3, "C")
    cards = [PeerSession.seat_card(f"p{s}", k, x) for s, (k, x) in enumerate(zip(keys, secrets, strict=True))]
    body = cards[1].as_body()
    body[field] = bad
    cards[1] = SeatInfo(**body)
    with pytest.raises(ValueError) as info:  # SeatCardError, a ValueError
        PeerSession.create("cards-room", GAME, {}, cards, keys[0], secrets[0])
    assert getattr(info.value, "seat", None) == 1, info.value


def test_a_genesis_holding_an_invalid_key_is_refused_by_every_joiner():
    from protocol.envelope import GENESIS_GAME, ZERO_HASH, seal

    keys, secrets = _keys(b"binding/genesis", 3), _secrets(b"binding/genesis", 3, "G")
    cards = [PeerSession.seat_card(f"p{s}", k, x).as_body() for s, (k, x) in enumerate(zip(keys, secrets, strict=True))]
    cards[2] = dict(cards[2], box=bytes(32))
    body = {"game": GAME, "options": {}, "seats": cards, "nonce": bytes(32), "timeout_ms": 120_000}
    genesis = seal(keys[0], "g-room", 0, ZERO_HASH, 0, "genesis", body, game=GENESIS_GAME)
    for joiner in (PeerSession.join("g-room", 1, keys[1], secrets[1]), PeerSession.observe("g-room")):
        events = joiner.receive(genesis.data, 0)
        assert joiner.table is None
        assert any(isinstance(e, Rejected) and e.code == "genesis" and "seat 2" in e.reason for e in events), events


@pytest.mark.parametrize("entry_point", ["tick", "settle"])
def test_a_key_that_got_past_validation_names_its_holder_and_never_raises(entry_point):
    keys, secrets = _keys(b"binding/slip", 3), _secrets(b"binding/slip", 3, "S")
    peers = _room("slip-room", keys, secrets)
    driver = Driver(peers, prefer={1: ("peek", 2), 0: ("pass",), 2: ("pass",)})
    driver.run(until=lambda: all(p.table is not None for p in peers))
    for peer in peers:  # as if seat 1's low-order agreement key had been let in
        peer.table.seats[1] = SeatInfo("p1", keys[1].public_bytes(), bytes(32))
    victim = peers[2]  # seat 1 peeks at it: it must seal its hand to seat 1's key, and cannot
    driver.run(until=lambda: victim.finished or victim.table.expected().type == "deliver")
    events = getattr(victim, entry_point)(*((10**9,) if entry_point == "tick" else ()))  # must not raise
    events += driver.events
    assert victim.verdict is not None and victim.verdict.seat == 1, victim.verdict
    assert any(isinstance(e, CheatDetected) and e.seat == 1 for e in events)


@pytest.mark.parametrize(
    ("cheat", "game"), [("low-order-agreement-key", "system-launch"), ("small-order-signing-key", "toy")]
)
def test_the_seat_card_cheats_are_caught_and_attributed(cheat, game):
    run = play(game, 3, f"binding/{cheat}".encode(), cheat, 2)
    assert run.verdicts and all(classify(v) == f"{cheat} by seat 2" for v in run.verdicts.values()), run.verdicts


# -- bounds -------------------------------------------------------------------------------------
def test_a_joiner_refuses_a_genesis_timeout_outside_the_range_unless_told_to_accept_it():
    from protocol.schema import MAX_TIMEOUT_MS, MIN_TIMEOUT_MS

    keys, secrets = _keys(b"binding/timeout", 2), _secrets(b"binding/timeout", 2, "T")
    cards = [PeerSession.seat_card(f"p{s}", k, x) for s, (k, x) in enumerate(zip(keys, secrets, strict=True))]
    assert (MIN_TIMEOUT_MS, MAX_TIMEOUT_MS) == (30_000, 7 * 24 * 3600 * 1000)
    with pytest.raises(ValueError, match="timeout"):
        PeerSession.create("t-room", GAME, {}, cards, keys[0], secrets[0], timeout_ms=1)
    host = PeerSession.create("t-room", GAME, {}, cards, keys[0], secrets[0], timeout_ms=1, dev_timeout_ms=1)
    genesis = host.take_outgoing()[0].data
    real = PeerSession.join("t-room", 1, keys[1], secrets[1])
    events = real.receive(genesis, 0)
    assert real.table is None
    assert any(isinstance(e, Rejected) and e.code == "genesis" and "timeout" in e.reason for e in events), events
    test_peer = PeerSession.join("t-room", 1, keys[1], secrets[1], dev_timeout_ms=1)
    test_peer.receive(genesis, 0)
    assert test_peer.table is not None and test_peer.table.timeout_ms == 1
    for fine in (MIN_TIMEOUT_MS, MAX_TIMEOUT_MS):
        PeerSession.create("t-room", GAME, {}, cards, keys[0], secrets[0], timeout_ms=fine)
    with pytest.raises(ValueError):
        PeerSession.create("t-room", GAME, {}, cards, keys[0], secrets[0], timeout_ms=MAX_TIMEOUT_MS + 1)


def test_entries_before_the_genesis_are_bounded_by_bytes_as_well_as_count():
    from protocol.envelope import seal
    from protocol.session import MAX_EARLY_BYTES

    stranger = SigningKey.generate(bytes(32))
    joiner = PeerSession.join("flood", 1, *_keys(b"binding/flood", 2)[1:], SeededStream(b"f").token(32))
    kept, refused = 0, 0
    size = 0
    for seq in range(1, MAX_EARLY_BYTES // 60_000 + 8):
        body = {"target": 1, "reason": "silent", "proofs": (bytes([seq % 256]) * 60_000,), "hash": bytes(32)}
        env = seal(stranger, "flood", seq, bytes(32), 0, "gone", body, game=bytes([7]) * 32)
        events = joiner.receive(env.data, 0)
        if any(isinstance(e, Rejected) and e.code == "no-genesis" for e in events):
            refused += 1
        else:
            kept += 1
            size += len(env.data)
    assert refused > 0 and size <= MAX_EARLY_BYTES, (kept, refused, size)


def _leave(secrets: dict | None = None, escrow: dict | None = None) -> dict:
    """A leave notice body, valid but for what is given."""
    fields = {"cards": {}, "sealed": {}, "deliveries": {}, "escrow": {}, **(secrets or {})}
    return {"secrets": fields, "escrow": escrow or {"box": b"", "shares": {}}}


@pytest.mark.parametrize(
    ("type_", "body"),
    [
        ("vote", {"target": True}),
        ("reveal", {"secret": True, "value": 1, "salt": bytes(32), "hash": bytes(32)}),
        ("keys", {"keys": {True: bytes(32)}, "hash": bytes(32)}),
        ("action", {"action": ("place",), "commits": {False: bytes(32)}, "keys": {}, "memo": b"", "hash": bytes(32)}),
        ("gone", {"target": False, "reason": "left", "proofs": (b"x",), "hash": bytes(32)}),
        ("leave", _leave({"sealed": {True: (bytes(32), 1)}})),
        ("leave", _leave({"deliveries": {True: bytes(32)}})),
        ("leave", _leave({"sealed": {1: (b"short", 1)}})),
        ("leave", _leave({"escrow": {True: bytes(32)}})),
        ("leave", _leave(escrow={"box": b"", "shares": {False: {"box": b"", "digest": bytes(32)}}})),
    ],
)
def test_the_schema_takes_exactly_the_types_it_means(type_, body):
    assert check_body(type_, body) is not None
    assert check_body("leave", _leave()) is None  # each case above differs from a valid body in one field
