"""The Collective Conflict hex board in the desktop program.

Modules: :mod:`.texts` (its words in English, the source of its gettext
domain; the translations are in ``locale/``), :mod:`.scene` (what the board shows for one view,
as plain data: units, layers, marks — testable without painting),
:mod:`.choices` (the legal actions grouped by what a person clicks),
:mod:`.present` (the game in words: log lines, statuses, labels),
:mod:`.paint` (colours, Network marks and unit glyphs drawn with QPainter),
:mod:`.board` (the clickable hex board that pans and zooms), :mod:`.table`
(board, Networks, reserve, controls), :mod:`.kit` (how the shared screens show
this game) and :mod:`.showcase` (the click driver and the screenshots).  This
package file stays Qt-free so that the catalogues can import :mod:`.texts`
cheaply.
"""
