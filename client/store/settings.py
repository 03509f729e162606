"""The player's settings, kept as JSON in the user's config directory.

Only what a player chooses is stored: name, language, the relays they used (with their TLS
files), how fast bots play, whether moves are animated and cues heard, whether a turn is told
while the window is away, the window's size and the guides already seen.  A damaged or foreign
file never stops the program: a value of the wrong type or range falls back to its default (and
the file is rewritten on the next save).  The directory is the platform's own
(:mod:`client.store.paths`; ``SEALED_TABLE_CONFIG_DIR`` overrides it, for tests and portable installs).

Relay passwords are never in ``settings.json``: they are kept in ``relay-passwords.json`` next
to it, and the settings window says where it is.  Both files are readable by their owner only
and written whole or not at all (:mod:`client.store.private`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from client.i18n.translations import LANGUAGES
from client.store.paths import config_dir as config_dir  # where the settings live; the module says why
from client.store.private import write_private

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


def _whole(value: object, low: int, high: int) -> bool:
    """A whole number (JSON's ``true`` is none) from ``low`` to ``high``."""
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _window_size(value: object) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(_whole(v, 320, 20_000) for v in value)


#: The settings a file sets as they are, each with the test its value must pass.
_PLAIN: dict[str, Callable[[object], bool]] = {
    "language": lambda v: v in LANGUAGES,
    "bot_delay_ms": lambda v: _whole(v, 0, 5000),
    "players": lambda v: _whole(v, 2, 6),
    "window_size": _window_size,
    "window_maximized": lambda v: isinstance(v, bool),
    "notify_turn": lambda v: isinstance(v, bool),
    "animations": lambda v: isinstance(v, bool),
    "sound": lambda v: isinstance(v, bool),
}


def _relay_options(raw: object) -> dict[str, dict[str, str]]:
    """The TLS files kept per relay: known option names with text, for relays named by text."""
    if not isinstance(raw, dict):
        return {}
    out: dict[str, dict[str, str]] = {}
    for key, values in raw.items():
        if isinstance(key, str) and isinstance(values, dict):
            kept = {k: v for k, v in values.items() if k in TLS_OPTIONS and isinstance(v, str) and v.strip()}
            if kept:
                out[key] = kept
    return out


def _clean(raw: object) -> Settings:
    """Settings from decoded JSON, keeping only values of the right type and range."""
    out = Settings()
    if not isinstance(raw, dict):
        return out
    for key, valid in _PLAIN.items():
        if key in raw and valid(raw[key]):
            setattr(out, key, raw[key])
    name = raw.get("name")
    if isinstance(name, str) and name.strip():
        out.name = name.strip()[:24]
    relays = raw.get("relays")
    if isinstance(relays, list):
        out.relays = [r for r in relays if isinstance(r, str) and r.strip()][:MAX_RELAYS]
    out.relay_options = _relay_options(raw.get("relay_options"))
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


def save(settings: Settings, directory: Path | None = None) -> Path:
    """Write ``settings.json`` (and the password file, when there are passwords or were); each whole or not
    at all (:func:`client.store.private.write_private`).  Raises OSError."""
    directory = directory or config_dir()
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / FILE_NAME
    public = asdict(settings)
    passwords = public.pop("passwords")
    write_private(path, json.dumps(public, ensure_ascii=False, indent=2).encode("utf-8"))
    secret = directory / PASSWORDS_FILE
    if passwords or secret.exists():
        write_private(secret, json.dumps(passwords, ensure_ascii=False, indent=2).encode("utf-8"))
    return path
