"""A SIGKILL storm with computer seats, by hand (minutes, not a test run on every commit).

The real bot process (``python unobot.py``) on a real ngircd, one person (a real client with
the test agent) against hard, normal and easy computer seats, game after game; at random
moments the bot is SIGKILLed and started again on its journal and database. Prints the
restored games with computer seats and how many finished, computer seats that ran out of
time, and games recorded against wins said (each once)::

    .venv/bin/python -m tests.e2e.storm_computers [KILLS] [SEED]
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path

from tests.e2e.conftest import unique
from tests.e2e.servers import start_server
from tests.e2e.test_games import NetGame, make_players
from tests.e2e.test_restarts import BotProcess, computers_config, recorded, restored_line, view


def main(kills: int = 10, seed: int = 5) -> int:
    rng = random.Random(seed)
    srv = start_server("ngircd")
    cwd = Path(tempfile.mkdtemp(prefix="unobot-storm-"))
    channel = "#" + unique("storm")
    (person,) = make_players(srv, 1, channel)
    extra = computers_config(cwd, delay=0.3)
    bot = BotProcess(srv, cwd, channel, person, extra)
    game = NetGame(view(channel), [person])  # type: ignore[arg-type]
    done = restores = games = restored_games = restored_finished = 0
    try:
        while done < kills:
            game.command(person, ".uno")
            for level in ("hard", "normal", "easy"):
                game.command(person, f".addbot {level}")
            game.command(person, ".deal")
            games += 1
            restored = False
            kill_after, steps = rng.randint(3, 40), 0
            while not game.over():
                game.step()
                steps += 1
                if steps != kill_after or done >= kills:
                    continue
                time.sleep(rng.random() * 0.6)  # sometimes while a computer seat thinks
                count, seen = len(game.channel_text()), len(person.client.snapshot())
                bot.kill()
                done += 1
                bot = BotProcess(srv, cwd, channel, person, extra)
                if game.over():
                    break  # killed right after the winning move: nothing to restore
                restored_line(game, count)
                restored, restores = True, restores + 1
                deadline = time.monotonic() + 10
                while not any(
                    m.command == "NOTICE" and "Your cards" in m.text
                    for m in person.client.snapshot()[seen:]
                ):
                    assert time.monotonic() < deadline, "no hand after the restore"
                    time.sleep(0.02)
                person.catch_up("unobot")
                kill_after = steps + rng.randint(5, 40)
            restored_games += restored
            restored_finished += restored and game.over()
            print(f"game {games}: over={game.over()} restored={restored} kills={done}", flush=True)
            time.sleep(0.3)
        text = game.channel_text()
        out = bot.term()
        print(
            f"{done} SIGKILLs, {restores} restores, {games} games; restored games with "
            f"computer seats: {restored_games}, finished: {restored_finished}; computer seats "
            f"out of time: {sum('ran out of time' in t for t in text)}; 'no view' logged: "
            f"{'no view' in out}; games recorded: {recorded(cwd)}, wins said: "
            f"{sum(' wins' in t for t in text)}"
        )
        return 0 if restored_finished == restored_games else 1
    finally:
        if bot.proc.poll() is None:
            bot.kill()
        person.client.close()
        srv.cleanup()


if __name__ == "__main__":
    sys.exit(main(*(int(a) for a in sys.argv[1:3])))
