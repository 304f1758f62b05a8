"""The BAC rotation tournament (seed 002) as pure logic: timed rounds at tables of 4 or 5, the
round's lowest scorer at each table moves down a table number and the highest moves up.

**Seating**: ``ceil(n / max_table)`` tables (seed: "Table has 4 or 5 players"), sizes differing
by at most one (bigger tables first), the entrants shuffled once with the format's ``rng``. A
table of 3 appears only when the numbers force it (6, 7 or 11 players with ``max_table`` 5:
fewer tables would need more than 5 at one); its game gets ``min_players 3`` because the
``bac-tournament`` preset needs 4. Reserves don't play; they stay available to
:meth:`Rotation.substitute`.

**Rounds**: each round is one timed ``bac-tournament`` match per table, dealt to the round's
end; the preset's ``warning_ends_round`` means no new hand after the warning, and at the
round's end the hand in play stops and counts (seed: "When the round ends, the current game
ends immediately"). A table's ``Result.totals`` are its players' round totals (the seed's
"games" are the engine's hands; each keeps their own points). The seed leaves the round's
length to the MC's timer: ``round_seconds`` (20 minutes) and ``warning_seconds`` (5 minutes)
are this format's defaults, not the seed's.

**Moves** (:meth:`Rotation.round_over`): at each table the round's lowest scorer moves down a
table number (table 1 goes to the highest table) and the highest scorer moves up (the highest
table goes to table 1). With one table nobody moves. After ``rounds`` rounds (3) the standings
are by tournament total (the sum of round totals), lowest first; ties share a place.

Choices where the seed is silent:

* Ties for lowest (or highest) at a table: the lower (higher) running tournament total counts
  as lower (higher) - the round totals being equal, with or without this round is the same -
  then a draw with ``rng``; the announcement says which decided it. The lowest is chosen first,
  the highest among the others, so two different players move whenever a table has two.
* Who arrives sits after those who stay, those from lower table numbers first.
* A player in a table's ``Result.gone`` (left during the round) without being removed forfeits
  the round: their round total is the table's highest round total (0 at least), and they count
  as the table's highest scorer before any real one (so they move up).
* :meth:`Rotation.remove`: out for good; they are left out of the round's totals (forfeit) and
  of every later seating; placed last (by their total, among the removed). A pending table left
  with nobody still in it is closed at once (a result reported later is ignored).
* Rebalancing, after the moves: while a table has fewer than 3 players (fewer than all when
  under 3 are left): if the players can't fill every table with 3, the smallest table (the
  higher number on a tie) closes and its players sit, one by one, at the smallest tables left
  (lower number first), tables renumbered in order; otherwise a player drawn with ``rng`` moves
  from the biggest table (the lower number on a tie) to the short one. Announced. Fewer than 2
  players left ends the tournament at the round's end.
* :meth:`Rotation.correct`: before the round's end (also before the table reported) it changes
  the round total the moves use; after, only the tournament total. A correction for a player
  who forfeits the round is kept but has no effect (a forfeit's total is the table's highest).
* :meth:`Rotation.substitute`: the new name takes the old one's seat, totals and future rounds;
  a removed player can't be substituted. Results may come back under either name. Names are
  matched case-insensitively.
* A table of more than 5 (``max_table`` above 5) passes ``max_players`` to its game.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from unobot.i18n import domain
from unobot.tournament.model import (
    TABLE_LIMIT,
    Announce,
    Done,
    Game,
    Result,
    Roster,
    RoundClock,
    Seat,
    Standing,
    Step,
    TournamentError,
    announce_lines,
    even_sizes,
    ranked,
    unique_names,
)
from unobot.tournament.words import stage_text

_, ngettext = domain("tournament")

__all__ = ["Rotation", "RotationOptions", "table_sizes"]

RULES = "bac-tournament"
PRESET_MIN = 4
PRESET_MAX = 5
"""The ``bac-tournament`` preset's ``min_players`` and ``max_players``."""
FLOOR = 3
"""No table plays with fewer (unless fewer are left in all)."""


@dataclass(frozen=True, slots=True)
class RotationOptions:
    rounds: int = 3
    round_seconds: float = 1200.0
    """The seed leaves the round's length to the MC's timer: 20 minutes is this format's."""
    warning_seconds: float = 300.0
    """The round warning (no new game after it) comes this long before the end."""
    max_table: int = 5
    min_table: int = 4
    """Seed 002: "Table has 4 or 5 players"; fewer (3) only when the numbers force it."""

    def check(self) -> None:
        if not 1 <= self.rounds <= 100:
            raise TournamentError(_("rounds is 1 to 100"))
        if not 60 <= self.round_seconds <= 24 * 3600:
            raise TournamentError(_("round is 1m to 24h"))
        if not 0 <= self.warning_seconds < self.round_seconds:
            raise TournamentError(_("warning is 0 or more and shorter than a round"))
        if not FLOOR <= self.min_table <= self.max_table <= TABLE_LIMIT:
            raise TournamentError(
                _("table sizes need 3 <= min_table <= max_table <= {most}", most=TABLE_LIMIT)
            )
        if self.max_table < 2 * FLOOR - 1:
            raise TournamentError(
                _("max_table is 5 at least (so any count splits into tables of 3+)")
            )


