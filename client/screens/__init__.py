"""The main window and what it shows: the lobby, the report, the replay viewer, the rules and the dialogs."""
