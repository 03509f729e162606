"""The latency fast paths give exactly the answers of the plain computations they replace.

- ``Envelope.signed_bytes`` / ``body_bytes`` cut out of the wire bytes == canonical re-encoding;
- ``verify`` (libsodium alone, strict) accepts nothing OpenSSL refuses, and refuses what only a lax
  check accepts (small-order keys, for which anybody's "signature" verifies);
- a show checked forwards (one multiplication) == opening the slot, and a false key is still refused;
- an author's own action applied from the state it computed before signing == checking it in full.
"""

from __future__ import annotations

import dataclasses
import os

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.core import SeededStream, canonical_encode
from protocol.cards import Deck, SeatSecrets
from protocol.cards import deck as deck_module
from protocol.crypto.group import L, invert, mul, scalar_from, scalar_product
from protocol.crypto.signing import SigningKey, verify
from protocol.envelope import _signed_bytes, body_from_wire, entry_hash, parse, seal, unsigned_from_wire

EXAMPLES = int(os.environ.get("SEALED_FASTPATH_EXAMPLES", "60"))
KEY = SigningKey.generate(SeededStream(b"fastpaths", "k").token(32))
GAME = bytes(range(32, 64))  # the hash of some genesis

#: seq values at every msgpack integer-width boundary.
SEQS = [1, 2, 127, 128, 255, 256, 65535, 65536, (1 << 32) - 1]

leaf = st.one_of(
    st.integers(-(2**63), 2**64 - 1), st.binary(max_size=40), st.text(max_size=12), st.booleans(), st.none()
)
values = st.recursive(
    leaf,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.one_of(st.text(max_size=6), st.integers(0, 300)), inner, max_size=4),
    ),
    max_leaves=12,
)


def _reference_verify(public: bytes, data: bytes, sig: bytes) -> bool:
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(sig, data)
        return True
    except (InvalidSignature, ValueError, TypeError):
        return False


@pytest.mark.parametrize("seq", SEQS)
@pytest.mark.parametrize("room", ["r", "room-" + "x" * 59])
def test_signed_and_body_bytes_cut_from_the_wire_equal_the_canonical_encoding(seq: int, room: str) -> None:
    body = {"c": bytes(range(32)), "hash": bytes(32)}
    env = seal(KEY, room, seq, bytes(range(32)), 3, "seed-commit", body, game=GAME)
    assert unsigned_from_wire(env.data, env.seq) is not None  # the fast path is the one taken
    assert env.signed_bytes() == _signed_bytes(room, GAME, seq, env.prev, 3, "seed-commit", body)
    assert env.body_bytes() == canonical_encode(body)
    assert env.signed_by(KEY.public_bytes())


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    seq=st.sampled_from(SEQS),
    verb=st.text(max_size=8),
    args=st.lists(values, max_size=4),
    commits=st.dictionaries(st.integers(0, 99), st.binary(min_size=32, max_size=32), max_size=3),
)
def test_any_action_body_cuts_out_exactly(seq: int, verb: str, args: list, commits: dict) -> None:
    body = {"action": (verb, *args), "commits": commits, "keys": {}, "memo": b"", "hash": bytes(32)}
    env = seal(KEY, "room", seq, bytes(32), 1, "action", body, game=GAME)
    again = parse(env.data)
    assert again.signed_bytes() == _signed_bytes("room", GAME, seq, bytes(32), 1, "action", again.body)
    assert again.body_bytes() == canonical_encode(again.body)


def test_bytes_not_laid_out_as_an_envelope_fall_back_to_encoding() -> None:
    env = seal(KEY, "room", 5, bytes(32), 0, "seed-commit", {"c": bytes(32), "hash": bytes(32)}, game=GAME)
    assert unsigned_from_wire(b"\x80", 5) is None
    assert unsigned_from_wire(env.data, 300) is None  # a seq of another width: another layout, no cut
    assert body_from_wire(env.data[:40], 5) is None  # truncated: not found, never an exception
    assert body_from_wire(b"\x89\xa1v\x02\xa3seq\x05", 5) is None


