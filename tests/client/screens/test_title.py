"""The window's title names the game and whose turn it is (seen in the task bar while the window is away)."""

from __future__ import annotations

from client.i18n import tr


def test_the_title_follows_the_game_and_the_turn(qtbot, window):
    assert window.windowTitle() == tr("app.title")
    window.start_local("anomaly-maze", 2, seed=b"title", level="easy")
    game = window.game
    qtbot.waitUntil(lambda: game.human_to_move(), timeout=10_000)
    qtbot.waitUntil(lambda: tr("title.your_turn") in window.windowTitle(), timeout=5_000)
    assert window.windowTitle().startswith(tr("game.anomaly-maze"))
    game.forfeit_human()
    window.game_screen.refresh()
    assert tr("title.over") in window.windowTitle()
    window.to_lobby()
    assert window.windowTitle() == tr("app.title")


def test_the_window_size_is_remembered_between_runs(qtbot, private_config):
    from client.screens.window.main import MainWindow
    from client.store import settings as settings_mod

    first = MainWindow(config=private_config)
    qtbot.addWidget(first)
    first.show()
    first.resize(1111, 777)
    first.close()
    saved = settings_mod.load(private_config)
    assert saved.window_size == [1111, 777] and saved.window_maximized is False
    second = MainWindow(config=private_config)
    qtbot.addWidget(second)
    second.restore_geometry()
    assert (second.width(), second.height()) == (1111, 777)


def test_a_damaged_window_size_falls_back_to_the_default(private_config):
    import json

    from client.store import settings as settings_mod

    private_config.mkdir(parents=True, exist_ok=True)
    (private_config / settings_mod.FILE_NAME).write_text(json.dumps({"window_size": [5, True], "window_maximized": 1}))
    loaded = settings_mod.load(private_config)
    assert loaded.window_size == [] and loaded.window_maximized is False


def test_the_bot_speed_can_be_changed_at_the_table_and_is_kept(qtbot, window, private_config):
    from client.store import settings as settings_mod
    from client.store.settings import BOT_SPEEDS

    window.start_local("system-launch", 3, seed=b"speed")
    screen = window.game_screen
    assert screen.speed.isVisible()
    index = BOT_SPEEDS.index(1200)
    screen.speed.setCurrentIndex(index)
    screen.speed.activated.emit(index)
    assert screen.delay_ms == 1200
    assert window.settings.bot_delay_ms == 1200
    assert settings_mod.load(private_config).bot_delay_ms == 1200
