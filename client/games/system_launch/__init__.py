"""System Launch on screen: its kit, table, card art and widgets, words and showcase (one folder per game)."""
