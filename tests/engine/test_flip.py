"""UNO Flip (Mattel GDR44, 2018), from the Flip position notation: the 112 double-sided cards,
every card's effect, the Flip, the Wild Draw challenge, drawing, scoring by the side the hand
ended on. Each rule test quotes the printed sheet (as /work/shared/RULES.md quotes it) or says
where the sheet is silent and what the engine chose."""

from __future__ import annotations

from collections import Counter
from random import Random

import pytest

from unobot.engine.actions import CallUno, Catch, Challenge, Draw, Pass
from unobot.engine.errors import CardParseError, UnoError
from unobot.engine.flip import (
    FLIP_DECK,
    Face,
    FlipChoose,
    FlipColor,
    FlipGame,
    FlipPhase,
    FlipPlay,
    FlipRank,
    Side,
    match_winner,
    parse_flip_play,
    side_faces,
)
from unobot.engine.notation import format_flip_position, parse_flip_position

L, D = Side.LIGHT, Side.DARK


def fp(text: str, seed: int = 0) -> FlipGame:
    game, _names = parse_flip_position(text, Random(seed))
    return game


def face(text: str, side: Side = L) -> Face:
    return Face.parse(text, side)


def play(text: str, side: Side = L, color: str = "", *, uno: bool = False) -> FlipPlay:
    f = face(text, side)
    return FlipPlay(f, FlipColor("RYGBPTOU".index(color.upper())) if color else None, uno)


def shown(game: FlipGame, seat: int) -> str:
    return " ".join(str(f) for f in game.hand(seat))


def all_ids(game: FlipGame) -> list[int]:
    cards = [*game.draw_pile, *game.discard, *(c for h in game.hands for c in h)]
    return sorted(c.id for c in cards)


# --- the cards -------------------------------------------------------------------------------


def test_deck_composition() -> None:
    """ "112 double-sided cards; light side 1–9 in four colours, Draw One, Reverse, Skip, Flip
    (2 per colour each), 4 Wild, 4 Wild Draw Two; dark side 1–9 in pink, teal, orange, purple,
    Draw Five, Reverse, Skip Everyone, Flip (2 per colour each), 4 Wild, 4 Wild Draw Color.\""""
    assert len(FLIP_DECK) == 112
    assert [c.id for c in FLIP_DECK] == list(range(112))
    for side, colors, actions, wild_draw in (
        (L, "RYGB", ("D1", "R", "S", "F"), "WD2"),
        (D, "PTOU", ("D5", "R", "SE", "F"), "WDC"),
    ):
        counts = Counter(c.face(side).text for c in FLIP_DECK)
        expected = {f"{col}{v}": 2 for col in colors for v in [*map(str, range(1, 10)), *actions]}
        expected.update({"W": 4, wild_draw: 4})
        assert counts == expected
        assert all(c.face(side).side is side for c in FLIP_DECK)


def test_pairing_is_a_fixed_table() -> None:
    """The sheet gives no pairing of light and dark faces: the deck is a fixed table, the dark
    faces shuffled once against the light ones by a fixed seed (a box's pairing never changes;
    games replay by seed). Pinned here so the table can't drift."""
    assert [str(FLIP_DECK[i]) for i in (0, 1, 50, 111)] == ["R1/T6", "R1/O9", "YF/UF", "WD2/O9"]
    assert [c.light for c in FLIP_DECK] == side_faces(L)
    assert Counter(c.dark for c in FLIP_DECK) == Counter(side_faces(D))
    # Two cards may show one face and differ on the other: the game moves physical cards.
    assert {str(c) for c in FLIP_DECK if c.light.text == "R1"} == {"R1/T6", "R1/O9"}


def test_face_notation_round_trip() -> None:
    """Every face: ``Face.parse(str(face), side) is face``; dark colours P T O U."""
    for side in Side:
        for f in set(side_faces(side)):
            assert Face.parse(str(f), side) is f
    assert str(face("P5", D)) == "P5" and face("P5", D).color is FlipColor.PINK
    assert (
        face("USE", D).color is FlipColor.PURPLE and face("USE", D).rank is FlipRank.SKIP_EVERYONE
    )
    with pytest.raises(CardParseError):
        Face.parse("R0")  # Flip has no 0


