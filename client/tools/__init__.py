"""Developer tools run with ``python -m``: the screenshots of every screen."""
