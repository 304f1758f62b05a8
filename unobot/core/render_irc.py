"""Table updates -> IRC lines: one channel line per action where it fits, private hand notices.

The channel hears, in one line, everything an action caused (``alice plays RD2, bob draws 2 and
is skipped. Top: RD2. carol's turn.``): one line per turn keeps busy channels readable and keeps
the bot under flood limits. Hands go only by NOTICE to their owner, written in the notation
``.play`` accepts, in mIRC colours unless the player turned them off. Every line is at most
:data:`LIMIT` bytes, split between words so a card is never cut in two.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from unobot.core.render import color_name, hand_text
from unobot.core.updates import (
    Away,
    Back,
    Dealt,
    EarlyUno,
    EngineEvents,
    FlipEvents,
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
from unobot.engine import Phase
from unobot.engine import events as ev
from unobot.engine.cards import Card, Color, Rank
from unobot.engine.flip import UNO_PENALTY, FlipColor, FlipEvent, Side
from unobot.engine.rules import Deck, HouseRules, NoPlayableCard, Stacking, TeamGame
from unobot.i18n import N_, language, plain, speak, speaking
from unobot.irc.casemap import irc_lower
from unobot.irc.outbox import strip_codes
from unobot.irc.transport import UNTAGGED, Tag
from unobot.values import value

_, ngettext = plain("game")
"""Plain strings: the pieces of a line are joined in the language being spoken, never said
again in another (the bot renders each line for its reader), so no :class:`Text` is kept."""

__all__ = [
    "LIMIT",
    "Cards",
    "Line",
    "channel_text",
    "early_uno_text",
    "fit",
    "hand_lines",
    "held_text",
    "invite_text",
    "render_update",
    "resumed_text",
    "rules_note",
    "status_text",
    "strip_codes",
    "wait_text",
]

LIMIT = 400
"""Bytes per line: servers cut relayed lines near 470 bytes including the prefix."""

_MIRC = {
    Color.RED: "01,04",
    Color.YELLOW: "01,08",
    Color.GREEN: "01,03",
    Color.BLUE: "00,12",
    # UNO Flip's dark side (its light colours are the four above: equal IntEnum values).
    FlipColor.PINK: "01,13",
    FlipColor.TEAL: "01,10",
    FlipColor.ORANGE: "01,07",
    FlipColor.PURPLE: "00,06",
}
"""Each suit as a small coloured card: text and background both set (mIRC ``fg,bg``), so it
reads the same on a client's white background (mIRC's and HexChat's default) as on a dark
one. Yellow text alone (``08``) was nearly invisible on white, and blue (``12``) hard to read
on black. With the standard mIRC palette every pair has a WCAG contrast of at least 5:1
(tests/core/test_card_colours.py measures it). A wild is the card's own black: white on black
(:data:`_WILD`), whose contrast is the highest of all. Bold has one meaning, "you may play this
now", and only the hand sent when the turn comes (and ``.cards`` on your turn) has it: a wild
is never bold for being wild (issue 37)."""
_WILD = "00,01"
"""White text on black, like the printed wild cards; any client draws ``\x03`` colours."""
_RESET = "\x0f"  # not \x03: a digit after a bare \x03 would be read as a colour code
_BOLD = "\x02"
_NEW_SENTENCE = "\x00"  # marks a fragment that starts a sentence of its own (never sent)


@value
class Line:
    kind: str
    """``privmsg`` or ``notice``."""
    target: str
    text: str
    tag: Tag = field(default=UNTAGGED, compare=False)
    """What the line is, for the fair send queue (a game's line, a hand, a reply)."""


class Cards:
    """Writes cards in plain notation or with mIRC colour codes."""

    def __init__(self, colors: bool) -> None:
        self.colors = colors

    def card(self, card: Card) -> str:
        if not self.colors:
            return card.text
        return f"\x03{_WILD if card.color is None else _MIRC[card.color]}{card.text}{_RESET}"

    def color(self, color: Color) -> str:
        name = color_name(color)
        return f"\x03{_MIRC[color]}{name}{_RESET}" if self.colors else str(name)

    def hand(self, cards: Iterable[Card], playable: Iterable[Card] | None = None) -> str:
        """The cards in order; with ``playable``, those cards marked: in bold with colours
        (bold means playable and nothing else: no card is bold otherwise), else in brackets
        (``[R5]``), so that plain text stays free of formatting codes."""
        ordered = sorted(cards, key=lambda c: c.code)
        if playable is None:
            return " ".join(self.card(c) for c in ordered)
        marked = frozenset(playable)
        if not self.colors:
            return " ".join(f"[{c.text}]" if c in marked else c.text for c in ordered)
        return " ".join(_BOLD + self.card(c) if c in marked else self.card(c) for c in ordered)

    def top(self, card: Card, color: Color) -> str:
        return f"{self.card(card)} ({self.color(color)})" if card.is_wild else self.card(card)


def fit(text: str, limit: int = LIMIT) -> list[str]:
    """Split ``text`` into lines of at most ``limit`` UTF-8 bytes, between words."""
    if len(text.encode()) <= limit:
        return [text]
    lines: list[str] = []
    current = ""
    for word in text.split(" "):
        candidate = f"{current} {word}" if current else word
        if len(candidate.encode()) <= limit:
            current = candidate
            continue
        if current:
            lines.append(current)
        while len(word.encode()) > limit:  # a single overlong word (never a card): cut it
            cut = word.encode()[:limit].decode(errors="ignore")
            lines.append(cut)
            word = word[len(cut) :]
        current = word
    if current:
        lines.append(current)
    return lines


# --- hands -----------------------------------------------------------------------------------


def hand_lines(notice: HandNotice, fmt: Cards) -> list[str]:
    """``You drew G5. Your cards (8): R1 ...``, split at card boundaries; when the turn has
    just reached the player, ``Your turn | Your cards (8): [R1] ...`` (playable cards marked).
    In the language being spoken (the caller speaks the owner's): a hint the table made in
    another is spoken again."""
    parts: list[str] = []
    if notice.new:
        parts.append(_("You drew {cards}", cards=fmt.hand(notice.new)))
    if notice.hint:  # before the hand: clients (and test agents) read the hand to the end
        parts.append(speak(notice.hint, language()))
    if notice.turn:
        parts.append(_("Your turn"))
    cards = fmt.hand(notice.cards, notice.playable)
    parts.append(_("Your cards ({n}): {cards}", n=len(notice.cards), cards=cards))
    return fit(" | ".join(parts))


# --- channel ---------------------------------------------------------------------------------


def _cards(n: int) -> str:
    """``1 card``, ``5 cards`` as a noun phrase inside a longer message."""
    return ngettext("{n} card", "{n} cards", n)


def _and(names: Sequence[str]) -> str:
    """``ann``, ``ann and bob``, ``ann and bob and cat`` (as the English lines always said)."""
    if not names:
        return ""
    text = names[0]
    for name in names[1:]:
        text = _("{first} and {second}", first=text, second=name)
    return text


@dataclass(slots=True)
class _Draw:
    """``bob draws a card`` (drawing on their turn): a play by the same player right after it
    joins it (``bob draws a card and plays G5``), as one whole sentence in every language."""

    nick: str
    n: int

    def text(self) -> str:
        return ngettext("{nick} draws a card", "{nick} draws {n} cards", self.n, nick=self.nick)


@dataclass(slots=True)
class _Pass:
    """``bob passes``: after ``bob draws a card`` (the draw told with the decision) it joins
    it, ``bob draws a card and passes``."""

    nick: str
    drew: int = 0

    def text(self) -> str:
        if self.drew:
            return ngettext(
                "{nick} draws a card and passes",
                "{nick} draws {n} and passes",
                self.drew,
                nick=self.nick,
            )
        return _("{nick} passes", nick=self.nick)


@dataclass(slots=True)
class _Play:
    """A card played, kept in parts until the line is written: the draw before it and the UNO
    call after it belong to the same clause, and each language words the whole of it."""

    nick: str
    card: str
    color: str
    """The colour picked, shown: set for a wild only."""
    jump: bool = False
    two_left: bool = False
    uno: bool = False
    drew: int = 0
    """Cards the player drew just before, on the same turn (0: none)."""

    def text(self) -> str:
        nick, card, color, n = self.nick, self.card, self.color, self.drew
        if n and color:
            text = ngettext(
                "{nick} draws a card, plays {card} and picks {color}",
                "{nick} draws {n} cards, plays {card} and picks {color}",
                n,
                nick=nick,
                card=card,
                color=color,
            )
        elif n:
            text = ngettext(
                "{nick} draws a card and plays {card}",
                "{nick} draws {n} cards and plays {card}",
                n,
                nick=nick,
                card=card,
            )
        elif self.jump and color:
            text = _(
                "{nick} jumps in with {card} and picks {color}", nick=nick, card=card, color=color
            )
        elif self.jump:
            text = _("{nick} jumps in with {card}", nick=nick, card=card)
        elif color:
            text = _("{nick} plays {card} and picks {color}", nick=nick, card=card, color=color)
        else:
            text = _("{nick} plays {card}", nick=nick, card=card)
        if self.two_left:
            text = _("{action} (2 cards left)", action=text)
        if self.uno:
            text = _("{action} (UNO!)", action=text)
        return text


@dataclass(slots=True)
class _Opening:
    """``First card BS: ann is skipped``: the first card with what it did to the first player."""

    card: str
    effects: list[str] = field(default_factory=list)

    def text(self) -> str:
        if self.effects:
            return _(
                "First card {card}: {effects}", card=self.card, effects=", ".join(self.effects)
            )
        return _("First card {card}", card=self.card)


_Fragment = str | _Draw | _Pass | _Play | _Opening
"""A clause of an action's sentence; a ``str`` starting with :data:`_NEW_SENTENCE` (and an
:class:`_Opening`) is a sentence of its own."""


def _text(fragment: _Fragment) -> str:
    return fragment if isinstance(fragment, str) else fragment.text()


def _draws(nick: str, n: int, reason: ev.DrawReason) -> str:
    """A draw that is not a turn's own (a penalty, a Draw Two, a challenge): ``bob draws 2``."""
    if reason is ev.DrawReason.FALSE_UNO:
        return ngettext(
            "{nick} draws {n} for a false UNO", "{nick} draws {n} for a false UNO", n, nick=nick
        )
    if reason is ev.DrawReason.CHALLENGE:
        return ngettext(
            "{nick} draws {n} (challenge)", "{nick} draws {n} (challenge)", n, nick=nick
        )
    if reason is ev.DrawReason.ILLEGAL_PLAY:
        return ngettext(
            "{nick} draws {n} for an illegal play",
            "{nick} draws {n} for an illegal play",
            n,
            nick=nick,
        )
    if reason is ev.DrawReason.MISSED_UNO:
        return ngettext(
            "{nick} draws {n} for not calling UNO",
            "{nick} draws {n} for not calling UNO",
            n,
            nick=nick,
        )
    return ngettext("{nick} draws {n}", "{nick} draws {n}", n, nick=nick)


def _engine_fragments(
    batch: EngineEvents,
    fmt: Cards,
    announced: frozenset[str] = frozenset(),
    *,
    match_line: bool = False,
    prefix: str = ".",
) -> list[_Fragment]:
    """Short phrases for one action's engine events, merging the ones that belong together.

    ``announced``: folded nicks whose removal a table event already told the channel about
    (``X is out (...)``), so their ``SeatRemoved`` adds nothing. Events this renderer doesn't
    know say nothing rather than fail: the engine may grow events before the renderer does.
    ``match_line``: announce the match's end even after a single hand (a timed match).
    """
    names = batch.names
    events = batch.events
    out: list[_Fragment] = []
    opening: _Opening | None = None  # "First card X" while its effects follow
    jumper = -1  # Jump-In: the seat whose CardPlayed is a jump
    i = 0
    while i < len(events):
        e = events[i]
        nxt = events[i + 1] if i + 1 < len(events) else None
        i += 1
        before = len(out)
        match e:
            case ev.CardPlayed(seat=seat, card=card, color=color, cards_left=left):
                out.append(
                    _Play(
                        names[seat],
                        fmt.card(card),
                        fmt.color(color) if _named_color(card, events, i) else "",
                        jump=seat == jumper,
                        two_left=left == 2,
                    )
                )
            case ev.UnoCalled(seat=seat):
                last = out[-1] if out else None
                if isinstance(last, _Play) and last.nick == names[seat] and not last.uno:
                    last.uno = True
                else:
                    out.append(_("{nick} calls UNO", nick=names[seat]))
            case ev.CardsDrawn(seat=seat, cards=cards, reason=reason):
                n = len(cards)
                who = names[seat]
                if type(nxt) is ev.Skipped and nxt.seat == seat:
                    out.append(
                        ngettext(
                            "{nick} draws {n} and is skipped",
                            "{nick} draws {n} and is skipped",
                            n,
                            nick=who,
                        )
                    )
                    i += 1
                elif reason is ev.DrawReason.DRAW and type(nxt) is ev.TurnPassed:
                    out.append(_Pass(who, n))
                    i += 1
                elif reason is ev.DrawReason.DRAW:
                    out.append(_Draw(who, n))
                elif reason is not ev.DrawReason.MISSED_UNO:  # UnoCaught says it
                    out.append(_draws(who, n, reason))
            case ev.Skipped(seat=seat):
                out.append(_("{nick} is skipped", nick=names[seat]))
            case ev.Reversed():
                out.append(_("play goes the other way"))
            case ev.ColorChosen(seat=seat, color=color):
                after = events[i + 1] if i + 1 < len(events) else None
                if (
                    type(nxt) is ev.CardsDrawn
                    and nxt.reason is ev.DrawReason.ROULETTE
                    and nxt.seat == seat
                    and type(after) is ev.Skipped
                    and after.seat == seat
                ):
                    # No Mercy's Roulette, named by the player it was played on.
                    out.append(
                        ngettext(
                            "{nick} picks {color} for the roulette, draws {n} card and is skipped",
                            "{nick} picks {color} for the roulette, draws {n} cards and is skipped",
                            len(nxt.cards),
                            nick=names[seat],
                            color=fmt.color(color),
                        )
                    )
                    i += 2
                else:
                    out.append(_("{nick} picks {color}", nick=names[seat], color=fmt.color(color)))
            case ev.TurnPassed(seat=seat):
                out.append(_Pass(names[seat]))
            case ev.DrawPending(seat=seat, total=total):
                out.append(
                    ngettext(
                        "{nick} must draw {n}", "{nick} must draw {n}", total, nick=names[seat]
                    )
                )
            case ev.UnoCaught(catcher=c, target=t, penalty=p):
                out.append(
                    ngettext(
                        "{catcher} catches {nick} without UNO: {nick} draws {n}",
                        "{catcher} catches {nick} without UNO: {nick} draws {n}",
                        p,
                        catcher=names[c],
                        nick=names[t],
                    )
                )
            case ev.ChallengeResolved(challenger=c, offender=o, guilty=guilty):
                if guilty:
                    text = _(
                        "{challenger} challenges {nick}: the WD4 was a bluff",
                        challenger=names[c],
                        nick=names[o],
                    )
                else:
                    text = _(
                        "{challenger} challenges {nick}: the WD4 was played fairly",
                        challenger=names[c],
                        nick=names[o],
                    )
                out.append(text)
            case ev.Reshuffled():
                out.append(_("the discards are shuffled into a new draw pile"))
            case ev.StartCardTurned(card=card):
                opening = _Opening(fmt.card(card))
                out.append(opening)
                continue
            case ev.StartCardReplaced(card=card):
                out.append(_("{card} goes back in the deck", card=fmt.card(card)))
            case ev.FirstPlayerDraw(seats=seats, cards=cards):
                shown = ", ".join(
                    f"{names[s]} {fmt.card(c)}" for s, c in zip(seats, cards, strict=True)
                )
                out.append(_("draw for first player: {draws}", draws=shown))
            case ev.HandEnded(outcome=outcome) if batch.teams:
                out.append(_NEW_SENTENCE + _team_hand_ended(outcome, names, fmt, batch.teams))
            case ev.HandEnded(outcome=outcome):
                out.append(_NEW_SENTENCE + _hand_ended(outcome, names, fmt))
            case ev.MatchEnded(outcome=outcome) if batch.teams:
                out.append(_NEW_SENTENCE + _team_match_ended(outcome, names, batch.teams))
            case ev.MatchEnded(outcome=outcome):
                if outcome.hands > 1 or len(outcome.winners) != 1 or match_line:
                    out.append(_NEW_SENTENCE + _match_ended(outcome, names, timed=match_line))
            case ev.JumpedIn(seat=seat):
                jumper = seat
            case ev.SwapPending(seat=seat):
                out.append(
                    _NEW_SENTENCE
                    + _(
                        "{nick}: swap with whom? {prefix}swap <nick>",
                        nick=names[seat],
                        prefix=prefix,
                    )
                )
            case ev.HandsSwapped(seat=a, target=b, seat_cards=na, target_cards=nb):
                out.append(
                    _(
                        "{nick} swaps hands with {other} ({nick} now holds {held}, {other} "
                        "{other_held})",
                        nick=names[a],
                        other=names[b],
                        held=_cards(na),
                        other_held=_cards(nb),
                    )
                )
            case ev.HandsRotated(direction=_d, counts=counts):
                held = ", ".join(f"{names[s]} {n}" for s, n in enumerate(counts))
                out.append(_("every hand passes to the next player ({counts})", counts=held))
            case ev.EveryoneSkipped(seat=seat):
                out.append(_("everyone else is skipped: {nick} plays again", nick=names[seat]))
            case ev.CardsDiscarded(seat=seat, cards=cards, left=left):
                shown = " ".join(fmt.card(c) for c in cards)
                out.append(
                    ngettext(
                        "{nick} discards {cards} too ({n} card left)",
                        "{nick} discards {cards} too ({n} cards left)",
                        left,
                        nick=names[seat],
                        cards=shown,
                    )
                )
            case ev.Eliminated(seat=seat, cards=n):
                out.append(
                    _NEW_SENTENCE
                    + ngettext(
                        "MERCY! {nick} holds {n} cards and is out of the hand",
                        "MERCY! {nick} holds {n} cards and is out of the hand",
                        n,
                        nick=names[seat],
                    )
                )
            case ev.SeatRemoved(seat=seat, cards=n):
                if irc_lower(names[seat]) not in announced:
                    out.append(
                        ngettext(
                            "{nick} leaves the hand ({n} card under the draw pile)",
                            "{nick} leaves the hand ({n} cards under the draw pile)",
                            n,
                            nick=names[seat],
                        )
                    )
                # Seats after it are renumbered from the next event on.
                names = (*names[:seat], *names[seat + 1 :])
            case _:
                pass
        if opening is not None and len(out) > before:
            if type(e) in _FIRST_CARD_EFFECTS:
                # What the first card does belongs to it: "First card BS: ann is skipped".
                opening.effects.extend(_text(f) for f in out[before:])
                del out[before:]
            else:
                opening = None
    return out


_FIRST_CARD_EFFECTS = (ev.Skipped, ev.Reversed, ev.CardsDrawn)


def _flip_fragments(
    batch: FlipEvents, fmt: Cards, announced: frozenset[str] = frozenset()
) -> list[_Fragment]:
    """The clauses of one UNO Flip move (:class:`~unobot.engine.flip.FlipEvent`), in the
    classic game's words where they are the same (``ann plays P5``, ``bob draws 5 and is
    skipped``); a Flip says which side is now up and the new top card. The hand's end comes
    as a classic ``HandEnded`` in an ``EngineEvents`` batch of its own."""
    names = batch.names
    events = batch.events
    side = batch.side
    out: list[_Fragment] = []
    i = 0
    while i < len(events):
        e = events[i]
        prev = events[i - 1].kind if i else ""
        nxt: FlipEvent | None = events[i + 1] if i + 1 < len(events) else None
        i += 1
        kind = e.kind
        who = names[e.seat] if 0 <= e.seat < len(names) else ""
        if kind == "start":
            out.append(_Opening(fmt.card(e.cards[0].face(side))))
        elif kind == "played":
            if e.color is not None:
                side = e.color.side
            face = e.cards[0].face(side)
            color = fmt.color(e.color) if face.is_wild and e.color is not None else ""  # type: ignore[arg-type]
            out.append(_Play(who, fmt.card(face), color, two_left=e.value == 2))
        elif kind == "uno":  # as the classic UnoCalled: "(UNO!)" with the play, or on its own
            last = out[-1] if out else None
            if isinstance(last, _Play) and last.nick == who and not last.uno:
                last.uno = True
            else:
                out.append(_("{nick} calls UNO", nick=who))
        elif kind == "caught" and 0 <= e.value < len(names):
            out.append(
                ngettext(
                    "{catcher} catches {nick} without UNO: {nick} draws {n}",
                    "{catcher} catches {nick} without UNO: {nick} draws {n}",
                    UNO_PENALTY,
                    catcher=who,
                    nick=names[e.value],
                )
            )
            if nxt is not None and nxt.kind == "drew" and nxt.seat == e.value:
                i += 1  # the catch says it
        elif kind == "drew":
            n = len(e.cards)
            if nxt is not None and nxt.kind == "skipped" and nxt.seat == e.seat:
                out.append(
                    ngettext(
                        "{nick} draws {n} and is skipped",
                        "{nick} draws {n} and is skipped",
                        n,
                        nick=who,
                    )
                )
                i += 1
            elif prev == "challenge":
                out.append(_draws(who, n, ev.DrawReason.CHALLENGE))
            elif prev == "played":
                out.append(_draws(who, n, ev.DrawReason.PENALTY_CARD))
            elif nxt is not None and nxt.kind == "passed" and nxt.seat == e.seat:
                out.append(_Pass(who, n))
                i += 1
            elif nxt is not None and nxt.kind == "played" and nxt.seat == e.seat:
                out.append(_Draw(who, n))
            else:  # drew on their turn, nothing to play: the turn is over
                out.append(_Pass(who, n))
        elif kind == "skipped":
            out.append(_("{nick} is skipped", nick=who))
        elif kind == "reversed":
            out.append(_("play goes the other way"))
        elif kind == "everyone_skipped":
            out.append(_("everyone else is skipped: {nick} plays again", nick=who))
        elif kind == "passed":
            out.append(_Pass(who))
        elif kind == "color" and e.color is not None:
            out.append(_("{nick} picks {color}", nick=who, color=fmt.color(e.color)))  # type: ignore[arg-type]
        elif kind == "flipped":
            side = Side(e.value)
            top = fmt.card(e.cards[0].face(side))
            if side is Side.DARK:
                out.append(
                    _("FLIP! Everything turns over: the dark side is up, top {card}", card=top)
                )
            else:
                out.append(
                    _("FLIP! Everything turns over: the light side is up, top {card}", card=top)
                )
        elif kind == "challenge":
            card = fmt.card(e.cards[0].face(side)) if e.cards else "?"
            if e.value >= 0:
                out.append(
                    _(
                        "{challenger} challenges {nick}: the {card} was a bluff",
                        challenger=who,
                        nick=names[e.value],
                        card=card,
                    )
                )
            else:
                out.append(
                    _(
                        "{challenger} challenges the {card}: it was played fairly",
                        challenger=who,
                        card=card,
                    )
                )
        elif kind == "removed":
            if irc_lower(who) not in announced:
                out.append(
                    ngettext(
                        "{nick} leaves the hand ({n} card under the draw pile)",
                        "{nick} leaves the hand ({n} cards under the draw pile)",
                        e.value,
                        nick=who,
                    )
                )
            names = (*names[: e.seat], *names[e.seat + 1 :])
    return out


def _named_color(card: Card, events: Sequence[ev.Event], after: int) -> bool:
    """Did the play of ``card`` (whose events follow from index ``after``) name a colour: a
    wild does, but not No Mercy's Roulette, whose colour the next player names later; only in
    a game journaled before version 4 (replayed) did its player name it, and its cards were
    turned up in the same action."""
    if not card.is_wild:
        return False
    if card.rank is not Rank.WILD_COLOR_ROULETTE:
        return True
    for e in events[after:]:
        if type(e) is ev.RoulettePending:
            return False
        if type(e) is ev.CardsDrawn and e.reason is ev.DrawReason.ROULETTE:
            return True
    return False


def _hand_row(nick: str, cards: Sequence[Card], points: int, fmt: Cards) -> str:
    """``bob 3 cards (25 pts): R1 G5 WD4``: what one player held at the end of a hand."""
    return ngettext(
        "{nick} {n} card ({points} pts): {cards}",
        "{nick} {n} cards ({points} pts): {cards}",
        len(cards),
        nick=nick,
        points=points,
        cards=fmt.hand(cards),
    )


def _left(head: str, rest: Sequence[str]) -> str:
    """The hand's end, then (when anyone held cards) ``Left: ...``: a sentence of its own."""
    if not rest:
        return head
    left = _("Left: {hands}", hands="; ".join(rest))
    return f"{head} {left}"


def _hand_ended(outcome: ev.HandOutcome, names: Sequence[str], fmt: Cards) -> str:
    if outcome.winner >= 0:
        winner = names[outcome.winner]
        won = outcome.scores[outcome.winner]
        if won and outcome.bonus and max(outcome.scores) == sum(outcome.scores):
            head = ngettext(
                "{nick} wins the hand and {n} points, {bonus} of them for players knocked out!",
                "{nick} wins the hand and {n} points, {bonus} of them for players knocked out!",
                won,
                nick=winner,
                bonus=outcome.bonus,
            )
        elif won and max(outcome.scores) == sum(outcome.scores):
            head = ngettext(
                "{nick} wins the hand and {n} points!",
                "{nick} wins the hand and {n} points!",
                won,
                nick=winner,
            )
        else:
            head = _("{nick} wins the hand!", nick=winner)
    elif not outcome.complete:
        # The clock cut the hand short and it counts (the line before says so): the cards
        # and points counted, as for a finished hand.
        rows = [
            _hand_row(names[s], cards, outcome.points[s], fmt)
            for s, cards in enumerate(outcome.remaining)
        ]
        return _("Cards counted: {hands}", hands="; ".join(rows))
    else:
        head = _("Time is up!")
    rest = [
        _hand_row(names[s], cards, outcome.points[s], fmt)
        for s, cards in enumerate(outcome.remaining)
        if cards
    ]
    return _left(head, rest)


def _team(seat: int, names: Sequence[str], kind: TeamGame | None = TeamGame.PAIRS) -> str:
    """A team: in pairs by its players' names, ``ann + cat`` (partners sit opposite); of two
    teams by its letter, ``A`` for the even seats and ``B`` for the odd (five names would not
    fit the line)."""
    if kind is TeamGame.TWO_TEAMS:
        return "AB"[seat % 2]
    half = len(names) // 2
    return f"{names[seat % half]} + {names[seat % half + half]}"


def _team_hand_ended(
    outcome: ev.HandOutcome,
    names: Sequence[str],
    fmt: Cards,
    kind: TeamGame | None = TeamGame.PAIRS,
) -> str:
    """A teams hand: the player who went out wins it for the team, which scores the cards
    left in the opponents' hands (the teammates' are shown, and not counted)."""
    if outcome.winner < 0:
        return _hand_ended(outcome, names, fmt)
    team = _team(outcome.winner, names, kind)
    winner = names[outcome.winner]
    won = outcome.scores[outcome.winner]
    if won:
        head = ngettext(
            "{nick} wins the hand for team {team} and {n} points!",
            "{nick} wins the hand for team {team} and {n} points!",
            won,
            nick=winner,
            team=team,
        )
    else:
        head = _("{nick} wins the hand for team {team}!", nick=winner, team=team)
    rest = [
        _hand_row(names[s], cards, outcome.points[s], fmt)
        for s, cards in enumerate(outcome.remaining)
        if cards
    ]
    return _left(head, rest)


def _totals(shown: str) -> str:
    return _("Totals: {totals}", totals=shown)


def _team_match_ended(
    outcome: ev.MatchOutcome, names: Sequence[str], kind: TeamGame | None = TeamGame.PAIRS
) -> str:
    """Teammates' totals are their team's: each team is shown once (two teams: by letter,
    ``team A 520, team B 310``)."""
    if len(outcome.totals) != len(names) or len(names) % 2:
        return _match_ended(outcome, names)
    count = 2 if kind is TeamGame.TWO_TEAMS else len(names) // 2
    teams = sorted({s % count for s in outcome.winners})
    who = _and([_team(t, names, kind) for t in teams])
    if len(teams) == 1:
        head = _("Team {team} wins the match!", team=who)
    else:
        head = _("Teams {teams} win the match!", teams=who)
    if kind is TeamGame.TWO_TEAMS:
        totals = ", ".join(_team_total("AB"[t], outcome.totals[t]) for t in range(count))
    else:
        totals = ", ".join(f"{_team(t, names)} {outcome.totals[t]}" for t in range(count))
    return f"{head} {_totals(totals)}"


def _team_total(letter: str, total: int) -> str:
    """``team A 520``: a total of a game of two teams."""
    return _("team {team} {total}", team=letter, total=total)


def _match_ended(outcome: ev.MatchOutcome, names: Sequence[str], *, timed: bool = False) -> str:
    """``timed``: the time ran out, so a tie on the best total may have been broken by the
    points in the unfinished hand (``Match.end_by_time``); the line says so when it was."""
    who = _and([names[s] for s in outcome.winners])
    totals = ", ".join(f"{names[s]} {t}" for s, t in enumerate(outcome.totals))
    best = outcome.totals[outcome.winners[0]] if outcome.winners else None
    tied = sum(1 for t in outcome.totals if t == best)
    broken = timed and tied > len(outcome.winners)
    one = len(outcome.winners) == 1
    if broken and one:
        head = _("{nick} wins the match (the tie goes to the fewest points in hand)!", nick=who)
    elif broken:
        head = _("{nicks} win the match (the tie goes to the fewest points in hand)!", nicks=who)
    elif one:
        head = _("{nick} wins the match!", nick=who)
    else:
        head = _("{nicks} win the match!", nicks=who)
    return f"{head} {_totals(totals)}"


def _dealt(event: Dealt) -> str:
    """``Uno (official) [to 500 points, 60 minutes time limit]: ann, bob``."""
    if event.hand_number > 1:
        hand = _("hand {number}", number=event.hand_number)
    else:
        hand = _("Uno ({rules})", rules=event.rules)
    terms = []
    if event.target:
        terms.append(ngettext("to {n} points", "to {n} points", event.target))
    if event.time_limit:
        terms.append(_("{duration} time limit", duration=_duration(event.time_limit)))
    head = f"{hand} [{', '.join(terms)}]" if terms else hand
    players = ", ".join(event.players)
    if event.teams and event.two_teams:
        a, b = event.teams
        return _(
            "{hand}: {players}; two teams, seats alternating: team A {a}; team B {b}",
            hand=head,
            players=players,
            a=", ".join(a),
            b=", ".join(b),
        )
    if event.teams:
        shown = "; ".join(" + ".join(team) for team in event.teams)
        return _(
            "{hand}: {players}; teams (partners opposite): {teams}",
            hand=head,
            players=players,
            teams=shown,
        )
    return f"{head}: {players}"


def rules_note(rules: HouseRules) -> str:
    """What ``rules`` change from the classic game, one short sentence per feature (Seven-O,
    Jump-In, stacking, No Mercy's deck and mercy rule, teams, drawing until playable); empty
    for the classic game and the presets that only keep score differently.

    Said in a line of its own at a match's first deal (the deal line names only the preset:
    ``Uno (jump-in)`` tells a newcomer nothing), and derived from the options, not the
    preset's name, so a channel's own ``.unorules set`` combination is described as played.
    """
    parts: list[str] = []
    if rules.deck is Deck.FLIP:
        return _(
            "UNO Flip: a Flip card turns every card over. The dark side has Draw Five, Skip "
            "Everyone and Wild Draw Color (draw until that colour comes). Call UNO with your "
            "next-to-last card, or be caught: draw 2."
        )
    if rules.deck is Deck.NO_MERCY:
        parts.append(_("No Mercy deck: Skip Everyone, Discard All, +4, +6, +10, Colour Roulette."))
    if rules.seven_o:
        parts.append(_("Seven-O: a 7 swaps hands with whom you name, a 0 passes every hand on."))
    if rules.jump_in:
        parts.append(_("Jump-In: whoever holds the very card on top may play it out of turn."))
    if rules.stacking is Stacking.SAME and rules.deck is Deck.CLASSIC:
        parts.append(_("Stacking: +2 on +2, +4 on +4."))
    elif rules.stacking is Stacking.SAME:
        parts.append(_("Stacking: a draw card on the same kind."))
    elif rules.stacking is Stacking.ANY:
        parts.append(_("Stacking: any draw card on another."))
    elif rules.stacking is Stacking.HIGHER:
        parts.append(_("Stacking: a draw card that draws as many or more."))
    if rules.mercy_limit:
        parts.append(
            ngettext(
                "Mercy rule: {n} card or more puts you out of the hand.",
                "Mercy rule: {n} cards or more puts you out of the hand.",
                rules.mercy_limit,
            )
        )
    if rules.teams and rules.team_game is TeamGame.TWO_TEAMS:
        parts.append(_("Two teams: going out wins the hand for your whole team."))
    elif rules.teams:
        parts.append(_("Teams of two: going out wins the hand for both partners."))
    if rules.no_playable is NoPlayableCard.DRAW_UNTIL_PLAYABLE:
        parts.append(_("Nothing to play: draw until you can, then play it."))
    elif rules.no_playable is NoPlayableCard.DRAW_ONE_END_TURN:
        parts.append(_("Nothing to play: draw one, and your turn ends."))
    return " ".join(parts)


def _rules_notes(update: Update) -> list[str]:
    """The variant line of each first deal in ``update`` (:func:`rules_note`)."""
    notes = []
    for event in update.events:
        if type(event) is Dealt and event.variant is not None:
            note = rules_note(event.variant)
            if note:
                notes.append(note)
    return notes


def _table_fragment(event: TableEvent, fmt: Cards, prefix: str) -> str | None:
    match event:
        case Opened(starter=starter, lobby_seconds=secs):
            return _(
                "{starter} opens a game of Uno: {prefix}join to play; {starter} deals with "
                "{prefix}deal (anyone after {duration})",
                starter=starter,
                prefix=prefix,
                duration=_duration(secs),
            )
        case Joined(nick=nick, players=n, level=level):
            who = _("{nick} (computer, {level})", nick=nick, level=level) if level else nick
            return ngettext("{nick} joins ({n} player)", "{nick} joins ({n} players)", n, nick=who)
        case Left(nick=nick, starter=starter):
            if starter:
                return _("{nick} leaves; {starter} now deals", nick=nick, starter=starter)
            return _("{nick} leaves", nick=nick)
        case Dealt():
            return _dealt(event)
        case TeamAsked(nick=nick, other=other):
            return _(
                "{nick} asks {other} to be partners: {other}, {prefix}team {nick} to accept",
                nick=nick,
                other=other,
                prefix=prefix,
            )
        case TeamMade(nick=nick, other=other):
            return _("{nick} and {other} are a team", nick=nick, other=other)
        case TeamJoined(nicks=nicks, team=team, members=members):
            if len(nicks) > 1:
                return _(
                    "{nick} and {other} join team {team} (now {members})",
                    nick=nicks[0],
                    other=nicks[1],
                    team=team,
                    members=", ".join(members),
                )
            return _(
                "{nick} joins team {team} (now {members})",
                nick=nicks[0],
                team=team,
                members=", ".join(members),
            )
        case Totals(totals=totals, target=target, lowest_wins=low, lettered=lettered):
            if lettered:
                shown = ", ".join(_team_total(team, n) for team, n in totals)
            else:
                shown = ", ".join(f"{nick} {n}" for nick, n in totals)
            if low and target:
                goal = _("first to {target}, then lowest wins", target=target)
            elif low:
                goal = _("lowest wins")
            elif target:
                goal = _("first to {target}", target=target)
            else:
                goal = _("highest wins")  # a timed match of hands where the winner collects
            return _("Totals: {totals} ({goal})", totals=shown, goal=goal)
        case TimeWarning(seconds=secs, last_hand=last):
            if last:
                return _(
                    "{duration} left in this round: this hand is the last",
                    duration=_duration(secs),
                )
            return _("{duration} left in this game", duration=_duration(secs))
        case RoundOver():
            return _("The round warning was given, so no new hand is dealt: the round ends here")
        case TimeUp(counted=counted):
            if counted:
                return _("Time is up: the unfinished hand counts")
            return _("Time is up")
        case Warned(nick=nick, seconds=secs):
            return _("{nick}: your turn, {seconds}s left", nick=nick, seconds=secs)
        case TimedOut(nick=nick):
            return _("{nick} ran out of time", nick=nick)
        case Away(nick=nick, seconds=secs):
            return _("{nick} left: their seat is held for {seconds}s", nick=nick, seconds=secs)
        case Back(nick=nick):
            return _("{nick} is back", nick=nick)
        case Removed(nick=nick, why=why, held=held):
            why = speak(why, language())  # the table wrote it, on a timer: in English
            if not held:  # No Mercy: already out of the hand, holding nothing
                return _(
                    "{nick} leaves ({why}); the mercy rule had already put them out",
                    nick=nick,
                    why=why,
                )
            return _(
                "{nick} is out ({why}), their cards go under the draw pile", nick=nick, why=why
            )
        case Penalized(nick=nick, cards=cards):
            return ngettext(
                "{nick} draws {n}: a penalty from the tournament director",
                "{nick} draws {n}: a penalty from the tournament director",
                cards,
                nick=nick,
            )
        case Stopped(by=by, why=why):
            if by:
                return _("{nick} stopped the game", nick=by)
            return _("The game is over: {why}", why=speak(why, language()))
    return None


def _duration(seconds: int) -> str:
    """``60 minutes``, ``1h30m``, ``90 seconds``: as a player would say it."""
    if seconds % 60:
        return ngettext("{n} second", "{n} seconds", seconds)
    minutes = seconds // 60
    if minutes >= 120 and minutes % 60:
        return f"{minutes // 60}h{minutes % 60:02d}m"
    if minutes >= 120:
        return ngettext("{n} hour", "{n} hours", minutes // 60)
    return ngettext("{n} minute", "{n} minutes", minutes)


def invite_text(prefix: str = ".") -> str:
    """The line after a game ends: how to play again."""
    return _("{prefix}uno for another game.", prefix=prefix)


def wait_text(seconds: float) -> str:
    """How long until something, as a person says it: ``in 30 seconds``, ``in about 5
    minutes`` (never ``after 295s``: a countdown to the second reads like a machine's)."""
    secs = max(1, math.ceil(seconds))
    if secs < 60:
        return ngettext("in {n} second", "in {n} seconds", secs)
    minutes = round(secs / 60)
    if minutes < 90:
        return ngettext("in about {n} minute", "in about {n} minutes", minutes)
    return ngettext("in about {n} hour", "in about {n} hours", round(minutes / 60))


def _pending(status: Status, prefix: str) -> str:
    """``bob must draw 4 (.draw or stack a +4 or .challenge).``: each way to answer it."""
    nick, n, card = status.current, status.pending, status.stack
    if status.stack and status.challenge:
        return ngettext(
            "{nick} must draw {n} ({prefix}draw or stack a {card} or {prefix}challenge).",
            "{nick} must draw {n} ({prefix}draw or stack a {card} or {prefix}challenge).",
            n,
            nick=nick,
            prefix=prefix,
            card=card,
        )
    if status.stack:
        return ngettext(
            "{nick} must draw {n} ({prefix}draw or stack a {card}).",
            "{nick} must draw {n} ({prefix}draw or stack a {card}).",
            n,
            nick=nick,
            prefix=prefix,
            card=card,
        )
    if status.challenge:
        return ngettext(
            "{nick} must draw {n} ({prefix}draw or {prefix}challenge).",
            "{nick} must draw {n} ({prefix}draw or {prefix}challenge).",
            n,
            nick=nick,
            prefix=prefix,
        )
    return ngettext(
        "{nick} must draw {n} ({prefix}draw).",
        "{nick} must draw {n} ({prefix}draw).",
        n,
        nick=nick,
        prefix=prefix,
    )


def status_text(
    status: Status,
    fmt: Cards,
    prefix: str = ".",
    *,
    top: bool = True,
    announced: frozenset[str] = frozenset(),
) -> str:
    """``Top: W (blue). bob's turn.``, plus who has UNO and what the player to move must do.

    ``top=False`` leaves out ``Top: ...`` when the line just said which card it is (``First
    card B7.``); ``announced``: folded nicks whose UNO the line already called out (``ann plays
    R1 (UNO!)``), not repeated in ``UNO: ...``."""
    parts: list[str] = []
    roulette = status.phase is Phase.ROULETTE
    if top:
        # While the Roulette's colour is awaited, the colour before it is of no use to anyone.
        shown = fmt.card(status.top) if roulette else fmt.top(status.top, status.color)
        if not status.side:
            parts.append(_("Top: {card}.", card=shown))
        elif status.side == "dark":  # UNO Flip
            parts.append(_("Top: {card}, dark side up.", card=shown))
        else:
            parts.append(_("Top: {card}, light side up.", card=shown))
    if roulette:
        parts.append(
            _(
                "{nick}: name a colour for the roulette ({prefix}color r/y/g/b), then draw "
                "until it comes.",
                nick=status.current,
                prefix=prefix,
            )
        )
    elif status.phase is Phase.CHOOSE_COLOR and status.side == "dark":
        parts.append(
            _(
                "{nick} picks the colour ({prefix}color p/t/o/u).",
                nick=status.current,
                prefix=prefix,
            )
        )
    elif status.phase is Phase.CHOOSE_COLOR:
        parts.append(
            _(
                "{nick} picks the colour ({prefix}color r/y/g/b).",
                nick=status.current,
                prefix=prefix,
            )
        )
    elif status.phase is Phase.PENDING and status.side:
        # UNO Flip: a Wild Draw Two or Wild Draw Color, to draw or challenge.
        parts.append(
            _(
                "{nick} must answer {card}: {prefix}draw or {prefix}challenge.",
                nick=status.current,
                card=fmt.card(status.top),
                prefix=prefix,
            )
        )
    elif status.phase is Phase.PENDING:
        parts.append(_pending(status, prefix))
    else:
        parts.append(_("{nick}'s turn.", nick=status.current))
    uno = [nick for nick, n in status.counts if n == 1 and irc_lower(nick) not in announced]
    if uno:
        parts.append(_("UNO: {nicks}.", nicks=", ".join(uno)))
    return " ".join(parts)


_RESUMED = {
    "disconnect": N_("Reconnected: the game goes on."),
    "kick": N_("Back after a kick: the game goes on."),
    "restart": N_("Restored after a restart: the game goes on."),
    "pause": N_("The tournament's clock runs again: the game goes on."),
}


def resumed_text(
    why: str,
    status: Status | None,
    lobby: tuple[str, Sequence[str]] | None,
    fmt: Cards,
    prefix: str = ".",
) -> str:
    """The one line a channel gets when the bot is back in it (``why``: ``disconnect`` or
    ``kick``): that the game goes on, then the status line (whose turn it is), or for a lobby
    who sits at it (``lobby``: the starter and every seat's nick). At most :data:`LIMIT`
    bytes: long nicks cut its end short, marked ``…``."""
    head = _(_RESUMED[why]) if why in _RESUMED else _("Back: the game goes on.")
    if status is not None:
        text = f"{head} {status_text(status, fmt, prefix)}"
    elif lobby is not None:
        starter, names = lobby
        lobby_text = ngettext(
            "{starter}'s game is open ({n} player: {names}): {prefix}join to play.",
            "{starter}'s game is open ({n} players: {names}): {prefix}join to play.",
            len(names),
            starter=starter,
            names=", ".join(names),
            prefix=prefix,
        )
        text = f"{head} {lobby_text}"
    else:
        text = head
    return text if len(text.encode()) <= LIMIT else fit(text, LIMIT - 4)[0] + " …"


def held_text(nick: str, seconds: str) -> str:
    """The channel's line when the server makes the bot wait before it may send ``nick``
    their cards (ircu's target-change limit), ``seconds`` as the server said."""
    if seconds.isdigit():
        text = _(
            "{nick}: the server makes me wait {seconds} s before I can send you your cards; "
            "they follow by themselves.",
            nick=nick,
            seconds=seconds,
        )
    else:
        text = _(
            "{nick}: the server makes me wait a while before I can send you your cards; they "
            "follow by themselves.",
            nick=nick,
        )
    return text if len(text.encode()) <= LIMIT else fit(text, LIMIT - 4)[0] + " …"


def channel_text(
    update: Update, fmt: Cards, prefix: str = ".", *, status: str | None = None
) -> str:
    """The update's channel text as one string (split with :func:`fit` to send it).

    An action's engine events form one sentence of clauses (``alice plays RD2, bob draws 2 and
    is skipped.``); the end of a hand and table events are sentences of their own.
    ``status``: the status sentence when the caller has made it already.
    """
    sentences: list[str] = []
    clauses: list[_Fragment] = []
    announced = frozenset(irc_lower(e.nick) for e in update.events if type(e) is Removed)
    timed_out = any(type(e) is TimeUp or type(e) is RoundOver for e in update.events)

    def flush() -> None:
        if clauses:
            sentences.append(_sentence(", ".join(_text(c) for c in clauses)))
            clauses.clear()

    for event in update.events:
        if type(event) is EngineEvents:
            fragments = _engine_fragments(
                event, fmt, announced, match_line=timed_out, prefix=prefix
            )
        elif type(event) is FlipEvents:
            fragments = _flip_fragments(event, fmt, announced)
        else:
            flush()
            text = _table_fragment(event, fmt, prefix)
            if text:
                sentences.append(_sentence(text))
            continue
        for fragment in fragments:
            if isinstance(fragment, _Opening):
                flush()
                sentences.append(_sentence(fragment.text()))
            elif isinstance(fragment, str) and fragment.startswith(_NEW_SENTENCE):
                flush()
                sentences.append(_sentence(fragment[1:]))
            elif clauses and _continues(clauses[-1], fragment):
                # "draws a card and plays R5", "draws a card, plays WD4 and picks green"
                assert isinstance(fragment, _Play | _Pass)
                previous = clauses[-1]
                assert isinstance(previous, _Draw)
                fragment.drew = previous.n
                clauses[-1] = fragment
            else:
                clauses.append(fragment)
    flush()
    if update.status is not None and sentences:
        sentences.append(status if status is not None else _update_status(update, fmt, prefix))
    return " ".join(sentences)


def _update_status(update: Update, fmt: Cards, prefix: str) -> str:
    """The status sentence that ends an update's line, without what the line already said:
    the top card when the line turned it (``First card B7. ann's turn.``), and the UNO of a
    player whose play or call in it said ``UNO``."""
    assert update.status is not None
    first: Card | None = None
    called: set[str] = set()
    for batch in update.events:
        if type(batch) is FlipEvents:
            called.update(
                irc_lower(batch.names[e.seat])
                for e in batch.events
                if e.kind == "uno" and 0 <= e.seat < len(batch.names)
            )
            continue
        if type(batch) is not EngineEvents:
            continue
        for e in batch.events:
            if type(e) is ev.StartCardTurned:
                first = e.card
            elif type(e) is ev.UnoCalled and 0 <= e.seat < len(batch.names):
                called.add(irc_lower(batch.names[e.seat]))
            elif type(e) is ev.CardPlayed:
                first = None  # a card went on it since
    top = first is None or first is not update.status.top
    return status_text(update.status, fmt, prefix, top=top, announced=frozenset(called))


def _continues(previous: _Fragment, fragment: _Fragment) -> bool:
    """``bob draws a card`` + ``bob plays G5`` -> ``bob draws a card and plays G5`` (also
    ``draws 3 cards``: drawing until playable): by the clauses' structure, not their words."""
    if not isinstance(previous, _Draw) or isinstance(fragment, str | _Draw | _Opening):
        return False
    jump = isinstance(fragment, _Play) and fragment.jump
    return not jump and not fragment.drew and previous.nick == fragment.nick


def _sentence(text: str) -> str:
    return text if text.endswith(("!", ".", "?")) else text + "."


def render_update(
    update: Update,
    channel: str,
    colors_for: Callable[[str], bool],
    *,
    channel_colors: bool = True,
    prefix: str = ".",
    invite: bool = False,
    turn_hands: Callable[[str], bool] | None = None,
    language_for: Callable[[str], str] | None = None,
    query: Callable[[str], bool] | None = None,
) -> list[Line]:
    """Every line an update produces: the channel's first, then each changed hand, then the
    optional hands (the turn's, :attr:`HandNotice.optional`) of the players ``turn_hands``
    says want them (default: all). Optional hands are tagged so: the send queue sends them
    first in their channel's turn (with more than two games on the connection, from spare
    budget only), and drops them when their channel moves on.

    A hand goes by NOTICE, or by PRIVMSG to the players ``query`` names (``.unohand query``:
    clients show a private message in a query window of its own, where irssi puts a NOTICE
    in the status window); either way with the same tag, so the send queue treats both alike.

    ``invite``: when the update ends the game, a short sentence says how to start another
    (a newcomer otherwise waits for something to happen), at the end of the last line (a line
    of its own only when it doesn't fit); the caller leaves it out where nobody may start one
    (a tournament's table)."""
    fmt = Cards(channel_colors)
    # Made once: the line ends in it, and the send queue folds a waiting status line by it.
    status = None if update.status is None else _update_status(update, fmt, prefix)
    texts = [text for text in fit(channel_text(update, fmt, prefix, status=status)) if text]
    game = Tag(channel)
    if len(texts) == 1 and status is not None and texts[0].endswith(status):
        # One line ending in the status: while it waits to be sent, the next one folds in.
        game = Tag(channel, key="status", status=status)
    lines = [Line("privmsg", channel, text, game) for text in texts]
    for note in _rules_notes(update):  # after the deal's line: a line of its own
        lines.extend(Line("privmsg", channel, text, Tag(channel)) for text in fit(note))
    if invite and update.finished and texts:
        # On the game's last line when it fits: a line of its own is one more send slot
        # that every other table's next line waits behind.
        joined = f"{_sentence(texts[-1])} {invite_text(prefix)}"
        if len(joined.encode()) <= LIMIT:
            last = lines[-1].tag
            lines[-1] = Line("privmsg", channel, joined, Tag(channel) if last.status else last)
        else:
            lines.append(Line("privmsg", channel, invite_text(prefix), Tag(channel)))
    current = language()
    for note in update.notes:
        # To the player alone, in their language: an answer to their own command.
        spoken = language_for(note.nick) if language_for is not None else current
        with speaking(spoken):
            text = early_uno_text(note, prefix)
        lines.append(Line("notice", note.nick, text, Tag(channel, reply=True)))
    hands = update.hands.items()
    if len(hands) > 1:
        hands = sorted(hands, key=lambda item: item[1].optional)  # stable: the turn's last
    for nick, notice in hands:
        if notice.optional and turn_hands is not None and not turn_hands(nick):
            continue
        fmt = Cards(colors_for(nick))
        key = "hand " + irc_lower(nick)  # a newer hand replaces a queued one
        spoken = language_for(nick) if language_for is not None else current
        if spoken == current:
            texts = hand_lines(notice, fmt)
        else:
            with speaking(spoken):
                texts = hand_lines(notice, fmt)
        kind = "privmsg" if query is not None and query(nick) else "notice"
        lines.extend(
            Line(
                kind,
                nick,
                text,
                Tag(channel, key=key, part=part, optional=notice.optional, again=notice.again),
            )
            for part, text in enumerate(texts)
        )
    return lines


def early_uno_text(note: EarlyUno, prefix: str = ".") -> str:
    """To a player whose ``uno`` came with a play that left them more than one card."""
    return ngettext(
        "Your card is played, but UNO is not called: you still hold {n} card. Call it with "
        "your next-to-last card ({prefix}p <card> uno).",
        "Your card is played, but UNO is not called: you still hold {n} cards. Call it with "
        "your next-to-last card ({prefix}p <card> uno).",
        note.left,
        prefix=prefix,
    )


def plain_hand(cards: Iterable[Card]) -> str:
    """The hand in plain notation (same as :func:`unobot.core.render.hand_text`)."""
    return hand_text(list(cards))


# strip_codes (imported above) undoes the formatting this module writes: it lives in the IRC
# layer beside sanitize, which keeps the same codes, so that the adapter can read services'
# formatted notices into plain log lines too.