@pytest.mark.parametrize(
    ("text", "side", "expected", "color"),
    [
        ("p 5", D, "P5", None),
        ("T d5", D, "TD5", None),
        ("o se", D, "OSE", None),
        ("u f", D, "UF", None),
        ("purple 3", D, "U3", None),
        ("w t", D, "W", FlipColor.TEAL),
        ("wdc o", D, "WDC", FlipColor.ORANGE),
        ("r 5", L, "R5", None),
        ("b d1", L, "BD1", None),
        ("g f", L, "GF", None),
        ("wd2 g", L, "WD2", FlipColor.GREEN),
        ("wd2", L, "WD2", None),
    ],
)
def test_parse_play(text: str, side: Side, expected: str, color: FlipColor | None) -> None:
    got, named = parse_flip_play(text, side)
    assert got is face(expected, side) and named is color


@pytest.mark.parametrize(
    ("text", "side"), [("p 5", L), ("r 5", D), ("wdc", L), ("wd2", D), ("w r", D), ("", L)]
)
def test_parse_play_refuses_the_other_side(text: str, side: Side) -> None:
    """A face of the side not in play is no card to play now."""
    with pytest.raises(CardParseError):
        parse_flip_play(text, side)


# --- dealing and the position notation -----------------------------------------------------


def test_deal() -> None:
    """ "Hands are held light side to you": 7 each, light side up. The start card: the sheet
    (as quoted) is silent; the engine turns cards until a number (an action or wild goes back
    into the draw pile at a random place), and the dealer's left begins."""
    for seed in range(40):
        game, events = FlipGame.deal(4, Random(seed), dealer=2)
        assert game.side is L and [len(h) for h in game.hands] == [7] * 4
        assert len(game.discard) == 1 and game.top.rank <= 9
        assert game.color is game.top.color and game.current == 3
        assert all_ids(game) == list(range(112))
        assert events[0].kind == "start"


def test_position_round_trip() -> None:
    for seed in range(20):
        game, _ = FlipGame.deal(3, Random(seed))
        text = format_flip_position(game)
        again = fp(text)
        assert again == game and format_flip_position(again) == text


def test_copy_is_equal_and_independent() -> None:
    game, _ = FlipGame.deal(3, Random(5))
    twin = game.copy()
    assert twin == game
    twin.apply(twin.current, Draw())
    assert twin != game and all_ids(game) == list(range(112))


# --- the cards' effects ----------------------------------------------------------------------


def test_number_on_colour_or_value() -> None:
    """Play on the active side: same colour in force or same face."""
    game = fp("top=R5 | a*: B5 R7 G2 | b: Y1 Y2 | c: Y3 Y4")
    legal = game.legal_actions()
    assert play("B5") in legal and play("R7") in legal and play("G2") not in legal
    with pytest.raises(UnoError, match="G2 does not match R5"):
        game.apply(0, play("G2"))
    game.apply(0, play("B5"))
    assert game.color is FlipColor.BLUE and game.current == 1


def test_draw_one() -> None:
    """ "Draw One / Draw Five: the next player draws 1 / 5 and misses the turn.\""""
    game = fp("top=R5 | a*: RD1 B2 | b: Y1 | c: Y3 | pile=G9 G8")
    game.apply(0, play("RD1"))
    assert shown(game, 1) == "Y1 G9" and game.current == 2


def test_draw_five_on_the_dark_side() -> None:
    """ "Draw One / Draw Five: the next player draws 1 / 5 and misses the turn.\""""
    game = fp("side=dark top=P5 | a*: PD5 T2 | b: O1 | c: O3 | pile=T1 T2 T3 T4 T5 T6")
    game.apply(0, play("PD5", D))
    assert shown(game, 1) == "O1 T1 T2 T3 T4 T5" and game.current == 2


def test_skip() -> None:
    """Skip: the next player misses the turn."""
    game = fp("top=R5 | a*: RS B2 | b: Y1 | c: Y3")
    game.apply(0, play("RS"))
    assert game.current == 2


