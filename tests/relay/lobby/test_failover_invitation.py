"""Fallback relays in the invitation: they travel in the link and in the words read out."""

from __future__ import annotations

import pytest

from relay.lobby.invitation import BadInvitation, Invitation, fingerprint, parse_invitation

FP = fingerprint(b"\x09" * 32)


def test_a_link_without_fallbacks_is_the_plain_room_link() -> None:
    invitation = Invitation("127.0.0.1:1883", "ACDEFG", FP)
    assert invitation.link() == f"sealed://127.0.0.1:1883/ACDEFG#{FP}"
    assert parse_invitation(invitation.link()).fallbacks == ()
    assert invitation.relays == ("127.0.0.1:1883",)


def test_fallbacks_round_trip_in_order_without_logins_and_are_read_out() -> None:
    fallbacks = ("backup.example:1884", "mqtts://ann:s3cret@third.example:8883", "wss://fourth.example/mqtt")
    invitation = Invitation("mqtts://relay.example:8883", "ACDEFG", FP, fallbacks)
    link = invitation.link()
    assert link.startswith("sealed+mqtts://relay.example:8883/ACDEFG?fallback=backup.example:1884&fallback=")
    assert link.endswith(f"#{FP}") and "s3cret" not in link and "ann" not in link
    back = parse_invitation(link)
    assert back.code == "ACDEFG" and back.fingerprint == FP and back.relay == "mqtts://relay.example:8883"
    assert back.fallbacks == ("backup.example:1884", "mqtts://third.example:8883", "wss://fourth.example/mqtt")
    assert back.relays == ("mqtts://relay.example:8883", *back.fallbacks)
    assert parse_invitation(back.link()) == back
    words = invitation.read_out()
    assert "fallback relays backup.example:1884, mqtts://third.example:8883" in words and "s3cret" not in words


def test_a_fallback_equal_to_the_relay_is_named_once() -> None:
    invitation = Invitation("relay.example:1883", "ACDEFG", FP, ("relay.example:1883", "b.example:1883"))
    assert invitation.relays == ("relay.example:1883", "b.example:1883")
    assert invitation.link().count("fallback=") == 1


@pytest.mark.parametrize(
    "query",
    ["other=x", "fallback=", "fallback=a%20b:1", "&".join(f"fallback=r{i}:1883" for i in range(8))],
)
def test_a_malformed_fallback_part_says_what_is_wrong(query: str) -> None:
    with pytest.raises(BadInvitation):
        parse_invitation(f"sealed://relay.example:1883/ACDEFG?{query}#{FP}")
