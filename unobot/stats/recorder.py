"""Recording every finished game into the stats store.

:class:`GameRecorder` watches the updates the bot publishes (it never changes a table): it starts
a record when a table deals its first hand, remembers what each seat held and scored so a player
who leaves mid-game still gets a line, and hands one :class:`~unobot.stats.GameRecord` to the
store when the game ends.

What counts as a game (docs/stats-site.md says the same to players): a game is one deal of
``.uno`` to its end, and it is recorded once at least one hand of it was played out. A game
stopped (``.unostop``, or by the table when no person is left) is recorded only if a hand was
completed (a multi-hand match stopped half-way), as a *stopped* game (``GameRecord.stopped``):
everyone in it has played a game, with the points of the hands completed and places by them,
but nobody won it, so stopping a match one leads is never a way to a win. A stop before any
hand ended says nothing about who plays well and is not recorded at all.
Each result goes under an ident that is that seat's alone (:func:`_idents`): a seat without one
(one services account on two seats, a nick given up and taken by another seat) is left out,
logged at INFO, and everybody else's results are recorded.

It lives with the stats, not with the commands: the bot core creates it, and the core never
imports a plugin.
"""

from __future__ import annotations

import logging
import time
import uuid
import weakref
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from unobot.core.table import Player, Table
from unobot.core.updates import Dealt, EngineEvents, Removed, Stopped, Update
from unobot.engine.events import HandEnded, HandOutcome, MatchEnded, MatchOutcome
from unobot.engine.rules import Scoring
from unobot.irc.casemap import irc_eq, irc_lower
from unobot.irc.transport import Scheduler
from unobot.stats.model import GameRecord, PlayerResult, StatsStore

__all__ = ["GameRecorder"]

log = logging.getLogger(__name__)


@dataclass(slots=True)
class _Seat:
    """A player dealt into the game, with what they had the last time we looked."""

    player: Player
    """The table's own Player object: it follows nick changes."""
    account: str | None = None
    """Services account, folded (as in the ident)."""
    total: int = 0
    """Match points so far (kept for a player who leaves: the table forgets them)."""
    in_hand: int = 0
    """Points of the cards in their hand."""
    left: int = 0
    """0 while playing; else the order in which they left (1 = first to leave)."""


@dataclass(slots=True)
class _Game:
    game_id: str
    started: datetime
    seats: list[_Seat] = field(default_factory=list)
    leavers: int = 0

    def seat(self, player: Player) -> _Seat:
        for seat in self.seats:
            if seat.player is player:
                return seat
        seat = _Seat(player)  # cannot happen (no joining after the deal), but never crash
        self.seats.append(seat)
        return seat


def _account_of(key: str) -> str | None:
    return key[3:] if key.startswith("$a:") else None


