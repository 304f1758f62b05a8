"""UNO Flip played in a channel, through commands: ``.uno flip``, the Flip card turning
everything over, faces of the side in play only, ``.cards <nick>`` (the backs every player
sees), the Wild Draw challenges, a hand scored by the side it ended on, computer seats, the
turn timer, and a game restored after a restart.

Positions are set with the Flip notation (``unobot.engine.notation.parse_flip_position``): a
card is its face on the side in play, ``R5/T3`` with its back pinned."""

from __future__ import annotations

from pathlib import Path
from random import Random
from typing import Any

import pytest

from tests.core.fakes import Harness, Sent, channel_lines, notices
from tests.core.test_restore import journaled, restarted
from unobot.ai.flip_hard import FlipView
from unobot.bench.soak import command_for
from unobot.core.bot import BotConfig
from unobot.core.computers import ComputerConfig
from unobot.core.flip_table import FlipTable
from unobot.core.render_irc import LIMIT
from unobot.core.table import TableConfig
from unobot.engine import preset
from unobot.engine.flip import FlipGame, FlipPhase, FlipPlay, Side
from unobot.engine.notation import parse_flip_position
from unobot.irc.transport import Kind

FLIP = BotConfig(table=TableConfig(rules=preset("flip")))
FLIP_FAST_HARD = BotConfig(
    table=TableConfig(rules=preset("flip")), bots=ComputerConfig(playouts=40)
)
"""``hard`` searching a fixed 40 playouts a move (the default 200 ms would make a test slow)."""

# alice's RF turns everything over: the discard pile turns as a whole, so the first card
# (R5, whose back is T3) comes on top, dark side up.
TO_DARK = (
    "top=R5/T3 | alice*: RF/P9 R3/O3 Y4/P7 | bob: B7/O4 G2/T4 W/T7 | carol: G2/P5 R9/T7 "
    "| pile=B3/PF R1/T6 R1/O9 Y8/W G1/W"
)


def said(out: list[Sent]) -> str:
    return " ".join(channel_lines(out))


def told(out: list[Sent], nick: str) -> str:
    return " ".join(notices(out, nick))


def rigged(position: str, seed: int = 1, config: BotConfig = FLIP) -> tuple[Harness, FlipTable]:
    """A Flip game dealt through commands, its hand replaced by an exact position."""
    h = Harness(seed, config)
    game, names = parse_flip_position(position, Random(seed))
    h.start(names)
    t = h.bot.tables["#uno"]
    assert isinstance(t, FlipTable) and t.match is not None and t.names == tuple(names)
    t.match.game = game
    t._new_turn(h.clock.now())
    return h, t


def test_uno_flip_opens_a_flip_table_and_deals_light_side_up() -> None:
    h = Harness(3)
    h.say("alice", ".uno flip")
    h.say("bob", ".join")
    out = h.say("alice", ".deal")
    t = h.bot.tables["#uno"]
    assert isinstance(t, FlipTable) and isinstance(t.game, FlipGame)
    text = said(out)
    assert text.startswith("Uno (flip) [to 500 points]: alice, bob. First card ")
    assert "light side up. alice's turn." in text
    assert "UNO Flip: a Flip card turns every card over." in text  # the rules' own line
    assert told(out, "alice").startswith("Your turn | Your cards (7): ")
    assert told(out, "bob").startswith("Your cards (7): ")
    assert all(len(s.text.encode()) <= LIMIT for s in out)


def test_a_flip_card_turns_everything_over_and_everyone_gets_the_other_side() -> None:
    h, t = rigged(TO_DARK)
    out = h.say("alice", ".p r f")
    assert said(out) == (
        "alice plays RF (2 cards left), FLIP! Everything turns over: the dark side is up, "
        "top T3. Top: T3, dark side up. bob's turn."
    )
    assert t.game is not None and t.game.side is Side.DARK
    # every hand turned over: each person gets theirs as it reads now, the mover's marked
    assert told(out, "alice") == "Your cards (2): P7 O3"
    assert told(out, "bob") == "Your turn | Your cards (3): T4 T7 O4"
    assert told(out, "carol") == "Your cards (2): P5 T7"
    # in colour: pink, teal and orange as small cards of their own
    bob = next(s.text for s in out if s.target == "bob")
    assert "\x0301,10T4\x0f" in bob and "\x0301,07O4\x0f" in bob
    out = h.say("bob", ".p t 4")
    assert said(out) == "bob plays T4 (2 cards left). Top: T4, dark side up. carol's turn."


