"""The lobby screen, a module per part of it.

- :mod:`.lobby` — :class:`Lobby`: the screen composed of its sections, the network tasks, the room waited for.
- :mod:`.section` — the frame every section is, the words for answer times, and what a section asks of the lobby.
- :mod:`.saved` — "Games in progress": kept network seats to resume.
- :mod:`.local` — "Play against the computer": the game chosen (also the one a room is opened for).
- :mod:`.lan` — "On this network": host on this program's relay, search, join what was found.
- :mod:`.online` — "Over the internet": a relay, then join a room there or open one.
- :mod:`.room` — :class:`~client.screens.lobby.room.RoomPanel`: the room being hosted or joined.
"""

from client.screens.lobby.lobby import Lobby
from client.screens.lobby.section import answer_time

__all__ = ["Lobby", "answer_time"]
