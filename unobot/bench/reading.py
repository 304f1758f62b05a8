"""Reading the bot's lines in any language, as the benchmarks' simulated players must.

The simulated players know only what a person on IRC would: the channel's lines and their own
NOTICEs. To play in a German channel they must read German, so their patterns are built from
the catalogues themselves: each message they look for (``{nick}'s turn.``, ``Top: {card}.``,
``Your cards ({n}): {cards}``) is taken in the language, its text escaped and its placeholders
turned into groups. A change of wording in a catalogue is followed without touching the bench.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from unobot.engine.cards import Card, Color
from unobot.i18n import DEFAULT, catalog, speaking

__all__ = ["Reader", "pattern"]

_PLACE = re.compile(r"\{(\w+)\}")
_ids = itertools.count()
_DEFAULT_GROUP = r"[^\s.,:;!?()]+"
"""A nick (IRC nicks have no dots, commas or colons) or any other word."""


def _forms(lang: str, singular: str, plural: str | None) -> list[str]:
    """Every form of a message in ``lang`` (a plural message has one per plural form)."""
    if lang == DEFAULT:
        return [singular] if plural is None else [singular, plural]
    cat = catalog(lang, "game")
    if plural is None:
        return [cat.gettext(singular)]
    return sorted({cat.ngettext(singular, plural, n) for n in (1, 2, 5, 22)})


def pattern(
    lang: str, singular: str, plural: str | None = None, *, end: bool = False, **groups: str
) -> str:
    """A regular expression (source) matching the ``game`` message ``singular`` as said in
    ``lang``: literal text escaped, ``{name}`` a named group (``groups[name]``, else a word),
    a name seen twice matched again; the forms of a plural message joined with ``|``."""
    alternatives = []
    for text in _forms(lang, singular, plural):
        k = next(_ids)  # group names unique across patterns joined with |
        out, seen, at = [], set(), 0
        for m in _PLACE.finditer(text):
            out.append(re.escape(text[at : m.start()]))
            name = m.group(1)
            if name in seen:
                out.append(f"(?P={name}__{k})")
            else:
                seen.add(name)
                out.append(f"(?P<{name}__{k}>{groups.get(name, _DEFAULT_GROUP)})")
            at = m.end()
        out.append(re.escape(text[at:]))
        alternatives.append("".join(out))
    body = "|".join(f"(?:{a})" for a in alternatives)
    return f"(?:{body})" + ("$" if end else "")


def _group(m: re.Match[str], name: str) -> str | None:
    """The named group ``name`` of whichever alternative matched."""
    for key, value in m.groupdict().items():
        if value is not None and key.split("__", 1)[0] == name:
            return value
    return None


@dataclass(frozen=True)
class Status:
    top: Card
    color: Color | None
    """The colour to follow (a wild's chosen colour; None while it is being chosen)."""
    nick: str
    phase: str
    """``turn``, ``picks`` (choose the colour) or ``must`` (draw the pending cards)."""


class Reader:
    """The lines a simulated player reacts to, in one language (formatting codes removed)."""

    def __init__(self, lang: str = DEFAULT, prefix: str = ".") -> None:
        from unobot.core.render import color_name

        self.lang = lang
        card = r"[RYGBW][0-9A-Z+]*"
        with speaking(lang):
            self.colors = {str(color_name(c)).lower(): c for c in Color}
        color = "|".join(re.escape(n) for n in self.colors)
        card_group = rf"{card}(?: \((?:{color})\))?"
        self._top = re.compile(
            "|".join(
                (
                    pattern(lang, "Top: {card}.", card=card_group),
                    pattern(lang, "First card {card}: {effects}", card=card_group, effects=".*?"),
                    pattern(lang, "First card {card}", card=card_group),
                )
            ),
            re.I,
        )
        self._turn = re.compile(pattern(lang, "{nick}'s turn."))
        self._picks = re.compile(
            pattern(
                lang, "{nick} picks the colour ({prefix}color r/y/g/b).", prefix=re.escape(prefix)
            )
        )
        self._must = re.compile(
            pattern(lang, "{nick} must draw {n}", "{nick} must draw {n}", n=r"\d+")
        )
        self._card_color = re.compile(rf"({card})(?: \(({color})\))?", re.I)
        self._hand = re.compile(
            pattern(lang, "Your cards ({n}): {cards}", n=r"\d+", cards=r".*") + "$"
        )
        self._joins = re.compile(
            pattern(lang, "{nick} joins ({n} player)", "{nick} joins ({n} players)", n=r"\d+")
        )
        self._opens = re.compile(pattern(lang, _OPENS, prefix=re.escape(prefix), duration=".*?"))
        self._turn_hand = re.compile(re.escape(self._say("Your turn")) + r" \| ")
        self._drew = re.compile("^" + pattern(lang, "You drew {cards}", cards=r".*?") + r" \| ")
        self._ends = [
            re.compile(
                pattern(
                    lang,
                    "{nick} wins the hand and {n} points!",
                    "{nick} wins the hand and {n} points!",
                    n=r"\d+",
                )
            ),
            re.compile(pattern(lang, "{nick} wins the hand!")),
            re.compile(pattern(lang, "{nick} stopped the game")),
        ]

    def _say(self, message: str) -> str:
        return message if self.lang == DEFAULT else catalog(self.lang, "game").gettext(message)

    def turn_hand(self, text: str) -> bool:
        """A hand sent because the turn came (``Your turn | Your cards …``)."""
        return self._turn_hand.search(text) is not None

    def drew(self, text: str) -> bool:
        """A hand that begins with the cards just drawn (``You drew G5 | …``)."""
        return self._drew.search(text) is not None

    def status(self, text: str) -> Status | None:
        """Whose move it is and the card on top, from a line ending in the status."""
        for regex, kind in ((self._picks, "picks"), (self._must, "must"), (self._turn, "turn")):
            found = list(regex.finditer(text))
            if found:
                nick, phase = _group(found[-1], "nick"), kind
                break
        else:
            return None
        tops = list(self._top.finditer(text))
        m = self._card_color.match(_group(tops[-1], "card") or "") if tops else None
        if m is None:
            return None  # the end of a line split in two: the card on top was in the first
        top = Card.parse(m.group(1))
        color = self.colors[m.group(2).lower()] if m.group(2) else top.color
        return Status(top, color, nick or "", phase)

    def hand(self, text: str) -> tuple[int, str] | None:
        m = self._hand.search(text)
        if m is None:
            return None
        return int(_group(m, "n") or 0), _group(m, "cards") or ""

    def joins(self, text: str) -> int | None:
        m = self._joins.search(text)
        return None if m is None else int(_group(m, "n") or 0)

    def opens(self, text: str) -> bool:
        return self._opens.search(text) is not None

    def ended(self, text: str) -> bool:
        return any(r.search(text) for r in self._ends)


_WINS = "{nick} wins the hand and {n} points!"
_OPENS = (
    "{starter} opens a game of Uno: {prefix}join to play; {starter} deals with "
    "{prefix}deal (anyone after {duration})"
)