class GameRecorder:
    """Builds a :class:`GameRecord` for each game a table finishes and stores it.

    ``observe`` is called by the bot with every update it publishes, before a finished table is
    dropped. It never raises: a failing store or a surprise in an update is logged, and the game
    goes on (or ends) as if stats did not exist.
    """

    def __init__(self, store: StatsStore, network: str, wall_clock: Callable[[], datetime]) -> None:
        self.store = store
        self.network = network
        self.wall_clock = wall_clock
        self._games: weakref.WeakKeyDictionary[Table, _Game] = weakref.WeakKeyDictionary()
        """Games being played, by table; a table the bot drops unfinished is forgotten."""
        self._unsaved: weakref.WeakSet[Table] = weakref.WeakSet()
        """Finished tables whose game the store could keep in memory only (see
        :meth:`unsaved`)."""

    @classmethod
    def following(
        cls,
        store: StatsStore,
        network: str,
        scheduler: Scheduler,
        wall_clock: Callable[[], datetime] | None = None,
    ) -> GameRecorder:
        """The recorder a composition root hands the bot (``Bot(..., recorder=...)``): games
        dated by ``wall_clock``, by default the bot's scheduler made UTC (:meth:`utc_from`)."""
        return cls(store, network, wall_clock or cls.utc_from(scheduler))

    @staticmethod
    def utc_from(scheduler: Scheduler) -> Callable[[], datetime]:
        """The scheduler's clock (monotonic on the network, manual in tests) as UTC time:
        fixed to the wall clock once, so records follow the same clock as the game's timers."""
        offset = time.time() - scheduler.now()
        return lambda: datetime.fromtimestamp(scheduler.now() + offset, UTC)

    def saw_account(self, nick: str, account: str) -> None:
        """``nick`` is logged in to services as ``account``: credit their games to it."""
        for game in self._games.values():
            for seat in game.seats:
                if not seat.left and not seat.player.computer and irc_eq(seat.player.nick, nick):
                    seat.account = irc_lower(account)

    def observe(self, table: Table, update: Update) -> None:
        try:
            self._observe(table, update)
        except Exception:
            log.exception("stats: could not follow the game in %s", table.channel)

    def _observe(self, table: Table, update: Update) -> None:
        game = self._games.get(table)
        if game is None:
            if not any(type(e) is Dealt and e.hand_number == 1 for e in update.events):
                return
            game = _Game(table.game_id or uuid.uuid4().hex, self.wall_clock())
            game.seats = [_Seat(p, _account_of(p.key)) for p in table.players]
            self._games[table] = game
        for event in update.events:
            if type(event) is Removed:
                for seat in game.seats:
                    if not seat.left and irc_eq(seat.player.nick, event.nick):
                        game.leavers += 1
                        seat.left = game.leavers
                        break
        if update.finished:
            del self._games[table]
            record = self._record(table, game, update)
            if record is not None and not self._store(record):
                self._unsaved.add(table)
            return
        self._snapshot(table, game)

    def _snapshot(self, table: Table, game: _Game) -> None:
        match, hand = table.match, table.game
        if match is None or hand is None:
            return
        for index, player in enumerate(table.players):
            seat = game.seat(player)
            seat.total = match.totals[index]
            seat.in_hand = sum(card.points for card in hand.hand(index))

    def unsaved(self, table: Table) -> bool:
        """Whether the game ``table`` finished is in memory only: neither the database nor
        the local spool took it (or the store failed). The bot then keeps the table's
        journal, so the next start records the game again (once: by its id)."""
        return table in self._unsaved

    def _store(self, record: GameRecord) -> bool:
        """Hand ``record`` to the store; False when it is not safe on disk anywhere."""
        try:
            return self.store.record_game(record) is not False
        except Exception:  # the store should queue, not raise; if it does, the bot goes on
            log.exception("stats: could not record game %s in %s", record.game_id, record.channel)
            return False

    def _record(self, table: Table, game: _Game, update: Update) -> GameRecord | None:
        """The finished game as a record; None for a game stopped before any hand ended, or
        one in which no seat has an ident of its own (:func:`_idents`)."""
        ended: MatchOutcome | None = None
        last_hand: HandOutcome | None = None
        for event in update.events:
            if type(event) is EngineEvents:
                for engine_event in event.events:
                    if type(engine_event) is MatchEnded:
                        ended = engine_event.outcome
                    elif type(engine_event) is HandEnded:
                        last_hand = engine_event.outcome
        match = table.match
        if match is None:
            return None
        rules = table.config.rules
        own_points = rules.scoring is Scoring.OWN_POINTS
        stopped = False
        if ended is not None:
            totals, winners = ended.totals, set(ended.winners)
        elif any(type(e) is Stopped for e in update.events) and match.hands:
            # Nobody won a stopped game: places by the totals so far (the leader first).
            totals, winners, stopped = tuple(match.totals), set(), True
        else:
            return None
        current = table.game
        rows: list[tuple[_Seat, int, int, bool]] = []  # seat, points won, points left, won
        seated: set[int] = set()
        for index, player in enumerate(table.players):
            seat = game.seat(player)
            seated.add(id(seat))
            if last_hand is not None:
                left = last_hand.points[index]
            elif current is not None:
                left = sum(card.points for card in current.hand(index))
            else:
                left = seat.in_hand
            rows.append((seat, totals[index], left, index in winners and not seat.left))
        rows += [(s, s.total, s.in_hand, False) for s in game.seats if id(s) not in seated]
        count = rules.team_count(len(table.players))
        places = _places(rows, own_points, _team_left(rows, len(table.players), count))
        idents, left_out = _idents([r[0] for r in rows])
        for seat in (r[0] for r in rows):
            if id(seat) in left_out:
                log.info(
                    "stats: game %s in %s recorded without %s: %s",
                    game.game_id,
                    table.channel,
                    seat.player.nick,
                    left_out[id(seat)],
                )
        results = [
            PlayerResult(
                ident=idents[id(seat)],
                nick=seat.player.nick,
                place=places[id(seat)],
                won=won,
                points_won=points,
                points_left=left,
                finished=not seat.left,
                account=_account_of(idents[id(seat)]),
                is_bot=seat.player.computer,
            )
            for seat, points, left, won in sorted(rows, key=lambda r: places[id(r[0])])
            if id(seat) in idents
        ]
        if not results:
            log.info(
                "stats: game %s in %s not recorded: no seat has an ident of its own",
                game.game_id,
                table.channel,
            )
            return None
        return GameRecord(
            game_id=game.game_id,
            network=self.network,
            channel=irc_lower(table.channel),
            preset=rules.name,
            started=game.started,
            ended=self.wall_clock(),
            results=tuple(results),
            moves=self._moves(table),
            teams=rules.teams,
            stopped=stopped,
        )

    @staticmethod
    def _moves(table: Table) -> str | None:
        """The game's own journal (``Table.moves``) as its move list, so a replay shows exactly
        what was played and nothing is stored twice; None for a table without a journal."""
        if table.moves is None:
            return None
        try:
            return table.moves()
        except Exception:  # a replay is a nicety: the game is recorded without it
            log.exception("stats: no move list for the game in %s", table.channel)
            return None


