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
from unobot.engine.flip import (
    FLIP_DECK,
    Face,
    FlipCard,
    FlipGame,
    FlipPhase,
    Side,
    parse_flip_color,
)
from unobot.engine.game import Game, Phase
from unobot.engine.rules import HouseRules

__all__ = ["format_flip_position", "format_position", "parse_flip_position", "parse_position"]


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


# --- UNO Flip -------------------------------------------------------------------------------------


def parse_flip_position(text: str, rng: Random | None = None) -> tuple[FlipGame, list[str]]:
    """A UNO Flip position, in the same notation plus ``side=light|dark`` (default light).

    A card is written as the face on the side in play (``P5``, ``W``), optionally with its back
    after a slash (``P5/R3``): the notation names physical cards of the real deck
    (:data:`~unobot.engine.flip.FLIP_DECK`), each at most once; a card without its back is the
    first one of that face not named elsewhere. ``pending=yes`` (with ``guilty=yes|no``): the
    Wild Draw on top waits for the player to move to draw or challenge; ``by`` its player
    (default: the one before). ``phase=choose``: the player to move names the colour.
    ``exposed=NAME``: that player is down to one card without calling UNO and may be caught;
    ``called=NAME``: the player to move has called UNO just before their next-to-last card.
    """
    options: dict[str, str] = {}
    names: list[str] = []
    hand_tokens: list[list[str]] = []
    current = 0
    for raw in text.replace("\n", "|").split("|"):
        seg = raw.strip()
        if not seg:
            continue
        if ":" in seg and ("=" not in seg or seg.index(":") < seg.index("=")):
            name, tokens = seg.split(":", 1)
            name = name.strip()
            if name.endswith("*"):
                name = name[:-1].strip()
                current = len(names)
            names.append(name)
            hand_tokens.append(tokens.split())
            continue
        for part in _split_options(seg):
            key, _, value = part.partition("=")
            options[key.strip().lower()] = value.strip()
    if "top" not in options:
        raise ValueError("a position needs top=CARD")
    side = Side[options.get("side", "light").upper()]
    groups = [
        *hand_tokens,
        options.get("discard", "").split(),
        [options["top"]],
        options.get("pile", "").split(),
    ]
    resolved = _flip_cards(groups, side)
    game = FlipGame(len(names), rng if rng is not None else Random(0))
    game.side = side
    game.hands = resolved[: len(names)]
    game.discard = [*resolved[-3], *resolved[-2]]
    game.draw_pile = list(reversed(resolved[-1]))
    top = game.top
    if "color" in options:
        game.color = parse_flip_color(options["color"], side)
    elif top.is_wild:
        raise ValueError("a wild on top needs the colour in force")
    else:
        game.color = top.color  # type: ignore[assignment]
    game.current = current
    game.direction = -1 if options.get("dir", "cw").lower() == "ccw" else 1
    if options.get("pending", "no").lower() in ("yes", "true", "1"):
        game.phase = FlipPhase.PENDING
        by = options.get("by")
        game.pending_by = names.index(by) if by else (current - game.direction) % game.n
        game.pending_guilty = options.get("guilty", "no").lower() in ("yes", "true", "1")
    elif "phase" in options:
        game.phase = FlipPhase[options["phase"].upper()]
    if "exposed" in options:
        game.exposed = names.index(options["exposed"])
    if "called" in options:
        game.armed = names.index(options["called"])
    return game, names


def _flip_cards(groups: list[list[str]], side: Side) -> list[list[FlipCard]]:
    """Resolve tokens to physical cards: the ones with a back first, then the rest."""
    used: set[int] = set()
    out: list[list[FlipCard | None]] = [[None] * len(g) for g in groups]
    other = Side(1 - side)
    for pinned in (True, False):
        for gi, group in enumerate(groups):
            for ti, tok in enumerate(group):
                front_text, slash, back_text = tok.partition("/")
                if bool(slash) is not pinned:
                    continue
                front = Face.parse(front_text, side)
                back: Face | None = Face.parse(back_text, other) if slash else None
                for card in FLIP_DECK:
                    if card.id in used or card.face(side) is not front:
                        continue
                    if back is None or card.face(other) is back:
                        used.add(card.id)
                        out[gi][ti] = card
                        break
                else:
                    raise ValueError(f"no card {tok} left in the UNO Flip deck")
    return [[c for c in g if c is not None] for g in out]


def format_flip_position(game: FlipGame, names: list[str] | None = None) -> str:
    """A Flip game in the notation ``parse_flip_position`` reads, every card with its back."""
    names = names or [f"p{i}" for i in range(game.n)]
    side = game.side
    other = Side(1 - side)

    def show(card: FlipCard) -> str:
        return f"{card.face(side)}/{card.face(other)}"

    parts = [f"side={side}", f"top={show(game.discard[-1])}"]
    if game.top.is_wild:
        parts.append(f"color={game.color.letter.lower()}")
    if game.direction < 0:
        parts.append("dir=ccw")
    if game.phase is FlipPhase.PENDING:
        guilty = "yes" if game.pending_guilty else "no"
        parts.append(f"pending=yes guilty={guilty} by={names[game.pending_by]}")
    elif game.phase is FlipPhase.CHOOSE:
        parts.append("phase=choose")
    if game.exposed >= 0:
        parts.append(f"exposed={names[game.exposed]}")
    if game.armed >= 0:
        parts.append(f"called={names[game.armed]}")
    segs = [" ".join(parts)]
    for seat, name in enumerate(names):
        mark = "*" if seat == game.current and not game.over else ""
        segs.append(f"{name}{mark}: {' '.join(show(c) for c in game.hands[seat])}".rstrip())
    if len(game.discard) > 1:
        segs.append("discard=" + " ".join(show(c) for c in game.discard[:-1]))
    if game.draw_pile:
        segs.append("pile=" + " ".join(show(c) for c in reversed(game.draw_pile)))
    return " | ".join(segs)
