"""The bot's settings as one frozen value (built by ``unobot.config`` from TOML and flags).

A module of its own, below the bot and the plugin API: plugins read ``ctx.bot.config`` and
``unobot.config`` builds it, and neither needs the bot itself for that.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from unobot.core.computers import ComputerConfig
from unobot.core.table import TableConfig
from unobot.engine import HouseRules

__all__ = ["DEFAULT_PLUGINS", "BotConfig"]

DEFAULT_PLUGINS = (
    "unobot.plugins.uno_game",
    "unobot.plugins.uno_stats",
    "unobot.plugins.uno_rules",
    "unobot.plugins.uno_tournament",
)
"""The built-in command plugins, loaded by name (``bot.plugins`` in the config lists them)."""


@dataclass(frozen=True, slots=True)
class BotConfig:
    prefix: str = "."
    table: TableConfig = field(default_factory=TableConfig)
    admins: frozenset[str] = frozenset()
    """``nick!user@host`` patterns (``*`` and ``?`` wildcards) or ``$a:account`` entries."""
    admin_code: bool = True
    """``[bot] admin_code``: a one-time code on the console at start makes whoever gives it
    (``.unoadmin CODE``) a bot admin for the run (``unobot.core.admins``); false: none."""
    channel_colors: bool = True
    """mIRC colours for cards in channel lines (hands follow each player's own choice)."""
    channel_rules: Mapping[str, HouseRules] = field(default_factory=dict)
    """Rules for particular channels (keys folded with ``irc_lower``); others use ``table``."""
    language: str = "en"
    """``[bot] language``: what the bot speaks where nobody chose with ``.unolang``."""
    channel_languages: Mapping[str, str] = field(default_factory=dict)
    """``[bot.channel_languages]``: languages of particular channels (keys folded), unless
    the channel chose another with ``.unolang``."""
    network: str = ""
    """Network name stored with every recorded game (stats of two networks never mix)."""
    stats_min_games: int = 5
    """Games a player needs before they appear in (and get a rank in) a leaderboard."""
    stats_max_list: int = 25
    """Longest leaderboard one command may ask for (``.unostats pw N``)."""
    stats_cooldown: float = 10.0
    """Seconds between two leaderboards for one user, and between two in one channel."""
    bots: ComputerConfig = field(default_factory=ComputerConfig)
    """Computer players (``.addbot``): whether allowed, their pause, how ``hard`` thinks."""
    tournament_scale: float = 1.0
    """Every tournament duration (sign-up, game and round lengths, the no-show grace) is
    multiplied by this: tests run 60-minute games as 20 seconds with 0.0056."""
    web_public_url: str = ""
    """``[web] public_url``: where people reach the stats site (``.unogame`` answers with a
    link there); "" when the site is not public."""
    plugins: tuple[str, ...] = DEFAULT_PLUGINS
    """Command plugins to load: module names or ``.py`` paths (``plugin.load_plugins``)."""
    trusted_hosts: tuple[str, ...] = ()
    """``[bot] trusted_hosts``: networks (``192.168.0.0/16``) and host masks (``*.lan``) of
    addresses several people share (a LAN), whose command budget is larger (``core.trusted``)."""
    trusted_multiplier: float = 4.0
    """How many times the usual command budget a trusted host gets."""
