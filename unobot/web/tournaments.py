"""Tournament pages' content: a stored tournament (``unobot.tournament.store.Stored``) as what
the pages show, computed by the bot's own logic, never re-derived in SQL.

The web process only reads. It rebuilds a tournament as the director does after a restart,
by replaying its entries into the format (:meth:`Tournament.replay`: pure, no I/O), and reads
the standings, the games in play, the bracket and the rotation's moves off that state. A
replay costs a few milliseconds for a 64-player knockout; :class:`ViewCache` keeps the view
per tournament keyed by its *version* (newest entry seq and score-sheet row count), so a page
asked again, or polled by ``static/live.js``, replays nothing until the bot writes.

A log the current code can't replay (an older bot's entries) still gets a page: what the
entries and the sheet say (the last standings the bot wrote), with a note.

Labels are said in the language being spoken when the view is built (the cache keeps one view
per language). What the store holds (stages such as "Round 2 game 1", standings notes, the
score sheet's lines) stays English data: the tournament's own ``stage_text`` and ``note_text``
(:mod:`unobot.tournament.words`) translate stages and notes on display, as the channel hears
them, and leave anything they don't recognise (an older bot's wording) as it is; the sheet's
lines are shown as stored and exported (the hall's notation, ``ann > Final,G1,12``).
"""

from __future__ import annotations

import logging
import re
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from unobot.i18n import N_, domain
from unobot.irc.casemap import irc_lower
from unobot.tournament.model import Standing
from unobot.tournament.state import Entry, Tournament
from unobot.tournament.store import SheetRow, Stored
from unobot.tournament.words import stage_text

__all__ = [
    "BracketGame",
    "BracketRound",
    "GameView",
    "Move",
    "Record",
    "RotationRound",
    "SheetLine",
    "SheetSection",
    "TournamentView",
    "ViewCache",
    "build_view",
    "format_label",
    "sheet_stage",
]

_, ngettext = domain("web")

log = logging.getLogger(__name__)

CACHE_SIZE = 64
"""Tournaments whose view is kept (the running ones are the ones asked for)."""

FORMAT_NAMES = {
    "ocuk": N_("Overclockers UK (tables to 251, one-hand final)"),
    "knockout": N_("Knockout (games of up to four, lowest total through)"),
    "rotation": N_("Rotation (timed rounds; lowest moves down, highest up)"),
}
"""Each format in words (``_()`` where shown; the JSON API's view is built in English)."""
FORMAT_SHORT = {
    "ocuk": N_("Overclockers UK"),
    "knockout": N_("Knockout"),
    "rotation": N_("Rotation"),
}
"""Each format's name alone, for the tournaments list."""


def format_label(code: str) -> str:
    """A format's short name in the language being spoken (an unknown code as it is)."""
    return _(FORMAT_SHORT[code]) if code in FORMAT_SHORT else code


_ROUND = re.compile(r"^r(\d+)-(?:g|t|bye)(\d+)")
_OCUK_ROUND = re.compile(r"^r(\d+)t(\d+)$")


@dataclass(frozen=True, slots=True)
class Seat:
    """A player at a game: ``total`` their match total (None before the result)."""

    name: str
    total: int | None = None
    won: bool = False
    gone: bool = False


@dataclass(frozen=True, slots=True)
class GameView:
    """A game seated by the director: where (``channel``), who, and its result when in."""

    key: str
    table: int
    stage: str
    channel: str
    seats: tuple[Seat, ...]
    done: bool
    at: float

    @property
    def channel_key(self) -> str:
        """The channel folded as IRC compares it: the key of the live-game hook."""
        return irc_lower(self.channel)


@dataclass(frozen=True, slots=True)
class SheetLine:
    """One line of the seeds' score sheet: ``text`` as the bot writes it
    (``Beank > T1,G1,170``), ``stage`` the game's label, ``clock`` whether the clock ended
    that hand (a flag the score sheet may carry: read with a default)."""

    text: str
    player: str
    table: int
    game: int
    mark: str
    stage: str
    clock: bool


