"""Durable tables: every table's journal on local disk, and rebuilding tables from it.

Why a journal replayed, not a snapshot: the engine is pure and seeded and a table takes ``now``
explicitly, so a table is exactly its opening (channel, starter, configuration, seed) followed
by the calls it accepted, with their times. Writing one short line per accepted call is cheaper
than serialising a game, and replaying the lines gives back the very same hands, draw pile and
turn order, the catch windows and the timed match, with no second description of the state to
keep in step with the code. (The same lines are what a replay viewer or an audit will read.)

Why a local file, not the stats database: a journal line must be safe before the bot answers
the move, and the database may be a stalled PostgreSQL on another host (no database call runs
on the reactor, ``unobot.stats.worker``). One ``os.write`` of a line goes to the kernel: it
survives the bot being killed (SIGKILL included) at any moment; ``fsync`` at each hand's end
and at shutdown bounds what a power cut could take. A file per table (``<folder>/<id>.jsonl``)
is removed when its game ends.

Times: the scheduler's clock is monotonic and starts again with the process, so each file's
first line records the wall-clock offset at opening, and a restored table's times are moved
onto the new process's clock. Whatever time passed while the bot was down is then given back
(:meth:`Table.catch_up`): nobody is timed out for the bot's downtime.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import queue
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from random import Random
from typing import Any

from unobot.core.settings import rules_as_text, rules_from_text
from unobot.core.table import Table, TableConfig
from unobot.core.updates import Update
from unobot.engine.cards import CARDS, Card, Color

__all__ = ["Journal", "Restored", "TableLog"]

log = logging.getLogger(__name__)

VERSION = 1

_TIME_ARGS = frozenset({"now", "since"})
"""Arguments that are scheduler times (moved onto the new clock when replayed)."""


_PLAIN = (str, float, bool, type(None))


def _encode(value: Any) -> Any:
    if type(value) in _PLAIN or type(value) is int:
        return value
    if isinstance(value, Card):
        return {"$card": value.code}
    if isinstance(value, Color):
        return {"$color": int(value)}
    if value is None or isinstance(value, str | int | float | bool):
        return value
    raise TypeError(f"can't journal {value!r}")


def _decode(value: Any) -> Any:
    if isinstance(value, dict):
        if "$card" in value:
            return CARDS[value["$card"]]  # the deck's cards, indexed by their code
        if "$color" in value:
            return Color(value["$color"])
        raise ValueError(f"unknown journal value {value!r}")
    return value


def config_to_json(config: TableConfig) -> dict[str, Any]:
    fields = {f.name: getattr(config, f.name) for f in dataclasses.fields(config)}
    preset, options = rules_as_text(fields.pop("rules"))
    return {"rules": [preset, options], **fields}


def config_from_json(data: dict[str, Any]) -> TableConfig:
    data = dict(data)
    preset, options = data.pop("rules")
    return TableConfig(rules=rules_from_text(preset, options), **data)


class TableLog:
    """One table's journal file, appended a line per accepted call."""

    def __init__(self, path: Path, clock_offset: float) -> None:
        self.path = path
        self.clock_offset = clock_offset
        self._fd: int | None = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        self.failed = False

    def write(self, record: list[Any]) -> None:
        if self._fd is None:
            return
        line = (json.dumps(record, separators=(",", ":"), default=_encode) + "\n").encode()
        try:
            os.write(self._fd, line)
        except OSError as err:  # a full disk: the game goes on, unjournaled, and says so once
            if not self.failed:
                log.error("journal %s: can't write (%s); this game won't survive a restart",
                          self.path, err)  # fmt: skip
            self.failed = True

    def call(self, method: str, arguments: dict[str, Any]) -> None:
        self.write([method, {k: _encode(v) for k, v in arguments.items()}])

    def sync(self) -> None:
        if self._fd is not None:
            try:
                os.fsync(self._fd)
            except OSError as err:
                log.warning("journal %s: fsync failed (%s)", self.path, err)

    def sync_later(self, syncer: Syncer) -> None:
        """fsync on ``syncer``'s thread: an fsync can take milliseconds, which the reactor
        must not wait for (a SIGKILL loses nothing without it; a power cut is what it is for)."""
        if self._fd is not None:
            try:
                syncer.put(os.dup(self._fd), self.path)
            except OSError as err:
                log.warning("journal %s: can't sync (%s)", self.path, err)

    def close(self, *, remove: bool) -> None:
        if self._fd is not None:
            if not remove:
                self.sync()
            os.close(self._fd)
            self._fd = None
        if remove:
            try:
                self.path.unlink(missing_ok=True)
            except OSError as err:
                log.warning("journal %s: can't remove (%s)", self.path, err)


class Syncer:
    """One daemon thread that fsyncs journal files handed to it (as duplicated descriptors,
    so closing the original meanwhile is safe)."""

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[tuple[int, Path]] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None

    def put(self, fd: int, path: Path) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="unobot-journal", daemon=True)
            self._thread.start()
        self._jobs.put((fd, path))

    def _run(self) -> None:
        while True:
            fd, path = self._jobs.get()
            try:
                os.fsync(fd)
            except OSError as err:
                log.warning("journal %s: fsync failed (%s)", path, err)
            finally:
                os.close(fd)


