"""What a table reports: the events of one command or timer, and the :class:`Update` that
carries them with the hands to send and the state to show.

Plain frozen values, apart from the table itself: the renderer turns them into lines, the
stats recorder and computer seats read them, and tests compare them, none of them needing a
:class:`~unobot.core.table.Table`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from unobot.engine import Phase
from unobot.engine.cards import Card, Color
from unobot.engine.events import Event
from unobot.engine.flip import FlipEvent, Side
from unobot.engine.rules import HouseRules, TeamGame
from unobot.values import value

__all__ = [
    "Away",
    "Back",
    "Dealt",
    "EarlyUno",
    "EngineEvents",
    "FlipEvents",
    "HandNotice",
    "Joined",
    "Left",
    "Opened",
    "Removed",
    "RoundOver",
    "Status",
    "Stopped",
    "TableEvent",
    "TeamAsked",
    "TeamJoined",
    "TeamMade",
    "TimeUp",
    "TimeWarning",
    "TimedOut",
    "Totals",
    "Update",
    "Warned",
]


@dataclass(frozen=True, slots=True)
class Opened:
    starter: str
    lobby_seconds: int


@dataclass(frozen=True, slots=True)
class Joined:
    nick: str
    players: int
    level: str = ""
    """A computer player's level (added with ``.addbot``); empty for a person."""


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
    time_limit: int = 0
    """Seconds the match lasts (announced with the first hand); 0 = untimed."""
    target: int = 0
    """Points that end the match (announced with the first hand); 0 = no target."""
    teams: tuple[tuple[str, ...], ...] = ()
    """In a teams game, the teams (announced with the first hand): the pairs (partners sit
    opposite), or with ``two_teams`` team A (the even seats) and team B (the odd)."""
    variant: HouseRules | None = None
    """The match's rules, with its first hand only: what they change from the classic game is
    said in a line of its own (``render_irc.rules_note``); later hands leave it out."""
    two_teams: bool = False
    """The teams are the two of the game of two teams, seats alternating."""


@dataclass(frozen=True, slots=True)
class Totals:
    """Running totals after a hand of a match that goes on (in seat order)."""

    totals: tuple[tuple[str, int], ...]
    target: int
    lowest_wins: bool
    lettered: bool = False
    """The names are team letters (a game of two teams): each is said as ``team A``."""


@dataclass(frozen=True, slots=True)
class TimeWarning:
    """A timed match ends in ``seconds``."""

    seconds: int
    last_hand: bool = False
    """The rules' ``warning_ends_round``: the hand in play is the last one."""


@dataclass(frozen=True, slots=True)
class RoundOver:
    """A hand ended after the time warning, and the rules deal no other (002)."""


@dataclass(frozen=True, slots=True)
class TimeUp:
    """The time limit is reached; ``counted``: the unfinished hand's points count."""

    counted: bool


@value
class EngineEvents:
    """Engine events, with the seat names as they were when the events happened."""

    events: tuple[Event, ...]
    names: tuple[str, ...]
    teams: TeamGame | None = None
    """A teams game, hands and matches won by a team: pairs (seats ``s`` and
    ``s + len(names)/2`` are partners) or two teams (the even seats, team A, against the odd,
    team B); None: not in teams."""


@dataclass(frozen=True, slots=True)
class FlipEvents:
    """One move's events of an UNO Flip hand (``FlipEvent``), with the seat names as they
    were: what the channel hears of it (``render_irc``)."""

    events: tuple[FlipEvent, ...]
    names: tuple[str, ...]
    side: Side = Side.LIGHT
    """The side in play before the first of the events (a Flip among them turns it)."""


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
    held: bool = True
    """False when the mercy rule had already put them out: no cards go anywhere."""


@dataclass(frozen=True, slots=True)
class Penalized:
    """A tournament admin made ``nick`` draw ``cards`` (001: suggesting plays to others)."""

    nick: str
    cards: int


@dataclass(frozen=True, slots=True)
class Stopped:
    by: str
    why: str = ""
    """Set when the table stopped itself (``by`` empty): e.g. no person is left to play."""


@dataclass(frozen=True, slots=True)
class TeamAsked:
    """``nick`` asked ``other`` to be their partner (``.team``); ``other`` has not yet."""

    nick: str
    other: str


@dataclass(frozen=True, slots=True)
class TeamMade:
    """``nick`` and ``other`` are a team from now on."""

    nick: str
    other: str


@dataclass(frozen=True, slots=True)
class TeamJoined:
    """Two teams: ``nicks`` (one, or two placed together) play for team ``team`` (``A`` or
    ``B``), whose chosen players are now ``members``."""

    nicks: tuple[str, ...]
    team: str
    members: tuple[str, ...]


TableEvent = (
    Opened | Joined | Left | Dealt | EngineEvents | Warned | TimedOut | Away | Back | Removed
    | Penalized | Stopped | Totals | TimeWarning | TimeUp | RoundOver | TeamAsked | TeamMade
    | TeamJoined | FlipEvents
)  # fmt: skip


@value
class HandNotice:
    """A player's whole hand to send them, and which cards are new to them."""

    cards: tuple[Card, ...]
    new: tuple[Card, ...] = ()
    hint: str = ""
    """What the player may do next, after a draw that left them a choice (or a duty)."""
    playable: tuple[Card, ...] | None = None
    """Set when the turn has just reached the player: the cards of the hand they may play now
    (marked in the notice, which also says it is their turn); None: not their turn's hand."""
    optional: bool = False
    """Sent only because the turn reached the player (nothing in the hand changed): the send
    queue may drop it under a backlog, and a player who said ``.unohand off`` never gets it."""
    again: bool = False
    """Sent because the player may have missed the last one (they come back after a drop, the
    bot after a restart or a lost connection): it goes even when it says what the last hand
    sent to them said (that one may never have reached them)."""

    @property
    def turn(self) -> bool:
        return self.playable is not None


@dataclass(frozen=True, slots=True)
class EarlyUno:
    """``nick`` added ``uno`` to a play that left them ``left`` cards, under rules without a
    false-UNO penalty: the card was played and the word ignored (there was no UNO to call).
    Said to them alone: the channel heard no call, so nobody was misled."""

    nick: str
    left: int


@value
class Status:
    """The public state after an update: what the channel needs to play on."""

    top: Card
    color: Color
    current: str
    phase: Phase
    pending: int
    counts: tuple[tuple[str, int], ...]
    stack: str = ""
    """With a pending total: what may be stacked on it now (``+2``, ``+4``, No Mercy's
    ``+6/+10``: ``Game.stack_text``), else empty."""
    challenge: bool = False
    """With a pending total: the Wild Draw Four may be challenged."""
    out: tuple[str, ...] = ()
    """No Mercy: the players the mercy rule put out of this hand (shown as ``out``)."""
    side: str = ""
    """UNO Flip: the side in play (``light``, ``dark``); empty for every other game."""


@dataclass(slots=True)
class Update:
    """Everything one command or timer changed: render it, then forget it."""

    events: list[TableEvent] = field(default_factory=list)
    hands: dict[str, HandNotice] = field(default_factory=dict)
    """Nick -> hand notice, only for players whose hand the update changed."""
    status: Status | None = None
    finished: bool = False
    """The table is closed: the bot drops it."""
    notes: list[EarlyUno] = field(default_factory=list)
    """Things said to one player alone about their own command (not the game's news)."""