@dataclass(frozen=True, slots=True)
class SheetSection:
    """A round of the sheet: printed on a page of its own."""

    title: str
    lines: tuple[SheetLine, ...]


@dataclass(frozen=True, slots=True)
class BracketGame:
    key: str
    stage: str
    seats: tuple[Seat, ...]
    through: str | None
    """Who went through (None: not decided yet, or nobody)."""
    bye: bool = False
    playing: bool = False
    extra: tuple[str, ...] = ()
    """Sudden-death games played to settle a tie (their stages)."""


@dataclass(frozen=True, slots=True)
class BracketRound:
    number: int
    title: str
    games: tuple[BracketGame, ...]


@dataclass(frozen=True, slots=True)
class Move:
    name: str
    from_table: int
    to_table: int
    why: str
    """"lowest: down", "highest: up" or "rebalanced"."""


@dataclass(frozen=True, slots=True)
class RotationRound:
    number: int
    tables: tuple[GameView, ...]
    moves: tuple[Move, ...]
    """Moves after this round, into the next (none after the last)."""


@dataclass(frozen=True, slots=True)
class Record:
    """A correction, penalty, removal, substitution or cancellation, as entered."""

    kind: str
    at: float
    player: str
    detail: str


@dataclass(frozen=True, slots=True)
class Entrant:
    name: str
    reserve: bool
    computer: bool


@dataclass(slots=True)
class TournamentView:
    name: str
    format: str
    format_name: str
    channel: str
    status: str
    created: float
    ended: float | None
    options: str
    by: str
    entrants: tuple[Entrant, ...] = ()
    current: str = ""
    """The round or stage in play ("Round 2", "Final"); empty when none is."""
    playing: tuple[GameView, ...] = ()
    games: tuple[GameView, ...] = ()
    standings: tuple[Standing, ...] = ()
    final: bool = False
    """The standings are the final placings."""
    winner: str = ""
    sheet: tuple[SheetSection, ...] = ()
    bracket: tuple[BracketRound, ...] = ()
    rotation: tuple[RotationRound, ...] = ()
    records: tuple[Record, ...] = ()
    problem: str = ""
    """Why the log could not be replayed (the page then shows what was stored)."""
    reason: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def running(self) -> bool:
        return self.status in ("signup", "running")


def sheet_stage(row: SheetRow, stages: dict[str, str]) -> str:
    """The sheet row's stage label ("Final", "Round 2 game 1"): the row's own when it has
    one (every game after the heats), else the stage of its game as seated."""
    return row.label or stages.get(row.game_key, "")


def _section(fmt: str, key: str, stage: str) -> tuple[tuple[int, int], str]:
    """The sheet section (print page) of a game key: an order and a title."""
    base = key.split("-sd")[0]
    if fmt in ("knockout", "rotation"):
        m = _ROUND.match(base)
        if m:
            r = int(m.group(1))
            title = _("Final") if stage.startswith("Final") else _("Round {n}", n=r)
            return (r, 0), title
    if fmt == "ocuk":
        if re.fullmatch(r"t\d+", key):
            return (1, 0), _("Tables")
        m = _OCUK_ROUND.match(key)
        if m:
            return (int(m.group(1)), 0), _("Round {n} tables", n=int(m.group(1)))
        if re.fullmatch(r"h\d+", key):
            return (1, 0), _("Hands")
        if key.startswith("cut"):
            return (50, 0), _("Play-off for the final")
        if key == "final" or key.startswith("po"):
            return (100, 0), _("Final and play-offs")
    return (999, 0), stage_text(stage) if stage else _("Other games")


