"""Each platform's folders, the one-folder override, and the move of an earlier version's folder."""

from __future__ import annotations

import sys

import pytest

from client.store import kept_seats, paths, settings


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.delenv(paths.CONFIG_ENV, raising=False)
    for name, folder in (("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data"), ("XDG_CACHE_HOME", "cache")):
        monkeypatch.setenv(name, str(tmp_path / folder))
    monkeypatch.setenv("HOME", str(tmp_path))
    return tmp_path


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the XDG folders are Linux's")
def test_settings_keys_and_games_go_to_the_xdg_folders(home):
    assert paths.config_dir() == home / "config" / "sealed-table"
    assert paths.data_dir() == home / "data" / "sealed-table"
    assert paths.cache_dir() == home / "cache" / "sealed-table"
    assert settings.config_dir() == paths.config_dir()
    assert kept_seats.games_dir() == home / "data" / "sealed-table" / "games"


def test_the_override_puts_everything_in_one_folder(home, monkeypatch):
    monkeypatch.setenv(paths.CONFIG_ENV, str(home / "stick"))
    assert paths.config_dir() == paths.data_dir() == home / "stick"
    assert paths.cache_dir() == home / "stick" / "cache"
    assert paths.adopt_earlier_folder(home / "old") == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the XDG folders are Linux's")
def test_an_earlier_versions_folder_is_moved_once_and_never_over_newer_files(home):
    earlier = paths.earlier_folder()
    assert earlier == home / "config" / "Sealed Table" / "sealed-table"  # where Qt's AppConfigLocation put it
    (earlier / "games" / "ROOM-peer").mkdir(parents=True)
    (earlier / "games" / "ROOM-peer" / "seat.json").write_text("{}")
    (earlier / "identity.key").write_bytes(b"k" * 32)
    (earlier / "settings.json").write_text('{"name": "Ola"}')
    moved = paths.adopt_earlier_folder()
    config, data = paths.config_dir(), paths.data_dir()
    assert sorted(moved) == sorted([data / "games", config / "identity.key", config / "settings.json"])
    assert (config / "identity.key").read_bytes() == b"k" * 32
    assert (data / "games" / "ROOM-peer" / "seat.json").is_file()
    assert settings.load().name == "Ola"
    (earlier / "settings.json").write_text('{"name": "Stale"}')  # a second start: today's files stay
    assert paths.adopt_earlier_folder() == []
    assert settings.load().name == "Ola"
