"""One channel's game: the deal, the moves and the hands, the turns' and the match's end.

A table wraps :class:`unobot.engine.Match` and speaks nicks where the engine speaks seats. It does
no I/O and reads no clock: every method takes ``now`` and returns an :class:`Update` (what
happened, who must be sent their hand, the state to show), and :meth:`Table.deadlines` says when
the bot should call :meth:`Table.on_timer`. That keeps the whole table testable with plain values.

The table keeps the game's flow and owns four parts it delegates to, each over the same list of
players (:mod:`unobot.core.seats`) and each tested alone: the lobby (:class:`Lobby`: seats
before the deal and its refusals), the teams (:class:`Teams`), the clocks (:class:`TurnClock`)
and the players' presence (:class:`Presence`: seats held for who left, nick changes); the hand
notices a move sends are :mod:`unobot.core.hands`'. No part refers back to the table. Every
change still goes through one of the table's journaled methods (:func:`journaled`): the journal
records and replays them by the table's names for them.

Timeouts and removals go through the engine's own interventions (``Game.force_pass``,
``Match.remove_player``), so everything a player can observe that the intervention doesn't itself
change (a pending UNO catch, a WD4 that may be challenged, the turn timer of someone else) stays.
The table only keeps its seat list in step with the engine's renumbering.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from random import Random
from typing import Any, Generic, TypeVar

from unobot.core.hands import move_notices, playable, turn_hand
from unobot.core.lobby import Lobby
from unobot.core.presence import Presence
from unobot.core.seats import COMPUTER_IDENT, Player, find_seat, next_starter
from unobot.core.teams import Teams
from unobot.core.timers import TurnClock
from unobot.core.updates import (
    Dealt,
    EarlyUno,
    EngineEvents,
    HandNotice,
    Opened,
    Penalized,
    Removed,
    RoundOver,
    Status,
    Stopped,
    TableEvent,
    TimedOut,
    TimeUp,
    TimeWarning,
    Totals,
    Update,
    Warned,
)
from unobot.engine import Match, Phase, errors, preset
from unobot.engine.actions import (
    Action,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Draw,
    Pass,
    Play,
    Swap,
)
from unobot.engine.cards import Card, Color
from unobot.engine.errors import UnoError
from unobot.engine.events import (
    CardPlayed,
    CardsDiscarded,
    CardsDrawn,
    DrawReason,
    Event,
    HandEnded,
    MatchEnded,
    SeatRemoved,
)
from unobot.engine.game import Game
from unobot.engine.rules import HouseRules, Scoring, Stacking, TeamGame
from unobot.i18n import domain
from unobot.irc.casemap import irc_eq

_, ngettext = domain("game")

__all__ = [
    "COMPUTER_IDENT",
    "Frozen",
    "Journal",
    "Player",
    "Table",
    "TableConfig",
    "journaled",
]

F = TypeVar("F", bound=Callable[..., Any])
V = TypeVar("V")


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
    turn_hand: bool = True
    """Send the player to move their hand when the turn reaches them, the cards they may play
    marked: what players would otherwise ask for with ``.cards`` every turn. Optional lines
    (:attr:`HandNotice.optional`): the send queue sends them first in their channel's turn
    and, with many games on one connection, from spare budget only; ``.unohand off`` turns
    them off for one player."""
    tournament: str = ""
    """``<tournament>/<game key>`` when a tournament director runs this table
    (``unobot.tournament.director``): it seats the players and deals, so ``.join``/``.deal``
    are refused, and a table of computer players alone may be dealt. Empty: a normal table."""
    time_warning: float = 0.0
    """Seconds before the end of a timed match at which the channel is warned (and, under
    ``warning_ends_round``, no new hand starts); 0: a fifth of the time, at most 5 minutes."""


class State(Enum):
    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"


# --- the table -------------------------------------------------------------------------------


# --- the table -------------------------------------------------------------------------------


Journal = Callable[[str, dict[str, Any]], None]
"""Told each state-changing call a table accepted: its method's name and its arguments by
name (``unobot.core.journal`` writes them down; replaying them rebuilds the table)."""


class Frozen(UnoError):
    """The table takes no more changes (:attr:`Table.frozen`); ``str(err)`` says why."""


def journaled(method: F) -> F:
    """Mark a method that changes the table: once it returns (not when it raises: a refused
    call changes nothing), the table's journal is told its name and arguments. Calls made by
    another journaled method are part of that one and not told again. A frozen table
    (:attr:`Table.frozen`) refuses every such call with :class:`Frozen`: every change goes
    through here, so this one check covers commands, computer seats, timers and departures."""
    names = tuple(inspect.signature(method).parameters)[1:]  # without self
    name = method.__name__

    @functools.wraps(method)
    def wrapper(self: Table, *args: Any, **kwargs: Any) -> Any:
        outermost = not self._journal_depth
        if outermost and self.frozen is not None:
            raise Frozen(self.frozen)
        self._journal_depth += 1
        try:
            result = method(self, *args, **kwargs)
        finally:
            self._journal_depth -= 1
        if self.journal is None or not outermost:
            return result
        arguments = dict(zip(names, args, strict=False))  # defaults left out: replay has them
        if kwargs:
            arguments.update(kwargs)
        self.journal(name, arguments)
        return result

    return wrapper  # type: ignore[return-value]


def _part(part: str, method: F) -> F:
    """A table method that is ``method`` of the table's part ``part`` (the attribute of that
    name): the table still answers to the name, for the plugins, the bot and the journal,
    whose replay calls the table's methods by the names it recorded."""
    name = method.__name__

    @functools.wraps(method)
    def call(self: Table, *args: Any, **kwargs: Any) -> Any:
        return getattr(getattr(self, part), name)(*args, **kwargs)

    return call  # type: ignore[return-value]


