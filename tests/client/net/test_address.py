"""Invitations as the joiner pastes or types them: the link's full fingerprint and token, the readable
key as read out, and the 16 letters of an older invitation refused with a reason."""

from __future__ import annotations

import pytest

from client.net.address import parse_invite, readable_fingerprint
from client.net.errors import NetError
from protocol.crypto.signing import SigningKey
from relay.lobby.invitation import FINGERPRINT_LETTERS, READABLE_LETTERS, Invitation, fingerprint, invitation_token


def test_a_pasted_link_carries_the_full_fingerprint_and_the_token() -> None:
    key = SigningKey.generate()
    fp, token = fingerprint(key.public_bytes()), invitation_token(key, "ACDEFG")
    link = Invitation("relay.example.org:1883", "ACDEFG", fp, token=token).link()
    invite = parse_invite(link)
    assert (invite.code, invite.fingerprint, invite.token) == ("ACDEFG", fp, token)
    assert len(invite.fingerprint) == FINGERPRINT_LETTERS and token not in repr(invite)


def test_a_typed_key_is_the_readable_one_and_an_old_one_says_why_it_is_refused() -> None:
    fp = fingerprint(SigningKey.generate().public_bytes())
    typed = parse_invite("ACDEFG", "relay.example.org:1883", readable_fingerprint(fp).lower())
    assert typed.fingerprint == fp[:READABLE_LETTERS] and typed.token == ""
    with pytest.raises(NetError) as old:
        parse_invite("ACDEFG", "relay.example.org:1883", "KMTX-RCAP-WHEJ-FDNQ")
    assert "older version" in old.value.message() and "new invitation" in old.value.message()
    with pytest.raises(NetError) as old_link:
        parse_invite("sealed://relay.example.org:1883/ACDEFG#KMTXRCAPWHEJFDNQ")
    assert "older version" in old_link.value.message()