def _ident(seat: _Seat) -> str:
    """The services account when known (at join, or from any later line), else the nick they
    joined with, folded: the same key their preferences use, so a nick change mid-game does
    not split their stats. A computer player's key (``$bot:name``) can't be a person's."""
    key = seat.player.key
    if key.startswith("$a:") or seat.account is None or seat.player.computer:
        return key
    return "$a:" + seat.account


_GONE = "(gone)"
"""What the table appends to a held seat's nick once somebody else takes that nick
(``Table.rename``): such a name belongs to nobody, so no result is filed under it."""


def _idents(seats: list[_Seat]) -> tuple[dict[int, str], dict[int, str]]:
    """Each seat's stats ident, by ``id(seat)``, distinct from every other's; and the seats
    left out of the record (by ``id(seat)``), with why.

    A game record holds one result per ident (the store refuses one ident twice), and an ident
    is a player's whole history: a result filed under the wrong one corrupts a stranger's
    stats, which is worse than one result missing. So a seat is recorded only under an ident
    that is provably its own, and a seat without one is left out (the caller logs it at INFO)
    while everybody else's results are kept:

    * A seat whose ident (:func:`_ident`) no other seat has keeps it.
    * One services account on several seats (two nicks logged in to one account, seated in
      the lobby, or a nick later seen logged in to an account another seat has) is one person
      playing several hands: any one result would be made up, a win through either seat would
      reward sitting twice, and filing the seats under their nicks would credit the account's
      play to whoever owns those nicks. None of those seats is recorded; the others' results
      stand, as their play against those hands was real.
    * A nick ident (someone without an account, known by the nick they joined with) on
      several seats: the nick was given up in the lobby and taken by somebody else. Whoever
      holds the nick now keeps it; each of the others goes by their own current nick, unless
      that is somebody else's claim too (another seat joined with it) or a held seat's
      ``nick(gone)``, a name of nobody: those are left out.

    Places stay those of the whole table (a seat left out still beat or trailed the others).
    Every ident handed out belongs to exactly one seat (checked last, as a seat removed
    mid-game keeps the nick it had then, which someone seated may have taken since), so the
    store never refuses the record, and a game is dropped whole only when no seat is left.
    """
    claims = {id(seat): _ident(seat) for seat in seats}
    count = Counter(claims.values())
    wanted: dict[int, str] = {}
    left_out: dict[int, str] = {}
    for seat in seats:
        claim, nick = claims[id(seat)], irc_lower(seat.player.nick)
        if count[claim] == 1 or (nick == claim and not claim.startswith("$")):
            wanted[id(seat)] = claim  # theirs alone, or the nick of the claim is theirs now
        elif claim.startswith("$a:"):
            left_out[id(seat)] = (
                f"the services account {claim[3:]} holds {count[claim]} seats: "
                "one person's several hands have no one result"
            )
        elif claim.startswith("$"):  # a computer's: names are unique at a table, but never
            left_out[id(seat)] = f"{count[claim]} seats are {claim}"  # fall back to a nick
        elif nick.endswith(_GONE):
            left_out[id(seat)] = (
                f"they joined as {claim}, which another seat has, and their nick was taken "
                "while they were away"
            )
        elif nick in count:
            left_out[id(seat)] = (
                f"they joined as {claim}, which another seat has, and go by {nick}, "
                "which another seat joined with"
            )
        else:
            wanted[id(seat)] = nick
    # Distinct by the rules above, but for a removed seat's old nick (see the docstring).
    taken = Counter(wanted.values())
    idents: dict[int, str] = {}
    for key, ident in wanted.items():
        if taken[ident] == 1:
            idents[key] = ident
        else:
            left_out[key] = f"{taken[ident]} seats would be recorded as {ident}"
    return idents, left_out


