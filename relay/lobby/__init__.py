"""Rooms before the game: hosting, joining, listings, invitations, seat cards, rematches."""
