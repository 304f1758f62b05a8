"""``python -m unobot.stats.example``: build ``stats.db.example``, a small seeded stats store.

Games are played for real by the bot core (:func:`unobot.replay.simulate.recorded_games`:
players typing commands at a table, journaled and recorded as a running bot does), so the
figures are the ones a channel would see and every game has its move list, which ``unobot
replay`` and the web site's game pages replay; eight people and a computer player over two
channels and six weeks up to 20 November 2026. Same seed, same file contents.
"""

from __future__ import annotations

import argparse
import tempfile
from datetime import datetime, timedelta
from pathlib import Path

from unobot.replay.figures import move_figures
from unobot.replay.simulate import recorded_games
from unobot.stats.sql import SqlStatsStore

__all__ = ["build"]

NICKS = ["Alice", "bob", "Carol", "dave[m]", "Erin", "frank", "Grace", "heidi"]
CHANNELS = (("#uno", 2, 3), ("#cards", 1, 3))
"""Channel, its share of the games, and its players' offset in :data:`NICKS` (they overlap)."""
END = datetime(2026, 11, 20, 18, 0)
DAYS = 42


def build(path: Path, games: int = 120, seed: int = 7) -> int:
    path.unlink(missing_ok=True)
    shares = sum(share for _, share, _ in CHANNELS)
    records = []
    for number, (channel, share, offset) in enumerate(CHANNELS):
        count = games * share // shares if number else games - games * (shares - share) // shares
        people = NICKS[offset:] + NICKS[:offset] if number else NICKS
        records += recorded_games(
            count,
            seed * 100 + number,
            players=people[:6],
            network="example",
            channel=channel,
            start=END - timedelta(days=DAYS),
            presets=("irc-classic", "irc-classic", "official"),
            gap=DAYS * 86400.0 / max(1, count) * 0.9,
            computers=True,
        )
    records.sort(key=lambda r: r.ended)
    with tempfile.TemporaryDirectory() as tmp:
        store = SqlStatsStore(
            f"sqlite:///{path}", spool_path=Path(tmp) / "spool", analyse=move_figures
        )
        for record in records:
            store.record_game(record)
        store.close()
    return len(records)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m unobot.stats.example", description=__doc__)
    parser.add_argument("--output", type=Path, default=Path("stats.db.example"))
    parser.add_argument("--games", type=int, default=120)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    written = build(args.output, args.games, args.seed)
    print(f"wrote {args.output}: {written} games")


if __name__ == "__main__":
    main()
