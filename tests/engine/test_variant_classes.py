"""Issue 38 §6: each variant plays in its own class; the classic game runs no variant code.

``Game.deal`` and ``Game.from_position`` pick the class from the rules
(``unobot.engine.variants.game_class``); presets stay data and options still combine."""

from __future__ import annotations

import ast
from pathlib import Path
from random import Random

import pytest

from tests.engine.helpers import card, cards, position
from unobot.build_mode import source_path
from unobot.engine import PRESETS, Game, Play, TeamsGame, VariantGame
from unobot.engine.variants import game_class

CLASSIC = {"official", "irc-classic", "knockout", "ocuk-tournament", "bac-tournament"}


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_each_preset_is_dealt_to_its_class_and_a_copy_keeps_it(name: str) -> None:
    rules = PRESETS[name]
    players = 4 if 4 in rules.team_sizes else rules.team_sizes[0]
    game, _ = Game.deal(players, rules, Random(3))
    assert type(game) is game_class(rules)
    assert type(game.copy()) is type(game)
    if rules.seven_o or rules.jump_in or rules.mercy_limit or rules.deck.value == "no-mercy":
        assert type(game) is VariantGame
    elif rules.teams:
        assert type(game) is TeamsGame
    else:
        assert type(game) is Game


def test_the_classic_presets_play_the_classic_class() -> None:
    for name in CLASSIC & set(PRESETS):
        assert game_class(PRESETS[name]) is Game, name


def test_an_option_set_on_a_classic_preset_picks_the_variant_class() -> None:
    """``.unorules set seven_o on`` works on any preset: the hand is then a VariantGame."""
    official = PRESETS["official"]
    for option in ("seven_o", "jump_in"):
        rules = official.with_option(option, "on")
        assert game_class(rules) is VariantGame
        assert type(position("top=R5 | alice*: R7 R0 G2 | bob: B5 Y3", rules)) is VariantGame
    assert type(position("top=R5 | alice*: R7 G2 | bob: B5 Y3")) is Game


_VARIANT_NAMES = {
    "_nm",
    "_out",
    "_seven_o",
    "_jump_by",
    "_mercy",
    "_legacy",
    "_slow",
    "_knocked",
    "jump_in",
    "seven_o",
    "teams",
    "_WCR",
    "_ROUL",
    "_SWAP",
    "_DISCARD_ALL",
    "_WRD4",
}


@pytest.mark.parametrize(
    "method",
    ["legal_actions", "apply", "_general", "_play", "_draw_action", "_advance", "next_seat"],
)
def test_the_classic_hot_path_reads_no_variant_state(method: str) -> None:
    """The classic game's hot path (legal actions, apply and the turn actions behind it)
    names none of the variants' state: Seven-O, Jump-In, No Mercy and teams live in
    ``unobot.engine.variants``."""
    # Read from the source file: a compiled (mypyc) Game has no source to inspect.
    tree = ast.parse(Path(source_path("unobot.engine.game")).read_text(encoding="utf-8"))
    (game,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Game"]
    (body,) = [n for n in game.body if isinstance(n, ast.FunctionDef) and n.name == method]
    names = {
        n.attr if isinstance(n, ast.Attribute) else n.id
        for n in ast.walk(body)
        if isinstance(n, ast.Attribute | ast.Name)
    }
    assert not names & _VARIANT_NAMES


def test_a_number_played_under_the_mercy_rule_passes_over_a_seat_knocked_out() -> None:
    """No Mercy's sheet: "Mercy: 25 or more cards and you are out" — out of the turns too.
    With the mercy rule on the classic deck (``mercy_limit``), a number card once took the
    classic fast path and gave the turn to a seat already out; the variant's class now takes
    every play of such a game through its own path."""
    rules = PRESETS["official"].with_option("mercy_limit", "25")
    game = Game.from_position(
        rules, [list(cards("R7 G2 G3")), [], list(cards("Y1 Y2"))], card("R5"), out=(1,)
    )
    assert type(game) is VariantGame
    game.apply(0, Play(card("R7")))
    assert game.current == 2
