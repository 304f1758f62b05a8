"""Player preferences and channel rules behind a small interface, so persistence can be swapped.

Players' hand colour preference (``.pce-on`` / ``.pce-off``) is keyed by an identity string chosen
by the bot (services account when known, else the folded nick), so a player who changes nick
mid-game keeps their preference. A channel's rules (``.unorules``) are keyed by the folded channel
name and kept as text: the preset's name and the options that differ from it, so a later change
of a preset's defaults reaches every channel that did not change that option itself.
"""

from __future__ import annotations

import dataclasses
import json
from enum import Enum
from typing import Any, Protocol

from unobot.engine.rules import HouseRules, preset

__all__ = [
    "ChannelRules",
    "DatabaseSettings",
    "MemorySettings",
    "SettingsStore",
    "option_text",
    "rules_as_text",
    "rules_from_text",
]

ChannelRules = tuple[str, dict[str, str]]
"""A channel's stored rules: preset name, and ``{option: value as a player types it}``."""


def option_text(value: Any) -> str:
    """An option's value as ``HouseRules.with_option`` reads it back (``same``, ``on``, ``4``)."""
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def rules_as_text(rules: HouseRules) -> ChannelRules:
    """What to store for ``rules``: its preset and only the options changed from it."""
    return rules.name, {k: option_text(v) for k, v in rules.differences().items()}


def rules_from_text(name: str, options: dict[str, str]) -> HouseRules:
    """The rules a stored ``(preset, options)`` pair stands for; ValueError if no longer valid.

    Each value is parsed on its own against the permissive default rules and the result is
    validated once as a whole: applying them one by one could fail half-way (bac-tournament
    with ``max_players 8`` and ``min_players 6`` is valid, its ``min_players 6`` alone is not).
    """
    base = preset(name)
    default = HouseRules()
    changed: dict[str, Any] = {}
    for option, text in options.items():
        parsed = default.with_option(option, text)
        key = option.strip().lower().replace("-", "_")
        changed[key] = getattr(parsed, key)
    rules = dataclasses.replace(base, **changed)
    rules.validate()
    return rules


class SettingsStore(Protocol):
    """Where preferences and channel rules live; the bot only ever calls these methods."""

    def colors(self, player: str) -> bool:
        """Whether ``player`` wants mIRC colours in their private hand (default: yes)."""
        ...

    def set_colors(self, player: str, on: bool) -> None: ...

    def channel_rules(self, channel: str) -> ChannelRules | None:
        """The rules chosen for ``channel`` (a folded name) with ``.unorules``; None: none yet."""
        ...

    def set_channel_rules(self, channel: str, preset: str, options: dict[str, str]) -> None:
        """Remember ``channel``'s rules: a preset's name and the options changed from it."""
        ...


class MemorySettings:
    """Preferences in dicts: for tests, and for a bot run without a database."""

    def __init__(self) -> None:
        self._colors: dict[str, bool] = {}
        self._rules: dict[str, ChannelRules] = {}

    def colors(self, player: str) -> bool:
        return self._colors.get(player, True)

    def set_colors(self, player: str, on: bool) -> None:
        self._colors[player] = on

    def channel_rules(self, channel: str) -> ChannelRules | None:
        found = self._rules.get(channel)
        return None if found is None else (found[0], dict(found[1]))

    def set_channel_rules(self, channel: str, preset: str, options: dict[str, str]) -> None:
        self._rules[channel] = (preset, dict(options))


class DatabaseSettings:
    """Preferences in the bot's database (SQLite by default), so they survive restarts.

    Uses ``playhouse.db_url`` URLs (``sqlite:///stats.db``, ``postgresql://…``); two small tables
    (``player_setting``, ``channel_rules``), created if missing, so a stats database made before
    channel rules existed simply gains the second. Reads are cached: the bot asks for a player's
    preference on every hand it sends, and for a channel's rules whenever a game opens.
    """

    def __init__(self, url: str) -> None:
        import peewee
        from playhouse.db_url import connect

        self.db = connect(url)
        if isinstance(self.db, peewee.SqliteDatabase):
            self.db.pragma("journal_mode", "wal", permanent=True)

        class PlayerSetting(peewee.Model):
            player = peewee.CharField(primary_key=True, max_length=200)
            colors = peewee.BooleanField(default=True)

            class Meta:
                database = self.db
                table_name = "player_setting"

        class ChannelRulesRow(peewee.Model):
            channel = peewee.CharField(primary_key=True, max_length=255)
            preset = peewee.CharField(max_length=100)
            options = peewee.TextField(default="{}")
            """JSON object: option name -> value as typed (``{"stacking": "same"}``)."""

            class Meta:
                database = self.db
                table_name = "channel_rules"

        self._model = PlayerSetting
        self._rules_model = ChannelRulesRow
        self.db.create_tables([PlayerSetting, ChannelRulesRow], safe=True)
        self._cache: dict[str, bool] = {}
        self._rules_cache: dict[str, ChannelRules | None] = {}

    def colors(self, player: str) -> bool:
        if player not in self._cache:
            row = self._model.get_or_none(self._model.player == player)
            self._cache[player] = True if row is None else bool(row.colors)
        return self._cache[player]

    def set_colors(self, player: str, on: bool) -> None:
        self._model.insert(player=player, colors=on).on_conflict(
            conflict_target=[self._model.player], update={self._model.colors: on}
        ).execute()
        self._cache[player] = on

    def channel_rules(self, channel: str) -> ChannelRules | None:
        if channel not in self._rules_cache:
            row = self._rules_model.get_or_none(self._rules_model.channel == channel)
            found: ChannelRules | None = None
            if row is not None:
                options = json.loads(row.options or "{}")
                found = (str(row.preset), {str(k): str(v) for k, v in options.items()})
            self._rules_cache[channel] = found
        cached = self._rules_cache[channel]
        return None if cached is None else (cached[0], dict(cached[1]))

    def set_channel_rules(self, channel: str, preset: str, options: dict[str, str]) -> None:
        text = json.dumps(options, sort_keys=True)
        model = self._rules_model
        model.insert(channel=channel, preset=preset, options=text).on_conflict(
            conflict_target=[model.channel], update={model.preset: preset, model.options: text}
        ).execute()
        self._rules_cache[channel] = (preset, dict(options))

    def close(self) -> None:
        self.db.close()
