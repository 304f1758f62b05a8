"""Where tournaments are kept: an append-only log of entries per tournament, and its score sheet.

The director (``unobot.tournament.director``) writes every change as an :class:`Entry` and,
after a restart, rebuilds each unfinished tournament by replaying :meth:`TournamentLog.active`
into the format's logic. The entries' ``data`` is the director's, stored as opaque JSON text.

Two implementations of :class:`TournamentLog`:

* :class:`SqlTournamentLog`: the stats database (SQLite or PostgreSQL), tables ``tournament``,
  ``tournament_entry`` and ``tournament_score`` of schema v3 (the sheet's ``label``, ``clock``
  and ``round_number`` columns: v6; ``unobot.stats.schema``). Build it
  on the stats store's own database object (``SqlTournamentLog(stats_store.db)``: one
  connection, and the bot's one database worker, for both), or from a URL with
  :meth:`SqlTournamentLog.from_url`. Nothing connects until the first call, which also brings
  the schema up to date, so it may be made on the reactor and used on the worker.
* :class:`MemoryTournamentLog`: the same contract in memory, for unit tests.

Every method may be called from any thread (the bot calls them on its ``DbWorker``; each
thread gets its own connection, and the SQL is plain statements, never peewee's shared model
binding). Writes are idempotent so that the director can re-send a batch the database may or
may not have taken: :meth:`~TournamentLog.append` keys on ``(tournament, seq)``,
:meth:`~TournamentLog.add_sheet` replaces the rows of the games it is given.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol, TypeVar

import peewee as pw

from unobot.irc.casemap import irc_lower
from unobot.stats import schema
from unobot.stats.sql import _DB_ERRORS, open_database
from unobot.stats.summaries import sql_for, stamp_for
from unobot.tournament.model import SheetRow, TournamentError

__all__ = [
    "ACTIVE",
    "FINAL",
    "STATUS_OF",
    "Entry",
    "MemoryTournamentLog",
    "SheetRow",
    "SqlTournamentLog",
    "Stored",
    "TournamentLog",
    "name_key",
]

T = TypeVar("T")

STATUS_OF = {"start": "running", "done": "done", "cancel": "cancelled"}
"""The entry kinds that change a tournament's status (created as "signup")."""
ACTIVE = ("signup", "running")
"""The statuses :meth:`TournamentLog.active` returns."""
FINAL = ("done", "cancelled")
"""Statuses a tournament never leaves."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One change to a tournament: ``seq`` 0, 1, 2 … per tournament, ``kind`` ("new", "join",
    "result" …), ``data`` the director's JSON object, ``at`` wall-clock epoch seconds."""

    seq: int
    kind: str
    data: dict[str, Any]
    at: float


@dataclass(frozen=True, slots=True)
class Stored:
    """A tournament as kept: ``created``/``ended`` epoch seconds; ``entries`` in seq order;
    ``sheet`` in the order it was added."""

    name: str
    format: str
    channel: str
    status: str
    created: float
    entries: list[Entry] = field(default_factory=list)
    sheet: list[SheetRow] = field(default_factory=list)
    ended: float | None = None


class TournamentLog(Protocol):
    """Where the director keeps tournaments. Thread-safe; raises :class:`TournamentError` for
    a name taken or unknown, the database driver's errors when it can't be reached."""

    def create(self, name: str, format: str, channel: str, at: float) -> None:
        """A new tournament, status "signup". Taken names (compared folded, against every
        tournament ever stored, finished or not) raise :class:`TournamentError`."""
        ...

    def append(self, name: str, entry: Entry) -> None:
        """Add ``entry`` to ``name``'s log; an entry whose seq is already stored (a re-sent
        one) changes nothing. ``start``/``done``/``cancel`` set the status; ``done`` and
        ``cancel`` the end time. A ``new`` entry for a name never created creates it (from
        its data: format, channel), so that a lost :meth:`create` costs nothing."""
        ...

    def add_sheet(self, name: str, rows: Iterable[SheetRow]) -> None:
        """Add score-sheet lines; rows already stored for the same ``game_key`` are replaced
        (a game's lines are re-sent whole), so this is idempotent too."""
        ...

    def load(self, name: str) -> Stored | None:
        """``name`` (any case) with its entries and sheet, or None."""
        ...

    def active(self) -> list[Stored]:
        """Every tournament in sign-up or running, oldest first, with entries and sheet."""
        ...

    def names(self, limit: int = 20) -> list[str]:
        """Names as typed, newest first, at most ``limit``."""
        ...

    def close(self) -> None: ...


