"""mIRC formatting (colours, bold, ...) as ANSI escapes for a terminal, or stripped.

Pure functions: what the bot sends IRC clients, shown the way a terminal can.
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TextIO

__all__ = ["mirc_to_ansi", "use_color"]


_FG = (97, 30, 34, 32, 91, 31, 35, 33, 93, 92, 36, 96, 94, 95, 90, 37)
"""ANSI SGR foreground codes for mIRC colours 0-15 (white, black, navy, green, red, brown,
purple, orange, yellow, light green, teal, cyan, light blue, pink, grey, light grey): the 16
basic ANSI colours every terminal has, nearest in hue. Background is the same + 10."""

_FORMAT = re.compile(
    r"\x03(?:(\d{1,2})(?:,(\d{1,2}))?)?"  # colour: fg[,bg]; a bare \x03 resets colours
    r"|\x04(?:([0-9a-fA-F]{6})(?:,([0-9a-fA-F]{6}))?)?"  # hex colour (mIRC 7.x)
    r"|[\x02\x0f\x11\x16\x1d\x1e\x1f]"
)
_TOGGLES = {
    "\x02": "bold",
    "\x1d": "italic",
    "\x1f": "underline",
    "\x1e": "strike",
    "\x16": "reverse",
}
_SGR = {"bold": "1", "italic": "3", "underline": "4", "strike": "9", "reverse": "7"}


@dataclass(slots=True)
class _Style:
    bold: bool = False
    italic: bool = False
    underline: bool = False
    strike: bool = False
    reverse: bool = False
    fg: str = ""
    """An SGR parameter string for the foreground (``"91"``, ``"38;2;255;0;0"``), or empty."""
    bg: str = ""

    def sgr(self) -> str:
        """The full state as one escape that starts from a reset, so toggles can't drift."""
        params = ["0"] + [_SGR[name] for name in _SGR if getattr(self, name)]
        params += [p for p in (self.fg, self.bg) if p]
        return f"\x1b[{';'.join(params)}m"

    @property
    def plain(self) -> bool:
        return self == _Style()


def _mirc_color(code: str | None, background: bool) -> str:
    if code is None:
        return ""
    n = int(code)
    if n >= len(_FG):  # 99 is "default"; 16-98 (mIRC's extended palette) shown as default too
        return ""
    return str(_FG[n] + (10 if background else 0))


def _hex_color(code: str | None, background: bool) -> str:
    if code is None:
        return ""
    r, g, b = (int(code[i : i + 2], 16) for i in (0, 2, 4))
    return f"{48 if background else 38};2;{r};{g};{b}"


def mirc_to_ansi(text: str, *, ansi: bool) -> str:
    """``text`` with mIRC formatting codes turned into ANSI escapes (``ansi``) or removed.

    Handles colours (``\\x03NN[,MM]``, a bare ``\\x03`` ends colour; hex ``\\x04RRGGBB``), the
    toggles bold ``\\x02``, italic ``\\x1d``, underline ``\\x1f``, strike ``\\x1e``, reverse
    ``\\x16``, and reset ``\\x0f``. Each code emits the complete resulting style (from a reset),
    and a line that ends styled is closed with a reset, so colour never bleeds into the next
    line or the prompt. Pure, for unit tests.
    """
    if not ansi:
        return _FORMAT.sub("", text)
    out: list[str] = []
    style = _Style()
    pos = 0
    for m in _FORMAT.finditer(text):
        out.append(text[pos : m.start()])
        pos = m.end()
        code = m.group(0)[0]
        before = dataclasses.replace(style)
        if code == "\x03":
            if m.group(1) is None:
                style.fg = style.bg = ""
            else:
                style.fg = _mirc_color(m.group(1), background=False)
                if m.group(2) is not None:
                    style.bg = _mirc_color(m.group(2), background=True)
        elif code == "\x04":
            if m.group(3) is None:
                style.fg = style.bg = ""
            else:
                style.fg = _hex_color(m.group(3), background=False)
                if m.group(4) is not None:
                    style.bg = _hex_color(m.group(4), background=True)
        elif code == "\x0f":
            style = _Style()
        elif code in _TOGGLES:
            name = _TOGGLES[code]
            setattr(style, name, not getattr(style, name))
        # \x11 (monospace) has no terminal equivalent: the terminal is monospace already.
        if style != before:
            out.append(style.sgr())
    out.append(text[pos:])
    if not style.plain:
        out.append("\x1b[0m")
    return "".join(out)


def use_color(choice: str, stream: TextIO, environ: Mapping[str, str] | None = None) -> bool:
    """``--color``: ``auto`` means a terminal and no ``NO_COLOR`` (https://no-color.org)."""
    if choice == "always":
        return True
    if choice == "never":
        return False
    env = os.environ if environ is None else environ
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty()) and not env.get("NO_COLOR") and env.get("TERM") != "dumb"
