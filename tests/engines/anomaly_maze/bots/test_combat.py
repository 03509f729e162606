"""The hard AI's look-ahead counts the attacks on the way, not only at its last step.

Its three-ply look-ahead (my turn, the opponent's reply, my next turn) counts
both combat phases in between by their outcomes: without them a plan that leaves
it, badly hurt, in the opponent's line of fire looks as good as one out of reach
(only the lost HP would count), and a plan whose attack could eliminate the
opponent is judged as if the opponent played on.
"""

from __future__ import annotations

from engines.anomaly_maze.bots import maze
from engines.core import Knowledge
from tests.engines.anomaly_maze.helpers import position


def snap_of(s):
    view = s.view(Knowledge(0))
    return maze.Snap.of(view), maze.Rules(view["options"])


def open_row(hp_me: int = 10, hp_opp: int = 10):
    """Both pawns on row D of an all-open maze: each sees the other."""
    s = position(pawns=("D2", "D6"), keys=("A1", "G7"), chests=("A7", "G1"), phase="move")
    s.hp = [hp_me, hp_opp]
    return s


def test_an_attack_splits_into_survival_at_the_mean_damage_and_elimination():
    snap, rules = snap_of(open_row(hp_opp=3))
    snap.carrying[1], snap.key[1] = True, None
    outcomes = maze.fights(snap, 0, rules)
    assert sum(w for w, _ in outcomes) == 6**rules.dice
    kill = sum(w for dmg, w in rules.damage_dist if dmg >= 3)
    (survive_w, hit), (kill_w, killed) = outcomes
    assert (survive_w, kill_w) == (36 - kill, kill)
    hurt = sum(dmg * w for dmg, w in rules.damage_dist if dmg < 3)
    assert hit.hp[1] == 3 - round(hurt / survive_w) and hit.pos[1] == snap.pos[1]
    assert killed.pos[1] is None and killed.mp[0] == snap.mp[0] + rules.opts["kill_mp"]
    assert killed.key[1] == snap.pos[1] and not killed.carrying[1]  # the carried key drops where it fell
    assert snap.hp[1] == 3 and snap.pos[1] is not None  # the position itself is left alone


def test_no_line_of_sight_no_attack():
    s = open_row()
    s.pos[1] = s.pos[1] - 1 - 7  # off row D and off its column: out of sight
    snap, rules = snap_of(s)
    assert maze.fights(snap, 0, rules) == [(6**rules.dice, snap)]


def test_the_look_ahead_fears_the_opponents_attack_on_a_hurt_pawn():
    """At 1 HP in the opponent's sight the reply will likely eliminate me: worse than the HP alone."""
    rules = snap_of(open_row())[1]
    healthy = maze.reply_value(snap_of(open_row(hp_me=10))[0], 0, rules)
    hurt = maze.reply_value(snap_of(open_row(hp_me=1))[0], 0, rules)
    only_hp = maze.W_HP * 9
    assert healthy - hurt > only_hp + maze.W_MP, (healthy, hurt)