def test_skip_everyone() -> None:
    """ "Skip Everyone: play returns to whoever laid it.\""""
    game = fp("side=dark top=O5 | a*: OSE T2 | b: P1 | c: P3")
    events = game.apply(0, play("OSE", D))
    assert game.current == 0 and game.phase is FlipPhase.PLAY
    assert [e.kind for e in events] == ["played", "everyone_skipped"]


def test_reverse() -> None:
    """Reverse turns the direction; with two players it acts as Skip (as in the classic game:
    the Flip sheet as quoted is silent)."""
    game = fp("top=R5 | a*: RR B2 | b: Y1 | c: Y3")
    game.apply(0, play("RR"))
    assert game.direction == -1 and game.current == 2
    two = fp("top=R5 | a*: RR B2 | b: Y1")
    two.apply(0, play("RR"))
    assert two.current == 0


def test_flip_turns_the_piles_and_every_hand() -> None:
    """ "A Flip turns the discard pile, the draw pile and every hand over." Each pile is turned
    as a whole (its order reverses; the sheet says no more), so the old bottom card's other
    face is the new top, its colour in force; hands show their other side; the next player
    plays on the dark side."""
    game = fp("top=G7/U1 | discard=G2/P5 | a*: GF/PF R1/T6 | b: B9/P5 | c: Y3/U8 | pile=R3 Y4")
    pile_before = list(game.draw_pile)
    events = game.apply(0, play("GF", uno=True))
    assert game.side is D
    assert [str(c) for c in game.discard] == ["GF/PF", "G7/U1", "G2/P5"]
    assert game.top is face("P5", D) and game.color is FlipColor.PINK
    assert game.draw_pile == pile_before[::-1]
    assert shown(game, 0) == "T6" and shown(game, 1) == "P5" and shown(game, 2) == "U8"
    assert game.current == 1 and [e.kind for e in events] == ["played", "uno", "flipped"]
    # B9/P5 is playable now by its dark face, not its light one.
    assert game.legal_actions() == (play("P5", D), Draw())


def test_flip_back_to_light() -> None:
    """A Flip on the dark side turns everything back to light."""
    game = fp("side=dark top=P5/G2 | discard=T2/B4 | a*: PF/GF T6/R1 | b: UF/B9 | c: U8/Y3")
    game.apply(0, play("PF", D))
    assert game.side is L and game.top is face("B4") and game.color is FlipColor.BLUE
    assert shown(game, 1) == "B9"


def test_flip_turning_up_a_wild() -> None:
    """The sheet is silent on a wild turned to the top by a Flip: the Flip's player names the
    colour (of the new side), then the next player moves."""
    game = fp("top=G7/U1 | discard=R8/W | a*: GF/PF R1/T6 | b: B9/UF | c: Y3/U8")
    game.apply(0, play("GF", uno=True))
    assert game.phase is FlipPhase.CHOOSE and game.current == 0
    assert game.legal_actions() == tuple(FlipChoose(FlipColor(4 + i)) for i in range(4))
    with pytest.raises(UnoError, match="not on the side in play"):
        game.apply(0, FlipChoose(FlipColor.RED))
    with pytest.raises(UnoError, match="name the colour first"):
        game.apply(0, play("T6", D))
    game.apply(0, FlipChoose(FlipColor.PURPLE))
    assert game.color is FlipColor.PURPLE and game.current == 1


def test_wild_names_a_colour_of_the_side() -> None:
    """Wild: name the next colour, one of the side in play."""
    game = fp("side=dark top=P4 | a*: W T6 | b: O1")
    with pytest.raises(UnoError, match="name a colour for W"):
        game.apply(0, play("W", D))
    with pytest.raises(UnoError, match="not on the side in play"):
        game.apply(0, FlipPlay(face("W", D), FlipColor.RED))
    game.apply(0, play("W", D, "o"))
    assert game.color is FlipColor.ORANGE and game.current == 1


# --- Wild Draw Two / Wild Draw Color and the challenge ---------------------------------------


