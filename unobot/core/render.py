"""Events to text lines. Plain text here; the IRC layer adds mIRC colours on top.

Public text never shows a card drawn by a player, only how many: ``CardsDrawn.cards`` is for the
drawer's own private view.
"""

from __future__ import annotations

from collections.abc import Sequence

from unobot.engine import events as ev
from unobot.engine.cards import Card, Color, Rank
from unobot.engine.flip import FlipColor
from unobot.i18n import N_, domain

_, ngettext = domain("game")

__all__ = ["color_name", "describe", "game_length", "hand_text"]


_COLOR_NAMES = {
    Color.RED: N_("red"),
    Color.YELLOW: N_("yellow"),
    Color.GREEN: N_("green"),
    Color.BLUE: N_("blue"),
    # UNO Flip's dark side (its light colours are equal to the four above, as IntEnums).
    FlipColor.PINK: N_("pink"),
    FlipColor.TEAL: N_("teal"),
    FlipColor.ORANGE: N_("orange"),
    FlipColor.PURPLE: N_("purple"),
}
"""Each suit's name in prose (``picks green``, ``Top: W (blue)``); cards themselves stay codes."""


def color_name(color: Color | FlipColor) -> str:
    """The colour's name in the language being spoken (``green``, ``Grün``, ``vert``)."""
    return _(_COLOR_NAMES[color])


def hand_text(cards: Sequence[Card]) -> str:
    """A hand in the notation ``.play`` accepts, sorted: ``R5 BS GR YD2 W WD4``."""
    return " ".join(str(c) for c in sorted(cards, key=lambda c: c.code))


def describe(event: ev.Event, names: Sequence[str]) -> str | None:
    """One public line for an event, or None for events that need no line of their own (in
    the language being spoken; card codes stay codes)."""
    match event:
        case ev.HandStarted(dealer=dealer, first=first):
            return _("{dealer} deals. {nick} to play.", dealer=names[dealer], nick=names[first])
        case ev.FirstPlayerDraw(seats=seats, cards=cards):
            shown = ", ".join(f"{names[s]} {c}" for s, c in zip(seats, cards, strict=True))
            return _("Draw for first player: {draws}", draws=shown)
        case ev.StartCardTurned(card=card):
            return _("The first card is {card}.", card=str(card))
        case ev.StartCardReplaced(card=card):
            return _("{card} can't start the pile: it goes back in the deck.", card=str(card))
        case ev.CardPlayed(seat=seat, card=card, color=color, cards_left=left):
            # (No Mercy's Roulette names no colour: the next player's ColorChosen follows.)
            if card.is_wild and card.rank is not Rank.WILD_COLOR_ROULETTE:
                return ngettext(
                    "{nick} plays {card} and chooses {color} ({n} left).",
                    "{nick} plays {card} and chooses {color} ({n} left).",
                    left,
                    nick=names[seat],
                    card=str(card),
                    color=color_name(color),
                )
            return ngettext(
                "{nick} plays {card} ({n} left).",
                "{nick} plays {card} ({n} left).",
                left,
                nick=names[seat],
                card=str(card),
            )
        case ev.CardsDrawn(seat=seat, cards=cards, reason=reason):
            n = len(cards)
            if reason is ev.DrawReason.DRAW:
                return ngettext(
                    "{nick} draws {n} card.", "{nick} draws {n} cards.", n, nick=names[seat]
                )
            return ngettext(
                "{nick} draws {n} card ({reason}).",
                "{nick} draws {n} cards ({reason}).",
                n,
                nick=names[seat],
                reason=_(_REASONS.get(reason, reason.value)),
            )
        case ev.Reshuffled(cards=n):
            return ngettext(
                "The discard pile is shuffled into a new draw pile ({n} card).",
                "The discard pile is shuffled into a new draw pile ({n} cards).",
                n,
            )
        case ev.Skipped(seat=seat):
            return _("{nick} is skipped.", nick=names[seat])
        case ev.Reversed():
            return _("Play reverses.")
        case ev.ColorChosen(seat=seat, color=color):
            return _("{nick} chooses {color}.", nick=names[seat], color=color_name(color))
        case ev.TurnPassed(seat=seat):
            return _("{nick} passes.", nick=names[seat])
        case ev.DrawPending(seat=seat, total=total):
            return ngettext(
                "{nick} must draw {n}, or answer it.",
                "{nick} must draw {n}, or answer it.",
                total,
                nick=names[seat],
            )
        case ev.UnoCalled(seat=seat):
            return _("{nick}: UNO!", nick=names[seat])
        case ev.UnoCaught(catcher=catcher, target=target, penalty=penalty):
            return ngettext(
                "{catcher} caught {nick} without UNO: {n} card.",
                "{catcher} caught {nick} without UNO: {n} cards.",
                penalty,
                catcher=names[catcher],
                nick=names[target],
            )
        case ev.ChallengeResolved(challenger=c, offender=o, guilty=guilty):
            if guilty:
                return _(
                    "{challenger} challenges {nick}: the WD4 was a bluff.",
                    challenger=names[c],
                    nick=names[o],
                )
            return _(
                "{challenger} challenges {nick}: the WD4 was played fairly.",
                challenger=names[c],
                nick=names[o],
            )
        case ev.HandEnded(outcome=out) if not out.complete:
            counted = ", ".join(f"{names[s]} {p}" for s, p in enumerate(out.points))
            return _("Time is up: the unfinished hand counts ({points}).", points=counted)
        case ev.HandEnded(outcome=out):
            left = ", ".join(f"{names[s]} {p}" for s, p in enumerate(out.points) if s != out.winner)
            return ngettext(
                "{nick} wins the hand with {n} points ({points}).",
                "{nick} wins the hand with {n} points ({points}).",
                max(out.scores),
                nick=names[out.winner],
                points=left,
            )
        case ev.MatchEnded(outcome=out):
            who = names[out.winners[0]] if out.winners else ""
            for s in out.winners[1:]:
                who = _("{first} and {second}", first=who, second=names[s])
            if len(out.winners) == 1:
                return ngettext(
                    "{nick} wins the match after {n} hands.",
                    "{nick} wins the match after {n} hands.",
                    out.hands,
                    nick=who,
                )
            return ngettext(
                "{nicks} win the match after {n} hands.",
                "{nicks} win the match after {n} hands.",
                out.hands,
                nicks=who,
            )
    return None


_REASONS = {
    ev.DrawReason.DEAL: N_("deal"),
    ev.DrawReason.PENALTY_CARD: N_("penalty-card"),
    ev.DrawReason.MISSED_UNO: N_("missed-uno"),
    ev.DrawReason.FALSE_UNO: N_("false-uno"),
    ev.DrawReason.CHALLENGE: N_("challenge"),
    ev.DrawReason.ILLEGAL_PLAY: N_("illegal-play"),
    ev.DrawReason.START_CARD: N_("start-card"),
    ev.DrawReason.ROULETTE: N_("roulette"),
}
"""Why a player draws: the reason's own value is the English (these lines always said it)."""


def game_length(seconds: int) -> str:
    """A recorded game's length as people say it: ``45s``, ``20m40s``, ``1h05m``."""
    minutes, secs = divmod(max(0, seconds), 60)
    hours, minutes = divmod(minutes, 60)
    if hours:
        return f"{hours}h{minutes:02d}m"
    return f"{minutes}m{secs:02d}s" if minutes else f"{secs}s"
