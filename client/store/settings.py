"""The player's settings, kept as JSON in the user's config directory.

Only what a player chooses is stored: name, language, the relays they used
(with their TLS files), how fast bots play, and whether moves are animated and
cues heard.  A damaged or foreign file never stops the program: unreadable values fall back to defaults (and the file is
rewritten on the next save).  ``SEALED_TABLE_CONFIG_DIR`` overrides the
directory, for tests and portable installs.

Relay passwords are never in ``settings.json``: they are kept in
``relay-passwords.json`` next to it, a file only its user may read or write
(mode 0600), and the settings window says where it is.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from client.i18n.translations import LANGUAGES

CONFIG_ENV = "SEALED_TABLE_CONFIG_DIR"
FILE_NAME = "settings.json"
PASSWORDS_FILE = "relay-passwords.json"
#: The TLS files a relay may need, by their key in :attr:`Settings.relay_options`.
TLS_OPTIONS = ("ca_file", "cert_file", "key_file")
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
    #: Moves are animated (short, skippable; client/ui/motion.py) and cues are heard (client/ui/sound.py).
    animations: bool = True
    sound: bool = True
    #: The main window's last size [width, height] (empty: the default), and whether it was maximised.
    window_size: list[int] = field(default_factory=list)
    window_maximized: bool = False
    #: Per remembered relay (its address without password): ``ca_file``, ``cert_file``, ``key_file``.
    relay_options: dict[str, dict[str, str]] = field(default_factory=dict)
    #: Per relay: the saved password (kept in :data:`PASSWORDS_FILE`, never in settings.json).
    passwords: dict[str, str] = field(default_factory=dict)
    #: Tell the player when a network game's turn comes while the window is in the background.
    notify_turn: bool = True
    #: Games whose first-game guide was done or skipped (not shown again).
    guides_done: list[str] = field(default_factory=list)

    def remember_relay(self, address: str, password: str | None = None) -> None:
        """Put ``address`` first in the remembered list (most recent first, no duplicates).

        ``address`` is shown, so it carries no password: a password typed with it comes apart
        (:func:`client.net.address.remember_relay`) and is kept in :attr:`passwords`.
        """
        address = address.strip()
        if not address:
            return
        if password is not None:
            self.passwords[address] = password
        self.relays = [address, *[r for r in self.relays if r != address]][:MAX_RELAYS]

    def relay_profiles(self) -> dict[str, dict[str, str]]:
        """Options and password per relay, for the network layer (``client.net.address.use_relay_settings``)."""
        out = {key: dict(values) for key, values in self.relay_options.items()}
        for key, password in self.passwords.items():
            out.setdefault(key, {})["password"] = password
        return out


def config_dir() -> Path:
    """The directory for settings and keys: the env override, else Qt's AppConfigLocation."""
    override = os.environ.get(CONFIG_ENV)
    if override:
        return Path(override)
    from PySide6.QtCore import QStandardPaths

    location = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppConfigLocation)
    return Path(location or Path.home() / ".config" / "sealed-table")


def _clean(raw: Any) -> Settings:  # noqa: C901 (tests/test_complexity.py)
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
    if isinstance(raw.get("notify_turn"), bool):
        out.notify_turn = raw["notify_turn"]
    for switch in ("animations", "sound"):
        if isinstance(raw.get(switch), bool):
            setattr(out, switch, raw[switch])
    options = raw.get("relay_options")
    if isinstance(options, dict):
        for key, values in options.items():
            if isinstance(key, str) and isinstance(values, dict):
                kept = {k: v for k, v in values.items() if k in TLS_OPTIONS and isinstance(v, str) and v.strip()}
                if kept:
                    out.relay_options[key] = kept
    guides = raw.get("guides_done")
    if isinstance(guides, list):
        out.guides_done = sorted({g for g in guides if isinstance(g, str) and 0 < len(g) <= 64})
    return out


def _load_passwords(path: Path) -> dict[str, str]:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(raw, dict):
        return {}
    return {k: v for k, v in raw.items() if isinstance(k, str) and isinstance(v, str)}


def load(directory: Path | None = None) -> Settings:
    directory = directory or config_dir()
    path = directory / FILE_NAME
    try:
        settings = _clean(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError):
        settings = Settings()
    settings.passwords = {**_load_passwords(directory / PASSWORDS_FILE), **settings.passwords}
    return settings


def passwords_path(directory: Path | None = None) -> Path:
    return (directory or config_dir()) / PASSWORDS_FILE


def _write_private(path: Path, text: str) -> None:
    """Write ``text`` to a file only its owner can read and write (0600 from the start: no window)."""
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        if hasattr(os, "fchmod"):  # a file left from before keeps its mode through O_CREAT: set it
            os.fchmod(out.fileno(), 0o600)
        out.write(text)
    tmp.replace(path)


def save(settings: Settings, directory: Path | None = None) -> Path:
    """Write atomically (temp file + rename) so a crash never leaves half a file."""
    directory = directory or config_dir()
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / FILE_NAME
    tmp = path.with_suffix(".tmp")
    public = asdict(settings)
    passwords = public.pop("passwords")
    tmp.write_text(json.dumps(public, ensure_ascii=False, indent=2), encoding="utf-8")
    tmp.replace(path)
    secret = directory / PASSWORDS_FILE
    if passwords or secret.exists():
        _write_private(secret, json.dumps(passwords, ensure_ascii=False, indent=2))
    return path
