"""Card colours are readable on a light and on a dark client background.

The lines are rendered as a client would show them: the mIRC formatting codes the bot writes
are read with mIRC's rules, each colour number mapped through the standard mIRC 16-colour
palette, and every card's text colour measured against the background it is actually drawn
on (its own background colour, else the client's) with the WCAG 2 contrast ratio. The floor
asserted is 4.5:1, WCAG's AA level for normal text (3:1 is the level for large text); the
old colours are measured too, to show what was wrong with them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from unobot.core.render_irc import Cards, hand_lines, status_text, strip_codes
from unobot.core.updates import HandNotice, Status
from unobot.engine import Phase
from unobot.engine.cards import CARDS, Card, Color

MIRC_PALETTE = {
    0: (0xFF, 0xFF, 0xFF), 1: (0x00, 0x00, 0x00), 2: (0x00, 0x00, 0x7F), 3: (0x00, 0x93, 0x00),
    4: (0xFF, 0x00, 0x00), 5: (0x7F, 0x00, 0x00), 6: (0x9C, 0x00, 0x9C), 7: (0xFC, 0x7F, 0x00),
    8: (0xFF, 0xFF, 0x00), 9: (0x00, 0xFC, 0x00), 10: (0x00, 0x93, 0x93), 11: (0x00, 0xFF, 0xFF),
    12: (0x00, 0x00, 0xFC), 13: (0xFF, 0x00, 0xFF), 14: (0x7F, 0x7F, 0x7F), 15: (0xD2, 0xD2, 0xD2),
}  # fmt: skip
"""mIRC's standard colours 0-15 (mirc.com/colors.html)."""

RGB = tuple[int, int, int]
WHITE: RGB = (0xFF, 0xFF, 0xFF)
BLACK: RGB = (0x00, 0x00, 0x00)
CLIENTS = {"white": (WHITE, BLACK), "black": (BLACK, WHITE)}
"""A client's background and its default text colour: mIRC's and HexChat's light default,
and a dark theme."""
AA = 4.5


def luminance(rgb: RGB) -> float:
    """WCAG 2 relative luminance."""

    def linear(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: RGB, b: RGB) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@dataclass(frozen=True)
class Run:
    text: str
    fg: RGB
    bg: RGB


_CODE = re.compile(r"\x03(?:(\d{1,2})(?:,(\d{1,2}))?)?|[\x02\x0f\x16\x1d\x1f]")


def render(line: str, background: RGB, default_fg: RGB) -> list[Run]:
    """The runs of text of ``line`` with the colours a client draws them in (mIRC's rules:
    ``\\x03NN[,MM]`` sets text and background, a bare ``\\x03`` or ``\\x0f`` goes back to the
    defaults, ``\\x16`` swaps the two)."""
    fg, bg = default_fg, background
    runs: list[Run] = []
    pos = 0
    for m in _CODE.finditer(line):
        if m.start() > pos:
            runs.append(Run(line[pos : m.start()], fg, bg))
        pos = m.end()
        code = m.group(0)[0]
        if code == "\x0f" or (code == "\x03" and m.group(1) is None):
            fg, bg = default_fg, background
        elif code == "\x03":
            fg = MIRC_PALETTE.get(int(m.group(1)) % 16, default_fg)
            if m.group(2) is not None:
                bg = MIRC_PALETTE.get(int(m.group(2)) % 16, background)
        elif code == "\x16":
            fg, bg = bg, fg
    if pos < len(line):
        runs.append(Run(line[pos:], fg, bg))
    return runs


def card_lines() -> list[str]:
    """Lines a player meets cards in: a hand of every card, and each colour named (a wild's
    pick in the status line)."""
    fmt = Cards(True)
    lines = hand_lines(HandNotice(CARDS), fmt)
    for color in Color:
        status = Status(Card.parse("W"), color, "bob", Phase.PLAY, 0, (("bob", 3),))
        lines.append(status_text(status, fmt))
    return lines


