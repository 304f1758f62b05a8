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

import contextlib
import dataclasses
import errno
import fcntl
import functools
import json
import logging
import os
import queue
import threading
import time
import uuid
import weakref
from collections.abc import Callable
from pathlib import Path
from random import Random
from typing import Any

from unobot.core.flip_table import table_class
from unobot.core.journal_format import from_record, to_record
from unobot.core.settings import rules_as_text, rules_from_text
from unobot.core.table import Table, TableConfig
from unobot.core.updates import Totals, Update
from unobot.engine.cards import CARDS, Color
from unobot.engine.rules import Deck, HouseRules

__all__ = [
    "LOCK_NAME",
    "FolderInUse",
    "Journal",
    "Restored",
    "TableLog",
    "folder_holder",
    "lock_folder",
    "parse_records",
    "replay_records",
    "replay_text",
]

log = logging.getLogger(__name__)

VERSION = 4
"""Version 3 writes a card in the card notation (``"B9"``, ``"WD4"``) and a colour as its
letter (``"g"``), so the stored move list of a recorded game reads as the players typed it;
version 2 wrote a card as its code and a colour as its number, version 1 tagged objects
(``{"$card": 5}``): both still read. Version 4 writes the same lines; it marks the games
played by No Mercy's sheet as the engine reads it since (issue 38: the Roulette's colour named
by the next player, a ``choose_color`` call of theirs; two players left of more; the final
card; the knock-out bonus; 2-6 players). An older journal of a game with the No Mercy deck or
the mercy rule replays, and plays on, as it was played then (:func:`_rules_before_4`)."""

_READS = frozenset({1, 2, 3, VERSION})

_NO_MERCY_BEFORE_4 = {"max_players": "10", "mercy_bonus": "0"}
"""The ``no-mercy`` preset's values that changed in version 4: a journal stores its rules as
the preset's name and the options changed from the preset as it was then."""

_TIME_ARGS = frozenset({"now", "since"})
"""Arguments that are scheduler times (moved onto the new clock when replayed)."""

_ENCODER = json.JSONEncoder(separators=(",", ":"), check_circular=False)
"""One encoder for every line (``json.dumps`` with options builds a new one per call)."""


_LETTERS = {color: color.letter.lower() for color in Color}
_BY_LETTER = {letter: color for color, letter in _LETTERS.items()}
_BY_TEXT = {card.text: card for card in CARDS}


def _encode(arguments: dict[str, Any]) -> dict[str, Any]:
    """A call's arguments as JSON values. Only two arguments are not plain (``card``, a
    ``Card``; ``color``, a ``Color``, which JSON would write as a bare int anyway)."""
    card = arguments.get("card")
    if card is not None:
        arguments = {**arguments, "card": card.text}
    color = arguments.get("color")
    if color is not None:
        # UNO Flip's dark colours (p t o u) are no classic ``Color``: written by their letter.
        letter = _LETTERS.get(color)
        arguments = {**arguments, "color": letter or color.letter.lower()}
    return arguments


def _decode(arguments: dict[str, Any]) -> dict[str, Any]:
    args = {}
    for key, value in arguments.items():
        if isinstance(value, dict):  # version 1
            if "$card" in value:
                value = CARDS[value["$card"]]
            elif "$color" in value:
                value = Color(value["$color"])
            else:
                raise ValueError(f"unknown journal value {value!r}")
        elif value is None:
            pass
        elif key == "card":
            # version 3: notation; version 2: the deck's cards, indexed by their code
            # A face of UNO Flip (``P5``) stays text: the Flip table reads it on its side.
            value = _BY_TEXT.get(value, value) if type(value) is str else CARDS[value]
        elif key == "color":
            value = _BY_LETTER.get(value, value) if type(value) is str else Color(value)
        args[key] = value
    return args


@functools.lru_cache(maxsize=256)
def config_to_json(config: TableConfig) -> dict[str, Any]:
    """Cached: a channel's tables share a configuration, and turning rules into text takes
    ~40 µs (the result is only read, by the encoder)."""
    fields = {f.name: getattr(config, f.name) for f in dataclasses.fields(config)}
    preset, options = rules_as_text(fields.pop("rules"))
    return {"rules": [preset, options], **fields}


