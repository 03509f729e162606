"""What the program keeps on disk: settings, the signing key, the seats of network games (each file private)."""