@dataclasses.dataclass(slots=True)
class Restored:
    """A table rebuilt from its journal, and when its last call happened (new clock)."""

    table: Table
    last: float
    calls: int


class Journal:
    """The folder of table journals: opened tables are written down, ended ones forgotten."""

    def __init__(
        self,
        folder: str | os.PathLike[str],
        now: Callable[[], float],
        wall: Callable[[], float] = time.time,
    ) -> None:
        """``now``: the scheduler's clock (what tables are given); ``wall``: the real time,
        to carry times across processes."""
        self.folder = Path(folder)
        self.now = now
        self.wall = wall
        self._logs: dict[int, TableLog] = {}
        self._syncer = Syncer()
        self.disabled = False
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            log.error("journal folder %s unusable (%s): games won't survive a restart",
                      self.folder, err)  # fmt: skip
            self.disabled = True

    def _offset(self) -> float:
        return self.wall() - self.now()

    def opened(self, table: Table, seed: int, opened_at: float, ident: str) -> None:
        """Start ``table``'s journal (opened with ``Random(seed)`` at ``opened_at``)."""
        if self.disabled:
            return
        path = self.folder / f"{uuid.uuid4().hex}.jsonl"
        try:
            tlog = TableLog(path, self._offset())
        except OSError as err:
            log.error("journal: can't create %s (%s)", path, err)
            return
        tlog.write(
            [
                "open",
                {
                    "version": VERSION,
                    "clock_offset": tlog.clock_offset,
                    "channel": table.channel,
                    "starter": table.starter,
                    "ident": ident,
                    "now": opened_at,
                    "seed": seed,
                    "config": config_to_json(table.config),
                },
            ]
        )
        self._logs[id(table)] = tlog
        table.journal = tlog.call
        table.game_id = path.stem  # the game's id in the stats: the same after a restore

    def attach(self, table: Table, tlog: TableLog) -> None:
        self._logs[id(table)] = tlog
        table.journal = tlog.call

    def sync(self, table: Table) -> None:
        """Make what ``table`` wrote safe from a power cut too (at a hand's end), on the
        syncer's thread."""
        tlog = self._logs.get(id(table))
        if tlog is not None:
            tlog.sync_later(self._syncer)

    def closed(self, table: Table) -> None:
        """``table`` is over (or dropped): its journal goes."""
        table.journal = None
        tlog = self._logs.pop(id(table), None)
        if tlog is not None:
            tlog.close(remove=True)

    def close(self) -> None:
        """At shutdown: every journal synced and kept, for the next start."""
        for tlog in self._logs.values():
            tlog.close(remove=False)
        self._logs.clear()

    def restore(self, observe: Callable[[Table, Any], None] | None = None) -> list[Restored]:
        """Rebuild every journaled table, each writing on in its own file. ``observe`` is
        given each replayed call's update (the stats recorder follows the game as it did
        live). A file that can't be replayed (damaged, or from an incompatible version) is
        set aside as ``.bad`` with a log line, never fatal. Tables that had ended are
        returned too (finished), their files left for the caller to close."""
        if self.disabled:
            return []
        restored = []
        for path in sorted(self.folder.glob("*.jsonl")):
            try:
                found = self._replay(path, observe)
            except Exception as err:
                log.error("journal %s can't be replayed (%s); set aside", path.name, err)
                path.rename(path.with_suffix(".bad"))
                continue
            restored.append(found)
        return restored

    def _replay(self, path: Path, observe: Callable[[Table, Any], None] | None) -> Restored:
        lines = path.read_bytes().split(b"\n")
        records = []
        for number, raw in enumerate(lines, 1):
            if not raw.strip():
                continue
            try:
                records.append(json.loads(raw))
            except ValueError:
                if number >= len(lines) - 1:  # a torn last line: the call was never answered
                    break
                raise
        if not records or records[0][0] != "open":
            raise ValueError("no opening line")
        head = records[0][1]
        if head.get("version") != VERSION:
            raise ValueError(f"journal version {head.get('version')}")
        shift = head["clock_offset"] - self._offset()  # old clock -> this process's clock
        table = Table(
            head["channel"],
            head["starter"],
            head["ident"],
            head["now"] + shift,
            config_from_json(head["config"]),
            Random(head["seed"]),
        )
        table.game_id = path.stem  # before the replay: the recorder names the game by it
        last = head["now"] + shift
        for method, arguments in records[1:]:
            if method == "clock":  # written after an earlier restore: times on its clock
                shift = arguments["offset"] - self._offset()
                continue
            args = {k: _decode(v) for k, v in arguments.items()}
            for key in _TIME_ARGS & args.keys():
                args[key] = args[key] + shift
                last = max(last, args[key])
            update = getattr(table, method)(**args)
            if observe is not None and isinstance(update, Update):
                observe(table, update)
        tlog = TableLog(path, self._offset())
        tlog.write(["clock", {"offset": tlog.clock_offset}])
        self.attach(table, tlog)
        return Restored(table, last, sum(1 for r in records if r[0] not in ("open", "clock")))