def test_wild_draw_two_accepted() -> None:
    """Wild Draw Two: the next player draws 2 and misses the turn (unless they challenge)."""
    game = fp("top=R5 | a*: WD2 B3 | b: Y1 | c: Y3 | pile=G1 G2 G3")
    game.apply(0, play("WD2", color="b", uno=True))
    assert game.phase is FlipPhase.PENDING and game.current == 1
    assert game.legal_actions() == (Draw(), Challenge())
    with pytest.raises(UnoError, match="draw the cards or challenge first"):
        game.apply(1, play("Y1"))
    game.apply(1, Draw())
    assert shown(game, 1) == "Y1 G1 G2" and game.current == 2


def test_wild_draw_two_challenged_guilty() -> None:
    """ "Wild Draw Two and Wild Draw Color … only with no card of the colour in play,
    challengeable (guilty: the player draws instead …)": the challenger then plays on."""
    game = fp("top=R5 | a*: WD2 R3 | b: Y1 | c: Y3 | pile=G1 G2 G3")
    game.apply(0, play("WD2", color="y"))
    events = game.apply(1, Challenge())
    assert shown(game, 0) == "R3 G1 G2" and shown(game, 1) == "Y1"
    assert game.current == 1 and game.phase is FlipPhase.PLAY
    assert events[0].kind == "challenge" and events[0].value == 0


def test_wild_draw_two_challenged_innocent() -> None:
    """ "… innocent: the challenger draws plus 2": 4 cards, and the turn is lost."""
    game = fp("top=R5 | a*: WD2 B3 | b: Y1 | c: Y3 | pile=G1 G2 G3 G4 G5")
    game.apply(0, play("WD2", color="y"))
    game.apply(1, Challenge())
    assert shown(game, 1) == "Y1 G1 G2 G3 G4" and game.current == 2


def test_matching_number_of_another_colour_is_no_guilt() -> None:
    """ "only with no card of the colour in play": a card of the same value but another colour
    does not count."""
    game = fp("top=R5 | a*: WD2 B5 | b: Y1 | pile=G1 G2 G3 G4")
    game.apply(0, play("WD2", color="b"))
    assert game.pending_guilty is False


def test_wild_draw_color_accepted() -> None:
    """Wild Draw Color: "draw until they get a color of your choosing" (that card kept too),
    and the turn is lost."""
    game = fp("side=dark top=P4 | a*: WDC T6 | b: O1 | c: O3 | pile=P1 U2 T3 O4 T5")
    game.apply(0, play("WDC", D, "o"))
    game.apply(1, Draw())
    assert shown(game, 1) == "O1 P1 U2 T3 O4" and game.current == 2


def test_wild_draw_color_challenged_innocent() -> None:
    """ "innocent: the challenger draws plus 2": until the colour, then 2 more."""
    game = fp("side=dark top=P4 | a*: WDC T6 | b: O1 | c: O3 | pile=O9 U2 T3 O4")
    game.apply(0, play("WDC", D, "o"))
    game.apply(1, Challenge())
    assert shown(game, 1) == "O1 O9 U2 T3" and game.current == 2


def test_wild_draw_color_challenged_guilty() -> None:
    """ "guilty: the player draws instead": the Wild Draw Color's player draws until the colour
    they named."""
    game = fp("side=dark top=P4 | a*: WDC P6 | b: O1 | c: O3 | pile=T1 O9 U2")
    game.apply(0, play("WDC", D, "o"))
    game.apply(1, Challenge())
    assert shown(game, 0) == "P6 T1 O9" and game.current == 1
    assert game.phase is FlipPhase.PLAY


def test_draw_until_colour_stops_when_no_card_is_left() -> None:
    """The sheet is silent on an exhausted deck: the draw pile is refilled from the discard
    pile but its top card; with none left anywhere, the draw stops short and play goes on."""
    game = fp("side=dark top=P4 | a*: WDC T6 | b: O1 | c: O3 | pile=T1 U2")
    game.apply(0, play("WDC", D, "o"))
    game.apply(1, Draw())
    # T1 U2, then the discard pile but its top (P4 under the WDC) reshuffled in: P4; then none.
    assert shown(game, 1) == "O1 T1 U2 P4" and game.current == 2
    assert game.draw_pile == [] and len(game.discard) == 1


# --- drawing ----------------------------------------------------------------------------------


