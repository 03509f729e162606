"""The desktop program and the headless peer (the top layer)."""
