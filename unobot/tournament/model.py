"""The values a tournament format and the director exchange.

A *format* (``ocuk``, ``knockout``, ``rotation``) is pure logic, like the engine: no IRC, no
database, no clock, its randomness from the ``Random`` it is given. It is driven by a few
inputs (:meth:`Format.start`, :meth:`Format.finished`, :meth:`Format.round_over`, …) and
answers with :class:`Step` values: the games to run (:class:`Seat`), a round clock to start
(:class:`RoundClock`), lines to announce (:class:`Announce`) and the end (:class:`Done`). The
director (``unobot.tournament.director``) turns those into tables on IRC and feeds the outcome
of every game back as a :class:`Result`. Because a format is deterministic given its inputs,
the director stores only the inputs (the stats database's tournament log) and rebuilds a
format after a restart by feeding them again.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from random import Random
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from unobot.i18n import Text, domain, speak

_, ngettext = domain("tournament")

__all__ = [
    "TABLE_LIMIT",
    "Announce",
    "Done",
    "Format",
    "Game",
    "Hand",
    "Result",
    "Roster",
    "RoundClock",
    "Seat",
    "Sheet",
    "SheetRow",
    "Standing",
    "Step",
    "TournamentError",
    "announce_lines",
    "duration_text",
    "even_sizes",
    "list_text",
    "parse_duration",
    "parse_options",
    "ranked",
    "unique_names",
]


class TournamentError(ValueError):
    """A user's mistake (bad option, unknown player, wrong moment); the message is fit for
    the channel, like the engine's ``UnoError``."""


@dataclass(frozen=True, slots=True)
class Game:
    """One game the director must run at one table: a match under ``rules`` for ``players``.

    ``key`` is unique within the tournament and stable across a restart ("t2", "final",
    "r2-g3", "po1"): results come back under it. ``table`` is the table number the score sheet
    shows (``T1``), 1-based; ``stage`` is how the channel hears of it ("Table 2", "Final",
    "Round 2 game 3", "Play-off for 2nd"). ``options`` are ``HouseRules.with_option`` pairs
    applied on top of the preset (e.g. ``("target_score", "0")`` for a one-hand game).
    ``seconds`` > 0 makes it a timed game of that many *tournament* seconds (the director
    scales them by the configured ``time_scale``); the table's match then ends on the clock
    and the unfinished hand counts. ``warning`` is how long before that end the table says no
    new hand starts (0: the table's own default).

    ``label`` is how the score sheet names the game: empty for a *heat* (a first-round table
    game: the seeds' ``T2,G3`` form, hands counted per table), else the stage the sheet shows
    ("Final", "Round 2 game 1"), its hands counted from 1 within the game. The later rounds
    are played at table 1's channel too; without a label they would read as more hands of
    table 1. ``round`` is the tournament round the game belongs to (heats are round 1; a final
    comes after the last round of tables), for grouping the sheet."""

    key: str
    table: int
    stage: str
    players: tuple[str, ...]
    rules: str
    options: tuple[tuple[str, str], ...] = ()
    seconds: float = 0.0
    warning: float = 0.0
    label: str = ""
    round: int = 1


@dataclass(frozen=True, slots=True)
class Hand:
    """One hand of a finished game: the score sheet's line for each player.

    ``points`` are the card points each player held when the hand ended (0 for whoever went
    out); ``scores`` what each scored under the game's scoring (winner collects: the winner
    gets everyone's points, the others 0; own points: equal to ``points``). ``winner`` is who
    went out, None when the clock cut the hand short (``clock``: a timed game ended in the
    middle of it and its points count). Names in seat order at that hand."""

    players: tuple[str, ...]
    points: tuple[int, ...]
    scores: tuple[int, ...]
    winner: str | None
    clock: bool = False


