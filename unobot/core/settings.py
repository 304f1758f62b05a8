"""Player preferences and channel rules behind a small interface, so persistence can be swapped.

Players' hand colour preference (``.pce-on`` / ``.pce-off``), whether they want their hand when
their turn comes (``.unohand on|off``) and how it comes (``.unohand query|notice``: a private
message or a NOTICE) are keyed by an identity string chosen by the bot (services account when
known, else the folded nick), so a player who changes nick mid-game keeps them. A
channel's rules (``.unorules``) are keyed by the folded channel name and kept as text: the
preset's name and the options that differ from it, so a later change of a preset's defaults
reaches every channel that did not change that option itself.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
from collections.abc import Callable
from enum import Enum
from typing import TYPE_CHECKING, Any, Protocol

from unobot.engine.rules import HouseRules, preset

if TYPE_CHECKING:
    import peewee

    from unobot.stats.worker import DbWorker

__all__ = [
    "BackgroundSettings",
    "ChannelRules",
    "DatabaseSettings",
    "MemorySettings",
    "SettingsStore",
    "option_text",
    "rules_as_text",
    "rules_from_text",
]

log = logging.getLogger(__name__)

ChannelRules = tuple[str, dict[str, str]]
"""A channel's stored rules: preset name, and ``{option: value as a player types it}``."""
Loaded = tuple[
    dict[str, bool], dict[str, ChannelRules], dict[str, bool], dict[str, bool], dict[str, str]
]
"""Everything stored: colour preferences, channels' rules, turn-hand preferences, hands by
private message, languages."""


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

    def turn_hands(self, player: str) -> bool:
        """Whether ``player`` wants their hand when their turn comes (default: yes)."""
        ...

    def set_turn_hands(self, player: str, on: bool) -> None: ...

    def hand_query(self, player: str) -> bool:
        """Whether ``player`` wants their hands by private message (PRIVMSG, which clients
        show in a query window) instead of by NOTICE (default: no, NOTICE)."""
        ...

    def set_hand_query(self, player: str, on: bool) -> None: ...

    def channel_rules(self, channel: str) -> ChannelRules | None:
        """The rules chosen for ``channel`` (a folded name) with ``.unorules``; None: none yet."""
        ...

    def set_channel_rules(self, channel: str, preset: str, options: dict[str, str]) -> None:
        """Remember ``channel``'s rules: a preset's name and the options changed from it."""
        ...

    def language(self, key: str) -> str | None:
        """The language chosen with ``.unolang`` by a channel (its folded name) or a person
        (their identity); None: none chosen (the config's, else English, answers)."""
        ...

    def set_language(self, key: str, lang: str | None) -> None:
        """Remember ``key``'s language; None forgets it."""
        ...


class MemorySettings:
    """Preferences in dicts: for tests, and for a bot run without a database."""

    def __init__(self) -> None:
        self._colors: dict[str, bool] = {}
        self._turn_hands: dict[str, bool] = {}
        self._query: dict[str, bool] = {}
        self._rules: dict[str, ChannelRules] = {}
        self._languages: dict[str, str] = {}
        self.language_listeners: list[Callable[[], None]] = []
        """Called on every change of language (the bot keeps channels' languages until one)."""

    def colors(self, player: str) -> bool:
        return self._colors.get(player, True)

    def set_colors(self, player: str, on: bool) -> None:
        self._colors[player] = on

    def language(self, key: str) -> str | None:
        return self._languages.get(key)

    def set_language(self, key: str, lang: str | None) -> None:
        if lang is None:
            self._languages.pop(key, None)
        else:
            self._languages[key] = lang
        for listener in self.language_listeners:
            listener()

    def turn_hands(self, player: str) -> bool:
        return self._turn_hands.get(player, True)

    def set_turn_hands(self, player: str, on: bool) -> None:
        self._turn_hands[player] = on

    def hand_query(self, player: str) -> bool:
        return self._query.get(player, False)

    def set_hand_query(self, player: str, on: bool) -> None:
        self._query[player] = on

    def channel_rules(self, channel: str) -> ChannelRules | None:
        found = self._rules.get(channel)
        return None if found is None else (found[0], dict(found[1]))

    def set_channel_rules(self, channel: str, preset: str, options: dict[str, str]) -> None:
        self._rules[channel] = (preset, dict(options))


