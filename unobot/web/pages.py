"""What each page says, as plain data: the JSON API returns it as is, and the HTML templates
are drawn from the same values, so the two never disagree.

A game's replay comes from :func:`unobot.replay.steps.steps` (the move list replayed through
the real table, as the bot restores tables); cards are sent in notation, with one drawing
(:mod:`unobot.web.cards`) per distinct card of the game for the page's script.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from unobot.i18n import domain
from unobot.stats.model import StoredGame
from unobot.stats.ratings import conservative, uncertainty
from unobot.web.cards import CardView, card_view, color_name, views_of
from unobot.web.queries import Board, BoardLine, PlayerPage

__all__ = [
    "ReplayView",
    "board_json",
    "game_json",
    "player_json",
    "replay_view",
    "tournament_json",
    "tournament_summary_json",
]

_, ngettext = domain("web")

log = logging.getLogger(__name__)

Link = Callable[..., str]
"""``link(route name, **path params)`` -> the root-relative URL of a page."""


def _line_json(line: BoardLine, player_link: Callable[[str, str], str]) -> dict[str, Any]:
    return {
        "rank": line.rank,
        "nick": line.nick,
        "network": line.network,
        "games": line.games,
        "wins": line.wins,
        "points": line.points,
        "seconds": line.seconds,
        "pw": round(line.pw, 4),
        "ppg": round(line.ppg, 2),
        "rating": line.rating,
        "uncertainty": line.uncertainty,
        "rated_games": line.rated_games,
        "team_games": line.team_games,
        "stopped_games": line.stopped_games,
        "provisional": line.provisional,
        "is_bot": line.is_bot,
        "url": player_link(line.nick, line.network),
    }


def board_json(board: Board, player_link: Callable[[str, str], str]) -> dict[str, Any]:
    return {
        "ranking": board.ranking,
        "period": board.period,
        "channel": board.channel,
        "network": board.network,
        "min_games": board.min_games,
        "bots": board.bots,
        "players": [_line_json(line, player_link) for line in board.lines],
    }


def player_json(
    page: PlayerPage, player_link: Callable[[str, str], str], game_link: Callable[[str], str]
) -> dict[str, Any]:
    p = page.player
    return {
        "nick": p.nick,
        "network": p.network,
        "is_bot": p.is_bot,
        "games": page.games,
        "stopped_games": page.stopped_games,
        "wins": page.wins,
        "pw": round(page.wins / page.games, 4) if page.games else None,
        "points": page.points,
        "ppg": round(page.points / page.games, 2) if page.games else None,
        "seconds": page.seconds,
        "rating": page.rating,
        "uncertainty": page.uncertainty,
        "rated_games": page.rated_games,
        "rating_rank": page.rating_rank,
        "games_read": page.games_read,
        "rating_history": [
            {"game": r.game, "ended": r.ended.isoformat(), "rating": r.rating}
            for r in page.rating_history
        ],
        "weeks": [
            {"week": w.week, "games": w.games, "points": w.points, "ppg": round(w.ppg, 2)}
            for w in page.weeks
        ],
        "opponents": [
            {
                "nick": o.nick,
                "network": o.network,
                "games": o.games,
                "wins": o.wins,
                "win_share": round(o.win_share, 4),
                "url": player_link(o.nick, o.network),
            }
            for o in page.opponents
        ],
        "recent": [
            {
                "id": g.short_id,
                "channel": g.channel,
                "ended": g.ended.isoformat(),
                "seconds": g.seconds,
                "players": g.players,
                "place": g.place,
                "won": g.won,
                "points": g.points,
                "finished": g.finished,
                "stopped": g.stopped,
                "url": game_link(g.key),
            }
            for g in page.recent
        ],
    }


@dataclass(frozen=True, slots=True)
class ReplayView:
    """A game's replay as the page needs it: every step as JSON, the drawings of the cards
    they use, and the first step drawn for the server-side page."""

    steps: list[dict[str, Any]]
    cards: dict[str, dict[str, Any]]
    error: str | None = None
    """Why there is no replay (no move list, or one that can't be replayed)."""

    @property
    def first(self) -> dict[str, Any] | None:
        return self.steps[0] if self.steps else None

    def card(self, code: str) -> CardView:
        return card_view(code)

    def color_name(self, letter: str | None) -> str | None:
        return color_name(letter)


def _step_json(step: Any) -> dict[str, Any]:
    return {
        "number": step.number,
        "hand": step.hand,
        "actor": step.actor,
        "action": step.action,
        "lines": list(step.lines),
        "notices": [{"nick": n, "text": t} for n, t in step.notices],
        "hands": [{"nick": n, "cards": list(cards)} for n, cards in step.hands],
        "top": step.top,
        "color": step.color,
        "current": step.current,
        "scores": [{"nick": n, "score": s} for n, s in step.scores],
    }


def replay_view(moves: str | None) -> ReplayView:
    """The game's steps, or why there are none (never raises: a damaged move list gives a
    page that says so, and the log says why)."""
    if moves is None:
        return ReplayView(
            [], {}, _("This game was recorded without its move list, so it can't be replayed.")
        )
    try:
        from unobot.replay.steps import steps

        replayed = [_step_json(s) for s in steps(moves)]
    except Exception:
        log.exception("a stored move list could not be replayed")
        return ReplayView([], {}, _("This game's move list could not be replayed."))
    if not replayed:
        return ReplayView([], {}, _("This game's move list holds no moves."))
    codes = {c for s in replayed for h in s["hands"] for c in h["cards"]}
    codes.update(s["top"] for s in replayed if s["top"])
    return ReplayView(replayed, views_of(codes))


def game_json(
    game: StoredGame, replay: ReplayView, player_link: Callable[[str, str], str]
) -> dict[str, Any]:
    return {
        "id": game.id,
        "game_id": game.game_id,
        "short_id": game.short_id,
        "network": game.network,
        "channel": game.channel,
        "preset": game.preset,
        "teams": game.teams,
        "stopped": game.stopped,
        "started": game.started.isoformat(),
        "ended": game.ended.isoformat(),
        "seconds": game.seconds,
        "results": [
            {
                "nick": r.nick,
                "place": r.place,
                "won": r.won,
                "points_won": r.points_won,
                "points_left": r.points_left,
                "finished": r.finished,
                "is_bot": r.is_bot,
                "rating": None if r.mu is None or r.sigma is None else conservative(r.mu, r.sigma),
                "uncertainty": None if r.sigma is None else uncertainty(r.sigma),
                "url": player_link(r.nick, game.network),
            }
            for r in game.results
        ],
        "has_moves": game.moves is not None,
        "replay_error": replay.error,
        "steps": replay.steps,
    }


# -- tournaments ------------------------------------------------------------------------------


def _iso(at: float | None) -> str | None:
    from unobot.tournament.export import iso

    return iso(at) if at is not None else None


def _seats_json(seats: Any) -> list[dict[str, Any]]:
    return [{"name": s.name, "total": s.total, "won": s.won, "left": s.gone} for s in seats]


def _table_json(game: Any, live: dict[str, Any]) -> dict[str, Any]:
    return {
        "key": game.key,
        "table": game.table,
        "stage": game.stage,
        "channel": game.channel,
        "players": _seats_json(game.seats),
        "done": game.done,
        "live": live.get(game.channel_key),
    }


def tournament_summary_json(view: Any, link: str, csv: str) -> dict[str, Any]:
    """A tournament as the list shows it."""
    return {
        "name": view.name,
        "format": view.format,
        "status": view.status,
        "channel": view.channel,
        "entrants": sum(1 for e in view.entrants if not e.reserve),
        "reserves": sum(1 for e in view.entrants if e.reserve),
        "created": _iso(view.created),
        "ended": _iso(view.ended),
        "current": view.current,
        "winner": view.winner or None,
        "url": link,
        "csv": csv,
    }


def tournament_json(
    view: Any, link: str, csv: str, live: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Everything the tournament page shows. ``live``: the live-game hook's values by folded
    channel (``table["live"]``; null when the bot has told the site nothing of that table)."""
    live = live or {}
    data = tournament_summary_json(view, link, csv)
    data.update(
        {
            "format_name": view.format_name,
            "options": view.options,
            "by": view.by,
            "reason": view.reason or None,
            "problem": view.problem or None,
            "entrants_list": [
                {"name": e.name, "reserve": e.reserve, "computer": e.computer}
                for e in view.entrants
            ],
            "tables": [_table_json(g, live) for g in view.playing],
            "games": [_table_json(g, live) for g in view.games],
            "standings": [
                {"place": s.place, "name": s.name, "score": s.score, "note": s.note}
                for s in view.standings
            ],
            "final": view.final,
            "placings": [
                {"place": s.place, "name": s.name, "score": s.score, "note": s.note}
                for s in view.standings
            ]
            if view.final
            else None,
            "sheet": [
                {
                    "title": section.title,
                    "lines": [
                        {
                            "text": line.text,
                            "player": line.player,
                            "table": line.table,
                            "game": line.game,
                            "score": line.mark,
                            "stage": line.stage,
                            "clock": line.clock,
                        }
                        for line in section.lines
                    ],
                }
                for section in view.sheet
            ],
            "bracket": [
                {
                    "round": r.number,
                    "title": r.title,
                    "games": [
                        {
                            "key": g.key,
                            "stage": g.stage,
                            "players": _seats_json(g.seats),
                            "through": g.through,
                            "bye": g.bye,
                            "playing": g.playing,
                            "sudden_death": list(g.extra),
                        }
                        for g in r.games
                    ],
                }
                for r in view.bracket
            ],
            "rotation": [
                {
                    "round": r.number,
                    "tables": [_table_json(g, live) for g in r.tables],
                    "moves": [
                        {"name": m.name, "from": m.from_table, "to": m.to_table, "why": m.why}
                        for m in r.moves
                    ],
                }
                for r in view.rotation
            ],
            "records": [
                {"kind": r.kind, "at": _iso(r.at), "player": r.player, "detail": r.detail}
                for r in view.records
            ],
        }
    )
    return data
