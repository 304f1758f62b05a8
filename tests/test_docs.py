"""The documentation still matches the tree: README.md and docs/*.md.

The README is short and points into docs/, and the pages point at each other, so a renamed
heading or a moved page breaks links that nobody clicks until a newcomer does. This checks every
relative link and ``#anchor`` (Markdown links and images, ``<a href>``/``<img src>``) against the
files and their headings' GitHub-style slugs, and runs ``unobot <subcommand> --help`` for every
``unobot`` command the pages show in a shell block, so a renamed or removed subcommand shows up
here rather than in a user's terminal.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
import unicodedata
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

FENCE = re.compile(r"^(```|~~~)[^\n]*\n.*?^\1[ \t]*$", re.M | re.S)
SHELL_BLOCK = re.compile(r"^```(?:sh|bash|shell|console)[ \t]*\n(.*?)^```[ \t]*$", re.M | re.S)
PROMPT_LINE = re.compile(r"^\$ (.+)$", re.M)  # a command shown with its output, in any block
CODE_SPAN = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)", re.S)
MD_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HTML_LINK = re.compile(r"<(?:a|img)\b[^>]*?\b(?:href|src)\s*=\s*[\"']([^\"']+)[\"']", re.I)
HTML_ANCHOR = re.compile(r"<a\b[^>]*?\b(?:id|name)\s*=\s*[\"']([^\"']+)[\"']", re.I)
HEADING = re.compile(r"^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$", re.M)


def prose(text: str) -> str:
    """The text with fenced blocks and code spans blanked: links and headings live outside them."""
    text = FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    return CODE_SPAN.sub("", text)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: the rendered text lower-cased, punctuation dropped,
    spaces to hyphens (``Quick start (Python ≥ 3.11)`` -> ``quick-start-python--311``)."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text stays
    text = re.sub(r"<[^>]+>", "", text).replace("`", "").lower()
    kept = "".join(
        ch
        for ch in text
        if ch in " -_" or unicodedata.category(ch)[0] in "LN" or unicodedata.category(ch) == "Mn"
    )
    return kept.replace(" ", "-")


@cache
def anchors(page: Path) -> frozenset[str]:
    """Every anchor a page has: its headings' slugs (repeats numbered as GitHub does) and any
    explicit ``<a id>``/``<a name>``."""
    text = prose(page.read_text(encoding="utf-8"))
    found: set[str] = set()
    seen: dict[str, int] = {}
    for match in HEADING.finditer(text):
        base = slug(match.group(1))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    found.update(HTML_ANCHOR.findall(text))
    return frozenset(found)


def links(page: Path) -> list[str]:
    text = prose(page.read_text(encoding="utf-8"))
    return MD_LINK.findall(text) + HTML_LINK.findall(text)


def broken_links(page: Path) -> list[str]:
    """The page's relative links whose file or anchor does not exist, as ``target: why``."""
    broken = []
    for target in links(page):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # https:, mailto: …: not ours
            continue
        path_part, _, fragment = target.partition("#")
        dest = (page.parent / unquote(path_part)).resolve() if path_part else page
        if not dest.exists():
            broken.append(f"{target}: no file {dest.relative_to(ROOT)}")
        elif fragment and dest.suffix == ".md" and unquote(fragment) not in anchors(dest):
            broken.append(f"{target}: no heading #{fragment} in {dest.relative_to(ROOT)}")
    return broken


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_and_anchor_resolves(page: Path) -> None:
    assert links(page) or page.name != "README.md", "the README links to nothing"
    assert broken_links(page) == []


def test_slugs_follow_github() -> None:
    assert slug("Quick start (fresh machine, Python ≥ 3.11)") == (
        "quick-start-fresh-machine-python--311"
    )
    assert slug("The terminal game: `unobot play`") == "the-terminal-game-unobot-play"
    assert slug("Computer players: the arena") == "computer-players-the-arena"
    assert slug("Compiled engine (optional, automatic)") == "compiled-engine-optional-automatic"


def test_a_broken_link_is_found(tmp_path: Path) -> None:
    """The checker itself: a missing file and a missing anchor are both reported."""
    (tmp_path / "a.md").write_text("# Title\n\n## Real part\n", encoding="utf-8")
    page = tmp_path / "b.md"
    page.write_text(
        "[ok](a.md#real-part) [gone](nope.md) [bad](a.md#fake) [self](#here)\n"
        "```\n[in code](ignored.md)\n```\n## Here\n",
        encoding="utf-8",
    )
    broken = []
    for target in links(page):
        path_part, _, fragment = target.partition("#")
        dest = tmp_path / path_part if path_part else page
        if not dest.exists() or (fragment and fragment not in anchors(dest)):
            broken.append(target)
    assert broken == ["nope.md", "a.md#fake"]


