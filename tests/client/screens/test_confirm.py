"""A running game is never thrown away without the player's word (Back to the lobby, Quit)."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QMessageBox

from client.i18n import tr


@pytest.fixture
def answers(monkeypatch):
    """Record every question asked and answer each with the next reply queued."""
    asked: list[str] = []
    replies: list[QMessageBox.StandardButton] = []

    def question(parent, title, text, *args, **kwargs):
        asked.append(text)
        return replies.pop(0)

    monkeypatch.setattr(QMessageBox, "question", question)
    return asked, replies


def test_back_to_the_lobby_asks_and_no_keeps_the_game(qtbot, window, answers):
    asked, replies = answers
    window.start_local("system-launch", 3, seed=b"confirm-lobby")
    game = window.game
    replies.append(QMessageBox.StandardButton.No)
    window.menus.lobby_action.trigger()
    assert asked == [tr("confirm.abandon_local")]
    assert window.game is game and window.stack.currentWidget() is window.game_screen
    replies.append(QMessageBox.StandardButton.Yes)
    window.menus.lobby_action.trigger()
    assert window.game is None and window.stack.currentWidget() is window.lobby


def test_quitting_asks_and_no_keeps_the_window_open(qtbot, window, answers):
    asked, replies = answers
    window.start_local("anomaly-maze", 2, seed=b"confirm-quit")
    replies.append(QMessageBox.StandardButton.No)
    window.close()
    assert asked == [tr("confirm.abandon_local")]
    assert window.isVisible() and window.game is not None
    replies.append(QMessageBox.StandardButton.Yes)
    window.close()
    assert not window.isVisible()


def test_nothing_is_asked_once_the_player_has_left_or_the_game_is_over(qtbot, window, answers):
    asked, _ = answers
    window.start_local("system-launch", 3, seed=b"confirm-left")
    window.game_screen.leave()
    window.menus.lobby_action.trigger()
    assert asked == [] and window.stack.currentWidget() is window.lobby
    window.close()
    assert asked == [] and not window.isVisible()


def test_the_leave_question_says_what_leaving_does_at_this_table(qtbot, window, answers):
    asked, replies = answers
    window.start_local("anomaly-maze", 2, seed=b"leave-two")
    replies.append(QMessageBox.StandardButton.No)
    window.game_screen.leave_button.click()
    window.start_local("system-launch", 3, seed=b"leave-three")
    replies.append(QMessageBox.StandardButton.No)
    window.game_screen.leave_button.click()
    assert asked == [tr("table.leave_confirm_two"), tr("table.leave_confirm")]
    assert "bots" not in asked[0]
