"""Relay: the embedded broker, Mosquitto configuration, discovery and the MQTT transport.

The pieces, one job each (import the module you need; ``import relay`` alone loads nothing):

- :mod:`relay.broker.embedded` — ``EmbeddedRelay(RelayConfig(...))``: an amqtt broker, ``await start()`` /
  ``await stop()`` from a running loop ("host a LAN game"); ``python -m relay`` runs one.
- :mod:`relay.broker.discovery` — ``await browse(timeout)`` → ``[RelayInfo(name, host, port, ...)]``.
- :mod:`relay.lobby.host` — ``RoomHost(..., key=, admit=, listed=, timeout_ms=).gather()`` (with
  ``accept`` / ``refuse`` / ``remove`` for the host's decisions, ``take_seat`` / ``seat_local`` /
  ``free_local`` / ``start`` for seat picking and bot seats, ``invitation()``, ``close()``).
- :mod:`relay.lobby.join` — ``await join_room(relay, code, ..., key=, host_key=, seat=, until_started=,
  on_update=)`` → ``Seated(seat, lobby, creator, host_key)``; ``await peek_room(relay, code, host_key)``.
- :mod:`relay.lobby.listing` — ``await list_rooms(relay)``: the open listed rooms' checked cards.
- The lobby's signed messages are in :mod:`relay.lobby.messages`, seat-card checks in
  :mod:`relay.lobby.seat_card`, room codes (``new_code()`` / ``normalize_code(text)``), invitation links
  and host key fingerprints in :mod:`relay.lobby.invitation`, the reads the three share in
  :mod:`relay.lobby.retained`.
- :mod:`relay.transport.room` — ``RoomTransport(relay, session, peer_id, driver).run()`` keeps a
  ``protocol.session.PeerSession`` in step with its room; ``await check_relay("host:port")``.
- :mod:`relay.transport.failover` — ``FailoverTransport([relay, *fallbacks], session, peer_id, driver,
  failover_s=, handover=)``: a ``RoomTransport`` that moves the game to the room's next relay when
  its relay stays unreachable, or at once with ``move_to(address)`` / ``move_next()``.
- :mod:`relay.transport.handover` — ``Handover(session, key, interfaces=)``: on a LAN, when the room's relay
  dies, a surviving seat starts one and announces it signed; the others find it with zeroconf.
- :mod:`relay.errors` — ``RelayError`` and its kinds (``RelayUnreachable``, ``NotARelay``,
  ``RoomNotFound``, ``RoomFull``, ``SeatTaken``, ``NoSuchSeat``, ``RoomClosed``); ``str(error)``
  is a message for people.
- :mod:`relay.broker.mosquitto_config` — the shipped Mosquitto configuration, re-pointed (tests, benchmarks).
- :mod:`relay.address` — ``parse_address(text)`` → ``RelayAddress`` (every form a relay is written in;
  ``str()`` never shows the password); :mod:`relay.mqtt` — ``mqtt_client(address, kind)``, the aiomqtt
  client every module connects with; :mod:`relay.background` — ``keep(task)`` for work not awaited.
"""
