"""Rules engines: pure, deterministic, one sub-package per game."""