@dataclass(frozen=True, slots=True)
class Result:
    """How a game ended: every player's match total and the match's winners.

    ``totals`` covers the players still seated at the end, by name; a player removed from the
    table during the game (left, timed out twice, removed by an admin) is in ``gone`` instead
    and has forfeited that game. ``winners`` are the best totals (winner collects: highest;
    own points: lowest) as the engine decided them (the first-hand rule may give two)."""

    key: str
    totals: tuple[tuple[str, int], ...]
    winners: tuple[str, ...]
    hands: tuple[Hand, ...] = ()
    gone: tuple[str, ...] = ()

    def total(self, name: str) -> int:
        for who, total in self.totals:
            if who == name:
                return total
        raise KeyError(name)


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings: ``place`` (1 is best; equal places share a number)."""

    place: int
    name: str
    score: int
    note: str = ""
    """Short: "champion", "final", "out in round 2", "table 3", "eliminated at 263"."""


@dataclass(frozen=True, slots=True)
class Seat:
    """Run ``game`` now: seat its players at table ``game.table`` and deal when they are in."""

    game: Game


@dataclass(frozen=True, slots=True)
class RoundClock:
    """Round ``number`` starts now: it lasts ``seconds`` (tournament seconds), with a warning
    ``warning`` seconds before its end after which no table starts a new game. The director
    calls :meth:`Format.round_over` when every game of the round has been reported after the
    round's end."""

    number: int
    seconds: float
    warning: float


@dataclass(frozen=True, slots=True)
class Announce:
    """A line for the tournament channel (short: it is also logged). Never holds raw user
    text beyond entrant names, which the director has validated as nicks.

    ``text`` is one translated message (:class:`~unobot.i18n.Text`): the director says it in
    the channel's language, whatever language was spoken when the format made it."""

    text: str


@dataclass(frozen=True, slots=True)
class Done:
    """The tournament is over; ``standings`` are final."""

    standings: tuple[Standing, ...]


Step = Seat | RoundClock | Announce | Done

OptionsT = TypeVar("OptionsT")

LINE = 290
"""Announce lines are kept under this many characters."""
TABLE_LIMIT = 10
"""The most players the engine seats at one table (``HouseRules.max_players``)."""

_DURATION = re.compile(r"^(\d+(?:\.\d+)?)(s|m|h)?$")


def parse_duration(text: str) -> float:
    """Seconds from ``90s``, ``20m``, ``1.5h`` or a bare number of minutes."""
    match = _DURATION.match(text.strip().lower())
    if not match:
        raise TournamentError(_("'{text}' is not a duration (e.g. 90s, 20m, 1h)", text=text[:20]))
    value = float(match.group(1))
    return value * {"s": 1.0, "m": 60.0, "h": 3600.0, None: 60.0}[match.group(2)]


def duration_text(seconds: float) -> str:
    """``20m``, ``90s`` -> ``1m30s``, ``1h``, ``9m58s``: how a duration is said in the channel."""
    total = max(0, round(seconds))
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [f"{n}{unit}" for n, unit in ((hours, "h"), (minutes, "m"), (secs, "s")) if n]
    return "".join(parts) or "0s"


def corrected(key: str, name: str, delta: int, total: int) -> list[Announce]:
    """The line announcing a director's correction of ``name``'s score in game ``key``."""
    text = _("{key}: {name} {delta} points, now {total}.", key=key, name=name,
             delta=f"{delta:+d}", total=total)  # fmt: skip
    return [Announce(text)]


def list_text(items: Sequence[str]) -> str:
    """``a, b, c``: names stay a plain ``str``; items that are translated messages make a
    message that is spoken again item by item in another language."""
    if not any(isinstance(item, Text) for item in items):
        return ", ".join(items)
    if len(items) == 1:
        return items[0]
    return _("{item}, {more}", item=items[0], more=list_text(items[1:]))


def announce_lines(make: Callable[[str], str], items: Sequence[str]) -> list[Announce]:
    """``make("item, item, …")`` (one translated message with the list in it, e.g.
    ``_("{stage}: {players}", …)``) split into lines short enough for the channel.

    Measured in English, so the English lines are where they always were; the longest
    translation of a list's words adds a few dozen bytes, well within IRC's line."""
    out: list[Announce] = []
    chunk: list[str] = []
    for item in items:
        if chunk and len(speak(make(list_text([*chunk, item])), "en")) > LINE:
            out.append(Announce(make(list_text(chunk))))
            chunk = []
        chunk.append(item)
    out.append(Announce(make(list_text(chunk))))
    return out


