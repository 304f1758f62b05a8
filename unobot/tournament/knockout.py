"""The knockout tournament (seed 001) as pure logic: games of up to four, the lowest total goes
through, until one is left.

**Sign-up** (seed: "limited to 64 competitors to provide an optimum knockout draw"; "reserve
entries will be randomly chosen ... to fill the draw out to its optimum level"): entrants beyond
``max_entrants`` (in sign-up order) don't get in. The draw's *optimum* is the smallest power of
``game_size`` (at least ``game_size`` itself) that holds the entrants, capped at
``max_entrants``; reserves are drawn at random to fill the empty places up to it, as many as
there are.

**Rounds**: the players still in are shuffled and split into ``ceil(n / game_size)`` games
whose sizes differ by at most one (bigger games first), so an awkward number gives 3-player (or
2-player) games rather than empty seats. A "game" of one (only with ``game_size`` 2) is a bye:
that player goes through. Each game is a ``knockout``-preset match timed to ``game_seconds``
(seed: 60 minutes, incomplete hands count, lowest score wins and progresses). The round's only
game is the "Final"; its winner is champion.

Choices where the seed is silent (it is a sheet for human admins):

* Who goes through is the engine's decision (``Result.winners``: lowest own-points total),
  leaving out anyone removed or in ``Result.gone`` (they forfeit). If that leaves nobody but
  players who finished the game remain, the lowest total among them goes through. A game whose
  players all left or were removed sends nobody through.
* A tie for the lowest total is settled by a *sudden death* hand among just the tied players
  (key ``r1-g2-sd1``, same table, one untimed hand: ``time_limit_minutes 0`` under the preset's
  ``target_score 0``, so whoever goes out wins), repeated (``-sd2``, …) while they stay tied.
* A round in which nobody at all goes through ends the tournament without a champion; a round
  that leaves exactly one player (the others forfeited) makes that player champion.
* :meth:`Knockout.remove`: out for good, forfeits any game they are in and any place already
  won in the next round; placed last. A pending game left with fewer than two players still in
  it is decided at once (the one left goes through; nobody left: nobody does) and a result
  reported for it later is ignored.
* Standings: champion first; then everyone else by the round they reached (later is better;
  a player who won their game in a round still being played counts as in the next round),
  players still in above those knocked out in the same round, then by their total in that
  round's game (lower is better; corrections included; sudden-death hands never count), a
  player who forfeited that game below those who finished it. Equal keys share a place
  (1, 2, 2, 4). Removed players come last, ordered the same way among themselves.
* :meth:`Knockout.correct` changes the game total the standings use, never who went through
  (the engine's decision). It may come before the game's result (it is added to the total
  reported); a correction to a sudden-death key is accepted but does not change the standings
  (sudden-death points never count).
* :meth:`Knockout.substitute`: the new name takes the old one's place, totals and future games;
  a removed player can't be substituted (substitute *instead of* removing). Results may come
  back under the old or the new name. Names are matched case-insensitively.
* ``game_size`` above the preset's four seats passes ``max_players`` to the tables.
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
    Seat,
    Standing,
    Step,
    TournamentError,
    announce_lines,
    corrected,
    even_sizes,
    ranked,
    unique_names,
)
from unobot.tournament.words import stage_text

_, ngettext = domain("tournament")

__all__ = ["Knockout", "KnockoutOptions", "game_sizes", "optimum"]

RULES = "knockout"
PRESET_MAX = 4
"""The ``knockout`` preset's ``max_players``."""


@dataclass(frozen=True, slots=True)
class KnockoutOptions:
    max_entrants: int = 64
    """Seed 001: "limited to 64 competitors"."""
    game_size: int = 4
    """Seed 001: "each game will involve up to four competitors"."""
    game_seconds: float = 3600.0
    """Seed 001: "each game is to continue for 60 minutes"."""
    warning_seconds: float = 0.0
    """How long before a game's end the table warns; 0: the table's default."""

    def check(self) -> None:
        if not 2 <= self.game_size <= TABLE_LIMIT:
            raise TournamentError(_("game_size is 2 to {most}", most=TABLE_LIMIT))
        if not 2 <= self.max_entrants <= 4096:
            raise TournamentError(_("max_entrants is 2 to 4096"))
        if not 60 <= self.game_seconds <= 24 * 3600:
            raise TournamentError(_("game is 1m to 24h"))
        if not 0 <= self.warning_seconds < self.game_seconds:
            raise TournamentError(_("warning is 0 (the table's default) or shorter than a game"))


