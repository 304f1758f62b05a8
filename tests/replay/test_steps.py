"""``steps()`` replays a recorded game's move list into what the channel saw: the real proof is
a live game through the bot (plugins, renderer, journal, recorder) whose channel lines and
private notices equal the replay's, step for step, also across a restart."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise
from pathlib import Path
from random import Random

import pytest

from tests.core.fakes import Harness, Sent, strip_codes
from tests.core.test_restore import journaled, restarted
from unobot.bench.soak import command_for
from unobot.core.bot import BotConfig
from unobot.core.table import Table, TableConfig
from unobot.engine import preset
from unobot.irc.transport import Kind
from unobot.replay.simulate import recorded_games
from unobot.replay.steps import Step, steps
from unobot.stats.memory import MemoryStatsStore


def official() -> BotConfig:
    """Matches of several hands (totals between hands, a match end), manual UNO calls and
    catches, WD4 challenges."""
    return BotConfig(table=TableConfig(rules=preset("official")))


def said(sent: list[Sent]) -> tuple[list[str], list[tuple[str, str]]]:
    """The channel's lines and the private notices, as plain text."""
    lines = [strip_codes(s.text) for s in sent if s.kind == "privmsg" and s.target == "#uno"]
    notes = [(s.target, strip_codes(s.text)) for s in sent if s.kind == "notice"]
    return lines, notes


def replayed(found: list[Step]) -> tuple[list[str], list[tuple[str, str]]]:
    return [line for s in found for line in s.lines], [n for s in found for n in s.notices]


def play(h: Harness, table: Table, rng: Random, moves: int, *, faults: bool = True) -> None:
    """Random legal moves typed as commands; with ``faults`` now and then a turn left to time
    out (a warning, then a forced draw) or a player gone from the channel and back."""
    for _ in range(moves):
        if table.finished:
            return
        roll = rng.random()
        if faults and roll < 0.03:
            h.advance(table.config.turn_timeout + 1)
            continue
        if faults and roll < 0.05 and table.game is not None:
            nick = table.players[rng.randrange(len(table.players))].nick
            h.event(Kind.PART, nick, "#uno")
            h.advance(5)
            h.event(Kind.JOIN, nick, "#uno")
            continue
        h.advance(2)
        nick, text = command_for(table, rng)
        h.say(nick, text)


def only_record(store: MemoryStatsStore) -> str:
    (record,) = store._games.values()
    assert record.moves is not None
    return record.moves


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_replay_says_what_the_live_bot_said(tmp_path: Path, seed: int) -> None:
    h, store = journaled(tmp_path, seed=seed, start=1_000.0, config=official())
    h.start(["alice", "bob", "carol", "dave"][: 2 + seed % 3])
    table = h.bot.tables["#uno"]
    play(h, table, Random(seed), 5000)
    assert table.finished
    found = steps(only_record(store))
    live_lines, live_notices = said(h.sent)
    lines, notes = replayed(found)
    assert lines == live_lines
    assert notes == live_notices
    assert any("ran out of time" in line for line in lines)  # timers replayed too
    assert any(" is back." in line for line in lines)
    assert [s.number for s in found] == list(range(len(found)))
    assert found[0].hand == 1 and found[0].action == "deals" and found[0].actor == "alice"
    assert found[-1].current is None
    assert dict(found[-1].scores) == dict(zip(table.names, table.match.totals, strict=True))


def test_a_game_restored_after_a_restart_replays_as_the_channel_saw_it(tmp_path: Path) -> None:
    first, _ = journaled(tmp_path, seed=4, start=1_000.0, config=official())
    first.start(["alice", "bob", "carol"])
    table = first.bot.tables["#uno"]
    rng = Random(9)
    play(first, table, rng, 40, faults=False)
    assert not table.finished
    second, store = restarted(tmp_path, first.clock.time, 40, seed=99)
    second.bot.config = official()
    assert second.bot.restore() == 1
    second.event(Kind.JOIN, "unobot", "#uno")
    restored = second.bot.tables["#uno"]
    play(second, restored, rng, 5000, faults=False)
    assert restored.finished
    found = steps(only_record(store))
    lines = [*said(first.sent)[0], *said(second.sent)[0]]
    assert replayed(found)[0] == lines
    back = [s for s in found if s.action == "the game goes on"]
    assert len(back) == 1 and back[0].lines[0].startswith("Restored after a restart")
    assert {nick for nick, _ in back[0].notices} == {"alice", "bob", "carol"}
    assert replayed(found)[1] == [*said(first.sent)[1], *said(second.sent)[1]]