def _team_left(
    rows: list[tuple[_Seat, int, int, bool]], players: int, count: int
) -> dict[int, int]:
    """In a team game (``count`` teams, seat ``s`` in team ``s % count``; the first
    ``players`` of ``rows`` are the seats in order), each seat's team's points left in hand,
    by ``id(seat)``: teammates share their total, and so their place (:func:`_places`).
    Empty when not in teams."""
    if not count or players % count:
        return {}
    sums = [0] * count
    for index, row in enumerate(rows[:players]):
        sums[index % count] += row[2]
    return {id(row[0]): sums[index % count] for index, row in enumerate(rows[:players])}


def _places(
    rows: list[tuple[_Seat, int, int, bool]],
    own_points: bool,
    team_left: dict[int, int] | None = None,
) -> dict[int, int]:
    """Winners 1; the others who finished by match points (highest first, or lowest with
    own-points scoring), then by points left in hand (in a team game the team's, from
    ``team_left``: a team shares one place), ties sharing a place; those who left come last,
    the last to leave first."""
    places: dict[int, int] = {}
    winners = [r for r in rows if r[3]]
    for row in winners:
        places[id(row[0])] = 1
    stayed = [r for r in rows if not r[3] and not r[0].left]

    def key(row: tuple[_Seat, int, int, bool]) -> tuple[int, int]:
        left = team_left.get(id(row[0]), row[2]) if team_left else row[2]
        return (row[1] if own_points else -row[1], left)

    stayed.sort(key=key)
    place = len(winners) + 1
    for i, row in enumerate(stayed):
        if i and key(row) != key(stayed[i - 1]):
            place = len(winners) + 1 + i
        places[id(row[0])] = place
    place = len(winners) + len(stayed) + 1
    for row in sorted((r for r in rows if r[0].left), key=lambda r: -r[0].left):
        places[id(row[0])] = place
        place += 1
    return places