def test_a_face_of_the_other_side_gets_a_clear_reply() -> None:
    h, t = rigged(TO_DARK)
    light = "that is a dark-side card or colour: the light side is up (colours r, y, g, b)"
    assert told(h.say("alice", ".p p 9"), "alice") == light
    assert told(h.say("alice", ".p w t"), "alice") == light
    h.say("alice", ".p rf")
    dark = "that is a light-side card or colour: the dark side is up (colours p, t, o, u)"
    out = h.say("bob", ".p g 2")
    assert told(out, "bob") == dark and not channel_lines(out)
    assert told(h.say("bob", ".p q 9"), "bob") == "'q 9' is not a card"
    assert told(h.say("bob", ".p o 4"), "bob") == "O4 does not match T3"
    assert told(h.say("carol", ".p p 5"), "carol") == "it is bob's turn"
    assert t.game is not None and t.game.current == 1  # nothing moved


def test_cards_of_a_nick_shows_the_backs_everyone_sees_privately() -> None:
    h, _t = rigged(TO_DARK)
    out = h.say("bob", ".cards alice")
    assert told(out, "bob") == "alice's cards facing the table, dark side: P7 P9 O3"
    assert not channel_lines(out)
    h.say("alice", ".p r f")
    out = h.say("carol", ".cards ALICE")
    assert told(out, "carol") == "alice's cards facing the table, light side: R3 Y4"
    out = h.say("carol", ".cards")  # their own hand, the side in play, and the counts
    text = told(out, "carol")
    assert "Your cards (2): P5 T7" in text and "Cards: alice 2, bob 3, carol 2." in text
    assert told(h.say("carol", ".cards zed"), "carol") == "no player of that name is in this hand"
    # an onlooker may look too: the backs are public
    assert "light side: R3 Y4" in told(h.say("dave", ".cards alice"), "dave")


def test_plain_mode_writes_no_colour_codes() -> None:
    h, _t = rigged(TO_DARK)
    h.say("bob", ".pce-off")
    out = h.say("alice", ".p r f")
    bob = [s.text for s in out if s.target == "bob"]
    assert bob == ["Your turn | Your cards (3): [T4] [T7] O4"]


def test_a_flip_that_turns_up_a_wild_lets_its_player_name_a_colour_of_the_dark_side() -> None:
    h, t = rigged("top=R8/W | alice*: RF/P9 R3/O3 | bob: B7/O4 G2/T4 | pile=B3/PF R1/T6")
    out = h.say("alice", ".p r f uno")
    assert said(out).endswith(
        "top W. Top: W (red), dark side up. alice picks the colour (.color p/t/o/u)."
    )
    assert "the dark side is up" in told(h.say("alice", ".color r"), "alice")
    out = h.say("alice", ".color t")
    assert said(out) == "alice picks teal. Top: W (teal), dark side up. bob's turn. UNO: alice."
    assert t.game is not None and t.game.color.letter == "T"


def test_a_wild_draw_two_bluff_challenged() -> None:
    h, _t = rigged("top=R5/T3 | alice*: WD2/TF R3/O3 Y4/P7 | bob: B7/O4 G2/T4 | pile=B3/PF R1/T6")
    out = h.say("alice", ".p wd2 b")
    assert said(out).endswith(
        "Top: WD2 (blue), light side up. bob must answer WD2: .draw or .challenge."
    )
    out = h.say("bob", ".challenge")
    assert said(out) == (
        "bob challenges alice: the WD2 was a bluff, alice draws 2 (challenge). "
        "Top: WD2 (blue), light side up. bob's turn."
    )


