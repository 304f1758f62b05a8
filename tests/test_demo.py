"""``unobot demo``: a seeded hand printed with the channel's own words (the one renderer)."""

from __future__ import annotations

import pytest

from unobot.main import demo


def test_the_demo_prints_the_channels_lines_to_the_end(capsys: pytest.CaptureFixture[str]) -> None:
    actions = demo(3, "official", 2)
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Demo hand: 3 players, rules official, seed 2"
    assert out[4].startswith("First card ")  # after the three hands
    assert " wins the hand and " in out[-1]
    assert actions > 0 and len(out) >= actions // 2
    assert not any("\x03" in line or "\x02" in line for line in out)  # plain letters
