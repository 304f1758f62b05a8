"""The Overclockers UK tournament (seed 000) as pure logic: tables to 251, then a one-hand final.

**Main ruleset** (more than ``small`` entrants): the entrants are shuffled and split into
tables (:func:`table_sizes`). Each table plays the ``ocuk-tournament`` preset (winner collects,
first to ``target``; the engine's first-hand rule may send two players through). The table's
``Result.winners`` go to the **Final**: one hand in which everyone keeps their own points; whoever
went out wins, the rest are placed by points (lower is better). A tie on any place is decided by
a **play-off** hand among just the tied players, ranked by the same rule and repeated while they
stay tied; play-offs are played one at a time, best place first.

**Alternative ruleset** (3 to ``small`` entrants): one table; each game is one hand, each player
keeps their own points and the format keeps the running totals. Everyone whose total reaches
``target`` is eliminated; while more than 3 are left another hand is played; at exactly 3 they
play the Final as above. When one hand's eliminations would leave fewer than 3, the 3 lowest
totals among those who finished that hand go through; a tie at the cut is played off (a one-hand
play-off, lowest points take the remaining places, repeated while the cut is tied).

Choices where the seed is silent (it is a sheet for human admins):

* Seating: one ``rng.shuffle`` of the entrants at the start (both rulesets; the alternative
  ruleset's table keeps that seat order), tables are consecutive slices, bigger tables first.
* More than 10 qualifiers (the engine seats at most 10 at a table; it takes several tables whose
  first hand sent two through) play another round of tables among themselves ("Round 2 table
  1", keys ``r2t1``) before the final.
* ``Result.gone``: whoever left a game forfeits it - a table winner who left does not qualify,
  a finalist or play-off player who left is placed below everyone who finished that game (the
  leavers share that place, with no play-off), an alternative-ruleset player who left a hand is
  out (eliminated at that hand, below everyone who finished it). A removed player is treated as
  gone in any result that still lists them.
* :meth:`Ocuk.remove`: the player is out for good and placed last (later removals above
  earlier ones). When it leaves a pending game with fewer than two players still in it, the
  format decides that game at once (the one left wins it: a table winner, a finalist, the
  first of a play-off; nobody left: nobody wins) and a result later reported for it is ignored.
* A final with one finalist is not played: they are champion. With none, there is no champion
  and the standings are by table totals / eliminations.
* Standings scores: finalists show their final-hand points once the final is played (their
  table total or running total before); others their last table total (main) or their running
  total (alternative). Ties share a place (1, 1, 3).
* :meth:`Ocuk.correct` on a table key changes the table total shown; on a hand key the running
  total later eliminations use; on a final or play-off key the points shown, never the places
  already decided. Decisions already made are never revisited.
* Play-off hand points never count in running totals.
* Non-finalists: those out in a later round of tables rank above those out earlier; then by
  table total (higher is better); a table's leavers below those who finished it.
* :meth:`Ocuk.pending` lists each game's players without those removed since it was seated.
* Options: ``max_table`` >= 2 x ``min_table`` - 1 (so every count splits into tables of
  ``min_table`` to ``max_table``), at most 10 a table (the engine's limit), ``small`` <= 10;
  a table of fewer than 3 (only with ``min_table=2``) gets ``min_players 2``.
* Names are matched case-insensitively in :meth:`remove`, :meth:`substitute` and
  :meth:`correct`; a substitute's results may come back under the old or the new name.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from unobot.i18n import domain
from unobot.tournament.model import (
    TABLE_LIMIT,
    Announce,
    Done,
    Game,
    Result,
    Roster,
    Seat,
    Standing,
    Step,
    TournamentError,
    announce_lines,
    corrected,
    ranked,
)
from unobot.tournament.words import ordinal_text, stage_text

_, ngettext = domain("tournament")

__all__ = ["Ocuk", "table_sizes"]

RULES = "ocuk-tournament"
SEED_TARGET = 251
"""The preset's target; other targets are passed to the tables as ``target_score``."""
ONE_HAND = (("target_score", "0"), ("scoring", "own-points"), ("extra_hand_if_first", "off"))
FINAL_OPTIONS = (*ONE_HAND, ("min_players", "2"))


