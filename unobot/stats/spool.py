"""A durable local queue of finished games, for while the database is unreachable.

JSON lines, appended and fsync'd one game at a time, so a game survives the bot crashing
right after it was queued. Draining rewrites the file atomically (temp file, fsync, rename)
with whatever is still waiting; a crash between writing a game to the database and that
rewrite only replays the game, which the store ignores by its game_id: exactly once.

The reactor appends while the database worker drains (``unobot.stats.worker``): one lock
orders the two, and draining removes exactly the games it wrote (:meth:`Spool.discard`), so a
game appended meanwhile stays queued.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Collection
from pathlib import Path

from unobot.stats.model import GameRecord
from unobot.stats.records import from_json, to_json

__all__ = ["Spool"]

log = logging.getLogger(__name__)


class Spool:
    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()

    def append(self, game: GameRecord) -> None:
        """Queue ``game`` durably (raises OSError when even the local disk refuses)."""
        line = (to_json(game) + "\n").encode()
        with self._lock:
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                os.write(fd, line)
                os.fsync(fd)
            finally:
                os.close(fd)

    def discard(self, game_ids: Collection[str]) -> None:
        """Remove the games with these ids (written to the database), keeping every other,
        including any appended since they were read."""
        if not game_ids:
            return
        with self._lock:
            self._replace([g for g in self.pending() if g.game_id not in game_ids])

    def pending(self) -> list[GameRecord]:
        """The queued games, oldest first. A torn last line (crash mid-append) is skipped."""
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return []
        except OSError as err:  # an unusable folder: nothing could have been queued there
            log.debug("stats spool %s unreadable (%s)", self.path, err)
            return []
        games = []
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                games.append(from_json(line))
            except (ValueError, KeyError, TypeError):
                log.warning("stats spool %s: skipping unreadable line %d", self.path, number)
        return games

    def __bool__(self) -> bool:
        try:
            return self.path.stat().st_size > 0
        except OSError:  # missing, or its folder unusable: nothing queued there
            return False

    def replace(self, games: list[GameRecord]) -> None:
        """Atomically make ``games`` the whole queue (empty: remove the file)."""
        with self._lock:
            self._replace(games)

    def _replace(self, games: list[GameRecord]) -> None:
        if not games:
            self.path.unlink(missing_ok=True)
            return
        tmp = self.path.with_name(self.path.name + ".tmp")
        with open(tmp, "w", encoding="utf-8") as out:
            out.writelines(to_json(g) + "\n" for g in games)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, self.path)
        dirfd = os.open(self.path.parent, os.O_RDONLY)
        try:
            os.fsync(dirfd)
        finally:
            os.close(dirfd)