def table_sizes(players: int, max_table: int = 5) -> list[int]:
    """``ceil(n / max_table)`` tables, sizes differing by at most one, bigger first (7 ->
    [4, 3], 11 -> [4, 4, 3], 20 -> [5, 5, 5, 5])."""
    return even_sizes(players, max_table)


@dataclass(slots=True)
class _Table:
    key: str
    round: int
    table: int
    ids: list[int]
    totals: dict[int, int] | None = None
    gone: set[int] = field(default_factory=set)
    closed: bool = False
    """No result is waited for (reported, or closed when nobody was left in it)."""


class Rotation(Roster[RotationOptions]):
    """The ``rotation`` format (see the module docstring for the rules and the choices made)."""

    name: ClassVar[str] = "rotation"
    Options: ClassVar[type[RotationOptions]] = RotationOptions

    def __init__(self, options: RotationOptions, rng: random.Random, scale: float = 1.0) -> None:
        super().__init__(options, rng, scale)
        self._round = 0
        self._seating: list[list[int]] = []
        """The current round's tables (index 0 is table 1)."""
        self._games: dict[str, _Table] = {}
        self._round_keys: list[str] = []
        self._corrections: dict[tuple[str, int], int] = {}
        self._scores: dict[int, int] = {}
        """Tournament totals of closed rounds (with corrections made after)."""

    # --- inputs -------------------------------------------------------------------------------

    def start(self, entrants: Sequence[str], reserves: Sequence[str] = ()) -> list[Step]:
        self._check_new()
        entrants = unique_names(entrants)
        if len(entrants) < 3:
            raise TournamentError(_("a rotation tournament needs at least 3 players"))
        self._started = True
        self._enter(entrants)
        ids = list(range(len(self._names)))
        self._scores = dict.fromkeys(ids, 0)
        order = list(ids)
        self.rng.shuffle(order)
        start = 0
        for size in table_sizes(len(order), self.options.max_table):
            self._seating.append(order[start : start + size])
            start += size
        o = self.options
        steps: list[Step] = [
            Announce(
                _(
                    "Rotation: {n} players at {tables} tables, {rounds} of {time} (the MC's "
                    "choice; warning {warning} before the end). The lowest score at each table "
                    "moves down a table, the highest up; lowest tournament total wins.",
                    n=len(ids),
                    tables=len(self._seating),
                    rounds=ngettext("{n} round", "{n} rounds", o.rounds),
                    time=self._said(o.round_seconds),
                    warning=self._said(o.warning_seconds),
                )
            )
        ]
        waiting = [r for r in unique_names(reserves) if r.lower() not in self._lookup]
        if waiting:
            steps += announce_lines(
                lambda names: _("Reserves, on standby for substitutions: {names}", names=names),
                waiting,
            )
        return steps + self._begin_round()

    def finished(self, result: Result) -> list[Step]:
        game = self._reported(self._games, result.key)
        if game.totals is not None:
            raise TournamentError(_("{key} already has a result", key=result.key[:20]))
        game.totals = self._totals(result, game.ids)
        game.gone = self._ids(result.gone)
        game.closed = True
        return []

    def round_over(self) -> list[Step]:
        self._check_running()
        waiting = [k for k in self._round_keys if not self._games[k].closed]
        if waiting:
            raise TournamentError(_("tables still playing: {tables}", tables=", ".join(waiting)))
        r = self._round
        steps: list[Step] = []
        round_scores: dict[int, int] = {}
        forfeits: set[int] = set()
        for key in self._round_keys:
            game = self._games[key]
            totals = game.totals or {}
            scored: dict[int, int] = {}
            for p in game.ids:
                if p in self._removed:
                    continue
                if p in totals and p not in game.gone:
                    scored[p] = totals[p] + self._corrections.get((key, p), 0)
            worst = max(scored.values(), default=0)
            for p in game.ids:
                if p not in self._removed and p not in scored:
                    scored[p] = max(worst, 0)
                    forfeits.add(p)
            round_scores.update(scored)
        for p, score in round_scores.items():
            self._scores[p] += score
        last = r >= self.options.rounds
        tables = len(self._seating)
        down: dict[int, int] = {}
        up: dict[int, int] = {}
        for k, ids in enumerate(self._seating):
            here = [p for p in ids if p not in self._removed]
            parts = [f"{self._names[p]} {round_scores[p]}" for p in here]
            head = stage_text(f"Round {r} table {k + 1}")

            def make(shown: str, head: str = head) -> str:
                return _("{stage}: {players}", stage=head, players=shown)

            if last or tables == 1 or len(here) < 2:
                steps += announce_lines(make, parts)
                continue
            low, why_low = self._pick(here, round_scores, forfeits, highest=False)
            high, why_high = self._pick(
                [p for p in here if p != low], round_scores, forfeits, highest=True
            )
            down[low] = (k - 1) % tables
            up[high] = (k + 1) % tables
            steps += announce_lines(make, parts)
            steps.append(
                Announce(
                    _(
                        "Table {table}: {low} ({low_why}) down to table {down}, {high} "
                        "({high_why}) up to table {up}.",
                        table=k + 1,
                        low=self._names[low],
                        low_why=why_low,
                        down=down[low] + 1,
                        high=self._names[high],
                        high_why=why_high,
                        up=up[high] + 1,
                    )
                )
            )
        for key in self._round_keys:
            self._games[key].closed = True
        if last:
            return [*steps, *self._finish(_("after the last round"))]
        moving = {**down, **up}
        seating: list[list[int]] = [
            [p for p in ids if p not in self._removed and p not in moving] for ids in self._seating
        ]
        for ids in self._seating:
            for p in ids:
                if p in moving:
                    seating[moving[p]].append(p)
        self._seating = seating
        steps += self._rebalance()
        if sum(len(ids) for ids in self._seating) < 2:
            return [*steps, *self._finish(_("too few players are left"))]
        return steps + self._begin_round()

    def remove(self, name: str) -> list[Step]:
        i = self._take_out(name)
        for key in self._round_keys:
            game = self._games[key]
            if i in game.ids and not game.closed and all(p in self._removed for p in game.ids):
                game.closed = True
                return [
                    Announce(
                        _(
                            "{stage}: closed, nobody is left at it.",
                            stage=stage_text(self._stage(game)),
                        )
                    )
                ]
        return []

    def substitute(self, old: str, new: str) -> list[Step]:
        self._rename(old, new)
        return []

    def correct(self, name: str, key: str, delta: int) -> list[Step]:
        i, game = self._corrected(self._games, name, key)
        if key in self._round_keys and not self._done:
            self._corrections[(key, i)] = self._corrections.get((key, i), 0) + delta
            if game.totals is None or i not in game.totals:
                return []  # added to the round total reported
            shown = game.totals[i] + self._corrections[(key, i)]
            return [
                Announce(
                    _(
                        "{key}: {name} {delta} points, round total {total}.",
                        key=key,
                        name=self._names[i],
                        delta=f"{delta:+d}",
                        total=shown,
                    )
                )
            ]
        self._scores[i] += delta
        return [
            Announce(
                _(
                    "{key}: {name} {delta} points, tournament {total}.",
                    key=key,
                    name=self._names[i],
                    delta=f"{delta:+d}",
                    total=self._scores[i],
                )
            )
        ]

    # --- reading ------------------------------------------------------------------------------

    def pending(self) -> list[Game]:
        if self._done:
            return []
        return [self._game(self._games[k]) for k in self._round_keys if not self._games[k].closed]

    def standings(self) -> list[Standing]:
        table_of = {p: k + 1 for k, ids in enumerate(self._seating) for p in ids}
        keyed = sorted(
            range(len(self._names)),
            key=lambda p: (p in self._removed, self._scores.get(p, 0), p),
        )
        rows: list[tuple[tuple[bool, int], str, int, str]] = []
        for p in keyed:
            if p in self._removed:
                note = "removed"
            elif self._done:
                note = ""
            else:
                note = f"table {table_of[p]}" if p in table_of else ""
            score = self._scores.get(p, 0)
            rows.append(((p in self._removed, score), self._names[p], score, note))
        return ranked(rows)

    @property
    def seating(self) -> list[list[str]]:
        """The current round's tables, by name (table 1 first)."""
        return [[self._names[p] for p in ids] for ids in self._seating]

    # --- rounds -------------------------------------------------------------------------------

    def _begin_round(self) -> list[Step]:
        self._round += 1
        r = self._round
        o = self.options
        steps: list[Step] = [RoundClock(r, o.round_seconds, o.warning_seconds)]
        self._round_keys = []
        for k, ids in enumerate(self._seating, 1):
            game = _Table(f"r{r}-t{k}", r, k, list(ids))
            self._games[game.key] = game
            self._round_keys.append(game.key)
            stage = stage_text(self._stage(game))
            steps += announce_lines(
                lambda names, stage=stage: _("{stage}: {players}", stage=stage, players=names),
                [self._names[p] for p in ids],
            )
            steps.append(Seat(self._game(game)))
        return steps

    def _stage(self, game: _Table) -> str:
        return f"Round {game.round} table {game.table}"

    def _game(self, game: _Table) -> Game:
        size = len(game.ids)
        options: tuple[tuple[str, str], ...] = ()
        if size < PRESET_MIN:
            options = (("min_players", str(max(size, 2))),)
        elif size > PRESET_MAX:
            options = (("max_players", str(size)),)
        return Game(
            key=game.key,
            table=game.table,
            stage=self._stage(game),
            players=tuple(self._names[p] for p in game.ids),
            rules=RULES,
            options=options,
            seconds=self.options.round_seconds,
            warning=self.options.warning_seconds,
            label="" if game.round == 1 else self._stage(game),
            round=game.round,
        )

    def _pick(
        self, ids: list[int], scores: dict[int, int], forfeits: set[int], *, highest: bool
    ) -> tuple[int, str]:
        """The table's lowest (or highest) round scorer, and why (``lowest``, ``highest, 2 tied
        on 30, drawn by lot``: one message each, so each language words it whole)."""
        sign = -1 if highest else 1

        def rank(p: int) -> tuple[int, int]:
            return (sign * (p in forfeits), sign * scores[p])

        best = min(rank(p) for p in ids)
        tied = [p for p in ids if rank(p) == best]
        if len(tied) == 1:
            if tied[0] in forfeits:
                return tied[0], _("highest score, forfeited") if highest else _(
                    "lowest score, forfeited"
                )
            return tied[0], _("highest score") if highest else _("lowest score")
        n, score = len(tied), scores[tied[0]]
        total = min(sign * self._scores[p] for p in tied)
        by_total = [p for p in tied if sign * self._scores[p] == total]
        if len(by_total) == 1:
            at = self._scores[by_total[0]]
            if highest:
                why = _(
                    "highest score, {n} tied on {score}, higher tournament total {total}",
                    n=n,
                    score=score,
                    total=at,
                )
            else:
                why = _(
                    "lowest score, {n} tied on {score}, lower tournament total {total}",
                    n=n,
                    score=score,
                    total=at,
                )
            return by_total[0], why
        chosen = self.rng.choice(by_total)
        if highest:
            return chosen, _("highest score, {n} tied on {score}, drawn by lot", n=n, score=score)
        return chosen, _("lowest score, {n} tied on {score}, drawn by lot", n=n, score=score)

    def _rebalance(self) -> list[Step]:
        steps: list[Step] = []
        tables = self._seating
        left = sum(len(ids) for ids in tables)
        floor = min(FLOOR, left)
        while any(len(ids) < floor for ids in tables):
            if left < FLOOR * len(tables) and len(tables) > 1:
                smallest = min(len(ids) for ids in tables)
                k = max(n for n, ids in enumerate(tables) if len(ids) == smallest)
                closing = tables.pop(k)
                for p in closing:
                    size = min(len(ids) for ids in tables)
                    j = next(n for n, ids in enumerate(tables) if len(ids) == size)
                    tables[j].append(p)
                names = ", ".join(self._names[p] for p in closing)
                if names:
                    line = _(
                        "Table {table} closes (too few players); {names} join others.",
                        table=k + 1,
                        names=names,
                    )
                else:
                    line = _("Table {table} closes (too few players).", table=k + 1)
                steps.append(Announce(line))
                continue
            short = next(n for n, ids in enumerate(tables) if len(ids) < floor)
            biggest = max(len(ids) for ids in tables)
            k = next(n for n, ids in enumerate(tables) if len(ids) == biggest)
            p = self.rng.choice(tables[k])
            tables[k].remove(p)
            tables[short].append(p)
            steps.append(
                Announce(
                    _(
                        "Table {table} is short: {name} (drawn) moves from table {source}, a "
                        "biggest table.",
                        table=short + 1,
                        name=self._names[p],
                        source=k + 1,
                    )
                )
            )
        return steps

    def _finish(self, why: str) -> list[Step]:
        self._done = True
        standings = self.standings()
        top = [s.name for s in standings if s.place == 1]
        return [
            Announce(
                ngettext(
                    "Rotation over ({why}): {names} wins on {score}.",
                    "Rotation over ({why}): {names} win on {score}.",
                    len(top),
                    why=why,
                    names=", ".join(top),
                    score=standings[0].score,
                )
            ),
            Done(tuple(standings)),
        ]