def _records(entries: list[Any]) -> tuple[Record, ...]:
    out: list[Record] = []
    for e in entries:
        d = e.data
        by = str(d.get("by", ""))
        reason = str(d.get("reason", "") or "")
        if e.kind == "correct":
            delta = int(d.get("delta", 0))
            out.append(
                Record(
                    "correction",
                    e.at,
                    str(d.get("name", "")),
                    _reasoned(
                        _(
                            "{delta} in {game} by {by}",
                            delta=f"{delta:+d}",
                            game=str(d.get("key", "")),
                            by=by,
                        ),
                        reason,
                    ),
                )
            )
        elif e.kind == "penalty":
            out.append(
                Record(
                    "penalty",
                    e.at,
                    str(d.get("name", "")),
                    _(
                        "draws {cards} by {by} in {channel}",
                        cards=str(d.get("cards", "")),
                        by=by,
                        channel=str(d.get("channel", "")),
                    ),
                )
            )
        elif e.kind == "remove":
            detail = _reasoned(_("by {by}", by=by), reason)
            out.append(Record("removal", e.at, str(d.get("name", "")), detail))
        elif e.kind == "sub":
            out.append(
                Record(
                    "substitution",
                    e.at,
                    str(d.get("new", "")),
                    _("replaces {old}, by {by}", old=str(d.get("old", "")), by=by),
                )
            )
        elif e.kind == "cancel":
            out.append(Record("cancellation", e.at, "", _reasoned(_("by {by}", by=by), reason)))
    return tuple(out)


def _reasoned(detail: str, reason: str) -> str:
    """A record's detail and the reason the MC gave (their own words, never translated)."""
    return _("{detail}: {reason}", detail=detail, reason=reason) if reason else detail


def _entrants(entries: list[Any]) -> tuple[Entrant, ...]:
    """Signed up and not left, in sign-up order (as the CSV lists them)."""
    signed: dict[str, Entrant] = {}
    for e in entries:
        if e.kind == "join":
            who = str(e.data.get("name", ""))
            signed[who] = Entrant(who, bool(e.data.get("reserve")), bool(e.data.get("level")))
        elif e.kind == "leave":
            signed.pop(str(e.data.get("name", "")), None)
    return tuple(signed.values())


def _games(entries: list[Any]) -> list[GameView]:
    """Every game seated (the last seating of a key wins), with its result once reported."""
    seated: dict[str, dict[str, Any]] = {}
    at: dict[str, float] = {}
    results: dict[str, dict[str, Any]] = {}
    for e in entries:
        if e.kind == "seat":
            seated[str(e.data["key"])] = e.data
            at.setdefault(str(e.data["key"]), e.at)
        elif e.kind == "result":
            results[str(e.data["key"])] = e.data
    out = []
    for key, d in seated.items():
        result = results.get(key)
        if result is None:
            seats = tuple(Seat(str(p)) for p in d.get("players") or ())
        else:
            winners = set(result.get("winners") or ())
            seats = tuple(Seat(str(n), int(t), n in winners) for n, t in result.get("totals") or ())
            seats += tuple(Seat(str(n), None, False, True) for n in result.get("gone") or ())
        out.append(
            GameView(
                key,
                int(d.get("table") or 0),
                str(d.get("stage", "")),
                str(d.get("channel", "")),
                seats,
                result is not None,
                at[key],
            )
        )
    return out


def _through(game: GameView, sds: list[GameView]) -> str | None:
    """Who a knockout game sent through by its own result (or its sudden deaths')."""
    for g in [*reversed(sds), game]:
        if not g.done:
            return None
        won = [s.name for s in g.seats if s.won and not s.gone]
        if len(won) == 1:
            return won[0]
        if len(won) > 1 and g is game and not sds:
            return None  # tied: a sudden death is coming
    return None


