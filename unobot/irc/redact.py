"""Secrets out of the logs: the irc library logs every line it sends and receives at DEBUG.

``irc.client`` writes ``TO SERVER: PASS hunter2`` and ``TO SERVER: PRIVMSG NickServ :IDENTIFY
hunter2`` as they are; an operator who turns on DEBUG to chase a problem and pastes the log
would hand out the bot's passwords. :class:`RedactingFilter`, installed on the library's loggers
by the adapter, masks the secret part of every such line before any handler sees it, whatever
the handlers are (the bot's own, pytest's caplog, a journald one).

What is masked (the command word stays, so the log still says what happened):

- ``PASS <password>`` -> ``PASS ***`` (the server password);
- ``AUTHENTICATE <data>`` unless the data is a mechanism name, ``+`` or ``*`` (SASL PLAIN sends
  the password base64-encoded, which is no secret-keeping);
- ``OPER <name> <password>`` -> ``OPER <name> ***``;
- ``PRIVMSG``/``NOTICE`` to anyone whose text starts with a services command that carries a
  password (``IDENTIFY``, ``ID``, ``LOGIN``, ``GHOST``, ``RECOVER``, ``RELEASE``, ``REGAIN``,
  ``REGISTER``, ``SET PASSWORD``): everything after the command;
- the same commands sent as server aliases (``NS IDENTIFY pw``, ``NICKSERV IDENTIFY pw``,
  ``IDENTIFY pw``, ``LOGIN``);
- the bot's own ``.unoadmin CODE`` (any prefix), received in a channel or privately: a wrong
  guess may differ from the bot's one-time admin code by a typo (``unobot.core.admins``).

Other records of those loggers (the library's per-event debug line quotes the arguments of a
received message) get ``IDENTIFY <words>`` masked wherever it appears, so a user who sends the
bot their own password by mistake doesn't have it written down either.
"""

from __future__ import annotations

import logging
import re

__all__ = ["MASK", "RedactingFilter", "install", "redact_line", "redact_text"]

MASK = "***"

LOGGERS = ("irc.client", "irc.client_aio", "irc.bot")
"""The library's loggers that write protocol lines."""

_SERVICE_COMMANDS = frozenset(
    {"IDENTIFY", "ID", "LOGIN", "AUTH", "GHOST", "RECOVER", "RELEASE", "REGAIN", "REGISTER"}
)
"""Services commands (NickServ and friends) whose arguments include a password."""

_ALIASES = frozenset({"NS", "NICKSERV", "CS", "CHANSERV", "MSG"})
"""Server-side aliases that pass the rest of the line to a service."""

_SASL_PLAIN_WORDS = re.compile(r"^(?:\+|\*|PLAIN|EXTERNAL|(?:SCRAM|ECDSA)-[A-Z0-9-]+)$")
"""``AUTHENTICATE`` arguments that are no secret: ``+``, ``*`` and mechanism names. Anything
else is masked (base64 may be all capitals, so no looser pattern)."""

_PREFIXES = ("TO SERVER: ", "FROM SERVER: ", "RAW: ")

_ADMIN_CODE = re.compile(r"(?i)\S{0,5}unoadmin\Z")
"""The bot's ``.unoadmin`` command word, whatever its prefix."""

_ANYWHERE = re.compile(r"(?i)\b(identify|ghost|recover|regain|release|unoadmin)\s+[^'\"\]\r\n]+")


def _mask_words(words: list[str], keep: int) -> list[str]:
    """``words`` with everything after the first ``keep`` replaced by one mask."""
    if len(words) <= keep:
        return words
    return [*words[:keep], MASK]


def _service_text(text: str) -> str:
    """The text of a message to a service, with the password part masked."""
    words = text.split(" ")
    first = words[0].upper()
    if first in _SERVICE_COMMANDS or _ADMIN_CODE.match(words[0]):
        return " ".join(_mask_words(words, 1))
    if first == "SET" and len(words) > 1 and words[1].upper() in ("PASSWORD", "PASS"):
        return " ".join(_mask_words(words, 2))
    return text


def redact_line(line: str) -> str:
    """One IRC protocol line (either direction) with any password it carries masked.

    Why parse instead of one regular expression over the whole line: the secret's position
    depends on the command (``OPER name pw`` keeps the name), and a message's text must only
    be looked at after its ``:``; a tag or a source prefix is kept as it was.
    """
    head = ""
    rest = line
    if rest.startswith("@"):  # IRCv3 tags
        tags, _, rest = rest.partition(" ")
        head += tags + " "
    if rest.startswith(":"):  # source prefix (lines from the server)
        source, _, rest = rest.partition(" ")
        head += source + " "
    command, _, params = rest.partition(" ")
    upper = command.upper()
    if upper == "PASS":
        return f"{head}{command} {MASK}" if params else line
    if upper == "AUTHENTICATE":
        if not params or _SASL_PLAIN_WORDS.match(params.lstrip(":")):
            return line
        return f"{head}{command} {MASK}"
    if upper == "OPER":
        words = params.split(" ")
        return f"{head}{command} {' '.join(_mask_words(words, 1))}"
    if upper in ("PRIVMSG", "NOTICE"):
        target, sep, text = params.partition(" :")
        if not sep:  # a one-word text without a colon
            target, _, text = params.partition(" ")
            sep = " "
        masked = _service_text(text)
        return line if masked == text else f"{head}{command} {target}{sep}{masked}"
    if upper in _ALIASES:
        text = params[1:] if params.startswith(":") else params
        masked = _service_text(text)
        return line if masked == text else f"{head}{command} {masked}"
    if upper in _SERVICE_COMMANDS:
        return f"{head}{command} {MASK}" if params else line
    return line


def redact_text(message: str) -> str:
    """A log message from the library's loggers, with any password it quotes masked."""
    for prefix in _PREFIXES:
        if message.startswith(prefix):
            return prefix + redact_line(message[len(prefix) :])
    return _ANYWHERE.sub(lambda m: f"{m.group(1)} {MASK}", message)


class RedactingFilter(logging.Filter):
    """Rewrites each record's message with :func:`redact_text`; never drops a record.

    Installed on a logger it runs before the record reaches any handler (the logger's own or
    an ancestor's), so nothing downstream sees the secret.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a broken format: leave it to the handler to report
            return True
        redacted = redact_text(message)
        if redacted != message:
            record.msg = redacted
            record.args = None
        return True


_FILTER = RedactingFilter()


def install(loggers: tuple[str, ...] = LOGGERS) -> None:
    """Put the filter on the library's loggers (idempotent: one filter object, added once)."""
    for name in loggers:
        logging.getLogger(name).addFilter(_FILTER)
