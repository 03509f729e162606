"""Driving the real table widgets like a player: click a card, then a button."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from client.games.system_launch.table import HAND_VERBS


def click_action(qtbot: Any, screen: Any, action: tuple[Any, ...]) -> None:
    """Take ``action`` through the table: select its hand card if it has one, click its button."""
    table = screen.table
    if action[0] in HAND_VERBS and table.selected_slot != action[1]:
        card = table.hand_cards[action[1]]
        assert card.selectable, f"the card of {action} cannot be selected"
        qtbot.mouseClick(card, Qt.MouseButton.LeftButton)
    button = table.button_for(action)
    assert button is not None, f"no control for {action}; offered: {[b.action for b in table.action_buttons]}"
    assert button.isEnabled() and button.isVisible()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def preferred(legal: list[tuple[Any, ...]], turn: int) -> tuple[Any, ...]:
    """A simple player: build when possible, sometimes attack or upgrade, else the first choice."""
    for verb in ("build", "play", "take", "lose", "discard", "upgrade"):
        options = [a for a in legal if a[0] == verb]
        if options and (verb != "upgrade" or turn % 4 == 0):
            return options[turn % len(options)]
    return legal[0]


def play_to_end(qtbot: Any, window: Any, limit: int = 400) -> int:
    """Play the human's seat through the widgets until the game ends; the number of decisions."""
    screen = window.game_screen
    game = window.game
    decisions = 0
    while game.over() is None:
        qtbot.waitUntil(lambda: game.human_to_move() or game.over() is not None, timeout=10_000)
        if game.over() is not None:
            break
        click_action(qtbot, screen, preferred(game.legal(), decisions))
        decisions += 1
        assert decisions < limit, "the game did not end"
    return decisions


def make_window(qtbot, tmp_path, name):  # type: ignore[no-untyped-def]
    from client.screens.window.main import MainWindow
    from client.store.settings import Settings

    win = MainWindow(settings=Settings(name=name, bot_delay_ms=0), config=tmp_path / name)
    qtbot.addWidget(win, before_close_func=_closing_without_asking)
    win.show()
    return win


def confirm_join(qtbot: Any, lobby: Any) -> None:
    """A room joined by its code only: wait for the host's name and key to show, then click "Join this room"."""
    panel = lobby.room_panel
    qtbot.waitUntil(
        lambda: panel.join_button.isVisible() or lobby.online.status.property("error") == "true", timeout=10_000
    )
    if panel.join_button.isVisible():
        qtbot.mouseClick(panel.join_button, Qt.MouseButton.LeftButton)


def request_row(panel: Any, name: str) -> Any:
    """The host's row of a waiting request by ``name`` (label, "Let in", "Turn away"), or None."""
    return next((row for row in panel.request_rows if row[0].text().startswith(f"{name} ")), None)


def let_in(qtbot: Any, host_window: Any, name: str) -> None:
    """The host clicks "Let in" on the request of ``name`` once it shows."""
    panel = host_window.lobby.room_panel
    qtbot.waitUntil(lambda: request_row(panel, name) is not None, timeout=10_000)
    qtbot.mouseClick(request_row(panel, name)[1], Qt.MouseButton.LeftButton)


def _closing_without_asking(win):  # type: ignore[no-untyped-def]
    """The test is over: its window closes without asking about a game still running."""
    win.ask_before_abandoning = False


def start_relay(qtbot: Any, qloop: Any, port: int = 0) -> Any:
    """An embedded relay on 127.0.0.1 (a free port unless ``port``), started on the test's Qt loop."""
    from relay.broker import embedded

    embedded = embedded.EmbeddedRelay(embedded.RelayConfig(host="127.0.0.1", port=port, advertise=False))
    task = qloop.create_task(embedded.start())
    qtbot.waitUntil(task.done, timeout=10_000)
    task.result()
    return embedded


def stop_relay(qtbot: Any, qloop: Any, embedded: Any) -> None:
    task = qloop.create_task(embedded.stop())
    qtbot.waitUntil(task.done, timeout=10_000)


def open_room(qtbot: Any, window: Any, address: str, players: int, listed: bool = False) -> Any:
    """Click "Open a room on this relay" (``listed``: ticking "List my room" first); the lobby's Hosting."""
    lobby = window.lobby
    lobby.local.players.setValue(players)
    lobby.online.relay.setCurrentText(address)
    lobby.online.listed.setChecked(listed)
    qtbot.mouseClick(lobby.online.host, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(
        lambda: lobby.hosting is not None and f"1 of {players}" in lobby.online.status.text(), timeout=10_000
    )
    assert lobby.room_panel.isVisible()
    return lobby.hosting


def stop_all(qtbot: Any, games: list[Any]) -> None:
    """Stop every seat and the host's bots, and let their connections close before the next test."""
    for game in games:
        game.stop()
    bots = [bot for game in games for bot in game.bots]
    qtbot.waitUntil(lambda: all(bot.task is not None and bot.task.done() for bot in bots), timeout=10_000)


def kinds(hosting: Any) -> list[str]:
    return [row.kind for row in hosting.rows()]


def choose_bot(panel: Any, seat: int, kind: str) -> None:
    """Pick "Bot: kind" in a seat's choice, as a click in the drop-down does."""
    choice = panel.rows[seat][2]
    assert choice.isVisible()
    index = choice.findData(kind)
    choice.setCurrentIndex(index)
    choice.activated.emit(index)