def coloured_runs(line: str, background: RGB, default_fg: RGB) -> list[Run]:
    """The runs that show a card or a colour's name (whatever has a colour set)."""
    return [
        r
        for r in render(line, background, default_fg)
        if r.text.strip() and (r.fg, r.bg) != (default_fg, background)
    ]


@pytest.mark.parametrize("client", sorted(CLIENTS))
def test_every_card_colour_is_readable_on_light_and_dark_clients(client: str) -> None:
    background, default_fg = CLIENTS[client]
    seen: dict[str, float] = {}
    for line in card_lines():
        for run in coloured_runs(line, background, default_fg):
            ratio = contrast(run.fg, run.bg)
            seen[run.text] = ratio
            assert ratio >= AA, f"{run.text!r} on a {client} client: {ratio:.2f}:1"
    # Every suit card and every colour's name was measured.
    assert {c.text for c in CARDS if not c.is_wild} <= set(seen)
    assert {str(c) for c in Color} <= set(seen)
    print(f"{client}: lowest contrast {min(seen.values()):.2f}:1")


@pytest.mark.parametrize("client", sorted(CLIENTS))
def test_wilds_are_black_cards_and_never_bold(client: str) -> None:
    """Issue 37: bold meant both "wild" and "playable". A wild is now drawn as the printed
    card is, white on black, readable on either background; bold is left to the playable."""
    background, default_fg = CLIENTS[client]
    line = Cards(True).hand([Card.parse("W"), Card.parse("WD4")])
    runs = [r for r in render(line, background, default_fg) if r.text.strip()]
    assert [r.text for r in runs] == ["W", "WD4"]
    assert all((r.fg, r.bg) == (WHITE, BLACK) and contrast(r.fg, r.bg) >= AA for r in runs)
    assert "\x02" not in line


def bold_cards(text: str) -> list[str]:
    """The cards a client shows in bold (``\x02`` toggles it, ``\x0f`` ends it)."""
    bold, found = False, []
    for m in re.finditer(r"\x02|\x0f|\x03(?:\d{1,2}(?:,\d{1,2})?)?|([^\x02\x03\x0f ]+)", text):
        if m.group(0) == "\x02":
            bold = not bold
        elif m.group(0) == "\x0f":
            bold = False
        elif m.group(1) and bold:
            found.append(m.group(1))
    return found


def test_bold_means_playable_in_every_hand_the_bot_writes() -> None:
    """The deal's hand, a draw's, ``.cards``: nothing bold; the turn's hand: exactly the
    playable cards, wild or not."""
    hand = tuple(Card.parse(t) for t in ("R5", "G2", "W", "WD4", "B7"))
    fmt = Cards(True)
    for notice in (HandNotice(hand), HandNotice(hand, (Card.parse("W"),))):
        assert all(bold_cards(line) == [] for line in hand_lines(notice, fmt))
    for playable in [(), (Card.parse("R5"),), (Card.parse("W"), Card.parse("WD4"))]:
        (line,) = hand_lines(HandNotice(hand, playable=playable), fmt)
        assert bold_cards(line) == [c.text for c in sorted(playable, key=lambda c: c.code)]


def test_the_old_colours_were_unreadable() -> None:
    """What the issue reported: yellow text (08) on white, and blue (12) on black."""
    assert contrast(MIRC_PALETTE[8], WHITE) < 1.1
    assert contrast(MIRC_PALETTE[12], BLACK) < 3


def test_plain_mode_stays_plain() -> None:
    """``.pce-off``: no formatting code at all, the same letters."""
    plain = hand_lines(HandNotice(CARDS), Cards(False))
    coloured = hand_lines(HandNotice(CARDS), Cards(True))  # longer: it may split elsewhere
    assert " ".join(plain) == " ".join(strip_codes(line) for line in coloured)
    assert not any(re.search(r"[\x02\x03\x0f\x16\x1d\x1f]", line) for line in plain)
    assert Cards(False).color(Color.YELLOW) == "yellow"