def unique_names(names: Sequence[str]) -> list[str]:
    """``names`` without a repeat (case-insensitively), the first of each kept, in order."""
    seen: set[str] = set()
    out: list[str] = []
    for name in names:
        if name.lower() not in seen:
            seen.add(name.lower())
            out.append(name)
    return out


def even_sizes(players: int, most: int) -> list[int]:
    """``ceil(players / most)`` groups, sizes differing by at most one, bigger first (7, 4 ->
    [4, 3]; 17, 4 -> [4, 4, 3, 3, 3]); none for no players."""
    if players <= 0:
        return []
    groups = math.ceil(players / most)
    base, extra = divmod(players, groups)
    return [base + 1 if k < extra else base for k in range(groups)]


def ranked(rows: Sequence[tuple[Any, str, int, str]]) -> list[Standing]:
    """Standings from ``(key, name, score, note)`` rows, best first: rows with equal keys
    share a place (1, 2, 2, 4)."""
    out: list[Standing] = []
    for n, (key, name, score, note) in enumerate(rows):
        place = out[-1].place if n and rows[n - 1][0] == key else n + 1
        out.append(Standing(place, name, score, note))
    return out


def parse_options(cls: type[OptionsT], pairs: Sequence[str]) -> OptionsT:
    """A ``cls`` (a frozen dataclass of defaults) with ``key=value`` pairs applied.

    Fields typed ``float`` whose name ends in ``_seconds`` take durations (``20m``); ``int``
    fields integers; ``bool`` on/off; ``str`` as given. Unknown keys and bad values raise
    :class:`TournamentError` naming the choices."""
    fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    values: dict[str, Any] = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        key = key.strip().lower().replace("-", "_")
        if not sep or not text.strip():
            raise TournamentError(_("options are key=value, not '{pair}'", pair=pair[:30]))
        found = fields.get(key) or fields.get(key + "_seconds")
        if found is None:
            raise TournamentError(
                _(
                    "no option '{key}'; options: {options}",
                    key=key[:30],
                    options=", ".join(_public(fields)),
                )
            )
        kind = found.type if isinstance(found.type, str) else getattr(found.type, "__name__", "")
        try:
            if found.name.endswith("_seconds"):
                values[found.name] = parse_duration(text)
            elif kind == "int":
                values[found.name] = int(text)
            elif kind == "float":
                values[found.name] = float(text)
            elif kind == "bool":
                if text.lower() not in ("on", "off", "yes", "no", "true", "false"):
                    raise ValueError
                values[found.name] = text.lower() in ("on", "yes", "true")
            else:
                values[found.name] = text.strip()
        except ValueError:
            raise TournamentError(
                _("bad value for {key}: '{value}'", key=key, value=text[:20])
            ) from None
    options = cls(**values)
    check = getattr(options, "check", None)
    if callable(check):
        check()
    return options


def _public(fields: dict[str, Any]) -> list[str]:
    return [name.removesuffix("_seconds") for name in fields]


