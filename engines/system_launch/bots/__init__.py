"""System Launch's computer players: greedy, and the memory level that reads the others' plays."""
