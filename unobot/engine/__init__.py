"""The Uno rules engine: pure, typed, seeded. Import the public names from here."""

from unobot.engine import errors
from unobot.engine.actions import (
    Action,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Draw,
    Pass,
    Play,
    Swap,
)
from unobot.engine.events import *  # noqa: F403
from unobot.engine.events import __all__ as _event_names
from unobot.engine.game import Game, Phase
from unobot.engine.match import Match
from unobot.engine.rules import *  # noqa: F403
from unobot.engine.rules import __all__ as _rule_names
from unobot.engine.variants import TeamsGame, VariantGame

__all__ = [
    "Action",
    "CallUno",
    "Catch",
    "Challenge",
    "ChooseColor",
    "Draw",
    "Game",
    "Match",
    "Pass",
    "Phase",
    "Play",
    "Swap",
    "TeamsGame",
    "VariantGame",
    "errors",
    *_event_names,
    *_rule_names,
]
