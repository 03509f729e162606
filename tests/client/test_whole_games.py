"""Whole games through the real widgets: lobby → table → report, the rules pause, the Hacker view."""

from __future__ import annotations

from PySide6.QtCore import Qt

from client.games.system_launch.table import HAND_VERBS
from client.i18n import tr
from client.screens.report import ReportScreen
from tests.client.drive import click_action, play_to_end, preferred


def test_whole_game_against_bots_from_lobby_to_report(qtbot, window):
    lobby = window.lobby
    lobby.local.players.setValue(3)
    qtbot.mouseClick(lobby.local.start, Qt.MouseButton.LeftButton)
    assert window.game is not None and window.stack.currentWidget() is window.game_screen
    assert window.game.players == 3 and window.game.names[0] == "Tester"

    decisions = play_to_end(qtbot, window)

    game = window.game
    over = game.over()
    assert over is not None
    assert decisions > 0 and len(game.decisions) >= decisions
    screen = window.game_screen
    log = screen.log.texts()
    assert log[-1] == tr("log.over") and len(log) > 10
    # The "System launched!" moment, then the report.
    if over.winners and over.reason == "system launched":
        assert tr("table.launched") in screen.table.banner.text()
        winner = over.winners[0]
        said = tr("log.launched.you") if winner == game.human else tr("log.launched", name=game.names[winner])
        assert said.replace("!.", "!") in log  # the player's own launch is spoken to them
    assert screen.table.report_button.isVisible()
    qtbot.mouseClick(screen.table.report_button, Qt.MouseButton.LeftButton)
    report = window.stack.currentWidget()
    assert isinstance(report, ReportScreen)
    assert report.headline.text() == report.headline_text()
    if over.winners:
        assert game.names[over.winners[0]] in report.headline.text() or report.headline.text() == tr("report.you_win")
    assert report.verdict_text.text() == tr("report.local_fair")


def test_only_legal_choices_are_offered(qtbot, window):
    window.start_local("system-launch", 4, seed=b"legal-only")
    game, screen = window.game, window.game_screen
    checked = 0
    while game.over() is None and checked < 12:
        qtbot.waitUntil(lambda: game.human_to_move() or game.over() is not None, timeout=10_000)
        if game.over() is not None:
            break
        legal = {tuple(a) for a in game.legal()}
        table = screen.table
        usable = {a[1] for a in legal if a[0] in HAND_VERBS}
        for slot, card in table.hand_cards.items():
            assert card.selectable == (slot in usable)
        offered = {b.action for b in table.action_buttons}
        for slot in sorted(usable):
            table.select_slot(slot)
            offered |= {b.action for b in table.action_buttons}
        assert offered == legal, "every legal action has a control and no other action has one"
        click_action(qtbot, screen, preferred(sorted(legal, key=repr), checked))
        checked += 1
    assert checked > 0


def test_rules_opened_mid_game_is_a_pause(qtbot, window):
    window.settings.bot_delay_ms = 30
    window.start_local("system-launch", 4, seed=b"rules-pause")
    game, screen = window.game, window.game_screen
    qtbot.waitUntil(lambda: len(game.history) > 0, timeout=5_000)

    qtbot.mouseClick(screen.rules_button, Qt.MouseButton.LeftButton)
    dialog = window.rules
    assert dialog is not None and dialog.isVisible()
    assert dialog.current_game() == "system-launch"
    assert "System Launch" in dialog.browsers["system-launch"].toPlainText()
    before_hash, before_len = game.state.hash(), len(game.history)
    qtbot.wait(400)  # several bot steps' worth of time: none may happen while the rules are open
    assert game.state.hash() == before_hash and len(game.history) == before_len
    assert not screen.timer.isActive()
    for button in screen.table.action_buttons:  # a click on the table is not a move while paused
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert game.state.hash() == before_hash and len(game.history) == before_len
    dialog.tabs.setCurrentIndex(2)  # reading another game's rules changes nothing either
    assert game.state.hash() == before_hash

    dialog.close()
    qtbot.waitUntil(lambda: window.rules is None)
    qtbot.waitUntil(lambda: len(game.history) > before_len or game.human_to_move(), timeout=5_000)
    if game.human_to_move() and len(game.history) == before_len:
        click_action(qtbot, screen, preferred(game.legal(), 0))
    qtbot.waitUntil(lambda: len(game.history) > before_len, timeout=5_000)


def test_hacker_attack_view_is_for_the_attacker_alone(qtbot, window):
    from client.games.system_launch.showcase import find_hacker_seed, showcase_choice
    from engines.system_launch.bots.greedy import GreedyBot

    seed = find_hacker_seed()
    screen = window.start_local("system-launch", 4, seed=seed)
    game = window.game
    bot = GreedyBot(0, seed)
    while True:
        qtbot.waitUntil(lambda: game.human_to_move() or game.over() is not None, timeout=10_000)
        assert game.over() is None, "the seed was chosen so that a Hacker Attack happens"
        view = game.view()
        if view["stage"] == "hacker-take":
            break
        assert not screen.table.hacker_box.isVisible()
        action = showcase_choice(game.state, game.knowledge, game.legal(), bot)
        click_action(qtbot, screen, action)
    target = view["target"]
    table = screen.table
    assert table.hacker_box.isVisible()
    assert game.names[target] in table.hacker_title.text()
    shown = sorted(cv.face.kind for cv in table.hacker_box.findChildren(type(next(iter(table.hand_cards.values())))))
    truth = game.referee.truth.cards
    from client.games.system_launch.present import kind_name

    assert shown == sorted(kind_name(truth[slot]) for slot in game.state.hands[target])
    # Other seats' knowledge never received the target's hand.
    for seat in range(game.players):
        if seat not in (0, target):
            assert not set(game.state.hands[target]) & set(game.referee.knowledge(seat).cards)
    offered = {b.action for b in table.action_buttons}
    assert ("take-none",) in offered and {("take", s) for s in game.state.hands[target]} <= offered
    click_action(qtbot, screen, ("take-none",))
    assert not table.hacker_box.isVisible()