def config_from_json(data: dict[str, Any], version: int = VERSION) -> TableConfig:
    """The table configuration a journal of ``version`` stored (:func:`config_to_json`)."""
    data = dict(data)
    preset, options = data.pop("rules")
    if version < 4:
        return TableConfig(rules=_rules_before_4(preset, options), **data)
    return TableConfig(rules=rules_from_text(preset, options), **data)


def _rules_before_4(preset: str, options: dict[str, str]) -> HouseRules:
    """The rules a journal older than version 4 was played by: the ``no-mercy`` preset as it
    was then, and, for a game with the No Mercy deck or the mercy rule, the engine's readings
    of then (``HouseRules.legacy_no_mercy``), so that its calls replay to the very same game
    (a Roulette played with a colour; a Wild Reverse Draw Four with two players hitting the
    other one; a final draw card drawn) and it goes on as it began."""
    if preset.strip().lower() == "no-mercy":
        options = {**_NO_MERCY_BEFORE_4, **options}
    rules = rules_from_text(preset, options)
    if rules.deck is Deck.NO_MERCY or rules.mercy_limit:
        rules = dataclasses.replace(rules, legacy_no_mercy=True)
    return rules


class TableLog:
    """One table's journal file, appended a line per accepted call."""

    def __init__(self, path: Path, clock_offset: float, fd: int | None = None) -> None:
        """``fd``: ``path`` already open for appending (a spare file)."""
        self.path = path
        self.clock_offset = clock_offset
        self._fd: int | None = _create(path)[1] if fd is None else fd
        self._finalizer = weakref.finalize(self, os.close, self._fd)
        """Closes the file if this log is dropped unclosed (a journal simply abandoned)."""
        self.failed = False

    def write(self, record: list[Any]) -> None:
        if self._fd is None:
            return
        line = (_ENCODER.encode(record) + "\n").encode()
        try:
            os.write(self._fd, line)
        except OSError as err:  # a full disk: the game goes on, unjournaled, and says so once
            if not self.failed:
                log.error("journal %s: can't write (%s); this game won't survive a restart",
                          self.path, err)  # fmt: skip
            self.failed = True

    def call(self, method: str, arguments: dict[str, Any]) -> None:
        record, fields = to_record(method, arguments)
        self.write([record, _encode(fields)])

    def text(self) -> str | None:
        """The journal so far (its opening and every call accepted): the move list a recorded
        game keeps for its replay (:func:`replay_text`). Read back from the file (a few
        kilobytes, in the page cache) rather than kept twice in memory; None when the file
        can't be read or missed a line."""
        if self.failed:
            return None
        try:
            return self.path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as err:
            log.warning("journal %s: can't read the moves back (%s)", self.path, err)
            return None

    def sync_later(self, syncer: Syncer) -> None:
        """fsync on the syncer's thread: an fsync can take milliseconds, which the reactor must
        not wait for (a SIGKILL loses nothing without it; a power cut is what it is for)."""
        if self._fd is not None:
            try:
                fd = os.dup(self._fd)  # closing the original meanwhile is then safe
            except OSError as err:
                log.warning("journal %s: can't sync (%s)", self.path, err)
                return
            syncer.run(lambda: _fsync_and_close(fd, self.path))

    def detach(self) -> int | None:
        """The open file, which this log no longer writes to (nor closes)."""
        self._finalizer.detach()
        fd, self._fd = self._fd, None
        return fd

    def close(self, *, remove: bool) -> None:
        """``remove``: the game is over, its file goes; else it is synced and kept."""
        fd = self.detach()
        if remove:
            _close_and_remove(fd, self.path)
        elif fd is not None:
            _fsync_and_close(fd, self.path)


def _close_spares(spares: list[tuple[Path, int]]) -> None:
    for _path, fd in spares:
        with contextlib.suppress(OSError):
            os.close(fd)
    spares.clear()


def _create(path: Path) -> tuple[Path, int]:
    return path, os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)


def _fsync_and_close(fd: int, path: Path) -> None:
    try:
        os.fsync(fd)
    except OSError as err:
        log.warning("journal %s: fsync failed (%s)", path, err)
    finally:
        os.close(fd)


def _close_and_remove(fd: int | None, path: Path) -> None:
    if fd is not None:
        os.close(fd)
    try:
        path.unlink(missing_ok=True)
    except OSError as err:
        log.warning("journal %s: can't remove (%s)", path, err)


LOCK_NAME = ".lock"
"""The journal folder's lock file (the holder's pid inside, for the refusal's message); not a
``*.jsonl`` nor a ``*.spare``, so :meth:`Journal.restore` never touches it."""


