"""One channel's game: lobby, seats, nick -> seat, turn and grace timers as data.

A table wraps :class:`unobot.engine.Match` and speaks nicks where the engine speaks seats. It does
no I/O and reads no clock: every method takes ``now`` and returns an :class:`Update` (what
happened, who must be sent their hand, the state to show), and :meth:`Table.deadlines` says when
the bot should call :meth:`Table.on_timer`. That keeps the whole table testable with plain values.

The engine has no way to remove a player or to end a turn for an idle one who still holds a
playable card; the table does both by rebuilding the hand with ``Game.from_position`` (see
:func:`_rebuild`). The rebuilt hand keeps every card, the piles, the colour, the direction and the
turn, so nothing a player can observe changes except what the removal or timeout itself does.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from random import Random

from unobot.cards import Card, Color
from unobot.casemap import irc_eq, irc_lower
from unobot.engine import Match, Phase, errors, preset
from unobot.engine.actions import Action, CallUno, Catch, Challenge, ChooseColor, Draw, Pass, Play
from unobot.engine.errors import UnoError
from unobot.engine.events import (
    CardPlayed,
    CardsDrawn,
    DrawReason,
    Event,
    HandEnded,
    HandOutcome,
    MatchEnded,
    MatchOutcome,
    TurnPassed,
)
from unobot.engine.game import Game
from unobot.engine.rules import HouseRules, Scoring

__all__ = [
    "Away",
    "Back",
    "Dealt",
    "EngineEvents",
    "HandNotice",
    "Joined",
    "Left",
    "Opened",
    "Player",
    "Removed",
    "Status",
    "Stopped",
    "Table",
    "TableConfig",
    "TableEvent",
    "TimedOut",
    "Update",
    "Warned",
]


@dataclass(frozen=True, slots=True)
class TableConfig:
    """Timing and rules of a table; the bot passes the same value to every table it opens."""

    rules: HouseRules = field(default_factory=lambda: preset("irc-classic"))
    turn_timeout: float = 120.0
    turn_warning: float = 30.0
    """Seconds before the timeout at which the idle player is warned (0: no warning)."""
    max_timeouts: int = 2
    """Timeouts in a row after which a player is removed."""
    grace: float = 60.0
    """How long the seat of a player who left the channel is held."""
    lobby_timeout: float = 60.0
    """After this long in the lobby anyone may deal, not only the starter."""
    idle_stop: float = 300.0
    """After this long without a move anyone may ``.unostop``."""
    hand_after_play: bool = False
    """Also send a player their hand after each card they play (one more notice per turn)."""


class State(Enum):
    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"


@dataclass(slots=True)
class Player:
    nick: str
    key: str
    """Identity for preferences (account or folded nick); it survives nick changes."""
    timeouts: int = 0
    """Turn timeouts in a row."""
    away_since: float | None = None
    """When the player left the channel; their seat is held until ``away_since + grace``."""


# --- what a table reports --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Opened:
    starter: str
    lobby_seconds: int


@dataclass(frozen=True, slots=True)
class Joined:
    nick: str
    players: int


@dataclass(frozen=True, slots=True)
class Left:
    """Someone left the lobby (``starter`` is the new starter, if it changed)."""

    nick: str
    starter: str | None = None


@dataclass(frozen=True, slots=True)
class Dealt:
    players: tuple[str, ...]
    rules: str
    hand_number: int


@dataclass(frozen=True, slots=True)
class EngineEvents:
    """Engine events, with the seat names as they were when the events happened."""

    events: tuple[Event, ...]
    names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Warned:
    nick: str
    seconds: int


@dataclass(frozen=True, slots=True)
class TimedOut:
    nick: str
    strikes: int


@dataclass(frozen=True, slots=True)
class Away:
    nick: str
    seconds: int


@dataclass(frozen=True, slots=True)
class Back:
    nick: str


@dataclass(frozen=True, slots=True)
class Removed:
    nick: str
    why: str


@dataclass(frozen=True, slots=True)
class Stopped:
    by: str


TableEvent = (
    Opened | Joined | Left | Dealt | EngineEvents | Warned | TimedOut | Away | Back | Removed
    | Stopped
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class HandNotice:
    """A player's whole hand to send them, and which cards are new to them."""

    cards: tuple[Card, ...]
    new: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class Status:
    """The public state after an update: what the channel needs to play on."""

    top: Card
    color: Color
    current: str
    phase: Phase
    pending: int
    counts: tuple[tuple[str, int], ...]