class Format(Protocol):
    """A tournament format's logic. Deterministic: the same inputs in the same order (and the
    same seed in the ``Random`` it was made with) give the same steps, which is how a
    tournament is rebuilt after a restart.

    Made as ``cls(options, rng, scale)``; ``options`` is the format's own frozen dataclass
    (``cls.Options``), parsed from ``key=value`` words by :func:`parse_options`; ``scale`` is
    the director's time scale, used only for the durations the format announces."""

    name: ClassVar[str]
    Options: ClassVar[type]

    def start(self, entrants: Sequence[str], reserves: Sequence[str] = ()) -> list[Step]:
        """Sign-up is over: seat ``entrants`` (in sign-up order; ``reserves`` fill empty
        places where the format has them). Raises :class:`TournamentError` when there are too
        few to play."""
        ...

    def finished(self, result: Result) -> list[Step]:
        """A game the format asked for has ended (or was stopped by the round's clock)."""
        ...

    def round_over(self) -> list[Step]:
        """The round's time is up and every game of it has been reported (rotation only;
        other formats return [])."""
        ...

    def remove(self, name: str) -> list[Step]:
        """``name`` is out of the tournament (an admin removed them, or they left): they
        forfeit what they are in and are placed last among those still in."""
        ...

    def substitute(self, old: str, new: str) -> list[Step]:
        """``new`` takes ``old``'s place and score from now on (a reserve, a replacement)."""
        ...

    def correct(self, name: str, key: str, delta: int) -> list[Step]:
        """An admin corrects ``name``'s score in game ``key`` by ``delta`` points: it changes
        the totals the standings and later decisions use (not decisions already made)."""
        ...

    def standings(self) -> list[Standing]:
        """Everyone's place now (final once :class:`Done` was returned)."""
        ...

    def pending(self) -> list[Game]:
        """Games asked for (:class:`Seat`) whose result has not come back, in order."""
        ...

    @property
    def done(self) -> bool: ...


class CheckedOptions(Protocol):
    def check(self) -> None: ...


class Played(Protocol):
    ids: list[int]


CheckedT = TypeVar("CheckedT", bound=CheckedOptions)
GameT = TypeVar("GameT")
PlayedT = TypeVar("PlayedT", bound=Played)


