"""One channel's game: lobby, seats, nick -> seat, turn and grace timers as data.

A table wraps :class:`unobot.engine.Match` and speaks nicks where the engine speaks seats. It does
no I/O and reads no clock: every method takes ``now`` and returns an :class:`Update` (what
happened, who must be sent their hand, the state to show), and :meth:`Table.deadlines` says when
the bot should call :meth:`Table.on_timer`. That keeps the whole table testable with plain values.

Timeouts and removals go through the engine's own interventions (``Game.force_pass``,
``Match.remove_player``), so everything a player can observe that the intervention doesn't itself
change (a pending UNO catch, a WD4 that may be challenged, the turn timer of someone else) stays.
The table only keeps its seat list in step with the engine's renumbering.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from random import Random
from typing import Any, TypeVar

from unobot.ai.strategy import LEVELS
from unobot.core.updates import (
    Away,
    Back,
    Dealt,
    EarlyUno,
    EngineEvents,
    HandNotice,
    Joined,
    Left,
    Opened,
    Penalized,
    Removed,
    RoundOver,
    Status,
    Stopped,
    TableEvent,
    TeamAsked,
    TeamJoined,
    TeamMade,
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
    ColorChosen,
    DrawReason,
    Event,
    HandEnded,
    HandsRotated,
    HandsSwapped,
    JumpedIn,
    MatchEnded,
    SeatRemoved,
)
from unobot.engine.game import Game
from unobot.engine.rules import (
    AfterDraw,
    HouseRules,
    NoPlayableCard,
    Scoring,
    Stacking,
    TeamGame,
)
from unobot.i18n import domain
from unobot.irc.casemap import irc_eq, irc_lower

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


@dataclass(slots=True)
class Player:
    nick: str
    key: str
    """Identity for preferences (account or folded nick); it survives nick changes."""
    timeouts: int = 0
    """Turn timeouts in a row."""
    away_since: float | None = None
    """When the player left the channel; their seat is held until ``away_since + grace``."""
    level: str = ""
    """A computer player's level (``easy``, ``normal``, ``hard``); empty for a person."""

    @property
    def computer(self) -> bool:
        return bool(self.level)


COMPUTER_IDENT = "$bot:"
"""Prefix of a computer player's key (``$bot:hardbot1``). IRC nicks can't contain ``$``, so no
person's key (a folded nick, or ``$a:`` and an account) can ever equal a computer's: their
preferences and stats never mix."""