def _signature_cases() -> list[tuple[bytes, bytes, bytes]]:
    """Honest, tampered and hostile (public, data, signature) triples."""
    stream = SeededStream(b"fastpaths", "sigs")
    cases = []
    for i in range(6):
        key = SigningKey.generate(stream.token(32))
        data = stream.token(1 + 37 * i)
        sig = key.sign(data)
        pub = key.public_bytes()
        cases.append((pub, data, sig))
        cases.append((pub, data + b"x", sig))
        for at in (0, 31, 32, 63):
            bad = bytearray(sig)
            bad[at] ^= 1 << (i % 8)
            cases.append((pub, data, bytes(bad)))
        # S + L: the same point equation with a non-canonical S (malleability); must be refused
        s = int.from_bytes(sig[32:], "little") + L
        if s < 1 << 256:
            cases.append((pub, data, sig[:32] + s.to_bytes(32, "little")))
        wrong = bytearray(pub)
        wrong[5] ^= 0x40
        cases.append((bytes(wrong), data, sig))
    identity = (1).to_bytes(32, "little")
    small_order = [
        identity,
        bytes(32),
        (2**255 - 20).to_bytes(32, "little"),  # -1: order 2
        bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"),  # order 8
        bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a"),  # order 8
        b"\xff" * 32,  # non-canonical
    ]
    data = b"hostile"
    for pub in small_order:
        # With a small-order key and R = identity, S = 0 satisfies the cofactorless equation.
        cases.append((pub, data, identity + bytes(32)))
        cases.append((pub, data, pub + bytes(32)))
        cases.append((pub, data, bytes(64)))
    return cases


def test_verify_is_strict_on_honest_tampered_and_hostile_signatures() -> None:
    cases = _signature_cases()
    verdicts = [verify(p, d, s) for p, d, s in cases]
    reference = [_reference_verify(p, d, s) for p, d, s in cases]
    assert all(ref for ok, ref in zip(verdicts, reference, strict=True) if ok)  # nothing OpenSSL refuses
    assert any(verdicts) and not all(verdicts)
    # The lax check accepts some small-order "signatures" that anybody can make; the verifier none.
    lax = [ref and not ok for ok, ref in zip(verdicts, reference, strict=True)]
    assert any(lax)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(pub=st.binary(min_size=32, max_size=32), data=st.binary(max_size=64), sig=st.binary(min_size=64, max_size=64))
def test_verify_accepts_nothing_openssl_refuses_on_arbitrary_bytes(pub: bytes, data: bytes, sig: bytes) -> None:
    assert not verify(pub, data, sig) or _reference_verify(pub, data, sig)


def _ready_deck() -> tuple[Deck, dict[int, SeatSecrets]]:
    seats, n = 3, 6
    deck = Deck("room-memo", seats, list(range(n)), list(range(20, 20 + n)))
    secrets = {s: SeatSecrets.generate(s, n, SeededStream(b"memo", f"seat/{s}")) for s in range(seats)}
    for s in range(seats):
        deck.accept_shuffle_pass(s, deck.make_shuffle_pass(secrets[s]))
    for s in range(seats):
        deck.accept_lock_pass(s, deck.make_lock_pass(secrets[s]))
    return deck, secrets


def test_a_show_is_checked_forwards_as_opening_would_and_false_keys_or_cards_are_refused() -> None:
    deck, secrets = _ready_deck()
    for i, slot in enumerate(deck.slots):
        seat = i % 3
        deck.deal(slot, seat)
        for other in range(3):
            if other != seat:
                deck.accept_key(other, slot, deck.key_for(slot, secrets[other]))
        own = deck.key_for(slot, secrets[seat])
        keys = [k for k, _ in deck._keys[deck.position(slot)].values()] + [own]
        fresh = mul(deck.locks[-1][deck.position(slot)], invert(scalar_product(keys)))
        card = deck.open_slot(slot, own)
        assert deck._card_of[fresh] == card
        # Opening one's own card keeps nothing: the key is still secret and the card private.
        assert not any(own in question for question in deck._shows)
        assert deck.verify_shown(slot, own, card)  # a show: its key is public, the verdict is kept
        assert deck._shows[(deck.locks[-1][deck.position(slot)], deck.initial[deck.cards.index(card)], *keys)]
        assert deck.verify_shown(slot, own, card)  # from the memo
        other_card = next(c for c in deck.cards if c != card)
        assert not deck.verify_shown(slot, own, other_card)  # the right key, a card not held
        assert not deck.verify_shown(slot, own, 10_000)  # not a card of this round
        assert not deck.verify_shown(slot, own, [card])  # not even hashable
        false_key = scalar_from(SeededStream(b"memo", f"false/{slot}").token(64))
        assert not deck.verify_shown(slot, false_key, card)
        assert not deck.verify_shown(slot, false_key, card)  # a memoised miss is still a miss
        assert not deck.verify_shown(slot, b"\x00" * 32, card)  # the zero scalar
        deck.accept_shown(seat, slot, own, card)
        assert deck.shown(slot) == card