class Roster(Generic[CheckedT]):
    """What every format keeps: its checked ``options``, its ``rng`` and its players. A player
    is an id, their place in ``_names`` (the current names); ``_lookup`` maps lower-cased
    current and former names (before a substitution) to ids, so results may come back under
    either. Names are matched case-insensitively; ``_removed`` holds the removed in the order
    they went."""

    def __init__(self, options: CheckedT, rng: Random, scale: float = 1.0) -> None:
        """``scale``: the director's time scale (``Tournament.scale``). The logic never reads
        it; it only makes the durations the format *says* the ones the tables really run."""
        options.check()
        self.options = options
        self.rng = rng
        self.scale = scale
        self._names: list[str] = []
        self._lookup: dict[str, int] = {}
        self._started = False
        self._done = False
        self._removed: list[int] = []

    @property
    def done(self) -> bool:
        return self._done

    def _said(self, seconds: float) -> str:
        """A duration of the options as the channel hears it: scaled, as the clocks run."""
        return duration_text(seconds * self.scale)

    def _check_new(self) -> None:
        if self._started:
            raise TournamentError(_("the tournament has already started"))

    def _check_running(self) -> None:
        if not self._started:
            raise TournamentError(_("the tournament has not started"))
        if self._done:
            raise TournamentError(_("the tournament is over"))

    def _enter(self, names: Sequence[str]) -> None:
        """Give ``names`` (already unique) the next ids."""
        for name in names:
            self._lookup[name.lower()] = len(self._names)
            self._names.append(name)

    def _find(self, name: str) -> int:
        """The id of the player now called ``name``."""
        wanted = name.strip().lower()
        for i, current in enumerate(self._names):
            if current.lower() == wanted:
                return i
        raise TournamentError(_("{name} is not in the tournament", name=name[:30]))

    def _ids(self, names: Sequence[str]) -> set[int]:
        """The ids of the known ones of ``names`` (current or former)."""
        return {self._lookup[n.lower()] for n in names if n.lower() in self._lookup}

    def _totals(self, result: Result, ids: Sequence[int]) -> dict[int, int]:
        """``result``'s totals by id, for the players of ``ids`` (others are left out)."""
        totals: dict[int, int] = {}
        for name, total in result.totals:
            i = self._lookup.get(name.lower())
            if i is not None and i in ids:
                totals[i] = total
        return totals

    def _reported(self, games: Mapping[str, GameT], key: str) -> GameT:
        """The game a result came back for (the start of :meth:`Format.finished`)."""
        self._check_running()
        game = games.get(key)
        if game is None:
            raise TournamentError(_("no game {key} in this tournament", key=key[:20]))
        return game

    def _corrected(self, games: Mapping[str, PlayedT], name: str, key: str) -> tuple[int, PlayedT]:
        """The id of the player called ``name`` and their game ``key`` (the start of
        :meth:`Format.correct`)."""
        i = self._find(name)
        game = games.get(key)
        if game is None:
            raise TournamentError(_("no game {key}", key=key[:20]))
        if i not in game.ids:
            raise TournamentError(_("{name} did not play {key}", name=self._names[i], key=key[:20]))
        return i, game

    def _take_out(self, name: str) -> int:
        """Mark the player called ``name`` removed (the start of :meth:`Format.remove`)."""
        self._check_running()
        i = self._find(name)
        if i in self._removed:
            raise TournamentError(_("{name} was already removed", name=self._names[i]))
        self._removed.append(i)
        return i

    def _rename(self, old: str, new: str) -> str:
        """``new`` becomes the name of the player called ``old`` (the heart of
        :meth:`Format.substitute`); returns the name they had."""
        self._check_running()
        i = self._find(old)
        if i in self._removed:
            raise TournamentError(_("{name} was removed", name=self._names[i]))
        new = new.strip()
        if not new or " " in new:
            raise TournamentError(_("a name is one word"))
        if new.lower() in self._lookup:
            raise TournamentError(_("{name} is already in the tournament", name=new))
        was = self._names[i]
        self._names[i] = new
        self._lookup[new.lower()] = i
        return was


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One line of the seeds' score sheet: ``player``'s card ``points`` in hand ``game`` of the
    match ``game_key`` at ``table``; ``won``: they went out (the sheet says ``Won``).

    ``label`` empty: a heat, the seeds' own form, ``game`` counted per table across the heats
    (``Beank > T1,G1,170``). Otherwise the game's name on the sheet ("Final", "Round 2 game 1",
    "Play-off for 2nd") and ``game`` the hand's number within that game
    (``ann > Final,G1,12``). ``clock``: the hand was cut short by the game's clock (timed
    knockout and rotation games) and its points count; nobody won it (``ann > T1,G4,66
    (clock)``). ``round``: the tournament round of the game (heats are 1)."""

    game_key: str
    table: int
    game: int
    player: str
    points: int
    won: bool
    label: str = ""
    clock: bool = False
    round: int = 1

    @property
    def where(self) -> str:
        """``T1`` for a heat, else the label (``Final``)."""
        return self.label or f"T{self.table}"

    def text(self) -> str:
        """``Beank > T1,G1,170`` / ``BigStu > T1,G1,Won`` / ``ann > Final,G1,12`` /
        ``bob > T2,G4,66 (clock)``."""
        mark = "Won" if self.won else str(self.points)
        clock = " (clock)" if self.clock else ""
        return f"{self.player} > {self.where},G{self.game},{mark}{clock}"


@dataclass(slots=True)
class Sheet:
    """The seeds' score sheet (000: ``Beank > T1,G1,170`` / ``BigStu > T1,G1,Won``): one line
    per player per hand. Heats number their hands per table across the tournament; the other
    games (:attr:`Game.label`) number them within the game, so the final reads ``Final,G1``,
    never as a fifth game of table 1."""

    lines: list[SheetRow] = field(default_factory=list)
    _games: dict[int, int] = field(default_factory=dict)

    def add(self, game: Game, result: Result) -> list[SheetRow]:
        """Add ``result``'s hands; returns the lines added."""
        added: list[SheetRow] = []
        for n, hand in enumerate(result.hands, 1):
            if game.label:
                number = n
            else:
                number = self._games.get(game.table, 0) + 1
                self._games[game.table] = number
            for name, points in zip(hand.players, hand.points, strict=True):
                won = name == hand.winner
                row = SheetRow(
                    game.key,
                    game.table,
                    number,
                    name,
                    0 if won else points,
                    won,
                    game.label,
                    hand.clock,
                    game.round,
                )
                added.append(row)
        self.lines += added
        return added

    @staticmethod
    def text(line: SheetRow) -> str:
        return line.text()