class FolderInUse(Exception):
    """Another live process holds the journal folder (:func:`lock_folder`)."""

    def __init__(self, folder: Path, pid: int | None) -> None:
        super().__init__(folder, pid)
        self.folder = folder
        self.pid = pid


def lock_folder(folder: str | os.PathLike[str]) -> int:
    """Take the journal folder for this process: an OS lock (``flock``) on its lock file, held
    by the returned descriptor until it is closed or the process ends. Why: a second bot on
    the same folder would restore the first one's live games, send their hands again on its
    own server, write ``_depart`` lines into the first one's journals and take its spare
    files; two writers of one journal must never be. An OS lock, not a pid file: the kernel
    lets it go with the process, even a SIGKILLed one, so a stale lock never blocks a restart.
    Raises FolderInUse when a live process holds it, OSError when the folder is unusable."""
    path = Path(folder)
    path.mkdir(parents=True, exist_ok=True)
    fd = os.open(path / LOCK_NAME, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as err:
        pid = _pid_in(fd)
        os.close(fd)
        if err.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
            raise FolderInUse(path, pid) from None
        raise
    os.ftruncate(fd, 0)
    os.write(fd, f"{os.getpid()}\n".encode())
    return fd


def folder_holder(folder: str | os.PathLike[str]) -> int | None:
    """The pid of the live process holding the journal folder (0 when it can't be told),
    or None when it is free. Creates nothing (for ``unobot check-config``): a folder or lock
    file that does not exist is free. The probe is a shared lock taken and dropped at once."""
    try:
        fd = os.open(Path(folder) / LOCK_NAME, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return _pid_in(fd) or 0
    else:
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)


def _pid_in(fd: int) -> int | None:
    try:
        return int(os.pread(fd, 32, 0).split()[0])
    except (OSError, ValueError, IndexError):
        return None


class Syncer:
    """One daemon thread for the journal's fsyncs (milliseconds each, which the reactor must
    not wait for). Creating and removing a table's file stay on the reactor: measured, a
    thread for them cost more in GIL hand-overs under a burst of ``.uno`` commands than the
    ~0.15 ms create it saved."""

    IDLE = 2.0
    """Seconds without work after which the thread ends (the next job starts another): a
    test or a soak that makes many journals leaves no threads behind."""

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._running = False

    def run(self, job: Callable[[], None]) -> None:
        with self._lock:
            self._jobs.put(job)
            if not self._running:
                self._running = True
                threading.Thread(target=self._run, name="unobot-journal", daemon=True).start()

    def _run(self) -> None:
        while True:
            try:
                job = self._jobs.get(timeout=self.IDLE)
            except queue.Empty:
                with self._lock:
                    if self._jobs.empty():
                        self._running = False
                        return
                continue
            try:
                job()
            except Exception:  # keep serving: a lost fsync is logged, not fatal
                log.exception("journal: file job failed")

    def drain(self, timeout: float = 5.0) -> bool:
        """Wait until every job handed over so far is done (at shutdown, and for tests)."""
        done = threading.Event()
        self.run(done.set)
        return done.wait(timeout)


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
        spares: int = 8,
    ) -> None:
        """``now``: the scheduler's clock (what tables are given); ``wall``: the real time,
        to carry times across processes. ``spares``: empty files kept ready once
        :meth:`restore` has run (see :meth:`_take`)."""
        self.folder = Path(folder)
        self.now = now
        self.wall = wall
        self._logs: dict[int, TableLog] = {}
        self._syncer = Syncer()
        self._spares: list[tuple[Path, int]] = []
        self._max_spares = spares
        # Descriptors are not objects: without this, a journal dropped unclosed (tests, the
        # soak's simulated kills) would keep its spare files open until the process ends.
        weakref.finalize(self, _close_spares, self._spares)
        self.disabled = False
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            log.error("journal folder %s unusable (%s): games won't survive a restart",
                      self.folder, err)  # fmt: skip
            self.disabled = True

    def _take(self) -> tuple[Path, int]:
        """An empty file for a new table, open. Creating a file costs ~0.15 ms on the test
        machine's disk (a directory entry), a rename ~0.013 ms: so the journal keeps a few
        empty ``.spare`` files ready, made at start and refilled by ended games' files
        (emptied, renamed), and a burst of ``.uno`` from many channels at once doesn't wait
        on the disk. A spare left by a killed process is removed at the next start."""
        while self._spares:
            spare, fd = self._spares.pop()
            path = spare.with_suffix(".jsonl")
            try:
                spare.rename(path)
            except OSError:  # gone (another process cleaned the folder): try the next
                os.close(fd)
                continue
            return path, fd
        return _create(self.folder / f"{uuid.uuid4().hex}.jsonl")

    def _recycle(self, tlog: TableLog) -> None:
        """Keep an ended game's file as a spare (emptied, under a new name: the old one is
        that game's id), or remove it when there are spares enough."""
        fd = tlog.detach()
        if fd is None:
            return
        if len(self._spares) >= self._max_spares:
            _close_and_remove(fd, tlog.path)
            return
        spare = self.folder / f"{uuid.uuid4().hex}.spare"
        try:
            os.ftruncate(fd, 0)
            tlog.path.rename(spare)
        except OSError as err:
            log.warning("journal %s: can't recycle (%s)", tlog.path, err)
            _close_and_remove(fd, tlog.path)
            return
        self._spares.append((spare, fd))

    def _offset(self) -> float:
        return self.wall() - self.now()

    def opened(self, table: Table, seed: int, opened_at: float, ident: str) -> None:
        """Start ``table``'s journal (opened with ``Random(seed)`` at ``opened_at``)."""
        if self.disabled:
            return
        try:
            path, fd = self._take()
        except OSError as err:
            log.error("journal: can't create a file in %s (%s)", self.folder, err)
            return
        tlog = TableLog(path, self._offset(), fd)
        tlog.write(
            [
                "open",
                {
                    "version": VERSION,
                    "clock_offset": tlog.clock_offset,
                    "channel": table.channel,
                    "starter": table.starter,
                    "ident": ident,
                    "level": table.players[0].level if table.players else "",
                    "now": opened_at,
                    "seed": seed,
                    "config": config_to_json(table.config),
                },
            ]
        )
        self.attach(table, tlog)
        table.game_id = path.stem  # the game's id in the stats: the same after a restore

    def attach(self, table: Table, tlog: TableLog) -> None:
        self._logs[id(table)] = tlog
        table.journal = tlog.call
        table.moves = tlog.text

    def observe(self, table: Table, update: Update) -> None:
        """Every update the bot publishes: a hand's end (its totals) is synced to disk."""
        if any(type(e) is Totals for e in update.events):
            self.sync(table)

    def sync(self, table: Table) -> None:
        """Make what ``table`` wrote safe from a power cut too (at a hand's end), on the
        syncer's thread."""
        tlog = self._logs.get(id(table))
        if tlog is not None:
            tlog.sync_later(self._syncer)

    def closed(self, table: Table) -> None:
        """``table`` is over (or dropped): its journal goes."""
        table.journal = table.moves = None
        tlog = self._logs.pop(id(table), None)
        if tlog is not None:
            self._recycle(tlog)

    def keep(self, table: Table) -> Path | None:
        """``table`` is over, but its game is not safely recorded anywhere (the stats store
        could keep it in memory only): its file stays, synced, as a finished game's journal,
        which the next start replays and records (once: by its id) before letting it go.
        Returns the file kept, or None when there is no whole copy to keep (never journaled,
        or a line failed to be written)."""
        table.journal = table.moves = None
        tlog = self._logs.pop(id(table), None)
        if tlog is None:
            return None
        if tlog.failed:
            self._recycle(tlog)
            return None
        tlog.close(remove=False)
        return tlog.path

    def settle(self) -> bool:
        """Wait for the fsyncs handed over so far (at shutdown, and for tests)."""
        return self._syncer.drain()

    def close(self) -> None:
        """At shutdown: every journal synced and kept, for the next start."""
        for tlog in self._logs.values():
            tlog.close(remove=False)
        self._logs.clear()
        while self._spares:
            spare, fd = self._spares.pop()
            _close_and_remove(fd, spare)
        if not self._syncer.drain():
            log.warning("journal: the fsync thread is stuck (a hung disk?); stopping anyway")

    def restore(self, observe: Callable[[Table, Any], None] | None = None) -> list[Restored]:
        """At start: make the spare files ready, and rebuild every journaled table, each
        writing on in its own file. ``observe`` is
        given each replayed call's update (the stats recorder follows the game as it did
        live). A file that can't be replayed (damaged, or from an incompatible version) is
        set aside as ``.bad`` with a log line, never fatal. Tables that had ended are
        returned too (finished), their files left for the caller to close."""
        if self.disabled:
            return []
        restored = []
        try:
            for stale in self.folder.glob("*.spare"):  # a killed process's
                stale.unlink(missing_ok=True)
            while len(self._spares) < self._max_spares:
                self._spares.append(_create(self.folder / f"{uuid.uuid4().hex}.spare"))
        except OSError as err:
            log.warning("journal: can't make spare files in %s (%s)", self.folder, err)
        for path in sorted(self.folder.glob("*.jsonl")):
            try:
                found = self._replay(path, observe)
                if found is None:  # a table killed before its first line was written
                    path.unlink()
                    continue
            except Exception as err:
                log.error("journal %s can't be replayed (%s); set aside", path.name, err)
                path.rename(path.with_suffix(".bad"))
                continue
            restored.append(found)
        return restored

    def _replay(self, path: Path, observe: Callable[[Table, Any], None] | None) -> Restored | None:
        raw = path.read_bytes()
        records = parse_records(raw)
        if not records:
            return None
        table, last = _rebuild(records, self._offset(), observe, path.stem, raw.decode())
        tlog = TableLog(path, self._offset())
        tlog.write(["clock", {"offset": tlog.clock_offset}])
        self.attach(table, tlog)
        return Restored(table, last, sum(1 for r in records if r[0] not in ("open", "clock")))


