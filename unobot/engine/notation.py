"""A readable text notation for positions, for tests, puzzles and debugging.

Segments are separated by ``|`` or new lines::

    top=R5 | alice: R7 G2 WD4 | bob*: B5 Y3 | pile=G1 B2

- ``name: CARDS`` gives a player's hand, in seat order; ``*`` after the name marks the player to
  move (default: the first player).
- ``top=CARD`` is the discard top; ``color=g`` the colour in force (required after a wild).
- ``pile=CARDS`` is the draw pile, first card drawn first; ``discard=CARDS`` the cards under the
  top, bottom first; ``dir=ccw`` reverses play; ``pending=N`` a Draw Two / WD4 total waiting to be
  answered (``phase=pending`` is implied); ``out=bob,cat`` the players the mercy rule has put
  out of the hand (No Mercy: their hands are empty).

:func:`format_position` writes a game back in the same notation.
"""

from __future__ import annotations

from random import Random

from unobot.engine.cards import Card, parse_color
from unobot.engine.game import Game, Phase
from unobot.engine.rules import HouseRules

__all__ = ["format_position", "parse_position"]


def _cards(text: str) -> list[Card]:
    return [Card.parse(tok) for tok in text.split()]


def parse_position(
    text: str, rules: HouseRules | None = None, rng: Random | None = None
) -> tuple[Game, list[str]]:
    """Build the game a position describes; return it with the players' names in seat order."""
    rules = rules if rules is not None else HouseRules(min_players=2, max_players=10)
    names: list[str] = []
    hands: list[list[Card]] = []
    options: dict[str, str] = {}
    current = 0
    for raw in text.replace("\n", "|").split("|"):
        seg = raw.strip()
        if not seg:
            continue
        if ":" in seg and ("=" not in seg or seg.index(":") < seg.index("=")):
            name, cards = seg.split(":", 1)
            name = name.strip()
            if name.endswith("*"):
                name = name[:-1].strip()
                current = len(names)
            names.append(name)
            hands.append(_cards(cards))
            continue
        for part in _split_options(seg):
            key, _, value = part.partition("=")
            options[key.strip().lower()] = value.strip()
    if "top" not in options:
        raise ValueError("a position needs top=CARD")
    top = Card.parse(options["top"])
    color = parse_color(options["color"]) if "color" in options else None
    pending = int(options.get("pending", "0"))
    phase = Phase.PENDING if pending else Phase.PLAY
    if "phase" in options:
        phase = Phase[options["phase"].upper()]
    game = Game.from_position(
        rules,
        hands,
        top,
        color=color,
        draw_pile=_cards(options.get("pile", "")),
        discard=_cards(options.get("discard", "")),
        current=current,
        direction=-1 if options.get("dir", "cw").lower() == "ccw" else 1,
        rng=rng,
        pending=pending,
        phase=phase,
        wd4_guilty=options.get("guilty", "no").lower() in ("yes", "true", "1"),
        out=tuple(names.index(n.strip()) for n in options.get("out", "").split(",") if n.strip()),
    )
    return game, names


def _split_options(seg: str) -> list[str]:
    """``top=R5 pile=G1 B2`` -> ["top=R5", "pile=G1 B2"]: a value runs to the next ``key=``."""
    parts: list[str] = []
    for tok in seg.split():
        if "=" in tok or not parts:
            parts.append(tok)
        else:
            parts[-1] += " " + tok
    return parts


def format_position(game: Game, names: list[str] | None = None) -> str:
    """The game in the notation ``parse_position`` reads (hands sorted)."""
    names = names or [f"p{i}" for i in range(game.n)]
    parts = [f"top={game.top}"]
    if game.top.is_wild:
        parts.append(f"color={game.color.letter.lower()}")
    if game.direction < 0:
        parts.append("dir=ccw")
    if game.pending:
        parts.append(f"pending={game.pending}")
    gone = [names[s] for s in range(game.n) if game.eliminated(s)]
    if gone:
        parts.append("out=" + ",".join(gone))
    segs = [" ".join(parts)]
    for seat, name in enumerate(names):
        mark = "*" if seat == game.current and not game.over else ""
        segs.append(f"{name}{mark}: {' '.join(str(c) for c in game.hand(seat))}".rstrip())
    if game.draw_pile:
        segs.append("pile=" + " ".join(str(c) for c in reversed(game.draw_pile)))
    return " | ".join(segs)
