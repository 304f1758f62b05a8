"""Durable tables at the table level: a journaled table, rebuilt from its file at any point of
any game, is the same table (hands, piles, turn, scores, clocks, and its random generator's
state), and plays on identically."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from random import Random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.engine.test_properties import snapshot as game_state
from unobot.bench.soak import play_random_move
from unobot.core.flip_table import table_class
from unobot.core.journal import VERSION, Journal, replay_text
from unobot.core.table import Table, TableConfig
from unobot.engine import PRESETS, preset
from unobot.engine.cards import Card, parse_color
from unobot.engine.flip import FlipGame
from unobot.engine.notation import format_position


class Clock:
    def __init__(self, start: float = 1000.0) -> None:
        self.t = start

    def __call__(self) -> float:
        return self.t


def snapshot(table: Table) -> dict[str, object]:
    """Everything a player could ever find out, and more (the generator's state)."""
    shot: dict[str, object] = {
        "state": table.state.value,
        "players": [(p.nick, p.key, p.timeouts, p.away_since, p.level) for p in table.players],
        "clocks": (table.turn_started, table.last_activity, table.dealt_at, table.warned),
        "hand_number": table.hand_number,
        "rng": table.rng.getstate(),
        "deadlines": table.deadlines(),
    }
    match = table.match
    if match is not None:
        shot["totals"] = list(match.totals)
    game = table.game
    if isinstance(game, FlipGame):  # UNO Flip: every card by both faces, turn, phase
        shot["game"] = game._state()
    elif game is not None:
        shot["game"] = game_state(game)
    return shot


def move(table: Table, rng: Random, clock: Clock, shift: float = 0.0) -> None:
    """One legal move by whoever may make one (as the engine lists them), or a timer that
    comes due (the clock moves to it). ``shift``: this table's clock runs that far ahead."""
    game = table.game
    assert game is not None
    now = clock() + shift
    if rng.random() < 0.03:
        deadlines = table.deadlines()
        if deadlines:
            name, due = min(deadlines.items(), key=lambda kv: kv[1])
            if due > now:
                clock.t += due - now
            table.on_timer(name, max(now, due))
            return
    play_random_move(table, rng, now)


def opened(journal: Journal, clock: Clock, rules: str, players: int, seed: int) -> Table:
    config = TableConfig(rules=preset(rules))
    players = min(max(players, config.rules.min_players), config.rules.max_players)
    if config.rules.team_problem(players):
        players = 4  # teams of two: 4 or 6
    table = table_class(config.rules)("#uno", "p0", "p0", clock(), config, Random(seed))
    journal.opened(table, seed, clock(), "p0")
    for i in range(1, players):
        table.join(f"p{i}", f"p{i}", clock())
    clock.t += 1
    table.deal("p0", clock())
    return table


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    rules=st.sampled_from(sorted(PRESETS)),
    players=st.integers(2, 6),
    seed=st.integers(0, 2**32),
    cut=st.integers(0, 400),
)
def test_a_table_rebuilt_at_any_point_is_the_same_table(
    tmp_path_factory: pytest.TempPathFactory, rules: str, players: int, seed: int, cut: int
) -> None:
    folder = tmp_path_factory.mktemp("journal")
    clock = Clock()
    journal = Journal(folder, clock, wall=lambda: 5_000.0 + clock.t)
    table = opened(journal, clock, rules, players, seed)
    rng = Random(seed)
    moves = 0
    while not table.finished and moves < cut:
        clock.t += rng.random() * 3
        move(table, rng, clock)
        moves += 1
    if table.finished:  # restored, it is finished too (the bot then closes its file)
        (ended,) = Journal(folder, Clock(7_000.0)).restore()
        assert ended.table.finished
        return
    before = snapshot(table)
    # The process dies here; a new one starts on the same folder, its clock 500 s on.
    clock2 = Clock(7_000.0)
    again = Journal(folder, clock2, wall=lambda: 5_000.0 + clock.t + clock2.t - 7_000.0)
    (restored,) = again.restore()
    shift = 7_000.0 - clock.t
    rebuilt = restored.table
    after = snapshot(rebuilt)
    moved = {k: v for k, v in before.items() if k not in ("clocks", "deadlines", "players")}
    assert {k: v for k, v in after.items() if k in moved} == moved
    assert after["clocks"][:3] == pytest.approx([t + shift for t in before["clocks"][:3]])  # type: ignore[index]
    assert [p[:3] + p[4:] for p in after["players"]] == [p[:3] + p[4:] for p in before["players"]]  # type: ignore[attr-defined]
    assert restored.last == pytest.approx(clock.t + shift, abs=3.1)  # the last call's time
    # Both play on identically from here (the same moves, the same outcomes).
    rng_a, rng_b = Random(seed + 1), Random(seed + 1)
    for _ in range(60):
        if table.finished:
            break
        clock.t += 1
        twin = Clock(clock.t)
        move(table, rng_a, clock)
        move(rebuilt, rng_b, twin, shift)
        assert (
            snapshot(rebuilt)["game" if rebuilt.game else "state"]
            == snapshot(table)["game" if table.game else "state"]
        )
    assert rebuilt.finished == table.finished