class _Alias(Generic[V]):
    """An attribute of the table kept by one of its parts (``table.turn_started`` is
    ``table.clock.turn_started``), read and written there."""

    def __init__(self, part: str, name: str) -> None:
        self._part = part
        self._name = name

    def __get__(self, table: Any, owner: type | None = None) -> V:
        if table is None:
            return self  # type: ignore[return-value]
        return getattr(getattr(table, self._part), self._name)  # type: ignore[no-any-return]

    def __set__(self, table: Any, value: V) -> None:
        setattr(getattr(table, self._part), self._name, value)


class Table:
    """One channel's game from ``.uno`` to the last hand. Not thread-safe: one reactor thread."""

    flip = False
    """A table of UNO Flip (``unobot.core.flip_table.FlipTable``): its game is a ``FlipGame``."""

    def __init__(
        self,
        channel: str,
        starter: str,
        starter_key: str,
        now: float,
        config: TableConfig | None = None,
        rng: Random | None = None,
        starter_level: str = "",
    ) -> None:
        """``starter_level``: the starter is a computer player of that level (a tournament
        table of computer players alone; see ``TableConfig.tournament``)."""
        self.channel = channel
        self.config = config = config or TableConfig()
        self.rng = rng or Random()
        self.players: list[Player] = [Player(starter, starter_key, level=starter_level)]
        """In seat order. The parts share this list: it is changed in place, never replaced."""
        self.state = State.LOBBY
        self.match: Match | None = None
        self.hand_number = 0
        self._deferred: list[TableEvent] = []
        self.game_id = ""
        """The game's id in the stats, when the journal gives it one (it is kept across a
        restart, so a game recorded just before a crash is not recorded twice)."""
        self.journal: Journal | None = None
        """Told every accepted change (``unobot.core.journal``); None: not journaled."""
        self.frozen: str | None = None
        """Why the table takes no more changes, as the reply to whoever tries one; None: it
        does. Set when the bot has said its farewell before a restart: its journal is closed
        then, so a change could not be written down and the restored table would not have
        it (a move shown and then undone, a win announced and recorded, then won again)."""
        self._journal_depth = 0
        self._jumped: tuple[str, Card] | None = None
        """Jump-In: who jumped in last and with which card, while that card is on top (to
        answer a slower jumper "too late: <nick> jumped first")."""
        self.moves: Callable[[], str | None] | None = None
        """The journal's text so far (its move list, kept with the recorded game for its
        replay); None: not journaled."""
        self.clock = TurnClock(
            now,
            turn_timeout=config.turn_timeout,
            turn_warning=config.turn_warning,
            time_warning=config.time_warning,
        )
        self.teams = Teams(config.rules)
        self.lobby = Lobby(
            self.players,
            config.rules,
            self.teams,
            starter=starter,
            opened_at=now,
            lobby_timeout=config.lobby_timeout,
            tournament=bool(config.tournament),
            touch=self.clock.touch,
        )
        self.presence = Presence(self.players, config.grace)

    # What the parts keep, under the table's names for it (the bot, plugins and tests read them).
    starter = _Alias[str]("lobby", "starter")
    opened_at = _Alias[float]("lobby", "opened_at")
    last_activity = _Alias[float]("clock", "last_activity")
    turn_started = _Alias[float]("clock", "turn_started")
    warned = _Alias[bool]("clock", "warned")
    time_limit = _Alias[float]("clock", "time_limit")
    """Seconds from the deal to the match's end by time (0: untimed)."""
    dealt_at = _Alias[float]("clock", "dealt_at")
    time_warned = _Alias[bool]("clock", "time_warned")

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

    def seat_of(self, nick: str, *, computer: bool | None = False) -> int | None:
        """The seat of the person called ``nick`` (``computer=True``: of the computer player
        of that name; ``None``: of either): :func:`~unobot.core.seats.find_seat`."""
        return find_seat(self.players, nick, computer)

    @property
    def humans(self) -> int:
        """People seated (computer players not counted)."""
        return sum(1 for p in self.players if not p.computer)

    @property
    def computers(self) -> list[Player]:
        return [p for p in self.players if p.computer]

    def player(self, nick: str) -> Player | None:
        seat = self.seat_of(nick)
        return None if seat is None else self.players[seat]

    def has(self, nick: str) -> bool:
        return self.seat_of(nick) is not None

    def hand_of(self, nick: str) -> tuple[Card, ...]:
        game = self._running()
        return tuple(game.hand(self._seat(nick)))

    def hand_notice(self, nick: str, *, again: bool = False) -> HandNotice:
        """``nick``'s hand as it stands (``.cards``, a return, a restart), the cards they may
        play marked when it is their turn to play or to answer a penalty: the same notice the
        turn brings (:meth:`_turn_hand`). ``again``: they may have missed the last one
        (:attr:`HandNotice.again`)."""
        game = self._running()
        seat = self._seat(nick)
        hand = tuple(game.hand(seat))
        if seat != game.current or game.over:
            return HandNotice(hand, again=again)
        if game.phase is not Phase.PLAY and game.phase is not Phase.PENDING:
            return HandNotice(hand, again=again)
        return HandNotice(hand, playable=playable(game, seat), again=again)

    def status(self) -> Status | None:
        game = self.game
        if game is None or game.over or self.state is not State.PLAYING:
            return None
        stack = challenge = False
        rules = game.rules
        if game.phase is Phase.PENDING:
            stack = rules.stacking is not Stacking.NONE
            challenge = game.top.is_wild and rules.wd4_challenge and game.wd4_offender >= 0
        stack_text = game.stack_text() if stack else ""
        return Status(
            game.top,
            game.color,
            self.players[game.current].nick,
            game.phase,
            game.pending,
            tuple((p.nick, game.hand_size(s)) for s, p in enumerate(self.players)),
            stack_text,
            challenge,
            tuple(p.nick for s, p in enumerate(self.players) if game.eliminated(s)),
        )

    idle_for = _part("clock", TurnClock.idle_for)

    def is_timely(self, nick: str, action: type[Action]) -> bool:
        """Whether the table is waiting for this move of kind ``action`` (``Play``, ``Draw``,
        ``CallUno``, ``Catch`` …) by the person ``nick``: it is their turn and ``action`` is
        one made at a turn (a play, draw, pass, colour or challenge: even one the engine
        will refuse, whose reason they need to hear), or it is an UNO call or a catch that
        the engine offers them now (its window is open). The command throttle lets such a move
        through when others behind the same address spent the shared budget
        (``dispatch.CommandThrottle``). Reads only, changes nothing; cheap (the engine's legal
        actions are a cached tuple on the common path)."""
        game = self.game
        if self.state is not State.PLAYING or game is None or game.over or self.frozen is not None:
            return False
        seat = self.seat_of(nick)
        if seat is None or game.eliminated(seat):
            return False
        if action is Play and seat != game.current and game.jump_card(seat) is not None:
            return True  # Jump-In: a play out of turn is awaited too
        if action is not CallUno and action is not Catch:
            return seat == game.current
        return any(type(a) is action for a in game.legal_actions(seat))

    # --- the lobby (the journal knows these calls by the table's names) --------------------

    join = journaled(_part("lobby", Lobby.join))
    add_computer = journaled(_part("lobby", Lobby.add_computer))
    remove_computer = journaled(_part("lobby", Lobby.remove_computer))
    team = journaled(_part("lobby", Lobby.team))
    partner_of = _part("teams", Teams.partner_of)
    side_of = _part("teams", Teams.side_of)

    def team_names(self) -> tuple[tuple[str, ...], ...]:
        """The teams, in seat order of their first member (:meth:`Teams.names`)."""
        return self.teams.names(self.players, dealt=self.state is not State.LOBBY)

    @journaled
    def deal(self, nick: str, now: float, time_limit: float | None = None) -> Update:
        """Deal the first hand: the starter any time, anyone once the lobby time is up
        (:meth:`Lobby.deal` says what else a deal needs, and seats the teams).

        ``time_limit`` (seconds, from ``.deal 60m``) makes the match a timed one: hands follow
        each other until the time is up (or a target score is reached), then
        ``Match.end_by_time`` ends it. Without it the rules' ``time_limit_minutes`` applies.
        """
        rules, limit = self.lobby.deal(nick, now, time_limit)
        self.match = self._new_match(rules)
        self.state = State.PLAYING
        self.lobby.open = False
        self.clock.start(now, limit)
        try:
            return self._start_hand(now, Update())
        except BaseException:
            # Whatever failed below, the table is a lobby again, never half-dealt: every
            # command would otherwise answer "not dealt yet" and .deal "already dealt".
            self.match = None
            self.state = State.LOBBY
            self.lobby.open = True
            self.hand_number = 0
            self.clock.time_limit = 0.0
            raise

    def _new_match(self, rules: HouseRules) -> Match:
        # The starter plays first: with the dealer at the last seat, the seat "left of the
        # dealer" is seat 0 (other first-player rules choose for themselves).
        return Match(len(self.players), rules, self.rng, dealer=len(self.players) - 1)

    def _start_hand(self, now: float, update: Update) -> Update:
        assert self.match is not None
        events = self.match.start_hand()
        self.hand_number += 1
        game = self._running()
        first = self.hand_number == 1
        update.events.append(
            Dealt(
                self.names,
                self.config.rules.name,
                self.hand_number,
                int(self.time_limit) if first else 0,
                self.match.rules.target_score if first else 0,
                self.team_names() if first else (),
                self.match.rules if first else None,
                self.teams.kind is TeamGame.TWO_TEAMS,
            )
        )
        update.events.append(EngineEvents(tuple(events), self.names, self.teams.kind))
        for seat, player in enumerate(self.players):
            if not player.computer:  # a computer seat reads its hand from the game, not NOTICEs
                update.hands[player.nick] = HandNotice(tuple(game.hand(seat)))
        for player in self.players:
            player.timeouts = 0
        self._new_turn(now)
        self._turn_hand(update)  # the first player's deal notice says it is their turn
        self.last_activity = now
        update.status = self.status()
        return update

    @journaled
    def penalize(self, nick: str, cards: int, now: float) -> Update:
        """A penalty draw an admin hands out (001: "a player who makes any suggestions to
        others regarding which cards to play must draw two"); the turn does not move."""
        if not 1 <= cards <= 10:
            raise UnoError(_("a penalty is 1 to 10 cards"))
        seat = self._seat(nick)
        game = self._running()
        events = game.penalize(seat, cards, DrawReason.ILLEGAL_PLAY)
        update = Update([Penalized(self.players[seat].nick, cards)])
        drawn = next((e.cards for e in events if type(e) is CardsDrawn), ())
        if not self.players[seat].computer:
            update.hands[self.players[seat].nick] = HandNotice(tuple(game.hand(seat)), tuple(drawn))
        self.last_activity = now
        update.status = self.status()
        return update

    @journaled
    def leave(self, nick: str, now: float) -> Update:
        """``.leave``: out of the lobby at once; in a game the hand goes under the draw pile."""
        seat = self._seat(nick)
        if self.state is State.LOBBY:
            return self._leave_lobby(seat)
        return self._remove(seat, _("left the game"), now, [])

    def _leave_lobby(self, seat: int) -> Update:
        update = self.lobby.leave(seat)
        if update.finished:
            self.state = State.FINISHED
        return update

    @journaled
    def stop(self, nick: str) -> Update:
        """End the table at once (the caller has checked the right to)."""
        self.state = State.FINISHED
        self.lobby.open = False
        self._deferred.clear()
        return Update([Stopped(nick)], finished=True)

    # --- playing ---------------------------------------------------------------------------

    # Every move takes ``computer``: True when a computer player of that name makes it (the
    # bot's driver of computer seats); people's commands leave it False and so can never move
    # a computer seat, whatever nick they take.

    @journaled
    def play(
        self,
        nick: str,
        card: Card,
        color: Color | None,
        now: float,
        *,
        uno: bool = False,
        computer: bool = False,
        target: str | None = None,
    ) -> Update:
        """Play ``card``; ``uno``: UNO called with it (``.p r 5 uno``); ``target``: with
        Seven-O, whom a 7 swaps hands with (``.p r7 bob``; without one the player is asked).

        With an ``illegal_play_penalty`` (knockout) a card that is held but can't go on the
        pile is taken back and costs that many cards; the turn stays with the player.

        An early ``uno`` (the play leaves more than one card) never costs the move: where the
        rules penalise a false UNO (knockout) the engine plays the card and deals the penalty;
        elsewhere the engine refuses the call alone (it checks the card first), so the card
        is played without it and the player is told (:class:`EarlyUno`). A replay of the
        journaled call takes the same path.
        """
        swap = -1 if target is None else self._target_seat(target)
        try:
            try:
                return self._act(nick, Play(card, color, uno, swap), now, computer=computer)
            except errors.UnoNotNeeded:
                if not uno:
                    raise
            seat = self._seat(nick, computer)
            update = self._act(nick, Play(card, color, False, swap), now, computer=computer)
            left = 0
            for batch in update.events:
                if type(batch) is EngineEvents:
                    for e in batch.events:  # as the play left it (before a Seven-O swap)
                        if type(e) is CardPlayed and e.seat == seat:
                            left = e.cards_left
                        elif type(e) is CardsDiscarded and e.seat == seat:
                            left = e.left
            update.notes.append(EarlyUno(self.players[seat].nick, left))
            return update
        except errors.CardNotPlayable:
            penalty = self.config.rules.illegal_play_penalty
            if not penalty:
                raise
            game = self._running()
            seat = self._seat(nick, computer)
            events = game.penalize(seat, penalty, DrawReason.ILLEGAL_PLAY)
            return self._after(events, None, now, Update())

    @journaled
    def swap(self, nick: str, target: str, now: float, *, computer: bool = False) -> Update:
        """Seven-O: name whom the 7 just played swaps hands with (``.swap bob``)."""
        if not self._running().rules.seven_o:
            raise errors.CannotSwap(_("Seven-O is not played here: hands are never swapped"))
        return self._act(nick, Swap(self._target_seat(target)), now, computer=computer)

    def _target_seat(self, target: str) -> int:
        seat = self.seat_of(target, computer=None)
        if seat is None:
            raise errors.CannotSwap(_("{nick} is not playing in this hand", nick=target[:30]))
        game = self.game
        if game is not None and game.eliminated(seat):
            raise errors.OutOfHand(self.players[seat].nick)
        return seat

    @journaled
    def draw(self, nick: str, now: float, *, computer: bool = False) -> Update:
        return self._act(nick, Draw(), now, computer=computer)

    @journaled
    def pass_turn(self, nick: str, now: float, *, computer: bool = False) -> Update:
        return self._act(nick, Pass(), now, computer=computer)

    @journaled
    def choose_color(
        self, nick: str, color: Color, now: float, *, computer: bool = False
    ) -> Update:
        """Name the colour: of a Wild turned up first, or (No Mercy) of the Wild Colour
        Roulette just played on this player, who then turns cards up until it comes."""
        game = self._running()
        if game.phase is Phase.ROULETTE:
            seat = self.seat_of(nick, computer=computer)
            if seat is not None and seat != game.current and not game.eliminated(seat):
                # "The next player chooses a color": say so to whoever played it.
                raise UnoError(
                    _(
                        "{nick} names the roulette's colour, not you",
                        nick=self.players[game.current].nick,
                    )
                )
        return self._act(nick, ChooseColor(color), now, computer=computer)

    @journaled
    def challenge(self, nick: str, now: float, *, computer: bool = False) -> Update:
        return self._act(nick, Challenge(), now, computer=computer)

    @journaled
    def call_uno(self, nick: str, now: float, *, computer: bool = False) -> Update:
        return self._act(nick, CallUno(), now, in_turn=False, computer=computer)

    @journaled
    def catch(self, nick: str, target: str, now: float, *, computer: bool = False) -> Update:
        seat = self.seat_of(target, computer=None)
        if seat is None:
            raise errors.CannotCatch(target[:30])
        return self._act(nick, Catch(seat), now, in_turn=False, computer=computer)

    def _act(
        self,
        nick: str,
        action: Action,
        now: float,
        *,
        in_turn: bool = True,
        computer: bool = False,
    ) -> Update:
        game = self._running()
        seat = self._seat(nick, computer)
        if game.eliminated(seat):  # No Mercy: they wait for the hand's end (not "X's turn")
            raise errors.OutOfHand()
        if in_turn and seat != game.current and not self._jumping(game, seat, action):
            raise errors.NotYourTurn(self.players[game.current].nick)
        assert self.match is not None
        events = self.match.apply(seat, action)
        player = self.players[seat]
        update = Update()
        if player.away_since is not None:
            update.events.append(self.presence.back(player))
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
        before = self.clock.seat
        played, chose, jumped = move_notices(
            events, game, self.players, names, actor, update, after_play=self.config.hand_after_play
        )
        if jumped is not None:
            self._jumped = jumped or None
        if events:
            clock = self.clock
            clock.last_activity = now
            if actor is not None or game.current != before:
                # an out-of-turn UNO call doesn't reset the mover's clock
                clock.new_turn(now, game.current)
        batch = EngineEvents(tuple(events), names, self.teams.kind) if events else None
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
            return self._next_hand(now, update)
        if game.current != before or (played and game.current == actor) or chose == game.current:
            # A new turn (a Skip with two players: the same player's), or the colour of a wild
            # first card just named: only now may they play, and what they may play is known.
            self._turn_hand(update)
        update.status = self.status()
        return update

    def _next_hand(self, now: float, update: Update) -> Update:
        """A hand has ended (and not the match): the totals, then the next hand, or the
        match's end on them if this was the last hand of a timed match."""
        if self._last_hand():
            return self._end_round(update)
        update.events.append(self._totals())
        return self._start_hand(now, update)

    def _jumping(self, game: Game, seat: int, action: Action) -> bool:
        """Jump-In: is this out-of-turn play a jump the engine may take? A play of the card a
        faster player just jumped in with is answered "too late: <nick> jumped first"."""
        if type(action) is not Play or not game.rules.jump_in:
            return False
        card = action.card  # type: ignore[union-attr]
        if game.jump_card(seat) is card:
            return True
        jumped = self._jumped
        if jumped is not None and jumped[1] is card and game.top is card and game.holds(seat, card):
            raise errors.JumpTooLate(jumped[0])
        # Not "it is <nick>'s turn" alone: which part of the rule the play missed.
        raise game.jump_refusal(seat, card, self.players[game.current].nick)

    def _last_hand(self) -> bool:
        """Was the hand in play the last one: warned of the time, under ``warning_ends_round``?"""
        match = self.match
        return match is not None and self.clock.last_hand(match.rules.warning_ends_round)

    def _end_round(self, update: Update) -> Update:
        """End the match on the totals after its last hand (no new one after the warning)."""
        assert self.match is not None
        events = self.match.end_by_time()
        self.state = State.FINISHED
        update.events += [RoundOver(), EngineEvents(tuple(events), self.names, self.teams.kind)]
        update.finished = True
        return update

    def _totals(self) -> Totals:
        """The match's totals after a hand, as the channel reads them (:meth:`Teams.totals`)."""
        match = self.match
        assert match is not None
        return self.teams.totals(self.players, match.totals, match.rules)

    def _turn_hand(self, update: Update) -> None:
        """The turn has just reached the player to move: their hand goes with it, the cards
        they may play marked (:func:`~unobot.core.hands.turn_hand`), unless turned off."""
        game = self.game
        if self.config.turn_hand and game is not None:
            turn_hand(game, self.players, update)

    # --- timers ----------------------------------------------------------------------------

    def _new_turn(self, now: float) -> None:
        game = self.game
        self.clock.new_turn(now, game.current if game is not None else -1)

    def deadlines(self) -> dict[str, float]:
        """When the bot should call :meth:`on_timer`, by timer name: the turn's (``warn``,
        ``turn``), the held seats' (``away:<key>``), a timed match's (``time-warn``,
        ``time``)."""
        if self.state is not State.PLAYING:
            return {}
        out: dict[str, float] = {}
        self.clock.turn_deadlines(out)
        self.presence.deadlines(out)
        if self.match is not None:
            self.clock.match_deadlines(out)
        return out

    def on_timer(self, name: str, now: float) -> Update:
        """A deadline from :meth:`deadlines` has come; stale ones do nothing. (The bot's timers
        are re-armed lazily and often fire early: a stale one changes nothing, so it is not
        journaled either.)"""
        due = self.deadlines().get(name)
        if due is None or due > now + 1e-6:
            return Update()
        return self.timer_due(name, now)

    @journaled
    def timer_due(self, name: str, now: float) -> Update:
        """What the deadline ``name`` does, once :meth:`on_timer` found it due."""
        game = self._running()
        if name == "warn":
            return Update([Warned(self.players[game.current].nick, self.clock.warn_turn(now))])
        if name == "turn":
            return self._timeout(now)
        if name == "time-warn":
            left = self.clock.warn_time()
            return Update([TimeWarning(left, self._last_hand())])
        if name == "time":
            return self._time_up()
        seat = self.presence.expired(name, now)
        if seat is None:
            return Update()
        why = _("gone for {seconds}s", seconds=int(self.config.grace))
        return self._remove(seat, why, now, [])

    def _time_up(self) -> Update:
        """A timed match's time is up: it ends on the totals."""
        assert self.match is not None
        counted = self.match.rules.scoring is Scoring.OWN_POINTS and self.match.hand_in_progress
        hands = len(self.match.hands)
        events = self.match.end_by_time()
        if len(self.match.hands) > hands:
            # The unfinished hand counted: it is reported like a finished one (its cards
            # and points in the channel, its line on a tournament's score sheet).
            events = [HandEnded(self.match.hands[-1]), *events]
        self.state = State.FINISHED
        pre = [*self._deferred, TimeUp(counted)]
        self._deferred = []
        return Update(
            [*pre, EngineEvents(tuple(events), self.names, self.teams.kind)], finished=True
        )

    def _timeout(self, now: float) -> Update:
        game = self._running()
        seat = game.current
        player = self.players[seat]
        player.timeouts += 1
        pre: list[TableEvent] = [TimedOut(player.nick, player.timeouts)]
        if player.timeouts >= self.config.max_timeouts:
            return self._remove(seat, _("{n} turns timed out", n=player.timeouts), now, pre)
        # One card and the turn moves on, whatever the rules would let them do: an idle player
        # must not hold up the table, nor keep a playable card's advantage by idling. At No
        # Mercy that card may put them over the mercy limit and end the hand: both ways go
        # through the match, which records the hand, and _after deals the next one.
        assert self.match is not None
        events = self.match.force_pass(seat)
        return self._after(events, seat, now, Update(pre))

    # --- presence --------------------------------------------------------------------------

    @journaled
    def catch_up(self, since: float, now: float, why: str = "") -> None:
        """Nobody could play between ``since`` and ``now`` (the bot was out of the channel, or
        not running): nobody loses that time. The player to move gets a whole turn again (they
        could neither see the game nor be heard), and the other clocks (seats held for players
        who had left before, a timed match, the idle stop) move on by the time lost. ``why``
        the bot was away (``kick``, ``disconnect``, ``restart``) changes nothing here: it is
        kept in the journal so that a replay says what the channel heard."""
        if self.dealt:
            self.presence.catch_up(since, max(0.0, now - since))
        self.clock.catch_up(since, now, self.dealt)

    @journaled
    def rename(self, old: str, new: str) -> bool:
        """Follow a nick change (:meth:`Presence.rename`); True if ``old`` sits here. The
        starter's name follows too."""
        renamed = self.presence.rename(old, new)
        if renamed is None:
            return False
        for was, now in renamed:
            if irc_eq(self.starter, was):
                self.starter = now
        return True

    def depart(self, nick: str, now: float) -> Update:
        """``nick`` left the channel (part, quit, kick): lobby seats go, game seats are held.

        Every part and quit in the channel comes here; only a seated player's is a change,
        and only that is journaled (:meth:`_depart`)."""
        if self.seat_of(nick) is None or self.finished:
            return Update()
        return self._depart(nick, now)

    @journaled
    def _depart(self, nick: str, now: float) -> Update:
        seat = self.seat_of(nick)
        if seat is None or self.finished:
            return Update()
        if self.state is State.LOBBY:
            return self._leave_lobby(seat)
        return Update([self.presence.away(self.players[seat], now)])

    def arrive(self, nick: str) -> Update:
        """``nick`` joined the channel (or spoke in it): if their seat is held, they have it
        back. Every command in the channel comes here first; only a return is a change, and
        only that is journaled (:meth:`_arrive`)."""
        player = self.player(nick)
        if player is None or player.away_since is None:
            return Update()
        return self._arrive(nick)

    @journaled
    def _arrive(self, nick: str) -> Update:
        player = self.player(nick)
        if player is None or player.away_since is None:
            return Update()
        update = Update([self.presence.back(player)])
        game = self.game
        # Whatever was sent while they were gone (a dropped connection, a restart of the bot's
        # own server) may never have reached them: their hand, marked on their turn.
        if (
            self.state is State.PLAYING
            and game is not None
            and not game.over
            and not player.computer
            and game.hand_size(self._seat(player.nick))
        ):
            update.hands[player.nick] = self.hand_notice(player.nick, again=True)
        return update

    # --- removal ---------------------------------------------------------------------------

    def _remove(self, seat: int, why: str, now: float, pre: list[TableEvent]) -> Update:
        """Take ``seat`` out mid-game; with one player left they win and the match ends.

        The engine puts the cards under the draw pile and renumbers the seats after ``seat``;
        the table drops the same seat from its list so nicks keep matching seats. With two
        players the loser keeps their seat in :attr:`players`, because the final totals (and
        whoever reads them with our names) still count two seats.
        """
        assert self.match is not None
        game = self._running()
        names = self.names
        player = self.players[seat]
        was_turn = game.current == seat
        held = not game.eliminated(seat)
        update = Update([*self._deferred, *pre, Removed(player.nick, why, held)])
        self._deferred = []
        self.last_activity = now
        events = self.match.remove_player(seat)
        after: list[Event] = []
        if self.match.players < len(self.players):
            # The engine dropped the seat: so does the table. At No Mercy that may end the
            # hand (the leaver was the last one standing beside one player): what follows
            # their removal is in the new numbering, and the next hand is dealt below.
            del self.players[seat]
            cut = next((i + 1 for i, e in enumerate(events) if type(e) is SeatRemoved), 0)
            events, after = events[:cut], events[cut:]
        update.events.append(EngineEvents(tuple(events), names, self.teams.kind))
        if after:
            update.events.append(EngineEvents(tuple(after), self.names, self.teams.kind))
        if self._ended_by_removal(update, player):
            return update
        if any(type(e) is HandEnded for e in after):
            return self._next_hand(now, update)
        if was_turn:
            self._new_turn(now)
            self._turn_hand(update)
        else:  # the same player's turn goes on, under a seat number that may have moved
            self.clock.seat = self._running().current
        update.status = self.status()
        return update

    def _ended_by_removal(self, update: Update, player: Player) -> bool:
        """After the engine took ``player``'s seat (its events already in ``update``): whether
        the game ended with it (the match is over, or no person is left); if not, the next
        starter is chosen when it was theirs. Shared by every kind of table."""
        assert self.match is not None
        if self.match.over:
            self.state = State.FINISHED
            update.finished = True
            return True
        if not self.humans and not self.config.tournament:
            # Computer players alone would play on for ever in an empty channel: the game ends
            # here (recorded like a stop: only if a hand of a match was completed). A
            # tournament's game has its director's clock to end it, and is played out.
            self.state = State.FINISHED
            update.events.append(Stopped("", _("no person is left in the game")))
            update.finished = True
            return True
        if irc_eq(player.nick, self.starter):
            self.starter = next_starter(self.players)
        return False

    # --- helpers ---------------------------------------------------------------------------

    def _running(self) -> Game:
        game = self.game
        if game is None or self.state is not State.PLAYING:
            raise UnoError(_("the cards have not been dealt yet"))
        return game

    def _seat(self, nick: str, computer: bool = False) -> int:
        seat = self.seat_of(nick, computer=computer)
        if seat is None:
            raise errors.NotAPlayer()
        return seat
