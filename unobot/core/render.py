"""Events to text lines. Plain text here; the IRC layer adds mIRC colours on top.

Public text never shows a card drawn by a player, only how many: ``CardsDrawn.cards`` is for the
drawer's own private view.
"""

from __future__ import annotations

from collections.abc import Sequence

from unobot.engine import events as ev
from unobot.engine.cards import Card

__all__ = ["describe", "game_length", "hand_text"]


def hand_text(cards: Sequence[Card]) -> str:
    """A hand in the notation ``.play`` accepts, sorted: ``R5 BS GR YD2 W WD4``."""
    return " ".join(str(c) for c in sorted(cards, key=lambda c: c.code))


def describe(event: ev.Event, names: Sequence[str]) -> str | None:
    """One public line for an event, or None for events that need no line of their own."""
    match event:
        case ev.HandStarted(dealer=dealer, first=first):
            return f"{names[dealer]} deals. {names[first]} to play."
        case ev.FirstPlayerDraw(seats=seats, cards=cards):
            shown = ", ".join(f"{names[s]} {c}" for s, c in zip(seats, cards, strict=True))
            return f"Draw for first player: {shown}"
        case ev.StartCardTurned(card=card):
            return f"The first card is {card}."
        case ev.StartCardReplaced(card=card):
            return f"{card} can't start the pile: it goes back in the deck."
        case ev.CardPlayed(seat=seat, card=card, color=color, cards_left=left):
            wild = f" and chooses {color}" if card.is_wild else ""
            return f"{names[seat]} plays {card}{wild} ({left} left)."
        case ev.CardsDrawn(seat=seat, cards=cards, reason=reason):
            why = "" if reason is ev.DrawReason.DRAW else f" ({reason.value})"
            n = len(cards)
            return f"{names[seat]} draws {n} card{'s' if n != 1 else ''}{why}."
        case ev.Reshuffled(cards=n):
            return f"The discard pile is shuffled into a new draw pile ({n} cards)."
        case ev.Skipped(seat=seat):
            return f"{names[seat]} is skipped."
        case ev.Reversed():
            return "Play reverses."
        case ev.ColorChosen(seat=seat, color=color):
            return f"{names[seat]} chooses {color}."
        case ev.TurnPassed(seat=seat):
            return f"{names[seat]} passes."
        case ev.DrawPending(seat=seat, total=total):
            return f"{names[seat]} must draw {total}, or answer it."
        case ev.UnoCalled(seat=seat):
            return f"{names[seat]}: UNO!"
        case ev.UnoCaught(catcher=catcher, target=target, penalty=penalty):
            return f"{names[catcher]} caught {names[target]} without UNO: {penalty} cards."
        case ev.ChallengeResolved(challenger=c, offender=o, guilty=guilty):
            verdict = "bluffed" if guilty else "played it fairly"
            return f"{names[c]} challenges {names[o]}'s WD4: {names[o]} {verdict}."
        case ev.HandEnded(outcome=out) if not out.complete:
            counted = ", ".join(f"{names[s]} {p}" for s, p in enumerate(out.points))
            return f"Time is up: the unfinished hand counts ({counted})."
        case ev.HandEnded(outcome=out):
            left = ", ".join(f"{names[s]} {p}" for s, p in enumerate(out.points) if s != out.winner)
            return f"{names[out.winner]} wins the hand with {max(out.scores)} points ({left})."
        case ev.MatchEnded(outcome=out):
            who = " and ".join(names[s] for s in out.winners)
            verb = "wins" if len(out.winners) == 1 else "win"
            return f"{who} {verb} the match after {out.hands} hands."
    return None


def game_length(seconds: int) -> str:
    """A recorded game's length as people say it: ``45s``, ``20m40s``, ``1h05m``."""
    minutes, secs = divmod(max(0, seconds), 60)
    hours, minutes = divmod(minutes, 60)
    if hours:
        return f"{hours}h{minutes:02d}m"
    return f"{minutes}m{secs:02d}s" if minutes else f"{secs}s"