def name_key(name: str) -> str:
    """How tournament names compare: folded with IRC case rules (``Cup`` = ``cup``)."""
    return irc_lower(name.strip())


def _to_json(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _same(entry: Entry, kind: str, data: str) -> bool:
    return entry.kind == kind and json.loads(_to_json(entry.data)) == json.loads(data)


def _conflict(name: str, entry: Entry) -> TournamentError:
    return TournamentError(
        f"tournament {name}: entry {entry.seq} ({entry.kind}) differs from the one stored"
    )


def _status(current: str, kind: str) -> str:
    if current in FINAL:
        return current
    return STATUS_OF.get(kind, current)


# --- SQL ------------------------------------------------------------------------------------


def _epoch(value: Any) -> float:
    """A stored naive-UTC time (SQLite: text, PostgreSQL: datetime) as epoch seconds."""
    when = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    return when.replace(tzinfo=UTC).timestamp()


def _naive(at: float) -> datetime:
    return datetime.fromtimestamp(at, UTC).replace(tzinfo=None)


_DELETE_GAME = "DELETE FROM tournament_score WHERE tournament_id = ? AND game_key = ?"
_TOURNAMENT = "SELECT id, name, format, channel, status, created, ended FROM tournament"


class SqlTournamentLog:
    """The :class:`TournamentLog` in the stats database (see the module docstring)."""

    def __init__(self, db: pw.Database, *, owns: bool = False) -> None:
        """``db``: an open peewee database, e.g. ``SqlStatsStore(url).db`` or
        ``unobot.stats.sql.open_database(url)``. ``owns``: :meth:`close` closes it (leave
        False for a database the stats store also uses)."""
        self.db = db
        self.owns = owns
        self._sqlite = isinstance(db, pw.SqliteDatabase)
        self._stamp = stamp_for(db)
        self._migrated = False
        self._lock = threading.Lock()

    @classmethod
    def from_url(cls, url: str, timeout: float = 5.0) -> SqlTournamentLog:
        """A log on its own database object for ``url`` (``sqlite:///stats.db``,
        ``postgresql://…``), opened as the stats store opens it (:func:`open_database`)."""
        return cls(open_database(url, timeout), owns=True)

    # -- plumbing --------------------------------------------------------------------------

    def _s(self, text: str) -> str:
        return sql_for(self.db, text)

    def _run(self, job: Callable[[], T]) -> T:
        """``job`` with the schema up to date; a failed connection is dropped (peewee would
        keep the dead one) so that the next call reconnects."""
        try:
            if not self._migrated:
                with self._lock:
                    if not self._migrated:
                        schema.migrate(self.db)
                        self._migrated = True
            return job()
        except _DB_ERRORS:
            conn = self.db._state.conn
            if conn is not None:
                with contextlib.suppress(Exception):
                    conn.close()
            self.db.dispose()
            raise

    def _write(self) -> Any:
        """A write transaction: SQLite takes the write lock at once (a read-then-write
        transaction would otherwise fail instead of waiting on another writer)."""
        return self.db.atomic("IMMEDIATE") if self._sqlite else self.db.atomic()

    def _one(self, sql: str, params: Sequence[Any]) -> tuple[Any, ...] | None:
        row = self.db.execute_sql(self._s(sql), tuple(params)).fetchone()
        return None if row is None else tuple(row)

    def _id(self, name: str) -> int | None:
        row = self._one("SELECT id FROM tournament WHERE name_key = ?", (name_key(name),))
        return None if row is None else int(row[0])

    def _insert(self, name: str, format: str, channel: str, at: float) -> int | None:
        """The new tournament's id, None when the name is taken."""
        row = self._one(
            "INSERT INTO tournament (name, name_key, format, channel, status, created) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (name_key) DO NOTHING RETURNING id",
            (name.strip(), name_key(name), format, channel, "signup", self._stamp(_naive(at))),
        )
        return None if row is None else int(row[0])

    # -- writing ---------------------------------------------------------------------------

    def create(self, name: str, format: str, channel: str, at: float) -> None:
        def job() -> None:
            with self._write():
                if self._insert(name, format, channel, at) is None:
                    raise TournamentError(f"there is already a tournament called {name}")

        self._run(job)

    def append(self, name: str, entry: Entry) -> None:
        data = _to_json(entry.data)

        def job() -> None:
            with self._write():
                tid = self._id(name)
                if tid is None and entry.kind == "new":
                    d = entry.data
                    tid = self._insert(
                        name, str(d.get("format", "")), str(d.get("channel", "")), entry.at
                    )
                if tid is None:
                    raise TournamentError(f"no tournament called {name}")
                added = self._one(
                    "INSERT INTO tournament_entry (tournament_id, seq, kind, data, at) "
                    "VALUES (?, ?, ?, ?, ?) ON CONFLICT (tournament_id, seq) DO NOTHING "
                    "RETURNING id",
                    (tid, entry.seq, entry.kind, data, float(entry.at)),
                )
                if added is None:
                    stored = self._one(
                        "SELECT kind, data FROM tournament_entry "
                        "WHERE tournament_id = ? AND seq = ?",
                        (tid, entry.seq),
                    )
                    if stored is not None and not _same(entry, str(stored[0]), str(stored[1])):
                        raise _conflict(name, entry)
                    return
                if entry.kind not in STATUS_OF:
                    return
                status = self._one("SELECT status FROM tournament WHERE id = ?", (tid,))
                assert status is not None
                new = _status(str(status[0]), entry.kind)
                if new != status[0]:
                    ended = self._stamp(_naive(entry.at)) if new in FINAL else None
                    self.db.execute_sql(
                        self._s("UPDATE tournament SET status = ?, ended = ? WHERE id = ?"),
                        (new, ended, tid),
                    )

        self._run(job)

    def add_sheet(self, name: str, rows: Iterable[SheetRow]) -> None:
        lines = list(rows)

        def job() -> None:
            with self._write():
                tid = self._id(name)
                if tid is None:
                    raise TournamentError(f"no tournament called {name}")
                cur = self.db.cursor()
                keys = list(dict.fromkeys(r.game_key for r in lines))
                cur.executemany(
                    self._s(_DELETE_GAME),
                    [(tid, key) for key in keys],
                )
                cur.executemany(
                    self._s(
                        "INSERT INTO tournament_score (tournament_id, game_key, table_number, "
                        "game, player, points, won, label, clock, round_number) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                    ),
                    [
                        (
                            tid,
                            r.game_key,
                            r.table,
                            r.game,
                            r.player,
                            r.points,
                            bool(r.won),
                            r.label,
                            bool(r.clock),
                            r.round,
                        )
                        for r in lines
                    ],
                )

        self._run(job)

    # -- reading ---------------------------------------------------------------------------

    def _stored(self, where: str, params: Sequence[Any]) -> list[Stored]:
        heads = self.db.execute_sql(
            self._s(f"{_TOURNAMENT} WHERE {where} ORDER BY created, id"), tuple(params)
        ).fetchall()
        if not heads:
            return []
        ids = [int(h[0]) for h in heads]
        marks = ", ".join("?" for _ in ids)
        entries: dict[int, list[Entry]] = {i: [] for i in ids}
        for tid, seq, kind, data, at in self.db.execute_sql(
            self._s(
                "SELECT tournament_id, seq, kind, data, at FROM tournament_entry "
                f"WHERE tournament_id IN ({marks}) ORDER BY tournament_id, seq"
            ),
            ids,
        ).fetchall():
            entries[int(tid)].append(Entry(int(seq), str(kind), json.loads(data), float(at)))
        sheets: dict[int, list[SheetRow]] = {i: [] for i in ids}
        for tid, key, table, game, player, points, won, label, clock, round_ in self.db.execute_sql(
            self._s(
                "SELECT tournament_id, game_key, table_number, game, player, points, won, "
                "label, clock, round_number "
                f"FROM tournament_score WHERE tournament_id IN ({marks}) ORDER BY id"
            ),
            ids,
        ).fetchall():
            row = SheetRow(
                str(key),
                int(table),
                int(game),
                str(player),
                int(points),
                bool(won),
                str(label or ""),
                bool(clock),
                int(round_ or 1),
            )
            sheets[int(tid)].append(row)
        found = []
        for tid, name, fmt, channel, status, created, ended in heads:
            done = None if ended is None else _epoch(ended)
            found.append(
                Stored(
                    str(name),
                    str(fmt),
                    str(channel),
                    str(status),
                    _epoch(created),
                    entries[int(tid)],
                    sheets[int(tid)],
                    done,
                )
            )
        return found

    def load(self, name: str) -> Stored | None:
        found = self._run(lambda: self._stored("name_key = ?", (name_key(name),)))
        return found[0] if found else None

    def active(self) -> list[Stored]:
        return self._run(lambda: self._stored("status IN (?, ?)", ACTIVE))

    def names(self, limit: int = 20) -> list[str]:
        if limit <= 0:
            return []
        rows = self._run(
            lambda: self.db.execute_sql(
                self._s("SELECT name FROM tournament ORDER BY created DESC, id DESC LIMIT ?"),
                (limit,),
            ).fetchall()
        )
        return [str(r[0]) for r in rows]

    def close(self) -> None:
        """Close this thread's connection if the log owns its database."""
        if self.owns:
            with contextlib.suppress(*_DB_ERRORS):
                self.db.close()


# --- memory ---------------------------------------------------------------------------------


@dataclass(slots=True)
class _Record:
    number: int
    name: str
    format: str
    channel: str
    created: float
    status: str = "signup"
    ended: float | None = None
    entries: dict[int, tuple[str, str, float]] = field(default_factory=dict)
    """seq -> (kind, JSON text, at): kept as text, like the database, so what comes back is
    a copy and anything not JSON fails here as it would there."""
    sheet: list[SheetRow] = field(default_factory=list)


class MemoryTournamentLog:
    """The :class:`TournamentLog` in memory (unit tests); one lock makes it thread-safe."""

    def __init__(self) -> None:
        self._by_key: dict[str, _Record] = {}
        self._lock = threading.Lock()

    def _new(self, name: str, format: str, channel: str, at: float) -> _Record:
        record = _Record(len(self._by_key), name.strip(), format, channel, float(at))
        self._by_key[name_key(name)] = record
        return record

    def create(self, name: str, format: str, channel: str, at: float) -> None:
        with self._lock:
            if name_key(name) in self._by_key:
                raise TournamentError(f"there is already a tournament called {name}")
            self._new(name, format, channel, at)

    def append(self, name: str, entry: Entry) -> None:
        data = _to_json(entry.data)
        with self._lock:
            record = self._by_key.get(name_key(name))
            if record is None and entry.kind == "new":
                d = entry.data
                record = self._new(
                    name, str(d.get("format", "")), str(d.get("channel", "")), entry.at
                )
            if record is None:
                raise TournamentError(f"no tournament called {name}")
            stored = record.entries.get(entry.seq)
            if stored is not None:
                if not _same(entry, stored[0], stored[1]):
                    raise _conflict(name, entry)
                return
            record.entries[entry.seq] = (entry.kind, data, float(entry.at))
            status = _status(record.status, entry.kind)
            if status != record.status:
                record.status = status
                if status in FINAL:
                    record.ended = float(entry.at)

    def add_sheet(self, name: str, rows: Iterable[SheetRow]) -> None:
        lines = list(rows)
        with self._lock:
            record = self._by_key.get(name_key(name))
            if record is None:
                raise TournamentError(f"no tournament called {name}")
            keys = {r.game_key for r in lines}
            record.sheet = [r for r in record.sheet if r.game_key not in keys] + lines

    def _stored(self, record: _Record) -> Stored:
        entries = [
            Entry(seq, kind, json.loads(data), at)
            for seq, (kind, data, at) in sorted(record.entries.items())
        ]
        return Stored(
            record.name,
            record.format,
            record.channel,
            record.status,
            record.created,
            entries,
            list(record.sheet),
            record.ended,
        )

    def _ordered(self) -> list[_Record]:
        return sorted(self._by_key.values(), key=lambda r: (r.created, r.number))

    def load(self, name: str) -> Stored | None:
        with self._lock:
            record = self._by_key.get(name_key(name))
            return None if record is None else self._stored(record)

    def active(self) -> list[Stored]:
        with self._lock:
            return [self._stored(r) for r in self._ordered() if r.status in ACTIVE]

    def names(self, limit: int = 20) -> list[str]:
        with self._lock:
            return [r.name for r in reversed(self._ordered())][: max(0, limit)]

    def close(self) -> None:
        pass
