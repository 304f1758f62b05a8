"""``python -m unobot.stats.example``: build ``stats.db.example``, a small seeded stats store.

Games are played for real by the engine (``Match`` with uniformly random agents, seeded), so
the figures are the ones a channel would see; eight players (one a computer player) over two
channels and six weeks up to 20 November 2026. Same seed, same file contents.
"""

from __future__ import annotations

import argparse
import tempfile
from datetime import datetime, timedelta
from pathlib import Path
from random import Random

from unobot.engine import Match, preset
from unobot.stats.model import GameRecord, PlayerResult, player_ident
from unobot.stats.sql import SqlStatsStore

__all__ = ["build"]

NICKS = ["Alice", "bob", "Carol", "dave[m]", "Erin", "frank", "Grace", "UnoBot"]
ACCOUNTS = {"Alice": "alice", "Carol": "carol", "Grace": "grace"}
END = datetime(2026, 11, 20, 18, 0)


def play(players: int, preset_name: str, rng: Random) -> tuple[list[int], list[int], int]:
    """One match between random agents: totals, points left in hand at the end, actions."""
    match = Match(players, preset(preset_name), rng)
    actions = 0
    while not match.over:
        match.start_hand()
        game = match.game
        assert game is not None
        while not game.over:
            seat = game.current
            legal = game.legal_actions(seat)
            match.apply(seat, legal[int(rng.random() * len(legal))])
            actions += 1
    last = match.hands[-1]
    return list(match.totals), list(last.points), actions


def build(path: Path, games: int = 120, seed: int = 7) -> int:
    path.unlink(missing_ok=True)
    rng = Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        store = SqlStatsStore(f"sqlite:///{path}", spool_path=Path(tmp) / "spool")
        when = END - timedelta(days=42)
        for n in range(games):
            seated = rng.sample(NICKS, rng.randint(2, 5))
            name = rng.choice(["irc-classic", "irc-classic", "official"])
            totals, left, actions = play(len(seated), name, rng)
            best = max(totals)
            order = sorted(range(len(seated)), key=lambda s: -totals[s])
            places = {s: 1 + sum(totals[o] > totals[s] for o in order) for s in order}
            results = tuple(
                PlayerResult(
                    ident=player_ident(nick, ACCOUNTS.get(nick)),
                    nick=nick,
                    place=places[s],
                    won=totals[s] == best,
                    points_won=totals[s],
                    points_left=left[s],
                    account=ACCOUNTS.get(nick),
                    is_bot=nick == "UnoBot",
                )
                for s, nick in enumerate(seated)
            )
            when += timedelta(minutes=rng.randint(20, 900))
            started = when - timedelta(seconds=actions * rng.randint(4, 9))
            channel = rng.choice(["#uno", "#uno", "#cards"])
            store.record_game(
                GameRecord(f"ex{seed}-{n}", "example", channel, name, started, when, results)
            )
        store.close()
    return games


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m unobot.stats.example", description=__doc__)
    parser.add_argument("--output", type=Path, default=Path("stats.db.example"))
    parser.add_argument("--games", type=int, default=120)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    build(args.output, args.games, args.seed)
    print(f"wrote {args.output}: {args.games} games")


if __name__ == "__main__":
    main()
