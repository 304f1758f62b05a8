"""UNO at a person's speed (issue 37 item 5): computer players give a person who laid their
next-to-last card without calling UNO a few seconds (``[bots] uno_grace``) to call it late
before they catch them, or close the window by moving; and an early ``uno`` on a play (one
that leaves more than one card) never costs the move."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.core.fakes import Harness, Sent, channel_lines, notices
from tests.core.test_journal import Clock, opened, snapshot
from unobot.core.bot import BotConfig
from unobot.core.computers import ComputerConfig
from unobot.core.journal import Journal
from unobot.core.table import Table, TableConfig
from unobot.core.updates import HandNotice, Update
from unobot.engine import preset
from unobot.engine.actions import Play
from unobot.engine.cards import Card
from unobot.engine.game import Game

C = Card.parse
GRACE = 4.0


def at_table(
    hands: list[list[str]],
    top: str,
    *,
    rules: str = "official",
    grace: float = GRACE,
    computers: int = 2,
) -> tuple[Harness, Table]:
    """alice (seat 0, to move) and ``computers`` NormalBots, dealt, then put in the position
    ``hands`` / ``top`` (the computer seats plan afresh on it)."""
    config = BotConfig(
        table=TableConfig(rules=preset(rules), turn_timeout=1000),
        bots=ComputerConfig(delay=0.0, uno_grace=grace),
    )
    h = Harness(1, config)
    h.say("alice", ".uno")
    for _ in range(computers):
        h.say("alice", ".addbot normal")
    h.say("alice", ".deal")
    table = h.bot.tables["#uno"]
    assert table.match is not None
    assert next(p.nick for p in table.players) == "alice"
    table.match.game = Game.from_position(
        table.config.rules,
        [[C(c) for c in hand] for hand in hands],
        C(top),
        draw_pile=[C("Y9")] * 40,
    )
    h.bot.publish(table, Update(hands={"alice": HandNotice(table.hand_of("alice"))}))
    return h, table


def said(out: list[Sent]) -> str:
    return " ".join(channel_lines(out))


BOTS_CANT_PLAY = [["R5", "B1"], ["G1", "G2", "G3"], ["G4", "G6", "G7"]]


# --- computers give people time -------------------------------------------------------------


def test_a_late_call_within_the_grace_is_accepted_and_nobody_catches() -> None:
    h, table = at_table(BOTS_CANT_PLAY, "R7")
    out = h.say("alice", ".p r5")
    assert "alice plays R5" in said(out) and "NormalBot1's turn" in said(out)
    assert table.game is not None and table.game.exposed == 0
    assert h.advance(1.5) == []  # a person's second or two: no catch, no computer move
    out = h.say("alice", ".uno")
    assert not notices(out, "alice"), out  # accepted, not "too late" or "already called"
    assert "UNO" in said(out)
    assert table.game.exposed == -1
    later = said(h.advance(10))
    assert "NormalBot1 draws" in later and "catches" not in later
    assert table.hand_of("alice") == (C("B1"),)


def test_a_person_who_never_calls_is_caught_after_the_grace() -> None:
    h, table = at_table(BOTS_CANT_PLAY, "R7")
    h.say("alice", ".p r5")
    assert h.advance(GRACE - 0.1) == []  # neither a catch nor NormalBot1's turn
    caught = said(h.advance(0.2))
    assert "catches alice" in caught, caught
    assert len(table.hand_of("alice")) == 3  # B1 and the penalty of 2


def test_the_grace_is_configured() -> None:
    h, _table = at_table(BOTS_CANT_PLAY, "R7", grace=0.5)
    h.say("alice", ".p r5")
    assert h.advance(0.4) == []
    assert "catches alice" in said(h.advance(0.2))


def test_no_wait_when_uno_was_called_with_the_card() -> None:
    h, _table = at_table(BOTS_CANT_PLAY, "R7")
    out = h.say("alice", ".p r5 uno")
    assert "UNO" in said(out)
    assert "NormalBot1 draws" in said(h.advance(0))  # at a computer's pace again


def test_a_computer_players_missed_call_is_caught_at_a_computers_pace() -> None:
    """The grace is for people: a computer seat is never left exposed long (it calls its own
    UNO with the card), and nothing waits for one."""
    h, _table = at_table([["G1", "G2", "G3"], ["R5", "B1"], ["Y4", "Y6", "Y7"]], "R7")
    h.say("alice", ".draw")  # Y9: not playable on R7, the turn passes to NormalBot1
    moved = said(h.advance(0))
    assert "NormalBot1 plays R5" in moved and "UNO" in moved


# --- an early uno never costs the move -------------------------------------------------------


@pytest.mark.parametrize("rules", ["official", "bac-tournament", "ocuk-tournament"])
def test_an_early_uno_plays_the_card_and_tells_the_player(rules: str) -> None:
    """``.p wd4 y uno`` with three cards: the Wild Draw Four is played (the rules have no
    false-UNO penalty), the word is ignored, and the player alone is told why."""
    hands = [["WD4", "G1", "B2"], ["R1", "R2", "R3"], ["R4", "R6", "R8"], ["B4", "B6", "B8"]]
    seats = preset(rules).min_players
    h, table = at_table(hands[: max(3, seats)], "R7", rules=rules, computers=max(2, seats - 1))
    out = h.say("alice", ".p wd4 y uno")
    line = said(out)
    assert "alice plays WD4" in line and "2 cards left" in line, line
    assert "UNO" not in line.split("Top:")[0]  # nobody was told alice called UNO
    (note,) = [t for t in notices(out, "alice") if "Your cards" not in t]
    assert note == (
        "Your card is played, but UNO is not called: you still hold 2 cards. Call it with "
        "your next-to-last card (.p <card> uno)."
    )
    assert "more than one card" not in " ".join(notices(out, "alice"))
    assert sorted(c.text for c in table.hand_of("alice")) == ["B2", "G1"]


def test_an_early_uno_in_knockout_is_a_false_uno_after_the_card() -> None:
    """knockout's sheet (001): "If a player shouts UNO, but they do not have one card left,
    that player must draw 3 cards". The card is played first: the move is never lost."""
    h, table = at_table(
        [["WD4", "G1", "B2"], ["R1", "R2", "R3"], ["R4", "R6", "R8"]], "R7", rules="knockout"
    )
    out = h.say("alice", ".p wd4 y uno")
    line = said(out)
    assert "alice plays WD4" in line and "alice draws 3 for a false UNO" in line, line
    assert len(table.hand_of("alice")) == 5
    assert not [t for t in notices(out, "alice") if "Your cards" not in t]


