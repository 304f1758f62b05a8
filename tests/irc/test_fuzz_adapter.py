"""Hostile input, fuzzed: the IRC adapter's raw line decoding (issue 16).

The adapter is wired as :meth:`irc.client.ServerConnection.connect` wires it, on a fake socket
that hands over whatever bytes a test gives (no network): the library's line buffer (the
adapter's ``LenientDecodingLineBuffer``), its parser, the reactor with the adapter's guarded
handlers, and the records handed to the core. Reads are fed the way the reactor's loop does
(``process_data`` for one readable socket), in chunks cut anywhere.

Two properties these tests found failing are fixed in ``unobot/irc/adapter.py``:

- a line the library's parser can't take (``PRIVMSG`` with no parameters, a line starting with
  a space, ``NICK`` with no prefix, ``001`` with no parameters) raised out of ``process_data``
  and every later line of the same read was lost: each line is now parsed on its own guard;
- CR and NUL inside a line reached the core in nicks, targets and texts: records are cleaned.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from unobot.irc.adapter import IrcAdapter, IrcSettings, ServerSettings
from unobot.irc.transport import Incoming, Kind

NICK = "unobot"
CHANNELS = (b"#a", b"#b")


class FakeSocket:
    """What the connection reads from and writes to: queued chunks in, bytes out."""

    def __init__(self) -> None:
        self.chunks: list[bytes] = []
        self.out = bytearray()

    def recv(self, size: int) -> bytes:
        return self.chunks.pop(0) if self.chunks else b""

    def send(self, data: bytes) -> int:
        self.out += data
        return len(data)

    def sendall(self, data: bytes) -> None:
        self.out += data

    def close(self) -> None:
        pass

    def shutdown(self, how: int) -> None:
        pass


class Wired:
    """An adapter registered and in ``#a`` and ``#b`` on a fake socket."""

    def __init__(self) -> None:
        self.records: list[Incoming] = []
        settings_ = IrcSettings(servers=(ServerSettings("irc.example", 6667),), rate=0)
        self.adapter = IrcAdapter(settings_, self.records.append)
        self.sock = FakeSocket()
        conn = self.adapter._conn
        conn.connect("irc.example", 6667, NICK, connect_factory=lambda address: self.sock)
        self.feed(b":irc.example 001 unobot :Welcome\r\n")
        for channel in CHANNELS:
            self.feed(b":unobot!u@h JOIN " + channel + b"\r\n")
        del self.records[:]

    def feed(self, chunk: bytes) -> None:
        """One read of ``chunk``, as the reactor's loop does it when the socket is readable."""
        self.sock.chunks.append(chunk)
        self.adapter._reactor.process_data([self.sock])

    def close(self) -> None:
        self.adapter._reactor.close_wake()


class Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def dirty(record: Incoming) -> list[str]:
    """The fields of ``record`` holding CR, LF or NUL."""
    fields = {
        "nick": record.nick,
        "target": record.target,
        "text": record.text,
        "userhost": record.userhost,
        "account": record.account or "",
        "new_nick": record.new_nick,
    }
    return [name for name, value in fields.items() if any(c in value for c in "\r\n\0")]


def chunks(data: bytes, cuts: list[int]) -> Iterator[bytes]:
    """``data`` cut at ``cuts`` (offsets, any order): reads end anywhere, mid-line too."""
    start = 0
    for cut in sorted({c % (len(data) + 1) for c in cuts}):
        if cut > start:
            yield data[start:cut]
            start = cut
    if start < len(data):
        yield data[start:]


# --- strategies ------------------------------------------------------------------------------


def _cat(*parts: bytes | st.SearchStrategy[bytes]) -> st.SearchStrategy[bytes]:
    """Bytes and strategies of bytes, one after the other."""
    return st.tuples(*(st.just(p) if isinstance(p, bytes) else p for p in parts)).map(b"".join)


def _without(forbidden: bytes) -> st.SearchStrategy[bytes]:
    return st.binary(max_size=40).map(lambda b: b.translate(None, forbidden))


_WORD = _without(b"\r\n\0 ").filter(bool)
_PARAM = _WORD.filter(lambda b: not b.startswith(b":"))
_TEXT = st.one_of(
    _without(b"\r\n\0"),
    st.builds(
        lambda unit, n: (unit * n)[:10_240],
        st.sampled_from([b"x", "\u00e9".encode(), b"\xff\xfe", b"\x01ACTION x\x01", b"\x034,5R5"]),
        st.integers(100, 5_000),
    ),
)
_TAGS = st.one_of(
    st.just(b""),
    _cat(b"@account=", _without(b"\r\n\0 ;"), b" "),
    _cat(b"@", _without(b"\r\n\0 ;=").filter(bool), b"=", _PARAM, b" "),
)
_SOURCE = st.builds(
    lambda n, u, h: b":" + n + b"!" + u + b"@" + h,
    _without(b"\r\n\0 !@").filter(lambda b: bool(b) and b.lower() != b"unobot"),
    _without(b"\r\n\0 !@").filter(bool),
    _without(b"\r\n\0 ").filter(bool),
)
_CHANNEL = st.sampled_from(CHANNELS)


