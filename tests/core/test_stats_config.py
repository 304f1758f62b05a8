"""The stats settings: ``stats.min_games`` and ``stats.max_list`` from TOML into BotConfig, and the
network name games are filed under."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from unobot.config import ConfigError, add_arguments, load

ROOT = Path(__file__).resolve().parent.parent.parent


def settings_from(tmp_path: Path, text: str):
    path = tmp_path / "unobot.toml"
    path.write_text(text, encoding="utf-8")
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return load(parser.parse_args(["--config", str(path)]))


def test_defaults_and_the_example_file(tmp_path: Path) -> None:
    bot = settings_from(tmp_path, "").bot
    assert (bot.stats_min_games, bot.stats_max_list, bot.network) == (5, 25, "127.0.0.1")
    example = (ROOT / "unobot.toml.example").read_text(encoding="utf-8")
    bot = settings_from(tmp_path, example).bot
    assert (bot.stats_min_games, bot.stats_max_list, bot.network) == (5, 25, "irc.example.net")


def test_stats_keys(tmp_path: Path) -> None:
    bot = settings_from(tmp_path, "[stats]\nmin_games = 1\nmax_list = 50\n").bot
    assert (bot.stats_min_games, bot.stats_max_list) == (1, 50)


@pytest.mark.parametrize(
    "text",
    ["min_games = 0", "max_list = 0", "max_list = 1000", 'min_games = "five"'],
)
def test_bad_stats_keys_are_named(tmp_path: Path, text: str) -> None:
    with pytest.raises(ConfigError, match=r"stats\.(min_games|max_list)"):
        settings_from(tmp_path, f"[stats]\n{text}\n")
