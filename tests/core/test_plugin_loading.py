"""Plugins chosen by configuration: the example plugin of docs/plugins.md
loaded from a file path and played through the bot, built-in plugins dropped, and broken
plugins refused in one line."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.core.fakes import Harness
from tests.test_config import parse
from unobot.config import load
from unobot.core.bot_config import DEFAULT_PLUGINS
from unobot.core.plugin import PluginError, load_plugins
from unobot.stats.memory import MemoryStatsStore
from unobot.stats.recorder import GameRecorder

ROOT = Path(__file__).resolve().parent.parent.parent


def readme_example() -> str:
    """The example plugin exactly as the plugin authors' page shows it."""
    text = (ROOT / "docs" / "plugins.md").read_text(encoding="utf-8")
    found = re.search(r"<!-- example plugin: unoquote.py -->\n```python\n(.*?)```", text, re.S)
    assert found, "docs/plugins.md's example plugin is missing"
    return found.group(1)


def write_config(tmp_path: Path, plugins: list[str]) -> Path:
    listed = ", ".join(f'"{p}"' for p in plugins)
    config = tmp_path / "unobot.toml"
    config.write_text(f"[bot]\nplugins = [{listed}]\n", encoding="utf-8")
    return config


def harness_from_config(tmp_path: Path, plugins: list[str]) -> Harness:
    settings = load(parse("--config", str(write_config(tmp_path, plugins))))
    return Harness(config=settings.bot)


def said_in(sent: list, channel: str = "#uno") -> list[str]:  # type: ignore[type-arg]
    return [s.text for s in sent if s.kind == "privmsg" and s.target == channel]


def test_the_readme_example_loads_from_a_path_beside_the_config(tmp_path: Path) -> None:
    (tmp_path / "unoquote.py").write_text(readme_example(), encoding="utf-8")
    h = harness_from_config(tmp_path, [*DEFAULT_PLUGINS, "unoquote.py"])
    assert h.bot.config.plugins[-1] == str(tmp_path / "unoquote.py")  # relative to the config

    quote = said_in(h.say("alice", ".unoquote"))
    assert len(quote) == 1 and quote[0] in sys.modules["unobot_plugin_unoquote"].QUOTES

    # Guards work for it as for the built-ins: no table yet, then the seats in turn order.
    answer = h.say("alice", ".unoseats")
    assert [s.kind for s in answer] == ["notice"] and "no game" in answer[0].text.lower()
    h.start(["alice", "bob", "carol"])
    assert said_in(h.say("bob", ".unoseats")) == ["At the table: alice, bob, carol"]

    # The built-in commands are still there: the game goes on.
    assert h.bot.table_for("#uno", "alice") is not None
    assert h.say("alice", ".top")


def test_help_lists_the_operators_own_commands(tmp_path: Path) -> None:
    assert not any("Also here" in s.text for s in Harness().say("alice", ".unohelp"))
    (tmp_path / "unoquote.py").write_text(readme_example(), encoding="utf-8")
    h = harness_from_config(tmp_path, [*DEFAULT_PLUGINS, "unoquote.py"])
    help_lines = [s.text for s in h.say("alice", ".unohelp")]
    assert help_lines[-1] == "Also here: .unome, .unoquote, .unoseats."


def test_the_example_reads_the_stats_store(tmp_path: Path) -> None:
    (tmp_path / "unoquote.py").write_text(readme_example(), encoding="utf-8")
    h = harness_from_config(tmp_path, [*DEFAULT_PLUGINS, "unoquote.py"])
    answer = h.say("alice", ".unome")
    assert [s.text for s in answer] == ["stats are off on this bot"]

    store = MemoryStatsStore(network="")
    h.bot.store = store
    h.bot.recorder = GameRecorder.following(store, "", h.clock)
    assert [s.text for s in h.say("alice", ".unome")] == ["No game of yours is recorded yet."]
    h.say("alice", ".uno")
    h.say("bob", ".join")
    h.say("alice", ".deal")
    h.say("alice", ".unostop")  # stopped before any hand ended: not recorded
    assert [s.text for s in h.say("alice", ".unome")] == ["No game of yours is recorded yet."]


def test_an_operator_can_drop_a_built_in_plugin(tmp_path: Path) -> None:
    h = harness_from_config(tmp_path, ["unobot.plugins.uno_game", "unobot.plugins.uno_rules"])
    assert h.say("alice", ".unotop10") == []  # not a command any more: not answered
    assert said_in(h.say("alice", ".uno"))  # the game is still there
    assert h.say("alice", ".unorules")


def test_the_default_is_the_three_built_in_plugins() -> None:
    settings = load(parse())
    assert settings.bot.plugins == DEFAULT_PLUGINS
    assert [m.__name__ for m in load_plugins(DEFAULT_PLUGINS)] == list(DEFAULT_PLUGINS)
    assert Harness().bot.dispatcher.find(".unotop10") is not None


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("def broken(:\n", r"plugin \S+bad\.py: SyntaxError: "),
        (
            "raise RuntimeError('no quotes file')\n",
            r"plugin \S+bad\.py: RuntimeError: no quotes file",
        ),
        ("import sys\nsys.exit(3)\n", r"plugin \S+bad\.py: SystemExit: 3"),
        ("import not_a_module_here\n", r"ModuleNotFoundError: No module named 'not_a_module_here'"),
        ("X = 1\n", r"plugin \S+bad\.py: defines no command \(use @command\)"),
        (
            "from unobot.core.plugin import command\n@command('top')\ndef t(ctx): pass\n",
            r"plugin \S+bad\.py: \.top is already a command of unobot\.plugins\.uno_game",
        ),
    ],
)
def test_a_broken_plugin_is_one_line_naming_it(tmp_path: Path, source: str, expected: str) -> None:
    (tmp_path / "bad.py").write_text(source, encoding="utf-8")
    with pytest.raises(PluginError) as err:
        load_plugins([*DEFAULT_PLUGINS, str(tmp_path / "bad.py")])
    message = str(err.value)
    assert re.search(expected, message), message
    assert "\n" not in message and "Traceback" not in message


def test_a_missing_plugin_is_named(tmp_path: Path) -> None:
    with pytest.raises(PluginError, match=r"^plugin \S+nope\.py: no such file$"):
        load_plugins([str(tmp_path / "nope.py")])
    with pytest.raises(PluginError, match=r"^plugin unobot\.plugins\.uno_gam: ModuleNotFound"):
        load_plugins(["unobot.plugins.uno_gam"])


def test_the_real_command_line_stops_on_a_broken_plugin_with_one_line(tmp_path: Path) -> None:
    (tmp_path / "bad.py").write_text("def broken(:\n", encoding="utf-8")
    config = write_config(tmp_path, [*DEFAULT_PLUGINS, "bad.py"])
    result = subprocess.run(
        [sys.executable, str(ROOT / "unobot.py"), "--config", str(config), "--port", "0"],
        capture_output=True,
        text=True,
        timeout=30,
        cwd=tmp_path,
    )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("unobot: plugin "), result.stderr
    assert "bad.py: SyntaxError" in lines[0]
    assert not (tmp_path / "stats.db").exists()  # it stopped before opening anything