class DatabaseSettings:
    """Preferences in the bot's database (SQLite by default), so they survive restarts.

    Uses ``playhouse.db_url`` URLs (``sqlite:///stats.db``, ``postgresql://…``); two small tables
    (``player_setting``, ``channel_rules``), created if missing, so a stats database made before
    channel rules existed simply gains the second, and a ``player_setting`` made before
    ``.unohand`` gains its ``turn_hand`` and ``hand_query`` columns (``playhouse.migrate``; a
    row's new column takes the field's default, the preference of whoever never chose).
    Reads are cached: the bot asks for a player's preference on every hand it sends, and for
    a channel's rules whenever a game opens.
    """

    def __init__(self, url: str, timeout: float = 5.0) -> None:
        """Connects and creates its tables: raises the driver's error when the database can't
        be reached (:class:`BackgroundSettings` calls this on the database worker and retries).
        ``timeout``: seconds to connect, to wait on a lock, and for a statement."""
        import peewee

        from unobot.stats.sql import open_database

        self.db = open_database(url, timeout)
        if isinstance(self.db, peewee.SqliteDatabase):
            self.db.pragma("journal_mode", "wal", permanent=True)

        class PlayerSetting(peewee.Model):
            player = peewee.CharField(primary_key=True, max_length=200)
            colors = peewee.BooleanField(default=True)
            turn_hand = peewee.BooleanField(default=True)
            hand_query = peewee.BooleanField(default=False)

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

        class LanguageRow(peewee.Model):
            key = peewee.CharField(primary_key=True, max_length=255)
            """A folded channel name, or a person's identity (account or folded nick)."""
            language = peewee.CharField(max_length=16)

            class Meta:
                database = self.db
                table_name = "language_setting"

        self._model = PlayerSetting
        self._rules_model = ChannelRulesRow
        self._language_model = LanguageRow
        self.db.create_tables([PlayerSetting, ChannelRulesRow, LanguageRow], safe=True)
        columns = {c.name for c in self.db.get_columns("player_setting")}
        added = [f for f in (PlayerSetting.turn_hand, PlayerSetting.hand_query)
                 if f.column_name not in columns]  # fmt: skip
        if added:
            from playhouse.migrate import SchemaMigrator, migrate

            migrator = SchemaMigrator.from_database(self.db)
            migrate(*(migrator.add_column("player_setting", f.column_name, f) for f in added))
        self._cache: dict[str, bool] = {}
        self._turn_cache: dict[str, bool] = {}
        self._query_cache: dict[str, bool] = {}
        self._rules_cache: dict[str, ChannelRules | None] = {}
        self._language_cache: dict[str, str | None] = {}

    def language(self, key: str) -> str | None:
        if key not in self._language_cache:
            row = self._language_model.get_or_none(self._language_model.key == key)
            self._language_cache[key] = None if row is None else str(row.language)
        return self._language_cache[key]

    def set_language(self, key: str, lang: str | None) -> None:
        model = self._language_model
        if lang is None:
            model.delete().where(model.key == key).execute()
        else:
            model.insert(key=key, language=lang).on_conflict(
                conflict_target=[model.key], update={model.language: lang}
            ).execute()
        self._language_cache[key] = lang

    def _flag(self, field: peewee.Field, cache: dict[str, bool], player: str) -> bool:
        """A player's on/off setting (the field's default unless they chose), read once then
        cached."""
        if player not in cache:
            row = self._model.get_or_none(self._model.player == player)
            cache[player] = bool(field.default) if row is None else bool(getattr(row, field.name))
        return cache[player]

    def _set_flag(self, field: peewee.Field, cache: dict[str, bool], player: str, on: bool) -> None:
        self._model.insert(player=player, **{field.name: on}).on_conflict(
            conflict_target=[self._model.player], update={field: on}
        ).execute()
        cache[player] = on

    def colors(self, player: str) -> bool:
        return self._flag(self._model.colors, self._cache, player)

    def set_colors(self, player: str, on: bool) -> None:
        self._set_flag(self._model.colors, self._cache, player, on)

    def turn_hands(self, player: str) -> bool:
        return self._flag(self._model.turn_hand, self._turn_cache, player)

    def set_turn_hands(self, player: str, on: bool) -> None:
        self._set_flag(self._model.turn_hand, self._turn_cache, player, on)

    def hand_query(self, player: str) -> bool:
        return self._flag(self._model.hand_query, self._query_cache, player)

    def set_hand_query(self, player: str, on: bool) -> None:
        self._set_flag(self._model.hand_query, self._query_cache, player, on)

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

    def load_all(self) -> Loaded:
        """Every stored preference and channel's rules (one small row per player who ever
        changed a preference, one per channel that changed its rules)."""
        players = list(self._model.select())
        colors = {str(r.player): bool(r.colors) for r in players}
        turn_hands = {str(r.player): bool(r.turn_hand) for r in players}
        query = {str(r.player): bool(r.hand_query) for r in players}
        rules = {}
        for row in self._rules_model.select():
            options = json.loads(row.options or "{}")
            rules[str(row.channel)] = (
                str(row.preset),
                {str(k): str(v) for k, v in options.items()},
            )
        languages = {str(r.key): str(r.language) for r in self._language_model.select()}
        self._cache.update(colors)
        self._turn_cache.update(turn_hands)
        self._query_cache.update(query)
        self._rules_cache.update(rules)
        self._language_cache.update(languages)
        return colors, rules, turn_hands, query, languages

    def close(self) -> None:
        self.db.close()


