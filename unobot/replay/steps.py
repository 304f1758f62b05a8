"""A recorded game, step by step, as its channel saw it: pure, no I/O.

A recorded game keeps its table journal as its move list (``GameRecord.moves``): the opening
(channel, starter, rules, seed) and every call the table accepted. :func:`steps` rebuilds the
table from it with :func:`unobot.core.journal.replay_records`, the very loop the bot restores
tables with after a restart, and renders each replayed call's update with the bot's own
renderer (:func:`unobot.core.render_irc.render_update`, plain text). So the lines of a replay
are the lines the channel got, not a second description of the game that could drift from it;
the test suite checks that against a live game.

What a replay can't know, because the journal doesn't hold it, is said as well as it can be:
the line a channel gets when the bot comes back after a disconnect or a kick (``catch_up``) is
written as after a restart when the journal shows one, else as the generic "Back: the game goes
on." (exact when the call carries its ``why``). Replies to commands that changed nothing
(``.cards``, refused moves) were never journaled, so a replay doesn't show them; nor does it
know the bot's prefix and colour settings (it writes lines with ``.`` and cuts them as the bot
does in colour, the defaults).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from unobot.core.journal import parse_records, replay_records
from unobot.core.render_irc import Cards, hand_lines, render_update, resumed_text, strip_codes
from unobot.core.table import Table
from unobot.core.updates import Dealt, HandNotice, Opened, Status, Update
from unobot.engine.cards import CARDS, Card, Color
from unobot.engine.flip import FLIP_DECK

__all__ = ["Step", "steps"]


@dataclass(frozen=True, slots=True)
class Step:
    number: int
    """0 = the table opening up to the first deal, then 1, 2, ..."""
    hand: int
    """Hand number within the match (0 before the first deal)."""
    actor: str | None
    """Nick who made the call (None for timers and the system)."""
    action: str
    """Short words: ``deals``, ``plays B9``, ``draws``, ``passes``, ``calls UNO`` ..."""
    lines: tuple[str, ...]
    """What the channel saw for this step, plain text, in order."""
    notices: tuple[tuple[str, str], ...]
    """(nick, text) private notices (hands etc.), plain text."""
    hands: tuple[tuple[str, tuple[str, ...]], ...]
    """(nick, cards in notation) in seat order, each hand sorted as its player sees it."""
    top: str | None
    """The discard pile's top card in notation."""
    color: str | None
    """The colour in force: ``r``, ``y``, ``g`` or ``b``."""
    current: str | None
    """Whose turn it is after this step (None once the game is over)."""
    scores: tuple[tuple[str, int], ...]
    """Match totals so far, in seat order."""


PREFIX = "."
"""The command prefix lines are written with (the bot's setting is not journaled, nor are its
colour settings: lines are cut as the bot cuts them in colour, its default)."""

_COLOURED = Cards(True)
_BY_TEXT = {card.text: card for card in CARDS}
_COLOR_NAMES = {
    "r": "red", "y": "yellow", "g": "green", "b": "blue",
    "p": "pink", "t": "teal", "o": "orange", "u": "purple",  # UNO Flip's dark side
}  # fmt: skip
_FLIP_TEXT = frozenset(f.text for c in FLIP_DECK for f in (c.light, c.dark))
"""UNO Flip's faces as the journal writes them (``P5``, ``WDC``)."""


def steps(moves: str) -> list[Step]:
    """The game a journal text describes, one :class:`Step` per call that showed something.

    Raises ValueError for a text that is not a journal or does not replay (damaged, or from
    an incompatible version)."""
    try:
        records = parse_records(moves.encode("utf-8"))
    except (UnicodeError, ValueError) as err:
        raise ValueError(f"not a journal: {err}") from None
    if not records or not isinstance(records[0], list) or records[0][:1] != ["open"]:
        raise ValueError("not a journal: no opening line")
    builder = _Builder(records)
    try:
        table = replay_records(records, builder.observe)
    except (AttributeError, KeyError, TypeError, IndexError) as err:
        raise ValueError(f"the move list does not replay: {err!r}") from None
    builder.finish(table)
    return builder.steps


@functools.lru_cache(maxsize=64)
def _yields_update(method: str) -> bool:
    """Whether a journaled table call returns an Update (the replay observes only those):
    ``catch_up`` and ``rename`` don't. Read from the method's annotation, so a call added to
    the table later is paired right without a list here to keep in step."""
    func = getattr(Table, method, None) if not method.startswith("__") else None
    if func is None or not callable(func):
        raise ValueError(f"the move list calls an unknown table method {method[:30]!r}")
    annotation = inspect.signature(func).return_annotation
    return annotation in ("Update", Update)