def test_a_fair_wild_draw_two_challenged_costs_the_challenger_four() -> None:
    h, _t = rigged(
        "top=R5/T3 | alice*: WD2/TF B3/PF Y4/P7 | bob: B7/O4 G2/T4 | pile=R1/T6 R1/O9 Y8/W G1/W"
    )
    h.say("alice", ".p wd2 g")
    out = h.say("bob", ".ch")
    assert said(out) == (
        "bob challenges the WD2: it was played fairly, bob draws 4 and is skipped. "
        "Top: WD2 (green), light side up. alice's turn."
    )
    assert "You drew" in told(out, "bob")


def test_a_wild_draw_color_draws_until_the_colour_comes() -> None:
    h, t = rigged("side=dark top=T3 | alice*: WDC O3 P7 | bob: O4 T4 | pile=P5 T6 O9 U4 P9", seed=2)
    out = h.say("alice", ".p wdc u")
    assert said(out).endswith("bob must answer WDC: .draw or .challenge.")
    out = h.say("bob", ".draw")
    assert said(out).startswith("bob draws 4 and is skipped.")  # P5 T6 O9, then U4
    assert "You drew P5 T6 O9 U4" in told(out, "bob")
    assert t.game is not None and t.game.current == 0


def test_a_hand_is_scored_by_the_side_it_ended_on_and_the_next_is_dealt() -> None:
    h, t = rigged("top=R5/T3 | alice*: RF/P9 | bob: B7/O4 G2/T4 | pile=B3/PF R1/T6")
    out = h.say("alice", ".p r f")
    text = said(out)
    # bob's B7 G2 (9 points light) count by their dark faces O4 T4: 8
    assert "alice plays RF, FLIP! Everything turns over: the dark side is up, top T3." in text
    assert "alice wins the hand and 8 points! Left: bob 2 cards (8 pts): T4 O4." in text
    assert "Totals: alice 8, bob 0 (first to 500)." in text
    assert "hand 2: alice, bob." in text and "light side up" in text
    assert t.hand_number == 2 and t.match is not None and t.match.totals == [8, 0]


def test_the_turn_timer_draws_for_an_idle_player_and_moves_on() -> None:
    h, t = rigged(TO_DARK)
    out = h.advance(t.config.turn_timeout + 1)
    text = said(out)
    assert "alice" in text and "bob's turn" in text
    assert t.game is not None and t.game.current == 1 and len(t.game.hands[0]) == 4


def test_no_time_limit_at_flip_and_no_uno_call_with_seven_cards() -> None:
    h = Harness(3, FLIP)
    h.say("alice", ".uno")
    h.say("bob", ".join")
    out = h.say("alice", ".deal 30m")
    assert told(out, "alice") == "UNO Flip is played to 500 points, without a time limit"
    h.say("alice", ".deal")
    assert told(h.say("alice", ".unocall"), "alice") == (
        "you have more than one card: no UNO to call"
    )
    assert told(h.say("alice", ".catch bob"), "alice") == "there is nobody to catch"


# The UNO call, as at a classic ``official`` table: alice holds R5 and B2, bob and carol more.
CALL = "top=R3 | alice*: R5 B2 | bob: Y1 R8 G9 | carol: Y3 G4 | pile=G1 G2 G3"


def test_play_with_uno_calls_it() -> None:
    """``.p r 5 uno``: the call with the card; nobody can catch alice then."""
    h, _t = rigged(CALL)
    out = h.say("alice", ".p r 5 uno")
    assert said(out).startswith("alice plays R5 (UNO!)")
    assert told(h.say("carol", ".catch alice"), "carol") == "there is nobody to catch"