_Write = tuple[str, str]
"""A pending write's key: (``colors``, ``turn_hand``, ``hand_query``, ``rules`` or
``language``, player or channel)."""


class BackgroundSettings:
    """The settings the bot uses: answered from memory at once, kept in step with the
    database on the database worker (``unobot.stats.worker``), never waiting for it.

    At start the worker loads every stored preference and channel's rules; until it has (the
    database is down, stalled or read-only) the defaults answer. A change takes effect in
    memory at once and is written by the worker; a write that fails stays pending and is
    retried by :meth:`maintain` (the bot's upkeep timer) until the database takes it, and a
    load that comes later never overrides a change made meanwhile.
    """

    def __init__(self, open_store: Callable[[], DatabaseSettings], worker: DbWorker) -> None:
        self._open_store = open_store
        self.worker = worker
        self._store: DatabaseSettings | None = None
        """Touched on the worker thread only."""
        self._colors: dict[str, bool] = {}
        self._turn_hands: dict[str, bool] = {}
        self._query: dict[str, bool] = {}
        self._rules: dict[str, ChannelRules] = {}
        self._languages: dict[str, str | None] = {}
        self.language_listeners: list[Callable[[], None]] = []
        """Called on every change of language (a command's, or the stored ones loaded): the
        bot keeps channels' languages until one."""
        self._pending: dict[_Write, Any] = {}
        self._busy = False
        """A load or a flush is on the worker: don't queue another."""
        self.loaded = False
        """The stored settings are in memory (False: defaults answer for whoever isn't)."""
        self._start()

    # --- the reactor's side --------------------------------------------------------------

    def colors(self, player: str) -> bool:
        return self._colors.get(player, True)

    def set_colors(self, player: str, on: bool) -> None:
        self._set_flag(self._colors, "colors", player, on)

    def turn_hands(self, player: str) -> bool:
        return self._turn_hands.get(player, True)

    def set_turn_hands(self, player: str, on: bool) -> None:
        self._set_flag(self._turn_hands, "turn_hand", player, on)

    def hand_query(self, player: str) -> bool:
        return self._query.get(player, False)

    def set_hand_query(self, player: str, on: bool) -> None:
        self._set_flag(self._query, "hand_query", player, on)

    def _set_flag(self, flags: dict[str, bool], kind: str, player: str, on: bool) -> None:
        """A player's on/off preference: in memory at once, written by the worker (``kind``
        names it in :meth:`_write`)."""
        flags[player] = on
        self._pending[(kind, player)] = on
        self._flush()

    def channel_rules(self, channel: str) -> ChannelRules | None:
        found = self._rules.get(channel)
        return None if found is None else (found[0], dict(found[1]))

    def set_channel_rules(self, channel: str, preset: str, options: dict[str, str]) -> None:
        self._rules[channel] = (preset, dict(options))
        self._pending[("rules", channel)] = (preset, dict(options))
        self._flush()

    def language(self, key: str) -> str | None:
        return self._languages.get(key)

    def set_language(self, key: str, lang: str | None) -> None:
        self._languages[key] = lang
        for listener in self.language_listeners:
            listener()
        self._pending[("language", key)] = lang
        self._flush()

    @property
    def pending(self) -> int:
        """Changes not yet in the database."""
        return len(self._pending)

    def maintain(self) -> None:
        """From the upkeep timer: load if that failed, write what is pending."""
        if not self.loaded:
            self._start()
        else:
            self._flush()

    def close(self) -> None:
        """Hand pending writes to the worker (the caller closes the worker)."""
        self._flush()
        self.worker.submit(self._close_store, wait=False)

    def _start(self) -> None:
        if self._busy:
            return
        self._busy = True
        self.worker.submit(self._load, self._loaded, self._failed, wait=False)

    def _loaded(self, found: Loaded) -> None:
        self._busy = False
        colors, rules, turn_hands, query, languages = found
        stored: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
            ("colors", colors, self._colors),
            ("turn_hand", turn_hands, self._turn_hands),
            ("hand_query", query, self._query),
            ("rules", rules, self._rules),
            ("language", languages, self._languages),
        ]
        for kind, values, memory in stored:
            for key, value in values.items():
                if (kind, key) not in self._pending:  # a change made meanwhile wins
                    memory[key] = value
        for listener in self.language_listeners:
            listener()
        if not self.loaded:
            log.info("settings: %d preferences and %d channels' rules loaded", len(colors),
                     len(rules))  # fmt: skip
        self.loaded = True
        self._flush()

    def _failed(self, reason: str) -> None:
        self._busy = False
        log.warning("settings database unavailable (%s); %d changes kept in memory", reason,
                    len(self._pending))  # fmt: skip

    def _flush(self) -> None:
        if self._busy or not self._pending:
            return
        if not self.loaded:
            self._start()  # connecting loads first; its answer flushes
            return
        self._busy = True
        batch = dict(self._pending)
        self.worker.submit(lambda: self._write(batch), self._written, self._failed, wait=False)

    def _written(self, batch: dict[_Write, Any]) -> None:
        self._busy = False
        for key, value in batch.items():
            if self._pending.get(key) == value:
                del self._pending[key]
        self._flush()  # changes made while this batch was written

    # --- the worker's side ---------------------------------------------------------------

    def _connected(self) -> DatabaseSettings:
        if self._store is None:
            self._store = self._open_store()
        return self._store

    def _drop(self) -> None:
        store, self._store = self._store, None
        if store is not None:
            with contextlib.suppress(Exception):
                store.close()

    def _load(self) -> Loaded:
        try:
            return self._connected().load_all()
        except Exception:
            self._drop()  # reconnect next time (a dead connection is never reused)
            raise

    def _write(self, batch: dict[_Write, Any]) -> dict[_Write, Any]:
        try:
            store = self._connected()
            for (kind, key), value in batch.items():
                if kind == "colors":
                    store.set_colors(key, value)
                elif kind == "turn_hand":
                    store.set_turn_hands(key, value)
                elif kind == "hand_query":
                    store.set_hand_query(key, value)
                elif kind == "language":
                    store.set_language(key, value)
                else:
                    store.set_channel_rules(key, value[0], value[1])
        except Exception:
            self._drop()
            raise
        return batch

    def _close_store(self) -> None:
        self._drop()