@dataclass(slots=True)
class _Seen:
    """The state shown after the last step (what a later step is compared with)."""

    hands: tuple[tuple[str, tuple[str, ...]], ...] = ()
    cards: tuple[tuple[str, tuple[Card, ...], bool], ...] = ()
    """(nick, hand, is a person) in seat order: the hands sent again after a restart."""
    playable: tuple[Card, ...] | None = None
    """The cards the player to move may play, when they must play now: their hand sent again
    after a restart is marked, as the turn's hand is (``Table.hand_notice``)."""
    top: str | None = None
    color: str | None = None
    current: str | None = None
    scores: tuple[tuple[str, int], ...] = ()
    status: Status | None = None
    lobby: tuple[str, tuple[str, ...]] | None = None
    hand: int = 0

    def shown(self) -> tuple[Any, ...]:
        return (self.hands, self.top, self.color, self.current, self.scores)


class _Builder:
    """Pairs each replayed update with the journal record that made it, and makes the steps."""

    def __init__(self, records: list[list[Any]]) -> None:
        head = records[0][1] if len(records[0]) > 1 and isinstance(records[0][1], dict) else {}
        self.calls = [r for r in records[1:] if isinstance(r, list) and r]
        self.next = 0
        self.restarted = False
        self.steps: list[Step] = []
        self.channel = str(head.get("channel", ""))
        starter = str(head.get("starter", ""))
        config = head.get("config")
        lobby = config.get("lobby_timeout", 60) if isinstance(config, dict) else 60
        self.seen = _Seen(lobby=(starter, (starter,)))
        # Step 0 gathers the opening and the lobby, up to the first deal.
        self.opening: list[str] = []
        self.opening_notices: list[tuple[str, str]] = []
        if starter:
            opened = Update([Opened(starter, int(lobby))])
            self.opening += self._render(opened, self.channel)[0]
        self.dealt = False

    # --- pairing -------------------------------------------------------------------------

    def _take(self) -> list[Any]:
        """The next record that returns an update; the ones before it (clock lines, catch-ups,
        renames) are dealt with on the way."""
        while self.next < len(self.calls):
            record = self.calls[self.next]
            self.next += 1
            method = record[0]
            if not isinstance(method, str):
                raise ValueError("a move list record without a method name")
            if method == "clock":
                self.restarted = True
                continue
            if _yields_update(method):
                return record
            if method == "catch_up":
                self._resumed(record)
        raise ValueError("the replay made more updates than the move list has calls")

    def observe(self, table: Table, update: Update) -> None:
        record = self._take()
        method, args = record[0], record[1] if len(record) > 1 else {}
        if not isinstance(args, dict):
            args = {}
        invite = table.match is not None and not table.config.tournament  # as Bot.publish
        lines, notices = self._render(update, table.channel, invite)
        seen = _snapshot(table)
        actor, action = _describe(method, args, update, self.seen)
        if not self.dealt:
            self.opening += lines
            self.opening_notices += notices
            self.seen = seen
            if any(type(e) is Dealt for e in update.events):
                self.dealt = True
                self._emit(actor, action, self.opening, self.opening_notices, seen)
            return
        if not lines and not notices and seen.shown() == self.seen.shown():
            self.seen = seen
            return  # nothing anyone could see (a stale timer, a no-op departure)
        self._emit(actor, action, lines, notices, seen)
        self.seen = seen

    def finish(self, table: Table) -> None:
        """After the replay: calls left that observe nothing (a last catch-up), and the
        opening of a game never dealt."""
        while self.next < len(self.calls):
            method = self.calls[self.next][0]
            self.next += 1
            if method == "clock":
                self.restarted = True
            elif method == "catch_up":
                self._resumed(self.calls[self.next - 1])
            elif isinstance(method, str) and _yields_update(method):
                raise ValueError("a move list call was not replayed")
        if not self.dealt:
            self._emit(None, "opens the table", self.opening, self.opening_notices, self.seen)
            self.dealt = True

    # --- steps ---------------------------------------------------------------------------

    def _resumed(self, record: list[Any]) -> None:
        """``catch_up``: the bot back in the channel, saying the game goes on; after a
        restart, hands sent again. Why it was away is the call's ``why`` when the journal
        has it, else a restart when a clock line came since the last call, else unknown."""
        args = record[1] if len(record) > 1 and isinstance(record[1], dict) else {}
        why = args.get("why")
        if not isinstance(why, str):
            why = "restart" if self.restarted else ""
        self.restarted = False
        seen = self.seen
        lobby = None if seen.status else seen.lobby
        text = resumed_text(why, seen.status, lobby, _COLOURED, PREFIX)
        notices: list[tuple[str, str]] = []
        if why == "restart" and seen.status is not None:
            for nick, cards, person in seen.cards:
                if person:
                    marked = seen.playable if nick == seen.current else None
                    notice = HandNotice(cards, playable=marked)
                    notices += [(nick, strip_codes(t)) for t in hand_lines(notice, _COLOURED)]
        line = strip_codes(text)
        if not self.dealt:
            self.opening.append(line)
            self.opening_notices += notices
            return
        self._emit(None, "the game goes on", [line], notices, seen)

    def _emit(
        self,
        actor: str | None,
        action: str,
        lines: Sequence[str],
        notices: Sequence[tuple[str, str]],
        seen: _Seen,
    ) -> None:
        self.steps.append(
            Step(
                number=len(self.steps),
                hand=seen.hand,
                actor=actor,
                action=action,
                lines=tuple(lines),
                notices=tuple(notices),
                hands=seen.hands,
                top=seen.top,
                color=seen.color,
                current=seen.current,
                scores=seen.scores,
            )
        )

    @staticmethod
    def _render(
        update: Update, channel: str, invite: bool = False
    ) -> tuple[list[str], list[tuple[str, str]]]:
        lines: list[str] = []
        notices: list[tuple[str, str]] = []
        # In colour, as the bot sends by default, then stripped: a coloured line is longer,
        # and where the bot cut a long line in two is where the channel saw it cut.
        for line in render_update(
            update, channel, lambda _nick: True, channel_colors=True, prefix=PREFIX, invite=invite
        ):
            text = strip_codes(line.text)
            if line.kind == "notice":
                notices.append((line.target, text))
            elif line.target == channel:
                lines.append(text)
        return lines, notices