def table_sizes(
    players: int, max_table: int = 6, min_table: int = 3, min_tables: int = 3
) -> list[int]:
    """How many sit at each table: t = max(ceil(n / max_table), min(min_tables, n // min_table))
    tables, sizes differing by at most one, bigger tables first (7 -> [4, 3], 9 -> [3, 3, 3],
    20 -> [5, 5, 5, 5])."""
    tables = max(math.ceil(players / max_table), min(min_tables, players // min_table), 1)
    base, extra = divmod(players, tables)
    return [base + 1 if k < extra else base for k in range(tables)]


def ordinal(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


@dataclass(slots=True, eq=False)
class _Group:
    """Players sharing a place. ``settled``: a tie that is not played off (they forfeited)."""

    ids: list[int]
    settled: bool = False

    @property
    def open(self) -> bool:
        return len(self.ids) > 1 and not self.settled


@dataclass(slots=True)
class _Pending:
    key: str
    table: int
    stage: str
    ids: list[int]
    options: tuple[tuple[str, str], ...]
    kind: str
    """"table", "hand", "cut" (alternative ruleset cut play-off), "final", "playoff"."""
    group: _Group | None = None
    tiebreak: tuple[int, ...] = ()
    round: int = 1
    """The tournament round (tables: theirs; the final and its play-offs: the one after the
    last round of tables; the alternative ruleset's hands and cut play-offs: 1)."""


@dataclass(slots=True)
class _Out:
    """How a player went out: main ``stage`` = round, alternative ``stage`` = hand number."""

    stage: int
    left: bool = False
    tiebreak: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class OcukOptions:
    max_table: int = 6
    min_table: int = 3
    min_tables: int = 3
    small: int = 6
    """This many entrants or fewer play the alternative ruleset."""
    target: int = SEED_TARGET

    def check(self) -> None:
        if not 2 <= self.min_table <= self.max_table <= TABLE_LIMIT:
            raise TournamentError(
                _("table sizes need 2 <= min_table <= max_table <= {most}", most=TABLE_LIMIT)
            )
        if self.max_table < 2 * self.min_table - 1:
            raise TournamentError(
                _("max_table must be at least 2 x min_table - 1 (so any count splits into tables)")
            )
        if not 1 <= self.min_tables <= 100:
            raise TournamentError(_("min_tables is 1 to 100"))
        if not 0 <= self.small <= TABLE_LIMIT:
            raise TournamentError(
                _("small is 0 to {most} (one table holds the players)", most=TABLE_LIMIT)
            )
        if not 1 <= self.target <= 99999:
            raise TournamentError(_("target is 1 to 99999"))


class Ocuk(Roster[OcukOptions]):
    """The ``ocuk`` format (see the module docstring for the rules and the choices made)."""

    name: ClassVar[str] = "ocuk"
    Options: ClassVar[type[OcukOptions]] = OcukOptions

    def __init__(self, options: OcukOptions, rng: random.Random, scale: float = 1.0) -> None:
        super().__init__(options, rng, scale)
        self._small = False
        self._pending: dict[str, _Pending] = {}
        self._settled: set[str] = set()
        self._points: dict[str, dict[int, int]] = {}
        self._kinds: dict[str, str] = {}
        self._out: dict[int, _Out] = {}
        self._playoffs = 0
        # main ruleset
        self._round = 0
        self._table_of: dict[int, tuple[int, int]] = {}
        self._last_table: dict[int, str] = {}
        self._qualified: list[int] = []
        # alternative ruleset
        self._hand = 0
        self._hands: list[str] = []
        self._survivors: list[int] = []
        self._cut: list[int] | None = None
        self._cut_hand = 0
        # the final
        self._finalists: list[int] | None = None
        self._order: list[_Group] | None = None

    # --- the Format protocol -------------------------------------------------------------------

    def start(self, entrants: Sequence[str], reserves: Sequence[str] = ()) -> list[Step]:
        """Seat the entrants (``reserves`` are not used: no format place is ever empty)."""
        self._check_new()
        names = [str(n).strip() for n in entrants]
        if any(not n or " " in n for n in names):
            raise TournamentError(_("entrant names must be single words"))
        for i, n in enumerate(names):
            if n.lower() in self._lookup:
                raise TournamentError(_("{name} is entered twice", name=n))
            self._lookup[n.lower()] = i
        if len(names) < 3:
            self._lookup.clear()
            raise TournamentError(_("the ocuk format needs at least 3 players"))
        self._names = names
        self._started = True
        order = list(range(len(names)))
        self.rng.shuffle(order)
        n, target = len(names), self.options.target
        if n <= self.options.small:
            self._small = True
            self._survivors = order
            if n == 3:
                return [
                    Announce(
                        _("{n} players: straight to the final, one hand, lowest points win.", n=n)
                    ),
                    *self._final(order),
                ]
            return [
                Announce(
                    _(
                        "{n} players at one table, one hand at a time, each keeps their own "
                        "points: {target} or more is out until 3 are left for the final.",
                        n=n,
                        target=target,
                    )
                ),
                *self._seat_hand(),
            ]
        self._round = 1
        sizes = table_sizes(
            n, self.options.max_table, self.options.min_table, self.options.min_tables
        )
        return [
            Announce(
                _(
                    "{n} players at {tables} tables: first to {target} at each table goes "
                    "to the final.",
                    n=n,
                    tables=len(sizes),
                    target=target,
                )
            ),
            *self._seat_tables(order),
        ]

    def finished(self, result: Result) -> list[Step]:
        if result.key in self._settled:
            return []  # decided when a removal left fewer than two in it
        pending = self._pending.get(result.key)
        if pending is None:
            raise TournamentError(_("no game {key} is waiting for a result", key=result.key[:20]))
        totals, winners, went_out = self._read(result, pending)
        del self._pending[result.key]
        return self._decide(pending, totals, winners, went_out)

    def round_over(self) -> list[Step]:
        return []

    def remove(self, name: str) -> list[Step]:
        """``name`` is out for good: placed last (below those removed before them). A pending
        game left with fewer than two players is decided at once (see the module docstring)."""
        i = self._take_out(name)
        for ids in (self._qualified, self._survivors, self._cut or [], self._finalists or []):
            if i in ids:
                ids.remove(i)
        if self._order is not None:
            for group in self._order:
                if i in group.ids:
                    group.ids.remove(i)
            self._order = [g for g in self._order if g.ids]
        steps: list[Step] = [Announce(_("{name} is out of the tournament.", name=self._names[i]))]
        for pending in list(self._pending.values()):
            if self._done or pending.key not in self._pending or i not in pending.ids:
                continue
            if pending.group is not None and i in pending.group.ids:
                pending.group.ids.remove(i)
            left = self._active(pending.ids)
            if len(left) < 2:
                del self._pending[pending.key]
                self._settled.add(pending.key)
                steps += self._decide(
                    pending, dict.fromkeys(left, 0), left, left[0] if left else None
                )
        return steps

    def substitute(self, old: str, new: str) -> list[Step]:
        """``new`` takes ``old``'s seat, totals, qualifications and future games."""
        was = self._rename(old, new)
        return [Announce(_("{new} takes {old}'s place.", new=new.strip(), old=was))]

    def correct(self, name: str, key: str, delta: int) -> list[Step]:
        i = self._find(name)
        if key not in self._points:
            if key in self._pending:
                raise TournamentError(_("{key} has no result yet", key=key[:20]))
            raise TournamentError(_("no game {key}", key=key[:20]))
        points = self._points[key]
        if i not in points:
            raise TournamentError(
                _("{name} has no score in {key}", name=self._names[i], key=key[:20])
            )
        points[i] += delta
        shown = self._total(i) if self._kinds[key] == "hand" else points[i]
        return corrected(key, self._names[i], delta, shown)

    def pending(self) -> list[Game]:
        return [self._game(p) for p in self._pending.values()]

    def standings(self) -> list[Standing]:
        rows: list[tuple[tuple, int, int, str]] = []
        placed: set[int] = set()

        def add(key: tuple, i: int, score: int, note: str) -> None:
            if i not in placed:
                placed.add(i)
                rows.append((key, i, score, note))

        for k, i in enumerate(reversed(self._removed)):
            add((3, k), i, self._score(i), "removed")
        final = self._points.get("final", {})
        if self._order is not None:
            champion = self._done and bool(self._order) and len(self._order[0].ids) == 1
            for g, group in enumerate(self._order):
                for i in group.ids:
                    note = "champion" if champion and g == 0 else "finalist"
                    add((0, g), i, final.get(i, self._score(i)), note)
        for i in [*(self._finalists or []), *self._qualified, *(self._cut or [])]:
            note = "finalist" if self._finalists is not None else "through"
            add((0, 0), i, self._score(i), note)
        for pending in self._pending.values():
            for i in self._active(pending.ids):
                if self._small:
                    add((1, self._total(i)), i, self._total(i), "still in")
                else:
                    add((1, 0), i, self._score(i), self._table_note(i))
        for i in self._survivors:
            add((1, self._total(i)), i, self._total(i), "still in")
        for i, out in self._out.items():
            score = self._score(i)
            if self._small:
                note = f"left in hand {out.stage}" if out.left else f"eliminated at {score}"
                add((2, -out.stage, out.left, score, out.tiebreak), i, score, note)
            else:
                note = self._table_note(i) + (", left" if out.left else "")
                add((2, -out.stage, out.left, -score, ()), i, score, note)
        for i in range(len(self._names)):
            add((1, 0), i, self._score(i), "")
        rows.sort(key=lambda row: row[0])
        return ranked([(key, self._names[i], score, note) for key, i, score, note in rows])

    # --- the main ruleset ----------------------------------------------------------------------

    def _seat_tables(self, ids: list[int]) -> list[Step]:
        o = self.options
        steps: list[Step] = []
        start = 0
        for k, size in enumerate(table_sizes(len(ids), o.max_table, o.min_table, o.min_tables), 1):
            players = ids[start : start + size]
            start += size
            first = self._round == 1
            key = f"t{k}" if first else f"r{self._round}t{k}"
            stage = f"Table {k}" if first else f"Round {self._round} table {k}"
            options: list[tuple[str, str]] = []
            if o.target != SEED_TARGET:
                options.append(("target_score", str(o.target)))
            if size < 3:
                options.append(("min_players", "2"))
            for i in players:
                self._table_of[i] = (self._round, k)
                self._last_table[i] = key
            steps += announce_lines(
                lambda names, stage=stage: _(
                    "{stage}: {players}", stage=stage_text(stage), players=names
                ),
                [self._names[i] for i in players],
            )
            steps.append(
                self._seat(
                    _Pending(key, k, stage, players, tuple(options), "table", round=self._round)
                )
            )
        return steps

    def _table_done(
        self, pending: _Pending, totals: dict[int, int], winners: list[int]
    ) -> list[Step]:
        through = [i for i in winners if i in totals]
        for i in self._active(pending.ids):
            if i not in through:
                self._out[i] = _Out(self._round, left=i not in totals)
        self._qualified += through
        shown = [f"{self._names[i]} ({totals[i]})" for i in through]
        if len(shown) == 1:
            steps: list[Step] = [
                Announce(
                    _(
                        "{stage}: {name} goes through.",
                        stage=stage_text(pending.stage),
                        name=shown[0],
                    )
                )
            ]
        elif shown:
            steps = [
                Announce(
                    _(
                        "{stage}: {names} and {last} go through.",
                        stage=stage_text(pending.stage),
                        names=", ".join(shown[:-1]),
                        last=shown[-1],
                    )
                )
            ]
        else:
            steps = [
                Announce(
                    _(
                        "{stage}: nobody goes through (no winner is still in).",
                        stage=stage_text(pending.stage),
                    )
                )
            ]
        if any(p.kind == "table" for p in self._pending.values()):
            return steps
        through, self._qualified = self._active(self._qualified), []
        if len(through) > TABLE_LIMIT:
            self._round += 1
            self.rng.shuffle(through)
            steps.append(
                Announce(
                    _(
                        "{n} through, too many for one final: round {round}.",
                        n=len(through),
                        round=self._round,
                    )
                )
            )
            return steps + self._seat_tables(through)
        return steps + self._final(through)

    def _table_note(self, i: int) -> str:
        round_, table = self._table_of.get(i, (1, 1))
        return f"table {table}" if round_ == 1 else f"round {round_} table {table}"

    # --- the alternative ruleset ---------------------------------------------------------------

    def _seat_hand(self) -> list[Step]:
        self._hand += 1
        players = list(self._survivors)
        options = ONE_HAND + ((("min_players", "2"),) if len(players) < 3 else ())
        key, stage = f"h{self._hand}", f"Hand {self._hand}"
        self._hands.append(key)
        return [self._seat(_Pending(key, 1, stage, players, options, "hand"))]

    def _hand_done(self, pending: _Pending, totals: dict[int, int]) -> list[Step]:
        hand, target = self._hand, self.options.target
        played = [i for i in pending.ids if i in totals]
        for i in self._active(pending.ids):
            if i not in totals:
                self._out[i] = _Out(hand, left=True)
        over = [i for i in played if self._total(i) >= target]
        under = [i for i in played if i not in over]
        if len(under) >= 3:
            for i in over:
                self._out[i] = _Out(hand)
            steps = self._eliminated(pending.stage, over)
            self._survivors = under
            if len(under) > 3:
                return steps + self._seat_hand()
            return steps + self._final(under)
        self._survivors = []
        ranked = sorted(played, key=self._total)
        if len(ranked) <= 3:
            return self._final(ranked)
        cut = self._total(ranked[2])
        ins = [i for i in ranked if self._total(i) < cut]
        tied = [i for i in ranked if self._total(i) == cut]
        outs = [i for i in ranked if self._total(i) > cut]
        for i in outs:
            self._out[i] = _Out(hand)
        steps = self._eliminated(pending.stage, outs)
        if len(ins) + len(tied) == 3:
            return steps + self._final(ins + tied)
        self._cut, self._cut_hand = ins, hand
        places = 3 - len(ins)
        steps += announce_lines(
            lambda names: ngettext(
                "Tied on {score} for {n} place(s) in the final, a play-off: {names}",
                "Tied on {score} for {n} place(s) in the final, a play-off: {names}",
                places,
                score=cut,
                names=names,
            ),
            [self._names[i] for i in tied],
        )
        return steps + self._seat_cut(_Group(tied), ())

    def _seat_cut(self, group: _Group, tiebreak: tuple[int, ...]) -> list[Step]:
        self._playoffs += 1
        key = f"po{self._playoffs}"
        pending = _Pending(
            key, 1, "Play-off for the final", list(group.ids), FINAL_OPTIONS, "cut", group, tiebreak
        )
        return [self._seat(pending)]

    def _cut_done(
        self, pending: _Pending, totals: dict[int, int], went_out: int | None
    ) -> list[Step]:
        assert pending.group is not None and self._cut is not None
        places = 3 - len(self._cut)
        again: tuple[_Group, tuple[int, ...]] | None = None
        for k, group in enumerate(self._groups(pending.group.ids, totals, went_out)):
            tiebreak = (*pending.tiebreak, k)
            if not group.settled and len(group.ids) <= places:
                self._cut += group.ids
                places -= len(group.ids)
            elif not group.settled and places > 0:
                again, places = (group, tiebreak), 0
            else:
                for i in group.ids:
                    self._out[i] = _Out(self._cut_hand, tiebreak=tiebreak)
        if again is not None:
            names = [self._names[i] for i in again[0].ids]
            return [
                *announce_lines(
                    lambda shown: _("Still tied, another play-off: {names}", names=shown), names
                ),
                *self._seat_cut(*again),
            ]
        through, self._cut = self._cut, None
        return self._final(through)

    def _eliminated(self, stage: str, ids: list[int]) -> list[Step]:
        if not ids:
            return []
        return announce_lines(
            lambda names: _("{stage}: out {names}", stage=stage_text(stage), names=names),
            [f"{self._names[i]} ({self._total(i)})" for i in ids],
        )

    def _total(self, i: int) -> int:
        return sum(self._points.get(key, {}).get(i, 0) for key in self._hands)

    # --- the final and play-offs ---------------------------------------------------------------

    def _final(self, ids: list[int]) -> list[Step]:
        finalists = self._active(ids)
        self._finalists = finalists
        if len(finalists) <= 1:
            self._order = [_Group(finalists)] if finalists else []
            return self._finish()
        steps = announce_lines(
            lambda names: _("{stage}: {players}", stage=stage_text("Final"), players=names),
            [self._names[i] for i in finalists],
        )
        steps.append(
            self._seat(
                _Pending(
                    "final",
                    1,
                    "Final",
                    list(finalists),
                    FINAL_OPTIONS,
                    "final",
                    round=max(self._round, 1) + 1,
                )
            )
        )
        return steps

    def _final_done(
        self, pending: _Pending, totals: dict[int, int], went_out: int | None
    ) -> list[Step]:
        self._order = self._groups(pending.ids, totals, went_out)
        return self._next_playoff()

    def _playoff_done(
        self, pending: _Pending, totals: dict[int, int], went_out: int | None
    ) -> list[Step]:
        assert self._order is not None and pending.group is not None
        at = next((k for k, g in enumerate(self._order) if g is pending.group), None)
        if at is not None:  # (a removal may have emptied the group)
            self._order[at : at + 1] = self._groups(pending.group.ids, totals, went_out)
        return self._next_playoff()

    def _next_playoff(self) -> list[Step]:
        assert self._order is not None
        place = 1
        for group in self._order:
            if group.open:
                self._playoffs += 1
                key, stage = f"po{self._playoffs}", f"Play-off for {ordinal(place)}"
                names = [self._names[i] for i in group.ids]
                pending = _Pending(
                    key,
                    1,
                    stage,
                    list(group.ids),
                    FINAL_OPTIONS,
                    "playoff",
                    group,
                    round=max(self._round, 1) + 1,
                )
                return [
                    *announce_lines(
                        lambda shown, stage=stage: _(
                            "{stage}, tied: {names}", stage=stage_text(stage), names=shown
                        ),
                        names,
                    ),
                    self._seat(pending),
                ]
            place += len(group.ids)
        return self._finish()

    def _groups(self, ids: list[int], totals: dict[int, int], went_out: int | None) -> list[_Group]:
        """Whoever went out first, then by points (lower is better); equal points share a
        group; the players of ``ids`` who did not finish form a last, settled group."""

        def rank(i: int) -> tuple[bool, int]:
            return (i != went_out, totals[i])

        groups: list[_Group] = []
        last: tuple[bool, int] | None = None
        for i in sorted((i for i in ids if i in totals), key=rank):
            if groups and rank(i) == last:
                groups[-1].ids.append(i)
            else:
                groups.append(_Group([i]))
                last = rank(i)
        left = [i for i in self._active(ids) if i not in totals]
        if left:
            groups.append(_Group(left, settled=True))
        return groups

    def _finish(self) -> list[Step]:
        self._done = True
        steps: list[Step] = []
        order = self._order or []
        if order and len(order[0].ids) == 1:
            steps.append(Announce(_("Champion: {name}!", name=self._names[order[0].ids[0]])))
        final = self._points.get("final", {})
        if len(order) > 1 or (order and len(order[0].ids) > 1):
            # Each placing is a message of its own ("2nd ann (12)": the ordinal is said the
            # language's way); announce_lines joins them into a list spoken again item by item.
            items: list[str] = []
            place = 1
            for group in order:
                for i in group.ids:
                    if i in final:
                        item = _(
                            "{place} {name} ({points})",
                            place=ordinal_text(place),
                            name=self._names[i],
                            points=final[i],
                        )
                    else:
                        item = _("{place} {name}", place=ordinal_text(place), name=self._names[i])
                    items.append(item)
                place += len(group.ids)
            steps += announce_lines(
                lambda shown: _("Final placings: {placings}", placings=shown), items
            )
        elif not order:
            steps.append(Announce(_("No one is left for the final: no champion.")))
        return [*steps, Done(tuple(self.standings()))]

    # --- helpers -------------------------------------------------------------------------------

    def _decide(
        self, pending: _Pending, totals: dict[int, int], winners: list[int], went_out: int | None
    ) -> list[Step]:
        self._points[pending.key] = dict(totals)
        self._kinds[pending.key] = pending.kind
        if pending.kind == "table":
            return self._table_done(pending, totals, winners)
        if pending.kind == "hand":
            return self._hand_done(pending, totals)
        if pending.kind == "cut":
            return self._cut_done(pending, totals, went_out)
        if pending.kind == "final":
            return self._final_done(pending, totals, went_out)
        return self._playoff_done(pending, totals, went_out)

    def _read(
        self, result: Result, pending: _Pending
    ) -> tuple[dict[int, int], list[int], int | None]:
        """The result's totals, winners and who went out, by player id, for players still in
        (a removed player still listed counts as gone)."""
        totals: dict[int, int] = {}
        for who, total in result.totals:
            i = self._lookup.get(who.lower())
            if i is None or i not in pending.ids:
                raise TournamentError(
                    _("{name} did not play in {key}", name=who[:30], key=result.key[:20])
                )
            if i not in self._removed and who not in result.gone:
                totals[i] = int(total)
        winners = [i for w in result.winners if (i := self._lookup.get(w.lower(), -1)) in totals]
        went_out = None
        if result.hands and result.hands[-1].winner is not None:
            i = self._lookup.get(result.hands[-1].winner.lower(), -1)
            went_out = i if i in totals else None
        return totals, winners, went_out

    def _seat(self, pending: _Pending) -> Seat:
        self._pending[pending.key] = pending
        return Seat(self._game(pending))

    def _game(self, p: _Pending) -> Game:
        players = tuple(self._names[i] for i in self._active(p.ids))
        # Heats: the first round of tables, or the alternative ruleset's hands at its one
        # table (the seeds' T1,G1, T1,G2 …); the rest are named on the sheet by their stage.
        heat = p.kind == "hand" or (p.kind == "table" and p.round == 1)
        label = "" if heat else p.stage
        return Game(p.key, p.table, p.stage, players, RULES, p.options, label=label, round=p.round)

    def _active(self, ids: list[int]) -> list[int]:
        return [i for i in ids if i not in self._removed]

    def _score(self, i: int) -> int:
        if self._small:
            return self._total(i)
        key = self._last_table.get(i)
        return self._points.get(key, {}).get(i, 0) if key else 0
