"""One relay address parser for every part of the program: the MQTT URI forms, and passwords kept out of sight."""

from __future__ import annotations

import re

import pytest

from relay.address import AddressError, RelayAddress, client_id, parse_address, redact
from relay.errors import RelayError


@pytest.mark.parametrize(
    ("text", "scheme", "host", "port", "path", "user", "password"),
    [
        ("relay.example.org", "mqtt", "relay.example.org", 1883, "", None, None),
        ("relay.example.org:1884", "mqtt", "relay.example.org", 1884, "", None, None),
        ("[2001:db8::1]:1885", "mqtt", "2001:db8::1", 1885, "", None, None),
        ("mqtt://relay.example.org/", "mqtt", "relay.example.org", 1883, "", None, None),
        ("mqtts://relay.example.org", "mqtts", "relay.example.org", 8883, "", None, None),
        ("MQTTS://[::1]:9883", "mqtts", "::1", 9883, "", None, None),
        ("ws://relay.example.org:8083", "ws", "relay.example.org", 8083, "/mqtt", None, None),
        ("wss://relay.example.org/broker/ws", "wss", "relay.example.org", 443, "/broker/ws", None, None),
        ("ws://relay.example.org", "ws", "relay.example.org", 80, "/mqtt", None, None),
        ("mqtts://alice:s3cret@relay.example.org", "mqtts", "relay.example.org", 8883, "", "alice", "s3cret"),
        ("alice@relay.example.org:1883", "mqtt", "relay.example.org", 1883, "", "alice", None),
        ("mqtt://al%40ce:p%3Ass@[::1]", "mqtt", "::1", 1883, "", "al@ce", "p:ss"),
        ("ws://bob:pw@10.0.0.2:8083/mqtt", "ws", "10.0.0.2", 8083, "/mqtt", "bob", "pw"),
        ("tcp://relay.example.org", "mqtt", "relay.example.org", 1883, "", None, None),
        ("ssl://relay.example.org:9", "mqtts", "relay.example.org", 9, "", None, None),
        ("2001:db8::1", "mqtt", "2001:db8::1", 1883, "", None, None),
        ("Relay.Example.org:1884", "mqtt", "Relay.Example.org", 1884, "", None, None),
        ("carol:p#ss?w@relay.example.org", "mqtt", "relay.example.org", 1883, "", "carol", "p#ss?w"),
        ("carol:p@ss@relay.example.org", "mqtt", "relay.example.org", 1883, "", "carol", "p@ss"),
        ("carol:ab%2Fcd@relay.example.org", "mqtt", "relay.example.org", 1883, "", "carol", "ab/cd"),
        ("wss://relay.example.org/mqtt?token=1", "wss", "relay.example.org", 443, "/mqtt?token=1", None, None),
    ],
)
def test_every_address_form(text, scheme, host, port, path, user, password):
    a = parse_address(text)
    assert (a.scheme, a.host, a.port, a.path, a.username, a.password) == (scheme, host, port, path, user, password)
    assert parse_address(a) is a  # a parsed address travels as it is (its password with it)
    assert parse_address(str(a)).with_options(password=password) == a  # str() reads back, without the password


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "no relay address"),
        ("host:port", "not a port"),
        ("host:70000", "not a port"),
        ("http://relay.example.org", "not a relay scheme"),
        ("mqtt://relay.example.org/path", "only ws:// and wss://"),
        ("[::1:1883", "IPv6"),
        ("mqtts://:pw@host", "empty user name"),
        ("mqtts://alice:pw@", "no host"),
        ("host:0", "not a port"),
        ("mqtt://relay.example.org?x", "only ws:// and wss://"),
        ("ws://relay.example.org/mqtt#top", "'#' part"),
        ("[not-an-ip]:1883", "IPv6"),
        ("[::1]x", "IPv6"),
        ("ho st", "no host"),
        ("carol:pw/more@relay.example.org", "a '/' in a password is written %2F"),
        ("mqtts://carol:pw@relay.example.org:port", "not a port"),
    ],
)
def test_bad_addresses_are_refused_in_words_without_their_password(text, words):
    with pytest.raises(AddressError, match=re.escape(words)) as err:
        parse_address(text)
    assert isinstance(err.value, RelayError)
    assert "pw" not in str(err.value).replace("***", "")


def test_the_password_is_in_no_string_of_an_address():
    a = parse_address("mqtts://alice:hunter22@relay.example.org:8883", ca_file="/etc/ca.pem")
    for shown in (str(a), repr(a), f"{a}", redact("mqtts://alice:hunter22@relay.example.org")):
        assert "hunter22" not in shown
    assert str(a) == "mqtts://alice@relay.example.org:8883" and a.ca_file == "/etc/ca.pem"
    assert str(RelayAddress("127.0.0.1", 1884)) == "127.0.0.1:1884"  # plain MQTT without a login: host:port


def test_client_identifiers_are_short_letters_and_digits():
    for kind in ("", "p", "lobby", "probe", "a-very-long-kind-with-dashes"):
        cid = client_id(kind)
        assert 1 <= len(cid) <= 23 and cid.isascii() and cid.isalnum(), cid
    assert len({client_id("p") for _ in range(100)}) == 100