_NAME = re.compile(r"[A-Za-z\[\]\\`_^{|}][A-Za-z0-9\[\]\\`_^{|}-]{0,15}")
"""A name for a computer player: an RFC 2812 nick of at most 16 characters."""


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
        self.config = config or TableConfig()
        self.rng = rng or Random()
        self.starter = starter
        self.players: list[Player] = [Player(starter, starter_key, level=starter_level)]
        self.state = State.LOBBY
        self.opened_at = now
        self.last_activity = now
        self.match: Match | None = None
        self.turn_started = now
        self.warned = False
        self.hand_number = 0
        self._turn_seat = -1
        self._deferred: list[TableEvent] = []
        self.time_limit = 0.0
        """Seconds from the deal to the match's end by time (0: untimed)."""
        self.dealt_at = now
        self.time_warned = False
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
        self.pairs: list[tuple[Player, Player]] = []
        """Teams agreed in the lobby (``.team``), in the order they were made; at the deal
        the rest are paired in join order (:meth:`_seat_teams`). Players, not nicks: a pair
        survives a nick change."""
        self._asks: list[tuple[Player, Player]] = []
        """``.team`` requests not answered yet: (who asked, whom)."""
        self.sides: list[tuple[Player, int]] = []
        """Two teams: who chose a team in the lobby (``.team a``, ``.team <nick>``) and which
        (0: A, 1: B), in the order chosen; at the deal the rest are dealt to the smaller team
        in join order (:meth:`_seat_two_teams`), and after it every player is here."""

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
        of that name; ``None``: of either).

        People's commands, nick changes and departures look up people only: somebody who
        takes a computer player's name on the network can't move for it or make it leave.
        """
        players = self.players
        # The nick as the table wrote it (every hand and update names players so) is found
        # without folding; folding is for what people type.
        for seat, player in enumerate(players):
            if player.nick == nick and (computer is None or bool(player.level) == computer):
                return seat
        low = irc_lower(nick)
        for seat, player in enumerate(players):
            if irc_lower(player.nick) == low and (computer is None or player.computer == computer):
                return seat
        return None

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
        return HandNotice(hand, playable=self._playable(game, seat), again=again)

    @staticmethod
    def _playable(game: Game, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` may play now, in the order hands are shown."""
        playable = {a.card for a in game.legal_actions(seat) if type(a) is Play}
        return tuple(sorted(playable, key=lambda c: c.code))

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

    def idle_for(self, now: float) -> float:
        return now - self.last_activity

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

    # --- lobby -----------------------------------------------------------------------------

    @journaled
    def join(self, nick: str, key: str, now: float) -> Update:
        if self.state is not State.LOBBY:
            raise UnoError(_("this game has already been dealt: wait for the next one"))
        if self.has(nick):
            raise UnoError(_("you are already in this game"))
        if self.seat_of(nick, computer=True) is not None:
            raise UnoError(_("a computer player here has your nick: .removebot it, or change nick"))
        if len(self.players) >= self.config.rules.max_players:
            raise UnoError(_("the game is full ({n} players)", n=self.config.rules.max_players))
        self.players.append(Player(nick, key))
        self.last_activity = now
        return Update([Joined(nick, len(self.players))])

    @journaled
    def add_computer(self, level: str, name: str | None, now: float, own_nick: str = "") -> Update:
        """Seat a computer player of ``level`` in the lobby (the caller has checked the right
        to). ``name``: a nick-like name (default ``<Level>Bot<n>``, the first free one);
        ``own_nick``: the IRC bot's own nick, which no computer player may take."""
        if level not in LEVELS:
            raise UnoError(_("the levels are {levels}", levels=", ".join(LEVELS)))
        if self.state is not State.LOBBY:
            raise UnoError(_("computer players join before the deal"))
        limit = self.config.rules.max_players
        if len(self.players) >= limit:
            raise UnoError(_("the game is full ({n} players)", n=limit))
        if name is None:
            stem = level.capitalize() + "Bot"
            n = 1
            while self.seat_of(f"{stem}{n}", computer=None) is not None or irc_eq(
                f"{stem}{n}", own_nick
            ):
                n += 1
            name = f"{stem}{n}"
        elif not _NAME.fullmatch(name):
            raise UnoError(
                _(
                    "a computer player's name is a nick: up to 16 letters, digits or "
                    "{chars}, not starting with a digit or -",
                    chars="[]\\`_^{|}-",
                )
            )
        elif self.seat_of(name, computer=None) is not None or irc_eq(name, own_nick):
            raise UnoError(_("{name} is already taken here: choose another name", name=name))
        self.players.append(Player(name, COMPUTER_IDENT + irc_lower(name), level=level))
        self.last_activity = now
        return Update([Joined(name, len(self.players), level)])

    @journaled
    def remove_computer(self, name: str | None, now: float) -> Update:
        """Take a computer player out of the lobby: ``name``, or the last one added."""
        if self.state is not State.LOBBY:
            raise UnoError(_("computer players can only be removed before the deal"))
        if name is None:
            seats = [s for s, p in enumerate(self.players) if p.computer]
            if not seats:
                raise UnoError(_("there is no computer player in this game"))
            seat = seats[-1]
        else:
            found = self.seat_of(name, computer=True) if _NAME.fullmatch(name) else None
            if found is None:
                raise UnoError(_("no computer player of that name is in this game"))
            seat = found
        player = self.players.pop(seat)
        self._unpair(player)
        self.last_activity = now
        return Update([Left(player.nick)])

    @journaled
    def deal(self, nick: str, now: float, time_limit: float | None = None) -> Update:
        """Deal the first hand: the starter any time, anyone once the lobby time is up.

        ``time_limit`` (seconds, from ``.deal 60m``) makes the match a timed one: hands follow
        each other until the time is up (or a target score is reached), then
        ``Match.end_by_time`` ends it. Without it the rules' ``time_limit_minutes`` applies.
        """
        if self.state is not State.LOBBY:
            raise UnoError(_("the cards are already dealt"))
        rules = self.config.rules
        lobby_left = self.opened_at + self.config.lobby_timeout - now
        if not irc_eq(nick, self.starter) and lobby_left > 0 and self.has(self.starter):
            raise UnoError(
                _(
                    "only {nick} can deal for now; anyone can deal in {seconds}s",
                    nick=self.starter,
                    seconds=int(lobby_left) + 1,
                )
            )
        need = max(2, rules.min_players)
        if not self.humans and not self.config.tournament:
            raise UnoError(_("a game needs at least one person"))
        if len(self.players) < need:
            raise UnoError(_("{n} players are needed to deal: others can .join", n=need))
        two_teams = rules.teams and rules.team_game is TeamGame.TWO_TEAMS
        if rules.teams and len(self.players) not in rules.team_sizes:
            n = len(self.players)
            if two_teams:  # at most 10 can sit: an odd number wants one more
                raise UnoError(
                    _(
                        "two teams are dealt to 4, 6, 8 or 10 players, not {n}: others can .join",
                        n=n,
                    )
                )
            if n < 6:
                raise UnoError(
                    _("teams of two are dealt to 4 or 6 players, not {n}: others can .join", n=n)
                )
            raise UnoError(
                _("teams of two are dealt to 4 or 6 players, not {n}: someone must .leave", n=n)
            )
        if two_teams:
            self._check_sides()
        problem = rules.deal_problem(len(self.players))
        if problem:  # rules made before validate() checked this (e.g. stored ones)
            raise UnoError(_("can't deal: {problem}", problem=problem))
        if two_teams:
            self._seat_two_teams()
        elif rules.teams:
            self._seat_teams()
        limit = rules.time_limit_minutes * 60.0
        if time_limit is not None:
            if not 10 <= time_limit <= 24 * 3600:
                raise UnoError(_("a time limit is 10s to 24h, e.g. .deal 60m"))
            # The match reads only whether there is a limit (it then deals hand after hand):
            # the table owns the clock, to the second.
            rules = dataclasses.replace(rules, time_limit_minutes=math.ceil(time_limit / 60))
            limit = time_limit
        self.match = self._new_match(rules)
        self.state = State.PLAYING
        self.time_limit = limit
        self.dealt_at = now
        try:
            return self._start_hand(now, Update())
        except BaseException:
            # Whatever failed below, the table is a lobby again, never half-dealt: every
            # command would otherwise answer "not dealt yet" and .deal "already dealt".
            self.match = None
            self.state = State.LOBBY
            self.hand_number = 0
            self.time_limit = 0.0
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
                self._teams is TeamGame.TWO_TEAMS,
            )
        )
        update.events.append(EngineEvents(tuple(events), self.names, self._teams))
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
        player = self.players.pop(seat)
        self._unpair(player)
        if not self.humans and not self.config.tournament:
            # Computer players alone don't keep a lobby open; a tournament's table is the
            # director's, whose entrants may all be computers (people who never came).
            self.state = State.FINISHED
            return Update([Left(player.nick)], finished=True)
        new_starter = None
        if irc_eq(player.nick, self.starter):
            self.starter = new_starter = self._next_starter()
        return Update([Left(player.nick, new_starter)])

    def _next_starter(self) -> str:
        """Who deals when the starter goes: the first person left, else (a tournament table of
        computer entrants) the first player."""
        people = [p.nick for p in self.players if not p.computer]
        return people[0] if people else (self.players[0].nick if self.players else "")

    @journaled
    def stop(self, nick: str) -> Update:
        """End the table at once (the caller has checked the right to)."""
        self.state = State.FINISHED
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
        before = self._turn_seat
        gained: dict[int, list[Card]] = {}
        played = False
        moved: set[int] = set()
        jump_by = -1
        chose = -1
        for event in events:
            if type(event) is CardsDrawn and event.cards:
                gained.setdefault(event.seat, []).extend(event.cards)
            elif type(event) is CardPlayed:
                jump = jump_by == event.seat
                self._jumped = (names[event.seat], event.card) if jump else None
                played = played or event.seat == actor
            elif type(event) is JumpedIn:
                jump_by = event.seat
            elif type(event) is HandsSwapped:
                moved.update((event.seat, event.target))
            elif type(event) is HandsRotated:
                moved.update(range(len(event.counts)))
            elif type(event) is ColorChosen:
                chose = event.seat
        for seat in moved:
            # Seven-O: a hand that changed owners goes to its new owner at once, and only
            # to them (a private notice each; the channel hears only the counts).
            if game.hand_size(seat) and not self.players[seat].computer:
                update.hands[names[seat]] = HandNotice(tuple(game.hand(seat)))
        for seat, cards in gained.items():
            if game.hand_size(seat) and not self.players[seat].computer:
                hint = self._draw_hint(game) if seat == actor else ""
                update.hands[names[seat]] = HandNotice(tuple(game.hand(seat)), tuple(cards), hint)
        if (
            played
            and self.config.hand_after_play
            and actor is not None
            and game.hand_size(actor)
            and not self.players[actor].computer
        ):
            update.hands.setdefault(names[actor], HandNotice(tuple(game.hand(actor))))
        if events:
            self.last_activity = now
            if actor is not None or game.current != self._turn_seat:
                self._new_turn(now)  # an out-of-turn UNO call doesn't reset the mover's clock
        batch = EngineEvents(tuple(events), names, self._teams) if events else None
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
            if self._last_hand():
                return self._end_round(update)
            update.events.append(self._totals())
            return self._start_hand(now, update)
        if game.current != before or (played and game.current == actor) or chose == game.current:
            # A new turn (a Skip with two players: the same player's), or the colour of a wild
            # first card just named: only now may they play, and what they may play is known.
            self._turn_hand(update)
        update.status = self.status()
        return update

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
        return (
            match is not None
            and bool(self.time_limit)
            and self.time_warned
            and match.rules.warning_ends_round
        )

    def _end_round(self, update: Update) -> Update:
        """End the match on the totals after its last hand (no new one after the warning)."""
        assert self.match is not None
        events = self.match.end_by_time()
        self.state = State.FINISHED
        update.events += [RoundOver(), EngineEvents(tuple(events), self.names, self._teams)]
        update.finished = True
        return update

    def _totals(self) -> Totals:
        match = self.match
        assert match is not None
        rules = match.rules
        if rules.teams and rules.team_game is TeamGame.TWO_TEAMS:  # by the team's letter
            return Totals(
                (("A", match.totals[0]), ("B", match.totals[1])),
                rules.target_score,
                rules.scoring is Scoring.OWN_POINTS,
                lettered=True,
            )
        if rules.teams:  # partners' totals are the team's: shown once per team
            teams = self.team_names()
            return Totals(
                tuple((" + ".join(team), match.totals[t]) for t, team in enumerate(teams)),
                rules.target_score,
                rules.scoring is Scoring.OWN_POINTS,
            )
        return Totals(
            tuple(zip(self.names, match.totals, strict=True)),
            rules.target_score,
            rules.scoring is Scoring.OWN_POINTS,
        )

    def _turn_hand(self, update: Update) -> None:
        """The turn has just reached the player to move: their hand goes with it, the cards
        they may play marked. If the update sends them their hand anyway (the deal, cards they
        had to draw) that notice is marked instead: never two copies of one hand in a turn.
        Not while they must first pick a colour or decide on a drawn card (the draw's notice
        says what they may do)."""
        game = self.game
        if not self.config.turn_hand or game is None or game.over:
            return
        if game.phase is not Phase.PLAY and game.phase is not Phase.PENDING:
            return
        seat = game.current
        player = self.players[seat]
        if player.computer or not game.hand_size(seat):
            return
        marked = self._playable(game, seat)
        sent = update.hands.get(player.nick)
        if sent is not None:
            update.hands[player.nick] = dataclasses.replace(sent, playable=marked)
        else:
            hand = tuple(game.hand(seat))
            update.hands[player.nick] = HandNotice(hand, playable=marked, optional=True)

    def _draw_hint(self, game: Game) -> str:
        """What the player who just drew may do now, as the rules say (empty: turn over)."""
        if game.phase is not Phase.DRAWN:
            return ""
        card = game.drawn
        if card is None:
            # Only with any-card (irc-classic): the drawn card can't be played, but a card
            # held back (a draw while holding a playable card) still may.
            return _("You may play any playable card, or .pass")
        text = card.text
        how = _("{card} with {command} <colour>", card=text, command=f".play {text.lower()}")
        how = how if game.names_color(card) else text
        rules = game.rules
        if (
            rules.no_playable is NoPlayableCard.DRAW_UNTIL_PLAYABLE
            or rules.after_draw is AfterDraw.DRAWN_CARD_MUST
        ):
            return _("You must play {card}", card=how)
        if rules.after_draw is AfterDraw.ANY_CARD:
            return _("You may play {card} or any playable card, or .pass", card=how)
        return _("Play {card} or .pass (only the card you drew)", card=how)

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
            if player.away_since is not None:  # two seats may share a key (one account)
                name = "away:" + irc_lower(player.key)
                out[name] = min(out.get(name, math.inf), player.away_since + cfg.grace)
        if self.time_limit and self.match is not None:
            end = self.dealt_at + self.time_limit
            if not self.time_warned:
                out["time-warn"] = end - self._time_warning()
            out["time"] = end
        return out

    def _time_warning(self) -> float:
        """How long before the end of a timed match the channel is warned: 5 minutes of an
        hour, a fifth of a short game."""
        if self.config.time_warning > 0:
            return min(self.config.time_warning, self.time_limit)
        return min(300.0, self.time_limit / 5)

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
            self.warned = True
            left = int(self.turn_started + self.config.turn_timeout - now + 0.5)
            return Update([Warned(self.players[game.current].nick, left)])
        if name == "turn":
            return self._timeout(now)
        if name == "time-warn":
            self.time_warned = True
            last = self._last_hand()
            return Update([TimeWarning(int(self._time_warning() + 0.5), last)])
        if name == "time":
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
                [*pre, EngineEvents(tuple(events), self.names, self._teams)], finished=True
            )
        for seat, player in enumerate(self.players):
            away = player.away_since  # of this seat, not another one of the same key
            if (
                name == "away:" + irc_lower(player.key)
                and away is not None
                and away + self.config.grace <= now + 1e-6
            ):
                return self._remove(
                    seat, _("gone for {seconds}s", seconds=int(self.config.grace)), now, []
                )
        return Update()

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
        lost = max(0.0, now - since)
        if self.dealt:
            self.turn_started = now
            self.warned = False
            for player in self.players:
                if player.away_since is not None and player.away_since <= since:
                    player.away_since += lost
            self.dealt_at += lost
        self.last_activity += lost

    @journaled
    def rename(self, old: str, new: str) -> bool:
        """Follow a nick change; True if ``old`` sits here.

        A server gives out only a nick nobody holds, so a person seated here as ``new`` has
        left the network (their seat is held: :meth:`depart`). That seat is renamed ``new``
        + ``(gone)``, which no one can hold: else one nick would name two seats, and the
        renamer would get that seat's hand and play its cards.
        """
        seat = self.seat_of(old)
        if seat is None:
            return False
        other = self.seat_of(new)
        if other is not None and other != seat:
            gone = self.players[other]
            if irc_eq(self.starter, gone.nick):
                self.starter = gone.nick + "(gone)"
            gone.nick += "(gone)"
        self.players[seat].nick = new
        if irc_eq(self.starter, old):
            self.starter = new
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
        player = self.players[seat]
        if player.away_since is None:
            player.away_since = now
        return Update([Away(player.nick, int(self.config.grace))])

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
        player.away_since = None
        update = Update([Back(player.nick)])
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
        update.events.append(EngineEvents(tuple(events), names, self._teams))
        if after:
            update.events.append(EngineEvents(tuple(after), self.names, self._teams))
        if self.match.over:
            self.state = State.FINISHED
            update.finished = True
            return update
        if not self.humans and not self.config.tournament:
            # Computer players alone would play on for ever in an empty channel: the game ends
            # here (recorded like a stop: only if a hand of a match was completed). A
            # tournament's game has its director's clock to end it, and is played out.
            self.state = State.FINISHED
            update.events.append(Stopped("", _("no person is left in the game")))
            update.finished = True
            return update
        if irc_eq(player.nick, self.starter):
            self.starter = self._next_starter()
        if any(type(e) is HandEnded for e in after):
            if self._last_hand():
                return self._end_round(update)
            update.events.append(self._totals())
            return self._start_hand(now, update)
        if was_turn:
            self._new_turn(now)
            self._turn_hand(update)
        else:  # the same player's turn goes on, under a seat number that may have moved
            self._turn_seat = self._running().current
        update.status = self.status()
        return update

    # --- teams: pairs, and two teams ------------------------------------------------------

    @journaled
    def team(self, nick: str, other: str, now: float) -> Update:
        """``.team <nick>``: in pairs, ``nick`` asks ``other`` to be their partner; when both
        have asked each other (or ``other`` is a computer player, which never refuses) they
        are a team. With two teams, ``.team a`` / ``.team b`` or ``.team <nick>`` choose a
        team (:meth:`_join_team`). Only in the lobby of a teams game; a player is in one team
        at most."""
        if not self.config.rules.teams:
            raise UnoError(
                _("this game is not played in teams: open one with .uno pairs or .uno two-teams")
            )
        if self.state is not State.LOBBY:
            raise UnoError(_("teams are made before the deal"))
        if self.config.rules.team_game is TeamGame.TWO_TEAMS:
            return self._join_team(nick, other, now)
        me = self.players[self._seat(nick)]
        seat = self.seat_of(other, computer=None) if _NAME.fullmatch(other) else None
        if seat is None:
            raise UnoError(_("no player of that name is in this game: they .join first"))
        them = self.players[seat]
        if them is me:
            raise UnoError(_("your partner is another player: .team <their nick>"))
        mine = self.partner_of(me)
        if mine is them:
            raise UnoError(_("you already play with {nick}", nick=them.nick))
        if mine is not None:
            raise UnoError(_("you already play with {nick}: a team is two players", nick=mine.nick))
        theirs = self.partner_of(them)
        if theirs is not None:
            raise UnoError(
                _(
                    "{nick} already plays with {other}: a team is two players",
                    nick=them.nick,
                    other=theirs.nick,
                )
            )
        self.last_activity = now
        if them.computer or (them, me) in self._asks:
            self._asks = [a for a in self._asks if me not in a and them not in a]
            self.pairs.append((me, them) if self.players.index(me) < seat else (them, me))
            return Update([TeamMade(me.nick, them.nick)])
        self._asks = [a for a in self._asks if a[0] is not me] + [(me, them)]
        return Update([TeamAsked(me.nick, them.nick)])

    def partner_of(self, player: Player) -> Player | None:
        """``player``'s partner agreed in the lobby (or seated opposite after the deal)."""
        for a, b in self.pairs:
            if a is player:
                return b
            if b is player:
                return a
        return None

    def team_names(self) -> tuple[tuple[str, ...], ...]:
        """The teams in seat order of their first member (after the deal: partners sit
        opposite, seat ``t`` and ``t + players/2``); () when the game is not in teams. Two
        teams: team A, then team B (before the deal only those who chose, maybe nobody; after
        it the even seats, then the odd)."""
        if not self._teams:
            return ()
        if self._teams is TeamGame.TWO_TEAMS:
            if self.state is State.LOBBY:
                return tuple(
                    tuple(p.nick for p, side in self.sides if side == team) for team in (0, 1)
                )
            return (self.names[0::2], self.names[1::2])
        if self.state is State.LOBBY:
            return tuple((a.nick, b.nick) for a, b in self.pairs)
        half = len(self.players) // 2
        return tuple((self.players[t].nick, self.players[t + half].nick) for t in range(half))

    @property
    def _teams(self) -> TeamGame | None:
        """The kind of teams this game is played in; None: not in teams."""
        rules = self.config.rules
        return rules.team_game if rules.teams else None

    def _unpair(self, player: Player) -> None:
        self.pairs = [p for p in self.pairs if player not in p]
        self._asks = [a for a in self._asks if player not in a]
        self.sides = [c for c in self.sides if c[0] is not player]

    def side_of(self, player: Player) -> int | None:
        """Two teams: ``player``'s team (0: A, 1: B), chosen in the lobby or dealt; None."""
        return next((side for p, side in self.sides if p is player), None)

    def _join_team(self, nick: str, word: str, now: float) -> Update:
        """Two teams: ``.team a`` / ``.team b`` joins that team; ``.team <nick>`` joins the
        team of that player; when they have none yet, they come to ours, and when neither of
        us has one both join the smaller team (A on a tie). A team holds at most half the
        table's seats (``max_players / 2``); a player may change team until the deal. The
        letters win over a player called ``a`` or ``b``."""
        me = self.players[self._seat(nick)]
        letter = word.lower()
        joining = [me]
        if letter in ("a", "b"):
            side = "ab".index(letter)
        else:
            seat = self.seat_of(word, computer=None) if _NAME.fullmatch(word) else None
            if seat is None:
                raise UnoError(_("name a team, .team a or .team b, or a player of this game"))
            them = self.players[seat]
            if them is me:
                raise UnoError(_("name a team, .team a or .team b, or another player"))
            theirs, mine = self.side_of(them), self.side_of(me)
            if theirs is not None:
                side = theirs
            elif mine is not None:  # they come to our team
                joining, side = [them], mine
            else:
                joining.append(them)
                others = [s for _p, s in self.sides]
                side = 1 if others.count(1) < others.count(0) else 0
        name = "AB"[side]
        joining = [p for p in joining if self.side_of(p) != side]
        if not joining:
            raise UnoError(_("you already play for team {team}", team=name))
        most = self.config.rules.max_players // 2
        staying = [p for p, s in self.sides if s == side]
        if len(staying) + len(joining) > most:
            raise UnoError(_("team {team} is full: {n} players at most", team=name, n=most))
        self.sides = [c for c in self.sides if c[0] not in joining]
        self.sides += [(p, side) for p in joining]
        self.last_activity = now
        members = tuple(p.nick for p, s in self.sides if s == side)
        return Update([TeamJoined(tuple(p.nick for p in joining), name, members)])

    def _check_sides(self) -> None:
        """Two teams are even at the deal: a team chosen by more than half the players can't
        be."""
        half = len(self.players) // 2
        for side, name in enumerate("AB"):
            chosen = sum(1 for _p, s in self.sides if s == side)
            if chosen > half:
                raise UnoError(
                    _(
                        "team {team} has {k} players, more than half of {n}: someone moves "
                        "with .team {other}",
                        team=name,
                        k=chosen,
                        n=len(self.players),
                        other="ba"[side],
                    )
                )

    def _seat_two_teams(self) -> None:
        """Seats alternate between the teams (the sheet: "two teams, seats alternating"):
        the players who chose no team are dealt, in join order, each to the smaller team (A
        on a tie), so with no choices the seats are the join order; then team A takes the even
        seats and team B the odd, each team in join order."""
        order = {id(p): i for i, p in enumerate(self.players)}
        teams: list[list[Player]] = [[], []]
        chosen = {id(p): side for p, side in self.sides}
        for p in self.players:
            if id(p) in chosen:
                teams[chosen[id(p)]].append(p)
        for p in self.players:
            if id(p) not in chosen:
                teams[1 if len(teams[1]) < len(teams[0]) else 0].append(p)
        a, b = (sorted(t, key=lambda p: order[id(p)]) for t in teams)
        self.players = [p for pair in zip(a, b, strict=True) for p in pair]
        self.sides = [(p, s % 2) for s, p in enumerate(self.players)]

    def _seat_teams(self) -> None:
        """Seat partners opposite: the players not paired with ``.team`` are paired in join
        order, then team ``t`` (teams ordered by their earliest joiner, so the starter's team
        comes first) takes seats ``t`` and ``t + players/2``, its earlier joiner first."""
        order = {id(p): i for i, p in enumerate(self.players)}
        paired = {id(p) for pair in self.pairs for p in pair}
        alone = [p for p in self.players if id(p) not in paired]
        pairs = [*self.pairs, *zip(alone[::2], alone[1::2], strict=True)]
        teams = sorted(
            (sorted(pair, key=lambda p: order[id(p)]) for pair in pairs),
            key=lambda team: order[id(team[0])],
        )
        self.players = [t[0] for t in teams] + [t[1] for t in teams]
        self.pairs = [(t[0], t[1]) for t in teams]
        self._asks = []

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
