"""IRC names compared the way servers compare them (RFC 1459 casemapping).

Servers treat ``[]\\~`` as the upper case of ``{}|^``, so ``Nick[1]`` and ``nick{1}`` are the same
user; comparing with ``str.lower`` alone would let one person hold two seats, or lose theirs.
"""

from __future__ import annotations

__all__ = ["irc_eq", "irc_lower"]

_TABLE = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ[]\\~", "abcdefghijklmnopqrstuvwxyz{}|^")


_FOLDED: dict[str, str] = {}
_FOLDED_MAX = 4096


def irc_lower(name: str) -> str:
    """``name`` folded with the RFC 1459 casemapping (ASCII letters plus ``[]\\~``).

    Remembered for the few thousand names seen last: a command folds its nick and channel a
    dozen times on its way through the layers, and a dict lookup is ~10x cheaper than
    ``str.translate``. Bounded (cleared when full) so odd input can't grow it.
    """
    folded = _FOLDED.get(name)
    if folded is None:
        folded = name.translate(_TABLE)
        if len(_FOLDED) >= _FOLDED_MAX:
            _FOLDED.clear()
        _FOLDED[name] = folded
    return folded


def irc_eq(a: str, b: str) -> bool:
    """Whether two nicks or channel names denote the same thing on the server."""
    return irc_lower(a) == irc_lower(b)
