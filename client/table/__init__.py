"""The table window: the game screen around a game's table, its log, and the connection panel."""