@dataclass(slots=True)
class Update:
    """Everything one command or timer changed: render it, then forget it."""

    events: list[TableEvent] = field(default_factory=list)
    hands: dict[str, HandNotice] = field(default_factory=dict)
    """Nick -> hand notice, only for players whose hand the update changed."""
    status: Status | None = None
    finished: bool = False
    """The table is closed: the bot drops it."""


# --- the table -------------------------------------------------------------------------------


class Table:
    """One channel's game from ``.uno`` to the last hand. Not thread-safe: one reactor thread."""

    def __init__(
        self,
        channel: str,
        starter: str,
        starter_key: str,
        now: float,
        config: TableConfig | None = None,
        rng: Random | None = None,
    ) -> None:
        self.channel = channel
        self.config = config or TableConfig()
        self.rng = rng or Random()
        self.starter = starter
        self.players: list[Player] = [Player(starter, starter_key)]
        self.state = State.LOBBY
        self.opened_at = now
        self.last_activity = now
        self.match: Match | None = None
        self.turn_started = now
        self.warned = False
        self.hand_number = 0
        self._turn_seat = -1
        self._deferred: list[TableEvent] = []

    def open_update(self) -> Update:
        """What to announce when the table opens."""
        return Update([Opened(self.starter, int(self.config.lobby_timeout))])

    # --- reading ---------------------------------------------------------------------------

    @property
    def dealt(self) -> bool:
        return self.state is State.PLAYING

    @property
    def finished(self) -> bool:
        return self.state is State.FINISHED

    @property
    def game(self) -> Game | None:
        return self.match.game if self.match is not None else None

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.nick for p in self.players)

    def seat_of(self, nick: str) -> int | None:
        low = irc_lower(nick)
        for seat, player in enumerate(self.players):
            if irc_lower(player.nick) == low:
                return seat
        return None

    def player(self, nick: str) -> Player | None:
        seat = self.seat_of(nick)
        return None if seat is None else self.players[seat]

    def has(self, nick: str) -> bool:
        return self.seat_of(nick) is not None

    def hand_of(self, nick: str) -> tuple[Card, ...]:
        game = self._running()
        return tuple(game.hand(self._seat(nick)))

    def status(self) -> Status | None:
        game = self.game
        if game is None or game.over or self.state is not State.PLAYING:
            return None
        return Status(
            game.top,
            game.color,
            self.players[game.current].nick,
            game.phase,
            game.pending,
            tuple((p.nick, game.hand_size(s)) for s, p in enumerate(self.players)),
        )

    def idle_for(self, now: float) -> float:
        return now - self.last_activity

    # --- lobby -----------------------------------------------------------------------------

    def join(self, nick: str, key: str, now: float) -> Update:
        if self.state is not State.LOBBY:
            raise UnoError("this game has already been dealt: wait for the next one")
        if self.has(nick):
            raise UnoError("you are already in this game")
        if len(self.players) >= self.config.rules.max_players:
            raise UnoError(f"the game is full ({self.config.rules.max_players} players)")
        self.players.append(Player(nick, key))
        self.last_activity = now
        return Update([Joined(nick, len(self.players))])

    def deal(self, nick: str, now: float) -> Update:
        """Deal the first hand: the starter any time, anyone once the lobby time is up."""
        if self.state is not State.LOBBY:
            raise UnoError("the cards are already dealt")
        rules = self.config.rules
        lobby_left = self.opened_at + self.config.lobby_timeout - now
        if not irc_eq(nick, self.starter) and lobby_left > 0 and self.has(self.starter):
            raise UnoError(f"{self.starter} deals; anyone may in {int(lobby_left) + 1}s")
        need = max(2, rules.min_players)
        if len(self.players) < need:
            raise UnoError(f"{need} players are needed to deal: others can .join")
        # The starter plays first: with the dealer at the last seat, the seat "left of the
        # dealer" is seat 0 (other first-player rules choose for themselves).
        self.match = Match(len(self.players), rules, self.rng, dealer=len(self.players) - 1)
        self.state = State.PLAYING
        return self._start_hand(now, Update())

    def _start_hand(self, now: float, update: Update) -> Update:
        assert self.match is not None
        events = self.match.start_hand()
        self.hand_number += 1
        game = self._running()
        update.events.append(Dealt(self.names, self.config.rules.name, self.hand_number))
        update.events.append(EngineEvents(tuple(events), self.names))
        for seat, player in enumerate(self.players):
            update.hands[player.nick] = HandNotice(tuple(game.hand(seat)))
        for player in self.players:
            player.timeouts = 0
        self._new_turn(now)
        self.last_activity = now
        update.status = self.status()
        return update

    def leave(self, nick: str, now: float) -> Update:
        """``.leave``: out of the lobby at once; in a game the hand goes under the draw pile."""
        seat = self._seat(nick)
        if self.state is State.LOBBY:
            return self._leave_lobby(seat)
        return self._remove(seat, "left the game", now, [])

    def _leave_lobby(self, seat: int) -> Update:
        player = self.players.pop(seat)
        if not self.players:
            self.state = State.FINISHED
            return Update([Left(player.nick)], finished=True)
        new_starter = None
        if irc_eq(player.nick, self.starter):
            self.starter = new_starter = self.players[0].nick
        return Update([Left(player.nick, new_starter)])

    def stop(self, nick: str) -> Update:
        """End the table at once (the caller has checked the right to)."""
        self.state = State.FINISHED
        self._deferred.clear()
        return Update([Stopped(nick)], finished=True)

    # --- playing ---------------------------------------------------------------------------

    def play(self, nick: str, card: Card, color: Color | None, now: float) -> Update:
        return self._act(nick, Play(card, color), now)

    def draw(self, nick: str, now: float) -> Update:
        return self._act(nick, Draw(), now)

    def pass_turn(self, nick: str, now: float) -> Update:
        return self._act(nick, Pass(), now)

    def choose_color(self, nick: str, color: Color, now: float) -> Update:
        return self._act(nick, ChooseColor(color), now)

    def challenge(self, nick: str, now: float) -> Update:
        return self._act(nick, Challenge(), now)

    def call_uno(self, nick: str, now: float) -> Update:
        return self._act(nick, CallUno(), now, in_turn=False)

    def catch(self, nick: str, target: str, now: float) -> Update:
        seat = self.seat_of(target)
        if seat is None:
            raise errors.CannotCatch(target[:30])
        return self._act(nick, Catch(seat), now, in_turn=False)

    def _act(self, nick: str, action: Action, now: float, *, in_turn: bool = True) -> Update:
        game = self._running()
        seat = self._seat(nick)
        if in_turn and seat != game.current:
            raise errors.NotYourTurn(self.players[game.current].nick)
        assert self.match is not None
        events = self.match.apply(seat, action)
        player = self.players[seat]
        update = Update()
        if player.away_since is not None:
            player.away_since = None
            update.events.append(Back(player.nick))
        if in_turn:
            player.timeouts = 0
        defer = type(action) is Draw and game.phase is Phase.DRAWN and game.current == seat
        return self._after(events, seat if in_turn else None, now, update, defer=defer)

    def _after(
        self,
        events: Sequence[Event],
        actor: int | None,
        now: float,
        update: Update,
        *,
        defer: bool = False,
    ) -> Update:
        """Turn engine events into an update: hand notices, the next hand, the turn timer."""
        game = self._running()
        names = self.names
        gained: dict[int, list[Card]] = {}
        played = False
        for event in events:
            if type(event) is CardsDrawn and event.cards:
                gained.setdefault(event.seat, []).extend(event.cards)
            elif type(event) is CardPlayed and event.seat == actor:
                played = True
        for seat, cards in gained.items():
            if game.hand_size(seat):
                update.hands[names[seat]] = HandNotice(tuple(game.hand(seat)), tuple(cards))
        if played and self.config.hand_after_play and actor is not None and game.hand_size(actor):
            update.hands.setdefault(names[actor], HandNotice(tuple(game.hand(actor))))
        if events:
            self.last_activity = now
            if actor is not None or game.current != self._turn_seat:
                self._new_turn(now)  # an out-of-turn UNO call doesn't reset the mover's clock
        batch = EngineEvents(tuple(events), names) if events else None
        if defer and batch is not None:
            # A draw that leaves the drawer to decide: the channel hears of it together with
            # the decision (one line instead of two); the drawer gets their hand now.
            self._deferred.extend(update.events)
            self._deferred.append(batch)
            update.events = []
            return update
        update.events[:0] = self._deferred
        self._deferred = []
        if batch is not None:
            update.events.append(batch)
        if any(type(e) is MatchEnded for e in events):
            self.state = State.FINISHED
            update.finished = True
            return update
        if any(type(e) is HandEnded for e in events):
            return self._start_hand(now, update)
        update.status = self.status()
        return update

    # --- timers ----------------------------------------------------------------------------

    def _new_turn(self, now: float) -> None:
        self.turn_started = now
        self.warned = False
        game = self.game
        self._turn_seat = game.current if game is not None else -1

    def deadlines(self) -> dict[str, float]:
        """When the bot should call :meth:`on_timer`, by timer name."""
        if self.state is not State.PLAYING:
            return {}
        cfg = self.config
        out: dict[str, float] = {}
        timeout = self.turn_started + cfg.turn_timeout
        if 0 < cfg.turn_warning < cfg.turn_timeout and not self.warned:
            out["warn"] = timeout - cfg.turn_warning
        out["turn"] = timeout
        for player in self.players:
            if player.away_since is not None:
                out["away:" + irc_lower(player.key)] = player.away_since + cfg.grace
        minutes = cfg.rules.time_limit_minutes
        if minutes and self.match is not None:
            out["time"] = self.opened_at + minutes * 60
        return out

    def on_timer(self, name: str, now: float) -> Update:
        """A deadline from :meth:`deadlines` has come; stale ones do nothing."""
        due = self.deadlines().get(name)
        if due is None or due > now + 1e-6:
            return Update()
        game = self._running()
        if name == "warn":
            self.warned = True
            left = int(self.turn_started + self.config.turn_timeout - now + 0.5)
            return Update([Warned(self.players[game.current].nick, left)])
        if name == "turn":
            return self._timeout(now)
        if name == "time":
            assert self.match is not None
            events = self.match.end_by_time()
            self.state = State.FINISHED
            return Update([EngineEvents(tuple(events), self.names)], finished=True)
        for seat, player in enumerate(self.players):
            if name == "away:" + irc_lower(player.key):
                return self._remove(seat, f"gone for {int(self.config.grace)}s", now, [])
        return Update()

    def _timeout(self, now: float) -> Update:
        game = self._running()
        seat = game.current
        player = self.players[seat]
        player.timeouts += 1
        pre: list[TableEvent] = [TimedOut(player.nick, player.timeouts)]
        if player.timeouts >= self.config.max_timeouts:
            return self._remove(seat, f"{player.timeouts} turns timed out", now, pre)
        events = self._force_draw_and_pass(seat)
        return self._after(events, seat, now, Update(pre))

    def _force_draw_and_pass(self, seat: int) -> list[Event]:
        """The idle player draws one card and the turn moves on, whatever the rules allow."""
        assert self.match is not None
        game = self._running()
        out: list[Event] = []
        if game.phase is Phase.CHOOSE_COLOR:
            out += self.match.apply(seat, ChooseColor(_favourite_color(game.hand(seat))))
        if game.phase is Phase.PENDING:
            return out + self.match.apply(seat, Draw())  # takes the penalty, turn moves on
        if game.phase is Phase.PLAY:
            try:
                out += self.match.apply(seat, Draw())
            except UnoError:  # holds a playable card: the engine won't let them draw
                out += game.penalize(seat, 1, DrawReason.DRAW)
                return out + self._skip_turn(seat)
        game = self._running()
        if game.current == seat and game.phase is Phase.DRAWN:
            try:
                out += self.match.apply(seat, Pass())
            except UnoError:  # the rules say they must play the drawn card
                out += self._skip_turn(seat)
        return out

    def _skip_turn(self, seat: int) -> list[Event]:
        assert self.match is not None
        game = self._running()
        self.match.game = _rebuild(game, current=(seat + game.direction) % game.n)
        return [TurnPassed(seat)]

    # --- presence --------------------------------------------------------------------------

    def rename(self, old: str, new: str) -> bool:
        """Follow a nick change; True if ``old`` sits here."""
        seat = self.seat_of(old)
        if seat is None:
            return False
        self.players[seat].nick = new
        if irc_eq(self.starter, old):
            self.starter = new
        return True

    def depart(self, nick: str, now: float) -> Update:
        """``nick`` left the channel (part, quit, kick): lobby seats go, game seats are held."""
        seat = self.seat_of(nick)
        if seat is None or self.finished:
            return Update()
        if self.state is State.LOBBY:
            return self._leave_lobby(seat)
        player = self.players[seat]
        if player.away_since is None:
            player.away_since = now
        return Update([Away(player.nick, int(self.config.grace))])

    def arrive(self, nick: str) -> Update:
        """``nick`` joined the channel: if their seat is held, they have it back."""
        player = self.player(nick)
        if player is None or player.away_since is None:
            return Update()
        player.away_since = None
        return Update([Back(player.nick)])

    # --- removal ---------------------------------------------------------------------------

    def _remove(self, seat: int, why: str, now: float, pre: list[TableEvent]) -> Update:
        """Take ``seat`` out mid-game; with one player left the game ends and is scored."""
        assert self.match is not None
        game = self._running()
        names = self.names
        player = self.players[seat]
        update = Update([*self._deferred, *pre, Removed(player.nick, why)])
        self._deferred = []
        self.last_activity = now
        if game.n - 1 < 2:
            update.events.append(EngineEvents(tuple(self._forfeit(seat)), names))
            self.state = State.FINISHED
            update.finished = True
            return update
        was_turn = game.current == seat
        current = (seat + game.direction) % game.n if was_turn else game.current
        new_current = current - 1 if current > seat else current
        self.match.game = _rebuild(game, drop=seat, current=new_current)
        del self.players[seat]
        del self.match.totals[seat]
        self.match.players -= 1
        self.match.dealer = min(self.match.dealer, self.match.players - 1)
        if irc_eq(player.nick, self.starter):
            self.starter = self.players[0].nick
        if was_turn:
            self._new_turn(now)
        update.status = self.status()
        return update

    def _forfeit(self, leaver: int) -> list[Event]:
        """End the hand and match for the last player standing, scored as if they went out.

        With winner-collects scoring the winner's own cards don't count (nor are they shown, as
        if laid down); with own-points scoring everyone keeps the points in their hand.
        """
        assert self.match is not None
        game = self._running()
        winner = 1 - leaver
        collects = game.rules.scoring is Scoring.WINNER_COLLECTS
        remaining = tuple(
            () if collects and s == winner else tuple(game.hand(s)) for s in range(game.n)
        )
        points = tuple(sum(c.points for c in hand) for hand in remaining)
        if collects:
            scores = tuple(sum(points) if s == winner else 0 for s in range(game.n))
        else:
            scores = points
        outcome = HandOutcome(winner, remaining, points, scores)
        totals = tuple(t + s for t, s in zip(self.match.totals, scores, strict=True))
        hands = len(self.match.hands) + 1
        return [HandEnded(outcome), MatchEnded(MatchOutcome(totals, (winner,), hands))]

    # --- helpers ---------------------------------------------------------------------------

    def _running(self) -> Game:
        game = self.game
        if game is None or self.state is not State.PLAYING:
            raise UnoError("the cards have not been dealt yet")
        return game

    def _seat(self, nick: str) -> int:
        seat = self.seat_of(nick)
        if seat is None:
            raise errors.NotAPlayer()
        return seat


