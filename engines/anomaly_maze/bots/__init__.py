"""Anomaly Maze's computer players: the maze bot at its easy, normal and hard levels."""
