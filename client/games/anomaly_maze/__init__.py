"""The Anomaly Maze board in the desktop program.

Modules: :mod:`.texts` (its words in English, the source of its gettext
domain; the translations are in ``locale/``), :mod:`.present` (the game in words: log lines,
statuses, labels), :mod:`.paint` (tiles, items and pawns drawn with QPainter),
:mod:`.board` (the clickable 7×7 board with its shift arrows), :mod:`.dice`
(the dice and their animation), :mod:`.table` (board, players, controls) and
:mod:`.kit` (how the shared screens show this game).  This package file stays
Qt-free so that the catalogues can import :mod:`.texts` cheaply.
"""
