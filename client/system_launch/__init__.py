"""The System Launch table and its words (the board of issue 5)."""
