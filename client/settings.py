"""The player's settings, kept as JSON in the user's config directory.

Only what a player chooses is stored: name, language, the relays they used,
and how fast bots play.  A damaged or foreign file never stops the program:
unreadable values fall back to defaults (and the file is rewritten on the next
save).  ``SEALED_TABLE_CONFIG_DIR`` overrides the directory, for tests and
portable installs.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .messages import LANGUAGES

CONFIG_ENV = "SEALED_TABLE_CONFIG_DIR"
FILE_NAME = "settings.json"
#: Bot step delays offered in the settings, in milliseconds (0 = instant).
BOT_SPEEDS = (0, 250, 600, 1200)
MAX_RELAYS = 8


@dataclass
class Settings:
    """Everything the program remembers between runs."""

    name: str = "Player"
    language: str = "en"
    relays: list[str] = field(default_factory=list)
    bot_delay_ms: int = 600
    players: int = 4
    #: The main window's last size [width, height] (empty: the default), and whether it was maximised.
    window_size: list[int] = field(default_factory=list)
    window_maximized: bool = False

    def remember_relay(self, address: str) -> None:
        """Put ``address`` first in the remembered list (most recent first, no duplicates)."""
        address = address.strip()
        if not address:
            return
        self.relays = [address, *[r for r in self.relays if r != address]][:MAX_RELAYS]


def config_dir() -> Path:
    """The directory for settings and keys: the env override, else Qt's AppConfigLocation."""
    override = os.environ.get(CONFIG_ENV)
    if override:
        return Path(override)
    from PySide6.QtCore import QStandardPaths

    location = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppConfigLocation)
    return Path(location or Path.home() / ".config" / "sealed-table")


def _clean(raw: Any) -> Settings:
    """Settings from decoded JSON, keeping only values of the right type and range."""
    out = Settings()
    if not isinstance(raw, dict):
        return out
    name = raw.get("name")
    if isinstance(name, str) and name.strip():
        out.name = name.strip()[:24]
    if raw.get("language") in LANGUAGES:
        out.language = raw["language"]
    relays = raw.get("relays")
    if isinstance(relays, list):
        out.relays = [r for r in relays if isinstance(r, str) and r.strip()][:MAX_RELAYS]
    delay = raw.get("bot_delay_ms")
    if isinstance(delay, int) and not isinstance(delay, bool) and 0 <= delay <= 5000:
        out.bot_delay_ms = delay
    players = raw.get("players")
    if isinstance(players, int) and not isinstance(players, bool) and 2 <= players <= 6:
        out.players = players
    size = raw.get("window_size")
    if (
        isinstance(size, list)
        and len(size) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) and 320 <= v <= 20_000 for v in size)
    ):
        out.window_size = list(size)
    if isinstance(raw.get("window_maximized"), bool):
        out.window_maximized = raw["window_maximized"]
    return out


def load(directory: Path | None = None) -> Settings:
    path = (directory or config_dir()) / FILE_NAME
    try:
        return _clean(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return Settings()


def save(settings: Settings, directory: Path | None = None) -> Path:
    """Write atomically (temp file + rename) so a crash never leaves half a file."""
    directory = directory or config_dir()
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / FILE_NAME
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(asdict(settings), ensure_ascii=False, indent=2), encoding="utf-8")
    tmp.replace(path)
    return path
