"""One tournament's whole state, rebuilt from its log: sign-up, entrants, games, results.

Pure, like the formats it wraps: every change is an *entry* (``kind``, ``data``, ``at``) —
the same values the stats database keeps (``unobot.tournament.store``) — and
:meth:`Tournament.apply` is the only way state changes. The director applies an entry and
writes it to the database; after a restart it applies the stored entries again and gets the
same tournament (the format is deterministic, its ``Random`` seeded from the ``new`` entry).
Steps returned while replaying are not acted on: what they asked for (games, the round's
clock) is known from the state they leave (``pending``, ``round``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from random import Random
from typing import Any

from unobot.i18n import N_, domain
from unobot.tournament.formats import format_class
from unobot.tournament.model import (
    Done,
    Format,
    Game,
    Hand,
    Result,
    Seat,
    Sheet,
    Standing,
    Step,
    TournamentError,
    duration_text,
    parse_duration,
    parse_options,
)

__all__ = ["DirectorOptions", "Entrant", "Entry", "Round", "Tournament"]

_, ngettext = domain("tournament")

_NOT_NOW = {
    "signup": N_("the tournament is in sign-up"),
    "running": N_("the tournament is running"),
    "done": N_("the tournament is over"),
    "cancelled": N_("the tournament was cancelled"),
}


@dataclass(frozen=True, slots=True)
class Entry:
    """One change to a tournament, as stored: ``at`` is wall-clock seconds (epoch)."""

    kind: str
    data: dict[str, Any]
    at: float


@dataclass(frozen=True, slots=True)
class DirectorOptions:
    """The options the director reads (the rest belong to the format).

    ``signup``: sign-up closes and the tournament starts this long after it was opened (0: when
    an admin says ``.tournament start``); ``grace``: how long seated players have to come to
    their table before the no-show rule applies; ``tables``: the table channels, else
    ``<channel>-t1``, ``-t2`` …; ``level``: computer entrants' level."""

    signup_seconds: float = 0.0
    grace_seconds: float = 120.0
    tables: str = ""
    level: str = "normal"

    def check(self) -> None:
        if self.signup_seconds < 0 or self.grace_seconds < 5:
            raise TournamentError(_("signup is 0 or more, grace at least 5s"))


DIRECTOR_KEYS = {"signup", "grace", "tables", "level"}


def split_options(words: Sequence[str]) -> tuple[DirectorOptions, list[str]]:
    """The director's ``key=value`` words and the format's."""
    mine = [w for w in words if w.partition("=")[0].strip().lower() in DIRECTOR_KEYS]
    rest = [w for w in words if w not in mine]
    return parse_options(DirectorOptions, mine), rest


@dataclass(slots=True)
class Entrant:
    name: str
    key: str
    """The ident the stats file results under (account, host or folded nick; ``$bot:…``)."""
    level: str = ""
    """A computer entrant's level; empty for a person."""
    reserve: bool = False


@dataclass(slots=True)
class Round:
    number: int
    started: float
    seconds: float
    warning: float

    @property
    def ends(self) -> float:
        return self.started + self.seconds

    @property
    def warned(self) -> float:
        return self.ends - self.warning


