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

from unobot.core.render import hand_text
from unobot.core.updates import (
    Away,
    Back,
    Dealt,
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
from unobot.engine.cards import Card, Color
from unobot.i18n import language, speaking
from unobot.irc.casemap import irc_lower
from unobot.irc.outbox import strip_codes
from unobot.irc.transport import UNTAGGED, Tag

__all__ = [
    "LIMIT",
    "Cards",
    "Line",
    "channel_text",
    "fit",
    "hand_lines",
    "held_text",
    "invite_text",
    "render_update",
    "resumed_text",
    "status_text",
    "strip_codes",
    "wait_text",
]

LIMIT = 400
"""Bytes per line: servers cut relayed lines near 470 bytes including the prefix."""

_MIRC = {Color.RED: "01,04", Color.YELLOW: "01,08", Color.GREEN: "01,03", Color.BLUE: "00,12"}
"""Each suit as a small coloured card: text and background both set (mIRC ``fg,bg``), so it
reads the same on a client's white background (mIRC's and HexChat's default) as on a dark
one. Yellow text alone (``08``) was nearly invisible on white, and blue (``12``) hard to read
on black. With the standard mIRC palette every pair has a WCAG contrast of at least 5:1
(tests/test_card_colours.py measures it); wilds are bold in the client's own text colour."""
_RESET = "\x0f"  # not \x03: a digit after a bare \x03 would be read as a colour code
_BOLD = "\x02"
_NEW_SENTENCE = "\x00"  # marks a fragment that starts a sentence of its own (never sent)


@dataclass(frozen=True, slots=True)
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
        if card.color is None:
            return f"{_BOLD}{card.text}{_RESET}"
        return f"\x03{_MIRC[card.color]}{card.text}{_RESET}"

    def color(self, color: Color) -> str:
        return f"\x03{_MIRC[color]}{color}{_RESET}" if self.colors else str(color)

    def hand(self, cards: Iterable[Card], playable: Iterable[Card] | None = None) -> str:
        """The cards in order; with ``playable``, those cards marked: in bold with colours
        (and only they: a wild that can't be played loses its usual bold), else in brackets
        (``[R5]``), so that plain text stays free of formatting codes."""
        ordered = sorted(cards, key=lambda c: c.code)
        if playable is None:
            return " ".join(self.card(c) for c in ordered)
        marked = frozenset(playable)
        if not self.colors:
            return " ".join(f"[{c.text}]" if c in marked else c.text for c in ordered)
        # \x02 toggles: a wild is written bold already (card), a colour card gets it here.
        return " ".join(
            (self.card(c) if c.is_wild else _BOLD + self.card(c))
            if c in marked
            else (c.text if c.is_wild else self.card(c))
            for c in ordered
        )

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
    just reached the player, ``Your turn | Your cards (8): [R1] ...`` (playable cards marked)."""
    head = f"You drew {fmt.hand(notice.new)} | " if notice.new else ""
    if notice.hint:  # before the hand: clients (and test agents) read the hand to the end
        head += f"{notice.hint} | "
    if notice.turn:
        head += "Your turn | "
    cards = fmt.hand(notice.cards, notice.playable)
    return fit(f"{head}Your cards ({len(notice.cards)}): {cards}")


# --- channel ---------------------------------------------------------------------------------


def _plural(n: int, word: str = "card") -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


_REASON = {
    ev.DrawReason.MISSED_UNO: " for not calling UNO",
    ev.DrawReason.FALSE_UNO: " for a false UNO",
    ev.DrawReason.CHALLENGE: " (challenge)",
    ev.DrawReason.ILLEGAL_PLAY: " for an illegal play",
}


def _engine_fragments(
    batch: EngineEvents,
    fmt: Cards,
    announced: frozenset[str] = frozenset(),
    *,
    match_line: bool = False,
    prefix: str = ".",
) -> list[str]:
    """Short phrases for one action's engine events, merging the ones that belong together.

    ``announced``: folded nicks whose removal a table event already told the channel about
    (``X is out (...)``), so their ``SeatRemoved`` adds nothing. Events this renderer doesn't
    know say nothing rather than fail: the engine may grow events before the renderer does.
    ``match_line``: announce the match's end even after a single hand (a timed match).
    """
    names = batch.names
    events = batch.events
    out: list[str] = []
    opening = -1  # index in ``out`` of "First card X" while its effects follow
    effects = 0  # effects already joined to it
    jumper = -1  # Jump-In: the seat whose CardPlayed is a jump
    i = 0
    while i < len(events):
        e = events[i]
        nxt = events[i + 1] if i + 1 < len(events) else None
        i += 1
        before = len(out)
        match e:
            case ev.CardPlayed(seat=seat, card=card, color=color, cards_left=left):
                verb = "jumps in with" if seat == jumper else "plays"
                text = f"{names[seat]} {verb} {fmt.card(card)}"
                if card.is_wild:
                    text += f" and picks {fmt.color(color)}"
                if left == 2:
                    text += " (2 cards left)"
                out.append(text)
            case ev.UnoCalled(seat=seat):
                if out and out[-1].startswith((f"{names[seat]} plays ", f"{names[seat]} jumps ")):
                    out[-1] += " (UNO!)"
                else:
                    out.append(f"{names[seat]} calls UNO")
            case ev.CardsDrawn(seat=seat, cards=cards, reason=reason):
                n = len(cards)
                who = names[seat]
                if type(nxt) is ev.Skipped and nxt.seat == seat:
                    out.append(f"{who} draws {n} and is skipped")
                    i += 1
                elif reason is ev.DrawReason.DRAW and type(nxt) is ev.TurnPassed:
                    out.append(f"{who} draws {'a card' if n == 1 else n} and passes")
                    i += 1
                elif reason is ev.DrawReason.DRAW:
                    out.append(f"{who} draws {'a card' if n == 1 else _plural(n)}")
                elif reason is not ev.DrawReason.MISSED_UNO:  # UnoCaught says it
                    out.append(f"{who} draws {n}{_REASON.get(reason, '')}")
            case ev.Skipped(seat=seat):
                out.append(f"{names[seat]} is skipped")
            case ev.Reversed():
                out.append("play goes the other way")
            case ev.ColorChosen(seat=seat, color=color):
                out.append(f"{names[seat]} picks {fmt.color(color)}")
            case ev.TurnPassed(seat=seat):
                out.append(f"{names[seat]} passes")
            case ev.DrawPending(seat=seat, total=total):
                out.append(f"{names[seat]} must draw {total}")
            case ev.UnoCaught(catcher=c, target=t, penalty=p):
                out.append(f"{names[c]} catches {names[t]} without UNO: {names[t]} draws {p}")
            case ev.ChallengeResolved(challenger=c, offender=o, guilty=guilty):
                verdict = "it was a bluff" if guilty else "it was fair"
                out.append(f"{names[c]} challenges {names[o]}'s WD4: {verdict}")
            case ev.Reshuffled():
                out.append("the discards are shuffled into a new draw pile")
            case ev.StartCardTurned(card=card):
                out.append(f"{_NEW_SENTENCE}First card {fmt.card(card)}")
                opening, effects = len(out) - 1, 0
                continue
            case ev.StartCardReplaced(card=card):
                out.append(f"{fmt.card(card)} goes back in the deck")
            case ev.FirstPlayerDraw(seats=seats, cards=cards):
                shown = ", ".join(
                    f"{names[s]} {fmt.card(c)}" for s, c in zip(seats, cards, strict=True)
                )
                out.append(f"draw for first player: {shown}")
            case ev.HandEnded(outcome=outcome) if batch.teams:
                out.append(_NEW_SENTENCE + _team_hand_ended(outcome, names, fmt))
            case ev.HandEnded(outcome=outcome):
                out.append(_NEW_SENTENCE + _hand_ended(outcome, names, fmt))
            case ev.MatchEnded(outcome=outcome) if batch.teams:
                out.append(_NEW_SENTENCE + _team_match_ended(outcome, names))
            case ev.MatchEnded(outcome=outcome):
                if outcome.hands > 1 or len(outcome.winners) != 1 or match_line:
                    out.append(_NEW_SENTENCE + _match_ended(outcome, names, timed=match_line))
            case ev.JumpedIn(seat=seat):
                jumper = seat
            case ev.SwapPending(seat=seat):
                out.append(f"{_NEW_SENTENCE}{names[seat]}: swap with whom? {prefix}swap <nick>")
            case ev.HandsSwapped(seat=a, target=b, seat_cards=na, target_cards=nb):
                out.append(
                    f"{names[a]} swaps hands with {names[b]} "
                    f"({names[a]} now holds {_plural(na)}, {names[b]} {_plural(nb)})"
                )
            case ev.HandsRotated(direction=_d, counts=counts):
                held = ", ".join(f"{names[s]} {n}" for s, n in enumerate(counts))
                out.append(f"every hand passes to the next player ({held})")
            case ev.EveryoneSkipped(seat=seat):
                out.append(f"everyone else is skipped: {names[seat]} plays again")
            case ev.CardsDiscarded(seat=seat, cards=cards, left=left):
                shown = " ".join(fmt.card(c) for c in cards)
                out.append(f"{names[seat]} discards {shown} too ({_plural(left)} left)")
            case ev.Eliminated(seat=seat, cards=n):
                out.append(
                    f"{_NEW_SENTENCE}MERCY! {names[seat]} holds {n} cards and is out of the hand"
                )
            case ev.SeatRemoved(seat=seat, cards=n):
                if irc_lower(names[seat]) not in announced:
                    out.append(f"{names[seat]} leaves the hand ({_plural(n)} under the draw pile)")
                # Seats after it are renumbered from the next event on.
                names = (*names[:seat], *names[seat + 1 :])
            case _:
                pass
        if opening >= 0 and len(out) > before:
            if type(e) in _FIRST_CARD_EFFECTS:
                # What the first card does belongs to it: "First card BS: ann is skipped".
                out[opening] += (", " if effects else ": ") + ", ".join(out[before:])
                effects += 1
                del out[before:]
            else:
                opening = -1
    return out


_FIRST_CARD_EFFECTS = (ev.Skipped, ev.Reversed, ev.CardsDrawn)


def _hand_ended(outcome: ev.HandOutcome, names: Sequence[str], fmt: Cards) -> str:
    if outcome.winner >= 0:
        head = f"{names[outcome.winner]} wins the hand"
        if outcome.scores[outcome.winner] and max(outcome.scores) == sum(outcome.scores):
            head += f" and {outcome.scores[outcome.winner]} points"
    elif not outcome.complete:
        # The clock cut the hand short and it counts (the line before says so): the cards
        # and points counted, as for a finished hand.
        rest = [
            f"{names[s]} {_plural(len(cards))} ({outcome.points[s]} pts): {fmt.hand(cards)}"
            for s, cards in enumerate(outcome.remaining)
        ]
        return f"Cards counted: {'; '.join(rest)}"
    else:
        head = "Time is up"
    rest = [
        f"{names[s]} {_plural(len(cards))} ({outcome.points[s]} pts): {fmt.hand(cards)}"
        for s, cards in enumerate(outcome.remaining)
        if cards
    ]
    return f"{head}! Left: {'; '.join(rest)}" if rest else f"{head}!"


def _team(seat: int, names: Sequence[str]) -> str:
    """A team by its players' names, ``ann + cat`` (partners sit opposite)."""
    half = len(names) // 2
    return f"{names[seat % half]} + {names[seat % half + half]}"


def _team_hand_ended(outcome: ev.HandOutcome, names: Sequence[str], fmt: Cards) -> str:
    """A teams hand: the player who went out wins it for the team, which scores the cards
    left in the opponents' hands (the partner's are shown, and not counted)."""
    if outcome.winner < 0:
        return _hand_ended(outcome, names, fmt)
    team = _team(outcome.winner, names)
    head = f"{names[outcome.winner]} wins the hand for team {team}"
    won = outcome.scores[outcome.winner]
    if won:
        head += f" and {won} points"
    rest = [
        f"{names[s]} {_plural(len(cards))} ({outcome.points[s]} pts): {fmt.hand(cards)}"
        for s, cards in enumerate(outcome.remaining)
        if cards
    ]
    return f"{head}! Left: {'; '.join(rest)}" if rest else f"{head}!"


def _team_match_ended(outcome: ev.MatchOutcome, names: Sequence[str]) -> str:
    """Partners' totals are their team's: each team is shown once."""
    half = len(names) // 2
    if len(outcome.totals) != len(names) or len(names) % 2:
        return _match_ended(outcome, names)
    teams = sorted({s % half for s in outcome.winners})
    who = " and ".join(_team(t, names) for t in teams)
    head = f"Team {who} wins" if len(teams) == 1 else f"Teams {who} win"
    totals = ", ".join(f"{_team(t, names)} {outcome.totals[t]}" for t in range(half))
    return f"{head} the match! Totals: {totals}"


def _match_ended(outcome: ev.MatchOutcome, names: Sequence[str], *, timed: bool = False) -> str:
    """``timed``: the time ran out, so a tie on the best total may have been broken by the
    points in the unfinished hand (``Match.end_by_time``); the line says so when it was."""
    who = " and ".join(names[s] for s in outcome.winners)
    totals = ", ".join(f"{names[s]} {t}" for s, t in enumerate(outcome.totals))
    best = outcome.totals[outcome.winners[0]] if outcome.winners else None
    tied = sum(1 for t in outcome.totals if t == best)
    broken = timed and tied > len(outcome.winners)
    verb = "wins" if len(outcome.winners) == 1 else "win"
    note = " (the tie goes to the fewest points in hand)" if broken else ""
    return f"{who} {verb} the match{note}! Totals: {totals}"


def _table_fragment(event: TableEvent, fmt: Cards, prefix: str) -> str | None:
    match event:
        case Opened(starter=starter, lobby_seconds=secs):
            return (
                f"{starter} opens a game of Uno: {prefix}join to play; {starter} deals with "
                f"{prefix}deal (anyone after {_duration(secs)})"
            )
        case Joined(nick=nick, players=n, level=level):
            who = f"{nick} (computer, {level})" if level else nick
            return f"{who} joins ({_plural(n, 'player')})"
        case Left(nick=nick, starter=starter):
            return f"{nick} leaves" + (f"; {starter} now deals" if starter else "")
        case Dealt(players=players, rules=rules, hand_number=number, time_limit=secs, target=t):
            hand = f"hand {number}" if number > 1 else f"Uno ({rules})"
            terms = []
            if t:
                terms.append(f"to {t} points")
            if secs:
                terms.append(f"{_duration(secs)} time limit")
            extra = f" [{', '.join(terms)}]" if terms else ""
            teams = event.teams
            if teams:
                shown = "; ".join(f"{a} + {b}" for a, b in teams)
                return f"{hand}{extra}: {', '.join(players)}; teams (partners opposite): {shown}"
            return f"{hand}{extra}: {', '.join(players)}"
        case TeamAsked(nick=nick, other=other):
            return f"{nick} asks {other} to be partners: {other}, {prefix}team {nick} to accept"
        case TeamMade(nick=nick, other=other):
            return f"{nick} and {other} are a team"
        case Totals(totals=totals, target=target, lowest_wins=low):
            shown = ", ".join(f"{nick} {n}" for nick, n in totals)
            goal = f"first to {target}" if target else ""
            if low:
                goal = f"{goal}, then lowest wins" if goal else "lowest wins"
            elif not target:
                goal = "highest wins"  # a timed match of hands where the winner collects
            return f"Totals: {shown}" + (f" ({goal})" if goal else "")
        case TimeWarning(seconds=secs, last_hand=last):
            if last:
                return f"{_duration(secs)} left in this round: this hand is the last"
            return f"{_duration(secs)} left in this game"
        case RoundOver():
            return "The round warning was given, so no new hand is dealt: the round ends here"
        case TimeUp(counted=counted):
            return "Time is up" + (": the unfinished hand counts" if counted else "")
        case Warned(nick=nick, seconds=secs):
            return f"{nick}: your turn, {secs}s left"
        case TimedOut(nick=nick):
            return f"{nick} ran out of time"
        case Away(nick=nick, seconds=secs):
            return f"{nick} left: their seat is held for {secs}s"
        case Back(nick=nick):
            return f"{nick} is back"
        case Removed(nick=nick, why=why, held=held):
            if not held:  # No Mercy: already out of the hand, holding nothing
                return f"{nick} leaves ({why}); the mercy rule had already put them out"
            return f"{nick} is out ({why}), their cards go under the draw pile"
        case Penalized(nick=nick, cards=cards):
            return f"{nick} draws {cards}: a penalty from the tournament director"
        case Stopped(by=by, why=why):
            return f"{by} stopped the game" if by else f"The game is over: {why}"
    return None


def _duration(seconds: int) -> str:
    """``60 minutes``, ``1h30m``, ``90 seconds``: as a player would say it."""
    if seconds % 60:
        return _plural(seconds, "second")
    minutes = seconds // 60
    if minutes >= 120 and minutes % 60:
        return f"{minutes // 60}h{minutes % 60:02d}m"
    if minutes >= 120:
        return _plural(minutes // 60, "hour")
    return _plural(minutes, "minute")


def invite_text(prefix: str = ".") -> str:
    """The line after a game ends: how to play again."""
    return f"{prefix}uno for another game."


def wait_text(seconds: float) -> str:
    """How long until something, as a person says it: ``in 30 seconds``, ``in about 5
    minutes`` (never ``after 295s``: a countdown to the second reads like a machine's)."""
    secs = max(1, math.ceil(seconds))
    if secs < 60:
        return f"in {_plural(secs, 'second')}"
    minutes = round(secs / 60)
    if minutes < 90:
        return f"in about {_plural(minutes, 'minute')}"
    return f"in about {_plural(round(minutes / 60), 'hour')}"


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
    text = f"Top: {fmt.top(status.top, status.color)}. " if top else ""
    if status.phase is Phase.CHOOSE_COLOR:
        text += f"{status.current} picks the colour ({prefix}color r/y/g/b)."
    elif status.phase is Phase.PENDING:
        answers = [f"{prefix}draw"]
        if status.stack:
            answers.append(f"stack a {status.stack}")
        if status.challenge:
            answers.append(f"{prefix}challenge")
        text += f"{status.current} must draw {status.pending} ({' or '.join(answers)})."
    else:
        text += f"{status.current}'s turn."
    uno = [nick for nick, n in status.counts if n == 1 and irc_lower(nick) not in announced]
    if uno:
        text += f" UNO: {', '.join(uno)}."
    return text


_RESUMED = {
    "disconnect": "Reconnected: the game goes on.",
    "kick": "Back after a kick: the game goes on.",
    "restart": "Restored after a restart: the game goes on.",
    "pause": "The tournament's clock runs again: the game goes on.",
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
    head = _RESUMED.get(why, "Back: the game goes on.")
    if status is not None:
        text = f"{head} {status_text(status, fmt, prefix)}"
    elif lobby is not None:
        starter, names = lobby
        seats = f"{_plural(len(names), 'player')}: {', '.join(names)}"
        text = f"{head} {starter}'s game is open ({seats}): {prefix}join to play."
    else:
        text = head
    return text if len(text.encode()) <= LIMIT else fit(text, LIMIT - 4)[0] + " …"


def held_text(nick: str, seconds: str) -> str:
    """The channel's line when the server makes the bot wait before it may send ``nick``
    their cards (ircu's target-change limit), ``seconds`` as the server said."""
    wait = f"{seconds} s" if seconds.isdigit() else "a while"
    text = (
        f"{nick}: the server makes me wait {wait} before I can send you your cards; they "
        "follow by themselves."
    )
    return text if len(text.encode()) <= LIMIT else fit(text, LIMIT - 4)[0] + " …"


def channel_text(update: Update, fmt: Cards, prefix: str = ".") -> str:
    """The update's channel text as one string (split with :func:`fit` to send it).

    An action's engine events form one sentence of clauses (``alice plays RD2, bob draws 2 and
    is skipped.``); the end of a hand and table events are sentences of their own.
    """
    sentences: list[str] = []
    clauses: list[str] = []
    announced = frozenset(irc_lower(e.nick) for e in update.events if type(e) is Removed)
    timed_out = any(type(e) is TimeUp or type(e) is RoundOver for e in update.events)

    def flush() -> None:
        if clauses:
            sentences.append(_sentence(", ".join(clauses)))
            clauses.clear()

    for event in update.events:
        if type(event) is not EngineEvents:
            flush()
            text = _table_fragment(event, fmt, prefix)
            if text:
                sentences.append(_sentence(text))
            continue
        fragments = _engine_fragments(event, fmt, announced, match_line=timed_out, prefix=prefix)
        for fragment in fragments:
            if fragment.startswith(_NEW_SENTENCE):
                flush()
                sentences.append(_sentence(fragment[1:]))
            elif clauses and _continues(clauses[-1], fragment):
                # "draws a card and plays R5", "draws a card, plays WD4 and picks green"
                rest = fragment.split(" ", 1)[1]
                clauses[-1] += (", " if " and " in rest else " and ") + rest
            else:
                clauses.append(fragment)
    flush()
    if update.status is not None and sentences:
        sentences.append(_update_status(update, fmt, prefix))
    return " ".join(sentences)


def _update_status(update: Update, fmt: Cards, prefix: str) -> str:
    """The status sentence that ends an update's line, without what the line already said:
    the top card when the line turned it (``First card B7. ann's turn.``), and the UNO of a
    player whose play or call in it said ``UNO``."""
    assert update.status is not None
    first: Card | None = None
    called: set[str] = set()
    for batch in update.events:
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


def _continues(previous: str, fragment: str) -> bool:
    """``bob draws a card`` + ``bob plays G5`` -> ``bob draws a card and plays G5`` (also
    ``draws 3 cards``: drawing until playable)."""
    who, _, did = previous.partition(" ")
    drew = did == "draws a card" or (
        did.startswith("draws ") and did.endswith(" cards") and did[6:-6].isdigit()
    )
    return drew and fragment.startswith(f"{who} ")


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
) -> list[Line]:
    """Every line an update produces: the channel's first, then each changed hand, then the
    optional hands (the turn's, :attr:`HandNotice.optional`) of the players ``turn_hands``
    says want them (default: all). Optional hands are tagged so: the send queue sends them
    only when nothing else of any game waits, and drops them when their channel moves on.

    ``invite``: when the update ends the game, a short sentence says how to start another
    (a newcomer otherwise waits for something to happen), at the end of the last line (a line
    of its own only when it doesn't fit); the caller leaves it out where nobody may start one
    (a tournament's table)."""
    fmt = Cards(channel_colors)
    texts = [text for text in fit(channel_text(update, fmt, prefix)) if text]
    game = Tag(channel)
    if len(texts) == 1 and update.status is not None:
        # One line ending in the status: while it waits to be sent, the next one folds in.
        status = _update_status(update, fmt, prefix)
        if texts[0].endswith(status):
            game = Tag(channel, key="status", status=status)
    lines = [Line("privmsg", channel, text, game) for text in texts]
    if invite and update.finished and texts:
        # On the game's last line when it fits: a line of its own is one more send slot
        # that every other table's next line waits behind.
        joined = f"{_sentence(texts[-1])} {invite_text(prefix)}"
        if len(joined.encode()) <= LIMIT:
            last = lines[-1].tag
            lines[-1] = Line("privmsg", channel, joined, Tag(channel) if last.status else last)
        else:
            lines.append(Line("privmsg", channel, invite_text(prefix), Tag(channel)))
    hands = sorted(update.hands.items(), key=lambda item: item[1].optional)  # stable
    for nick, notice in hands:
        if notice.optional and turn_hands is not None and not turn_hands(nick):
            continue
        fmt = Cards(colors_for(nick))
        key = "hand " + irc_lower(nick)  # a newer hand replaces a queued one
        with speaking(language_for(nick) if language_for is not None else language()):
            texts = hand_lines(notice, fmt)
        lines.extend(
            Line("notice", nick, text, Tag(channel, key=key, part=part, optional=notice.optional))
            for part, text in enumerate(texts)
        )
    return lines


def plain_hand(cards: Iterable[Card]) -> str:
    """The hand in plain notation (same as :func:`unobot.core.render.hand_text`)."""
    return hand_text(list(cards))


# strip_codes (imported above) undoes the formatting this module writes: it lives in the IRC
# layer beside sanitize, which keeps the same codes, so that the adapter can read services'
# formatted notices into plain log lines too.