_LINE = st.one_of(
    _cat(_TAGS, _SOURCE, b" PRIVMSG ", _CHANNEL, b" :", _TEXT),
    _cat(_SOURCE, b" PRIVMSG unobot :", _TEXT),
    _cat(_SOURCE, b" NOTICE ", _CHANNEL, b" :", _TEXT),
    _cat(_TAGS, _SOURCE, b" JOIN ", _CHANNEL),
    _cat(_SOURCE, b" JOIN ", _CHANNEL, b" ", _PARAM, b" :real name"),  # extended-join
    _cat(_SOURCE, b" PART ", _CHANNEL, b" :", _TEXT),
    _cat(_SOURCE, b" QUIT :", _TEXT),
    _cat(_SOURCE, b" KICK ", _CHANNEL, b" ", _PARAM, b" :", _TEXT),
    _cat(_SOURCE, b" NICK :", _PARAM),
    _cat(_SOURCE, b" MODE ", _CHANNEL, b" +o ", _PARAM),
    _cat(b":irc.example 353 unobot = ", _CHANNEL, b" :@", _PARAM, b" +x"),
    _cat(b"PING :", _PARAM),
    _cat(b":irc.example NOTICE * :", _TEXT),
)
_SEP = st.sampled_from([b"\r\n", b"\n"])
SENTINEL = b":last!l@l PRIVMSG #a :the end\r\n"


@settings(
    max_examples=400,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(
    lines=st.lists(st.tuples(_LINE, _SEP), min_size=1, max_size=12),
    cuts=st.lists(st.integers(0, 20_000), max_size=6),
)
def test_well_framed_lines_of_any_bytes_reach_the_core_clean(
    lines: list[tuple[bytes, bytes]], cuts: list[int]
) -> None:
    """Lines of the commands the adapter turns into records, their nicks, hosts, tags,
    parameters and texts any bytes but CR, LF and NUL (invalid UTF-8, colour and CTCP codes,
    10 KB), in reads cut anywhere: nothing raises or is logged as an error, the line after them
    arrives, and no record holds CR, LF or NUL."""
    wired = Wired()
    errors = Errors()
    logging.getLogger().addHandler(errors)
    try:
        data = b"".join(line + sep for line, sep in lines) + SENTINEL
        for chunk in chunks(data, cuts):
            wired.feed(chunk)
    finally:
        logging.getLogger().removeHandler(errors)
        wired.close()
    assert not errors.records, errors.records[0].getMessage()
    assert wired.records, "nothing arrived"
    last = wired.records[-1]
    assert (last.kind, last.nick, last.text) == (Kind.MESSAGE, "last", "the end")
    for record in wired.records:
        assert not dirty(record), record


# --- what failed before the adapter was fixed ------------------------------------------------

_ANY_LINE = st.one_of(
    st.binary(max_size=60),
    st.sampled_from([b"PRIVMSG", b" :x", b"NICK", b"001", b":a!b@c PRIVMSG #a :x\0y\rz"]),
    _LINE,
)


@settings(
    max_examples=100,
    deadline=None,
    derandomize=True,
    report_multiple_bugs=False,
)
@given(lines=st.lists(_ANY_LINE, max_size=8), cuts=st.lists(st.integers(0, 600), max_size=4))
def test_any_bytes_decode_without_an_exception_into_clean_records(
    lines: list[bytes], cuts: list[int]
) -> None:
    """Whatever bytes the server sends (``binary()``: invalid UTF-8, NUL, CR, lines with no
    command or parameters), no exception escapes a read and no record holds CR, LF or NUL."""
    wired = Wired()
    try:
        for chunk in chunks(b"\n".join(lines) + b"\n", cuts):
            wired.feed(chunk)
    finally:
        wired.close()
    for record in wired.records:
        assert not dirty(record), record


def test_a_line_the_library_cannot_parse_loses_no_later_line() -> None:
    wired = Wired()
    try:
        wired.feed(b"PRIVMSG\r\n:bob!b@h PRIVMSG #a :.uno\r\n")
        assert [r.text for r in wired.records] == [".uno"]
    finally:
        wired.close()


def test_nul_and_cr_inside_a_line_do_not_reach_the_core() -> None:
    wired = Wired()
    try:
        wired.feed(b":b\0b!b@h PRIVMSG #a :.p r\r5\0\r\n")
    finally:
        wired.close()
    [record] = wired.records
    assert not dirty(record), record
