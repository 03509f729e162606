"""Invitations as the joiner pastes or types them: the link's full fingerprint and token, the readable
key as read out, the 16 letters of an older invitation refused with a reason, and the login a link lacks."""

from __future__ import annotations

import pytest

from client.i18n import LANGUAGE
from client.net.address import parse_invite, parse_relay_address, readable_fingerprint
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


def test_a_link_takes_the_login_typed_in_the_relay_box_for_its_relay() -> None:
    """A link never carries a login: the one typed for the same relay (host and port) goes with it."""
    key = SigningKey.generate()
    link = Invitation("127.0.0.1:18831", "ACDEFG", fingerprint(key.public_bytes())).link()
    address = parse_relay_address(parse_invite(link, "mqtt://alice:s3cret@127.0.0.1:18831").address)
    assert (address.host, address.port, address.username, address.password) == ("127.0.0.1", 18831, "alice", "s3cret")
    elsewhere = parse_relay_address(parse_invite(link, "mqtt://bob:other@relay.example.org:1883").address)
    assert (elsewhere.host, elsewhere.username, elsewhere.password) == ("127.0.0.1", None, None)


def test_the_login_sentence_says_where_the_login_goes_with_a_link() -> None:
    said = NetError("login-needed", address="127.0.0.1:1883").message()
    assert "user:password@" in said and "invitation link" in said, said
    for language in ("pl", "ru"):
        LANGUAGE.set(language)
        assert NetError("login-needed", address="127.0.0.1:1883").message() != said
    LANGUAGE.set("en")


def test_a_room_code_typed_with_a_relay_list_is_looked_for_on_the_first_the_others_its_fallbacks() -> None:
    """The internet section's default is the public relays' line, ``first, fallback, …``."""
    invite = parse_invite("kxprta", "mqtts://a.example:8883, wss://b.example:8084/mqtt")
    assert (invite.address, invite.code) == ("mqtts://a.example:8883", "KXPRTA")
    assert invite.fallbacks == ("wss://b.example:8084/mqtt",)
    assert parse_invite("KXPRTA", "relay.example.org").fallbacks == ()