def test_voluntary_draw_then_only_the_drawn_card() -> None:
    """ "You may draw instead of playing a playable card (then only the drawn card).\""""
    game = fp("top=R5 | a*: R7 B2 | b: Y1 | pile=R9")
    assert Draw() in game.legal_actions()
    game.apply(0, Draw())
    assert game.phase is FlipPhase.DRAWN
    assert game.legal_actions() == (play("R9"), Pass())
    with pytest.raises(UnoError, match="only play the card you drew"):
        game.apply(0, play("R7"))
    game.apply(0, play("R9"))
    assert game.current == 1


def test_unplayable_drawn_card_ends_the_turn() -> None:
    """A drawn card that doesn't match: the turn ends."""
    game = fp("top=R5 | a*: B2 | b: Y1 | pile=G9")
    game.apply(0, Draw())
    assert shown(game, 0) == "B2 G9" and game.current == 1


# --- the end of a hand and scoring -----------------------------------------------------------


def test_final_draw_card_counts() -> None:
    """ "A final Draw card still makes the next player draw; those cards count." Scored "by
    the side the hand ended on": on light, B9 9 + G1 1 + the drawn R8 8 … ."""
    game = fp("top=R5 | a*: RD1 | b: B9/UF G1 | c: YS | pile=R8")
    events = game.apply(0, play("RD1"))
    assert game.over and shown(game, 1) == "B9 G1 R8"
    assert game.outcome is not None and game.outcome.points == 9 + 1 + 8 + 20
    assert events[-1].kind == "won"


def test_final_flip_scores_the_other_side() -> None:
    """Scoring by the side the hand ended on: a final Flip still turns everything over (the
    sheet is silent; the card's effect happens), so the dark faces count."""
    game = fp("top=G7 | a*: GF/PF | b: B9/UF R8/W | c: GD1/WDC")
    game.apply(0, play("GF"))
    assert game.over and game.outcome is not None
    assert game.outcome.side is D and game.outcome.points == 20 + 40 + 60


def test_scoring_values_dark() -> None:
    """ "numbers face value, … Draw Five 20, Reverse 20, … Skip Everyone 30, Flip 20, Wild 40,
    … Wild Draw Color 60\""""
    game = fp("side=dark top=P4 | a*: P6 | b: PD5 TR OSE UF W WDC U7")
    game.apply(0, play("P6", D))
    assert game.outcome is not None and game.outcome.points == 20 + 20 + 30 + 20 + 40 + 60 + 7


def test_scoring_values_light() -> None:
    """ "numbers face value, Draw One 10, … Reverse 20, Skip 20, … Flip 20, Wild 40, Wild Draw
    Two 50\""""
    game = fp("top=R4 | a*: R6 | b: RD1 YR GS BF W WD2 B3")
    game.apply(0, play("R6"))
    assert game.outcome is not None and game.outcome.points == 10 + 20 + 20 + 20 + 40 + 50 + 3


def test_first_to_500() -> None:
    """ "first to 500\""""
    assert match_winner([480, 120]) == -1
    assert match_winner([480, 500, 10]) == 1


# --- public information ----------------------------------------------------------------------


def test_public_hand_is_the_other_side() -> None:
    """ "Hands are held light side to you, so the others see your dark side": the engine gives
    that side for ``.cards <nick>``; after a Flip, the light side faces the others."""
    game = fp("top=G7/U1 | a*: GF/PF R1/T6 | b: B9/UF G2/P5 | c: Y3/U8")
    assert [str(f) for f in game.public_hand(1)] == ["UF", "P5"]
    game.apply(0, play("GF"))
    assert [str(f) for f in game.public_hand(1)] == ["B9", "G2"]
    assert [str(f) for f in game.hand(1)] == ["UF", "P5"]


# --- refusals ---------------------------------------------------------------------------------


def test_refusals_change_nothing() -> None:
    game = fp("top=R5 | a*: R7 B2 WD2 | b: Y1 | pile=G1")
    before = game.copy()
    for seat, action, msg in [
        (1, play("Y1"), "not your turn"),
        (0, play("G3"), "you have no G3"),
        (0, play("B2"), "does not match"),
        (0, FlipPlay(face("R7"), FlipColor.BLUE), "not a wild"),
        (0, Pass(), "draw a card first"),
        (5, Draw(), "not playing"),
    ]:
        with pytest.raises(UnoError, match=msg):
            game.apply(seat, action)
        assert game == before


