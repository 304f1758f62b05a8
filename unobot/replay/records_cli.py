"""``unobot records rebuild [--database URL] [--config FILE]``: recompute the records (fastest
wins, biggest hands, streaks, cards held, comebacks, games in a day) from the stored games and
their move lists (:func:`unobot.stats.record_rows.rebuild_records`), e.g. after upgrading a
store whose games predate the records, or after rows were edited by hand. Safe while bots
run: the rebuild takes the store's write lock, so no game is counted twice or missed."""

from __future__ import annotations

from collections.abc import Callable

from unobot.stats.ratings_cli import rebuild_command

__all__ = ["main"]


def main(argv: list[str], database_url: Callable[[str | None, str | None], str]) -> int:
    """The exit status. ``database_url(config, database)`` resolves the two options as the bot
    would (``unobot.main.database_url``); it raises ValueError for a bad config."""
    from unobot.replay.figures import move_figures

    return rebuild_command(
        argv,
        database_url,
        group="records",
        title="Records.",
        summary="recompute the records from the stored games",
        description=__doc__ or "",
        rebuild=lambda store: store.rebuild_records(),
        analyse=move_figures,
    )
