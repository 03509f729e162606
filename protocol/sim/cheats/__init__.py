"""The staged cheaters: sessions that break one rule each, and the catalogue that names them."""