def test_a_torn_last_line_is_a_move_never_answered_and_a_bad_file_is_set_aside(
    tmp_path: Path,
) -> None:
    clock = Clock()
    journal = Journal(tmp_path, clock, wall=lambda: clock.t)
    table = opened(journal, clock, "official", 3, 7)
    rng = Random(3)
    for _ in range(10):
        move(table, rng, clock)
    before = snapshot(table)
    (path,) = tmp_path.glob("*.jsonl")
    with path.open("ab") as f:
        f.write(b'["draw",{"nick":"p1","no')  # killed in the middle of a write
    (bad := tmp_path / "broken.jsonl").write_text('["open",{"version":99}]\n')
    restored = Journal(tmp_path, clock, wall=lambda: clock.t).restore()
    assert len(restored) == 1
    assert {k: v for k, v in snapshot(restored[0].table).items()} == before
    assert not bad.exists() and (tmp_path / "broken.bad").exists()


def test_restored_tables_journal_on_across_a_second_restart(tmp_path: Path) -> None:
    clock = Clock()
    journal = Journal(tmp_path, clock, wall=lambda: 100.0 + clock.t)
    table = opened(journal, clock, "irc-classic", 4, 11)
    rng = Random(5)
    for _ in range(15):
        clock.t += 2
        move(table, rng, clock)
    # Restart 1: a new clock (monotonic clocks start over), 60 s of wall time later.
    clock1 = Clock(50.0)
    j1 = Journal(tmp_path, clock1, wall=lambda: 100.0 + clock.t + 60 + clock1.t - 50)
    (r1,) = j1.restore()
    for _ in range(15):
        if r1.table.finished:
            break
        clock1.t += 2
        move(r1.table, rng, clock1)
    shot = snapshot(r1.table)
    j1.close()
    # Restart 2.
    clock2 = Clock(10.0)
    j2 = Journal(
        tmp_path, clock2, wall=lambda: 100.0 + clock.t + 60 + clock1.t - 50 + clock2.t - 10
    )
    (r2,) = j2.restore()
    again = snapshot(r2.table)
    shift = 10.0 - clock1.t
    assert again["rng"] == shot["rng"] and again.get("game") == shot.get("game")
    assert again["clocks"][:3] == pytest.approx([t + shift for t in shot["clocks"][:3]])  # type: ignore[index]
    lines = [json.loads(x)[0] for x in next(tmp_path.glob("*.jsonl")).read_text().splitlines()]
    assert lines[0] == "open" and lines.count("clock") == 2


def test_an_ended_table_leaves_no_journal(tmp_path: Path) -> None:
    clock = Clock()
    journal = Journal(tmp_path, clock, wall=lambda: clock.t)
    table = opened(journal, clock, "official", 2, 1)
    table.stop("p0")
    assert table.finished
    journal.closed(table)
    journal.close()  # waits for the file thread (the file goes there), removes the spare
    assert list(tmp_path.iterdir()) == []
    assert Journal(tmp_path, clock).restore() == []


