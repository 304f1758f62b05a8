"""Real IRC server processes for end-to-end tests, each on a free loopback port.

Why real servers: the bugs that kill IRC bots live at the edge (flood limits, line lengths,
odd bytes, reconnects) and differ per server; an in-process fake would agree with our own
assumptions. miniircd (PyPI) is always there; ngircd and inspircd come from Debian and are
installed by ``tests/run.sh`` when running as root. Never the system services' port 6667.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["SERVER_KINDS", "IrcServer", "ServerMissing", "free_port", "start_server"]

SERVER_KINDS = ("miniircd", "ngircd", "inspircd")


class ServerMissing(RuntimeError):
    """The server's program is not installed."""


def free_port() -> int:
    """A loopback TCP port that was free a moment ago (the kernel picks it)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _which(kind: str) -> str | None:
    if kind == "miniircd":
        local = Path(sys.executable).with_name("miniircd")
        return str(local) if local.exists() else shutil.which("miniircd")
    return shutil.which(kind) or next(
        (str(p) for p in (Path("/usr/sbin") / kind, Path("/usr/bin") / kind) if p.exists()), None
    )


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


@dataclass
class IrcServer:
    """A running server process; ``restart`` keeps the port (for reconnect tests)."""

    kind: str
    port: int
    host: str = "127.0.0.1"
    workdir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="ircd-")))
    proc: subprocess.Popen[bytes] | None = None
    start_seconds: float = 0.0
    """Wall time from spawn until the port accepted a connection (measured, for the report)."""
    tls: bool = False
    """TLS-only listener with a fresh self-signed certificate for 127.0.0.1 (miniircd only)."""

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
        exe = _which(self.kind)
        if exe is None:
            raise ServerMissing(self.kind)
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
            conf.write_text(_inspircd_conf(self.port, self.workdir))
            cmd = [exe, "--config", str(conf), "--nofork"]
            if os.geteuid() == 0:
                cmd.append("--runasroot")
            return cmd
        raise ValueError(f"unknown server kind {self.kind!r}")

    def start(self, timeout: float = 10.0) -> None:
        """Spawn the server and wait until it accepts TCP connections."""
        cmd = self.command()
        log = open(self.workdir / "stdout.log", "ab")  # noqa: SIM115 - lives as long as proc
        began = time.monotonic()
        self.proc = subprocess.Popen(
            cmd, stdout=log, stderr=subprocess.STDOUT, cwd=self.workdir, start_new_session=True
        )
        log.close()
        deadline = began + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.kind} exited with {self.proc.returncode}: {self.log()}")
            try:
                with socket.create_connection((self.host, self.port), timeout=0.5):
                    self.start_seconds = time.monotonic() - began
                    return
            except OSError:
                time.sleep(0.01)
        self.stop()
        raise RuntimeError(f"{self.kind} did not listen on {self.port} in {timeout}s: {self.log()}")

    def stop(self) -> None:
        """Terminate the server (SIGTERM, then SIGKILL) and wait for it."""
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
        return path.read_text(errors="replace")[-2000:] if path.exists() else ""

    def cleanup(self) -> None:
        self.stop()
        shutil.rmtree(self.workdir, ignore_errors=True)


def start_server(kind: str, tls: bool = False) -> IrcServer:
    """Start ``kind`` on a free port; raises :class:`ServerMissing` if it is not installed."""
    if kind not in SERVER_KINDS:
        raise ValueError(f"unknown server kind {kind!r}")
    if _which(kind) is None:
        raise ServerMissing(kind)
    server = IrcServer(kind, free_port(), tls=tls)
    try:
        server.start()
    except BaseException:
        server.cleanup()
        raise
    return server