def _bracket(
    games: list[GameView], standings: tuple[Standing, ...], over: bool
) -> tuple[BracketRound, ...]:
    mains: dict[int, list[GameView]] = {}
    sds: dict[str, list[GameView]] = {}
    for g in games:
        m = _ROUND.match(g.key)
        if not m:
            continue
        if "-sd" in g.key:
            sds.setdefault(g.key.split("-sd")[0], []).append(g)
        else:
            mains.setdefault(int(m.group(1)), []).append(g)
    rounds: list[BracketRound] = []
    numbers = sorted(mains)
    for n in numbers:
        later = mains.get(n + 1, [])
        nxt = {s.name for g in later for s in g.seats}
        out: list[BracketGame] = []
        for g in sorted(mains[n], key=lambda g: g.table):
            extra = sds.get(g.key, [])
            if later:
                names = [s.name for s in g.seats if s.name in nxt]
                through = names[0] if len(names) == 1 else None
            elif (
                over
                and standings
                and standings[0].place == 1
                and any(s.name == standings[0].name for s in g.seats)
            ):
                through = standings[0].name
            else:
                through = _through(g, extra)
            playing = not g.done or any(not x.done for x in extra)
            out.append(
                BracketGame(
                    g.key, g.stage, g.seats, through, False, playing, tuple(x.stage for x in extra)
                )
            )
        if later:
            came = {b.through for b in out if b.through}
            for name in sorted(nxt - came - {s.name for g in mains[n] for s in g.seats}):
                out.append(BracketGame(f"r{n}-bye-{name}", _("Bye"), (Seat(name),), name, True))
        final = len(mains[n]) == 1 and mains[n][0].stage.startswith("Final")
        title = _("Final") if final else _("Round {n}", n=n)
        rounds.append(BracketRound(n, title, tuple(out)))
    return tuple(rounds)


def _rotation(games: list[GameView]) -> tuple[RotationRound, ...]:
    by_round: dict[int, list[GameView]] = {}
    for g in games:
        m = _ROUND.match(g.key)
        if m:
            by_round.setdefault(int(m.group(1)), []).append(g)
    out: list[RotationRound] = []
    for r in sorted(by_round):
        tables = sorted(by_round[r], key=lambda g: g.table)
        moves: list[Move] = []
        following = by_round.get(r + 1)
        if following:
            to = {s.name: g.table for g in following for s in g.seats}
            for g in tables:
                totals = {s.name: s.total for s in g.seats if s.total is not None}
                low = min(totals.values(), default=None)
                high = max(totals.values(), default=None)
                for s in g.seats:
                    there = to.get(s.name)
                    if there is None or there == g.table:
                        continue
                    if s.gone or s.total == high:
                        why = _("highest: up")
                    elif s.total == low:
                        why = _("lowest: down")
                    else:
                        why = _("rebalanced")
                    moves.append(Move(s.name, g.table, there, why))
        out.append(RotationRound(r, tuple(tables), tuple(moves)))
    return tuple(out)


def _last_standings(entries: list[Any]) -> tuple[tuple[Standing, ...], bool]:
    last = next((e for e in reversed(entries) if e.kind == "standings"), None)
    if last is None:
        return (), False
    rows = tuple(
        Standing(int(p), str(n), int(s), str(note or "")) for p, n, s, note in last.data["rows"]
    )
    return rows, bool(last.data.get("final"))