def test_the_show_memo_stays_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(deck_module, "SHOW_MEMO", 3)
    deck, secrets = _ready_deck()
    slot = deck.slots[0]
    deck.deal(slot, 0)
    for other in (1, 2):
        deck.accept_key(other, slot, deck.key_for(slot, secrets[other]))
    for i in range(10):
        deck.verify_shown(slot, scalar_from(SeededStream(b"memo", f"b/{i}").token(64)), 20)
        assert len(deck._shows) <= 3
    own = deck.key_for(slot, secrets[0])
    assert deck.verify_shown(slot, own, deck.open_slot(slot, own))


def test_the_kept_digest_is_the_entry_hash_and_is_not_carried_to_a_changed_copy() -> None:
    env = seal(KEY, "room", 7, bytes(32), 2, "seed-commit", {"c": bytes(32), "hash": bytes(32)}, game=GAME)
    assert env.digest == entry_hash(env.data)
    assert env.digest == entry_hash(env.data)  # the kept value
    assert env == parse(env.data)  # the kept digest takes no part in equality
    other = dataclasses.replace(env, data=env.data + b"\x00")
    assert other.digest == entry_hash(other.data) != env.digest


def test_an_authors_own_action_is_taken_from_its_own_computation_and_ends_in_the_same_state(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from protocol import table as table_module
    from tests.protocol.helpers import lockstep, run_lockstep

    taken: dict[str, list[tuple[int, int]]] = {"own": [], "checked": []}
    on_action = table_module.Table._on_action

    def watched(self, env, own=None):  # type: ignore[no-untyped-def]
        taken["checked" if own is None else "own"].append((env.seq, env.seat))
        return on_action(self, env, own)

    monkeypatch.setattr(table_module.Table, "_on_action", watched)
    peers = lockstep("system-launch", 3, b"own-action")
    run_lockstep(peers)
    assert all(p.finished and p.verdict.fair for p in peers)
    assert len({p.state.hash() for p in peers}) == 1
    # Every action: its author took it from its own computation, the two other seats checked it.
    actions = sorted(set(taken["own"]))
    assert actions and len(taken["own"]) == len(actions)
    assert sorted(taken["checked"]) == sorted(a for a in actions for _ in range(2))


def test_an_own_action_that_is_not_the_signed_one_is_checked_in_full_and_a_false_state_is_caught() -> None:
    from protocol.errors import Misconduct
    from protocol.table import OwnAction
    from tests.protocol.helpers import lockstep, run_lockstep

    peers = lockstep("system-launch", 3, b"own-mismatch")
    run_lockstep(peers, until_seq=40)
    seat = next(s for s, p in enumerate(peers) if p.legal_actions())
    author = peers[seat]
    action = author.legal_actions()[0]
    author.submit(action, settle=False)
    prepared = author._writer.prepared
    env = parse(author.take_outgoing()[0].data)
    assert prepared is not None and prepared.matches(env)
    # A prepared action that differs from the signed entry is ignored: the entry is checked in full.
    assert not dataclasses.replace(prepared, hash=bytes(32)).matches(env)
    assert not dataclasses.replace(prepared, seq=env.seq + 1).matches(env)
    # A prepared state that is not the signed one is still caught by the state hash.
    wrong = dataclasses.replace(prepared, state=peers[(seat + 1) % 3].state.clone())
    table = peers[(seat + 1) % 3].table
    with pytest.raises(Misconduct, match="false state hash"):
        table.apply(env, wrong)
    assert isinstance(prepared, OwnAction)


@pytest.mark.parametrize(("game", "at"), [("system-launch", 25), ("toy", 8)])
def test_the_kept_state_hash_is_always_the_hash_of_the_state_leavers_included(
    game: str, at: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    from protocol import table as table_module
    from tests.protocol.helpers import lockstep, run_lockstep

    apply = table_module.Table.apply
    compared = []

    def checked_apply(self, env, own=None):  # type: ignore[no-untyped-def]
        apply(self, env, own)
        compared.append(env.type)
        assert self.state_hash() == self.state.hash()

    monkeypatch.setattr(table_module.Table, "apply", checked_apply)
    peers = lockstep(game, 3, b"kept-hash/" + game.encode())
    run_lockstep(peers, until_seq=at)
    assert not peers[2].finished
    peers[2].leave()  # a forfeit: the state changes in place
    run_lockstep(peers)
    assert peers[0].finished and peers[0].verdict.fair
    assert "gone" in compared and len(set(compared)) > 3