@dataclass(slots=True)
class Tournament:
    """A tournament from its ``new`` entry on. ``scale`` multiplies every duration the format
    and the options give (the configured ``time_scale``: tests run 60-minute games as 20 s)."""

    name: str
    format_name: str
    channel: str
    words: list[str]
    seed: int
    opened: float
    by: str
    scale: float = 1.0
    tables: list[str] = field(default_factory=list)
    format: Format = field(init=False)
    options: DirectorOptions = field(init=False)
    status: str = "signup"
    entrants: list[Entrant] = field(default_factory=list)
    games: dict[str, Game] = field(default_factory=dict)
    results: dict[str, Result] = field(default_factory=dict)
    seated: dict[str, float] = field(default_factory=dict)
    """Game key -> when its players were called to the table (the no-show grace counts from it)."""
    round: Round | None = None
    paused: float | None = None
    sheet: Sheet = field(default_factory=Sheet)
    log: list[Entry] = field(default_factory=list)
    """Every entry applied (the director writes the new ones; export reads them)."""
    reason: str = ""

    def __post_init__(self) -> None:
        cls = format_class(self.format_name)
        self.options, rest = split_options(self.words)
        options = parse_options(cls.Options, rest)
        self.format = cls(options, Random(self.seed), self.scale)  # type: ignore[call-arg]
        if not self.tables:
            self.tables = _table_channels(self.channel, self.options.tables)

    # --- building ---------------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        name: str,
        format_name: str,
        channel: str,
        words: Sequence[str],
        seed: int,
        at: float,
        by: str,
        scale: float = 1.0,
    ) -> tuple[Tournament, Entry]:
        """A tournament in sign-up and the entry that records it (TournamentError on bad
        options)."""
        made = cls(name, format_name.lower(), channel, list(words), seed, at, by, scale)
        entry = Entry(
            "new",
            {
                "name": name,
                "format": made.format_name,
                "channel": channel,
                "options": list(words),
                "by": by,
                "seed": seed,
                "tables": made.tables,
            },
            at,
        )
        made.log.append(entry)
        return made, entry

    @classmethod
    def replay(cls, entries: Sequence[Entry], scale: float = 1.0) -> Tournament:
        """The tournament its stored entries describe."""
        head = entries[0]
        if head.kind != "new":
            raise ValueError("a tournament's log starts with its 'new' entry")
        data = head.data
        made = cls(
            data["name"],
            data["format"],
            data["channel"],
            list(data["options"]),
            int(data["seed"]),
            head.at,
            data.get("by", ""),
            scale,
            list(data.get("tables") or []),
        )
        made.log.append(head)
        for entry in entries[1:]:
            made.apply(entry)
        return made

    # --- reading ----------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.status in ("done", "cancelled")

    def entrant(self, name: str) -> Entrant | None:
        low = name.lower()
        return next((e for e in self.entrants if e.name.lower() == low), None)

    def pending(self) -> list[Game]:
        return [] if self.over or self.status == "signup" else self.format.pending()

    def seconds(self, tournament_seconds: float) -> float:
        """Real seconds for a duration the format or options give."""
        return tournament_seconds * self.scale

    def channel_of(self, game: Game) -> str:
        """The table channel of ``game`` (tables beyond the list reuse it from the start)."""
        return self.tables[(game.table - 1) % len(self.tables)]

    def standings(self) -> list[Standing]:
        return self.format.standings()

    def signup_ends(self) -> float | None:
        if self.status != "signup" or not self.options.signup_seconds:
            return None
        return self.opened + self.seconds(self.options.signup_seconds)

    # --- changing ---------------------------------------------------------------------------

    def apply(self, entry: Entry) -> list[Step]:
        """Apply one entry; returns the format's steps (for the director to act on when the
        entry is new). TournamentError when the entry does not fit (nothing changes then)."""
        handler = getattr(self, "_on_" + entry.kind, None)
        if handler is None:
            raise TournamentError(_("unknown entry {kind}", kind=entry.kind))
        steps: list[Step] = handler(entry.data, entry.at)
        self.log.append(entry)
        for step in steps:
            if isinstance(step, Done):
                self.status = "done"
        return steps

    def _need(self, *statuses: str) -> None:
        if self.status not in statuses:
            raise TournamentError(_(_NOT_NOW[self.status]))

    def _on_join(self, data: dict[str, Any], at: float) -> list[Step]:
        self._need("signup", "running")
        name = data["name"]
        reserve = bool(data.get("reserve"))
        if self.status == "running" and not reserve:
            raise TournamentError(_("sign-up is closed (a reserve may still be named)"))
        if self.entrant(name) is not None:
            raise TournamentError(_("{name} is already signed up", name=name))
        self.entrants.append(Entrant(name, data.get("key", ""), data.get("level", ""), reserve))
        return []

    def _on_leave(self, data: dict[str, Any], at: float) -> list[Step]:
        self._need("signup")
        found = self.entrant(data["name"])
        if found is None:
            raise TournamentError(_("{name} is not signed up", name=data["name"]))
        self.entrants.remove(found)
        return []

    def _on_start(self, data: dict[str, Any], at: float) -> list[Step]:
        self._need("signup")
        players = [e.name for e in self.entrants if not e.reserve]
        reserves = [e.name for e in self.entrants if e.reserve]
        steps = self.format.start(players, reserves)
        self.status = "running"
        return self._track(steps, at)

    def _on_seat(self, data: dict[str, Any], at: float) -> list[Step]:
        self.seated[data["key"]] = at
        return []

    def _on_round(self, data: dict[str, Any], at: float) -> list[Step]:
        self.round = Round(
            int(data["number"]),
            at,
            self.seconds(float(data["seconds"])),
            self.seconds(float(data["warning"])),
        )
        return []

    def _on_result(self, data: dict[str, Any], at: float) -> list[Step]:
        self._need("running")
        result = result_from_json(data)
        game = self.games.get(result.key)
        if game is None or result.key in self.results:
            raise TournamentError(_("no game {key} waits for a result", key=result.key))
        self.results[result.key] = result
        self.sheet.add(game, result)
        return self._track(self.format.finished(result), at)

    def _on_round_over(self, data: dict[str, Any], at: float) -> list[Step]:
        self._need("running")
        return self._track(self.format.round_over(), at)

    def _on_remove(self, data: dict[str, Any], at: float) -> list[Step]:
        self._need("running", "signup")
        found = self.entrant(data["name"])
        if found is None:
            raise TournamentError(_("{name} is not in the tournament", name=data["name"]))
        if self.status == "signup":
            self.entrants.remove(found)
            return []
        return self._track(self.format.remove(found.name), at)

    def _on_sub(self, data: dict[str, Any], at: float) -> list[Step]:
        self._need("running", "signup")
        old = self.entrant(data["old"])
        if old is None:
            raise TournamentError(_("{name} is not in the tournament", name=data["old"]))
        new = self.entrant(data["new"])
        if new is not None and not new.reserve:
            raise TournamentError(_("{name} is already playing", name=data["new"]))
        if new is not None:
            self.entrants.remove(new)
        key = data.get("key") or (new.key if new else "")
        self.entrants[self.entrants.index(old)] = Entrant(data["new"], key, old.level)
        if self.status == "signup":
            return []
        steps = self.format.substitute(old.name, data["new"])
        self.games = {k: _renamed(g, old.name, data["new"]) for k, g in self.games.items()}
        return self._track(steps, at)

    def _on_correct(self, data: dict[str, Any], at: float) -> list[Step]:
        self._need("running", "done")
        return self._track(self.format.correct(data["name"], data["key"], int(data["delta"])), at)

    def _on_penalty(self, data: dict[str, Any], at: float) -> list[Step]:
        return []  # the table applied it; the entry is the record

    def _on_pause(self, data: dict[str, Any], at: float) -> list[Step]:
        self._need("running", "signup")
        if self.paused is not None:
            raise TournamentError(_("the clock is already paused"))
        self.paused = at
        return []

    def _on_resume(self, data: dict[str, Any], at: float) -> list[Step]:
        if self.paused is None:
            raise TournamentError(_("the clock is not paused"))
        lost = max(0.0, at - self.paused)
        self.paused = None
        # Every clock moves on by the pause: sign-up, the no-show grace, the round.
        self.opened += lost
        self.seated = {k: t + lost for k, t in self.seated.items()}
        if self.round is not None:
            self.round.started += lost
        return []

    def _on_standings(self, data: dict[str, Any], at: float) -> list[Step]:
        return []

    def _on_cancel(self, data: dict[str, Any], at: float) -> list[Step]:
        self._need("signup", "running")
        self.status = "cancelled"
        self.reason = str(data.get("reason", ""))
        return []

    def _on_done(self, data: dict[str, Any], at: float) -> list[Step]:
        self.status = "done"
        return []

    def _track(self, steps: list[Step], at: float) -> list[Step]:
        """Remember every game asked for (the round's clock comes as its own 'round' entry,
        written by the director with the moment it started)."""
        for step in steps:
            if isinstance(step, Seat):
                self.games[step.game.key] = step.game
        return steps


