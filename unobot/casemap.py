"""IRC names compared the way servers compare them (RFC 1459 casemapping).

Servers treat ``[]\\~`` as the upper case of ``{}|^``, so ``Nick[1]`` and ``nick{1}`` are the same
user; comparing with ``str.lower`` alone would let one person hold two seats, or lose theirs.
"""

from __future__ import annotations

__all__ = ["irc_eq", "irc_lower"]

_TABLE = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ[]\\~", "abcdefghijklmnopqrstuvwxyz{}|^")


def irc_lower(name: str) -> str:
    """``name`` folded with the RFC 1459 casemapping (ASCII letters plus ``[]\\~``)."""
    return name.translate(_TABLE)


def irc_eq(a: str, b: str) -> bool:
    """Whether two nicks or channel names denote the same thing on the server."""
    return irc_lower(a) == irc_lower(b)
