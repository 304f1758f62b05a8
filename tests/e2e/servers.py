"""Real IRC server processes for end-to-end tests, each on a free loopback port.

Why real servers: the bugs that kill IRC bots live at the edge (flood limits, line lengths,
odd bytes, reconnects) and differ per server; an in-process fake would agree with our own
assumptions. miniircd (PyPI) is always there; ngircd and inspircd come from Debian and are
installed by ``tests/run.sh`` when running as root. Never the system services' port 6667.

Ports: ``free_port()`` asks the kernel for a port free *now*; the server binds it a little
later, and meanwhile any other process (a test's server, a web server, PostgreSQL) may bind it
first. ircu then runs on without a listener (it logs nothing at its CRIT level) and a connect
probe would be answered by the other process, whose clients then get an HTTP error page and a
closed connection. ``IrcServer.start`` therefore checks, after the probe, that the listening
socket on the port is one of the server process's own (``/proc/net/tcp*`` against
``/proc/PID/fd``) and raises :class:`PortTaken` if not; ``start_server`` then starts it again
on a new port.

Servers real networks run (``NETWORK_KINDS``, not in the default parametrization)
----------------------------------------------------------------------------------
ircu 2.10.12 (Undernet), irc2 2.11 (IRCnet) and ircd-hybrid 8.2 (EFnet/OFTC family), plus the
services atheme (on InspIRCd 3) and anope (on hybrid). Debian's IRC server packages conflict
with each other and with ngircd, so they are never installed: ``tests/run.sh`` (as root)
``apt-get download``s the .debs and ``dpkg -x``es them into ``.ci-cache/ircds/<package>/``
(git-ignored; ``UNOBOT_IRCD_CACHE`` overrides), and installs the few runtime needs that conflict
with nothing (``m4`` for irc2, ``libltdl7`` for hybrid, ``gcc`` for the shim below). Each test
process copies what it runs into a private world-readable temporary folder (the servers drop
root and run as ``nobody``, who may not be able to read the checkout, e.g. under /root) and
patches/starts it from there, through ``setpriv --pdeathsig TERM`` so that a test process
killed without cleaning up (a CI timeout) does not leave servers behind.
Nothing outside that folder and the checkout is written: no /etc, no /usr, no mounts.

How each is run, and why:

- **ircu** (``ircd-ircu -t -d WORKDIR -f WORKDIR/ircd.conf``, as ``nobody``: it refuses root).
  Debian built it with ``MAXCONNECTIONS`` 1048572 (``MAXCLIENTS`` = that - 24 = 1048548), and
  it fails at start in two ways (and wastes memory in a third):

  1. ``init_connection_limits`` wants a hard fd limit >= MAXCONNECTIONS ("ircd fd table too
     big"); this sandbox's hard limit is 20000 and cannot be raised (no CAP_SYS_RESOURCE). An
     ``LD_PRELOAD`` shim (``ircd_shim.c``, compiled here with gcc) makes ``getrlimit`` report a
     hard limit of 2**20 and clamps ircu's ``setrlimit`` to the real one. That is safe: ircu only
     sizes tables by it (``epoll_create`` ignores its size hint) and never holds more fds than
     the real limit allows.
  2. ``SetYXXCapacity(&me, MAXCLIENTS)`` rounds 1048548 up to 2**20 and exits because numeric
     nicks hold at most 64**3 = 262144 clients per server ("MAXCLIENTS (or MAXCONNECTIONS) is
     (at least) 786432 too large"). No fd limit fixes that: Debian's binary cannot start
     anywhere. The one ``mov $0xfffe4,%esi`` (bytes ``be e4 ff 0f 00``, found exactly once)
     that passes MAXCLIENTS to it is patched in our copy to 262120 (2**18 - 24): the largest
     capacity P10 numerics allow.
  3. Not fatal, but 1.3 GB of RAM and a second of start: ``init_list`` preallocates
     MAXCONNECTIONS Client and Connection structs. Its loop count (``mov $0xffffc,%ebx``,
     ``bb fc ff 0f 00``, found once) is patched to 1024; ircu mallocs more when it needs them.
     The other MAXCONNECTIONS immediates (0xffffc: fd table, epoll size, loops) are untouched.

  ircu also checks that its binary exists at its compiled SPATH ``/usr/sbin/ircd-ircu``
  (``access(SPATH, X_OK)``); the shim answers that one ``access`` call with success
  (``UNOBOT_SHIM_EXISTS``) instead of a bind mount or a symlink in /usr (a mount needs
  CAP_SYS_ADMIN and an existing mount point; a symlink would change the system).
- **irc2** (``ircd -t -s -p standalone``: foreground; no iauth, the ircd does its ident lookups
  itself; standalone, because a lone server counts as split for good (fewer than the compiled
  minimum of 10 servers) and then refuses to create #channels; the default ``-p strict``
  protections stay on). It has no ``-f``: config, MOTD, m4 macros,
  pid, tune and log files sit at compiled paths under ``/etc/ircd/``, ``/var/run/ircd/`` and
  ``/var/log/ircd/``. Our copy of the binary has those path prefixes replaced by relative ones
  of the same length (``/etc/ircd/`` -> ``./././././``), so it reads and writes them in its
  working folder (irc2 never chdirs). Same length keeps every other string at its offset. It
  pipes its config through ``/usr/bin/m4`` (Debian's ``m4`` package). Runs as ``nobody``.
- **hybrid** (``ircd-hybrid -foreground -configfile … -pidfile … -logfile …`` and the four
  ``-*file`` databases, as ``nobody``: it refuses root). Everything has an option except its
  module folder ``/usr/lib/ircd-hybrid/modules/`` (core modules are loaded from the compiled
  path, and a module listed in the config too makes the core load fail): the shim rewrites that
  prefix in ``opendir`` and ``lt_dlopen`` to our copy (``UNOBOT_SHIM_DIR``).
- **atheme** (``atheme-services -n -c … -D … -l … -p …``, as ``nobody``, linked to InspIRCd 3
  as ``services.test``, U-lined, with InspIRCd's ``sasl`` target): its own libraries come from
  our copy (``LD_LIBRARY_PATH``), its modules from the compiled MODDIR, which the shim rewrites
  in ``stat`` and ``dlopen``. Debian ships no atheme.conf (only the example): ours is small
  (protocol/inspircd, opensex, pbkdf2v2, NickServ REGISTER/IDENTIFY, SaslServ PLAIN).
- **anope** (``anope --nofork --confdir … --dbdir … --logdir … --modulesdir …``, as ``nobody``,
  protocol ``hybrid``, linked as ``services.test`` from 127.0.0.252, a ``service {}`` on
  hybrid): Debian's services.conf and nickserv.conf with the edits in ``_anope_edits`` and
  ``_ANOPE_NICKSERV_EDITS``.

  With services, ``start`` returns once a client (from 127.0.0.254) has seen NickServ on
  ``services.test`` in WHOIS and registered the account ``unobot`` (``SERVICES_PASSWORD``)
  with ``REGISTER``.

Configs start from each package's own default file (comments stripped) with a short list of
edits, each with its reason (``_ircu_edits``, ``_irc2_edits``, ``_hybrid_edits``; the written
config lists them in comments): the point is to test against the classes and flood settings
networks run, changing only names, ports, lookups (ircu: NODNS, its ident query is refused at
once on loopback; hybrid: ident off, DNS kept; irc2 has no switch: a client registers in
~1-1.7 s), what a loopback multi-client test cannot pass (hybrid's ``need_ident``, its
password-only block for 127.0.0.1, 16 clients per /24) and what is needed to start at all
(hybrid: no TLS key files, two options 8.2.43 rejects).
Per-IP limits stay Debian's (ircu: IPcheck 4 connects per 40 s; irc2: 5 per host; hybrid: 2 per
IP, 1 connect per 2 s), so multi-client tests give each client its own 127.0.x.y address
(Linux routes all of 127/8 to ``lo``: any of them can be bound without setup).

Flood behaviour with Debian's default classes: a client that said one PRIVMSG at its JOIN (as
a bot greets) then, 15 s later, sends NOTICEs to the channel at a steady rate, lines of the
given length without CRLF, every 10th line a PING; "held" = slowest PING->PONG / delivery to
another member. Measured 2026-11-25 with ``python -m tests.e2e.flood_probe`` (ircu and irc2
twice, 120 s and 150 s runs, same results)::

    rate x size    ircu                    irc2                         hybrid
    0.5/s x  80 B  fine (no delay)         fine (0.2 s)                 fine
    0.5/s x 200 B  held 12 s, KILLED 60 s  held, growing (31 s @120 s)  fine
    1/s   x  80 B  held 13 s, KILLED 37 s  held, growing (57 s @120 s)  fine
    1/s   x 200 B  KILLED 13 s             held 33 s, KILLED 57 s       fine
    2/s   x  80 B  KILLED 12 s             held 40 s, KILLED 59 s       held 16 s, KILLED 37 s
    5/s   x  80 B  KILLED 4 s              KILLED 20 s                  KILLED 10 s
    10/s  x  80 B  KILLED 2 s              KILLED 10 s                  KILLED 4 s

"KILLED 37 s": disconnected 37 s after the first NOTICE; ircu's and hybrid's kill says
"Excess Flood", irc2's "EOF From Client" (sic). On hybrid a client that never sent a PRIVMSG
is still in its flood grace (40 lines/s): sending only NOTICEs it was never delayed or killed
even at 10/s, but past ~5/s to one channel the excess NOTICEs were dropped without a word.

The settings behind it (read from Debian's configs, the sources and the running servers):

- ircu: each line adds 2 + bytes/120 s to the client's timer; lines wait while it is 10 s
  ahead; CLIENT_FLOOD 1024 bytes (compiled default, Debian sets no features) of waiting input
  kills. Class "Other": sendq 160000, pingfreq 90 s, maxlinks 400. Sustainable: one 80-byte
  line per 2 s (one of 120-239 bytes per 3 s) after a ~10 s (5-line) burst. 439 target-change
  limit: 10 free targets. IPcheck: 4 connects per 40 s per IP, but only from 600 s after the
  server started (IPCHECK_CLONE_DELAY: "don't refuse connection when we just rebooted"; 8
  connects from one address in 16 s to a fresh ircu were all let in, 2026-12-04), so a test's
  ircu never throttles; a throttled client would get an ``ERROR`` line anyway.
- irc2: each line adds 1 + bytes/100 s (+ the command's penalty, 1 for a channel NOTICE);
  lines wait while 10 s ahead (``STATS d``: PY 10); past 6090 bytes of waiting input it stops
  reading and the next data kills; CLIENT_FLOOD (CF) 8000. Y-line class 1: sendq 512000,
  ping 90 s, 5 clients per host. Sustainable: one channel NOTICE under 100 bytes per 2 s.
- hybrid: compiled MAX_FLOOD 5 / MAX_FLOOD_BURST 40: up to 40 lines/s until the client's
  first PRIVMSG ends its grace, then a burst of 5 and about 1 line/s, the rest waiting; class
  "users": recvq 2560 bytes (more waiting input: "Excess Flood"), sendq 100 KB, ping 90 s,
  2 clients per IP (8 network-wide). Sustainable: 1 line/s. General: default_floodcount 10 /
  default_floodtime 1 s per target (40 NOTICEs at once to one user: 10 delivered, the rest
  dropped without a word), max_targets 4, pace_wait 10 s (a second STATS within it: 263
  "Server load is temporarily too heavy"), throttle 1 connect per 2 s per IP.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tests.e2e.client import Msg

__all__ = [
    "DEB_PACKAGES",
    "NETWORK_KINDS",
    "SERVER_KINDS",
    "SERVICES",
    "IrcServer",
    "PortTaken",
    "ServerMissing",
    "free_port",
    "install_hint",
    "plain_text",
    "start_server",
]

SERVER_KINDS = ("miniircd", "ngircd", "inspircd")
"""The kinds every parametrized e2e test runs on."""

NETWORK_KINDS = ("ircu", "irc2", "hybrid")
"""Servers big old networks run, from unpacked Debian packages; started only by the tests that
ask for them (not in the default parametrization: CI time)."""

SERVICES = {"atheme": "inspircd", "anope": "hybrid"}
"""Services package -> the server kind it links to (``start_server(kind, services=...)``)."""

DEB_PACKAGES = {
    "ircu": "ircd-ircu",
    "irc2": "ircd-irc2",
    "hybrid": "ircd-hybrid",
    "atheme": "atheme-services",
    "anope": "anope",
}
"""Kind -> the Debian package that ``tests/run.sh`` unpacks into ``IRCD_CACHE``."""

_DEB_PROGRAM = {
    "ircu": "usr/sbin/ircd-ircu",
    "irc2": "usr/sbin/ircd",
    "hybrid": "usr/sbin/ircd-hybrid",
    "atheme": "usr/bin/atheme-services",
    "anope": "usr/sbin/anope",
}
_DEB_NEEDS = {"ircu": ("gcc",), "irc2": ("m4",), "hybrid": ("gcc",), "atheme": (), "anope": ()}
"""Programs a kind needs besides its package: gcc builds the LD_PRELOAD shim, irc2 runs m4."""

REPO = Path(__file__).resolve().parents[2]
IRCD_CACHE = Path(os.environ.get("UNOBOT_IRCD_CACHE") or REPO / ".ci-cache" / "ircds")

PROBE_ADDRESS = "127.0.0.253"
"""Where the is-it-listening probe connects from: servers count connections per IP (hybrid
throttles a second connect within 2 s, ircu's IPcheck a fifth within 40 s), so the probe
must not use up 127.0.0.1's allowance before a test connects from there."""
SERVICES_LINK_ADDRESS = "127.0.0.252"
"""anope's link to hybrid comes from here (hybrid's throttle again)."""
REGISTRAR_ADDRESS = "127.0.0.254"
"""The fixture's client that registers the services account connects from here."""

SERVICES_ACCOUNT = "unobot"
"""The NickServ account the services fixture registers (``IrcServer.account``)."""
SERVICES_PASSWORD = "uno-test-pw-31"


class ServerMissing(RuntimeError):
    """The server's program is not installed."""


class PortTaken(RuntimeError):
    """Something else listens on the port the server was given (``free_port`` is only a
    guess: another process may bind the port between the guess and the server's bind)."""


def free_port() -> int:
    """A loopback TCP port that was free a moment ago (the kernel picks it). Only a guess:
    :meth:`IrcServer.start` checks that the listener it then finds is the server's own."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _listening_inodes(host: str, port: int) -> set[str]:
    """Socket inodes listening on ``host:port`` or on every address at ``port``, IPv4 or
    IPv6 (ircu listens on an IPv6 socket bound to ``::ffff:127.0.0.1``), from /proc/net."""
    v4 = f"{int.from_bytes(socket.inet_aton(host), sys.byteorder):08X}"
    addresses = {v4, "00000000", "0" * 32, "0000000000000000FFFF0000" + v4}
    found = set()
    for name in ("tcp", "tcp6"):
        with contextlib.suppress(OSError), open(f"/proc/net/{name}") as table:
            for row in table.readlines()[1:]:
                fields = row.split()
                address, _, hexport = fields[1].partition(":")
                if fields[3] == "0A" and int(hexport, 16) == port and address in addresses:
                    found.add(fields[9])  # 0A: LISTEN; field 9: the socket's inode
    return found


def _socket_inodes(pid: int) -> set[str] | None:
    """Socket inodes open in ``pid`` and its descendants; None where /proc does not say
    (not Linux, or another user's process)."""
    pids, found = [pid], set()
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children")
        if children.exists():
            pids += [int(c) for c in children.read_text().split()]
        for p in pids:
            for fd in Path(f"/proc/{p}/fd").iterdir():
                with contextlib.suppress(OSError):
                    target = os.readlink(fd)
                    if target.startswith("socket:["):
                        found.add(target[8:-1])
    except (OSError, ValueError):
        return None
    return found


def _which(kind: str) -> str | None:
    if kind == "miniircd":
        local = Path(sys.executable).with_name("miniircd")
        return str(local) if local.exists() else shutil.which("miniircd")
    if kind in DEB_PACKAGES:
        program = IRCD_CACHE / DEB_PACKAGES[kind] / _DEB_PROGRAM[kind]
        if not program.exists() or not all(shutil.which(need) for need in _DEB_NEEDS[kind]):
            return None
        return str(program)
    return shutil.which(kind) or next(
        (str(p) for p in (Path("/usr/sbin") / kind, Path("/usr/bin") / kind) if p.exists()), None
    )


def install_hint(kind: str) -> str:
    """How to get ``kind`` (for skip and failure messages)."""
    if kind in DEB_PACKAGES:
        needs = " and ".join(_DEB_NEEDS[kind])
        return (
            f"Debian's {DEB_PACKAGES[kind]} is not unpacked in {IRCD_CACHE}"
            + (f" (or {needs} is missing)" if needs else "")
            + "; tests/run.sh unpacks it when run as root"
        )
    return f"install it (apt-get install {kind}, which tests/run.sh does when run as root)"


# --- running Debian's servers from a private copy --------------------------------------------

_runtime_dirs: dict[str, Path] = {}
_runtime_lock = threading.RLock()
"""Servers may be started from several threads at once (the network scenarios run side by
side): the private copies and the shim are made once, under this lock."""


def _runtime_base() -> Path:
    """This process's private copy folder: world-readable, removed at exit."""
    with _runtime_lock:
        return _runtime_base_locked()


def _runtime_base_locked() -> Path:
    base = _runtime_dirs.get("")
    if base is None:
        base = _runtime_dirs[""] = Path(tempfile.mkdtemp(prefix="unobot-ircds-"))
        os.chmod(base, 0o755)
        atexit.register(shutil.rmtree, base, True)
    return base


def _runtime(kind: str) -> Path:
    """A copy of ``kind``'s unpacked package, patched where ``_patch`` says, readable by
    ``nobody``; made once per process."""
    with _runtime_lock:
        return _runtime_locked(kind)


def _runtime_locked(kind: str) -> Path:
    root = _runtime_dirs.get(kind)
    if root is None:
        package = DEB_PACKAGES[kind]
        root = _runtime_base() / package
        shutil.copytree(IRCD_CACHE / package, root, symlinks=True)
        _patch(kind, root / _DEB_PROGRAM[kind])
        _runtime_dirs[kind] = root
    return root


def _replace_once(data: bytes, old: bytes, new: bytes, count: int = 1) -> bytes:
    if len(old) != len(new):
        raise ValueError("a binary patch must keep the length")
    found = data.count(old)
    if found != count:
        raise RuntimeError(f"expected {count} x {old!r} in the binary, found {found}")
    return data.replace(old, new)


def _le32(value: int) -> bytes:
    return value.to_bytes(4, "little")


def _patch(kind: str, program: Path) -> None:
    """The binary patches the module docstring explains (ircu, irc2); none for the others."""
    data = program.read_bytes()
    if kind == "ircu":
        # mov $MAXCLIENTS,%esi before SetYXXCapacity(&me, MAXCLIENTS): 1048548 -> 2**18 - 24
        data = _replace_once(data, b"\xbe" + _le32(0xFFFE4), b"\xbe" + _le32(262120))
        # mov $MAXCONNECTIONS,%ebx: init_list's count of Client+Connection structs to
        # preallocate (1312 bytes each: 1.3 GB) -> 1024; more are malloc'ed when needed
        data = _replace_once(data, b"\xbb" + _le32(0xFFFFC), b"\xbb" + _le32(1024))
    elif kind == "irc2":
        for prefix, count in ((b"/etc/ircd/", 3), (b"/var/run/ircd/", 2), (b"/var/log/ircd/", 4)):
            data = _replace_once(data, prefix, b"./" * (len(prefix) // 2), count)
    else:
        return
    program.write_bytes(data)


def _shim() -> Path:
    """``ircd_shim.c`` compiled (once per process) into the private folder."""
    with _runtime_lock:
        return _shim_locked()


def _shim_locked() -> Path:
    source = Path(__file__).with_name("ircd_shim.c")
    digest = hashlib.sha256(source.read_bytes()).hexdigest()[:12]
    lib = _runtime_base() / f"ircd_shim-{digest}.so"
    if not lib.exists():
        compiler = shutil.which("gcc") or shutil.which("cc") or "gcc"
        tmp = lib.with_suffix(".tmp")
        subprocess.run(
            [compiler, "-shared", "-fPIC", "-O2", "-o", str(tmp), str(source), "-ldl"],
            check=True,
            capture_output=True,
        )
        tmp.replace(lib)
    return lib


def plain_text(text: str) -> str:
    """``text`` without mIRC formatting (anope answers in bold: ``Nickname ^Bunobot^B …``)."""
    return re.sub(r"\x03(\d{1,2}(,\d{1,2})?)?|[\x02\x0f\x16\x1d\x1f]", "", text)


def _unprivileged() -> dict[str, object]:
    """Popen arguments that drop root to ``nobody`` (ircu, hybrid, atheme and anope refuse
    root); none when not root."""
    if os.geteuid() != 0:
        return {}
    nobody = pwd.getpwnam("nobody")
    return {"user": nobody.pw_uid, "group": nobody.pw_gid, "extra_groups": []}


def _die_with_parent(cmd: list[str]) -> list[str]:
    """``cmd`` run through ``setpriv --pdeathsig TERM``: the server gets SIGTERM when the test
    process dies without cleaning up (a CI timeout's SIGKILL), instead of living on. Linux
    sends it when the *thread* that started the server ends: start (and restart) servers from
    a thread that outlives them, as fixtures do (the main thread)."""
    setpriv = shutil.which("setpriv")
    return [setpriv, "--pdeathsig", "TERM", "--", *cmd] if setpriv else cmd


def _give_to_runner(path: Path) -> None:
    """Let the (unprivileged) server write in ``path`` and everything in it."""
    if os.geteuid() != 0:
        return
    nobody = pwd.getpwnam("nobody")
    for p in (path, *path.rglob("*")):
        os.chown(p, nobody.pw_uid, nobody.pw_gid)


def _strip_comments(text: str) -> str:
    """A config without ``#`` / ``//`` comment lines, ``/* */`` blocks and blank lines."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"(?m)^\s*(#|//).*\n?", "", text)
    return re.sub(r"\n\s*\n+", "\n", text).strip() + "\n"


Edit = tuple[str, str, int, str]
"""(regular expression, replacement, how many matches Debian's file has, why)."""


def _apply(text: str, edits: list[Edit]) -> str:
    """Apply each edit to Debian's config, checking it matched as often as expected (a changed
    package fails loudly instead of silently testing something else)."""
    for pattern, replacement, count, why in edits:
        text, found = re.subn(pattern, replacement, text, flags=re.S)
        if found != count:
            raise RuntimeError(f"config edit {pattern!r} ({why}) matched {found}x, not {count}x")
    return text


def _debian_conf(kind: str, relpath: str) -> str:
    return (IRCD_CACHE / DEB_PACKAGES[kind] / relpath).read_text(errors="replace")


def _ngircd_conf(port: int, piddir: Path) -> str:
    # Debian's defaults (MaxConnectionsIP 5/10, MaxNickLength 9, MaxJoins 10, penalty
    # throttling) break multi-client tests; the values below are the ones IRC-NOTES measured.
    return f"""[Global]
  Name = irc.test
  Info = unobot test server
  Listen = 127.0.0.1
  Ports = {port}
  PidFile = {piddir}/ngircd.pid
  MotdPhrase = test
  ServerUID = nobody
  ServerGID = nogroup
[Limits]
  MaxConnectionsIP = 0
  MaxJoins = 0
  MaxNickLength = 30
  MaxPenaltyTime = 0
  PingTimeout = 120
  PongTimeout = 20
[Options]
  PAM = no
  Ident = no
  DNS = no
"""


def _inspircd_conf(port: int, tmp: Path) -> str:
    # Debian's <connect> limits are kept (10-line threshold, 8 KB recvq, 1 command/s fake lag,
    # softsendq) so the flood test proves something; only localmax/globalmax are raised (Debian's
    # 3 blocks multi-client tests) and DNS/ident lookups are off to make registration quick.
    return f"""<server name="irc.test" description="unobot test" network="TestNet">
<admin name="t" nick="t" email="t@t">
<bind address="127.0.0.1" port="{port}" type="clients">
<connect allow="*" timeout="60" threshold="10" commandrate="1000" fakelag="yes"
         pingfreq="120" hardsendq="262144" softsendq="8192" recvq="8192"
         localmax="1000" globalmax="1000" resolvehostnames="no" useident="no">
<channels users="20" opers="60">
<dns server="127.0.0.1" timeout="1">
<pid file="{tmp}/inspircd.pid">
<files motd="{tmp}/motd">
<options prefixquit="Quit: " syntaxhints="no" announcets="yes" hostintopic="yes"
         pingwarning="15" splitwhois="no" exemptchanops="">
<performance quietbursts="yes" softlimit="1024" somaxconn="128" netbuffersize="10240">
<log method="file" type="* -USERINPUT -USEROUTPUT" level="default" target="{tmp}/ircd.log">
"""


def _ircu_edits(port: int, workdir: Path) -> list[Edit]:
    return [
        (
            r'name = "localhost\.localdomain";',
            'name = "irc.test";',
            1,
            "server name",
        ),
        (
            r"Port \{ port = 6667; \};",
            f'Port {{ port = {port}; vhost = "127.0.0.1"; }};',
            1,
            "our free loopback port, not 6667",
        ),
        (
            r"features \{",
            "features {\n"
            ' "NODNS" = "TRUE";\n'  # no reverse lookups of 127.0.x.y (ircu has no ident switch)
            f' "PPATH" = "{workdir}/ircd.pid";',  # default /var/run/ircd/ircd.pid
            1,
            "DNS lookups off; pid file in the working folder",
        ),
    ]


def _ircu_conf(port: int, workdir: Path) -> str:
    # Debian's classes stay: Client *@* -> class Other (sendq 160000, pingfreq 90 s, maxlinks
    # 400, no per-Client maxlinks), and every feature at its compiled default: CLIENT_FLOOD 1024
    # bytes, IPCHECK_CLONE_LIMIT 4 / PERIOD 40 s / DELAY 600 s, MAXCHANNELSPERUSER 10,
    # NICKLEN 12, the 439 target-change limit. The Jupe of NickServ & co stays too.
    conf = _strip_comments(_debian_conf("ircu", "etc/ircd/ircd.conf"))
    return _apply(conf, _ircu_edits(port, workdir))


def _irc2_edits(port: int) -> list[Edit]:
    return [
        (
            r"M%irc\.localhost%%Debian ircd default configuration%%000A\n",
            "M%irc.test%%unobot test%%000A\n",
            1,
            "server name",
        ),
        (
            r"P%%%%6667%?\n",
            f"P%127.0.0.1%%%{port}%\n",
            1,
            "listen on our free loopback port, not 6667",
        ),
    ]


def _irc2_conf(port: int) -> str:
    # Debian's Y-lines stay: class 1 = ping 90 s, 100 links, sendq 512000, 5 clients per
    # host / 5 per user@host locally (5.5), 100.100 network-wide; I-lines * and 127.0.0.1/32
    # both to class 1. Flood control is irc2's compiled penalty timer (no config).
    return _apply(_strip_comments(_debian_conf("irc2", "etc/ircd/ircd.conf")), _irc2_edits(port))


def _hybrid_edits(port: int, workdir: Path) -> list[Edit]:
    return [
        (r'name = "hybrid8\.debian\.local";', 'name = "irc.test";', 2, "server name (+ shared{})"),
        (
            r'\n\s*(rsa_private_key_file|tls_certificate_file|tls_dh_param_file) = "[^"]*";',
            "",
            3,
            "no TLS: Debian's key files are generated by the package's postinst, absent here",
        ),
        (
            r"listen \{.*?\n\};",
            f'listen {{\n\thost = "127.0.0.1";\n\tport = {port};\n}};',
            1,
            "one plain loopback port instead of 6665-6669 and TLS 6697",
        ),
        (
            r'auth \{\n\s*user = "\*@127\.0\.0\.1";.*?\n\};',
            "",
            1,
            "Debian's example oper block makes every client from 127.0.0.1 give a password",
        ),
        (
            r'(user = "\*@\*";\n\s*class = "users";)\n\s*flags = need_ident;',
            r"\1",
            1,
            "need_ident refuses clients without identd, i.e. every loopback test client",
        ),
        (
            r"number_per_cidr = 16;",
            "number_per_cidr = 1000;",
            1,
            "16 clients per /24 would stop 24 players on 127.0.0.x (per-IP limits stay 2/8)",
        ),
        (r"disable_auth = no;", "disable_auth = yes;", 1, "ident lookups off"),
        (
            r"\n\s*enable_(owner|admin) = no;",
            "",
            2,
            "options 8.2.43 does not know: a syntax error there makes it skip the rest of the "
            "file (modules, logs)",
        ),
        (r'"/var/log/ircd/', f'"{workdir}/', 8, "logs in the working folder"),
        (r'"/var/cache/ircd-hybrid/', f'"{workdir}/', 1, "links file in the working folder"),
    ]


def _hybrid_conf(port: int, workdir: Path) -> str:
    # Debian's class "users" stays: ping 90 s, 2 clients per IP here / 8 network-wide,
    # max 100, sendq 100 KB, recvq 2560 bytes; general: default_floodcount 10 /
    # default_floodtime 1 s (messages per second to one target before they are dropped),
    # max_targets 4, pace_wait 10 s / pace_wait_simple 1 s, throttle 1 connect per 2 s per IP,
    # no_oper_flood, anti_nick_flood 5 changes / 20 s, join flood 18 per 6 s.
    conf = _strip_comments(_debian_conf("hybrid", "etc/ircd-hybrid/ircd.conf"))
    return _apply(conf, _hybrid_edits(port, workdir))


def _edits_as_comments(edits: list[Edit], prefix: str = "# ") -> str:
    return "".join(f"{prefix}changed from Debian's default: {why}\n" for *_, why in edits)


_LINK_PASSWORD = "unobot-link-pw"


def _inspircd_services_conf(link_port: int) -> str:
    # InspIRCd 3 side of the atheme link: spanningtree, the account and SASL modules atheme's
    # protocol module needs, services.test as a U-lined server.
    return f"""<bind address="127.0.0.1" port="{link_port}" type="servers">
<module name="spanningtree">
<module name="services_account">
<module name="cap">
<module name="sasl">
<link name="services.test" ipaddr="127.0.0.1" port="{link_port}" allowmask="127.0.0.0/8"
      sendpass="{_LINK_PASSWORD}" recvpass="{_LINK_PASSWORD}" timeout="30">
<uline server="services.test" silent="yes">
<sasl target="services.test" requiressl="no">
"""


def _hybrid_services_conf(link_port: int) -> str:
    return f"""listen {{
	flags = server;
	host = "127.0.0.1";
	port = {link_port};
}};
connect {{
	name = "services.test";
	host = "{SERVICES_LINK_ADDRESS}";
	send_password = "{_LINK_PASSWORD}";
	accept_password = "{_LINK_PASSWORD}";
	hub_mask = "*";
	class = "server";
}};
service {{
	name = "services.test";
}};
"""


def _atheme_conf(link_port: int, workdir: Path) -> str:
    # Our own small config (Debian ships only the example): the modules a NickServ with
    # REGISTER/IDENTIFY and SASL PLAIN need, the example's general settings otherwise.
    modules = [
        "protocol/inspircd",
        "backend/opensex",
        "crypto/pbkdf2v2",
        "nickserv/main",
        "nickserv/help",
        "nickserv/identify",
        "nickserv/info",
        "nickserv/register",
        "nickserv/logout",
        "saslserv/main",
        "saslserv/plain",
    ]
    loads = "".join(f'loadmodule "modules/{m}";\n' for m in modules)
    return f"""{loads}
serverinfo {{
	name = "services.test";
	desc = "Atheme IRC Services";
	numeric = "00A";
	recontime = 1;
	netname = "TestNet";
	hidehostsuffix = "users.test";
	adminname = "test";
	adminemail = "root@localhost";
	registeremail = "noreply@localhost";
	loglevel = {{ error; info; admin; network; }};
	maxlogins = 5;
	maxusers = 5;
	mdlimit = 30;
	emaillimit = 10;
	emailtime = 300;
	auth = none;
	casemapping = rfc1459;
}};
uplink "irc.test" {{
	host = "127.0.0.1";
	send_password = "{_LINK_PASSWORD}";
	receive_password = "{_LINK_PASSWORD}";
	port = {link_port};
}};
nickserv {{
	nick = "NickServ";
	user = "NickServ";
	host = "services.test";
	real = "Nickname Services";
	maxnicks = 5;
	expire = 30;
}};
saslserv {{
	nick = "SaslServ";
	user = "SaslServ";
	host = "services.test";
	real = "SASL Authentication Agent";
}};
logfile "{workdir}/atheme-account.log" {{ register; set; }};
general {{
	flood_msgs = 7;
	flood_time = 10;
	ratelimit_uses = 5;
	ratelimit_period = 60;
	kline_time = 7;
	commit_interval = 5;
	uplink_sendq_limit = 1048576;
	language = "en";
	immune_level = immune;
}};
"""


def _anope_edits(link_port: int, workdir: Path) -> list[Edit]:
    return [
        (
            r'value = "services\.example\.com"',
            'value = "services.test"',
            1,
            "services' server name (the bot identifies only to NickServ on services.*)",
        ),
        (
            r'(uplink\n\{.*?)port = 7000\n(.*?)password = "mypassword"',
            rf'\1port = {link_port}\n\2password = "{_LINK_PASSWORD}"',
            1,
            "link to our hybrid",
        ),
        (
            r'name = "services\.example\.com"',
            'name = "services.test"',
            1,
            "services' server name",
        ),
        (
            r'#localhost = "nowhere\."',
            f'localhost = "{SERVICES_LINK_ADDRESS}"',
            1,
            "link from its own address (hybrid throttles a second connect from one IP in 2 s)",
        ),
        (r'pid = "/var/run/anope/anope\.pid"', f'pid = "{workdir}/anope.pid"', 1, "pid file"),
        (r'motd = "/etc/anope/services\.motd"', 'motd = "services.motd"', 1, "motd file"),
        (r'name = "inspircd3"', 'name = "hybrid"', 1, "protocol: ircd-hybrid"),
    ]


_ANOPE_NICKSERV_EDITS: list[Edit] = [
    (
        r"\tregdelay = 30s",
        "\tregdelay = 0s",
        1,
        "the fixture registers the account as soon as its client is connected",
    ),
]


@dataclass
class IrcServer:
    """A running server process; ``restart`` keeps the port (for reconnect tests).

    With ``services`` (``atheme`` on inspircd, ``anope`` on hybrid) the services run as a
    second process linked as ``services.test`` and the account ``account`` (password
    ``password``) is registered with NickServ before ``start`` returns.
    """

    kind: str
    port: int
    host: str = "127.0.0.1"
    workdir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="ircd-")))
    proc: subprocess.Popen[bytes] | None = None
    start_seconds: float = 0.0
    """Wall time from spawn until the port accepted a connection (measured, for the report)."""
    tls: bool = False
    """TLS-only listener with a fresh self-signed certificate for 127.0.0.1 (miniircd only)."""
    services: str | None = None
    account: str = SERVICES_ACCOUNT
    password: str = SERVICES_PASSWORD
    link_port: int = 0
    services_proc: subprocess.Popen[bytes] | None = None
    services_seconds: float = 0.0
    """Wall time from spawning the services until the account was registered."""
    _env: dict[str, str] | None = field(default=None, repr=False)
    _popen: dict[str, object] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if self.services is not None:
            if SERVICES.get(self.services) != self.kind:
                raise ValueError(f"services {self.services!r} do not run on {self.kind!r}")
            if not self.link_port:
                self.link_port = free_port()

    @property
    def cert_file(self) -> Path:
        """The server's self-signed certificate (PEM), for clients that pin it."""
        return self.workdir / "cert.pem"

    def _make_cert(self) -> Path:
        combined = self.workdir / "server.pem"
        if not combined.exists():
            key = self.workdir / "key.pem"
            args = "req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1"
            args += " -addext subjectAltName=IP:127.0.0.1"
            subprocess.run(
                ["openssl", *args.split(), "-keyout", str(key), "-out", str(self.cert_file)],
                check=True,
                capture_output=True,
            )
            combined.write_bytes(key.read_bytes() + self.cert_file.read_bytes())
        return combined

    def command(self) -> list[str]:
        """The server's command line; writes its config (and sets its environment)."""
        exe = _which(self.kind)
        if exe is None:
            raise ServerMissing(self.kind)
        self._env, self._popen = None, {}
        if self.kind == "miniircd":
            cmd = [exe, "--listen", self.host, "--ports", str(self.port)]
            if os.geteuid() == 0:  # miniircd refuses to run as root without --setuid
                cmd += ["--setuid", "root"]
            if self.tls:
                cmd += ["--ssl-pem-file", str(self._make_cert())]
            return cmd
        if self.tls:
            raise ValueError("TLS test servers are miniircd only")
        if self.kind == "ngircd":
            piddir = self.workdir / "run"
            piddir.mkdir(exist_ok=True)
            os.chmod(self.workdir, 0o755)
            os.chmod(piddir, 0o777)  # ngircd drops to nobody before writing its pid file
            conf = self.workdir / "ngircd.conf"
            conf.write_text(_ngircd_conf(self.port, piddir))
            os.chmod(conf, 0o644)
            return [exe, "-n", "-f", str(conf)]
        if self.kind == "inspircd":
            (self.workdir / "motd").write_text("test\n")
            conf = self.workdir / "inspircd.conf"
            text = _inspircd_conf(self.port, self.workdir)
            if self.services == "atheme":
                text += _inspircd_services_conf(self.link_port)
            conf.write_text(text)
            cmd = [exe, "--config", str(conf), "--nofork"]
            if os.geteuid() == 0:
                cmd.append("--runasroot")
            return cmd
        if self.kind in NETWORK_KINDS:
            return self._network_command()
        raise ValueError(f"unknown server kind {self.kind!r}")

    def _network_command(self) -> list[str]:
        root = _runtime(self.kind)
        exe = str(root / _DEB_PROGRAM[self.kind])
        work = self.workdir
        os.chmod(work, 0o755)
        env = dict(os.environ)
        if self.kind == "ircu":
            shutil.copy(root / "etc/ircd/ircd.motd", work / "ircd.motd")
            edits = _ircu_edits(self.port, work)
            (work / "ircd.conf").write_text(_edits_as_comments(edits) + _ircu_conf(self.port, work))
            env.update(
                LD_PRELOAD=str(_shim()),
                UNOBOT_SHIM_NOFILE=str(1 << 20),  # >= MAXCONNECTIONS 1048572
                UNOBOT_SHIM_EXISTS="/usr/sbin/ircd-ircu",  # its SPATH check
            )
            cmd = [exe, "-t", "-d", str(work), "-f", str(work / "ircd.conf")]
        elif self.kind == "irc2":
            for name in ("ircd.motd", "ircd.m4"):
                shutil.copy(root / "etc/ircd" / name, work / name)
            edits = _irc2_edits(self.port)
            (work / "ircd.conf").write_text(_edits_as_comments(edits) + _irc2_conf(self.port))
            # -t foreground, -s no iauth (ident lookups done by the ircd itself), -p standalone:
            # no split mode (a lone server is otherwise always "split": fewer than the compiled
            # minimum of 10 servers, and then it refuses to create #channels); the
            # protections (penalties) of the default -p strict stay on.
            cmd = [exe, "-t", "-s", "-p", "standalone"]
        else:  # hybrid
            edits = _hybrid_edits(self.port, work)
            text = _edits_as_comments(edits) + _hybrid_conf(self.port, work)
            if self.services == "anope":
                text += _hybrid_services_conf(self.link_port)
            (work / "ircd.conf").write_text(text)
            modules = "/usr/lib/ircd-hybrid/modules/"
            env.update(LD_PRELOAD=str(_shim()), UNOBOT_SHIM_DIR=f"{modules}={root}{modules}")
            cmd = [exe, "-foreground", "-configfile", str(work / "ircd.conf")]
            cmd += ["-pidfile", str(work / "ircd.pid"), "-logfile", str(work / "ircd.log")]
            for db in ("kline", "dline", "xline", "resv"):
                cmd += [f"-{db}file", str(work / f"{db}.db")]
        _give_to_runner(work)
        self._env, self._popen = env, _unprivileged()
        return _die_with_parent(cmd)

    def start(self, timeout: float = 10.0) -> None:
        """Spawn the server and wait until it accepts TCP connections (and, with services,
        until NickServ is there and the account registered)."""
        cmd = self.command()
        log = open(self.workdir / "stdout.log", "ab")  # noqa: SIM115 - lives as long as proc
        began = time.monotonic()
        self.proc = subprocess.Popen(
            cmd,
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=self.workdir,
            start_new_session=True,
            env=self._env,
            **self._popen,  # type: ignore[arg-type]
        )
        log.close()
        deadline = began + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.kind} exited with {self.proc.returncode}: {self.log()}")
            try:
                with socket.create_connection(
                    (self.host, self.port), timeout=0.5, source_address=(PROBE_ADDRESS, 0)
                ):
                    self.start_seconds = time.monotonic() - began
                    break
            except OSError:
                time.sleep(0.01)
        else:
            self.stop()
            raise RuntimeError(
                f"{self.kind} did not listen on {self.port} in {timeout}s: {self.log()}"
            )
        if not self._owns_listener():
            self.stop()
            raise PortTaken(
                f"another process listens on {self.host}:{self.port}, not {self.kind}: {self.log()}"
            )
        if self.services is not None:
            try:
                self._start_services(timeout=20.0)
            except BaseException:
                self.stop()
                raise

    def _owns_listener(self) -> bool:
        """Whether the socket listening on our port is the server's (True when /proc can't
        tell). A server that could not bind (ircu then runs on without a listener) would
        otherwise pass the probe on another process's listener, and its clients would talk
        to that process."""
        assert self.proc is not None
        mine = _socket_inodes(self.proc.pid)
        if mine is None:
            return True
        return bool(_listening_inodes(self.host, self.port) & mine)

    def state(self) -> str:
        """The server process's state, for failure messages: running, or how it ended."""
        proc = self.proc
        if proc is None:
            return "not running (stopped by the fixture, or never started)"
        code = proc.poll()
        if code is None:
            return f"running (pid {proc.pid})"
        if code < 0:
            return f"ended by {signal.Signals(-code).name} (pid {proc.pid})"
        return f"exited with status {code} (pid {proc.pid})"

    # --- services ------------------------------------------------------------------------

    def _services_command(self) -> tuple[list[str], dict[str, str]]:
        name = self.services
        assert name is not None
        exe = _which(name)
        if exe is None:
            raise ServerMissing(name)
        root = _runtime(name)
        work = self.workdir / "services"
        work.mkdir(exist_ok=True)
        os.chmod(self.workdir, 0o755)  # the services run as nobody
        env = dict(os.environ)
        if name == "atheme":
            lib = root / "usr/lib/x86_64-linux-gnu"
            (work / "atheme.conf").write_text(_atheme_conf(self.link_port, work))
            moddir = "/usr/lib/x86_64-linux-gnu/atheme/"
            env.update(
                LD_LIBRARY_PATH=str(lib),
                LD_PRELOAD=str(_shim()),  # modules load from the compiled MODDIR
                UNOBOT_SHIM_DIR=f"{moddir}={root}{moddir}",
            )
            cmd = [str(root / _DEB_PROGRAM[name]), "-n", "-c", str(work / "atheme.conf")]
            cmd += ["-D", str(work), "-l", str(work / "atheme.log"), "-p", str(work / "pid")]
        else:  # anope
            conf = work / "conf"
            if not conf.exists():
                shutil.copytree(root / "etc/anope", conf)
            services_conf = (root / "etc/anope/services.conf").read_text()
            edits = _anope_edits(self.link_port, work)
            (conf / "services.conf").write_text(
                _edits_as_comments(edits) + _apply(services_conf, edits)
            )
            nickserv_conf = (root / "etc/anope/nickserv.conf").read_text()
            (conf / "nickserv.conf").write_text(
                _edits_as_comments(_ANOPE_NICKSERV_EDITS)
                + _apply(nickserv_conf, _ANOPE_NICKSERV_EDITS)
            )
            for sub in ("data", "logs"):
                (work / sub).mkdir(exist_ok=True)
            cmd = [str(root / _DEB_PROGRAM[name]), "--nofork", f"--confdir={conf}"]
            cmd += [f"--dbdir={work / 'data'}", f"--logdir={work / 'logs'}"]
            cmd += [f"--modulesdir={root / 'usr/lib/anope'}"]  # it appends modules/
            cmd += [f"--localedir={root / 'usr/share/locale'}"]
        _give_to_runner(work)
        return _die_with_parent(cmd), env

    def _start_services(self, timeout: float) -> None:
        from tests.e2e.client import TestClient  # the e2e raw client (avoids an import cycle)

        cmd, env = self._services_command()
        log = open(self.workdir / "services.log", "ab")  # noqa: SIM115 - lives as long as proc
        began = time.monotonic()
        self.services_proc = subprocess.Popen(
            cmd,
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=self.workdir / "services",
            start_new_session=True,
            env=env,
            **_unprivileged(),  # type: ignore[arg-type]
        )
        log.close()
        deadline = began + timeout
        client = TestClient(self.port, self.account, source=REGISTRAR_ADDRESS)
        try:
            while True:  # NickServ on services.* (the link takes a moment)
                if self.services_proc.poll() is not None:
                    raise RuntimeError(f"{self.services} exited: {self.services_log()}")
                mark = len(client.snapshot())
                client.send("WHOIS NickServ")
                end = client.wait_for(
                    lambda m: m.command in ("312", "401", "318"), after=mark, what="WHOIS"
                )
                if end.command == "312" and end.params[2].startswith("services."):
                    break
                if time.monotonic() > deadline:
                    raise RuntimeError(f"no NickServ in {timeout}s: {self.services_log()}")
                time.sleep(0.2)
            mark = len(client.snapshot())
            client.send(f"PRIVMSG NickServ :REGISTER {self.password} {self.account}@example.org")
            answer = client.wait_for(
                _register_answer,
                after=mark,
                timeout=max(1.0, deadline - time.monotonic()),
                what="REGISTER answer",
            )
            text = plain_text(answer.text)
            ok = ("already", "is now registered", f"{self.account} registered")
            if not any(phrase in text for phrase in ok):
                raise RuntimeError(f"NickServ REGISTER: {answer.raw!r}")
        finally:
            client.close()
        self.services_seconds = time.monotonic() - began

    def services_log(self) -> str:
        path = self.workdir / "services.log"
        text = path.read_text(errors="replace")[-2000:] if path.exists() else ""
        return text

    def _stop_services(self, sig: int = signal.SIGTERM) -> None:
        proc, self.services_proc = self.services_proc, None
        if proc is None or proc.poll() is not None:
            return
        proc.send_signal(sig)
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)

    # --- lifecycle ------------------------------------------------------------------------

    def stop(self) -> None:
        """Terminate the server (SIGTERM, then SIGKILL) and wait for it."""
        self._stop_services()
        if self.proc is None or self.proc.poll() is not None:
            self.proc = None
            return
        # inspircd may segfault on SIGTERM (IRC-NOTES); a core file is not wanted: SIGKILL it.
        sig = signal.SIGKILL if self.kind == "inspircd" else signal.SIGTERM
        self.proc.send_signal(sig)
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)
        self.proc = None

    def kill(self) -> None:
        """SIGKILL the server, as a crash or an OOM kill would: its clients get no ERROR and no
        QUIT, only a connection reset."""
        self._stop_services(signal.SIGKILL)
        if self.proc is None or self.proc.poll() is not None:
            self.proc = None
            return
        self.proc.kill()
        self.proc.wait(5)
        self.proc = None

    def restart(self, kill: bool = False) -> float:
        """Stop the server (``kill``: SIGKILL it) and start a new one on the same port; returns
        the ``time.monotonic()`` at which the new one listens."""
        if kill:
            self.kill()
        else:
            self.stop()
        self.start()
        return time.monotonic()

    def log(self) -> str:
        path = self.workdir / "stdout.log"
        text = path.read_text(errors="replace")[-2000:] if path.exists() else ""
        for extra in ("ircd.log",):  # hybrid and ircu log to a file, not stdout
            if (self.workdir / extra).exists():
                text += "\n" + (self.workdir / extra).read_text(errors="replace")[-1500:]
        return text

    def cleanup(self) -> None:
        self.stop()
        shutil.rmtree(self.workdir, ignore_errors=True)