def _snapshot(table: Table) -> _Seen:
    game = table.game
    players = table.players
    lobby = None if table.match is not None else (table.starter, table.names)
    if game is None:
        return _Seen(lobby=lobby, hand=table.hand_number)
    cards: list[tuple[str, tuple[Card, ...], bool]] = []
    for seat, player in enumerate(players):
        held = tuple(sorted(game.hand(seat), key=lambda c: c.code)) if seat < game.n else ()
        cards.append((player.nick, held, not player.computer))
    match = table.match
    totals = list(match.totals) if match is not None else []
    over = game.over or table.finished
    playable = None
    if not over and game.current < len(players) and not players[game.current].computer:
        playable = table.hand_notice(players[game.current].nick).playable
    return _Seen(
        hands=tuple((nick, tuple(c.text for c in held)) for nick, held, _ in cards),
        cards=tuple(cards),
        playable=playable,
        top=game.top.text if game.discard else None,
        color=game.color.letter.lower(),
        current=None if over or game.current >= len(players) else players[game.current].nick,
        scores=tuple(zip(table.names, totals, strict=False)),
        status=table.status(),
        lobby=lobby,
        hand=table.hand_number,
    )


def _card(value: Any) -> str:
    """A journaled card as notation (version 3 writes notation, 2 the card's code, 1 a tag)."""
    if isinstance(value, str):
        return value if value in _BY_TEXT or value in _FLIP_TEXT else "?"
    if isinstance(value, dict):
        value = value.get("$card")
    if isinstance(value, int) and 0 <= value < len(CARDS):
        return CARDS[value].text
    return "?"


def _color(value: Any) -> str:
    """A journaled colour as its name."""
    if isinstance(value, dict):
        value = value.get("$color")
    if isinstance(value, int) and 0 <= value < len(Color):
        value = Color(value).letter.lower()
    return _COLOR_NAMES.get(str(value).lower(), "?")


_TIMERS = {
    "warn": "the turn clock warns",
    "turn": "the turn time runs out",
    "time-warn": "the game clock warns",
    "time": "the game time is up",
}


def _describe(
    method: str, args: dict[str, Any], update: Update, before: _Seen
) -> tuple[str | None, str]:
    """Who made a call and what it was, in a few words."""
    nick = args.get("nick")
    actor = nick if isinstance(nick, str) else None
    match method:
        case "play":
            card = _card(args.get("card"))
            text = f"plays {card}"
            if card.startswith("W") and args.get("color") is not None:
                text += f" and picks {_color(args.get('color'))}"
            return actor, text + (" with UNO" if args.get("uno") else "")
        case "draw":
            return actor, "draws"
        case "pass_turn":
            return actor, "passes"
        case "choose_color":
            return actor, f"picks {_color(args.get('color'))}"
        case "challenge":
            return actor, "challenges"
        case "call_uno":
            return actor, "calls UNO"
        case "catch":
            return actor, f"catches {str(args.get('target', '?'))[:30]}"
        case "join":
            return actor, "joins"
        case "add_computer":
            joined = [e.nick for e in update.events if hasattr(e, "level") and e.level]
            name = joined[0] if joined else args.get("name")
            return None, f"seats {name} (computer, {args.get('level', '?')})"
        case "remove_computer":
            return None, "removes a computer player"
        case "deal":
            return actor, "deals"
        case "leave":
            return actor, "leaves"
        case "stop":
            return actor, "stops the game"
        case "penalize":
            return None, f"penalty: {actor} draws {args.get('cards', '?')}"
        case "timer_due":
            name = str(args.get("name", ""))
            if name.startswith("away:"):
                return None, "a held seat is given up"
            if name in ("warn", "turn") and before.current:
                return None, f"{_TIMERS[name]} for {before.current}"
            return None, _TIMERS.get(name, "a timer")
        case "_depart":
            return actor, "leaves the channel"
        case "_arrive":
            return actor, "is back"
    return actor, method.strip("_").replace("_", " ")