def test_uno_before_the_card_and_plain_uno() -> None:
    """``.uno`` (or a plain ``uno`` line) just before the next-to-last card counts for it."""
    h, _t = rigged(CALL)
    assert said(h.say("alice", "uno")).startswith("alice calls UNO")
    assert told(h.say("alice", ".unocall"), "alice") == "your UNO is already called"
    out = h.say("alice", ".p r 5")
    assert said(out).startswith("alice plays R5")
    assert told(h.say("bob", ".catch alice"), "bob") == "there is nobody to catch"


def test_missed_uno_caught_draws_two_and_a_late_call_saves() -> None:
    """ "UNO not called, caught before the next player begins a turn: draw 2": carol, out of
    turn, catches alice; alice's hand notice has the 2 new cards. Another time alice says it
    late (``.uno``) before anybody catches her."""
    h, t = rigged(CALL)
    h.say("alice", ".p r 5")
    out = h.say("carol", ".catch alice")
    assert said(out).startswith("carol catches alice without UNO: alice draws 2.")
    assert "bob's turn" in said(out)
    assert told(out, "alice") == "You drew G1 G2 | Your cards (3): G1 G2 B2"
    assert t.game is not None and len(t.game.hands[0]) == 3 and t.game.current == 1
    h, t = rigged(CALL)
    h.say("alice", ".p r 5")
    assert said(h.say("alice", ".uno")).startswith("alice calls UNO")
    assert told(h.say("carol", ".catch alice"), "carol") == "there is nobody to catch"


def test_catch_refused_once_the_next_player_began() -> None:
    h, _t = rigged(CALL)
    h.say("alice", ".p r 5")
    h.say("bob", ".p r 8")
    assert told(h.say("carol", ".catch alice"), "carol") == "there is nobody to catch"
    assert told(h.say("alice", ".uno"), "alice") == (
        "nobody can catch you any more: no UNO to call"
    )
    refused = told(h.say("carol", ".catch nobody"), "carol")
    assert refused == "there is nobody called nobody to catch"


def test_an_out_of_turn_catch_keeps_the_movers_clock() -> None:
    h, t = rigged(CALL)
    h.say("alice", ".p r 5")
    started = t.turn_started
    h.clock.time += 5
    h.say("carol", ".catch alice")
    assert t.turn_started == started


def test_rules_commands_know_the_flip_preset() -> None:
    h = Harness(3)
    text = told(h.say("alice", ".unorules flip"), "alice")
    assert text.startswith("Preset flip: UNO Flip: a Flip card turns every card over.")
    assert "flip" in told(h.say("alice", ".unorules list"), "alice")
    h.say("op", ".unorules preset flip", is_op=True)
    refused = told(h.say("op", ".unorules set stacking same", is_op=True), "op")
    assert refused == (
        "UNO Flip plays its own rules: only hand_size, max_players, min_players, target_score "
        "can change"
    )
    h.say("op", ".unorules set target_score 300", is_op=True)
    h.say("alice", ".uno")
    h.say("bob", ".join")
    out = h.say("alice", ".deal")
    assert said(out).startswith("Uno (flip) [to 300 points]: alice, bob.")
    assert isinstance(h.bot.tables["#uno"], FlipTable)


def test_computer_seats_play_flip_to_the_end_and_the_game_is_recorded(tmp_path: Path) -> None:
    h, store = journaled(tmp_path, seed=5, start=1_000.0, config=FLIP_FAST_HARD)
    h.say("alice", ".uno")
    out = h.say("alice", ".addbot hard")
    assert "HardBot1 (computer, hard) joins" in said(out) and not told(out, "alice")
    h.say("alice", ".addbot easy")
    h.say("alice", ".deal")
    t = h.bot.tables["#uno"]
    rng = Random(3)
    flips = 0
    for _ in range(5000):
        if t.finished:
            break
        game = t.game
        assert game is not None
        if t.players[game.current].computer:
            out = h.advance(3)
        else:
            h.clock.time += 1
            out = h.say(*command_for(t, rng))
        flips += said(out).count("FLIP!")
    assert t.finished and flips > 0
    assert h.bot.journal is not None and h.bot.journal.settle()
    stats = store.player("alice", min_games=1)
    assert stats is not None and stats.games == 1


