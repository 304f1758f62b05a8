"""A real headless Chromium and the real stats site, for the web site's end-to-end tests.

Why these pieces: the site's promises (charts drawn, a replay stepped by script, nothing wider
than a phone) only show in a browser running the page the way a visitor's does. The browser is
Debian's ``chromium`` driven by Debian's ``chromium-driver`` through Selenium, never a
downloaded one: the driver path is given explicitly and Selenium Manager is told to stay
offline, so a machine without network runs the same test. The site runs as its own process
started by the installed ``unobot`` console script, as a user starts it.
"""

from __future__ import annotations

import base64
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import pytest

from tests.e2e.servers import free_port

__all__ = [
    "CHROMEDRIVER",
    "CHROMIUM",
    "DESKTOP",
    "PHONE",
    "Screenshots",
    "Site",
    "browser_errors",
    "overflow",
    "require_browser",
    "set_viewport",
    "start_browser",
    "unreachable",
    "wait_until",
]

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
"""Where the screenshots of a run are kept (``UNOBOT_ARTIFACTS`` to choose another folder)."""
DESKTOP = (1280, 900)
PHONE = (360, 740)
"""A common small phone's viewport in CSS pixels (Galaxy S-class, 360 wide)."""

T = TypeVar("T")


def require_browser() -> None:
    """Skip (locally) or fail (CI) when Debian's chromium or chromium-driver is missing."""
    missing = [str(p) for p in (CHROMIUM, CHROMEDRIVER) if not os.access(p, os.X_OK)]
    if missing:
        msg = (
            f"headless browser not installed ({', '.join(missing)} missing); install it with "
            "apt-get install chromium chromium-driver (tests/run.sh does when run as root)"
        )
        if os.environ.get("CI"):
            pytest.fail(msg, pytrace=False)
        pytest.skip(msg)


def start_browser(profile: Path, language: str | None = None) -> Any:
    """Headless Chromium through WebDriver, with a throwaway profile in ``profile``.

    No background traffic (updates, sync, QUIC probes): a test's only requests are the pages it
    asks for. The browser's console is kept so a page's script errors fail the test.
    ``language`` (``"pl"``, ``"pt-BR"``) is the browser's own, as a person's would be: its UI
    language and the ``Accept-Language`` it sends."""
    os.environ["SE_OFFLINE"] = "true"  # Selenium Manager must never fetch a driver
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--window-size={DESKTOP[0]},{DESKTOP[1]}",
        f"--user-data-dir={profile}",
    ):
        options.add_argument(arg)
    if language is not None:
        options.add_argument(f"--lang={language}")
        options.add_experimental_option("prefs", {"intl.accept_languages": f"{language},en"})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    driver.set_page_load_timeout(20)
    return driver


def set_viewport(driver: Any, size: tuple[int, int], mobile: bool) -> None:
    """Make the page's viewport exactly ``size`` CSS pixels. ``mobile`` emulates a phone: the
    page's ``<meta name="viewport">`` is honoured, so a page without one lays out 980 wide
    (as a real phone would) and ``innerWidth`` shows it."""
    width, height = size
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile},
    )


def overflow(driver: Any, width: int) -> dict[str, Any]:
    """The page's layout and scroll widths, and the elements reaching past ``width`` (for the
    failure message: which table or card row breaks the phone layout). On an emulated phone a
    page wider than the screen widens the layout viewport itself (``innerWidth`` grows, as on
    a real phone, which then zooms out), so the caller compares both with the phone's width."""
    return driver.execute_script(
        """
        const vw = arguments[0];
        const wide = [];
        for (const el of document.body.querySelectorAll('*')) {
            const r = el.getBoundingClientRect();
            if (r.right > vw + 1 && r.width > 0) {
                wide.push([r.right, el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
                    + (el.className && typeof el.className === 'string'
                       ? '.' + el.className.trim().split(/\\s+/).join('.') : '')]);
            }
        }
        wide.sort((a, b) => b[0] - a[0]);
        return {innerWidth: window.innerWidth, scrollWidth: document.documentElement.scrollWidth,
                widest: wide.slice(0, 5).map(w => w[1] + ' ' + Math.round(w[0]))};
        """,
        width,
    )


