"""Tournament commands' smaller promises: ``.tournament addbot`` with a count, entrant counts
said right, ``.tstatus`` sheet lines as the sheet names them, durations said as played."""

from __future__ import annotations

from tests.tournament.test_director import Event, notices_to, play_out


def test_addbot_takes_a_count_in_one_command() -> None:
    event = Event()
    event.say("op", ".tournament new ocuk cup", op=True)
    event.say("op", ".tournament addbot easy 6", op=True)
    cup = event.bot.director.find("cup")  # type: ignore[union-attr]
    assert cup is not None
    assert [e.name for e in cup.entrants] == [f"EasyBot{n}" for n in range(1, 7)]
    assert all(e.level == "easy" for e in cup.entrants)
    assert event.lines()[-1] == (
        "6 computer players (easy) are in cup: EasyBot1, EasyBot2, EasyBot3, EasyBot4, "
        "EasyBot5, EasyBot6 (6 entrants)."
    )
    event.say("op", ".tournament addbot 12", op=True)  # the tournament's level, named on
    assert len(cup.entrants) == 18 and cup.entrants[-1].name == "NormalBot12"
    assert event.lines()[-1] == (
        "12 computer players (normal) are in cup: NormalBot1 to NormalBot12 (18 entrants)."
    )


def test_addbot_refuses_bad_counts_with_a_short_reply() -> None:
    event = Event()
    event.say("op", ".tournament new knockout ko max_entrants=8", op=True)
    ko = event.bot.director.find("ko")  # type: ignore[union-attr]
    assert ko is not None
    for words, reply in (
        ("easy 0", "add 1 to 64 computer players at a time"),
        ("easy -3", "add 1 to 64 computer players at a time"),
        ("easy 65", "add 1 to 64 computer players at a time"),
        ("easy 99999999999999999999999", "add 1 to 64 computer players at a time"),
        ("easy 9", "ko takes 8 entrants (max_entrants): room for 8 more"),
        ("easy Zed 2", "a name is for one computer player; a count names them itself"),
        ("silly 2", "the levels are"),
    ):
        event.say("op", f".tournament addbot {words}", op=True)
        assert reply in notices_to(event, "op")[-1], words
    assert ko.entrants == []
    event.say("op", ".tournament addbot hard 8", op=True)
    assert len(ko.entrants) == 8
    event.say("op", ".tournament addbot hard", op=True)
    assert "room for 0 more" in notices_to(event, "op")[-1]


def test_one_entrant_is_said_in_the_singular() -> None:
    event = Event()
    event.say("op", ".tournament new ocuk cup", op=True)
    event.say("ann", ".tjoin")
    assert event.lines()[-1] == "ann is in cup (1 entrant)."
    event.say("bob", ".tjoin")
    assert event.lines()[-1] == "bob is in cup (2 entrants)."


def test_the_headline_says_the_durations_the_games_run() -> None:
    """With tournament_time_scale 1/60 a 60-minute game runs 60 s: the headline says so, as
    the round lines and the tables' own lines do."""
    event = Event(scale=1 / 60)
    event.say("op", ".tournament new knockout ko game=60m", op=True)
    event.say("op", ".tournament addbot easy 4", op=True)
    event.say("op", ".tournament start", op=True)
    assert any("games of up to 4, 1m each" in line for line in event.lines())
    event = Event(scale=1 / 60)
    event.say("op", ".tournament new rotation bac rounds=2 round=60m warning=15m", op=True)
    event.say("op", ".tournament addbot easy 8", op=True)
    event.say("op", ".tournament start", op=True)
    lines = event.lines()
    assert any("2 rounds of 1m (the MC's choice; warning 15s before" in line for line in lines)
    assert any("Round 1 starts: 1m; no new game in the last 15s." in line for line in lines)


def test_tstatus_shows_the_last_sheet_lines_as_the_sheet_names_them() -> None:
    event = Event(scale=20 / 3600)
    ko, _ = play_out(event, "knockout ko", 4, 600)  # one game: the final
    event.say("ann", ".tstatus ko")
    said = notices_to(event, "ann")
    sheet = [line for line in said if " > " in line]
    assert sheet and all(" > Final,G" in line for line in sheet)
    assert sheet == [row.text() for row in ko.sheet.lines[-10:]]


def test_a_finalists_standing_note_is_finalist() -> None:
    event = Event(scale=20 / 3600)
    ko, _ = play_out(event, "knockout ko", 4, 600)
    notes = [s.note for s in ko.standings()]
    assert notes[0] == "champion" and set(notes[1:]) == {"finalist"}


def test_a_table_whose_people_all_fail_to_come_is_played_by_its_computer_entrants() -> None:
    """A reserve drawn in and a person who never come to their table: both are out as
    no-shows, and the two computer entrants left play the game (the table used to close with
    no person left, the game was seated again with the removed names, and the next clock
    tick removed them a second time: an error out of the timer, every minute)."""
    event = Event(scale=1 / 60)
    event.say("op", ".tournament new knockout ko game=60m", op=True)
    event.say("ann", ".tjoin")
    event.say("op", ".tournament addbot easy 7", op=True)
    event.say("op", ".tournament reserve zed", op=True)
    event.say("op", ".tournament remove EasyBot7", op=True)
    event.say("op", ".tournament start", op=True)
    ko = event.bot.director.find("ko")  # type: ignore[union-attr]
    assert ko is not None
    table = next(ko.channel_of(g) for g in ko.pending() if "ann" in g.players)
    for _ in range(3600):
        event.clock.advance(1.0)  # raises if a timer fails
        if ko.over:
            break
    assert ko.over
    said = event.lines(table)
    assert any("no-show" in line for line in event.lines()), event.lines()[-5:]
    assert any(line.startswith("Uno (knockout)") for line in said), said[:5]
    assert not any("no person is left" in line for line in said)
    assert {e.name for e in ko.entrants} >= {"ann", "zed"}