def unobot_commands(page: Path) -> set[tuple[str, ...]]:
    """The ``unobot`` invocations in a page's shell blocks (and ``$ `` lines of other blocks), as
    the leading subcommand words (``unobot tournament export NAME`` -> ``("tournament",
    "export")``; the bot itself: ``()``)."""
    text = page.read_text(encoding="utf-8")
    lines = [line for block in SHELL_BLOCK.findall(text) for line in block.splitlines()]
    lines += [
        m.group(1) for block in FENCE.finditer(text) for m in PROMPT_LINE.finditer(block.group(0))
    ]
    found: set[tuple[str, ...]] = set()
    for line in lines:
        for part in re.split(r"&&|\|\||;|\|", line.split(" #", 1)[0]):
            try:
                words = shlex.split(part)
            except ValueError:
                continue
            if not words or Path(words[0]).name != "unobot":
                continue
            sub = []
            for word in words[1:]:
                if not re.fullmatch(r"[a-z][a-z-]*", word):
                    break
                sub.append(word)
            found.add(tuple(sub))
    return found


def test_the_readme_shows_its_commands() -> None:
    """The README's own blocks: the quick start's bot, the terminal game, check-config."""
    commands = unobot_commands(ROOT / "README.md")
    assert {(), ("play",), ("check-config",)} <= commands


def test_every_unobot_command_shown_still_parses() -> None:
    """``unobot <sub> --help`` exits 0 for each subcommand a shell block names (the README's and
    the docs pages'), run as ``python unobot.py`` with this interpreter, in parallel."""
    commands = sorted(set().union(*(unobot_commands(page) for page in PAGES)))

    def run(sub: tuple[str, ...]) -> tuple[tuple[str, ...], int, str]:
        done = subprocess.run(
            [sys.executable, str(ROOT / "unobot.py"), *sub, "--help"],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=ROOT,
        )
        return sub, done.returncode, done.stdout + done.stderr

    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(run, commands))
    failed = [
        f"unobot {' '.join(s)} --help: exit {rc}\n{out[-500:]}" for s, rc, out in results if rc
    ]
    assert failed == []
    assert len(commands) >= 3


# --- the README as a newcomer reads it ------------------------------------------------------

README_WORDS = 1500
"""The README stays a short page that points into docs/ (it was 1,326 words when the docs were
split, 2,152 when it had grown back): figures and details belong in the pages it links."""


def test_the_readme_stays_short() -> None:
    words = len((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert words <= README_WORDS, f"README.md has {words} words; move details into docs/"


GAME_SCRIPT = (".uno", ".addbot normal", ".addbot normal", ".deal", ".p b3", ".d", ".p y6")
"""What ``ann`` types in the README's example game (seed 3)."""


def readme_game() -> list[str]:
    """The example game as ``ann``'s client shows it: her commands, the channel's lines and her
    NOTICEs, in the order the send queue lets them leave (each turn's hand before the line
    that names her), computer players moving on the clock, her hands plain (``.pce-off``)."""
    from tests.core.fakes import Harness
    from unobot.irc.outbox import Outbox, strip_codes

    h = Harness(3)
    h.settings.set_colors("ann", False)
    seen: list[str] = []

    def show(sent) -> None:  # type: ignore[no-untyped-def]
        box = Outbox(rate=0)  # no budget: only the order
        for s in sent:
            box.push(s.kind, s.target, s.text, tag=s.tag)
        for line in box.due(0.0):
            if line.target == "#uno":
                seen.append(f"<unobot> {strip_codes(line.text)}")
            elif line.target == "ann":
                seen.append(f"-unobot- {strip_codes(line.text)}")

    for command in GAME_SCRIPT:
        seen.append(f"<ann> {command}")
        show(h.say("ann", command))
        for _ in range(8):
            show(h.advance(0.5))
    return seen


def test_the_readme_example_game_is_what_the_bot_sends() -> None:
    """Issue 37: the example showed a hand after ann's own play that IRC never sends. Now it is
    the bot's own output for the same commands (``python -m tests.test_docs`` prints it)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("A game on IRC", 1)[1].split("```\n", 2)[1]
    assert block.rstrip("\n").splitlines() == readme_game()


def test_the_readme_quotes_the_bots_own_refusal() -> None:
    from tests.core.fakes import Harness, notices

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    quoted = re.search(r"\(`\.p b x` → `([^`]+)`\)", " ".join(text.split()))
    assert quoted is not None
    h = Harness(3)
    h.start(["ann", "bob"])
    h.advance(5)
    assert notices(h.say("ann", ".p b x"), "ann") == [quoted.group(1)]


if __name__ == "__main__":
    print("\n".join(readme_game()))