def unreachable(driver: Any, width: int) -> list[str]:
    """Elements reaching past ``width`` that no horizontally scrolling box inside the screen
    holds: content a phone user can neither see nor swipe to (a wide table is fine in a
    ``overflow-x: auto`` box; cut off by ``overflow: hidden`` or the screen's edge is not)."""
    return driver.execute_script(
        """
        const vw = arguments[0], out = [];
        for (const el of document.body.querySelectorAll('*')) {
            const r = el.getBoundingClientRect();
            if (r.right <= vw + 1 || r.width === 0 || r.height === 0) continue;
            let box = el.parentElement, held = false;
            while (box && box !== document.body) {
                const o = getComputedStyle(box).overflowX;
                if (o === 'auto' || o === 'scroll') {
                    held = box.getBoundingClientRect().right <= vw + 1;
                    break;
                }
                if (o === 'hidden' || o === 'clip') break;
                box = box.parentElement;
            }
            if (!held) out.push(el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
                + ' right=' + Math.round(r.right));
        }
        return out.slice(0, 8);
        """,
        width,
    )


def browser_errors(driver: Any) -> list[str]:
    """Console errors since the last call (script errors, failed loads, a missing favicon)."""
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def wait_until(
    condition: Callable[[], T | None], timeout: float = 10.0, what: str = "condition"
) -> T:
    """Poll ``condition`` until it returns something truthy (and return that)."""
    deadline = time.monotonic() + timeout
    last_error: Exception | None = None
    while True:
        try:
            value = condition()
            if value:
                return value
        except Exception as err:  # a stale element while the page redraws: try again
            last_error = err
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what} ({last_error})")
        time.sleep(0.05)


@dataclass
class Screenshots:
    """Full-page PNGs of the pages tested, kept as test artefacts: always in ``directory`` (the
    test's tmp dir), and copied to ``copy_to`` when given (:meth:`artefacts`)."""

    directory: Path
    copy_to: Path | None = None
    taken: list[Path] = field(default_factory=list)

    @classmethod
    def artefacts(cls, directory: Path) -> Screenshots:
        """Shots in ``directory``, also copied to ``$UNOBOT_ARTIFACTS/web/``, by default
        ``tests/artifacts/web/`` in the checkout (git ignores it): a run, CI's included, leaves
        the pictures where a reviewer finds them."""
        target = os.environ.get("UNOBOT_ARTIFACTS") or str(ARTIFACTS)
        return cls(directory, Path(target) / "web")

    def take(self, driver: Any, name: str, max_height: int = 3000) -> Path:
        """``name``.png of the whole page (its top ``max_height`` pixels)."""
        size = driver.execute_script(
            "return [document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
        )
        width, height = int(size[0]), min(int(size[1]), max_height)
        shot = driver.execute_cdp_cmd(
            "Page.captureScreenshot",
            {
                "format": "png",
                "captureBeyondViewport": True,
                "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1},
            },
        )
        return self._keep(name, base64.b64decode(shot["data"]))

    def take_viewport(self, driver: Any, name: str) -> Path:
        """``name``.png of what the screen shows now (where a sticky bar sits, say)."""
        shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png"})
        return self._keep(name, base64.b64decode(shot["data"]))

    def _keep(self, name: str, png: bytes) -> Path:
        self.directory.mkdir(parents=True, exist_ok=True)
        path = self.directory / f"{name}.png"
        path.write_bytes(png)
        self.taken.append(path)
        if self.copy_to is not None:
            self.copy_to.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, self.copy_to / path.name)
        return path


class Site:
    """``unobot web`` as a separate process on a free loopback port, run from the venv's
    installed console script (what a user types), with its output in a log file."""

    def __init__(self, database_url: str, workdir: Path, timeout: float = 30.0) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = workdir / "web.log"
        program = Path(sys.prefix) / "bin" / "unobot"
        args = [str(program), "web", "--database", database_url]
        args += ["--host", "127.0.0.1", "--port", str(self.port)]
        self._log = self.log_path.open("w")
        started = time.monotonic()
        self.proc = subprocess.Popen(
            args, cwd=workdir, stdout=self._log, stderr=subprocess.STDOUT, text=True
        )
        try:
            self._wait_answering(timeout)
        except BaseException:
            self.stop()
            raise
        self.start_seconds = time.monotonic() - started
        """From spawn to the first page served (measured, for the report)."""

    def url(self, path: str) -> str:
        return self.base + path

    def output(self) -> str:
        self._log.flush()
        return self.log_path.read_text(errors="replace")

    def _wait_answering(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise AssertionError(
                    f"unobot web exited with {self.proc.returncode}:\n{self.output()}"
                )
            try:
                with urllib.request.urlopen(self.url("/"), timeout=2) as answer:
                    if answer.status == 200:
                        return
            except (OSError, urllib.error.URLError):
                pass
            if time.monotonic() > deadline:
                raise AssertionError(f"unobot web did not answer in {timeout}s:\n{self.output()}")
            time.sleep(0.1)

    def stop(self) -> None:
        """SIGTERM (uvicorn's graceful stop), SIGKILL if it hangs."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self._log.close()