def parse_records(raw: bytes) -> list[list[Any]]:
    """A journal's lines as ``[method, arguments]`` records; a torn last line (the process
    killed while writing it: the call was never answered) is dropped, damage elsewhere raises
    ValueError."""
    lines = raw.split(b"\n")
    records = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except ValueError:
            if number >= len(lines) - 1:
                break
            raise
    return records


def _rebuild(
    records: list[list[Any]],
    offset: float,
    observe: Callable[[Table, Any], None] | None,
    game_id: str | None = None,
    text: str | None = None,
) -> tuple[Table, float]:
    """The table the records describe, its times moved onto a clock whose wall-clock offset is
    ``offset``, and the time of its last call; ``observe`` gets each replayed call's update.
    ``game_id`` is set before the replay: the stats recorder names the game by it; and
    ``text``, the journal's text, as the table's move list (a game that had ended before the
    restart is recorded with it during the replay)."""
    if records[0][0] != "open":
        raise ValueError("no opening line")
    head = records[0][1]
    if head.get("version") not in _READS:
        raise ValueError(f"journal version {head.get('version')}")
    shift = head["clock_offset"] - offset  # old clock -> the target clock
    config = config_from_json(head["config"], head["version"])
    table = table_class(config.rules)(
        head["channel"],
        head["starter"],
        head["ident"],
        head["now"] + shift,
        config,
        Random(head["seed"]),
        head.get("level", ""),
    )
    if game_id is not None:
        table.game_id = game_id
    if text is not None:
        table.moves = lambda: text
    last = head["now"] + shift
    for record, fields in records[1:]:
        if record == "clock":  # written after an earlier restore: times on its clock
            shift = fields["offset"] - offset
            continue
        values = _decode(fields)  # the fields' values, as the record names them
        for key in _TIME_ARGS & values.keys():
            values[key] = values[key] + shift
            last = max(last, values[key])
        method, args = from_record(record, values)
        update = getattr(table, method)(**args)
        if observe is not None and isinstance(update, Update):
            observe(table, update)
    return table, last


def replay_text(text: str, observe: Callable[[Table, Update], None] | None = None) -> Table:
    """Rebuild the table a journal text describes (a recorded game's move list), on the
    clock of its first process, calling ``observe(table, update)`` for every replayed call:
    the same replay the bot restores tables with, so a replay shows exactly what was
    played. Raises ValueError for a text that is not a journal."""
    return replay_records(parse_records(text.encode("utf-8")), observe)


def replay_records(
    records: list[list[Any]], observe: Callable[[Table, Update], None] | None = None
) -> Table:
    """:func:`replay_text` of records already read with :func:`parse_records`."""
    if not records:
        raise ValueError("an empty move list")
    try:
        return _rebuild(records, records[0][1]["clock_offset"], observe)[0]
    except (KeyError, TypeError, IndexError) as err:
        raise ValueError(f"not a journal: {err!r}") from err
