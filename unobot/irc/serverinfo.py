"""What a server says about itself and what its services answer, read into plain values.

Pure functions and records, no I/O: the adapter feeds them the server's lines and acts on
the result (which flood model to send by, whether private lines may go as ``CNOTICE``, how
many channels it may join, whether NickServ took the password).

Why not the irc library's ``FeatureSet``: irc 20.5 drops every ISUPPORT token without a
value (``if not sep: return``), so ircu's ``CNOTICE`` and ``CPRIVMSG``, the very tokens that
let the bot send hands past the target-change limit, never reach it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["ServerInfo", "nickserv_outcome", "refusal_wait"]


@dataclass(slots=True)
class ServerInfo:
    """The server the bot is registered on, from its ``004`` and ``005`` lines."""

    name: str = ""
    version: str = ""
    tokens: dict[str, str] = field(default_factory=dict)
    """ISUPPORT tokens, upper case, to their value ("" for a bare token)."""

    def read_myinfo(self, arguments: list[str]) -> None:
        """``004 <nick> <server> <version> <user modes> <channel modes>``: the library hands
        the arguments after the nick."""
        if arguments:
            self.name = arguments[0]
        if len(arguments) > 1:
            self.version = arguments[1]

    def read_isupport(self, arguments: list[str]) -> None:
        """One ``005`` line's tokens (the last argument is "are supported by this server")."""
        for token in arguments[:-1] if len(arguments) > 1 else arguments:
            if not token or " " in token:
                continue
            if token.startswith("-"):
                self.tokens.pop(token[1:].upper(), None)
                continue
            name, _, value = token.partition("=")
            self.tokens[name.upper()] = value

    def supports(self, token: str) -> bool:
        return token.upper() in self.tokens

    @property
    def max_channels(self) -> int | None:
        """How many ``#`` channels a client may be in (``CHANLIMIT=#:10`` or ircu's
        ``MAXCHANNELS=10``), None when the server does not say or sets no limit (ngircd with
        ``MaxJoins = 0`` says ``CHANLIMIT=#&+:0``, and an empty number means none too)."""
        for entry in self.tokens.get("CHANLIMIT", "").split(","):
            prefixes, _, number = entry.partition(":")
            if "#" in prefixes:
                return int(number) or None if number.isdigit() else None
        value = self.tokens.get("MAXCHANNELS", "")
        return int(value) or None if value.isdigit() else None


_WAIT = re.compile(r"(\d+)\s*(?:s\b|sec|second)", re.IGNORECASE)


def refusal_wait(text: str, default: float) -> float:
    """Seconds a "target change too fast" refusal says to wait (ircu: "Please wait 104
    seconds."; Solanum's 707 gives none: ``default``)."""
    found = _WAIT.search(text)
    return float(found.group(1)) if found else default


_REFUSED = re.compile(
    r"invalid password|password incorrect|incorrect password|wrong password|"
    r"authentication failed|is not registered|isn't registered|not a registered",
    re.IGNORECASE,
)
_ACCEPTED = re.compile(
    r"you are now (?:identified|logged in|recognized)|password accepted|"
    r"you are already (?:identified|logged in)",
    re.IGNORECASE,
)


def nickserv_outcome(text: str) -> bool | None:
    """What a NickServ notice says of an IDENTIFY: True (accepted: atheme's "You are now
    identified for unobot.", anope's "Password accepted - you are now recognized."), False
    (refused: atheme's "Invalid password for unobot.", anope's "Password incorrect."), or
    None (something else)."""
    if _REFUSED.search(text):
        return False
    if _ACCEPTED.search(text):
        return True
    return None
