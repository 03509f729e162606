"""The main window (:mod:`.main`) and its parts: the open game as local play or a networked seat, kept seats."""
