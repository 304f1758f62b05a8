"""A match of UNO Flip (:class:`~unobot.engine.flip_match.FlipMatch`) and the table's
interventions in a Flip hand (a player removed, an idle turn forced): hands to 500, each scored
by the side it ended on, recorded as the classic ``HandOutcome``/``MatchOutcome``."""

from __future__ import annotations

from random import Random

from unobot.engine import preset
from unobot.engine.events import HandEnded, MatchEnded
from unobot.engine.flip import FlipColor, FlipEvent, FlipPhase, FlipPlay, Side
from unobot.engine.flip_match import FlipMatch
from unobot.engine.notation import parse_flip_position

FLIP = preset("flip")


def rigged(position: str, players: int = 2) -> FlipMatch:
    match = FlipMatch(players, FLIP, Random(1))
    match.start_hand()
    match.game, _names = parse_flip_position(position, Random(1))
    return match


def test_a_hand_is_scored_by_the_side_it_ended_on() -> None:
    """The sheet: "Scoring by the side the hand ended on: numbers face value, Draw One 10,
    Draw Five 20, ... Wild Draw Color 60". A final Flip ends the hand dark side up: bob's
    B7 G2 count as their dark faces O4 T4."""
    match = rigged("top=R5/T3 | alice*: RF/P9 | bob: B7/O4 G2/T4 | pile=B3/PF")
    game = match.game
    assert game is not None
    events = match.apply(0, FlipPlay(game.hand(0)[0]))
    ended = events[-1]
    assert type(ended) is HandEnded
    assert ended.outcome.winner == 0 and ended.outcome.scores == (8, 0)
    assert [f.text for f in ended.outcome.remaining[1]] == ["O4", "T4"]
    assert match.totals == [8, 0] and not match.over


def test_the_match_ends_at_500() -> None:
    """The sheet: "first to 500"."""
    match = rigged("top=R5/T3 | alice*: R3/O3 | bob: WD2/TF WD2/P2 W/T7 W/O7 W/U4 W/U2 WD2/P9")
    match.totals = [300, 0]
    game = match.game
    assert game is not None
    events = match.apply(0, FlipPlay(game.hand(0)[0]))
    assert type(events[-2]) is HandEnded and type(events[-1]) is MatchEnded
    assert match.over and match.outcome is not None and match.outcome.winners == (0,)
    assert match.totals == [300 + 3 * 50 + 4 * 40, 0]


def test_the_next_hand_is_dealt_by_the_next_dealer_light_side_up() -> None:
    match = FlipMatch(3, FLIP, Random(2), dealer=2)
    match.start_hand()
    assert match.game is not None and match.game.current == 0
    match.game.phase = FlipPhase.OVER
    match.start_hand()
    assert match.game.current == 1 and match.game.side is Side.LIGHT


def test_a_removed_seat_puts_its_cards_under_the_pile_and_the_turn_moves_on() -> None:
    match = rigged("top=R5/T3 | alice: R3/O3 | bob*: B7/O4 G2/T4 | carol: G2/P5 | pile=B3/PF", 3)
    events = match.remove_player(1)
    game = match.game
    assert game is not None
    assert events == [FlipEvent("removed", 1, (), None, 2)]
    assert game.n == 2 and game.current == 1 and match.totals == [0, 0]
    assert [c.light.text for c in game.draw_pile[:2]] == ["B7", "G2"]  # drawn last


def test_an_idle_turn_draws_one_and_moves_on_whatever_the_phase() -> None:
    match = rigged("top=R5/T3 | alice*: B7/O4 | bob: G2/T4 | pile=B3/PF R1/T6")
    match.force_pass(0)  # R1 drawn (playable), then passed
    game = match.game
    assert game is not None and game.current == 1 and len(game.hands[0]) == 2
    chosen = rigged("side=dark top=W color=p phase=choose | alice*: O4 | bob: T4 | pile=P5")
    chosen.force_pass(0)
    assert chosen.game is not None and chosen.game.color is FlipColor.PINK
    pending = rigged("top=WD2 color=r pending=yes | alice: B7/O4 | bob*: G2/T4 | pile=B3/PF R1/T6")
    pending.force_pass(1)
    assert pending.game is not None and len(pending.game.hands[1]) == 3