def _favourite_color(hand: Sequence[Card]) -> Color:
    counts = Counter(c.color for c in hand if c.color is not None)
    return counts.most_common(1)[0][0] if counts else Color.RED


def _rebuild(game: Game, *, current: int, drop: int | None = None) -> Game:
    """The same hand with ``drop``'s seat removed (their cards under the draw pile) and/or the
    turn moved to ``current`` (a seat number after the removal).

    A stop-gap until the engine offers ``remove_seat`` / ``skip_turn``: it uses only the public
    ``Game.from_position``. A pending draw, drawn card or colour choice is kept only when the
    turn stays with the same player.
    """
    seats = [s for s in range(game.n) if s != drop]
    hands = [game.hand(s) for s in seats]
    draw_order = list(reversed(game.draw_pile))
    if drop is not None:
        draw_order += game.hand(drop)
    old_current = seats[current]
    same_turn = old_current == game.current
    rules = game.rules
    if len(seats) < rules.min_players:
        rules = dataclasses.replace(rules, min_players=len(seats))
    phase = game.phase if same_turn else Phase.PLAY
    if phase is Phase.CHOOSE_COLOR and not same_turn:
        phase = Phase.PLAY
    dealer = game.dealer if game.dealer in seats else seats[-1]
    return Game.from_position(
        rules,
        hands,
        game.top,
        color=game.color,
        draw_pile=draw_order,
        discard=game.discard[:-1],
        current=current,
        direction=game.direction,
        rng=game.rng,
        pending=game.pending if same_turn else 0,
        phase=phase,
        drawn=game.drawn if same_turn else None,
        dealer=seats.index(dealer),
        wd4_guilty=game.wd4_guilty,
    )