@pytest.mark.parametrize("version", [1, 2])
def test_an_older_journal_still_replays(tmp_path: Path, version: int) -> None:
    """Version 1 wrote cards and colours as tagged objects, version 2 as numbers (version 3
    writes the notation); a bot upgraded mid-game reads them."""
    clock = Clock()
    journal = Journal(tmp_path, clock, wall=lambda: clock.t)
    table = opened(journal, clock, "official", 4, 21)
    rng = Random(8)
    for _ in range(60):
        if table.finished:
            break
        clock.t += 1
        move(table, rng, clock)
    before = snapshot(table)
    journal.close()
    (path,) = tmp_path.glob("*.jsonl")
    old = []
    for line in path.read_text().splitlines():
        method, args = json.loads(line)
        if method == "open":
            assert args["version"] == VERSION
            args["version"] = version
        if args.get("card") is not None:
            code = Card.parse(args["card"]).code
            args["card"] = {"$card": code} if version == 1 else code
        if args.get("color") is not None:
            number = int(parse_color(args["color"]))
            args["color"] = {"$color": number} if version == 1 else number
        old.append(json.dumps([method, args]))
    assert any('"card"' in line for line in old)
    path.write_text("\n".join(old) + "\n")
    (restored,) = Journal(tmp_path, clock, wall=lambda: clock.t).restore()
    assert snapshot(restored.table) == before


def test_replay_text_rebuilds_the_game_from_its_moves(tmp_path: Path) -> None:
    """A recorded game's move list is its journal: replayed without a Journal (no folder, no
    clock), it gives back the same table, and cards read in the notation."""
    clock = Clock()
    journal = Journal(tmp_path, clock, wall=lambda: clock.t)
    table = opened(journal, clock, "official", 3, 5)
    rng = Random(3)
    for _ in range(80):
        if table.finished:
            break
        clock.t += 1
        move(table, rng, clock)
    assert table.moves is not None
    text = table.moves()
    assert text is not None
    assert re.search(r'"card":"(R|Y|G|B)(\d|S|R|D2)"|"card":"WD?4?"', text)
    seen: list[object] = []
    rebuilt = replay_text(text, lambda t, update: seen.append(update))
    assert snapshot(rebuilt) == snapshot(table)
    assert len(seen) == len(text.splitlines()) - 1
    with pytest.raises(ValueError):
        replay_text("")
    with pytest.raises(ValueError):
        replay_text('["open", {}]')


def test_only_changes_are_journaled(tmp_path: Path) -> None:
    """Every command and every part in a channel passes the table (a seat held for somebody
    who left comes back when they speak): only a real return or departure is written."""
    clock = Clock()
    journal = Journal(tmp_path, clock, wall=lambda: clock.t)
    table = opened(journal, clock, "official", 3, 2)
    (path,) = tmp_path.glob("*.jsonl")
    size = path.stat().st_size
    table.arrive("p1")
    table.arrive("somebody")
    table.depart("somebody", clock())
    assert path.stat().st_size == size
    table.depart("p1", clock())
    table.arrive("p1")
    names = [json.loads(x)[0] for x in path.read_text().splitlines()]
    assert names[-2:] == ["_depart", "_arrive"]


def test_a_dropped_journal_closes_its_files(tmp_path: Path) -> None:
    """Descriptors are not objects: a journal (and its tables' logs) dropped without close
    must not keep files open (the tests and the soak's simulated kills make hundreds)."""
    import gc
    import os

    before = len(os.listdir("/proc/self/fd"))
    for seed in range(20):
        clock = Clock()
        journal = Journal(tmp_path / str(seed), clock, wall=clock)
        journal.restore()
        opened(journal, clock, "official", 3, seed)
        del journal
    gc.collect()
    assert len(os.listdir("/proc/self/fd")) <= before + 2


def test_spare_files_are_made_ready_reused_and_cleaned(tmp_path: Path) -> None:
    """A new table takes a ready empty file (a rename, not a create); an ended game's file is
    emptied and kept as a spare under a new name (never its game's id again); a killed
    process's spares go at the next start."""
    clock = Clock()
    journal = Journal(tmp_path, clock, wall=lambda: clock.t, spares=2)
    assert journal.restore() == []  # at start: nothing to restore, the spares made
    assert len(list(tmp_path.glob("*.spare"))) == 2
    tables = [opened(journal, clock, "official", 2, seed) for seed in range(3)]
    assert len(list(tmp_path.glob("*.spare"))) == 0  # two taken, one made
    ids = {t.game_id for t in tables}
    assert {p.stem for p in tmp_path.glob("*.jsonl")} == ids
    for table in tables:
        table.stop("p0")
        journal.closed(table)
    spares = list(tmp_path.glob("*.spare"))
    assert len(spares) == 2 and not list(tmp_path.glob("*.jsonl"))
    assert all(p.stat().st_size == 0 and p.stem not in ids for p in spares)
    again = opened(journal, clock, "official", 2, 9)
    assert again.game_id not in ids
    # Killed: the next process removes the old spares and keeps the game.
    fresh = Journal(tmp_path, clock, wall=lambda: clock.t, spares=1)
    (restored,) = fresh.restore()
    assert len(list(tmp_path.glob("*.spare"))) == 1
    assert restored.table.game_id == again.game_id


