"""Whole tournaments played with made-up games, written as the director writes them.

For the stats site's tests and its benchmark (``python -m unobot.bench web``): a tournament
of any format and size in a :class:`~unobot.tournament.store.TournamentLog` in seconds, with
no tables, IRC or clocks. The entries go through :meth:`Tournament.apply` (so they are ones
the format accepts) in the director's order (``new``, ``join``…, ``start``, ``round``/``seat``
for each step, ``result`` + sheet lines + ``standings`` per game, ``round_over`` when a
rotation's round is complete, final ``standings`` and ``done``); each game's hands are drawn
with the given seed: own-points games (knockout, rotation, one-hand games) as a few hands,
the last one cut short by the clock when the game is timed; winner-collects tables (ocuk) to
the target.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Any

from unobot.tournament.model import Done, Game, Hand, Result, RoundClock, Seat, Step
from unobot.tournament.state import Entry, Tournament, result_to_json
from unobot.tournament.store import Entry as StoredEntry
from unobot.tournament.store import TournamentLog

__all__ = ["play_more", "simulate"]

STEP = 60.0
"""Seconds of wall clock between two entries."""


class _Writer:
    def __init__(self, log: TournamentLog, tournament: Tournament, at: float) -> None:
        self.log, self.t, self.at = log, tournament, at

    def apply(self, kind: str, **data: Any) -> list[Step]:
        self.at += STEP
        entry = Entry(kind, data, self.at)
        steps = self.t.apply(entry)
        self.write(entry)
        return steps

    def write(self, entry: Entry) -> None:
        seq = len(self.t.log) - 1
        self.log.append(self.t.name, StoredEntry(seq, entry.kind, entry.data, entry.at))
        if entry.kind == "result":
            count = sum(len(hand["players"]) for hand in entry.data["hands"])
            # The sheet's own rows, as the director writes them (labels, clock marks).
            rows = self.t.sheet.lines[len(self.t.sheet.lines) - count :]
            if rows:
                self.log.add_sheet(self.t.name, rows)

    def act(self, steps: list[Step]) -> None:
        for step in steps:
            if isinstance(step, RoundClock):
                self.apply("round", number=step.number, seconds=step.seconds, warning=step.warning)
            elif isinstance(step, Seat):
                game = step.game
                self.apply(
                    "seat",
                    key=game.key,
                    table=game.table,
                    channel=self.t.channel_of(game),
                    stage=game.stage,
                    players=list(game.players),
                )
            elif isinstance(step, Done):
                self.standings(final=True)
                self.apply("done")

    def standings(self, *, final: bool) -> None:
        rows = [[s.place, s.name, s.score, s.note] for s in self.t.standings()]
        self.apply("standings", rows=rows, final=final)


def _played(game: Game, rng: Random, target: int) -> Result:
    """A made-up result for ``game``: hands of random card points."""
    players = game.players
    one_hand = ("target_score", "0") in game.options
    collect = game.rules == "ocuk-tournament" and not one_hand
    hands: list[Hand] = []
    totals = dict.fromkeys(players, 0)
    count = 1 if one_hand else rng.randint(2, 4)
    for n in range(200):
        winner: str | None = rng.choice(players)
        if not collect and not one_hand and game.seconds and n == count - 1:
            winner = None  # the clock stopped the last hand
        points = tuple(0 if p == winner else rng.randint(1, 60) for p in players)
        # Winner collects: the one who went out scores everyone's points, the others 0.
        scores = tuple(sum(points) if p == winner else 0 for p in players) if collect else points
        hands.append(Hand(players, points, scores, winner, clock=winner is None))
        for p, s in zip(players, scores, strict=True):
            totals[p] += s
        if collect and max(totals.values()) >= target:
            break
        if not collect and n + 1 >= count:
            break
    best = max(totals.values()) if collect else min(totals.values())
    winners = tuple(p for p in players if totals[p] == best)
    return Result(game.key, tuple(totals.items()), winners, tuple(hands))


def simulate(
    log: TournamentLog,
    name: str,
    format_name: str,
    players: int,
    *,
    words: Sequence[str] = (),
    channel: str = "#cup",
    seed: int = 1,
    at: float = 1_800_000_000.0,
    reserves: int = 0,
    extras: bool = False,
    results: int | None = None,
) -> Tournament:
    """Play tournament ``name`` of ``format_name`` with ``players`` entrants (``p1``…) and
    ``reserves`` (``r1``…) into ``log``; returns its state. ``extras``: a correction after the
    first result, a penalty and (when someone is left to remove) a removal after the second.
    ``results``: stop after that many results (a tournament still running)."""
    rng = Random(seed)
    t, head = Tournament.new(name, format_name, channel, list(words), seed, at, "op")
    log.create(name, t.format_name, channel, at)
    w = _Writer(log, t, at)
    w.write(head)
    for k in range(1, players + 1):
        w.apply("join", name=f"p{k}", key=f"p{k}", level="", reserve=False)
    for k in range(1, reserves + 1):
        w.apply("join", name=f"r{k}", key=f"r{k}", level="", reserve=True)
    w.act(w.apply("start", by="op"))
    target = int(dict(o.split("=", 1) for o in words if "=" in o).get("target", 251))
    _play(w, rng, target, results, extras)
    return t


def play_more(log: TournamentLog, tournament: Tournament, results: int = 1, seed: int = 2) -> None:
    """Report ``results`` more made-up results of a tournament :func:`simulate` left running
    (as the bot goes on writing while a page watches)."""
    target = int(dict(o.split("=", 1) for o in tournament.words if "=" in o).get("target", 251))
    w = _Writer(log, tournament, tournament.log[-1].at)
    _play(w, Random(seed), target, results, False)


def _play(w: _Writer, rng: Random, target: int, results: int | None, extras: bool) -> None:
    t = w.t
    reported = 0
    while not t.over and (results is None or reported < results):
        pending = [g for g in t.pending() if g.key not in t.results]
        if not pending:
            if t.format.name == "rotation":
                w.act(w.apply("round_over"))
                continue
            break
        game = pending[0]
        w.act(w.apply("result", **result_to_json(_played(game, rng, target))))
        reported += 1
        if not t.over:
            w.standings(final=False)
        if extras and reported == 1:
            first = next(iter(t.results.values()))
            w.act(
                w.apply(
                    "correct",
                    name=first.totals[0][0],
                    key=first.key,
                    delta=-5,
                    by="op",
                    reason="miscounted",
                )
            )
            w.standings(final=False)
        if extras and reported == 2:
            playing = [g for g in t.pending() if g.key not in t.results]
            if playing:
                w.apply(
                    "penalty",
                    name=playing[0].players[0],
                    cards=2,
                    by="op",
                    channel=t.channel_of(playing[0]),
                )
            big = [g for g in playing if len(g.players) >= 3]
            if big:
                w.act(w.apply("remove", name=big[-1].players[-1], by="op", reason="left"))
