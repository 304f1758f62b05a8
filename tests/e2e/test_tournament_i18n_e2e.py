"""A tournament in the channels' own languages over a real IRC server (miniircd): the lobby in
German, its first table channel in Polish, one person who asked for French privately
(``.unolang me fr``). Computer entrants play (the table's game lines are the game domain's; the
people's clients of test_tournaments_e2e read them in English); real clients watch the lobby
and the table and ask ``.tstatus``.

Each client must see its channel's language only, every line as the server delivered it within
IRC's 400-byte budget, and the stored sheet stays English."""

from __future__ import annotations

import time

from tests.core.fakes import strip_codes
from tests.e2e.client import TestClient
from tests.e2e.conftest import module_server, unique
from tests.e2e.servers import IrcServer
from tests.e2e.test_tournaments_e2e import ADMIN, TourneyBot
from tests.tournament.test_i18n_tournament import leaks
from unobot.core.render_irc import LIMIT

server = module_server("miniircd")

SCALE = 0.0045
"""A 60-minute knockout game lasts 16 s."""


def test_a_german_lobby_a_polish_table_and_a_french_player(server: IrcServer) -> None:
    lobby = "#" + unique("de")
    table = f"{lobby}-t1"
    bot = TourneyBot(server, lobby, seed=5, scale=SCALE)
    clients: list[TestClient] = []
    try:
        bot.bot.settings.set_language(lobby, "de")
        bot.bot.settings.set_language(table, "pl")
        admin = TestClient(server.port, unique(ADMIN))
        clients.append(admin)
        admin.join(lobby)
        watcher = TestClient(server.port, unique("w"))
        clients.append(watcher)
        watcher.join(table)
        ann = TestClient(server.port, unique("ann"))
        clients.append(ann)
        ann.join(lobby)

        def from_bot(client: TestClient, command: str, target: str) -> list[str]:
            return [
                strip_codes(m.text)
                for m in client.snapshot()
                if m.nick == bot.nick and m.command == command and m.target.lower() == target
            ]

        def answer(who: TestClient, text: str, expect: str, command: str = "PRIVMSG") -> str:
            after = len(who.snapshot())
            who.privmsg(lobby, text)
            found = who.wait_for(
                lambda m: m.nick == bot.nick and m.command == command and expect in m.text,
                timeout=10,
                what=f"the answer to {text!r}",
                after=after,
            )
            return strip_codes(found.text)

        name = unique("ko")
        answer(admin, f".tournament new knockout {name}", f"Turnier {name} (knockout) ist offen")
        line = answer(admin, ".tournament addbot easy 4", "Computerspieler (easy) sind in")
        assert line.endswith("(4 Teilnehmer).")
        answer(ann, ".unolang me fr", "Français", command="NOTICE")  # ann's own language
        refused = answer(ann, ".tournament start", "admin", command="NOTICE")
        assert refused == "seul un admin du bot ou un opérateur du salon dirige le tournoi"
        admin.privmsg(lobby, ".tournament start")
        admin.wait_for(
            lambda m: m.nick == bot.nick and f"Turnier {name} ist vorbei!" in m.text,
            timeout=90,
            what="the end of the tournament",
        )
        said = from_bot(admin, "PRIVMSG", lobby.lower())
        assert "Durchgang 1: 4 Spieler, das Finale." in said, said
        assert leaks(said, "de", 6) == [], said
        at_table = from_bot(watcher, "PRIVMSG", table.lower())
        assert at_table and at_table[0].startswith(f"Turniej {name} - Finał: "), at_table[:2]
        assert not any(t.startswith("Tournament ") for t in at_table)

        # .tstatus: the channel's line in German, the standings and sheet to ann in French
        after = len(ann.snapshot())
        status = answer(ann, f".tstatus {name}", f"{name} (knockout, vorbei): 1. ")
        assert status.startswith(f"{name} (knockout, vorbei): 1. ")
        time.sleep(1.0)  # the private lines follow
        mine = [
            strip_codes(m.text)
            for m in ann.snapshot()[after:]
            if m.nick == bot.nick and m.command == "NOTICE"
        ]
        assert any(line.startswith("1. ") and "(vainqueur)" in line for line in mine), mine
        sheet = [line for line in mine if " > " in line]
        assert sheet and all(" > Finale,G" in line for line in sheet), sheet
        assert leaks(mine, "fr", 6) == []
        stored = bot.bot.director.find(name)  # type: ignore[union-attr]
        assert stored is not None and all(" > Final,G" in r.text() for r in stored.sheet.lines)

        for client in clients:
            for m in client.snapshot():
                if m.nick == bot.nick:
                    assert len(m.raw.encode()) <= 512
                    assert len(m.text.encode()) <= LIMIT, m.text
    finally:
        for client in clients:
            client.close()
        bot.stop()
