"""A reproducible System Launch game for the screenshots (and the tests that look at a Hacker Attack)."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from client.games.showcase import Shot, ShowcaseWindow
from client.games.system_launch.table import SystemLaunchTable
from engines.core import Action, GameState, Knowledge
from engines.system_launch.bots.greedy import GreedyBot
from engines.system_launch.cards import CARD_KIND, FIREWALL, HACKER_ATTACK

GAME = "system-launch"
PLAYERS = 4


def showcase_choice(state: GameState, knowledge: Knowledge, legal: list[Action], bot: GreedyBot) -> Action:
    """The human seat's play in the screenshots: greedy, but eager to use a Hacker Attack."""
    public = state.public()
    for action in legal:
        if action[0] == "play" and CARD_KIND[action[2]] == HACKER_ATTACK:
            target = action[3]
            if public["hands"][target] and not any(CARD_KIND[c] == FIREWALL for c in public["system"][target]):
                return action
    return bot.choose(state, knowledge, legal)


def find_hacker_seed(tries: int = 400) -> bytes:
    """A seed in which the human seat gets to look at a hand with a Hacker Attack."""
    from client.play.local import LocalGame

    for i in range(tries):
        seed = f"showcase/{i}".encode()
        game = LocalGame(GAME, PLAYERS, seed, 0, ["A", "B", "C", "D"])
        bot = GreedyBot(0, seed)
        while game.over() is None:
            if game.human_to_move():
                if game.view()["stage"] == "hacker-take":
                    return seed
                game.act(showcase_choice(game.state, game.knowledge, game.legal(), bot))
            else:
                game.step()
    return b"showcase/0"


def sl_shots(window: ShowcaseWindow[SystemLaunchTable], shot: Shot, app: QApplication) -> None:
    """The table mid-game, the Hacker Attack view, "System launched!", then the rules, report and replay."""
    seed = find_hacker_seed()
    screen = window.start_local(GAME, PLAYERS, seed=seed)
    game = screen.game
    bot = GreedyBot(0, seed)
    decisions = 0
    took_mid = took_hacker = False
    while game.over() is None:
        app.processEvents()
        if not game.human_to_move():
            continue
        view = game.view()
        if view["stage"] == "hacker-take" and not took_hacker:
            shot("04-hacker-attack-view")
            took_hacker = True
        action = showcase_choice(game.state, game.knowledge, game.legal(), bot)
        if action[0] in ("build", "upgrade", "play", "discard"):
            screen.table.select_slot(action[1])
        if decisions == 2 and not took_mid:
            shot("03-table-mid-game")
            took_mid = True
        button = screen.table.button_for(action)
        if button is None:  # pragma: no cover - the table offers every legal action
            screen.choose(action)
        else:
            button.click()
        decisions += 1
    app.processEvents()
    shot("05-system-launched")
    rules = window.show_rules(GAME)
    rules.resize(820, 700)
    shot("06-rules", rules)
    rules.close()
    app.processEvents()
    window.show_report()
    shot("08-report")
    replay = window.replay_current()
    if replay is not None:
        replay.show_frame(len(replay.frames) // 2)
        shot("09-replay-public")
        replay.show_frame(len(replay.frames) - 1)
        replay.full.setChecked(True)
        shot("10-replay-full-view")
