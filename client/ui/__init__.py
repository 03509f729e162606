"""Qt pieces every screen and every game shares: the felt, buttons, keys, motion, sound, the guide."""
