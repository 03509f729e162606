"""A peer without a window: a bot in a seat over a real relay (``python -m client.headless``), and the demo."""
