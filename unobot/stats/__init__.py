"""Game results and leaderboards: the store interface, its peewee implementation, and helpers.

The bot records one :class:`GameRecord` per finished game and asks for :class:`PlayerStats`;
everything else (models, SQL, migrations, the durable queue) stays behind :class:`StatsStore`.
"""

from unobot.stats.model import (
    GameRecord,
    Period,
    PlayerResult,
    PlayerStats,
    Ranking,
    StatsStore,
)

__all__ = ["GameRecord", "Period", "PlayerResult", "PlayerStats", "Ranking", "StatsStore"]