def test_a_reconnect_replays_as_the_game_going_on_with_the_same_status(tmp_path: Path) -> None:
    """The journal's catch-up carries why the bot was away: the replay says the game goes on
    where the channel was told so, in the very words."""
    h, store = journaled(tmp_path, seed=5, start=1_000.0)
    h.start(["alice", "bob"])
    table = h.bot.tables["#uno"]
    rng = Random(5)
    play(h, table, rng, 6, faults=False)
    h.event(Kind.DISCONNECTED, "unobot", "", text="ping timeout")
    h.advance(30)
    h.event(Kind.RECONNECTED, "unobot")
    h.event(Kind.JOIN, "unobot", "#uno")
    play(h, table, rng, 5000, faults=False)
    found = steps(only_record(store))
    live = said(h.sent)[0]
    lines = replayed(found)[0]
    assert len(lines) == len(live)
    assert sum(line.startswith("Reconnected: the game goes on.") for line in live) == 1
    assert lines == live


def test_each_notice_of_a_hand_is_that_players_hand_in_the_step() -> None:
    (record,) = recorded_games(1, 7, presets=("official",))
    assert record.moves is not None
    found = steps(record.moves)
    checked = 0
    for step in found:
        hands = dict(step.hands)
        for nick, text in step.notices:
            if "Your cards (" in text:
                count, cards = text.split("Your cards (", 1)[1].split("): ")
                assert tuple(cards.split()) == hands[nick]
                assert int(count) == len(hands[nick])
                checked += 1
    assert checked > 10


def test_cards_are_conserved_from_step_to_step() -> None:
    """A play takes exactly the card played from its player's hand, which becomes the top;
    nobody holds more copies of a card than the deck has; the hand sizes add up."""
    for record in recorded_games(3, 11, presets=("irc-classic", "official")):
        assert record.moves is not None
        found = steps(record.moves)
        assert sum(len(held) for _, held in found[0].hands) == 7 * len(found[0].hands)
        for before, after in pairwise(found):
            if after.action.startswith("plays ") and after.hand == before.hand:
                card = after.action.split()[1]
                was, now = dict(before.hands)[after.actor], dict(after.hands)[after.actor]
                assert Counter(was) - Counter(now) == Counter([card])
                assert after.top == card
            held = Counter(card for _, cards in after.hands for card in cards)
            assert all(n <= 4 for n in held.values()), held


def test_simulated_games_end_with_the_recorded_totals() -> None:
    for record in recorded_games(3, 3, presets=("official",)):
        assert record.moves is not None
        last = steps(record.moves)[-1]
        assert last.current is None
        scores = dict(last.scores)
        for result in record.results:
            assert scores[result.nick] == result.points_won


@pytest.mark.parametrize(
    "text",
    ["", "garbage", "[1, 2]\n", '["open", {}]\n', '["open", {"version": 3}]\n["nope", {}]\n',
     "\xff\x00"],
)  # fmt: skip
def test_a_text_that_is_not_a_move_list_is_a_value_error(text: str) -> None:
    with pytest.raises(ValueError):
        steps(text)


def test_a_torn_last_line_is_dropped_and_a_cut_journal_replays_up_to_its_cut() -> None:
    (record,) = recorded_games(1, 5)
    assert record.moves is not None
    lines = record.moves.splitlines(keepends=True)
    cut = "".join(lines[:12]) + lines[12][:7]
    found = steps(cut)
    assert found[0].action == "deals"
    assert found[-1].current is not None  # not over
    assert len(found) < len(steps(record.moves))
