"""A LAN host's room is shown and invited at the address friends use, not at this machine's loopback."""

from __future__ import annotations

from client.net.address import RelayAddress
from client.net.hosting import Hosting
from relay.broker import embedded


def test_the_embedded_relay_names_its_network_address():
    relay = embedded.EmbeddedRelay(embedded.RelayConfig(host="0.0.0.0", port=1883, zeroconf_interfaces=["192.0.2.5"]))
    assert relay.address == "127.0.0.1:1883", "this machine talks to it on loopback"
    assert relay.lan_address == "192.0.2.5:1883", "friends reach it at the announced address"
    pinned = embedded.EmbeddedRelay(embedded.RelayConfig(host="192.0.2.9", port=1884))
    assert pinned.lan_address == "192.0.2.9:1884"


def test_the_hosts_invitation_carries_the_address_friends_use(tmp_path):
    hosting = Hosting(
        RelayAddress("127.0.0.1", 1883),
        "system-launch",
        3,
        "Host",
        tmp_path,
        shown_address=RelayAddress("192.0.2.5", 1883),
    )
    invitation = hosting.invitation()
    assert invitation.relay == "192.0.2.5:1883"
    assert "192.0.2.5" in invitation.link() and "127.0.0.1" not in invitation.link()
    assert hosting.address == RelayAddress("127.0.0.1", 1883), "the host itself still connects on loopback"