def test_an_early_uno_on_a_bad_card_gets_the_cards_refusal() -> None:
    """The card is checked first: an unplayable card is refused for what it is."""
    h, table = at_table([["G1", "G2", "B2"], ["R1", "R2", "R3"], ["R4", "R6", "R8"]], "R7")
    out = h.say("alice", ".p g1 uno")
    (refusal,) = notices(out, "alice")
    assert "G1" in refusal and "more than one card" not in refusal
    assert len(table.hand_of("alice")) == 3


def test_a_plain_early_uno_call_is_still_refused_alone() -> None:
    """``.uno`` on its own with three cards changes nothing (no move was made with it)."""
    h, _table = at_table([["G1", "R2", "B2"], ["R1", "R2", "R3"], ["R4", "R6", "R8"]], "R7")
    out = h.say("alice", ".uno")
    assert notices(out, "alice") == ["you have more than one card: no UNO to call"]


def test_an_early_uno_is_journaled_and_replays_to_the_same_table(tmp_path: Path) -> None:
    """The journal writes the command as said (``uno`` included); a restart replays it the
    same way: the card played, the word ignored."""
    clock = Clock()
    journal = Journal(tmp_path, clock, wall=lambda: 5_000.0 + clock.t)
    table = opened(journal, clock, "official", 3, 11)
    game = table.game
    assert game is not None
    for _ in range(20):  # draw until the player to move can play
        playable = [a for a in game.legal_actions(game.current) if type(a) is Play]
        if playable:
            break
        clock.t += 1
        table.draw(table.players[game.current].nick, clock())
    action = playable[0]
    seat = game.current
    held = game.hand_size(seat)
    assert held > 2
    clock.t += 1
    update = table.play(table.players[seat].nick, action.card, action.color, clock(), uno=True)
    assert [n.left for n in update.notes] == [held - 1] and game.hand_size(seat) == held - 1
    before = snapshot(table)
    (restored,) = Journal(tmp_path, Clock(9_000.0), wall=lambda: 6_000.0).restore()
    assert snapshot(restored.table)["game"] == before["game"]


def test_the_early_uno_note_is_in_the_players_language() -> None:
    h, _table = at_table([["WD4", "G1", "B2"], ["R1", "R2", "R3"], ["R4", "R6", "R8"]], "R7")
    h.say("alice", ".unolang me de")
    out = h.say("alice", ".p wd4 y uno")
    assert "alice plays WD4" in said(out)  # the channel speaks English
    (note,) = [t for t in notices(out, "alice") if "Karten (" not in t]
    assert note.startswith("Deine Karte liegt, aber UNO ist nicht gerufen: du hast noch 2 Karten")