@pytest.mark.parametrize("rules", ["seven-o", "jump-in", "house", "no-mercy"])
def test_the_variants_replay_exactly(tmp_path: Path, rules: str) -> None:
    """Swaps (named with the play, or asked for and answered), rotations and jumps out of turn
    are journaled like any move: the replayed table is the same table, hands and all."""
    from unobot.core.updates import EngineEvents
    from unobot.engine.events import Eliminated, HandsRotated, HandsSwapped, JumpedIn

    clock = Clock()
    journal = Journal(tmp_path, clock, wall=lambda: clock.t)
    table = opened(journal, clock, rules, 4, 11)
    rng = Random(4)
    kinds: set[type] = set()

    def note(update: object) -> None:
        for e in getattr(update, "events", []):
            if type(e) is EngineEvents:
                kinds.update(type(x) for x in e.events)

    for _ in range(400):
        if table.finished:
            break
        clock.t += 1
        game = table.game
        assert game is not None
        before = len(table.names)
        move(table, rng, clock)
        assert len(table.names) == before
    assert table.moves is not None
    text = table.moves()
    assert text is not None
    rebuilt = replay_text(text, lambda t, update: note(update))
    assert snapshot(rebuilt) == snapshot(table)
    wanted = {
        "seven-o": {HandsSwapped, HandsRotated},
        "jump-in": {JumpedIn},
        "no-mercy": {HandsSwapped, Eliminated},
    }
    assert wanted.get(rules, {HandsSwapped, JumpedIn}) <= kinds, kinds


JOURNALS = Path(__file__).parent / "journals"


def _state(table: Table) -> dict[str, object]:
    """What ``journals/*.expected.json`` holds: the table and its game as the previous code
    (journal version 3) left them after replaying the journal (the ``out=`` of the position,
    which the notation learnt since, added)."""
    game, match = table.game, table.match
    assert game is not None and match is not None
    return {
        "state": table.state.value,
        "hand_number": table.hand_number,
        "totals": list(match.totals),
        "hands": [list(h.scores) for h in match.hands],
        "position": format_position(game, list(table.names)),
        "discard": " ".join(map(str, game.discard)),
        "phase": game.phase.name,
        "current": game.current,
        "direction": game.direction,
        "pending": game.pending,
        "rng": hashlib.sha256(repr(table.rng.getstate()).encode()).hexdigest()[:16],
        "deadlines": table.deadlines(),
    }


@pytest.mark.parametrize("name", ["no-mercy-v3-two", "no-mercy-v3-match"])
def test_a_no_mercy_game_journaled_before_version_4_restores_as_it_was_played(
    tmp_path: Path, name: str
) -> None:
    """Journals written by the code before issue 38 (version 3), of No Mercy games in
    progress: the Roulette played with its player's colour (``"card":"WCR","color":"y"``), a
    Wild Reverse Draw Four with two players, a Reverse with two left of three, a final draw
    card in a match to 500. They restore to the very state the previous code had (its
    expected.json), under the rules of then (the preset's 10 players, no knock-out bonus,
    ``legacy_no_mercy``), and play on to the end; read as version 4 the same calls fail."""
    text = (JOURNALS / f"{name}.jsonl").read_text()
    expected = json.loads((JOURNALS / f"{name}.expected.json").read_text())
    (tmp_path / "a1.jsonl").write_text(text)
    clock = Clock()
    (restored,) = Journal(tmp_path, clock, wall=lambda: clock.t).restore()
    table = restored.table
    assert _state(table) == expected
    rules = table.config.rules
    assert rules.legacy_no_mercy and rules.max_players == 10 and rules.mercy_bonus == 0
    rng = Random(5)
    for _ in range(3000):
        if table.finished:
            break
        clock.t += 1
        move(table, rng, clock)
    assert table.finished
    # The same calls under this version's reading: refused, so the file is set aside.
    (tmp_path / "b2.jsonl").write_text(text.replace('"version":3', '"version":4', 1))
    assert all(r.table.game_id != "b2" for r in Journal(tmp_path, clock).restore())
    assert (tmp_path / "b2.bad").exists()
