"""The screens of the main window: the lobby, the report, the replay viewer, the dialogs."""