def game_sizes(players: int, game_size: int) -> list[int]:
    """Sizes of a round's games: ``ceil(n / game_size)`` games differing by at most one, bigger
    first (5 -> [3, 2], 7 -> [4, 3], 17 -> [4, 4, 3, 3, 3]; game_size 2: 3 -> [2, 1])."""
    return even_sizes(players, game_size)


def optimum(entrants: int, game_size: int, max_entrants: int) -> int:
    """The draw's optimum size: the smallest power of ``game_size`` (``game_size`` at least)
    holding ``entrants``, capped at ``max_entrants``."""
    size = game_size
    while size < entrants:
        size *= game_size
    return min(size, max_entrants)


@dataclass(slots=True)
class _Game:
    """A game asked for: a round's game (``sd`` 0) or one of its sudden deaths."""

    key: str
    round: int
    index: int
    stage: str
    ids: list[int]
    sd: int = 0
    main: str = ""
    """The round game's key (itself for ``sd`` 0)."""
    totals: dict[int, int] | None = None
    gone: set[int] = field(default_factory=set)
    decided: bool = False


@dataclass(slots=True)
class _Slot:
    """One place in a round's draw: a game (or a bye) and who came through it."""

    key: str
    through: int | None = None
    decided: bool = False


class Knockout(Roster[KnockoutOptions]):
    """The ``knockout`` format (see the module docstring for the rules and the choices made)."""

    name: ClassVar[str] = "knockout"
    Options: ClassVar[type[KnockoutOptions]] = KnockoutOptions

    def __init__(self, options: KnockoutOptions, rng: random.Random, scale: float = 1.0) -> None:
        super().__init__(options, rng, scale)
        self._round = 0
        self._slots: list[_Slot] = []
        self._games: dict[str, _Game] = {}
        self._pending: list[str] = []
        self._corrections: dict[tuple[str, int], int] = {}
        self._reached: dict[int, int] = {}
        """The last round each player was drawn in."""
        self._game_of: dict[int, str] = {}
        """Each player's game (main key) in the round they reached; absent after a bye."""
        self._alive: set[int] = set()
        self._through: set[int] = set()
        """Won their game in the current round (not yet drawn in the next)."""
        self._champion: int | None = None
        self._final_round = 0
        """The round that had a single game (the final), once drawn."""

    # --- inputs -------------------------------------------------------------------------------

    def start(self, entrants: Sequence[str], reserves: Sequence[str] = ()) -> list[Step]:
        self._check_new()
        entrants = unique_names(entrants)
        taken = {e.lower() for e in entrants}
        reserves = [r for r in unique_names(reserves) if r.lower() not in taken]
        if len(entrants) + len(reserves) < 2:
            raise TournamentError(_("a knockout needs at least 2 players"))
        limit = self.options.max_entrants
        players, over = list(entrants[:limit]), list(entrants[limit:])
        best = optimum(len(players), self.options.game_size, limit)
        chosen = self.rng.sample(reserves, min(len(reserves), max(0, best - len(players))))
        if len(players) + len(chosen) < 2:
            raise TournamentError(_("a knockout needs at least 2 players"))
        self._started = True
        steps: list[Step] = []
        if over:
            steps += announce_lines(
                lambda names: _(
                    "Over the limit of {limit}, not in the draw: {names}", limit=limit, names=names
                ),
                over,
            )
        if chosen:
            steps += announce_lines(
                lambda names: _(
                    "In as reserves (drawn to fill the draw to {best}): {names}",
                    best=best,
                    names=names,
                ),
                chosen,
            )
        self._enter(players + chosen)
        ids = list(range(len(self._names)))
        self._alive = set(ids)
        steps.append(
            Announce(
                _(
                    "Knockout: {n} players, games of up to {size}, {time} each; the lowest total"
                    " goes through.",
                    n=len(ids),
                    size=self.options.game_size,
                    time=self._said(self.options.game_seconds),
                )
            )
        )
        return steps + self._draw(ids)

    def finished(self, result: Result) -> list[Step]:
        game = self._reported(self._games, result.key)
        if game.decided:
            if game.totals is None:  # decided by a removal: the late result is kept, not used
                game.totals = self._totals(result, game.ids)
                return []
            raise TournamentError(_("{key} already has a result", key=result.key[:20]))
        game.totals = self._totals(result, game.ids)
        game.gone = self._ids(result.gone)
        winners = [self._lookup.get(n.lower()) for n in result.winners]
        return self._decide(game, [w for w in winners if w is not None])

    def round_over(self) -> list[Step]:
        return []

    def remove(self, name: str) -> list[Step]:
        i = self._take_out(name)
        self._alive.discard(i)
        steps: list[Step] = []
        if i in self._through:
            self._through.discard(i)
            for slot in self._slots:
                if slot.through == i:
                    slot.through = None
        for key in list(self._pending):
            game = self._games[key]
            if i in game.ids:
                left = [p for p in game.ids if p not in self._removed]
                if len(left) < 2:
                    self._pending.remove(key)
                    steps.append(
                        Announce(
                            _(
                                "{stage}: decided by {name}'s removal.",
                                stage=stage_text(game.stage),
                                name=self._names[i],
                            )
                        )
                    )
                    steps += self._settle(game, left[0] if left else None)
        return steps

    def substitute(self, old: str, new: str) -> list[Step]:
        self._rename(old, new)
        return []

    def correct(self, name: str, key: str, delta: int) -> list[Step]:
        i, game = self._corrected(self._games, name, key)
        self._corrections[(key, i)] = self._corrections.get((key, i), 0) + delta
        if game.totals is None or i not in game.totals:
            return []  # applied to the total when (if) one comes
        shown = game.totals[i] + self._corrections[(key, i)]
        return corrected(key, self._names[i], delta, shown)

    # --- reading ------------------------------------------------------------------------------

    def pending(self) -> list[Game]:
        return [self._game(self._games[key]) for key in self._pending]

    def standings(self) -> list[Standing]:
        keyed: list[tuple[tuple[int, ...], int, int, str]] = []
        for i in range(len(self._names)):
            score, forfeited = self._score(i)
            reached = self._reached.get(i, 0) + (1 if i in self._through else 0)
            if i == self._champion:
                key: tuple[int, ...] = (0,)
                note = "champion"
            else:
                alive = i in self._alive
                key = (2 if i in self._removed else 1, -reached, not alive, forfeited, score)
                if i in self._removed:
                    note = "removed"
                elif alive:
                    note = f"in round {reached}"
                elif reached == self._final_round:
                    note = "finalist"
                else:
                    note = f"out in round {reached}"
            keyed.append((key, i, score, note))
        keyed.sort(key=lambda k: (k[0], k[1]))
        return ranked([(key, self._names[i], score, note) for key, i, score, note in keyed])

    # --- the draw -----------------------------------------------------------------------------

    def _draw(self, ids: list[int]) -> list[Step]:
        self._round += 1
        r = self._round
        order = list(ids)
        self.rng.shuffle(order)
        sizes = game_sizes(len(order), self.options.game_size)
        games = sum(1 for s in sizes if s > 1)
        final = len(sizes) == 1  # one game and no bye: its winner is champion
        if final:
            self._final_round = r
        self._slots = []
        self._through = set()
        byes = len(sizes) - games
        if final:
            line = _("Round {round}: {players} players, the final.", round=r, players=len(order))
        elif byes:
            line = _(
                "Round {round}: {players} players, {games}, {byes}.",
                round=r,
                players=len(order),
                games=ngettext("{n} game", "{n} games", games),
                byes=ngettext("{n} bye", "{n} byes", byes),
            )
        else:
            line = _(
                "Round {round}: {players} players, {games}.",
                round=r,
                players=len(order),
                games=ngettext("{n} game", "{n} games", games),
            )
        steps: list[Step] = [Announce(line)]
        start = 0
        for index, size in enumerate(sizes, 1):
            members = order[start : start + size]
            start += size
            for p in members:
                self._reached[p] = r
                self._game_of.pop(p, None)
            if size == 1:
                self._slots.append(_Slot(f"r{r}-bye{index}", members[0], True))
                self._through.add(members[0])
                steps.append(
                    Announce(
                        _("Round {round}: {name} has a bye.", round=r, name=self._names[members[0]])
                    )
                )
                continue
            key = f"r{r}-g{index}"
            stage = "Final" if final else f"Round {r} game {index}"
            game = _Game(key, r, index, stage, members, main=key)
            for p in members:
                self._game_of[p] = key
            self._games[key] = game
            self._pending.append(key)
            self._slots.append(_Slot(key))
            steps += announce_lines(
                lambda names, stage=stage: _(
                    "{stage}: {players}", stage=stage_text(stage), players=names
                ),
                [self._names[p] for p in members],
            )
            steps.append(Seat(self._game(game)))
        return steps + self._advance()

    def _game(self, game: _Game) -> Game:
        options: tuple[tuple[str, str], ...] = ()
        if len(game.ids) > PRESET_MAX:
            options = (("max_players", str(len(game.ids))),)
        if game.sd:
            options = (*options, ("time_limit_minutes", "0"))
        heat = game.round == 1 and not game.sd and game.round != self._final_round
        return Game(
            key=game.key,
            table=game.index,
            stage=game.stage,
            players=tuple(self._names[p] for p in game.ids),
            rules=RULES,
            options=options,
            seconds=0.0 if game.sd else self.options.game_seconds,
            warning=0.0 if game.sd else self.options.warning_seconds,
            label="" if heat else game.stage,
            round=game.round,
        )

    # --- deciding -----------------------------------------------------------------------------

    def _decide(self, game: _Game, winners: list[int]) -> list[Step]:
        self._pending.remove(game.key)
        assert game.totals is not None
        present = [p for p in game.ids if p in game.totals and p not in game.gone]
        present = [p for p in present if p not in self._removed]
        best = [w for w in dict.fromkeys(winners) if w in present]
        if not best and present:
            low = min(game.totals[p] for p in present)
            best = [p for p in present if game.totals[p] == low]
        if len(best) > 1:
            return self._sudden_death(game, best)
        return self._settle(game, best[0] if best else None)

    def _sudden_death(self, game: _Game, tied: list[int]) -> list[Step]:
        game.decided = True
        main = self._games[game.main]
        k = game.sd + 1
        key = f"{main.key}-sd{k}"
        stage = f"{main.stage} sudden death" + (f" {k}" if k > 1 else "")
        sd = _Game(key, main.round, main.index, stage, tied, sd=k, main=main.key)
        self._games[key] = sd
        self._pending.append(key)
        names = [self._names[p] for p in tied]
        assert game.totals is not None
        if game.sd == 0:
            line = _(
                "{stage}: {players} tie on {score}; {next}: one hand, out wins.",
                stage=stage_text(game.stage),
                players=", ".join(names),
                score=game.totals[tied[0]],
                next=stage_text(stage),
            )
        else:
            line = _(
                "{stage}: {players} tie; {next}: one hand, out wins.",
                stage=stage_text(game.stage),
                players=", ".join(names),
                next=stage_text(stage),
            )
        return [
            Announce(line),
            Seat(self._game(sd)),
        ]

    def _settle(self, game: _Game, winner: int | None) -> list[Step]:
        """``winner`` (or nobody) goes through from ``game``'s round game."""
        game.decided = True
        slot = next(s for s in self._slots if s.key == game.main)
        slot.decided = True
        main = self._games[game.main]
        for p in main.ids:
            if p != winner:
                self._alive.discard(p)
        steps: list[Step] = []
        if winner is None:
            steps.append(Announce(_("{stage}: nobody goes through.", stage=stage_text(main.stage))))
        else:
            slot.through = winner
            self._through.add(winner)
            if main.round != self._final_round:
                steps.append(
                    Announce(
                        _(
                            "{stage}: {name} goes through.",
                            stage=stage_text(main.stage),
                            name=self._names[winner],
                        )
                    )
                )
        return steps + self._advance()

    def _advance(self) -> list[Step]:
        """Every game of the round decided: the next round, or the end."""
        if not all(s.decided for s in self._slots):
            return []
        through = [s.through for s in self._slots if s.through is not None]
        through = [p for p in through if p not in self._removed]
        if len(through) >= 2:
            return self._draw(through)
        self._done = True
        self._pending.clear()
        steps: list[Step] = []
        if through:
            self._champion = through[0]
            self._through.discard(through[0])
            steps.append(
                Announce(_("{name} is the knockout champion!", name=self._names[through[0]]))
            )
        else:
            steps.append(Announce(_("Nobody is left in the knockout: no champion.")))
        self._alive = set(through)
        return [*steps, Done(tuple(self.standings()))]

    # --- helpers ------------------------------------------------------------------------------

    def _score(self, i: int) -> tuple[int, bool]:
        """The player's total in the game of the round they reached (corrected), and whether
        they forfeited it (no total: left, removed)."""
        key = self._game_of.get(i)
        if key is None:
            return 0, False
        totals = self._games[key].totals
        if totals is None:
            return 0, False
        if i not in totals or i in self._games[key].gone:
            return 0, True
        return totals[i] + self._corrections.get((key, i), 0), False
