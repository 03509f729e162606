"""Game sources: what the table shows and plays, on this machine (the referee) or over the network."""
