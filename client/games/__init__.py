"""The games on screen: the kit contract every game fills (:mod:`client.games.kit`) and one folder per game."""
