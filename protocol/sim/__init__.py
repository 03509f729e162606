"""A seeded in-memory network of peers and the cheats it can stage: no peer runs this code."""
