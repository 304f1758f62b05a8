"""Per-player preferences behind a small interface, so persistence can be swapped in later.

Only the hand colour preference (``.pce-on`` / ``.pce-off``) exists so far. Players are keyed by
an identity string chosen by the bot (services account when known, else the folded nick), so a
player who changes nick mid-game keeps their preference.
"""

from __future__ import annotations

from typing import Protocol

__all__ = ["MemorySettings", "SettingsStore"]


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