def _register_answer(message: Msg) -> bool:
    """NickServ's answer to REGISTER, not the notice it greets a registered nick with.

    The registrar connects under the account's nick; on a restart the account already exists,
    and NickServ's greeting ("This nickname is registered. Please choose a different nickname,
    or identify via /msg NickServ identify <password>") may arrive after the REGISTER was sent:
    it names no answer, and waiting on past it finds "… is already registered"."""
    if message.command != "NOTICE" or message.nick != "NickServ":
        return False
    text = plain_text(message.text).lower()
    return "regist" in text and "identify" not in text


def start_server(kind: str, tls: bool = False, services: str | None = None) -> IrcServer:
    """Start ``kind`` on a free port; raises :class:`ServerMissing` if it is not installed.

    ``kind`` is one of ``SERVER_KINDS`` or ``NETWORK_KINDS``; ``services`` (``"atheme"`` with
    inspircd, ``"anope"`` with hybrid) also starts linked services with a registered account
    (``server.account`` / ``server.password``).
    """
    if kind not in SERVER_KINDS and kind not in NETWORK_KINDS:
        raise ValueError(f"unknown server kind {kind!r}")
    for needed in (kind, services):
        if needed is not None and _which(needed) is None:
            raise ServerMissing(needed)
    for attempt in range(3):
        server = IrcServer(kind, free_port(), tls=tls, services=services)
        try:
            server.start()
        except PortTaken:
            server.cleanup()
            if attempt == 2:
                raise
            continue  # the port was taken between free_port() and the server's bind
        except BaseException:
            server.cleanup()
            raise
        return server
    raise AssertionError("unreachable")