def test_a_hard_computer_seat_at_flip_searches_only_what_its_seat_sees(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """``.addbot hard`` at a Flip table: each of its moves goes to the decider (a worker
    process in the bot, as the classic ``hard``'s) with its seat's ``FlipView`` (what the seat
    sees and remembers, not the game), and the table accepts every one."""
    h = Harness(7, FLIP_FAST_HARD)
    inline = h.bot.computers.decider
    asked: list[tuple[str, object]] = []

    class Recording:
        def submit(self, level: str, seed: int, obs: object, done: Any) -> None:
            asked.append((level, obs))
            inline.submit(level, seed, obs, done)  # type: ignore[arg-type]

        def close(self) -> None:
            pass

    h.bot.computers.decider = Recording()
    h.say("alice", ".uno")
    h.say("alice", ".addbot hard")
    h.say("alice", ".addbot normal")
    h.say("alice", ".deal")
    t = h.bot.tables["#uno"]
    rng = Random(2)
    for _ in range(3000):
        if t.finished:
            break
        game = t.game
        assert game is not None
        if t.players[game.current].computer:
            h.advance(3)
        else:
            h.clock.time += 1
            h.say(*command_for(t, rng))
    assert t.finished
    assert len(asked) > 20  # only hard asks the decider; normal decides inline
    assert all(level == "hard" and type(obs) is FlipView and obs.seat == 1 for level, obs in asked)
    assert not [r for r in caplog.records if "refused" in r.getMessage()]


def test_a_flip_game_survives_a_restart(tmp_path: Path) -> None:
    first, _ = journaled(tmp_path, seed=4, start=1_000.0, config=FLIP)
    first.say("alice", ".uno")
    first.say("bob", ".join")
    first.say("alice", ".addbot normal")
    first.say("alice", ".deal")
    table = first.bot.tables["#uno"]
    rng = Random(11)
    for _ in range(40):
        game = table.game
        assert game is not None
        if table.players[game.current].computer:
            first.advance(3)
        else:
            first.clock.time += 2
            first.say(*command_for(table, rng))
        if table.finished:
            break
    assert not table.finished
    before = (table.game._state(), table.names, table.rng.getstate(), list(table.match.totals))  # type: ignore[union-attr]
    # The next bot, on the same folder, configured for the classic game: the journal carries
    # the game's rules, and the table comes back a Flip table.
    second, store = restarted(tmp_path, first.clock.time, 30)
    assert second.bot.restore() == 1
    restored = second.bot.tables["#uno"]
    assert isinstance(restored, FlipTable)
    after = (
        restored.game._state(),
        restored.names,
        restored.rng.getstate(),
        list(restored.match.totals),
    )  # type: ignore[union-attr]
    assert after == before
    sent = second.event(Kind.JOIN, "unobot", "#uno")
    lines = channel_lines(sent)
    assert lines[0].startswith("Restored after a restart: the game goes on. Top: ")
    assert "side up" in lines[0]
    for _ in range(5000):
        if restored.finished:
            break
        game = restored.game
        assert game is not None
        if restored.players[game.current].computer:
            second.advance(3)
        else:
            second.clock.time += 1
            second.say(*command_for(restored, rng))
    assert restored.finished
    stats = store.player("alice", min_games=1)
    assert stats is not None and stats.games == 1


def test_a_missed_uno_call_survives_a_restart(tmp_path: Path) -> None:
    """The UNO moves are journaled: a player exposed by a missed call before a restart is
    still exposed after it (the same game state), and is caught then."""
    first, _ = journaled(tmp_path, seed=4, start=1_000.0, config=FLIP)
    first.say("alice", ".uno")
    first.say("bob", ".join")
    first.say("carol", ".join")
    first.say("alice", ".deal")
    table = first.bot.tables["#uno"]
    rng = Random(5)
    for _ in range(400):
        game = table.game
        assert isinstance(game, FlipGame) and not table.finished
        seat = game.current
        plays = [a for a in game.legal_actions() if isinstance(a, FlipPlay)]
        first.clock.time += 2
        if len(game.hands[seat]) == 2 and plays and game.phase is FlipPhase.PLAY:
            first.say(table.names[seat], f".p {plays[0].face.text.lower()} {_letter(plays[0])}")
            if game.exposed == seat:
                break
        else:
            first.say(*command_for(table, rng))
    game = table.game
    assert isinstance(game, FlipGame) and game.exposed >= 0
    exposed = table.names[game.exposed]
    before = (game._state(), table.names, table.rng.getstate())
    second, _store = restarted(tmp_path, first.clock.time, 30)
    assert second.bot.restore() == 1
    restored = second.bot.tables["#uno"]
    assert isinstance(restored, FlipTable) and restored.game is not None
    assert (restored.game._state(), restored.names, restored.rng.getstate()) == before
    second.event(Kind.JOIN, "unobot", "#uno")
    catcher = next(n for n in restored.names if n != exposed)
    out = second.say(catcher, f".catch {exposed}")
    assert f"{catcher} catches {exposed} without UNO: {exposed} draws 2." in said(out)
    assert len(restored.game.hands[restored.names.index(exposed)]) == 3


def _letter(action: FlipPlay) -> str:
    return action.color.letter.lower() if action.color is not None else ""


def test_a_player_leaving_puts_their_cards_under_the_pile_and_play_goes_on() -> None:
    h, t = rigged(TO_DARK)
    out = h.say("alice", ".leave")
    text = said(out)
    assert text.startswith("alice is out (left the game), their cards go under the draw pile.")
    assert text.endswith("Top: R5, light side up. bob's turn.")
    assert t.names == ("bob", "carol") and t.game is not None and t.game.n == 2
    assert t.game.current == 0 and len(t.game.draw_pile) == 5 + 3


def test_with_two_players_the_one_left_wins_the_hand_and_the_match() -> None:
    h, t = rigged("top=R5/T3 | alice*: RF/P9 R3/O3 | bob: B7/O4 G2/T4 | pile=B3/PF R1/T6")
    out = h.say("bob", ".leave")
    text = said(out)
    assert "alice wins the hand and 9 points! Left: bob 2 cards (9 pts): G2 B7." in text
    assert t.finished and t.match is not None and t.match.totals == [9, 0]


def test_the_worker_pool_decides_a_flip_hard_move_in_a_worker_process() -> None:
    """The bot's pool: a Flip ``hard`` decision crosses to a worker process (its ``FlipView``
    and the move it answers pickle) and comes back through the reactor's callback; a Flip
    ``normal`` is answered inline from the same view (the fallback when a worker fails)."""
    import queue

    from unobot.ai.flip_hard import FlipMemory
    from unobot.core.computers import PoolDecider

    game, events = FlipGame.deal(3, Random(4))
    memory = FlipMemory(game.current, 3)
    memory.see(events, game)
    view = FlipView.of(game, game.current, memory)
    calls: queue.Queue = queue.Queue()
    pool = PoolDecider(1, calls.put, playouts=16)
    got: list[object] = []
    try:
        pool.submit("normal", 1, view, got.append)
        assert len(got) == 1 and calls.empty() and got[0] in game.legal_actions()
        pool.submit("hard", 1, view, got.append)
        calls.get(timeout=60)()  # what the reactor would run
        assert len(got) == 2 and got[1] in game.legal_actions()
    finally:
        pool.close()


def test_the_starter_leaving_passes_the_deal_on_whatever_the_case_of_their_nick() -> None:
    """A Flip removal ends the same way as a classic one (``Table._ended_by_removal``): the
    starter is matched by IRC's case rules, as the classic table does."""
    h, t = rigged(TO_DARK)
    t.starter = "ALICE"  # as the server cased it when the game was opened
    h.say("alice", ".leave")
    assert t.starter == "bob" and not t.finished


def test_the_last_person_leaving_a_flip_table_of_computers_ends_the_game() -> None:
    h, t = rigged(TO_DARK)
    for p in t.players[1:]:
        p.level = "easy"
    text = said(h.say("alice", ".leave"))
    assert "The game is over: no person is left in the game." in text
    assert t.finished


# --- computer players and the UNO call -------------------------------------------------------

FLIP_QUICK = BotConfig(
    table=TableConfig(rules=preset("flip"), turn_timeout=10_000),
    bots=ComputerConfig(delay=1.0, uno_grace=4.0),
)


def with_computer(position: str) -> tuple[Harness, FlipTable, str]:
    """alice, bob and a ``normal`` computer player, the hand replaced by ``position`` written
    with ``BOT`` for the computer's seat."""
    h = Harness(1, FLIP_QUICK)
    h.say("alice", ".uno")
    h.say("bob", ".join")
    h.say("alice", ".addbot normal")
    h.say("alice", ".deal")
    t = h.bot.tables["#uno"]
    assert isinstance(t, FlipTable) and t.match is not None
    bot = t.names[2]
    game, names = parse_flip_position(position.replace("BOT", bot), Random(1))
    assert tuple(names) == t.names
    t.match.game = game
    t._new_turn(h.clock.now())
    return h, t, bot


def test_a_computer_player_calls_uno_with_its_next_to_last_card() -> None:
    position = "top=R3 | alice: Y1 Y2 | bob*: R9 G5 G6 | BOT: R5 B2 | pile=G1 G2"
    h, _t, bot = with_computer(position)
    h.say("bob", ".p r 9")
    out = said(h.advance(5))
    assert f"{bot} plays R5 (UNO!)" in out
    assert told(h.say("alice", f".catch {bot}"), "alice") == "there is nobody to catch"


def test_a_computer_player_catches_a_missed_call_after_the_grace() -> None:
    """As at classic tables: a person who forgot gets ``uno_grace`` seconds to call late
    before a computer catches them (and the computer to move holds its move as long)."""
    position = "top=R3 dir=ccw | alice*: R5 B2 | bob: G3 G4 G7 | BOT: Y1 R8 G9 | pile=G1 G2 B7"
    h, t, bot = with_computer(position)  # counter-clockwise: the computer moves after alice
    h.say("alice", ".p r 5")
    assert t.game is not None and t.game.exposed == 0 and t.names[t.game.current] == bot
    assert not said(h.advance(3.5))  # neither the catch nor the computer's turn yet
    out = said(h.advance(3))
    assert f"{bot} catches alice without UNO: alice draws 2." in out
    assert out.index("catches alice") < out.index(f"{bot} plays R8")
    assert len(t.game.hands[0]) == 3


def test_a_late_call_within_the_grace_is_not_caught() -> None:
    position = "top=R3 | alice*: R5 B2 | bob: G3 G4 G7 | BOT: Y1 R8 G9 | pile=G1 G2"
    h, _t, _bot = with_computer(position)
    h.say("alice", ".p r 5")
    h.advance(2)
    assert said(h.say("alice", "uno")).startswith("alice calls UNO")
    assert "catches" not in said(h.advance(10))


def test_an_early_uno_never_costs_the_move() -> None:
    """As at a classic ``official`` table: ``.p r 5 uno`` with three cards plays the card and
    tells the player alone that UNO is not called yet; the channel reads no UNO."""
    h, t = rigged("top=R3 | alice*: R5 B2 G7 | bob: Y1 R8 G9 | carol: Y3 G4 | pile=G1 G2")
    out = h.say("alice", ".p r 5 uno")
    assert said(out).startswith("alice plays R5 (2 cards left). Top: R5")
    assert "UNO" not in said(out)
    assert "UNO is not called: you still hold 2 cards" in told(out, "alice")
    assert t.game is not None and len(t.game.hands[0]) == 2 and t.game.current == 1
    refused = told(h.say("bob", ".p y 1 uno"), "bob")  # the card is checked first
    assert refused == "Y1 does not match R5"
