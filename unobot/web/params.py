"""The query parameters the site accepts, checked: a bad one is a 400 with a sentence saying
what is expected, never a traceback. Parameters the site does not know are ignored (a link
with a tracking tag still works)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from unobot.i18n import N_, domain
from unobot.stats.model import Period

_, ngettext = domain("web")

__all__ = ["RANKINGS", "BadParameter", "LeaderboardQuery", "leaderboard_query"]

RANKINGS = ("pw", "ppg", "rating")
RANKING_NAMES = {"pw": N_("% wins"), "ppg": N_("points per game"), "rating": N_("rating")}
PERIOD_NAMES = {"week": N_("this week"), "month": N_("this month"), "all": N_("all time")}
"""Labels (translated where shown: ``_(PERIOD_NAMES[key])``)."""
MAX_LIMIT = 100
DEFAULT_LIMIT = 50
MAX_MIN_GAMES = 1_000_000
_CHANNEL_START = "#&+!"
_NOT_IN_NAMES = " ,\x07\r\n\0"
_NOT_CHANNEL = N_("channel must be a channel name such as #uno, not {channel}")


class BadParameter(ValueError):
    """A query parameter that can't be used; the message says which and what it takes."""


@dataclass(frozen=True, slots=True)
class LeaderboardQuery:
    ranking: str
    period: Period
    channel: str
    network: str
    min_games: int
    limit: int
    bots: bool

    def params(self, **changes: object) -> dict[str, str]:
        """This query as link parameters (defaults left out), with ``changes`` applied."""
        values: dict[str, object] = {
            "ranking": self.ranking,
            "period": self.period.value,
            "channel": self.channel,
            "network": self.network,
            "min": self.min_games,
            "bots": "1" if self.bots else "",
            "limit": "" if self.limit == DEFAULT_LIMIT else self.limit,
            **changes,
        }
        if values["ranking"] == "rating":  # all-time, all channels: nothing else applies
            values["period"] = "all"
            values["channel"] = ""
        out = {k: str(v) for k, v in values.items() if v not in ("", None)}
        if out.get("period") == "all":
            del out["period"]
        return out


def _int(params: Mapping[str, str], key: str, default: int, low: int, high: int) -> int:
    raw = params.get(key, "").strip()
    if not raw:
        return default
    if not (raw.isascii() and raw.isdigit()) or not low <= int(raw) <= high:
        raise BadParameter(
            _("{key} must be a whole number from {low} to {high}", key=key, low=low, high=high)
        )
    return int(raw)


def _name(params: Mapping[str, str], key: str, longest: int) -> str:
    value = params.get(key, "").strip()
    if len(value) > longest or any(c in value for c in _NOT_IN_NAMES) or not value.isprintable():
        raise BadParameter(_("{key} is not a {key} name", key=key))
    return value


def leaderboard_query(params: Mapping[str, str], default_min: int) -> LeaderboardQuery:
    """The leaderboard asked for by ``params`` (a request's query parameters).

    ``ranking``: ``pw``, ``ppg`` or ``rating`` (default: rating, or points per game when a
    week or month is asked for, since a rating has no period); ``period``: ``week``,
    ``month`` or ``all``; ``channel``: ``#name`` or empty; ``network``: a network's name or
    empty; ``min``: games needed to be ranked; ``limit``: players listed (1-100, 50);
    ``bots``: ``1`` to rank computer players too."""
    period_text = params.get("period", "").strip().lower() or "all"
    try:
        period = Period(period_text)
    except ValueError:
        raise BadParameter(_("period must be week, month or all")) from None
    ranking = params.get("ranking", "").strip().lower()
    if not ranking:
        ranking = "rating" if period is Period.ALL else "ppg"
    if ranking not in RANKINGS:
        raise BadParameter(_("ranking must be pw (% wins), ppg (points per game) or rating"))
    channel = _name(params, "channel", 200)
    if channel and channel[0] not in _CHANNEL_START:
        raise BadParameter(_(_NOT_CHANNEL, channel=repr(channel)))
    network = _name(params, "network", 100)
    if ranking == "rating" and period is not Period.ALL:
        raise BadParameter(
            _(
                "a rating is not a sum over a period: rating rankings are all-time "
                "(use ranking=pw or ranking=ppg for a week or a month)"
            )
        )
    if ranking == "rating" and channel:
        raise BadParameter(
            _(
                "ratings are kept per network, not per channel: leave the channel empty "
                "(or use ranking=pw or ranking=ppg for one channel)"
            )
        )
    bots = params.get("bots", "").strip().lower()
    if bots not in ("", "0", "1", "on", "true", "false", "yes", "no"):
        raise BadParameter(_("bots must be 1 (rank computer players too) or 0"))
    return LeaderboardQuery(
        ranking=ranking,
        period=period,
        channel=channel,
        network=network,
        min_games=_int(params, "min", default_min, 1, MAX_MIN_GAMES),
        limit=_int(params, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT),
        bots=bots in ("1", "on", "true", "yes"),
    )


RECORD_KEYS = ("moves", "time", "points", "streak", "cards", "comeback", "day")


@dataclass(frozen=True, slots=True)
class RecordsQuery:
    """``/records``: the leaderboard form's period, channel, network and computer players."""

    period: Period
    channel: str
    network: str
    bots: bool

    def params(self, **changes: object) -> dict[str, str]:
        """This query as link parameters (defaults left out), with ``changes`` applied."""
        values: dict[str, object] = {
            "period": self.period.value,
            "channel": self.channel,
            "network": self.network,
            "bots": "1" if self.bots else "",
            **changes,
        }
        out = {k: str(v) for k, v in values.items() if v not in ("", None)}
        if out.get("period") == "all":
            del out["period"]
        return out


def records_query(params: Mapping[str, str]) -> RecordsQuery:
    """The records asked for: ``period`` (``week``, ``month``, ``all``), ``channel``
    (``#name`` or empty: every channel), ``network`` (empty: every network), ``bots`` (``1``:
    computer players may hold records too)."""
    period_text = params.get("period", "").strip().lower() or "all"
    try:
        period = Period(period_text)
    except ValueError:
        raise BadParameter(_("period must be week, month or all")) from None
    channel = _name(params, "channel", 200)
    if channel and channel[0] not in _CHANNEL_START:
        raise BadParameter(_(_NOT_CHANNEL, channel=repr(channel)))
    bots = params.get("bots", "").strip().lower()
    if bots not in ("", "0", "1", "on", "true", "false", "yes", "no"):
        raise BadParameter(_("bots must be 1 (computer players too) or 0"))
    return RecordsQuery(
        period, channel, _name(params, "network", 100), bots in ("1", "on", "true", "yes")
    )
