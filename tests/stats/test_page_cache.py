"""SQLite's page cache is bounded small on the bot's connection (it grew with every game)."""

from __future__ import annotations

from pathlib import Path

from unobot.stats.sql import READER_CACHE_KB, STORE_CACHE_KB, SqlStatsStore, open_database


def test_the_bots_store_keeps_a_small_page_cache_and_readers_a_large_one(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'stats.db'}"
    store = SqlStatsStore(url, spool_path=tmp_path / "spool")
    try:
        assert store.db.execute_sql("PRAGMA cache_size").fetchone()[0] == -STORE_CACHE_KB
    finally:
        store.close()
    reader = open_database(url)
    try:
        assert reader.execute_sql("PRAGMA cache_size").fetchone()[0] == -READER_CACHE_KB
    finally:
        reader.close()
    assert STORE_CACHE_KB <= 4_096  # a few MB at most: the bot touches new pages every game
