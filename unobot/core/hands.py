"""Which hand notices a classic table's moves send: the cards drawn, hands that changed owners,
the hand that goes with the turn (its playable cards marked), and what a drawer may do next.

Pure functions of the game and the table's players; the table (:mod:`unobot.core.table`) puts
what they return in its :class:`~unobot.core.updates.Update`. UNO Flip's table has its own
(:mod:`unobot.core.flip_table`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from unobot.core.seats import Player
from unobot.core.updates import HandNotice, Update
from unobot.engine import Phase
from unobot.engine.actions import Play
from unobot.engine.cards import Card
from unobot.engine.events import (
    CardPlayed,
    CardsDrawn,
    ColorChosen,
    Event,
    HandsRotated,
    HandsSwapped,
    JumpedIn,
)
from unobot.engine.game import Game
from unobot.engine.rules import AfterDraw, NoPlayableCard
from unobot.i18n import domain

_, ngettext = domain("game")

__all__ = ["draw_hint", "move_notices", "playable", "turn_hand"]


def playable(game: Game, seat: int) -> tuple[Card, ...]:
    """The cards ``seat`` may play now, in the order hands are shown."""
    cards = {a.card for a in game.legal_actions(seat) if type(a) is Play}
    return tuple(sorted(cards, key=lambda c: c.code))


def move_notices(
    events: Sequence[Event],
    game: Game,
    players: Sequence[Player],
    names: tuple[str, ...],
    actor: int | None,
    update: Update,
    *,
    after_play: bool,
) -> tuple[bool, int, tuple[str, Card] | tuple[()] | None]:
    """Put in ``update`` the hand notices the move's ``events`` call for (people only: a
    computer seat reads its hand from the game): cards drawn (the drawer's with what they may
    do now), Seven-O's swapped or rotated hands, and with ``after_play`` (the table's
    ``hand_after_play``) the mover's hand after a play.

    Returns what else the table needs of the events: whether ``actor`` played a card, the
    seat that named a colour (-1: none), and for Jump-In, when a card was played, who jumped
    in with which card as the last one played (``()`` when it was no jump), else None (a
    plain tuple: this runs on every move)."""
    played = False
    chose = -1
    jumped: tuple[str, Card] | tuple[()] | None = None
    gained: dict[int, list[Card]] = {}
    owners: set[int] = set()
    jump_by = -1
    for event in events:
        if type(event) is CardsDrawn and event.cards:
            gained.setdefault(event.seat, []).extend(event.cards)
        elif type(event) is CardPlayed:
            jumped = (names[event.seat], event.card) if jump_by == event.seat else ()
            played = played or event.seat == actor
        elif type(event) is JumpedIn:
            jump_by = event.seat
        elif type(event) is HandsSwapped:
            owners.update((event.seat, event.target))
        elif type(event) is HandsRotated:
            owners.update(range(len(event.counts)))
        elif type(event) is ColorChosen:
            chose = event.seat
    _changed_hands(update, game, players, names, owners, gained, actor)
    if (
        played
        and after_play
        and actor is not None
        and game.hand_size(actor)
        and not players[actor].computer
    ):
        update.hands.setdefault(names[actor], HandNotice(tuple(game.hand(actor))))
    return played, chose, jumped


def _changed_hands(
    update: Update,
    game: Game,
    players: Sequence[Player],
    names: tuple[str, ...],
    owners: set[int],
    gained: dict[int, list[Card]],
    actor: int | None,
) -> None:
    """The notices of hands that changed: ``owners``' (Seven-O: a hand that changed owners
    goes to its new owner at once, and only to them; the channel hears only the counts), and
    those that ``gained`` cards (the mover's with what they may do now)."""
    for seat in owners:
        if game.hand_size(seat) and not players[seat].computer:
            update.hands[names[seat]] = HandNotice(tuple(game.hand(seat)))
    for seat, cards in gained.items():
        if game.hand_size(seat) and not players[seat].computer:
            hint = draw_hint(game) if seat == actor else ""
            update.hands[names[seat]] = HandNotice(tuple(game.hand(seat)), tuple(cards), hint)


def turn_hand(game: Game, players: Sequence[Player], update: Update) -> None:
    """The turn has just reached the player to move: their hand goes with it, the cards
    they may play marked. If the update sends them their hand anyway (the deal, cards they
    had to draw) that notice is marked instead: never two copies of one hand in a turn.
    Not while they must first pick a colour or decide on a drawn card (the draw's notice
    says what they may do)."""
    if game.over:
        return
    if game.phase is not Phase.PLAY and game.phase is not Phase.PENDING:
        return
    seat = game.current
    player = players[seat]
    if player.computer or not game.hand_size(seat):
        return
    marked = playable(game, seat)
    sent = update.hands.get(player.nick)
    if sent is not None:
        update.hands[player.nick] = dataclasses.replace(sent, playable=marked)
    else:
        hand = tuple(game.hand(seat))
        update.hands[player.nick] = HandNotice(hand, playable=marked, optional=True)


def draw_hint(game: Game) -> str:
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
