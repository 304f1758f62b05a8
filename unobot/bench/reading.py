"""Reading the bot's lines in any language, as the benchmarks' simulated players must.

The simulated players know only what a person on IRC would: the channel's lines and their own
NOTICEs. To play in a German channel they must read German, so their patterns are built from
the catalogues themselves: each message they look for (``{nick}'s turn.``, ``Top: {card}.``,
``Your cards ({n}): {cards}``) is taken in the language, its text escaped and its placeholders
turned into groups. A change of wording in a catalogue is followed without touching the bench.
"""

from __future__ import annotations

import functools
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


def needles(lang: str, singular: str, plural: str | None = None) -> list[str]:
    """The longest piece of fixed text of each form of the message in ``lang``: a line
    without any of them can't be that message (checked before the regular expression)."""
    found = []
    for text in _forms(lang, singular, plural):
        pieces = [p.strip() for p in _PLACE.split(text)[::2]]
        found.append(max(pieces, key=len))
    return found


class _Matcher:
    """A compiled pattern behind a cheap test: the simulated players read every line of 50
    channels in a process that shares the machine with the bot, so most lines (which are none
    of what a pattern looks for) must cost a substring test, not a regular expression."""

    __slots__ = ("needles", "regex")

    def __init__(self, source: str, needles: list[str], flags: int = 0) -> None:
        self.regex = re.compile(source, flags)
        self.needles = () if not all(needles) else tuple(needles)

    def _may(self, text: str) -> bool:
        return not self.needles or any(n in text for n in self.needles)

    def search(self, text: str) -> re.Match[str] | None:
        return self.regex.search(text) if self._may(text) else None

    def last(self, text: str) -> re.Match[str] | None:
        """The last match in ``text`` (a status ends the line)."""
        if not self._may(text):
            return None
        found = None
        for found in self.regex.finditer(text):  # noqa: B007 (the last one is kept)
            pass
        return found


def _matcher(lang: str, singular: str, plural: str | None = None, **groups: str) -> _Matcher:
    return _Matcher(pattern(lang, singular, plural, **groups), needles(lang, singular, plural))


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
        self._top = _Matcher(
            "|".join(
                (
                    pattern(lang, "Top: {card}.", card=card_group),
                    pattern(lang, "First card {card}: {effects}", card=card_group, effects=".*?"),
                    pattern(lang, "First card {card}", card=card_group),
                )
            ),
            needles(lang, "Top: {card}.") + needles(lang, "First card {card}"),
            re.I,
        )
        self._turn = _matcher(lang, "{nick}'s turn.")
        self._picks = _matcher(
            lang, "{nick} picks the colour ({prefix}color r/y/g/b).", prefix=re.escape(prefix)
        )
        self._must = _matcher(lang, "{nick} must draw {n}", "{nick} must draw {n}", n=r"\d+")
        self._card_color = re.compile(rf"({card})(?: \(({color})\))?", re.I)
        hand = "Your cards ({n}): {cards}"
        self._hand = _Matcher(pattern(lang, hand, n=r"\d+", cards=r".*") + "$", needles(lang, hand))
        self._joins = _matcher(
            lang, "{nick} joins ({n} player)", "{nick} joins ({n} players)", n=r"\d+"
        )
        self._opens = _matcher(lang, _OPENS, prefix=re.escape(prefix), duration=".*?")
        turn = self._say("Your turn")
        self._turn_hand = _Matcher(re.escape(turn) + r" \| ", [turn])
        drew = "You drew {cards}"
        self._drew = _Matcher(
            "^" + pattern(lang, drew, cards=r".*?") + r" \| ", needles(lang, drew)
        )
        self._ends = [
            _matcher(lang, _WINS, _WINS, n=r"\d+"),
            _matcher(lang, "{nick} wins the hand!"),
            _matcher(lang, "{nick} stopped the game"),
        ]

        # Every seat of a channel reads each of its lines: parse a line once, not once a seat.
        self.status = functools.lru_cache(maxsize=512)(self.status)  # type: ignore[method-assign]
        self.joins = functools.lru_cache(maxsize=512)(self.joins)  # type: ignore[method-assign]
        self.opens = functools.lru_cache(maxsize=512)(self.opens)  # type: ignore[method-assign]
        self.ended = functools.lru_cache(maxsize=512)(self.ended)  # type: ignore[method-assign]

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
        for matcher, kind in ((self._picks, "picks"), (self._must, "must"), (self._turn, "turn")):
            found = matcher.last(text)
            if found is not None:
                nick, phase = _group(found, "nick"), kind
                break
        else:
            return None
        top_found = self._top.last(text)
        m = self._card_color.match(_group(top_found, "card") or "") if top_found else None
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