def build_view(stored: Stored) -> TournamentView:
    """What the tournament pages show of ``stored`` (pure)."""
    entries = stored.entries
    head = next((e for e in entries if e.kind == "new"), None)
    data = head.data if head is not None else {}
    view = TournamentView(
        name=stored.name,
        format=stored.format,
        format_name=_(FORMAT_NAMES[stored.format])
        if stored.format in FORMAT_NAMES
        else stored.format,
        channel=stored.channel,
        status=stored.status,
        created=stored.created,
        ended=stored.ended,
        options=" ".join(str(o) for o in data.get("options") or ()),
        by=str(data.get("by", "")),
        entrants=_entrants(entries),
    )
    games = _games(entries)
    view.games = tuple(games)
    view.records = _records(entries)
    cancel = next((e for e in entries if e.kind == "cancel"), None)
    if cancel is not None:
        view.reason = str(cancel.data.get("reason", ""))
    tournament: Tournament | None = None
    try:
        if head is None:
            raise ValueError("no 'new' entry")
        tournament = Tournament.replay([Entry(e.kind, e.data, e.at) for e in entries])
    except Exception as err:  # an older bot's log: show what is stored
        log.info("tournament %s: not replayed (%s)", stored.name, err)
        view.problem = _(
            "The log could not be replayed with this version ({error}).", error=str(err)
        )
    stored_standings, stored_final = _last_standings(entries)
    over = stored.status in ("done", "cancelled")
    if tournament is not None and not (over and stored_standings):
        view.standings = tuple(tournament.standings())
        view.final = tournament.status == "done"
    else:
        # What the bot announced last (the CSV's standings): for a finished tournament these
        # are its placings exactly as written, corrections included.
        view.standings, view.final = stored_standings, stored_final
    if view.final and view.standings and view.standings[0].place == 1:
        top = [s.name for s in view.standings if s.place == 1]
        view.winner = ", ".join(top)
    pending = {g.key for g in tournament.pending()} if tournament is not None else set()
    if tournament is None:
        pending = set() if over else {g.key for g in games if not g.done}
    view.playing = tuple(g for g in games if g.key in pending)
    view.current = _current(stored.format, tournament, view.playing)
    stages = {g.key: g.stage for g in games}
    sections: dict[tuple[tuple[int, int], str], list[SheetLine]] = {}
    for row in stored.sheet:
        stage = sheet_stage(row, stages)
        place = _section(stored.format, row.game_key, stage)
        mark = _("Won") if row.won else str(row.points)
        sections.setdefault(place, []).append(
            SheetLine(row.text(), row.player, row.table, row.game, mark, stage, row.clock)
        )
    view.sheet = tuple(
        SheetSection(title, tuple(lines)) for (_, title), lines in sorted(sections.items())
    )
    if stored.format == "knockout":
        view.bracket = _bracket(games, view.standings, view.final)
    elif stored.format == "rotation":
        view.rotation = _rotation(games)
    return view


def _current(fmt: str, tournament: Tournament | None, playing: tuple[GameView, ...]) -> str:
    if tournament is None:
        return ""
    if tournament.status == "signup":
        return _("Sign-up")
    if tournament.over:
        return ""
    if fmt == "rotation" and tournament.round is not None:
        return _("Round {n}", n=tournament.round.number)
    stages = list(dict.fromkeys(g.stage for g in playing))
    if fmt == "knockout" and playing:
        m = _ROUND.match(playing[0].key)
        if playing[0].stage.startswith("Final"):
            return _("Final")
        if m:
            return _("Round {n}", n=int(m.group(1)))
    if fmt == "ocuk" and playing:
        if any(g.key == "final" for g in playing):
            return _("Final")
        if all(re.fullmatch(r"t\d+", g.key) for g in playing):
            return _("Tables")
    return ", ".join(stage_text(s) for s in stages)


class ViewCache:
    """Views by tournament (folded name), each with the version it was built at; a view is
    rebuilt only when the version the database gives has changed. Thread-safe."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self.size = size
        self._views: OrderedDict[str, tuple[str, TournamentView]] = OrderedDict()
        self._lock = threading.Lock()

    def get(
        self, key: str, version: str, load: Callable[[], Stored | None]
    ) -> TournamentView | None:
        with self._lock:
            found = self._views.get(key)
            if found is not None and found[0] == version:
                self._views.move_to_end(key)
                return found[1]
        stored = load()
        if stored is None:
            return None
        view = build_view(stored)
        with self._lock:
            self._views[key] = (version, view)
            self._views.move_to_end(key)
            while len(self._views) > self.size:
                self._views.popitem(last=False)
        return view