def test_legal_actions_are_exactly_the_legal_moves() -> None:
    """Every action ``legal_actions`` offers is accepted; every other play of a face in the
    hand (with each colour) is refused, over many random positions of dealt games."""
    rng = Random(7)
    for seed in range(60):
        game, _ = FlipGame.deal(3, Random(seed))
        for _ in range(rng.randrange(30)):
            if game.over:
                break
            game.apply(game.current, rng.choice(game.legal_actions()))
        if game.over:
            continue
        legal = set(game.legal_actions())
        seat = game.current
        tried = {Draw(), Pass(), Challenge()}
        for f in {c.face(game.side) for c in game.hands[seat]}:
            tried.add(FlipPlay(f))
            tried.update(FlipPlay(f, col) for col in FlipColor)
        tried.update(FlipChoose(col) for col in FlipColor)
        for action in tried | legal:
            trial = game.copy()
            try:
                trial.apply(seat, action)
                ok = True
            except UnoError:
                ok = False
            assert ok == (action in legal), (format_flip_position(game), action)


# --- the UNO call ------------------------------------------------------------------------------
# "A player with one card left must have called "UNO" when playing the next-to-last card", and
# "UNO not called, caught before the next player begins a turn: draw 2" (/work/shared/RULES.md;
# the same on every sheet, Flip's included): played as the classic ``official`` preset plays it.


def test_uno_called_with_the_card() -> None:
    """ "A player with one card left must have called "UNO" when playing the next-to-last
    card": ``.p r 5 uno`` calls with the card; nobody can catch them then."""
    game = fp("top=R3 | a*: R5 B2 | b: Y1 R8 | c: Y3 | pile=G1 G2")
    events = game.apply(0, play("R5", uno=True))
    assert [(e.kind, e.seat) for e in events] == [("played", 0), ("uno", 0)]
    assert game.exposed == -1 and game.current == 1
    assert Catch(0) not in game.legal_actions(1)
    with pytest.raises(UnoError, match="nobody to catch"):
        game.apply(1, Catch(0))


def test_uno_called_just_before_the_card() -> None:
    """ "… must have called "UNO" when playing the next-to-last card": said just before it,
    on the turn, holding two, the call counts for the play that follows (said once)."""
    game = fp("top=R3 | a*: R5 B2 | b: Y1 R8 | c: Y3 | pile=G1 G2")
    assert CallUno() in game.legal_actions(0)
    assert [(e.kind, e.seat) for e in game.apply(0, CallUno())] == [("uno", 0)]
    assert game.armed == 0 and CallUno() not in game.legal_actions(0)
    with pytest.raises(UnoError, match="already called"):
        game.apply(0, CallUno())
    events = game.apply(0, play("R5"))
    assert [e.kind for e in events] == ["played"] and game.exposed == -1 and game.armed == -1
    with pytest.raises(UnoError, match="nobody to catch"):
        game.apply(2, Catch(0))


def test_missed_uno_caught_draws_two() -> None:
    """ "UNO not called, caught before the next player begins a turn: draw 2": any other
    player (not only the next) catches them, out of turn; they draw 2 and the turn stays."""
    game = fp("top=R3 | a*: R5 B2 | b: Y1 R8 | c: Y3 | pile=G1 G2 G3")
    game.apply(0, play("R5"))
    assert game.exposed == 0 and game.current == 1
    assert game.legal_actions(2) == (Catch(0),)
    assert game.legal_actions(1)[-1] == Catch(0) and game.legal_actions(0) == (CallUno(),)
    events = game.apply(2, Catch(0))
    assert [(e.kind, e.seat, e.value) for e in events] == [("caught", 2, 0), ("drew", 0, 2)]
    assert shown(game, 0) == "B2 G1 G2" and game.exposed == -1
    assert game.current == 1 and game.phase is FlipPhase.PLAY
    with pytest.raises(UnoError, match="nobody to catch"):
        game.apply(1, Catch(0))  # caught once


