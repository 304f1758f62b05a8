"""The table's hand notices (``unobot.core.hands``) and seat look-up (``unobot.core.seats``)
alone: engine positions from the notation and plain players, without a table or bot."""

from __future__ import annotations

from random import Random

from unobot.core.hands import draw_hint, move_notices, playable, turn_hand
from unobot.core.seats import Player, find_seat, next_starter
from unobot.core.updates import HandNotice, Update
from unobot.engine import Phase, preset
from unobot.engine.actions import Draw
from unobot.engine.cards import Card, Color
from unobot.engine.events import CardPlayed, ColorChosen, HandsSwapped, JumpedIn
from unobot.engine.game import Game
from unobot.engine.notation import parse_position

R7, G2, Y3, B5, R5 = (Card.parse(t) for t in ("R7", "G2", "Y3", "B5", "R5"))


def position(text: str, rules: str = "official") -> tuple[Game, list[Player]]:
    game, names = parse_position(text, preset(rules), Random(1))
    return game, [Player(n, n, level="easy" if n.startswith("Bot") else "") for n in names]


def names_of(players: list[Player]) -> tuple[str, ...]:
    return tuple(p.nick for p in players)


# --- seats -----------------------------------------------------------------------------------


def test_find_seat_folds_what_people_type_and_keeps_people_from_computers() -> None:
    players = [Player("Ann[1]", "ann"), Player("Bot", "$bot:bot", level="easy")]
    assert find_seat(players, "ann{1}") == 0  # RFC 1459 folding
    assert find_seat(players, "Bot") is None  # a person's command never finds a computer
    assert find_seat(players, "bot", computer=True) == 1
    assert find_seat(players, "BOT", computer=None) == 1


def test_next_starter_is_the_first_person_else_the_first_player() -> None:
    bot = Player("Bot", "$bot:bot", level="easy")
    assert next_starter([bot, Player("cat", "cat")]) == "cat"
    assert next_starter([bot]) == "Bot"
    assert next_starter([]) == ""


# --- hands -----------------------------------------------------------------------------------


def test_a_draw_sends_the_drawer_their_cards_and_what_they_may_do() -> None:
    game, players = position("top=R5 | ann*: G2 Y3 | bob: B5 Y3 | pile=R7 G1")
    update = Update()
    events = game.apply(0, Draw())
    played, chose, jumped = move_notices(
        events, game, players, names_of(players), 0, update, after_play=False
    )
    assert (played, chose, jumped) == (False, -1, None)
    notice = update.hands["ann"]
    assert notice.cards == tuple(game.hand(0)) and set(notice.cards) == {G2, Y3, R7}
    assert notice.new == (R7,)
    assert notice.hint == "Play R7 or .pass (only the card you drew)"


def test_draw_hints_follow_the_rules() -> None:
    game, _players = position("top=R5 | ann*: G2 Y3 | bob: B5 | pile=R7 G1", "irc-classic")
    game.apply(0, Draw())
    assert game.phase is Phase.DRAWN
    assert draw_hint(game) == "You may play R7 or any playable card, or .pass"
    game, _players = position("top=R5 | ann*: G2 Y3 | bob: B5 | pile=G1 R7")
    game.apply(0, Draw())  # G1 can't be played: the turn is over
    assert draw_hint(game) == ""


def test_swapped_hands_go_to_their_new_owners_but_never_to_a_computer() -> None:
    game, players = position("top=R7 | ann*: G2 | Bot1: B5 Y3 | cat: R5")
    update = Update()
    move_notices(
        [HandsSwapped(0, 1, 2, 1)], game, players, names_of(players), 0, update, after_play=False
    )
    assert update.hands == {"ann": HandNotice((G2,))}


def test_a_jump_in_is_told_by_the_card_played_after_it() -> None:
    game, players = position("top=R7 | ann*: G2 | bob: B5 | cat: R5")
    names = names_of(players)
    jump = [JumpedIn(2, 0), CardPlayed(2, R7, Color.RED, 1)]
    assert move_notices(jump, game, players, names, 2, Update(), after_play=False) == (
        True,
        -1,
        ("cat", R7),
    )
    plain = [CardPlayed(0, R7, Color.RED, 1), ColorChosen(0, Color.RED)]
    assert move_notices(plain, game, players, names, 0, Update(), after_play=False) == (
        True,
        0,
        (),
    )


def test_the_mover_may_have_their_hand_after_each_play() -> None:
    game, players = position("top=R7 | ann: G2 R5 | bob*: B5")
    update = Update()
    events = [CardPlayed(0, R7, Color.RED, 2)]
    move_notices(events, game, players, names_of(players), 0, update, after_play=True)
    assert update.hands == {"ann": HandNotice(tuple(game.hand(0)))}
    assert set(update.hands["ann"].cards) == {G2, R5}


def test_the_turn_brings_the_hand_with_its_playable_cards_marked_once() -> None:
    game, players = position("top=R7 | ann*: G2 R5 B7 | bob: B5")
    b7 = Card.parse("B7")
    assert playable(game, 0) == tuple(sorted((R5, b7), key=lambda c: c.code))
    update = Update()
    turn_hand(game, players, update)
    notice = update.hands["ann"]
    assert notice.optional and notice.playable == playable(game, 0)
    dealt = Update(hands={"ann": HandNotice(tuple(game.hand(0)))})
    turn_hand(game, players, dealt)  # already sent: that notice is marked, not a second one
    assert not dealt.hands["ann"].optional and dealt.hands["ann"].playable == notice.playable


def test_no_turn_hand_for_a_computer_or_while_a_drawn_card_waits() -> None:
    game, players = position("top=R7 | Bot1*: G2 R5 | bob: B5")
    update = Update()
    turn_hand(game, players, update)
    assert update.hands == {}
    game, players = position("top=R5 | ann*: G2 Y3 | bob: B5 | pile=R7 G1")
    game.apply(0, Draw())
    turn_hand(game, players, update)
    assert update.hands == {}
