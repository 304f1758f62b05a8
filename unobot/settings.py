"""Per-player preferences behind a small interface, so persistence can be swapped in later.

Only the hand colour preference (``.pce-on`` / ``.pce-off``) exists so far. Players are keyed by
an identity string chosen by the bot (services account when known, else the folded nick), so a
player who changes nick mid-game keeps their preference.
"""

from __future__ import annotations

from typing import Protocol

__all__ = ["DatabaseSettings", "MemorySettings", "SettingsStore"]


class SettingsStore(Protocol):
    """Where player preferences live; the bot only ever calls these two methods."""

    def colors(self, player: str) -> bool:
        """Whether ``player`` wants mIRC colours in their private hand (default: yes)."""
        ...

    def set_colors(self, player: str, on: bool) -> None: ...


class MemorySettings:
    """Preferences in a dict: for tests and until a database-backed store exists."""

    def __init__(self) -> None:
        self._colors: dict[str, bool] = {}

    def colors(self, player: str) -> bool:
        return self._colors.get(player, True)

    def set_colors(self, player: str, on: bool) -> None:
        self._colors[player] = on


class DatabaseSettings:
    """Preferences in the bot's database (SQLite by default), so they survive restarts.

    Uses ``playhouse.db_url`` URLs (``sqlite:///stats.db``, ``postgresql://…``); one small table.
    Reads are cached: the bot asks for a player's preference on every hand it sends.
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

        self._model = PlayerSetting
        self.db.create_tables([PlayerSetting], safe=True)
        self._cache: dict[str, bool] = {}

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

    def close(self) -> None:
        self.db.close()
