"""Collective Conflict's computer players: greedy, and the search bot with its evaluation and memory."""
