"""The plain words every renderer shares: colour names, a hand in ``.play`` notation, a
game's length. What the channel is told of the engine's events is worded once, in
:mod:`unobot.core.render_irc` (``unobot demo`` prints those same lines in plain letters).
"""

from __future__ import annotations

from collections.abc import Sequence

from unobot.engine.cards import Card, Color
from unobot.engine.flip import FlipColor
from unobot.i18n import N_, domain

_, ngettext = domain("game")

__all__ = ["color_name", "game_length", "hand_text"]


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


def game_length(seconds: int) -> str:
    """A recorded game's length as people say it: ``45s``, ``20m40s``, ``1h05m``."""
    minutes, secs = divmod(max(0, seconds), 60)
    hours, minutes = divmod(minutes, 60)
    if hours:
        return f"{hours}h{minutes:02d}m"
    return f"{minutes}m{secs:02d}s" if minutes else f"{secs}s"