def test_late_uno_call_within_the_window() -> None:
    """ "caught before the next player begins a turn": until then the player who forgot may
    still say it (``official``'s late call), and can no longer be caught."""
    game = fp("top=R3 | a*: R5 B2 | b: Y1 R8 | c: Y3 | pile=G1 G2")
    game.apply(0, play("R5"))
    assert [(e.kind, e.seat) for e in game.apply(0, CallUno())] == [("uno", 0)]
    assert game.exposed == -1 and game.current == 1
    with pytest.raises(UnoError, match="nobody to catch"):
        game.apply(2, Catch(0))
    with pytest.raises(UnoError, match="nobody can catch you any more"):
        game.apply(0, CallUno())


def test_catch_after_the_next_player_begins_is_refused() -> None:
    """ "caught before the next player begins a turn": once the next player plays, draws (or,
    after a Wild Draw, draws or challenges) the miss can no longer be caught, nor called."""
    for move in (play("R8"), Draw()):
        game = fp("top=R3 | a*: R5 B2 | b: Y1 R8 G9 | c: Y3 | pile=G1 G2")
        game.apply(0, play("R5"))
        game.apply(1, move)
        assert game.exposed == -1
        before = game.copy()
        with pytest.raises(UnoError, match="nobody to catch"):
            game.apply(2, Catch(0))
        with pytest.raises(UnoError, match="nobody can catch you any more"):
            game.apply(0, CallUno())
        assert game == before
    game = fp("top=R5 | a*: WD2 B3 | b: Y1 | c: Y3 | pile=G1 G2 G3")
    game.apply(0, play("WD2", color="b"))
    assert game.legal_actions(1) == (Draw(), Challenge(), Catch(0))
    game.apply(1, Draw())
    with pytest.raises(UnoError, match="nobody to catch"):
        game.apply(2, Catch(0))


def test_refused_move_keeps_the_window_open() -> None:
    """A move the engine refuses changes nothing: the next player has not begun a turn."""
    game = fp("top=R3 | a*: R5 B2 | b: Y1 R8 | c: Y3 | pile=G1 G2")
    game.apply(0, play("R5"))
    with pytest.raises(UnoError, match="does not match"):
        game.apply(1, play("Y1"))
    assert game.exposed == 0
    game.apply(2, Catch(0))
    assert len(game.hands[0]) == 3


def test_false_uno_call_is_refused() -> None:
    """A call with more cards (the classic ``official`` preset: no false-UNO penalty) is
    refused and changes nothing: with a play that leaves two or more, or said on its own."""
    game = fp("top=R3 | a*: R5 B2 G7 | b: Y1 R8 | c: Y3 | pile=G1 G2")
    before = game.copy()
    with pytest.raises(UnoError, match="more than one card"):
        game.apply(0, play("R5", uno=True))
    with pytest.raises(UnoError, match="more than one card"):
        game.apply(0, CallUno())
    with pytest.raises(UnoError, match="more than one card"):
        game.apply(1, CallUno())  # two cards, but not on the turn
    assert game == before
    assert CallUno() not in game.legal_actions(0)


def test_uno_with_a_drawn_card() -> None:
    """Down to one card, drawing and playing the drawn card leaves one again: it needs the
    call too (the next-to-last card)."""
    game = fp("top=R3 | a*: B2 | b: Y1 R8 | c: Y3 | pile=R9 G1")
    game.apply(0, Draw())
    assert game.phase is FlipPhase.DRAWN and CallUno() in game.legal_actions(0)
    game.apply(0, play("R9"))
    assert game.exposed == 0
    game.apply(1, Catch(0))
    assert len(game.hands[0]) == 3


def test_skip_everyone_as_next_to_last_card() -> None:
    """Skip Everyone: "play returns to whoever laid it". Laid as the next-to-last card without
    a call, its player can be caught before their own next turn begins (nobody else's does)."""
    game = fp("side=dark top=P3 | a*: PSE O1 | b: U1 | c: T4 | pile=T8 T9 U3")
    game.apply(0, play("PSE", D))
    assert game.current == 0 and game.exposed == 0
    assert game.legal_actions(1) == (Catch(0),)
    game.apply(1, Catch(0))
    assert shown(game, 0) == "O1 T8 T9" and game.current == 0