def _renamed(game: Game, old: str, new: str) -> Game:
    if old not in game.players:
        return game
    players = tuple(new if p == old else p for p in game.players)
    return dataclasses.replace(game, players=players)


def _table_channels(channel: str, given: str) -> list[str]:
    if given:
        names = [c.strip() for c in given.split(",") if c.strip()]
        if not names or not all(c.startswith(("#", "&")) and " " not in c for c in names):
            raise TournamentError(_("tables=#a,#b,… (channel names)"))
        return names
    return [f"{channel}-t{k}" for k in range(1, 33)]


def result_to_json(result: Result) -> dict[str, Any]:
    return {
        "key": result.key,
        "totals": [list(t) for t in result.totals],
        "winners": list(result.winners),
        "hands": [
            {
                "players": list(h.players),
                "points": list(h.points),
                "scores": list(h.scores),
                "winner": h.winner,
                **({"clock": True} if h.clock else {}),
            }
            for h in result.hands
        ],
        "gone": list(result.gone),
    }


def result_from_json(data: dict[str, Any]) -> Result:
    return Result(
        data["key"],
        tuple((str(n), int(t)) for n, t in data["totals"]),
        tuple(data["winners"]),
        tuple(
            Hand(
                tuple(h["players"]),
                tuple(h["points"]),
                tuple(h["scores"]),
                h.get("winner"),
                bool(h.get("clock")),
            )
            for h in data.get("hands", ())
        ),
        tuple(data.get("gone", ())),
    )


__all__ += ["duration_text", "parse_duration", "result_from_json", "result_to_json"]
